//! Snapping user coordinates to the integer grid the Voronoi-based planners work on.

use crate::Point;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A point on the integer grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct GridPoint {
    /// Grid x.
    pub x: i32,
    /// Grid y.
    pub y: i32,
}

impl GridPoint {
    /// A grid point.
    pub const fn new(x: i32, y: i32) -> Self {
        GridPoint { x, y }
    }
}

/// Why a coordinate could not be snapped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SnapError {
    /// NaN or infinite coordinate.
    #[error("coordinate ({x}, {y}) is not finite")]
    NonFinite {
        /// x as given.
        x: f64,
        /// y as given.
        y: f64,
    },
    /// The snapped coordinate does not fit the grid's integer range.
    #[error(
        "coordinate ({x}, {y}) is outside the snap range ±{limit} units at {scale} steps per unit"
    )]
    OutOfRange {
        /// x as given.
        x: f64,
        /// y as given.
        y: f64,
        /// The largest absolute coordinate allowed, in user units.
        limit: f64,
        /// Grid steps per unit.
        scale: f64,
    },
    /// The scale itself is not a positive finite number.
    #[error("snap scale {0} is not a positive finite number")]
    BadScale(f64),
}

/// The integer grid: `scale` steps per user unit.
///
/// Coordinates must stay within ±[`SnapGrid::MAX_GRID_COORDINATE`] grid steps, which leaves
/// head-room in `i32` for exact transforms (rotations, shifts) and for the Voronoi
/// library's internal arithmetic.
///
/// ```
/// use corridor_geom::{GridPoint, Point, SnapGrid};
/// let grid = SnapGrid::default();
/// assert_eq!(grid.snap(Point::new(1.5, -0.25)).unwrap(), GridPoint::new(15_000, -2_500));
/// assert_eq!(grid.to_point(GridPoint::new(15_000, -2_500)), Point::new(1.5, -0.25));
/// assert!(grid.snap(Point::new(f64::NAN, 0.0)).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct SnapGrid {
    scale: f64,
}

impl Default for SnapGrid {
    fn default() -> Self {
        SnapGrid {
            scale: Self::DEFAULT_SCALE,
        }
    }
}

impl SnapGrid {
    /// Grid steps per user unit unless configured otherwise.
    pub const DEFAULT_SCALE: f64 = 10_000.0;
    /// The largest absolute grid coordinate (2^29).
    pub const MAX_GRID_COORDINATE: i32 = 1 << 29;

    /// A grid of `scale` steps per unit.
    pub fn new(scale: f64) -> Result<Self, SnapError> {
        if scale.is_finite() && scale > 0.0 {
            Ok(SnapGrid { scale })
        } else {
            Err(SnapError::BadScale(scale))
        }
    }

    /// Steps per user unit.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The largest absolute user coordinate that can be snapped.
    pub fn limit(&self) -> f64 {
        Self::MAX_GRID_COORDINATE as f64 / self.scale
    }

    /// The nearest grid point, or an error for non-finite or out-of-range input.
    pub fn snap(&self, p: Point) -> Result<GridPoint, SnapError> {
        if !p.is_finite() {
            return Err(SnapError::NonFinite { x: p.x, y: p.y });
        }
        let (x, y) = (round(p.x * self.scale), round(p.y * self.scale));
        let max = Self::MAX_GRID_COORDINATE as f64;
        if x.abs() > max || y.abs() > max {
            return Err(SnapError::OutOfRange {
                x: p.x,
                y: p.y,
                limit: self.limit(),
                scale: self.scale,
            });
        }
        Ok(GridPoint::new(x as i32, y as i32))
    }

    /// The user-space position of a grid point.
    pub fn to_point(&self, g: GridPoint) -> Point {
        Point::new(g.x as f64 / self.scale, g.y as f64 / self.scale)
    }

    /// A user-space length in grid steps.
    pub fn to_grid_length(&self, length: f64) -> f64 {
        length * self.scale
    }

    /// A grid length in user units.
    pub fn to_user_length(&self, grid_length: f64) -> f64 {
        grid_length / self.scale
    }
}

