//! Which walls meet this box or segment? A uniform bucket grid over segments on the
//! integer grid, exact ([`SegmentGrid`]).

use crate::GridPoint;

pub(crate) fn corner(p: GridPoint) -> [i64; 2] {
    [p.x as i64, p.y as i64]
}

/// A uniform grid of buckets over wall segments (grid coordinates, exact): every segment
/// is listed in each bucket its points fall in (a conservative "supercover" of the
/// segment, row by row), so two segments that share a point share a bucket, and a query
/// box finds every segment that meets it.
///
/// It replaces an R-tree for the disjointness check and for validation's wall queries:
/// building it is two linear passes (count, then fill) instead of a recursive partition,
/// about 10× cheaper on the shared maps, and queries on the evenly spread short walls of
/// grid maps touch one to four buckets. Uneven inputs stay correct; a bucket size that
/// would list the segments more than four times over on average is doubled until it
/// does not, so the memory stays linear.
///
/// ```
/// use corridor_geom::{GridPoint, SegmentGrid};
/// let g = |x, y| GridPoint::new(x, y);
/// let mut grid = SegmentGrid::new(&[(g(0, 0), g(100, 100)), (g(0, 100), g(10, 90)), (g(50, 0), g(50, 0))]);
/// let mut found = Vec::new();
/// grid.meeting(g(45, 0), g(55, 5), &mut found);
/// found.sort();
/// assert!(found.contains(&2) && !found.contains(&1));
/// grid.meeting_segment(g(100, 0), g(0, 100), &mut found);
/// assert!(found.contains(&0) && found.contains(&1));
/// ```
#[derive(Clone, Debug)]
pub struct SegmentGrid {
    pub(crate) layout: Layout,
    /// Bucket `k` lists `items[start[k]..start[k + 1]]`.
    pub(crate) start: Vec<u32>,
    pub(crate) items: Vec<u32>,
    /// `marks[i] == generation` when segment `i` was already reported by this query.
    pub(crate) marks: Vec<u32>,
    pub(crate) generation: u32,
}

/// What one query through a shared [`SegmentGrid`] has already reported
/// ([`SegmentGrid::for_each_meeting_box_marked`]): the grid's own marks for threads that
/// query it side by side.
#[derive(Clone, Debug, Default)]
pub struct GridMarks {
    marks: Vec<u32>,
    generation: u32,
}

impl GridMarks {
    /// A new generation for a query of a grid of `len` segments.
    fn next_generation(&mut self, len: usize) -> u32 {
        if self.generation == u32::MAX || self.marks.len() != len {
            self.marks.clear();
            self.marks.resize(len, 0);
            self.generation = 0;
        }
        self.generation += 1;
        self.generation
    }
}

/// Where the buckets of a [`SegmentGrid`] are.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// Lower left corner of bucket (0, 0).
    pub(crate) origin: [i64; 2],
    /// Side of a bucket (grid units, at least 1).
    pub(crate) size: i64,
    /// Buckets per row, and rows.
    pub(crate) nx: i64,
    pub(crate) ny: i64,
}

