//! Which walls are near a point, box, segment or ray? A uniform grid of buckets over
//! segments in user coordinates (`f64`), for the free space of [`crate::FreeSpace`].
//!
//! Grid and game maps have walls of similar length spread over the whole map, where a
//! uniform grid answers "walls meeting this box" in time proportional to the answer; it
//! only decides which walls to look at, never what to conclude (that is exact elsewhere).

use crate::{Aabb, Point};

/// Buckets of segment ids over a uniform grid.
#[derive(Clone, Debug)]
pub struct FloatSegmentGrid {
    origin: Point,
    cell: f64,
    /// `1 / cell`: cells are found by multiplying (the same way everywhere, so stored
    /// segments and queries agree).
    inv_cell: f64,
    cols: usize,
    rows: usize,
    /// CSR: the segments meeting cell `i` are `items[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
    bounds: Aabb,
}

impl FloatSegmentGrid {
    /// Heap bytes held (vector capacities × element sizes).
    pub fn memory_bytes(&self) -> usize {
        (self.starts.capacity() + self.items.capacity()) * std::mem::size_of::<u32>()
    }

    /// Indexes `segments`, aiming at a few segments per cell.
    pub fn new(segments: &[(Point, Point)]) -> Self {
        let bounds = Aabb::from_points(segments.iter().flat_map(|&(a, b)| [a, b]))
            .unwrap_or(Aabb::new(Point::ZERO, Point::ZERO));
        let size = bounds.size();
        let mean_len = if segments.is_empty() {
            1.0
        } else {
            segments.iter().map(|(a, b)| a.distance(*b)).sum::<f64>() / segments.len() as f64
        };
        // About one segment per cell along a typical wall, capped so that huge sparse maps
        // do not allocate more cells than a few per segment.
        let max_cells = (4 * segments.len()).max(16) as f64;
        let mut cell = mean_len.max(f64::MIN_POSITIVE);
        let area = (size.x.max(cell)) * (size.y.max(cell));
        if area / (cell * cell) > max_cells {
            cell = (area / max_cells).sqrt();
        }
        let cols = ((size.x / cell).floor() as usize + 1).max(1);
        let rows = ((size.y / cell).floor() as usize + 1).max(1);
        let mut grid = FloatSegmentGrid {
            origin: bounds.min,
            cell,
            inv_cell: 1.0 / cell,
            cols,
            rows,
            starts: vec![0; cols * rows + 1],
            items: Vec::new(),
            bounds,
        };
        for &(a, b) in segments {
            let (c0, c1, r0, r1) = grid.cell_range(&Aabb::new(a, b));
            for r in r0..=r1 {
                for c in c0..=c1 {
                    grid.starts[r * cols + c + 1] += 1;
                }
            }
        }
        for i in 0..cols * rows {
            grid.starts[i + 1] += grid.starts[i];
        }
        let mut fill = grid.starts.clone();
        grid.items = vec![0; *grid.starts.last().unwrap_or(&0) as usize];
        for (id, &(a, b)) in segments.iter().enumerate() {
            let (c0, c1, r0, r1) = grid.cell_range(&Aabb::new(a, b));
            for r in r0..=r1 {
                for c in c0..=c1 {
                    let slot = &mut fill[r * cols + c];
                    grid.items[*slot as usize] = id as u32;
                    *slot += 1;
                }
            }
        }
        grid
    }

    /// Bounding box of all segments.
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Side of one cell.
    pub fn cell_size(&self) -> f64 {
        self.cell
    }

    /// The column of `x`, clamped to the grid. Truncation equals `floor` for the
    /// non-negative quotients it is applied to (and `floor` is a libm call on the baseline
    /// x86-64 target, a measurable part of the sweep); NaN and negatives give 0.
    #[inline]
    fn col(&self, x: f64) -> usize {
        let c = (x - self.origin.x) * self.inv_cell;
        if c >= 0.0 {
            (c as usize).min(self.cols - 1)
        } else {
            0
        }
    }

