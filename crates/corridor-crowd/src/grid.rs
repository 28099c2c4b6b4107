//! Who is near whom: a uniform grid of the characters' positions, rebuilt every substep,
//! answering "the k nearest characters within distance d".
//!
//! The cells (of half the search distance, or of all of it for a sparse crowd) tile the
//! plane, wrapped onto a table of W × H buckets (powers of two, 2 to 4 buckets per
//! character): bucket `(cx mod W, cy mod H)`. Characters are counting-sorted by bucket
//! into one array of (position, index) entries, so a rebuild is O(n) with no allocation
//! once grown, a crowd spread over a large world costs memory for its characters only,
//! and a search reads each row of its 5 × 5 (or 3 × 3) window as one run of memory. A
//! search visits the rows nearest first and, in each, only the cells not further than the
//! k-th nearest found so far (or than d): the early exit RVO2's k-d tree gets by shrinking
//! its range. The answer is exact (ties broken by index), whatever the cells.

use corridor_geom::Point;

/// One character in the grid.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    at: Point,
    index: u32,
}

/// The grid: characters sorted by bucket, each bucket's run in index order.
#[derive(Debug, Default)]
pub struct NeighbourGrid {
    cell: f64,
    inverse: f64,
    /// Cells of the whole search distance (a 3 × 3 window), not of half of it.
    whole: bool,
    /// log2 of the table's width and height.
    width_bits: u32,
    height_bits: u32,
    /// Bucket b's characters are `entries[start[b]..start[b + 1]]`.
    start: Vec<u32>,
    entries: Vec<Entry>,
    /// Scratch: each character's bucket.
    buckets: Vec<u32>,
    /// Rebuilds since the cell size was last chosen (it is chosen again every
    /// [`RECHOOSE`] rebuilds, or when the crowd's size changed).
    since_choice: u32,
    /// The crowd's size when the cell size was chosen.
    chosen_for: usize,
}

/// How many rebuilds keep a choice of cell size. The choice only affects speed (the
/// answers are exact for any cell), and a crowd's density changes slowly, so counting
/// the positions twice (half and whole cells) every substep would cost a pass for
/// nothing most of the time.
const RECHOOSE: u32 = 16;

/// `floor(x)` as an integer without a call into libm (x86-64 without SSE 4.1 has no
/// rounding instruction); saturates far outside the range that matters.
#[inline(always)]
fn floor_i64(x: f64) -> i64 {
    let t = x as i64;
    t - i64::from((t as f64) > x)
}

impl NeighbourGrid {
    #[inline(always)]
    fn bucket(&self, cx: i64, cy: i64) -> usize {
        let x = (cx as u64 & ((1 << self.width_bits) - 1)) as usize;
        let y = (cy as u64 & ((1 << self.height_bits) - 1)) as usize;
        (y << self.width_bits) | x
    }

    /// Rebuilds the grid over `positions` for searches up to `distance` (cells of half
    /// that side).
    ///
    /// ```
    /// use corridor_crowd::NeighbourGrid;
    /// use corridor_geom::Point;
    /// let mut grid = NeighbourGrid::default();
    /// let positions = [Point::new(0.0, 0.0), Point::new(3.0, 0.0), Point::new(50.0, 0.0)];
    /// grid.rebuild(&positions, 10.0);
    /// let mut found = Vec::new();
    /// grid.nearest(Point::ZERO, 10.0, 5, Some(0), &mut found);
    /// assert_eq!(found.iter().map(|&(_, i)| i).collect::<Vec<_>>(), [1]);
    /// ```
    pub fn rebuild(&mut self, positions: &[Point], distance: f64) {
        let bits = (2 * positions.len())
            .next_power_of_two()
            .trailing_zeros()
            .max(6);
        self.width_bits = bits.div_ceil(2);
        self.height_bits = bits - self.width_bits;
        let count = 1usize << bits;
        // Cells of half the distance, unless the occupied ones hold fewer than two
        // characters on average: then most of a 5 × 5 window is empty, and a 3 × 3
        // window of cells of the whole distance reads fewer cells for the same answer.
        // A new search distance alone (the lists' skin changes at each of their
        // rebuilds) keeps the choice: counting twice per rebuild cost more than a
        // choice a little off for a few rebuilds.
        let rechoose = self.since_choice == 0 || self.chosen_for != positions.len();
        if rechoose {
            let occupied = self.count(positions, distance * 0.5, count);
            self.whole = positions.len() < 2 * occupied;
            if self.whole {
                self.count(positions, distance, count);
            }
            self.chosen_for = positions.len();
        } else {
            let cell = if self.whole { distance } else { distance * 0.5 };
            self.count(positions, cell, count);
        }
        self.since_choice = (self.since_choice + 1) % RECHOOSE;
        let mut sum = 0;
        for s in &mut self.start {
            sum += *s;
            *s = sum;
        }
        self.entries.clear();
        self.entries.resize(positions.len(), Entry::default());
        // Fill each bucket in index order, with start[b] as its cursor; then shift the
        // starts back.
        for (i, (&b, &at)) in self.buckets.iter().zip(positions).enumerate() {
            let slot = &mut self.start[b as usize];
            self.entries[*slot as usize] = Entry {
                at,
                index: i as u32,
            };
            *slot += 1;
        }
        self.start.copy_within(0..count, 1);
        self.start[0] = 0;
    }

