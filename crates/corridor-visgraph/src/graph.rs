//! What is the visibility graph, and which graph is enough? Its storage (nodes and CSR
//! adjacency), full or reduced; the constructions in [`crate::construct`] fill it in.
//!
//! Nodes are [`Wedge`]s (free sectors at wall vertices), not points: where two
//! obstacles touch diagonally a point has two wedges, and a path that arrives in one
//! must leave in the same one.
//!
//! **Why the reduced graph is enough.** A shortest path is a polyline that bends only at
//! wall vertices (shortcut any other bend inside a small disk). At a bend the path must
//! wrap around the obstacle: the obstacle lies inside the turn, so the free wedge there
//! exceeds π (the vertex is reflex for the free space, a convex corner of the obstacle),
//! and the straight continuation of each path segment past the bend stays in the wedge
//! too (if it entered the obstacle, the turn would be towards free space and could be cut
//! short). So each segment between bends is *tangent* at both ends: the whole line
//! through the vertex along it leaves the obstacle on one side — both the direction and
//! its opposite lie in the wedge. The reduced graph keeps only reflex wedges and
//! bitangent edges; start and goal join it with edges tangent at the graph end. Paths
//! through it have exactly the shortest lengths, with far fewer edges (the tests check
//! this against the full graph).

use corridor_geom::free_space::Arrival;
use corridor_geom::free_space::FreeSpace;
use corridor_geom::free_space::{flip, Dir, Wedge};
use corridor_geom::{Point, Segment};

/// A directed edge between two nodes, as the constructions find them (stored as CSR
/// afterwards: one flat list instead of a growing list per node).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub from: u32,
    pub to: u32,
    pub length: f64,
}

/// Which visibility graph.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GraphKind {
    /// Reflex wedges and bitangent edges only: what shortest paths need (the default).
    #[default]
    Reduced,
    /// Every wedge and every pair of mutually visible wedges.
    Full,
}

/// How the graph is constructed. All constructions give the same edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Construction {
    /// [`Construction::Expansion`] (the default): from 8 to 10,000 vertices the cheapest,
    /// or within 6 % of pairs on small reduced graphs (see docs/BENCHMARKS.md). With
    /// [`GraphOptions::no_culling`], the sweep over every wall.
    #[default]
    Auto,
    /// Lee's rotational sweep around every node, O(n² log n), with the sweep limited to
    /// a growing box around each node. [`GraphOptions::no_culling`] with
    /// [`Construction::Auto`] selects it.
    Sweep,
    /// Every pair of vertices through a cheap direction filter (most pairs cannot be
    /// tangent at both ends) and a segment test against the walls of the grid cells
    /// along it: O(n²) filter steps with a small constant, no per-vertex set-up.
    Pairs,
    /// Triangular expansion: from every node's vertex, the cone of view pushed through
    /// a constrained triangulation of the free space, triangle by triangle; collinear
    /// vertices chained by ray walks.
    Expansion,
    /// Every pair of nodes against every wall, O(n³): the test oracle.
    Naive,
}

/// Options for [`VisibilityGraph::with_options`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GraphOptions {
    /// Which graph.
    pub kind: GraphKind,
    /// How to build it.
    pub construction: Construction,
    /// Sweep over every wall from every node, without the culling box (slower; for
    /// testing the culling). With [`Construction::Auto`] it also selects the sweep.
    pub no_culling: bool,
}

/// A visibility graph over the corners of the free space, ready for shortest-path
/// queries between any two free points.
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// use corridor_visgraph::VisibilityGraph;
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
/// env.insert(Obstacle::rectangle(Point::new(4.0, 0.0), Point::new(6.0, 8.0)));
/// let graph = VisibilityGraph::build(&env).unwrap();
/// let path = graph.shortest_path(Point::new(1.0, 1.0), Point::new(9.0, 1.0)).unwrap();
/// // Over the wall's two top corners.
/// assert_eq!(path.points.len(), 4);
/// let expected = 2.0 * (3.0f64.powi(2) + 7.0f64.powi(2)).sqrt() + 2.0;
/// assert!((path.length - expected).abs() < 1e-12);
/// ```
#[derive(Clone, Debug)]
pub struct VisibilityGraph {
    pub(crate) free: FreeSpace,
    pub(crate) kind: GraphKind,
    pub(crate) node_wedge: Vec<u32>,
    pub(crate) wedge_node: Vec<u32>,
    pub(crate) offsets: Vec<u32>,
    pub(crate) targets: Vec<u32>,
    pub(crate) weights: Vec<f64>,
}

impl VisibilityGraph {
    /// The graph's nodes over `free` (every wedge for the full graph, the reflex ones for
    /// the reduced graph), without edges yet: the constructions fill them in.
    pub(crate) fn without_edges(free: FreeSpace, kind: GraphKind) -> Self {
        let mut node_wedge = Vec::new();
        let mut wedge_node = vec![u32::MAX; free.wedges.len()];
        for (i, w) in free.wedges.iter().enumerate() {
            if kind == GraphKind::Full || w.is_reflex() {
                wedge_node[i] = node_wedge.len() as u32;
                node_wedge.push(i as u32);
            }
        }
        VisibilityGraph {
            free,
            kind,
            node_wedge,
            wedge_node,
            offsets: Vec::new(),
            targets: Vec::new(),
            weights: Vec::new(),
        }
    }

