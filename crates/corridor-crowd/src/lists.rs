//! Who is near whom, kept over several substeps: per character, a Verlet list of every
//! character that was within the neighbour distance plus a skin when the list was built;
//! the grid ([`NeighbourGrid`]) is rebuilt and the lists with it only once some character
//! has moved more than half the skin.
//!
//! Exactness: let the lists be built at positions `q` and searched at positions `p`, with
//! every `|p_i − q_i| ≤ m` and `2m ≤ skin`. A character `j` within `d` of `i` now was,
//! by the triangle inequality, within `d + 2m ≤ d + skin` of it then, so it is in `i`'s
//! list. The search offers every list entry within `d` to the same insertion into a
//! (distance, index)-sorted list of `k` as the grid's search, with the same squared
//! distance (`p_j.distance_squared(p_i)`): the k smallest (distance, index) pairs of the
//! same set, so the same neighbours in the same order, and trajectories stay
//! bit-identical. The rebuild test keeps a margin ([`MARGIN`]) over the rounding of the
//! distances. The lists are indexed by slot, not by character, so only a change of the
//! crowd's size forces a rebuild: a character that took over a slot (after a removal)
//! is caught by the displacement test like one that moved.
//!
//! Where the lists would grow long (a dense crowd, a large skin), scanning them costs
//! more than the grid's search with its early exits: the lists are then left for
//! [`RETRY`] substeps and the grid is searched instead.

use corridor_geom::Point;

use crate::grid::{offer, NeighbourGrid};

/// Slack (metres) in the displacement test, far above the rounding of the distances.
const MARGIN: f64 = 1e-6;
/// Substeps the grid is searched before the lists are tried again after they grew long.
const RETRY: u32 = 32;
/// Substeps a list should last: the skin is twice this many substeps' largest move.
const LAST: f64 = 8.0;
/// The longest mean list (per wanted neighbour) worth scanning instead of the grid.
const LONGEST: usize = 4;

/// The k-nearest search over Verlet lists, falling back to the grid.
///
/// ```
/// use corridor_crowd::NeighbourLists;
/// use corridor_geom::Point;
/// let mut lists = NeighbourLists::default();
/// let mut positions = vec![Point::new(0.0, 0.0), Point::new(3.0, 0.0), Point::new(50.0, 0.0)];
/// let mut found = Vec::new();
/// lists.update(&positions, 10.0, 5);
/// lists.nearest(0, &positions, 10.0, 5, &mut found);
/// assert_eq!(found.iter().map(|&(_, i)| i).collect::<Vec<_>>(), [1]);
/// positions[2] = Point::new(5.0, 0.0); // far beyond the skin: the lists are rebuilt
/// lists.update(&positions, 10.0, 5);
/// lists.nearest(0, &positions, 10.0, 5, &mut found);
/// assert_eq!(found.iter().map(|&(_, i)| i).collect::<Vec<_>>(), [1, 2]);
/// ```
#[derive(Debug, Default)]
pub struct NeighbourLists {
    grid: NeighbourGrid,
    /// Positions when the lists were built.
    reference: Vec<Point>,
    /// Character i's list is `list[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    list: Vec<u32>,
    /// The neighbour distance and skin the lists were built for.
    distance: f64,
    skin: f64,
    /// Whether the lists hold (else the grid is searched).
    valid: bool,
    /// Substeps since the lists were built.
    age: u32,
    /// Substeps left searching the grid before the lists are tried again.
    grid_only: u32,
}

