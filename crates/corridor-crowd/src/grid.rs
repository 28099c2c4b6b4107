//! Who is near whom: a uniform grid of the characters' positions, rebuilt every substep,
//! answering "the k nearest characters within distance d".
//!
//! The cells (of half the search distance) tile the plane, wrapped onto a table of
//! W × H buckets (powers of two, 8 to 16 buckets per character, so that few far cells share a bucket): bucket
//! `(cx mod W, cy mod H)`. Characters are counting-sorted by bucket, so a rebuild is
//! O(n) and a crowd spread over a large world costs memory for its characters only;
//! neighbouring cells of a row are neighbouring buckets, so a search reads each row of
//! its window as one run of memory. It reads the 3 × 3 cells around the query first and
//! the outer ring of the 5 × 5 window only when the k-th nearest found so far could be
//! beaten there (what RVO2's k-d tree gains by shrinking its range).

use corridor_geom::Point;

/// The grid: characters sorted by bucket, each bucket's run in that order.
#[derive(Debug, Default)]
pub struct NeighbourGrid {
    cell: f64,
    /// log2 of the table's width and height.
    width_bits: u32,
    height_bits: u32,
    /// Bucket b's characters are `order[start[b]..start[b + 1]]`.
    start: Vec<u32>,
    /// Character indices, by bucket.
    order: Vec<u32>,
    /// Positions in `order`'s order, so a scan reads memory in sequence.
    positions: Vec<Point>,
    /// Scratch: each character's bucket.
    buckets: Vec<u32>,
}

impl NeighbourGrid {
    #[inline]
    fn cell_of(&self, p: Point) -> (i64, i64) {
        let inv = 1.0 / self.cell;
        ((p.x * inv).floor() as i64, (p.y * inv).floor() as i64)
    }

    #[inline]
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
        self.cell = distance * 0.5;
        let bits = (8 * positions.len())
            .next_power_of_two()
            .trailing_zeros()
            .max(6);
        self.width_bits = bits.div_ceil(2);
        self.height_bits = bits - self.width_bits;
        let count = 1usize << bits;
        self.start.clear();
        self.start.resize(count + 1, 0);
        self.buckets.clear();
        for &p in positions {
            let (cx, cy) = self.cell_of(p);
            let b = self.bucket(cx, cy);
            self.buckets.push(b as u32);
            self.start[b + 1] += 1;
        }
        for b in 0..count {
            self.start[b + 1] += self.start[b];
        }
        self.order.clear();
        self.order.resize(positions.len(), 0);
        self.positions.clear();
        self.positions.resize(positions.len(), Point::ZERO);
        // Fill each bucket in index order, with start[b] as its cursor; then shift the
        // starts back.
        for (i, &b) in self.buckets.iter().enumerate() {
            let at = self.start[b as usize] as usize;
            self.order[at] = i as u32;
            self.positions[at] = positions[i];
            self.start[b as usize] += 1;
        }
        for b in (1..=count).rev() {
            self.start[b] = self.start[b - 1];
        }
        self.start[0] = 0;
    }

    /// Scans cells `cx0 ..= cx1` of row `cy` (at most the table's width).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scan_row(
        &self,
        cx0: i64,
        cx1: i64,
        cy: i64,
        at: Point,
        limit: f64,
        k: usize,
        skip: Option<u32>,
        found: &mut Vec<(f64, u32)>,
    ) {
        let first = self.bucket(cx0, cy);
        let span = (cx1 - cx0) as usize;
        let row_end = (first | ((1 << self.width_bits) - 1)) + 1;
        let mut runs = [(first, (first + span + 1).min(row_end)), (0, 0)];
        if first + span + 1 > row_end {
            // Wraps around the table's width: the rest starts the row again.
            let row_start = row_end - (1 << self.width_bits);
            runs[1] = (row_start, row_start + (first + span + 1 - row_end));
        }
        for (b0, b1) in runs {
            if b0 == b1 {
                continue;
            }
            let (s0, s1) = (self.start[b0] as usize, self.start[b1] as usize);
            for s in s0..s1 {
                let d = self.positions[s].distance_squared(at);
                if d > limit {
                    continue;
                }
                let index = self.order[s];
                if Some(index) == skip || (found.len() == k && !after(found[k - 1], (d, index))) {
                    continue;
                }
                insert_sorted(found, (d, index), k);
            }
        }
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
        if k == 0 || self.order.is_empty() {
            return;
        }
        let limit = distance * distance;
        let (cx, cy) = self.cell_of(at);
        for dy in -1..=1 {
            self.scan_row(cx - 1, cx + 1, cy + dy, at, limit, k, skip, found);
        }
        // Every point of the outer ring is at least one cell away.
        if found.len() == k && found[k - 1].0 <= self.cell * self.cell {
            return;
        }
        for dy in [-2, 2] {
            self.scan_row(cx - 2, cx + 2, cy + dy, at, limit, k, skip, found);
        }
        for dy in -1..=1 {
            self.scan_row(cx - 2, cx - 2, cy + dy, at, limit, k, skip, found);
            self.scan_row(cx + 2, cx + 2, cy + dy, at, limit, k, skip, found);
        }
    }
}

/// Whether `a` comes after `b` in (distance, index) order.
#[inline(always)]
fn after(a: (f64, u32), b: (f64, u32)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 > b.1)
}

/// Inserts into a list sorted by (distance, index), keeping at most `k`.
#[inline(always)]
fn insert_sorted(found: &mut Vec<(f64, u32)>, item: (f64, u32), k: usize) {
    let mut at = found.len();
    while at > 0 && after(found[at - 1], item) {
        at -= 1;
    }
    if at >= k || (at > 0 && found[at - 1] == item) {
        // Beyond the k nearest, or met already (two cells of one bucket).
        return;
    }
    if found.len() == k {
        found.pop();
    }
    found.push(item);
    let mut j = found.len() - 1;
    while j > at {
        found[j] = found[j - 1];
        j -= 1;
    }
    found[at] = item;
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn matches_brute_force() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let positions: Vec<Point> = (0..2000)
            .map(|_| {
                Point::new(
                    rng.random_range(-100.0..100.0),
                    rng.random_range(-100.0..100.0),
                )
            })
            .collect();
        let mut grid = NeighbourGrid::default();
        grid.rebuild(&positions, 15.0);
        let mut found = Vec::new();
        for (i, &p) in positions.iter().enumerate().take(300) {
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