    /// The row of `y`, clamped to the grid (as [`FloatSegmentGrid::col`]).
    /// The band of row `r` grown by `pad` on both sides; the first and last rows reach
    /// to infinity, since they hold everything beyond the grid.
    #[inline]
    fn row_band(&self, r: usize, pad: f64) -> (f64, f64) {
        let y0 = self.origin.y + r as f64 * self.cell - pad;
        let y1 = y0 + self.cell + 2.0 * pad;
        (
            if r == 0 { f64::NEG_INFINITY } else { y0 },
            if r + 1 == self.rows {
                f64::INFINITY
            } else {
                y1
            },
        )
    }

    #[inline]
    fn row(&self, y: f64) -> usize {
        let r = (y - self.origin.y) * self.inv_cell;
        if r >= 0.0 {
            (r as usize).min(self.rows - 1)
        } else {
            0
        }
    }

    #[inline]
    fn cell_range(&self, b: &Aabb) -> (usize, usize, usize, usize) {
        (
            self.col(b.min.x),
            self.col(b.max.x),
            self.row(b.min.y),
            self.row(b.max.y),
        )
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cols * self.rows
    }

    /// Renames the stored segments, `id` to `new_id[id]` (every id must have a new one),
    /// each cell's ids again in increasing order: the grid of the same segments listed in
    /// another order, without locating them again.
    pub fn renumber(&mut self, new_id: &[u32]) {
        for id in &mut self.items {
            *id = new_id[*id as usize];
        }
        for i in 0..self.cell_count() {
            self.items[self.starts[i] as usize..self.starts[i + 1] as usize].sort_unstable();
        }
    }