    /// Buckets every position for cells of side `cell` (into `buckets`, with the counts
    /// in `start[b + 1]`); returns how many buckets are occupied.
    fn count(&mut self, positions: &[Point], cell: f64, buckets: usize) -> usize {
        self.cell = cell;
        self.inverse = 1.0 / cell;
        self.start.clear();
        self.start.resize(buckets + 1, 0);
        self.buckets.clear();
        let inverse = self.inverse;
        let mut occupied = 0;
        for &p in positions {
            let b = self.bucket(floor_i64(p.x * inverse), floor_i64(p.y * inverse));
            self.buckets.push(b as u32);
            occupied += usize::from(self.start[b + 1] == 0);
            self.start[b + 1] += 1;
        }
        occupied
    }

    /// The up to `k` characters nearest `at` within `distance` (squared distance, index),
    /// nearest first, ties by index; `skip` (the asking character) is left out.
    /// `distance` must not exceed the one the grid was built for.
    pub fn nearest(
        &self,
        at: Point,
        distance: f64,
        k: usize,
        skip: Option<u32>,
        found: &mut Vec<(f64, u32)>,
    ) {
        found.clear();
        if k == 0 || self.entries.is_empty() {
            return;
        }
        let skip = skip.unwrap_or(u32::MAX);
        let mut bound = distance * distance;
        let (fx, fy) = (at.x * self.inverse, at.y * self.inverse);
        let (cx, cy) = (floor_i64(fx), floor_i64(fy));
        let c = self.cell;
        // Where `at` lies in its cell, and the squared distances to the neighbouring
        // columns and rows (left/below, right/above).
        let (ox, oy) = ((fx - cx as f64) * c, (fy - cy as f64) * c);
        let (left, right) = (ox * ox, (c - ox) * (c - ox));
        let (below, above) = (oy * oy, (c - oy) * (c - oy));
        if self.whole {
            // A 3 × 3 window of cells of the whole distance: the middle row, then the
            // nearer and the further of the other two.
            let (first, second) = if below <= above {
                ((-1, below), (1, above))
            } else {
                ((1, above), (-1, below))
            };
            for (dy, ry) in [(0, 0.0), first, second] {
                if ry > bound {
                    continue;
                }
                let l = i64::from(left + ry <= bound);
                let r = i64::from(right + ry <= bound);
                bound = self.scan_row(cx, cy + dy, l, r, at, skip, k, found, bound);
            }
        } else {
            // A 5 × 5 window of cells of half the distance, rows nearest first.
            let (far_left, far_right) = ((ox + c) * (ox + c), (2.0 * c - ox) * (2.0 * c - ox));
            let rows = [
                (0, 0.0),
                (-1, below),
                (1, above),
                (-2, (oy + c) * (oy + c)),
                (2, (2.0 * c - oy) * (2.0 * c - oy)),
            ];
            for (dy, ry) in rows {
                if ry > bound {
                    continue;
                }
                let reach = |near: f64, far: f64| {
                    if far + ry <= bound {
                        2
                    } else {
                        i64::from(near + ry <= bound)
                    }
                };
                let (l, r) = (reach(left, far_left), reach(right, far_right));
                bound = self.scan_row(cx, cy + dy, l, r, at, skip, k, found, bound);
            }
        }
    }

