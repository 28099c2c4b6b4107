//! Keeping the [`Walls`](crate::Walls) of an environment current while obstacles are
//! inserted, removed and moved, without normalizing the whole environment again:
//! [`WallMap`].
//!
//! See [`WallMap`] for how a change is normalized locally. [`WallMap::plan`] (here) tries
//! the methods in turn: `window` (a box around the change), `group` (the interacting
//! obstacles), and the global normalization; `check` verifies what a local method added.
//! Below them: the map itself (`map`), its snapped obstacles (`snapped`), its walls
//! (`wall_set`, `key`) and what a plan hands back (`delta`).

mod check;
mod delta;
mod group;
mod key;
mod map;
mod snapped;
mod wall_set;
mod window;

pub use delta::{NormalizeScope, ObstacleEdit, WallDelta};
pub use key::WallKey;
pub use map::WallMap;
pub use snapped::GROUP_MARGIN;
pub use wall_set::WallSet;

use self::group::GroupError;
use self::map::Change;
use self::snapped::{snap_obstacle, Snapped};
use crate::walls::normalize;
use crate::FxHashSet as HashSet;
use crate::{Environment, NormalizeError, ObstacleId};

/// A batch whose obstacles have more than one vertex for this many walls of the map is
/// normalized with the whole map (see [`WallMap::plan`]) when it has more than
/// [`WHOLE_MAP_MIN`] vertices.
const WHOLE_MAP_FROM: usize = 8;

/// Below this many vertices a batch is always normalized in windows or groups first.
const WHOLE_MAP_MIN: usize = 256;