    /// The segments stored in cell `i`.
    #[inline]
    pub fn cell_items(&self, i: usize) -> &[u32] {
        &self.items[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Calls `f` with every cell meeting the triangle `a b c` grown by `pad` (a
    /// conservative cover: it may include a few cells that only meet the padding). Stops
    /// and returns false as soon as `f` does.
    pub fn cover_triangle(
        &self,
        tri: [Point; 3],
        pad: f64,
        mut f: impl FnMut(usize) -> bool,
    ) -> bool {
        let tymin = tri.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
        let tymax = tri.iter().map(|p| p.y).fold(f64::NEG_INFINITY, f64::max);
        for r in self.row(tymin - pad)..=self.row(tymax + pad) {
            // The triangle's part within this row's band grown by `pad`.
            let (y0, y1) = self.row_band(r, pad);
            let (y0, y1) = (y0.max(tymin), y1.min(tymax));
            let (mut xmin, mut xmax) = (f64::INFINITY, f64::NEG_INFINITY);
            for k in 0..3 {
                let (p, q) = (tri[k], tri[(k + 1) % 3]);
                let (lo, hi) = if p.y <= q.y { (p, q) } else { (q, p) };
                if hi.y < y0 || lo.y > y1 {
                    continue;
                }
                if hi.y == lo.y {
                    xmin = xmin.min(lo.x.min(hi.x));
                    xmax = xmax.max(lo.x.max(hi.x));
                    continue;
                }
                for y in [y0.max(lo.y), y1.min(hi.y)] {
                    let t = (y - lo.y) / (hi.y - lo.y);
                    let x = lo.x + t * (hi.x - lo.x);
                    xmin = xmin.min(x);
                    xmax = xmax.max(x);
                }
            }
            if xmin > xmax {
                // The padded band misses the triangle's edges (only padding there).
                let xs = tri.iter().map(|p| p.x);
                xmin = xs.clone().fold(f64::INFINITY, f64::min);
                xmax = xs.fold(f64::NEG_INFINITY, f64::max);
            }
            for c in self.col(xmin - pad)..=self.col(xmax + pad) {
                if !f(r * self.cols + c) {
                    return false;
                }
            }
        }
        true
    }

    /// Calls `f` with every cell meeting the segment `p q` grown by `pad` (a conservative
    /// cover, as [`FloatSegmentGrid::cover_triangle`] of the degenerate triangle `p q q`, with
    /// one edge to clip per row instead of three), row by row from `p`'s end. Stops and
    /// returns false as soon as `f` does.
    pub fn cover_segment(
        &self,
        p: Point,
        q: Point,
        pad: f64,
        mut f: impl FnMut(usize) -> bool,
    ) -> bool {
        let (lo, hi) = if p.y <= q.y { (p, q) } else { (q, p) };
        let (r0, r1) = (self.row(lo.y - pad), self.row(hi.y + pad));
        let slope = (hi.x - lo.x) / (hi.y - lo.y);
        let mut visit_row = |r: usize| {
            // The segment's part within this row's band grown by `pad`.
            let (y0, y1) = self.row_band(r, pad);
            let (y0, y1) = (y0.max(lo.y), y1.min(hi.y));
            let (xmin, xmax) = if hi.y == lo.y || y0 > y1 {
                // Horizontal, or the padded band only meets the padding.
                (lo.x.min(hi.x), lo.x.max(hi.x))
            } else {
                // Rounded (a few ulps of the coordinates, far below `pad`).
                let (xa, xb) = (lo.x + (y0 - lo.y) * slope, lo.x + (y1 - lo.y) * slope);
                (xa.min(xb), xa.max(xb))
            };
            for c in self.col(xmin - pad)..=self.col(xmax + pad) {
                if !f(r * self.cols + c) {
                    return false;
                }
            }
            true
        };
        if p.y <= q.y {
            (r0..=r1).all(&mut visit_row)
        } else {
            (r0..=r1).rev().all(&mut visit_row)
        }
    }

    /// Calls `f` with the id of every segment stored in a cell that meets `b` (segments
    /// may repeat; the caller deduplicates).
    pub fn for_each_in_box(&self, b: &Aabb, mut f: impl FnMut(u32)) {
        if !b.intersects(&self.bounds) {
            return;
        }
        let (c0, c1, r0, r1) = self.cell_range(b);
        for r in r0..=r1 {
            for c in c0..=c1 {
                let i = r * self.cols + c;
                for &id in &self.items[self.starts[i] as usize..self.starts[i + 1] as usize] {
                    f(id);
                }
            }
        }
    }

    /// The axis direction (0: +x, 1: −x, 2: +y, 3: −y) in which a ray from `p` leaves
    /// the grid through the fewest cells.
    #[inline]
    pub fn shortest_ray(&self, p: Point) -> u8 {
        let (c, r) = (self.col(p.x), self.row(p.y));
        let lengths = [self.cols - c, c + 1, self.rows - r, r + 1];
        (0..4u8).min_by_key(|&d| lengths[d as usize]).unwrap_or(0)
    }

    /// Calls `f` with every segment stored in the cells a ray from `p` along axis
    /// direction `dir` (as in [`FloatSegmentGrid::shortest_ray`]) passes: a superset of the
    /// segments the ray meets.
    pub fn for_each_on_ray(&self, p: Point, dir: u8, mut f: impl FnMut(u32)) {
        let (c, r) = (self.col(p.x), self.row(p.y));
        let outside = match dir {
            0 => p.y < self.bounds.min.y || p.y > self.bounds.max.y || p.x > self.bounds.max.x,
            1 => p.y < self.bounds.min.y || p.y > self.bounds.max.y || p.x < self.bounds.min.x,
            2 => p.x < self.bounds.min.x || p.x > self.bounds.max.x || p.y > self.bounds.max.y,
            _ => p.x < self.bounds.min.x || p.x > self.bounds.max.x || p.y < self.bounds.min.y,
        };
        if outside {
            return;
        }
        let mut visit = |cell: usize| {
            for &id in &self.items[self.starts[cell] as usize..self.starts[cell + 1] as usize] {
                f(id);
            }
        };
        match dir {
            0 => (c..self.cols).for_each(|cc| visit(r * self.cols + cc)),
            1 => (0..=c).for_each(|cc| visit(r * self.cols + cc)),
            2 => (r..self.rows).for_each(|rr| visit(rr * self.cols + c)),
            _ => (0..=r).for_each(|rr| visit(rr * self.cols + c)),
        }
    }

    /// Calls `f` with every segment stored in the cells of the row holding `p.y` from the
    /// column of `p.x` rightwards: a superset of the segments a ray from `p` towards +x meets.
    pub fn for_each_right_of(&self, p: Point, mut f: impl FnMut(u32)) {
        if p.y < self.bounds.min.y || p.y > self.bounds.max.y || p.x > self.bounds.max.x {
            return;
        }
        let r = self.row(p.y);
        for c in self.col(p.x)..self.cols {
            let i = r * self.cols + c;
            for &id in &self.items[self.starts[i] as usize..self.starts[i + 1] as usize] {
                f(id);
            }
        }
    }
}
