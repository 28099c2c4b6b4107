//! Which new walls a local diagram takes: the walls whose bounding boxes meet an
//! attempt's region ([`Nearby`], one wall query), each marked when it meets one of the
//! attempt's zones, with fast box tests that round exactly as the wall index does.

use super::context::Context;
use super::zone::Zone;
use corridor_geom::{Aabb, PackedTree, Point, WallKey};
use rstar::{Envelope, AABB};

/// The new walls (the current ones without the removed, with the added) that meet the
/// zone (a box: whose bounding boxes meet it), each passed to `f`.
fn new_walls_meeting(ctx: &Context<'_>, zone: &Zone, mut f: impl FnMut(WallKey)) {
    walls_meeting_while(ctx, zone, |k| {
        f(k);
        true
    });
}

/// [`new_walls_meeting`], stopping when `f` returns `false`; whether it went through all.
pub(super) fn walls_meeting_while(
    ctx: &Context<'_>,
    zone: &Zone,
    mut f: impl FnMut(WallKey) -> bool,
) -> bool {
    let grid = ctx.ecm.grid;
    let scale = grid.scale();
    let b = zone.bbox();
    let meets = |k: WallKey| match zone {
        Zone::Box(_) => true,
        Zone::Cone { .. } => {
            let (a, b) = k.ends();
            zone.meets(grid.to_point(a), grid.to_point(b), ctx.tol)
        }
    };
    let lo = [(b.min.x * scale).floor(), (b.min.y * scale).floor()];
    let hi = [(b.max.x * scale).ceil(), (b.max.y * scale).ceil()];
    let env = AABB::from_corners(lo, hi);
    let (ilo, ihi) = (
        [lo[0] as i64 - 1, lo[1] as i64 - 1],
        [hi[0] as i64 + 1, hi[1] as i64 + 1],
    );
    for k in ctx.walls.in_box(ilo, ihi) {
        if !ctx.removed.contains(&k) && env.intersects(&key_envelope(k)) && meets(k) && !f(k) {
            return false;
        }
    }
    for k in ctx.delta.added() {
        if env.intersects(&key_envelope(*k)) && meets(*k) && !f(*k) {
            return false;
        }
    }
    true
}

/// The new walls whose bounding boxes meet an attempt's region (one wall query), sorted,
/// each with whether it meets one of the attempt's zones (then it is *taken* into the
/// local diagram). Every wall a zone or a chord inside the region can meet is here.
pub(super) struct Nearby {
    walls: Vec<NearbyWall>,
    /// The walls that were not taken, in the same order.
    untaken: Vec<NearbyWall>,
    /// The untaken walls' boxes as a tree when there are many of them: a batch of changes
    /// far apart leaves most walls of its region untaken, and every chord asks about them
    /// (a list made 500 squares in one update quadratic).
    untaken_tree: Option<PackedTree>,
}

/// From how many entries [`Nearby`] looks boxes up in a tree instead of a list.
const TREE_FROM: usize = 64;

/// The box a grid box `b` meets a wall's box in, under the fast test ([`NearbyWall::box_meets`]):
/// a wall whose box misses it fails the test, so its walls are a superset of the answer.
fn widened(b: &Aabb) -> [f64; 4] {
    [b.min.x - 1.0, b.min.y - 1.0, b.max.x + 1.0, b.max.y + 1.0]
}

#[derive(Clone, Copy, Debug)]
struct NearbyWall {
    key: WallKey,
    /// Bounding box, grid units (grid points: integers, never `-0.0`).
    min: Point,
    max: Point,
    /// Ends, user units.
    p: Point,
    q: Point,
    taken: bool,
}