impl SegmentGrid {
    /// Indexes segments given by their end points (`a == b` for a point); they are
    /// numbered in the order given.
    pub fn new(segments: &[(GridPoint, GridPoint)]) -> Self {
        let n = segments.len();
        let (mut lo, mut hi) = ([i64::MAX; 2], [i64::MIN; 2]);
        for &(a, b) in segments {
            for p in [corner(a), corner(b)] {
                lo = [lo[0].min(p[0]), lo[1].min(p[1])];
                hi = [hi[0].max(p[0]), hi[1].max(p[1])];
            }
        }
        if n == 0 {
            (lo, hi) = ([0; 2], [0; 2]);
        }
        let (w, h) = (hi[0] - lo[0] + 1, hi[1] - lo[1] + 1);
        // About one bucket per segment, and never more buckets along a side than segments.
        let mut size = ((w as f64 * h as f64 / n.max(1) as f64).sqrt().ceil() as i64)
            .max((w.max(h) + n as i64 - 1) / n.max(1) as i64)
            .max(1);
        loop {
            let grid = Layout {
                origin: lo,
                size,
                nx: (w - 1) / size + 1,
                ny: (h - 1) / size + 1,
            };
            let buckets = (grid.nx * grid.ny) as usize;
            let mut counts = vec![0u32; buckets + 1];
            let limit = 4 * n + 64;
            // (bucket, segment) of every listing, in segment order: the fill below reads
            // them instead of finding each segment's buckets a second time (those
            // divisions were about half of this function). Not kept past the limit, where
            // the size is doubled and everything counted again.
            let mut listed: Vec<(u32, u32)> = Vec::with_capacity(n + n / 2);
            for (i, &(a, b)) in segments.iter().enumerate() {
                grid.cells_of_segment(a, b, |k| {
                    counts[k] += 1;
                    if listed.len() <= limit {
                        listed.push((k as u32, i as u32));
                    }
                });
            }
            let total = listed.len();
            if total > limit && size < w.max(h) {
                size *= 2;
                continue;
            }
            let total: usize = if total > limit {
                counts.iter().map(|&c| c as usize).sum()
            } else {
                total
            };
            // Prefix sums: `counts[k]` becomes the end of bucket k's range while filling.
            let mut sum = 0u32;
            for c in counts.iter_mut() {
                sum += *c;
                *c = sum;
            }
            let mut items = vec![0u32; total];
            // Last segment first, so that each bucket lists its segments in increasing
            // order.
            if listed.len() == total {
                for &(k, i) in listed.iter().rev() {
                    counts[k as usize] -= 1;
                    items[counts[k as usize] as usize] = i;
                }
            } else {
                for (i, &(a, b)) in segments.iter().enumerate().rev() {
                    grid.cells_of_segment(a, b, |k| {
                        counts[k] -= 1;
                        items[counts[k] as usize] = i as u32;
                    });
                }
            }
            // Now `counts[k]` is the start of bucket k and `counts[buckets] == total`.
            return SegmentGrid {
                layout: grid,
                start: counts,
                items,
                marks: vec![0; n],
                generation: 0,
            };
        }
    }

    /// Number of segments indexed.
    pub fn len(&self) -> usize {
        self.marks.len()
    }