    /// Stores `edges` as the CSR adjacency (each node's neighbours by increasing id): a
    /// counting sort by source straight into the target and weight arrays (each
    /// allocated once, at its exact size), then each node's short list sorted only if it
    /// is not already (the pair construction emits every list in order; entries with one
    /// target are the same edge, so their order does not matter).
    pub(crate) fn store(&mut self, edges: &[Edge]) {
        let n = self.node_wedge.len();
        let mut offsets = vec![0u32; n + 1];
        for e in edges {
            offsets[e.from as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets[..n].to_vec();
        let mut targets = vec![0u32; edges.len()];
        let mut weights = vec![0.0f64; edges.len()];
        for e in edges {
            let slot = &mut fill[e.from as usize];
            targets[*slot as usize] = e.to;
            weights[*slot as usize] = e.length;
            *slot += 1;
        }
        let mut list: Vec<(u32, f64)> = Vec::new();
        for u in 0..n {
            let range = offsets[u] as usize..offsets[u + 1] as usize;
            if targets[range.clone()].is_sorted() {
                continue;
            }
            list.clear();
            list.extend(
                targets[range.clone()]
                    .iter()
                    .copied()
                    .zip(weights[range.clone()].iter().copied()),
            );
            list.sort_unstable_by_key(|&(t, _)| t);
            for (k, &(t, w)) in range.zip(&list) {
                targets[k] = t;
                weights[k] = w;
            }
        }
        self.targets = targets;
        self.weights = weights;
        self.offsets = offsets;
    }

    /// Whether a path may use `wedge` leaving (or arriving) in direction `d`: inside the
    /// wedge for the full graph, tangent for the reduced one.
    pub(crate) fn allows(&self, wedge: &Wedge, d: Dir) -> bool {
        match self.kind {
            GraphKind::Full => wedge.contains(d),
            GraphKind::Reduced => wedge.contains_line(d),
        }
    }

    /// The nodes at vertex `v`.
    pub(crate) fn nodes_at(&self, v: u32) -> impl Iterator<Item = u32> + '_ {
        self.free
            .wedge_range(v)
            .map(|w| self.wedge_node[w])
            .filter(|&n| n != u32::MAX)
    }

    pub(crate) fn has_nodes(&self, v: u32) -> bool {
        self.nodes_at(v).next().is_some()
    }

    /// Adds the edges between nodes at vertex `v` (at `c`) and nodes at vertex `x`
    /// (whose open segment to `c` is known to be free).
    pub(crate) fn link(&self, v: u32, x: u32, arrival: Arrival, edges: &mut Vec<Edge>) {
        let c = self.free.points[v as usize];
        let p = self.free.points[x as usize];
        let dist = c.distance(p);
        for u in self.nodes_at(v) {
            let wu = &self.free.wedges[self.node_wedge[u as usize] as usize];
            if !self.allows(wu, Dir::towards(p)) {
                continue;
            }
            let leave = wu.sides_along(Dir::towards(p));
            for w in self.nodes_at(x) {
                let ww = &self.free.wedges[self.node_wedge[w as usize] as usize];
                let arrive = flip(ww.sides_along(Dir::towards(c)));
                if self.allows(ww, Dir::towards(c)) && arrival.admits(leave, arrive) {
                    edges.push(Edge {
                        from: u,
                        to: w,
                        length: dist,
                    });
                }
            }
        }
    }

    /// The free space the graph lives in.
    pub fn free_space(&self) -> &FreeSpace {
        &self.free
    }

    /// Which graph this is.
    pub fn kind(&self) -> GraphKind {
        self.kind
    }

    /// The bytes the graph alone occupies (without its free space): the struct plus its
    /// node tables and CSR adjacency, counted from the vectors' capacities × element
    /// sizes. Every edge is stored in both directions, 12 bytes each way.
    pub fn graph_memory_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>() - size_of::<FreeSpace>()
            + (self.node_wedge.capacity()
                + self.wedge_node.capacity()
                + self.offsets.capacity()
                + self.targets.capacity())
                * size_of::<u32>()
            + self.weights.capacity() * size_of::<f64>()
    }

    /// The bytes the whole graph occupies, its free space included (what a query
    /// needs): [`VisibilityGraph::graph_memory_bytes`] plus
    /// [`FreeSpace::memory_bytes`].
    ///
    /// ```
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// use corridor_visgraph::VisibilityGraph;
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 4.0), Point::new(6.0, 6.0)));
    /// let graph = VisibilityGraph::build(&env).unwrap();
    /// assert_eq!(
    ///     graph.memory_bytes(),
    ///     graph.graph_memory_bytes() + graph.free_space().memory_bytes()
    /// );
    /// ```
    pub fn memory_bytes(&self) -> usize {
        self.graph_memory_bytes() + self.free.memory_bytes()
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.node_wedge.len()
    }

    /// Number of edges, each counted once.
    pub fn edge_count(&self) -> usize {
        self.targets.len() / 2
    }

    /// The position of node `n`.
    pub fn node_point(&self, n: usize) -> Point {
        self.free.wedges[self.node_wedge[n] as usize].apex
    }

    /// The wedge of node `n`.
    pub fn node_wedge(&self, n: usize) -> &Wedge {
        &self.free.wedges[self.node_wedge[n] as usize]
    }

    /// The neighbours of node `n` with the edge lengths.
    pub fn neighbours(&self, n: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let r = self.offsets[n] as usize..self.offsets[n + 1] as usize;
        self.targets[r.clone()]
            .iter()
            .zip(&self.weights[r])
            .map(|(&t, &w)| (t as usize, w))
    }

    /// Every edge once, as `(smaller node, larger node)`, in order.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.node_count())
            .flat_map(move |u| self.neighbours(u).map(move |(w, _)| (u, w)))
            .filter(|&(u, w)| u < w)
    }

    /// Every edge once as a segment (for drawing).
    pub fn edge_segments(&self) -> Vec<Segment> {
        self.edges()
            .map(|(u, w)| Segment::new(self.node_point(u), self.node_point(w)))
            .collect()
    }
}