impl Nearby {
    pub(super) fn collect(ctx: &Context<'_>, zones: &[Zone], region: Aabb) -> Nearby {
        let grid = ctx.ecm.grid;
        // Sorted as keys (equal keys are the same wall), then completed.
        let mut keys = Vec::new();
        new_walls_meeting(ctx, &Zone::Box(region), |key| keys.push(key));
        keys.sort_unstable();
        keys.dedup();
        let mut walls: Vec<NearbyWall> = keys
            .into_iter()
            .map(|key| {
                let (a, b) = key.ends();
                NearbyWall {
                    key,
                    min: Point::new(a.x.min(b.x) as f64, a.y.min(b.y) as f64),
                    max: Point::new(a.x.max(b.x) as f64, a.y.max(b.y) as f64),
                    p: grid.to_point(a),
                    q: grid.to_point(b),
                    taken: false,
                }
            })
            .collect();
        let boxes: Vec<Aabb> = zones.iter().map(|z| grid_box(z, grid.scale())).collect();
        // The zones in runs of `CHUNK` (consecutive chords of an edge lie close together),
        // with the union of their boxes: the smallest and largest coordinates, no
        // rounding. `floor_le` and `ceil_ge` are monotone, so a wall that meets a box of
        // the run meets the union, and when it misses the union the run's zones need no
        // test. A run with a box off the fast test ([`plain`]) is always tested.
        const CHUNK: usize = 8;
        let least = |a: f64, b: f64| if b < a { b } else { a };
        let most = |a: f64, b: f64| if b > a { b } else { a };
        let unions: Vec<Option<Aabb>> = boxes
            .chunks(CHUNK)
            .map(|c| {
                let (mut lo, mut hi) =
                    (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
                for b in c {
                    if !plain(b) {
                        return None;
                    }
                    lo = Point::new(least(lo.x, b.min.x), least(lo.y, b.min.y));
                    hi = Point::new(most(hi.x, b.max.x), most(hi.y, b.max.y));
                }
                Some(Aabb { min: lo, max: hi })
            })
            .collect();
        let scale = grid.scale();
        let zone_meets = |w: &NearbyWall, i: usize| w.meets(&zones[i], &boxes[i], scale, ctx.tol);
        if zones.len() > TREE_FROM && unions.iter().all(Option::is_some) {
            // Many zones (a batch of changes): each wall asks only the zones whose boxes
            // are near its own; every box is plain, so the fast test decides.
            let tree = PackedTree::new(&boxes.iter().map(widened).collect::<Vec<_>>());
            for w in &mut walls {
                let wall_box = [w.min.x, w.min.y, w.max.x, w.max.y];
                w.taken = tree.meeting(wall_box).any(|i| zone_meets(w, i as usize));
            }
        } else {
            for w in &mut walls {
                w.taken = zones
                    .chunks(CHUNK)
                    .zip(boxes.chunks(CHUNK))
                    .zip(&unions)
                    .any(|((zs, bs), u)| {
                        u.is_none_or(|u| w.box_meets(&u))
                            && zs
                                .iter()
                                .zip(bs)
                                .any(|(z, b)| w.meets(z, b, scale, ctx.tol))
                    });
            }
        }
        let untaken: Vec<NearbyWall> = walls.iter().filter(|w| !w.taken).copied().collect();
        let untaken_tree = (untaken.len() > TREE_FROM).then(|| {
            let boxes: Vec<[f64; 4]> = untaken
                .iter()
                .map(|w| [w.min.x, w.min.y, w.max.x, w.max.y])
                .collect();
            PackedTree::new(&boxes)
        });
        Nearby {
            walls,
            untaken,
            untaken_tree,
        }
    }

    pub(super) fn taken(&self) -> impl Iterator<Item = WallKey> + '_ {
        self.walls.iter().filter(|w| w.taken).map(|w| w.key)
    }

    pub(super) fn is_taken(&self, key: WallKey) -> bool {
        self.walls
            .binary_search_by_key(&key, |w| w.key)
            .is_ok_and(|i| self.walls[i].taken)
    }

    /// Whether a wall that was not taken meets `zone` (whose box lies in the region).
    pub(super) fn untaken_meet(&self, ctx: &Context<'_>, zone: &Zone) -> bool {
        let scale = ctx.ecm.grid.scale();
        let b = grid_box(zone, scale);
        match &self.untaken_tree {
            Some(tree) if plain(&b) => tree
                .meeting(widened(&b))
                .any(|i| self.untaken[i as usize].meets(zone, &b, scale, ctx.tol)),
            _ => self
                .untaken
                .iter()
                .any(|w| w.meets(zone, &b, scale, ctx.tol)),
        }
    }
}

impl NearbyWall {
    /// Whether the wall's bounding box meets the box of grid points that holds `b` (a
    /// zone's [`grid_box`], [`plain`]): the box test of [`new_walls_meeting`] (`floor` and
    /// `ceil` of `b` against the wall's box), without rounding.
    #[inline]
    fn box_meets(&self, b: &Aabb) -> bool {
        floor_le(b.min.x, self.max.x)
            && floor_le(b.min.y, self.max.y)
            && ceil_ge(b.max.x, self.min.x)
            && ceil_ge(b.max.y, self.min.y)
    }