    /// Whether no segment is indexed.
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }

    pub(crate) fn next_generation(&mut self) -> u32 {
        if self.generation == u32::MAX {
            self.marks.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        self.generation
    }

    /// Replaces `out` with every segment that meets the closed box with corners `lo` and
    /// `hi`, each once, plus possibly segments that only pass near it.
    pub fn meeting(&mut self, lo: GridPoint, hi: GridPoint, out: &mut Vec<u32>) {
        self.meeting_box(corner(lo), corner(hi), out);
    }

    /// [`SegmentGrid::meeting`] for a box with `i64` corners (any values; the box is
    /// clamped to the grid).
    pub fn meeting_box(&mut self, lo: [i64; 2], hi: [i64; 2], out: &mut Vec<u32>) {
        out.clear();
        self.for_each_meeting_box(lo, hi, |i| out.push(i));
    }

    /// Calls `visit` with each segment [`SegmentGrid::meeting_box`] would list, once, in
    /// the same order: a caller with a finer filter keeps what it wants as it goes, with
    /// no list to filter again.
    #[inline]
    pub fn for_each_meeting_box(&mut self, lo: [i64; 2], hi: [i64; 2], visit: impl FnMut(u32)) {
        self.for_each_meeting_box_where(lo, hi, |_| true, visit);
    }

    /// [`SegmentGrid::for_each_meeting_box`] with a filter: calls `visit` with each
    /// segment it would list for which `keep` holds, once, in the same order. `keep` is
    /// asked before a segment is marked as seen (so that a rejected one costs no mark), so
    /// it is asked again for a segment listed in several buckets and must give the same
    /// answer each time.
    #[inline]
    pub fn for_each_meeting_box_where(
        &mut self,
        lo: [i64; 2],
        hi: [i64; 2],
        keep: impl FnMut(u32) -> bool,
        visit: impl FnMut(u32),
    ) {
        let generation = self.next_generation();
        let mut marks = std::mem::take(&mut self.marks);
        self.rows_meeting_box(&mut marks, generation, lo, hi, keep, visit);
        self.marks = marks;
    }

    /// [`SegmentGrid::for_each_meeting_box_where`] on a shared grid, with the marks of
    /// what this query has seen kept in `marks` (one per thread when threads query the
    /// same grid): the same segments in the same order.
    ///
    /// ```
    /// use corridor_geom::{GridMarks, GridPoint, SegmentGrid};
    /// let g = |x, y| GridPoint::new(x, y);
    /// let grid = SegmentGrid::new(&[(g(0, 0), g(100, 100)), (g(0, 100), g(10, 90))]);
    /// let mut marks = GridMarks::default();
    /// let mut found = Vec::new();
    /// grid.for_each_meeting_box_marked(&mut marks, [0, 0], [100, 100], |_| true, |i| found.push(i));
    /// found.sort();
    /// assert_eq!(found, [0, 1]);
    /// ```
    #[inline]
    pub fn for_each_meeting_box_marked(
        &self,
        marks: &mut GridMarks,
        lo: [i64; 2],
        hi: [i64; 2],
        keep: impl FnMut(u32) -> bool,
        visit: impl FnMut(u32),
    ) {
        let generation = marks.next_generation(self.len());
        self.rows_meeting_box(&mut marks.marks, generation, lo, hi, keep, visit);
    }

    /// The query of [`SegmentGrid::for_each_meeting_box_where`], marking what it has
    /// seen with `generation` in `marks`.
    #[inline]
    fn rows_meeting_box(
        &self,
        marks: &mut [u32],
        generation: u32,
        lo: [i64; 2],
        hi: [i64; 2],
        mut keep: impl FnMut(u32) -> bool,
        mut visit: impl FnMut(u32),
    ) {
        for range in self.box_rows(lo, hi) {
            for &i in &self.items[range] {
                if keep(i) && marks[i as usize] != generation {
                    marks[i as usize] = generation;
                    visit(i);
                }
            }
        }
    }

    /// How many entries the buckets of the box from `lo` to `hi` list (a segment in
    /// several of them counted in each): what a query of that box reads, counted in one
    /// step per row of buckets, so that a caller can choose another index for a box that
    /// would list many (validation's disc checks on a row of pillars).
    ///
    /// ```
    /// use corridor_geom::{GridPoint, SegmentGrid};
    /// let g = |x, y| GridPoint::new(x, y);
    /// let grid = SegmentGrid::new(&[(g(0, 0), g(100, 100)), (g(0, 100), g(10, 90))]);
    /// assert!(grid.listed_in_box([0, 0], [100, 100]) >= 2);
    /// assert_eq!(grid.listed_in_box([500, 500], [600, 600]), 0);
    /// ```
    pub fn listed_in_box(&self, lo: [i64; 2], hi: [i64; 2]) -> usize {
        self.box_rows(lo, hi).map(|row| row.len()).sum()
    }

    /// The range of `items` that each row of the buckets meeting the box lists (the
    /// buckets of one row are consecutive in `items`); none if the box misses the grid.
    #[inline]
    fn box_rows(
        &self,
        lo: [i64; 2],
        hi: [i64; 2],
    ) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let (lo, hi) = (
            [lo[0].min(hi[0]), lo[1].min(hi[1])],
            [lo[0].max(hi[0]), lo[1].max(hi[1])],
        );
        let g = self.layout;
        let far = [g.origin[0] + g.nx * g.size, g.origin[1] + g.ny * g.size];
        let misses =
            hi[0] < g.origin[0] || hi[1] < g.origin[1] || lo[0] >= far[0] || lo[1] >= far[1];
        // No rows (first after last) when the box misses the grid.
        let (first_row, last_row) = if misses {
            (1, 0)
        } else {
            (g.bucket(lo[1], 1), g.bucket(hi[1], 1))
        };
        let rows = first_row..=last_row;
        let (c0, c1) = (g.bucket(lo[0], 0), g.bucket(hi[0], 0));
        rows.map(move |r| {
            let (first, last) = ((r * g.nx + c0) as usize, (r * g.nx + c1) as usize);
            self.start[first] as usize..self.start[last + 1] as usize
        })
    }

    /// Replaces `out` with every segment that shares a point with segment `a b`, each
    /// once, plus possibly segments that only pass near it.
    pub fn meeting_segment(&mut self, a: GridPoint, b: GridPoint, out: &mut Vec<u32>) {
        out.clear();
        let generation = self.next_generation();
        let (start, items, marks) = (&self.start, &self.items, &mut self.marks);
        self.layout.cells_of_segment(a, b, |k| {
            for &i in &items[start[k] as usize..start[k + 1] as usize] {
                if marks[i as usize] != generation {
                    marks[i as usize] = generation;
                    out.push(i);
                }
            }
        });
    }
}

impl Layout {
    /// The column (row) of the bucket holding coordinate `v` along axis `axis`, clamped
    /// to the grid.
    ///
    /// Inlined: four of these per query (validation makes one per run of bending points).
    #[inline]
    pub(crate) fn bucket(&self, v: i64, axis: usize) -> i64 {
        let n = if axis == 0 { self.nx } else { self.ny };
        (v - self.origin[axis])
            .div_euclid(self.size)
            .clamp(0, n - 1)
    }

