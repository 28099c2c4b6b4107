//! How does one get from trapezoid to trapezoid? The roadmap: the centre of every free
//! trapezoid, the middle of every vertical side two free trapezoids share, and an edge
//! from each centre to the middles of its sides. Every edge lies in one (convex, free)
//! trapezoid, so every path along the roadmap is free; it is not the shortest.

use corridor_geom::{Point, Segment};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How much the straight-line estimate counts in the roadmap search.
const HEURISTIC_WEIGHT: f64 = 5.0;

/// The roadmap graph.
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// use corridor_trapmap::TrapezoidalMap;
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 4.0));
/// env.insert(Obstacle::rectangle(Point::new(1.0, 1.0), Point::new(3.0, 3.0)));
/// let map = TrapezoidalMap::build(&env).unwrap();
/// let roadmap = map.roadmap();
/// assert!(roadmap.nodes().len() > 4);
/// assert!(!roadmap.edge_segments().is_empty());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Roadmap {
    pub(crate) points: Vec<Point>,
    /// Edges as `(a, b)` while building; [`Roadmap::finish`] turns them into the CSR
    /// arrays below (one contiguous neighbour list per node, with the edge lengths, so
    /// the search reads memory in order and takes no square roots).
    pending: Vec<(u32, u32)>,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    lengths: Vec<f64>,
}

impl Roadmap {
    /// Heap bytes held (vector capacities × element sizes).
    pub(crate) fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.points.capacity() * size_of::<Point>()
            + self.pending.capacity() * size_of::<(u32, u32)>()
            + (self.offsets.capacity() + self.targets.capacity()) * size_of::<u32>()
            + self.lengths.capacity() * size_of::<f64>()
    }

    pub(crate) fn add_node(&mut self, p: Point) -> u32 {
        self.points.push(p);
        (self.points.len() - 1) as u32
    }

    pub(crate) fn add_edge(&mut self, a: u32, b: u32) {
        self.pending.push((a, b));
    }

    /// Builds the CSR adjacency from the edges added (each stored both ways).
    pub(crate) fn finish(&mut self) {
        let n = self.points.len();
        let mut offsets = vec![0u32; n + 1];
        for &(a, b) in &self.pending {
            offsets[a as usize + 1] += 1;
            offsets[b as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let m = offsets[n] as usize;
        let (mut targets, mut lengths) = (vec![0u32; m], vec![0.0; m]);
        for &(a, b) in &self.pending {
            let len = self.points[a as usize].distance(self.points[b as usize]);
            for (from, to) in [(a, b), (b, a)] {
                let slot = &mut fill[from as usize];
                targets[*slot as usize] = to;
                lengths[*slot as usize] = len;
                *slot += 1;
            }
        }
        self.pending = Vec::new();
        (self.offsets, self.targets, self.lengths) = (offsets, targets, lengths);
    }

    fn neighbours(&self, u: u32) -> std::ops::Range<usize> {
        self.offsets[u as usize] as usize..self.offsets[u as usize + 1] as usize
    }

    /// The node positions (trapezoid centres and side middles).
    pub fn nodes(&self) -> &[Point] {
        &self.points
    }

    /// Every edge once, as `(smaller, larger)` node index.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.offsets.len().saturating_sub(1)).flat_map(move |a| {
            self.targets[self.neighbours(a as u32)]
                .iter()
                .map(move |&b| (a, b as usize))
                .filter(|&(a, b)| a < b)
        })
    }

    /// Every edge once as a segment (for drawing).
    pub fn edge_segments(&self) -> Vec<Segment> {
        self.edges()
            .map(|(a, b)| Segment::new(self.points[a], self.points[b]))
            .collect()
    }

    /// The node path from `from` to `to` by weighted A* on Euclidean edge lengths (the
    /// straight-line estimate counted five times: roadmap paths are far from straight, and an
    /// exact search would look at most of the map), if any.
    ///
    /// Every node is expanded at most once (a closed set). The inflated estimate is not
    /// consistent, so without the closed set a node is reopened each time a cheaper way to
    /// it turns up; on `random512-10-0` (222,000 roadmap nodes) that re-expanded nodes so
    /// often that single queries took seconds. Without reopening, the search is
    /// O(N log N) at worst and the path still costs at most five times the roadmap's
    /// shortest.
    pub(crate) fn search(&self, from: u32, to: u32) -> Option<Vec<u32>> {
        let n = self.points.len();
        let goal = self.points[to as usize];
        let mut dist = vec![f64::INFINITY; n];
        let mut came = vec![u32::MAX; n];
        let mut closed = vec![false; n];
        let mut heap = BinaryHeap::new();
        dist[from as usize] = 0.0;
        let h = |p: Point| HEURISTIC_WEIGHT * p.distance(goal);
        heap.push(Reverse((h(self.points[from as usize]).to_bits(), from)));
        while let Some(Reverse((f, u))) = heap.pop() {
            let g = dist[u as usize];
            if closed[u as usize] || (g + h(self.points[u as usize])).to_bits() != f {
                continue;
            }
            closed[u as usize] = true;
            if u == to {
                let mut path = vec![to];
                let mut v = to;
                while v != from {
                    v = came[v as usize];
                    path.push(v);
                }
                path.reverse();
                return Some(path);
            }
            for k in self.neighbours(u) {
                let v = self.targets[k];
                if closed[v as usize] {
                    continue;
                }
                let ng = g + self.lengths[k];
                if ng < dist[v as usize] {
                    dist[v as usize] = ng;
                    came[v as usize] = u;
                    heap.push(Reverse(((ng + h(self.points[v as usize])).to_bits(), v)));
                }
            }
        }
        None
    }
}