impl WallMap {
    /// Computes how the walls change when `edits` are made to `env` (which must be the
    /// environment this map currently describes). Only reads the map.
    ///
    /// Errors are those of [`normalize`] for the changed environment: an invalid new
    /// obstacle is reported as [`NormalizeError::Environment`] naming it.
    pub fn plan(
        &self,
        env: &Environment,
        edits: &[ObstacleEdit<'_>],
    ) -> Result<WallDelta, NormalizeError> {
        let mut snapped: Vec<(ObstacleId, Option<Snapped>)> = Vec::with_capacity(edits.len());
        for edit in edits {
            let new = match edit.obstacle {
                Some(o) => {
                    let mut single =
                        Environment::new(env.boundary().clone()).with_snap_grid(self.grid);
                    single.insert_with_id(edit.id, o.clone());
                    single.validate()?;
                    Some(snap_obstacle(&self.grid, edit.id, o)?)
                }
                None => None,
            };
            snapped.push((edit.id, new));
        }
        let unchanged = snapped
            .iter()
            .all(|(id, new)| self.obstacles.get(id) == new.as_ref());
        let mut delta = WallDelta {
            removed: Vec::new(),
            added: Vec::new(),
            scope: NormalizeScope::Unchanged,
            note: None,
            edits: Vec::new(),
            free_twice: self.walls.free_twice,
        };
        if !unchanged {
            let mut notes = Vec::new();
            let mut result = None;
            // A batch that touches many vertices for the size of the map normalizes the
            // whole map once: windows and groups cost more than linear in the batch
            // (measured: 2,000 squares in random512-10-0, 0.8 s in windows against
            // 0.3 s for the whole map).
            let edit_vertices: usize = snapped
                .iter()
                .map(|(id, new)| {
                    new.as_ref().map_or(0, |s| s.vertices)
                        + self.obstacles.get(id).map_or(0, |s| s.vertices)
                })
                .sum();
            let whole_map =
                edit_vertices > WHOLE_MAP_MIN && edit_vertices * WHOLE_MAP_FROM > self.walls.len();
            if whole_map {
                notes.push(format!(
                    "the edits have {edit_vertices} vertices for {} walls",
                    self.walls.len()
                ));
            } else {
                match self.window(&snapped) {
                    Ok(d) => result = Some((d, NormalizeScope::Window)),
                    Err(why) => notes.push(format!("window: {why}")),
                }
            }
            if result.is_none() && !whole_map {
                match self.group(&snapped) {
                    Ok(Some(d)) => result = Some((d, NormalizeScope::Group)),
                    Ok(None) => notes.push("group: too large".into()),
                    Err(GroupError::Skip(why)) => notes.push(format!("group: {why}")),
                    Err(GroupError::Normalize(e)) => return Err(e),
                }
            }
            let (removed, added, scope) = match result {
                Some(((removed, added), scope)) => (removed, added, scope),
                None => {
                    let (removed, added) = self.global(env, edits)?;
                    (removed, added, NormalizeScope::Global)
                }
            };
            delta.removed = removed;
            delta.added = added;
            delta.scope = scope;
            if !notes.is_empty() && scope != NormalizeScope::Window {
                delta.note = Some(notes.join("; "));
            }
            delta.free_twice = self.walls.free_twice
                - delta
                    .removed
                    .iter()
                    .map(|k| k.twice_area_share())
                    .sum::<i128>()
                + delta
                    .added
                    .iter()
                    .map(|k| k.twice_area_share())
                    .sum::<i128>();
        }
        delta.edits = snapped;
        Ok(delta)
    }

    fn global(
        &self,
        env: &Environment,
        edits: &[ObstacleEdit<'_>],
    ) -> Result<Change, NormalizeError> {
        let mut changed = env.clone();
        for edit in edits {
            match edit.obstacle {
                Some(o) => {
                    changed.insert_with_id(edit.id, o.clone());
                }
                None => {
                    changed.remove(edit.id);
                }
            }
        }
        let walls = normalize(&changed)?;
        let keys: HashSet<WallKey> = WallKey::all(&walls).collect();
        let mut removed: Vec<WallKey> = self.walls.keys.difference(&keys).copied().collect();
        let mut added: Vec<WallKey> = keys.difference(&self.walls.keys).copied().collect();
        removed.sort_unstable();
        added.sort_unstable();
        Ok((removed, added))
    }
}

#[cfg(test)]
mod tests {
    use super::group::convex_ring_walls;
    use super::snapped::{bbox, Input};
    use super::window::Box2;
    use super::*;
    use crate::Point;
    use crate::{Obstacle, SnapGrid};
    use rstar::AABB;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: i64) -> i64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as i64
        }
    }

    /// The window's walls read off the slabs are those of normalizing the box with its
    /// blocked rectangles, and both are the full normalization's walls clipped to the
    /// box, on random rectilinear maps (overlapping and touching rectangles, pinches,
    /// boxes cutting through them).
    #[test]
    fn window_walls_from_slabs_match_normalization() {
        let grid = SnapGrid::new(1.0).unwrap();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut boxes, mut compared) = (0, 0);
        for round in 0..300 {
            let size = 24 + rng.below(24);
            let mut env =
                Environment::rectangle(Point::ZERO, Point::splat(size as f64)).with_snap_grid(grid);
            for _ in 0..(2 + rng.below(14)) {
                let (x, y) = (rng.below(size - 1), rng.below(size - 1));
                let (w, h) = (1 + rng.below(8), 1 + rng.below(8));
                let (xb, yb) = ((x + w).min(size), (y + h).min(size));
                env.insert(Obstacle::rectangle(
                    Point::new(x as f64, y as f64),
                    Point::new(xb as f64, yb as f64),
                ));
            }
            let (map, walls) = WallMap::new(&env).unwrap();
            let all: Vec<WallKey> = WallKey::all(&walls).collect();
            let inputs: Vec<Input> = map
                .boundary
                .iter()
                .copied()
                .chain(
                    map.obstacles
                        .values()
                        .flat_map(|s| s.inputs.iter().copied()),
                )
                .collect();
            let used_x: HashSet<i64> = inputs
                .iter()
                .flat_map(|i| [i.a.x as i64, i.b.x as i64])
                .collect();
            let used_y: HashSet<i64> = inputs
                .iter()
                .flat_map(|i| [i.a.y as i64, i.b.y as i64])
                .collect();
            for _ in 0..4 {
                let pick = |rng: &mut Rng, used: &HashSet<i64>| loop {
                    let c = rng.below(size + 8) - 4;
                    if !used.contains(&c) {
                        return c;
                    }
                };
                let (a, b) = (pick(&mut rng, &used_x), pick(&mut rng, &used_x));
                let (c, d) = (pick(&mut rng, &used_y), pick(&mut rng, &used_y));
                if a == b || c == d {
                    continue;
                }
                let bx = Box2 {
                    x0: a.min(b),
                    x1: a.max(b),
                    y0: c.min(d),
                    y1: c.max(d),
                };
                let local: Vec<Input> = inputs
                    .iter()
                    .copied()
                    .filter(|i| {
                        let (lo, hi) = bbox(i.a, i.b);
                        lo[0] <= bx.x1 && hi[0] >= bx.x0 && lo[1] <= bx.y1 && hi[1] >= bx.y0
                    })
                    .collect();
                let direct = map.local_walls(&bx, &local, |_| true, &[], false).unwrap();
                let normalized = map.local_walls(&bx, &local, |_| true, &[], true).unwrap();
                let clipped: HashSet<WallKey> =
                    all.iter().filter_map(|w| bx.clip(*w).unwrap()).collect();
                assert_eq!(direct, normalized, "round {round}, box {bx:?}");
                assert_eq!(direct, clipped, "round {round}, box {bx:?}");
                boxes += 1;
                compared += direct.len();
            }
        }
        assert!(
            boxes > 1000 && compared > 4 * boxes,
            "{boxes} boxes, {compared} walls"
        );
    }

    /// A random polygon around `(cx, cy)`: `k` vertices on a circle of radius `r` at
    /// random angles, sometimes with an extra vertex halfway along an edge, sometimes
    /// counter-clockwise, sometimes a star (reflex vertices).
    fn random_ring(rng: &mut Rng, cx: f64, cy: f64, r: f64) -> Obstacle {
        let k = 3 + rng.below(6) as usize;
        let mut angles: Vec<f64> = (0..k)
            .map(|_| rng.below(10_000) as f64 / 10_000.0 * std::f64::consts::TAU)
            .collect();
        angles.sort_by(f64::total_cmp);
        let star = rng.below(6) == 0;
        let mut pts: Vec<Point> = angles
            .iter()
            .enumerate()
            .map(|(j, a)| {
                let rr = if star && j % 2 == 1 { r * 0.3 } else { r };
                Point::new(cx + rr * a.cos(), cy + rr * a.sin())
            })
            .collect();
        if rng.below(3) == 0 {
            let j = rng.below(k as i64) as usize;
            let (p, q) = (pts[j], pts[(j + 1) % k]);
            pts.insert(j + 1, Point::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0));
        }
        if rng.below(2) == 0 {
            pts.reverse();
        }
        Obstacle::polygon(pts)
    }

    /// `convex_ring_walls` gives what `normalize` gives for one ring far from the
    /// boundary, whenever it gives anything: random convex rings (some with straight
    /// vertices, snapped on a coarse grid, so that some turn reflex or collapse), stars.
    #[test]
    fn isolated_rings_match_normalization() {
        let grid = SnapGrid::new(4.0).unwrap();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut direct, mut declined) = (0, 0);
        for _ in 0..2000 {
            let mut env =
                Environment::rectangle(Point::ZERO, Point::splat(100.0)).with_snap_grid(grid);
            let r = 0.3 + rng.below(400) as f64 / 40.0;
            let o = random_ring(&mut rng, 50.0, 50.0, r);
            let id = env.insert(o.clone());
            let Ok(walls) = normalize(&env) else {
                continue;
            };
            let ring: HashSet<WallKey> = walls
                .segments
                .iter()
                .filter(|w| w.sources[..] != [crate::WallSource::Boundary])
                .map(|w| WallKey::Segment {
                    a: w.a,
                    b: w.b,
                    two_sided: w.two_sided,
                })
                .chain(walls.points.iter().map(|(p, _)| WallKey::Point(*p)))
                .collect();
            let snapped = snap_obstacle(&grid, id, &o).unwrap();
            match convex_ring_walls(&snapped.inputs) {
                Some(w) => {
                    assert_eq!(w.iter().copied().collect::<HashSet<_>>(), ring, "{o:?}");
                    assert_eq!(w.len(), ring.len());
                    direct += 1;
                }
                None => declined += 1,
            }
        }
        assert!(
            direct > 1000 && declined > 200,
            "{direct} direct, {declined} declined"
        );
    }

    /// A ring moved, inserted and removed among a few far-apart obstacles: the map's walls
    /// after each change are the full normalization's, and the isolated-ring shortcut of
    /// the group method is taken often.
    #[test]
    fn isolated_moves_match_full_normalization() {
        let grid = SnapGrid::new(2.0).unwrap();
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        let mut env = Environment::rectangle(Point::ZERO, Point::splat(200.0)).with_snap_grid(grid);
        for _ in 0..6 {
            let (x, y) = (rng.below(180) as f64, rng.below(180) as f64);
            let (w, h) = (2.0 + rng.below(16) as f64, 2.0 + rng.below(16) as f64);
            env.insert(Obstacle::rectangle(
                Point::new(x, y),
                Point::new((x + w).min(200.0), (y + h).min(200.0)),
            ));
        }
        let (mut map, _) = WallMap::new(&env).unwrap();
        let mut id: Option<ObstacleId> = None;
        let mut isolated = 0;
        for step in 0..600 {
            let (cx, cy) = (rng.below(2000) as f64 / 10.0, rng.below(2000) as f64 / 10.0);
            let r = 0.5 + rng.below(80) as f64 / 10.0;
            let o = random_ring(&mut rng, cx, cy, r);
            let remove = id.is_some() && step % 7 == 3;
            let target = id.unwrap_or_else(|| env.next_id());
            let edit = ObstacleEdit {
                id: target,
                obstacle: (!remove).then_some(&o),
            };
            let Ok(delta) = map.plan(&env, &[edit]) else {
                continue;
            };
            let snapped = map.obstacles.get(&target).cloned();
            let new = delta.edits[0].1.clone();
            let near = |s: &Snapped| {
                let envelope = AABB::from_corners(
                    [s.min[0] - GROUP_MARGIN, s.min[1] - GROUP_MARGIN],
                    [s.max[0] + GROUP_MARGIN, s.max[1] + GROUP_MARGIN],
                );
                map.boxes
                    .locate_in_envelope_intersecting(envelope)
                    .any(|b| b.data != target)
                    || map
                        .edge_tree
                        .locate_in_envelope_intersecting(envelope)
                        .any(|i| i.data.owner.is_none())
            };
            let alone = [snapped.as_ref(), new.as_ref()]
                .into_iter()
                .flatten()
                .all(|s| !near(s) && convex_ring_walls(&s.inputs).is_some());
            if alone && delta.scope() == NormalizeScope::Group {
                isolated += 1;
            }
            map.apply(delta);
            if remove {
                env.remove(target);
                id = None;
            } else {
                env.insert_with_id(target, o);
                id = Some(target);
            }
            let full: HashSet<WallKey> = WallKey::all(&normalize(&env).unwrap()).collect();
            assert_eq!(
                map.walls().iter().collect::<HashSet<_>>(),
                full,
                "step {step}"
            );
        }
        assert!(isolated > 100, "{isolated} isolated changes");
    }
}