    /// Calls `f` with every bucket a point of segment `a b` falls in (and maybe a few
    /// more): row by row, the segment's x range within the row, widened by half a grid
    /// unit against rounding.
    pub(crate) fn cells_of_segment(&self, a: GridPoint, b: GridPoint, mut f: impl FnMut(usize)) {
        let (a, b) = (corner(a), corner(b));
        let (r0, r1) = (
            self.bucket(a[1].min(b[1]), 1),
            self.bucket(a[1].max(b[1]), 1),
        );
        let (xmin, xmax) = (a[0].min(b[0]), a[0].max(b[0]));
        // One row, or a vertical segment: every row spans the whole x range (for a vertical
        // one the general formula below gives `xmin..=xmax` exactly too: the rounding
        // margin is clipped to the range), so its columns are the same in every row.
        let straight = r0 == r1 || xmin == xmax;
        let whole = (self.bucket(xmin, 0), self.bucket(xmax, 0));
        for r in r0..=r1 {
            let (c0, c1) = if straight {
                whole
            } else {
                // The part of the segment with y in this row's slab (closed, so that
                // points on a row border are covered on both sides).
                let slab = self.origin[1] + r * self.size;
                let y_low = slab.max(a[1].min(b[1])) as f64;
                let y_high = (slab + self.size).min(a[1].max(b[1])) as f64;
                let (dx, dy) = ((b[0] - a[0]) as f64, (b[1] - a[1]) as f64);
                let x_at = |y: f64| a[0] as f64 + (y - a[1] as f64) * dx / dy;
                let (p, q) = (x_at(y_low), x_at(y_high));
                let x0 = ((p.min(q) - 0.5).floor() as i64).max(xmin);
                let x1 = ((p.max(q) + 0.5).ceil() as i64).min(xmax);
                (self.bucket(x0, 0), self.bucket(x1, 0))
            };
            let row = r * self.nx;
            for c in c0..=c1 {
                f((row + c) as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn box_meets_segment(lo: GridPoint, hi: GridPoint, a: GridPoint, b: GridPoint) -> bool {
        let inside = |p: GridPoint| p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;
        if inside(a) || inside(b) {
            return true;
        }
        let c = [
            lo,
            GridPoint::new(hi.x, lo.y),
            hi,
            GridPoint::new(lo.x, hi.y),
        ];
        (0..4).any(|k| crate::segments_intersect_grid(a, b, c[k], c[(k + 1) % 4]))
    }

    /// The grid never misses a segment that meets a query box or a query segment, lists
    /// each at most once, and stays within four entries per segment on average — on
    /// short, long, axis-aligned and slanted segments, tiny and huge coordinates.
    #[test]
    fn segment_grid_finds_everything_that_meets() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for round in 0..300 {
            let span: i32 = [10, 1000, 1 << 29][round % 3];
            let n = rng.random_range(0..60);
            let point = |rng: &mut ChaCha8Rng| {
                GridPoint::new(
                    rng.random_range(-span..=span),
                    rng.random_range(-span..=span),
                )
            };
            let mut segments = Vec::new();
            for _ in 0..n {
                let a = point(&mut rng);
                let b = match rng.random_range(0..4) {
                    0 => a,
                    1 => GridPoint::new(a.x, rng.random_range(-span..=span)),
                    2 => GridPoint::new(rng.random_range(-span..=span), a.y),
                    _ => point(&mut rng),
                };
                segments.push((a, b));
            }
            let mut grid = SegmentGrid::new(&segments);
            assert!(grid.items.len() <= 4 * n + 64 || n == 0, "round {round}");
            let mut found = Vec::new();
            for _ in 0..40 {
                let (p, q) = (point(&mut rng), point(&mut rng));
                let (lo, hi) = (
                    GridPoint::new(p.x.min(q.x), p.y.min(q.y)),
                    GridPoint::new(p.x.max(q.x), p.y.max(q.y)),
                );
                grid.meeting(lo, hi, &mut found);
                let mut sorted = found.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), found.len(), "round {round}: listed twice");
                for (i, &(a, b)) in segments.iter().enumerate() {
                    if box_meets_segment(lo, hi, a, b) {
                        assert!(found.contains(&(i as u32)), "round {round}: box missed {i}");
                    }
                }
                grid.meeting_segment(p, q, &mut found);
                for (i, &(a, b)) in segments.iter().enumerate() {
                    if crate::segments_intersect_grid(p, q, a, b) {
                        assert!(
                            found.contains(&(i as u32)),
                            "round {round}: segment missed {i}"
                        );
                    }
                }
            }
        }
    }
}