/// `v.round()` (half-way cases away from zero) up to the sign of a zero result, without
/// the call into the math library that `round` is on the baseline x86-64 target (two
/// per snapped point were a third of snapping). Below 2^52 in magnitude the truncation
/// to an integer and the fraction `v - t` are exact (`t` and `v` have one sign and
/// `|v| < |t| + 1`, so within a factor of two once `|t| ≥ 1`), and `t ± 1` too; larger
/// values (and NaN) take `round`.
#[inline]
pub(crate) fn round(v: f64) -> f64 {
    const EXACT: f64 = (1u64 << 52) as f64;
    if v.abs() < EXACT {
        let t = v as i64 as f64;
        let fraction = v - t;
        if fraction >= 0.5 {
            t + 1.0
        } else if fraction <= -0.5 {
            t - 1.0
        } else {
            t
        }
    } else {
        v.round()
    }
}

/// Grid points grouped by equality: which of a list of points (numbered in the order
/// given) lie at each distinct position.
///
/// Several steps ask "which walls end here?" about every wall end (merging collinear
/// walls, the orientation check, the medial-axis extraction). A sorted list of (point,
/// item) answers by binary search, at the price of a sort; this table is built in one
/// pass with a hash of the points and answers in one probe, with the same answers (items
/// in increasing order).
///
/// ```
/// use corridor_geom::{GridPoint, PointGroups};
/// let g = |x, y| GridPoint::new(x, y);
/// let groups = PointGroups::new([g(0, 0), g(5, 5), g(0, 0), g(1, 2)]);
/// assert_eq!(groups.at(g(0, 0)), &[0, 2]);
/// assert_eq!(groups.at(g(7, 7)), &[] as &[u32]);
/// assert_eq!(groups.len(), 3);
/// ```
#[derive(Clone, Debug, Default)]
pub struct PointGroups {
    /// Open addressing with linear probing: `group + 1` of the point hashed here, 0 if
    /// empty. The length is a power of two, at least twice the number of points.
    slots: Vec<u32>,
    /// `64 - log2(slots.len())`: the hash keeps the top bits of the product.
    shift: u32,
    /// The point of each group, in order of first appearance.
    points: Vec<GridPoint>,
    /// Group `g` lists `members[first[g]..first[g + 1]]`.
    first: Vec<u32>,
    /// Item numbers, increasing within a group.
    members: Vec<u32>,
}

/// Multiplier of the Fibonacci hash (2⁶⁴ divided by the golden ratio).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

impl PointGroups {
    /// Groups the points; item `i` is the `i`-th point given.
    pub fn new(points: impl IntoIterator<Item = GridPoint>) -> Self {
        let points = points.into_iter();
        let hint = points.size_hint().0;
        let capacity = (2 * hint).next_power_of_two().max(16);
        let mut groups = PointGroups {
            slots: vec![0; capacity],
            shift: 64 - capacity.trailing_zeros(),
            points: Vec::with_capacity(hint),
            ..PointGroups::default()
        };
        // The group of every item, and the size of every group g at `counts[g + 2]`
        // (shifted by two, so that after the prefix sums `counts[g + 1]` is where group
        // g starts, and after the fill below where it ends: `counts[..=groups]` is then
        // `first` as it stands, with no shift of the whole list).
        let mut group_of: Vec<u32> = Vec::with_capacity(hint);
        let mut counts: Vec<u32> = Vec::with_capacity(hint + 2);
        counts.extend([0, 0]);
        for p in points {
            if 2 * (groups.points.len() + 1) > groups.slots.len() {
                groups.grow();
            }
            let g = groups.find_or_insert(p);
            if g as usize + 2 == counts.len() {
                counts.push(0);
            }
            counts[g as usize + 2] += 1;
            group_of.push(g);
        }
        for g in 2..counts.len() {
            counts[g] += counts[g - 1];
        }
        groups.members = vec![0; group_of.len()];
        for (item, &g) in group_of.iter().enumerate() {
            let slot = &mut counts[g as usize + 1];
            groups.members[*slot as usize] = item as u32;
            *slot += 1;
        }
        // `counts[g]` now starts group g (it ended group g - 1), and `counts[groups]`
        // ends the last; the entry after it is not needed.
        counts.pop();
        groups.first = counts;
        groups
    }

    fn slot_of(&self, p: GridPoint) -> usize {
        let key = ((p.x as u32 as u64) << 32) | p.y as u32 as u64;
        (key.wrapping_mul(GOLDEN) >> self.shift) as usize
    }