    /// Offers the cells `cx - left ..= cx + right` of row `cy` (one or two runs of
    /// `entries`) to `found`; returns the new bound.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scan_row(
        &self,
        cx: i64,
        cy: i64,
        left: i64,
        right: i64,
        at: Point,
        skip: u32,
        k: usize,
        found: &mut Vec<(f64, u32)>,
        bound: f64,
    ) -> f64 {
        let width = 1usize << self.width_bits;
        let row = &self.start[self.bucket(0, cy)..][..=width];
        let x0 = (cx - left) as usize & (width - 1);
        let x1 = x0 + (left + right + 1) as usize;
        if x1 <= width {
            self.scan(row[x0], row[x1], at, skip, k, found, bound)
        } else {
            // Wraps around the table's width: the rest starts the row again.
            let bound = self.scan(row[x0], row[width], at, skip, k, found, bound);
            self.scan(row[0], row[x1 - width], at, skip, k, found, bound)
        }
    }

    /// Offers `entries[s0..s1]` to `found` (the k nearest within `bound` so far);
    /// returns the new bound.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scan(
        &self,
        s0: u32,
        s1: u32,
        at: Point,
        skip: u32,
        k: usize,
        found: &mut Vec<(f64, u32)>,
        mut bound: f64,
    ) -> f64 {
        for e in &self.entries[s0 as usize..s1 as usize] {
            let d = e.at.distance_squared(at);
            if d > bound || e.index == skip {
                continue;
            }
            // A window's cells lie in distinct buckets (it is at most 5 wide and the
            // table at least 8), so no entry is met twice.
            bound = offer(found, k, (d, e.index), bound);
        }
        bound
    }

    /// Every character within `distance` of `at` (indices into `out`, in no particular
    /// order), `skip` left out; `distance` must not exceed the one the grid was built for.
    pub(crate) fn within(&self, at: Point, distance: f64, skip: u32, out: &mut Vec<u32>) {
        if self.entries.is_empty() {
            return;
        }
        let bound = distance * distance;
        let (cx, cy) = (
            floor_i64(at.x * self.inverse),
            floor_i64(at.y * self.inverse),
        );
        let reach: i64 = if self.whole { 1 } else { 2 };
        let width = 1usize << self.width_bits;
        for dy in -reach..=reach {
            let row = &self.start[self.bucket(0, cy + dy)..][..=width];
            let x0 = (cx - reach) as usize & (width - 1);
            let x1 = x0 + (2 * reach + 1) as usize;
            let runs = if x1 <= width {
                [(row[x0], row[x1]), (0, 0)]
            } else {
                [(row[x0], row[width]), (row[0], row[x1 - width])]
            };
            for (s0, s1) in runs {
                for e in &self.entries[s0 as usize..s1 as usize] {
                    if e.at.distance_squared(at) <= bound && e.index != skip {
                        out.push(e.index);
                    }
                }
            }
        }
    }
}

/// Offers `item` to `found`, the up to `k` nearest so far sorted by (distance, index),
/// by insertion (k is small); returns the new bound (the k-th distance once full).
#[inline(always)]
pub(crate) fn offer(found: &mut Vec<(f64, u32)>, k: usize, item: (f64, u32), bound: f64) -> f64 {
    if found.len() == k {
        if !after(found[k - 1], item) {
            return bound;
        }
        found.pop();
    }
    let mut slot = found.len();
    found.push(item);
    while slot > 0 && after(found[slot - 1], item) {
        found[slot] = found[slot - 1];
        slot -= 1;
    }
    found[slot] = item;
    if found.len() == k {
        found[k - 1].0
    } else {
        bound
    }
}

/// Whether `a` comes after `b` in (distance, index) order.
#[inline(always)]
fn after(a: (f64, u32), b: (f64, u32)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 > b.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn matches_brute_force() {
        // Dense (early exits), and spread wide so that far cells share buckets.
        for (seed, half) in [(3, 100.0), (4, 5000.0)] {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut positions: Vec<Point> = (0..2000)
                .map(|_| Point::new(rng.random_range(-half..half), rng.random_range(-half..half)))
                .collect();
            // A cluster, so that the sparse case has neighbours too.
            positions.extend(
                (0..200)
                    .map(|_| Point::new(rng.random_range(0.0..30.0), rng.random_range(0.0..30.0))),
            );
            let mut grid = NeighbourGrid::default();
            grid.rebuild(&positions, 15.0);
            let mut found = Vec::new();
            for (i, &p) in positions.iter().enumerate().step_by(7) {
                grid.nearest(p, 15.0, 10, Some(i as u32), &mut found);
                let mut all: Vec<(f64, u32)> = positions
                    .iter()
                    .enumerate()
                    .filter(|&(j, q)| j != i && q.distance_squared(p) <= 225.0)
                    .map(|(j, q)| (q.distance_squared(p), j as u32))
                    .collect();
                all.sort_by(|a, b| a.partial_cmp(b).unwrap());
                all.truncate(10);
                assert_eq!(found, all);
            }
        }
    }
}
