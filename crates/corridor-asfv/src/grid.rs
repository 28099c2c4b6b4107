//! Where is what: a uniform bucket grid over the environment's bounds, used by the
//! builder to find the walls and regions near a growing edge in O(1) per cell.
//!
//! Why not one of corridor-geom's indexes: this grid changes while the decomposition
//! grows (ids inserted, removed, and extended into the cells a growing region's box
//! newly covers), where geom's grids are static (`SegmentGrid`, exact on integer grid
//! points; `FloatSegmentGrid`, CSR buckets of segments sized by their mean length,
//! cells found by multiplying by the inverse cell size). The order of a query's answer
//! is part of the result: one-cell queries list ids as the cell holds them (after
//! removals' swaps), others sorted, and the builder keeps the first blocker it meets
//! (`near_each` and the blocker search stop early); geom's `LogIndex` or `DynamicTree`
//! would report other candidates in another order, and may give other regions.

use corridor_geom::{Aabb, Point};

/// Buckets of item ids; an item is listed in every cell its box overlaps. Boxes outside
/// the grid are clamped to the border cells, so nothing is ever lost.
#[derive(Clone, Debug)]
pub(crate) struct BucketGrid {
    origin: Point,
    cell: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<u32>>,
}

impl BucketGrid {
    /// A grid over `bounds` with about `target` cells along the longer side.
    pub(crate) fn new(bounds: Aabb, target: usize) -> Self {
        let size = bounds.size();
        let cell = (size.x.max(size.y) / target.max(1) as f64).max(1e-9);
        let nx = ((size.x / cell).ceil() as usize).clamp(1, 4096);
        let ny = ((size.y / cell).ceil() as usize).clamp(1, 4096);
        BucketGrid {
            origin: bounds.min,
            cell,
            nx,
            ny,
            cells: vec![Vec::new(); nx * ny],
        }
    }

    fn column(&self, x: f64) -> usize {
        let c = ((x - self.origin.x) / self.cell).floor();
        if c.is_nan() || c < 0.0 {
            0
        } else {
            (c as usize).min(self.nx - 1)
        }
    }

    fn row(&self, y: f64) -> usize {
        let r = ((y - self.origin.y) / self.cell).floor();
        if r.is_nan() || r < 0.0 {
            0
        } else {
            (r as usize).min(self.ny - 1)
        }
    }

    fn span(&self, b: &Aabb) -> (usize, usize, usize, usize) {
        (
            self.column(b.min.x),
            self.column(b.max.x),
            self.row(b.min.y),
            self.row(b.max.y),
        )
    }

    /// Lists `id` in every cell `b` overlaps.
    pub(crate) fn insert(&mut self, id: u32, b: &Aabb) {
        let (c0, c1, r0, r1) = self.span(b);
        for r in r0..=r1 {
            for c in c0..=c1 {
                self.cells[r * self.nx + c].push(id);
            }
        }
    }

    /// Lists `id` in the cells of `new` that `old` did not cover (for a growing box).
    pub(crate) fn extend(&mut self, id: u32, old: &Aabb, new: &Aabb) {
        let (a0, a1, b0, b1) = self.span(old);
        let (c0, c1, r0, r1) = self.span(new);
        for r in r0..=r1 {
            for c in c0..=c1 {
                if !(a0..=a1).contains(&c) || !(b0..=b1).contains(&r) {
                    self.cells[r * self.nx + c].push(id);
                }
            }
        }
    }

    /// Removes `id` from the cells of `b` (the box it was inserted or extended with).
    pub(crate) fn remove(&mut self, id: u32, b: &Aabb) {
        let (c0, c1, r0, r1) = self.span(b);
        for r in r0..=r1 {
            for c in c0..=c1 {
                let cell = &mut self.cells[r * self.nx + c];
                if let Some(k) = cell.iter().position(|&x| x == id) {
                    cell.swap_remove(k);
                }
            }
        }
    }

    /// The ids listed in the cells `b` overlaps, each once.
    pub(crate) fn query(&self, b: &Aabb, out: &mut Vec<u32>) {
        out.clear();
        let (c0, c1, r0, r1) = self.span(b);
        if c0 == c1 && r0 == r1 {
            // One cell lists each id once: no need to sort.
            out.extend_from_slice(&self.cells[r0 * self.nx + c0]);
            return;
        }
        for r in r0..=r1 {
            for c in c0..=c1 {
                out.extend_from_slice(&self.cells[r * self.nx + c]);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}