    /// Doubles the hash table (only when the size hint was too small).
    fn grow(&mut self) {
        let capacity = 2 * self.slots.len();
        self.slots = vec![0; capacity];
        self.shift = 64 - capacity.trailing_zeros();
        let mask = capacity - 1;
        for (g, &p) in self.points.iter().enumerate() {
            let mut slot = self.slot_of(p);
            while self.slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = g as u32 + 1;
        }
    }

    /// The group of `p`, made if new.
    #[inline(always)]
    fn find_or_insert(&mut self, p: GridPoint) -> u32 {
        let mask = self.slots.len() - 1;
        let mut slot = self.slot_of(p);
        loop {
            match self.slots[slot] {
                0 => {
                    self.points.push(p);
                    self.slots[slot] = self.points.len() as u32;
                    return self.points.len() as u32 - 1;
                }
                g if self.points[g as usize - 1] == p => return g - 1,
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// The group of `p`, if some item lies there.
    pub fn find(&self, p: GridPoint) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut slot = self.slot_of(p);
        loop {
            match self.slots[slot] {
                0 => return None,
                g if self.points[g as usize - 1] == p => return Some(g as usize - 1),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// The items at `p`, in increasing order (empty if none).
    pub fn at(&self, p: GridPoint) -> &[u32] {
        match self.find(p) {
            Some(g) => self.group(g),
            None => &[],
        }
    }

    /// Number of distinct points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there are no points.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The point of group `g` (groups are numbered in order of first appearance).
    pub fn point(&self, g: usize) -> GridPoint {
        self.points[g]
    }

    /// The items of group `g`, in increasing order.
    pub fn group(&self, g: usize) -> &[u32] {
        &self.members[self.first[g] as usize..self.first[g + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The groups answer like a sorted list of (point, item) searched by point, also
    /// when the size hint is too small and the table grows.
    #[test]
    fn point_groups_match_a_sorted_list() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for round in 0..300 {
            let span: i32 = [3, 50, 1 << 29][round % 3];
            let mut coord = || rng.random_range(-span..=span);
            let n = [0, 1, 5, 40, 600][round % 5];
            let points: Vec<GridPoint> = (0..n).map(|_| GridPoint::new(coord(), coord())).collect();
            let groups = if round % 2 == 0 {
                PointGroups::new(points.iter().copied())
            } else {
                // No size hint: the table starts small and grows.
                PointGroups::new(points.iter().copied().filter(|_| true))
            };
            let mut sorted: Vec<(GridPoint, u32)> = points
                .iter()
                .enumerate()
                .map(|(i, &p)| (p, i as u32))
                .collect();
            sorted.sort_unstable();
            let expected = |p: GridPoint| -> Vec<u32> {
                sorted.iter().filter(|e| e.0 == p).map(|e| e.1).collect()
            };
            let mut distinct: Vec<GridPoint> = sorted.iter().map(|e| e.0).collect();
            distinct.dedup();
            assert_eq!(groups.len(), distinct.len());
            for g in 0..groups.len() {
                assert_eq!(groups.group(g), expected(groups.point(g)).as_slice());
            }
            for &p in &distinct {
                assert_eq!(groups.at(p), expected(p).as_slice());
            }
            for _ in 0..20 {
                let p = GridPoint::new(coord(), coord());
                assert_eq!(groups.at(p), expected(p).as_slice());
            }
        }
    }

    /// The rounding of snapping agrees with `f64::round` (value, not the sign of a zero)
    /// on half-way cases, their neighbours, large and tiny magnitudes, and random values.
    #[test]
    fn round_matches_the_library() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut values = vec![0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 1e-300, f64::MAX, f64::MIN];
        for k in 0..64 {
            let v = 2f64.powi(k) + 0.5;
            values.extend([v, -v, 2f64.powi(k), -2f64.powi(k)]);
        }
        for _ in 0..100_000 {
            let scale = 10f64.powi(rng.random_range(-3..12));
            values.push(rng.random_range(-1.0..1.0) * scale);
            values
                .push((rng.random_range(-1000..1000) as f64 + 0.5) * rng.random_range(1..4) as f64);
        }
        for v in values.clone() {
            values.extend([v.next_up(), v.next_down()]);
        }
        values.extend([f64::INFINITY, f64::NEG_INFINITY]);
        for v in values {
            assert_eq!(round(v), v.round(), "{v:e}");
        }
        assert!(round(f64::NAN).is_nan());
    }
}