    /// The box test of [`new_walls_meeting`] as it is written there (for a zone box that
    /// is not [`plain`]: never in practice).
    #[cold]
    #[inline(never)]
    fn rounded_box_meets(&self, zone: &Zone, scale: f64) -> bool {
        grid_envelope(zone, scale).intersects(&key_envelope(self.key))
    }

    /// The test of [`new_walls_meeting`]: the boxes meet, and for a cone the wall. `b` is
    /// the zone's [`grid_box`] (`scale` the grid's, for a box off the fast test).
    #[inline]
    fn meets(&self, zone: &Zone, b: &Aabb, scale: f64, slack: f64) -> bool {
        let boxes_meet = if plain(b) {
            self.box_meets(b)
        } else {
            self.rounded_box_meets(zone, scale)
        };
        boxes_meet
            && match zone {
                Zone::Box(_) => true,
                Zone::Cone { .. } => zone.meets(self.p, self.q, slack),
            }
    }
}

/// The bounding box of a wall (grid coordinates, as `f64`).
fn key_envelope(k: WallKey) -> AABB<[f64; 2]> {
    let (a, b) = k.ends();
    AABB::from_corners([a.x as f64, a.y as f64], [b.x as f64, b.y as f64])
}

/// `floor(x) <= n` as `rstar` compares (through `OrderedFloat`: as `f64` but for NaN),
/// for `x` not NaN and an integer `n`: exactly `x < n + 1`.
#[inline]
fn floor_le(x: f64, n: f64) -> bool {
    x < n + 1.0
}

/// `ceil(x) >= n` as `rstar` compares, for `x` not NaN and an integer `n`: exactly
/// `x > n - 1`.
#[inline]
fn ceil_ge(x: f64, n: f64) -> bool {
    x > n - 1.0
}

/// Whether a zone's [`grid_box`] takes the fast box test: not NaN, and not flat (then
/// `floor` of its lower and `ceil` of its upper corner are its rounded corners in the
/// order `AABB::from_corners` puts them, as in [`grid_envelope`]).
#[inline]
fn plain(b: &Aabb) -> bool {
    b.min.x < b.max.x && b.min.y < b.max.y
}

/// The box of grid points that holds a zone's bounding box (grid units).
fn grid_envelope(zone: &Zone, scale: f64) -> AABB<[f64; 2]> {
    let b = zone.bbox();
    AABB::from_corners(
        [(b.min.x * scale).floor(), (b.min.y * scale).floor()],
        [(b.max.x * scale).ceil(), (b.max.y * scale).ceil()],
    )
}

/// A zone's bounding box in grid units (not rounded to grid points).
fn grid_box(zone: &Zone, scale: f64) -> Aabb {
    let b = zone.bbox();
    Aabb {
        min: Point::new(b.min.x * scale, b.min.y * scale),
        max: Point::new(b.max.x * scale, b.max.y * scale),
    }
}

#[cfg(test)]
mod box_test_tests {
    use super::*;

    /// `floor_le` and `ceil_ge` against `floor`, `ceil` and `rstar`'s `intersects`.
    #[test]
    fn fast_box_test_matches_rounding() {
        let mut xs = vec![
            0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 0.999, -0.999,
        ];
        xs.extend([
            1e-300,
            -1e-300,
            3.0e9,
            -3.0e9,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ]);
        let mut r = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..4000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            xs.push((r % 4001) as f64 * 0.0025 - 5.0);
        }
        for &x in &xs {
            for n in -4..=4 {
                let n = n as f64;
                // One axis of `intersects`: the other axis always meets.
                let wall = AABB::from_corners([n, -10.0], [n, 10.0]);
                let lower = AABB::from_corners([x.floor(), 0.0], [x.floor().max(n) + 1.0, 1.0]);
                let upper = AABB::from_corners([x.ceil().min(n) - 1.0, 0.0], [x.ceil(), 1.0]);
                assert_eq!(
                    floor_le(x, n),
                    lower.intersects(&wall),
                    "floor_le({x:e}, {n})"
                );
                assert_eq!(
                    ceil_ge(x, n),
                    upper.intersects(&wall),
                    "ceil_ge({x:e}, {n})"
                );
            }
        }
    }
}