impl NeighbourLists {
    /// Makes the lists (or the grid) ready for searches up to `distance` for `k`
    /// neighbours at `positions`: rebuilds them when the crowd's size or the distance
    /// changed or some character moved more than half the skin.
    pub fn update(&mut self, positions: &[Point], distance: f64, k: usize) {
        let n = positions.len();
        if self.valid && n == self.reference.len() && distance == self.distance {
            self.age += 1;
            let moved = positions
                .iter()
                .zip(&self.reference)
                .map(|(p, q)| p.distance_squared(*q))
                .fold(0.0, f64::max)
                .sqrt();
            if 2.0 * moved + MARGIN <= self.skin {
                return;
            }
            // Twice the largest move of LAST substeps at the pace seen since the build.
            self.skin =
                (2.0 * LAST * moved / f64::from(self.age)).clamp(0.05 * distance, 0.5 * distance);
        } else if !(self.skin > 0.0 && distance == self.distance) {
            self.skin = 0.25 * distance;
        }
        self.valid = false;
        self.distance = distance;
        if self.grid_only > 0 {
            self.grid_only -= 1;
            self.grid.rebuild(positions, distance);
            return;
        }
        let reach = distance + self.skin;
        self.grid.rebuild(positions, reach);
        self.start.clear();
        self.list.clear();
        self.start.push(0);
        for (i, &p) in positions.iter().enumerate() {
            self.grid.within(p, reach, i as u32, &mut self.list);
            self.start.push(self.list.len() as u32);
        }
        if self.list.len() > LONGEST * k.max(1) * n {
            self.grid_only = RETRY;
            self.grid.rebuild(positions, distance);
            return;
        }
        self.reference.clear();
        self.reference.extend_from_slice(positions);
        self.valid = true;
        self.age = 0;
    }

    /// The up to `k` characters nearest character `i` within `distance` (squared
    /// distance, index), nearest first, ties by index, `i` left out: the grid's answer
    /// ([`NeighbourGrid::nearest`]). `positions` and `distance` must be those of the
    /// last [`update`](Self::update).
    #[inline(always)]
    pub fn nearest(
        &self,
        i: usize,
        positions: &[Point],
        distance: f64,
        k: usize,
        found: &mut Vec<(f64, u32)>,
    ) {
        let at = positions[i];
        if !self.valid {
            return self.search_grid(at, distance, k, i, found);
        }
        found.clear();
        if k == 0 {
            return;
        }
        let mut bound = distance * distance;
        let list = &self.list[self.start[i] as usize..self.start[i + 1] as usize];
        for &j in list {
            let d = positions[j as usize].distance_squared(at);
            if d <= bound {
                bound = offer(found, k, (d, j), bound);
            }
        }
    }

    /// The grid's search, out of line: the lists' search is inlined into its callers.
    #[inline(never)]
    fn search_grid(
        &self,
        at: Point,
        distance: f64,
        k: usize,
        i: usize,
        found: &mut Vec<(f64, u32)>,
    ) {
        self.grid.nearest(at, distance, k, Some(i as u32), found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The lists' answers equal the brute-force k nearest over a run in which the
    /// characters drift (the lists kept and rebuilt), one jumps, and the crowd grows.
    #[test]
    fn matches_brute_force_over_moves() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut positions: Vec<Point> = (0..1500)
            .map(|_| {
                Point::new(
                    rng.random_range(-150.0..150.0),
                    rng.random_range(-150.0..150.0),
                )
            })
            .collect();
        let (distance, k) = (15.0, 10);
        let mut lists = NeighbourLists::default();
        let mut found = Vec::new();
        let mut kept = 0;
        for step in 0..40 {
            for p in &mut positions {
                *p += Point::new(rng.random_range(-0.4..0.4), rng.random_range(-0.4..0.4));
            }
            if step == 20 {
                positions[3] = Point::new(0.0, 0.0);
            }
            if step == 30 {
                positions.push(Point::new(1.0, 1.0));
            }
            lists.update(&positions, distance, k);
            kept += usize::from(lists.valid && lists.age > 0);
            for (i, &p) in positions.iter().enumerate() {
                lists.nearest(i, &positions, distance, k, &mut found);
                let mut all: Vec<(f64, u32)> = positions
                    .iter()
                    .enumerate()
                    .filter(|&(j, q)| j != i && q.distance_squared(p) <= distance * distance)
                    .map(|(j, q)| (q.distance_squared(p), j as u32))
                    .collect();
                all.sort_by(|a, b| a.partial_cmp(b).unwrap());
                all.truncate(k);
                assert_eq!(found, all, "step {step}, character {i}");
            }
        }
        assert!(kept > 20, "the lists were kept over {kept} substeps only");
    }
}
