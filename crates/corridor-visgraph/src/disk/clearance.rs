//! Does a disk of radius r fit along a segment? The walls in a uniform grid of cells,
//! each wall stored in the cells its box grown by r meets, so that a segment's clearance
//! is decided by the walls of the cells it crosses, nearest first, stopping at the first
//! wall closer than r.
//!
//! Written here rather than reusing corridor-geom's `FloatSegmentGrid`: that grid stores
//! walls in the cells they meet (exact point location needs no more), while a clearance
//! test needs every wall within r of the cells, and a walk along the segment that stops
//! early (most candidate tangents of a cluttered map are blocked near their start).

use super::geometry::segment_distance;
use corridor_geom::{Aabb, Point};

/// The walls (segments, points where both ends coincide) in cells of one size.
#[derive(Clone, Debug)]
pub(crate) struct WallIndex {
    walls: Vec<(Point, Point)>,
    origin: Point,
    cell: f64,
    cols: usize,
    rows: usize,
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl WallIndex {
    /// Indexes `walls` for clearance `radius`.
    pub fn new(walls: Vec<(Point, Point)>, radius: f64) -> Self {
        let bounds = Aabb::from_points(walls.iter().flat_map(|&(a, b)| [a, b]))
            .unwrap_or(Aabb::new(Point::ZERO, Point::ZERO))
            .expanded(radius);
        let size = bounds.size();
        let mean =
            walls.iter().map(|(a, b)| a.distance(*b)).sum::<f64>() / walls.len().max(1) as f64;
        // About a wall or two per cell, but at least the radius (a wall's cells then
        // number a few) and not more cells than four per wall.
        let mut cell = mean.max(radius).max(1e-9);
        let max_cells = (4 * walls.len()).max(16) as f64;
        if size.x.max(cell) * size.y.max(cell) / (cell * cell) > max_cells {
            cell = (size.x.max(cell) * size.y.max(cell) / max_cells).sqrt();
        }
        let cols = (size.x / cell).floor() as usize + 1;
        let rows = (size.y / cell).floor() as usize + 1;
        let mut index = WallIndex {
            walls,
            origin: bounds.min,
            cell,
            cols,
            rows,
            starts: vec![0; cols * rows + 1],
            items: Vec::new(),
        };
        let ranges: Vec<_> = index
            .walls
            .iter()
            .map(|&(a, b)| index.cell_range(&Aabb::new(a, b).expanded(radius)))
            .collect();
        for &(c0, c1, r0, r1) in &ranges {
            for r in r0..=r1 {
                for c in c0..=c1 {
                    index.starts[r * cols + c + 1] += 1;
                }
            }
        }
        for i in 0..cols * rows {
            index.starts[i + 1] += index.starts[i];
        }
        let mut fill = index.starts.clone();
        index.items = vec![0; *index.starts.last().unwrap() as usize];
        for (w, &(c0, c1, r0, r1)) in ranges.iter().enumerate() {
            for r in r0..=r1 {
                for c in c0..=c1 {
                    let slot = &mut fill[r * cols + c];
                    index.items[*slot as usize] = w as u32;
                    *slot += 1;
                }
            }
        }
        index
    }

    /// The walls, by id.
    pub fn wall(&self, id: u32) -> (Point, Point) {
        self.walls[id as usize]
    }

    fn clamp_col(&self, x: f64) -> usize {
        (((x - self.origin.x) / self.cell).floor().max(0.0) as usize).min(self.cols - 1)
    }

    fn clamp_row(&self, y: f64) -> usize {
        (((y - self.origin.y) / self.cell).floor().max(0.0) as usize).min(self.rows - 1)
    }

    fn cell_range(&self, b: &Aabb) -> (usize, usize, usize, usize) {
        (
            self.clamp_col(b.min.x),
            self.clamp_col(b.max.x),
            self.clamp_row(b.min.y),
            self.clamp_row(b.max.y),
        )
    }

    fn cell_items(&self, c: usize, r: usize) -> &[u32] {
        let i = r * self.cols + c;
        &self.items[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Calls `f` with every wall within `margin` of the box (walls may repeat).
    pub fn for_each_near(&self, b: &Aabb, mut f: impl FnMut(u32)) {
        let (c0, c1, r0, r1) = self.cell_range(b);
        for r in r0..=r1 {
            for c in c0..=c1 {
                for &w in self.cell_items(c, r) {
                    f(w);
                }
            }
        }
    }

    /// Whether every wall keeps at least `min` from the segment `p q`: the cells along
    /// it from `p` (each holds the walls within the radius of it), stopping at the first
    /// wall closer than `min`.
    pub fn segment_clear(&self, p: Point, q: Point, min: f64) -> bool {
        let blocked = |c: usize, r: usize| {
            self.cell_items(c, r).iter().any(|&w| {
                let (a, b) = self.walls[w as usize];
                segment_distance(p, q, a, b) < min
            })
        };
        // Amanatides–Woo traversal of the cells the segment crosses.
        let (mut c, mut r) = (self.clamp_col(p.x), self.clamp_row(p.y));
        let (ce, re) = (self.clamp_col(q.x), self.clamp_row(q.y));
        let d = q - p;
        let step_c: isize = if d.x > 0.0 { 1 } else { -1 };
        let step_r: isize = if d.y > 0.0 { 1 } else { -1 };
        let next_boundary = |k: usize, step: isize, o: f64| {
            o + (k as f64 + if step > 0 { 1.0 } else { 0.0 }) * self.cell
        };
        let mut t_c = if d.x != 0.0 {
            (next_boundary(c, step_c, self.origin.x) - p.x) / d.x
        } else {
            f64::INFINITY
        };
        let mut t_r = if d.y != 0.0 {
            (next_boundary(r, step_r, self.origin.y) - p.y) / d.y
        } else {
            f64::INFINITY
        };
        let dt_c = if d.x != 0.0 {
            self.cell / d.x.abs()
        } else {
            f64::INFINITY
        };
        let dt_r = if d.y != 0.0 {
            self.cell / d.y.abs()
        } else {
            f64::INFINITY
        };
        let max_steps = self.cols + self.rows + 2;
        for _ in 0..max_steps {
            if blocked(c, r) {
                return false;
            }
            if c == ce && r == re {
                return true;
            }
            if t_c < t_r {
                let nc = c as isize + step_c;
                if nc < 0 || nc >= self.cols as isize {
                    break;
                }
                c = nc as usize;
                t_c += dt_c;
            } else {
                let nr = r as isize + step_r;
                if nr < 0 || nr >= self.rows as isize {
                    break;
                }
                r = nr as usize;
                t_r += dt_r;
            }
        }
        // Rounding left the walk short of the end cell: decide by the box (exact, slower).
        let mut clear = true;
        self.for_each_near(&Aabb::new(p, q), |w| {
            let (a, b) = self.walls[w as usize];
            clear &= segment_distance(p, q, a, b) >= min;
        });
        clear
    }
}
