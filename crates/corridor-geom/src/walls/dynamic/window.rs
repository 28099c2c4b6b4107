//! The window method: a box around the change whose walls are read off rectilinear
//! slabs or normalized locally, clipped to the box.

use super::check::on_segment;
use super::key::WallKey;
use super::map::{Change, Skip, WallMap};
use super::snapped::GROUP_MARGIN;
use super::snapped::{bbox, box_meets, Input, Kind, Snapped};
use crate::walls::normalize;
use crate::{
    orient_grid, Environment, GridPoint, NormalizeError, Obstacle, ObstacleId, Orientation,
    SnapGrid,
};
use crate::{FxHashMap as HashMap, FxHashSet as HashSet};
use rstar::AABB;

/// The margin (grid steps) between the changed obstacles and the box of the window method.
const WINDOW_MARGIN: i64 = 4;

/// How far a side of the window box may be moved outwards to avoid input vertices.
const WINDOW_SHIFTS: i64 = 64;

impl WallMap {
    pub(super) fn window(&self, snapped: &[(ObstacleId, Option<Snapped>)]) -> Result<Change, Skip> {
        let edited: HashSet<ObstacleId> = snapped.iter().map(|(id, _)| *id).collect();
        let mut min = [i64::MAX; 2];
        let mut max = [i64::MIN; 2];
        for (id, new) in snapped {
            for s in [self.obstacles.get(id), new.as_ref()].into_iter().flatten() {
                if !s.rectilinear {
                    return Err("a changed obstacle has slanted edges".into());
                }
                if s.has_box() {
                    min = [min[0].min(s.min[0]), min[1].min(s.min[1])];
                    max = [max[0].max(s.max[0]), max[1].max(s.max[1])];
                }
            }
        }
        if min[0] > max[0] {
            return Err("nothing to place".into());
        }
        let new_inputs: Vec<Input> = snapped
            .iter()
            .filter_map(|(_, s)| s.as_ref())
            .flat_map(|s| s.inputs.iter().copied())
            .collect();
        let limit = SnapGrid::MAX_GRID_COORDINATE as i64;
        let reach = WINDOW_MARGIN + WINDOW_SHIFTS + GROUP_MARGIN;
        let outer = AABB::from_corners(
            [min[0] - reach, min[1] - reach],
            [max[0] + reach, max[1] + reach],
        );
        // Everything near the window, before the change (the edited obstacles' old edges
        // included) and the new edges.
        let near: Vec<Input> = self.inputs_meeting(outer).collect();
        if near.len() > 4096 {
            return Err("too many edges near the change".into());
        }
        let everything = near.iter().chain(&new_inputs);
        let mut xs: HashSet<i64> = HashSet::default();
        let mut ys: HashSet<i64> = HashSet::default();
        for i in everything.clone() {
            if i.kind != Kind::Point && !i.axis_parallel() {
                return Err("slanted edges near the change".into());
            }
            for p in [i.a, i.b] {
                xs.insert(p.x as i64);
                ys.insert(p.y as i64);
            }
        }
        // No slanted edge may come near an edge that reaches the window (it could bend
        // that edge's pieces by rounding).
        if self.small_obstacles > 0 || self.slanted_edges.size() > 0 {
            for i in everything.clone() {
                let (lo, hi) = bbox(i.a, i.b);
                let env = AABB::from_corners(
                    [lo[0] - GROUP_MARGIN, lo[1] - GROUP_MARGIN],
                    [hi[0] + GROUP_MARGIN, hi[1] + GROUP_MARGIN],
                );
                let edges = || {
                    self.slanted_edges
                        .locate_in_envelope_intersecting(env)
                        .any(|s| !edited.contains(&s.data.owner.unwrap_or(ObstacleId(u32::MAX))))
                };
                let obstacle = || {
                    self.small_obstacles > 0
                        && self.boxes.locate_in_envelope_intersecting(env).any(|item| {
                            let s = &self.obstacles[&item.data];
                            s.is_small()
                                && !edited.contains(&item.data)
                                && s.inputs
                                    .iter()
                                    .any(|i| !i.axis_parallel() && box_meets(*i, &env))
                        })
                };
                if edges() || obstacle() {
                    return Err("a slanted edge is near an edge of the window".into());
                }
            }
        }
        // Sides of the box on lines without any input vertex.
        let pick = |start: i64, step: i64, used: &HashSet<i64>| -> Option<i64> {
            (0..=WINDOW_SHIFTS)
                .map(|k| start + step * k)
                .find(|c| !used.contains(c) && c.abs() < limit)
        };
        let (Some(x0), Some(x1), Some(y0), Some(y1)) = (
            pick(min[0] - WINDOW_MARGIN, -1, &xs),
            pick(max[0] + WINDOW_MARGIN, 1, &xs),
            pick(min[1] - WINDOW_MARGIN, -1, &ys),
            pick(max[1] + WINDOW_MARGIN, 1, &ys),
        ) else {
            return Err("no free line for a side of the window".into());
        };
        let bx = Box2 { x0, y0, x1, y1 };
        let inside = |i: &Input| {
            let (lo, hi) = bbox(i.a, i.b);
            lo[0] <= x1 && hi[0] >= x0 && lo[1] <= y1 && hi[1] >= y0
        };
        let new_local: Vec<Input> = near
            .iter()
            .filter(|i| !i.owner.is_some_and(|o| edited.contains(&o)))
            .chain(&new_inputs)
            .copied()
            .filter(inside)
            .collect();
        let new_walls = self
            .local_walls(
                &bx,
                &new_local,
                |i| !i.owner.is_some_and(|o| edited.contains(&o)),
                &new_inputs,
                false,
            )
            .map_err(|e| format!("the window did not normalize after the change: {e}"))?;
        // The walls before the change are the current walls clipped to the box: the
        // window's normalization of the state before the change would give exactly these
        // (see "Why the window needs no normalization before the change" on
        // [`WallMap`]), so it is not run.
        let mut clipped_to_global: HashMap<WallKey, WallKey> = HashMap::default();
        for w in self.walls.in_box([x0, y0], [x1, y1]) {
            if let Some(c) = bx.clip(w)? {
                clipped_to_global.insert(c, w);
            }
        }
        let old_walls: HashSet<WallKey> = clipped_to_global.keys().copied().collect();
        let mut removed: Vec<WallKey> = old_walls
            .difference(&new_walls)
            .map(|w| clipped_to_global[w])
            .collect();
        removed.sort_unstable();
        removed.dedup();
        let mut added: Vec<WallKey> = Vec::new();
        for v in new_walls.difference(&old_walls) {
            let WallKey::Segment { a, b, two_sided } = *v else {
                added.push(*v);
                continue;
            };
            let extend = |p: GridPoint, forward: bool| -> Result<GridPoint, Skip> {
                if !bx.on_border(p) {
                    return Ok(p);
                }
                for w in &removed {
                    let WallKey::Segment {
                        a: wa,
                        b: wb,
                        two_sided: ts,
                    } = *w
                    else {
                        continue;
                    };
                    if ts != two_sided
                        || orient_grid(a, b, wa) != Orientation::Collinear
                        || orient_grid(a, b, wb) != Orientation::Collinear
                        || !on_segment(p, wa, wb)
                    {
                        continue;
                    }
                    // Same direction along the line.
                    let same = (b.x as i64 - a.x as i64) * (wb.x as i64 - wa.x as i64)
                        + (b.y as i64 - a.y as i64) * (wb.y as i64 - wa.y as i64)
                        > 0;
                    if !same {
                        continue;
                    }
                    let far = if forward { wb } else { wa };
                    if far != p {
                        return Ok(far);
                    }
                }
                Err(format!("no wall continues the new wall at {p:?}"))
            };
            added.push(WallKey::Segment {
                a: extend(a, false)?,
                b: extend(b, true)?,
                two_sided,
            });
        }
        added.sort_unstable();
        added.dedup();
        // Every removed wall's parts outside the box come back.
        let ends: HashSet<GridPoint> = added
            .iter()
            .flat_map(|k| {
                let (a, b) = k.ends();
                [a, b]
            })
            .collect();
        for w in &removed {
            let (a, b) = w.ends();
            for p in [a, b] {
                if !bx.contains(p) && !ends.contains(&p) {
                    return Err(format!(
                        "the part of a wall outside the window at {p:?} is lost"
                    ));
                }
            }
        }
        self.check(&removed, &added)?;
        Ok((removed, added))
    }

    /// The walls inside the box for the inputs that meet it (`keep` filters the tree's
    /// inputs for the ray cast, `extra` are inputs not in the tree), without the walls on
    /// the box's sides.
    ///
    /// When every input in the box is a ring edge (no points, no open edges), the walls
    /// are read off the blocked intervals of the slabs directly ([`walls_of_slabs`]);
    /// else, or when `force_normalize` is set, the box and its blocked rectangles are
    /// normalized as a small environment.
    pub(super) fn local_walls(
        &self,
        bx: &Box2,
        local: &[Input],
        keep: impl Fn(&Input) -> bool,
        extra: &[Input],
        force_normalize: bool,
    ) -> Result<HashSet<WallKey>, NormalizeError> {
        let Box2 { x0, y0, x1, y1 } = *bx;
        // Slabs between the y's of the vertices strictly inside the box.
        let mut ys: Vec<i64> = vec![y0, y1];
        for i in local.iter().filter(|i| i.kind == Kind::Ring) {
            for p in [i.a, i.b] {
                let y = p.y as i64;
                if y > y0 && y < y1 {
                    ys.push(y);
                }
            }
        }
        ys.sort_unstable();
        ys.dedup();
        // Vertical ring edges inside the box: (x, y low, y high, winding step moving left).
        let mut verticals: Vec<(i64, i64, i64, i32)> = Vec::new();
        // Horizontal ring edges across the right side: (y, winding step moving up).
        let mut crossings: Vec<(i64, i32)> = Vec::new();
        for i in local.iter().filter(|i| i.kind == Kind::Ring) {
            let (a, b) = (i.a, i.b);
            if a.x == b.x {
                let x = a.x as i64;
                if x > x0 && x < x1 {
                    let up = b.y > a.y;
                    verticals.push((
                        x,
                        a.y.min(b.y) as i64,
                        a.y.max(b.y) as i64,
                        if up { 1 } else { -1 },
                    ));
                }
            } else if a.y == b.y {
                let y = a.y as i64;
                let (lo, hi) = (a.x.min(b.x) as i64, a.x.max(b.x) as i64);
                if y > y0 && y < y1 && lo < x1 && hi > x1 {
                    crossings.push((y, if b.x > a.x { 1 } else { -1 }));
                }
            }
        }
        verticals.sort_unstable_by_key(|v| std::cmp::Reverse(v.0));
        // Winding number on the right side of the first slab, by an exact ray cast.
        let py2 = ys[0] + ys[1];
        let mut right = self.winding_right_of(2 * x1, py2, &keep, extra);
        // The blocked intervals of every slab, ascending and maximal.
        let mut slabs: Vec<Vec<(i64, i64)>> = Vec::with_capacity(ys.len() - 1);
        for k in 0..ys.len() - 1 {
            let (ya, yb) = (ys[k], ys[k + 1]);
            if k > 0 {
                right += crossings
                    .iter()
                    .filter(|(y, _)| *y == ya)
                    .map(|(_, s)| *s)
                    .sum::<i32>();
            }
            let mut blocked: Vec<(i64, i64)> = Vec::new();
            let mut w = right;
            let mut x = x1;
            let mut idx = 0;
            let spanning: Vec<&(i64, i64, i64, i32)> = verticals
                .iter()
                .filter(|v| v.1 <= ya && v.2 >= yb)
                .collect();
            while idx <= spanning.len() {
                let next = spanning.get(idx).map(|v| v.0).unwrap_or(x0);
                if next < x && w <= 0 {
                    match blocked.last_mut() {
                        Some(last) if last.0 == x => last.0 = next,
                        _ => blocked.push((next, x)),
                    }
                }
                x = next;
                if idx == spanning.len() {
                    break;
                }
                while idx < spanning.len() && spanning[idx].0 == x {
                    w += spanning[idx].3;
                    idx += 1;
                }
            }
            blocked.reverse();
            slabs.push(blocked);
        }
        if !force_normalize && local.iter().all(|i| i.kind == Kind::Ring) {
            return Ok(walls_of_slabs(bx, &ys, &slabs));
        }
        // Blocked rectangles: intervals blocked in the same way in consecutive slabs are
        // one rectangle.
        let mut rects: Vec<(i64, i64, i64, i64)> = Vec::new();
        // Open blocked rectangles: (x low, x high) -> y start.
        let mut open: Vec<(i64, i64, i64)> = Vec::new();
        for (k, blocked) in slabs.into_iter().enumerate() {
            let ya = ys[k];
            let mut next_open = Vec::with_capacity(blocked.len());
            for (lo, hi) in blocked {
                match open.iter().position(|o| o.0 == lo && o.1 == hi) {
                    Some(j) => next_open.push(open.swap_remove(j)),
                    None => next_open.push((lo, hi, ya)),
                }
            }
            for (lo, hi, start) in open.drain(..) {
                rects.push((lo, start, hi, ya));
            }
            open = next_open;
        }
        for (lo, hi, start) in open {
            rects.push((lo, start, hi, y1));
        }
        let grid = self.grid;
        let user = |x: i64, y: i64| grid.to_point(GridPoint::new(x as i32, y as i32));
        let mut sub = Environment::rectangle(user(x0, y0), user(x1, y1)).with_snap_grid(grid);
        for (xa, ya, xb, yb) in rects {
            sub.insert(Obstacle::rectangle(user(xa, ya), user(xb, yb)));
        }
        for i in local {
            match i.kind {
                Kind::Ring => {}
                Kind::Point => {
                    let p = (i.a.x as i64, i.a.y as i64);
                    if p.0 > x0 && p.0 < x1 && p.1 > y0 && p.1 < y1 {
                        sub.insert(Obstacle::Point(user(p.0, p.1)));
                    }
                }
                Kind::Open => {
                    // Axis-parallel: clipping keeps the grid.
                    let clamp =
                        |p: GridPoint| ((p.x as i64).clamp(x0, x1), (p.y as i64).clamp(y0, y1));
                    let (a, b) = (clamp(i.a), clamp(i.b));
                    if a != b {
                        sub.insert(Obstacle::Polyline(vec![user(a.0, a.1), user(b.0, b.1)]));
                    }
                }
            }
        }
        let walls = normalize(&sub)?;
        Ok(WallKey::all(&walls)
            .filter(|k| !bx.along_side(*k))
            .collect())
    }

    /// The winding number (boundary +1 inside, obstacles −1 inside) at the point with
    /// doubled coordinates `(px2, py2)`, which lies on no input edge.
    fn winding_right_of(
        &self,
        px2: i64,
        py2: i64,
        keep: &impl Fn(&Input) -> bool,
        extra: &[Input],
    ) -> i32 {
        let (ylo, yhi) = (py2.div_euclid(2), (py2 + 1).div_euclid(2));
        let envelope = AABB::from_corners([px2.div_euclid(2), ylo], [i64::MAX / 4, yhi]);
        let step = |i: &Input| -> i32 {
            if i.kind != Kind::Ring {
                return 0;
            }
            let (ax, ay) = (2 * i.a.x as i128, 2 * i.a.y as i128);
            let (bx, by) = (2 * i.b.x as i128, 2 * i.b.y as i128);
            let (px, py) = (px2 as i128, py2 as i128);
            let side = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
            if ay <= py {
                if by > py && side > 0 {
                    return 1;
                }
            } else if by <= py && side < 0 {
                return -1;
            }
            0
        };
        let tree: i32 = self
            .inputs_meeting(envelope)
            .filter(|i| keep(i))
            .map(|i| step(&i))
            .sum();
        tree + extra.iter().map(step).sum::<i32>()
    }
}

/// The walls inside the window box, without those on its sides, when its inputs are ring
/// edges only: the edges of the free part of the box (the box less the blocked intervals
/// of its slabs), directed with the free space on their left, each a maximal straight
/// run. This is what normalizing the box and its blocked rectangles gives: with
/// axis-parallel edges on the grid nothing is rounded, and a vertex where a run goes
/// straight on in the same direction has exactly two walls (a third, horizontal, wall
/// there would need the free space to change across the vertical line on one side,
/// which a straight run with the free space on one side excludes), so normalization
/// merges the run through it; where two collinear walls of opposite directions meet (a
/// pinch) they stay apart. `ys` are the slabs' bounds, `slabs` the blocked intervals of
/// each, ascending and maximal.
fn walls_of_slabs(bx: &Box2, ys: &[i64], slabs: &[Vec<(i64, i64)>]) -> HashSet<WallKey> {
    let Box2 { x0, x1, .. } = *bx;
    let key = |a: (i64, i64), b: (i64, i64)| WallKey::Segment {
        a: GridPoint::new(a.0 as i32, a.1 as i32),
        b: GridPoint::new(b.0 as i32, b.1 as i32),
        two_sided: false,
    };
    let mut walls: HashSet<WallKey> = HashSet::default();
    // Vertical runs: (x, upwards, y low, y high), merged over consecutive slabs. The left
    // end of a blocked interval has the free space on its west (upwards), the right end
    // on its east (downwards).
    let mut pieces: Vec<(i64, bool, i64, i64)> = Vec::new();
    for (k, blocked) in slabs.iter().enumerate() {
        let (ya, yb) = (ys[k], ys[k + 1]);
        for &(lo, hi) in blocked {
            if lo > x0 {
                pieces.push((lo, true, ya, yb));
            }
            if hi < x1 {
                pieces.push((hi, false, ya, yb));
            }
        }
    }
    pieces.sort_unstable();
    let mut i = 0;
    while i < pieces.len() {
        let (x, up, lo, mut hi) = pieces[i];
        let mut j = i + 1;
        while j < pieces.len() && pieces[j].0 == x && pieces[j].1 == up && pieces[j].2 == hi {
            hi = pieces[j].3;
            j += 1;
        }
        walls.insert(if up {
            key((x, lo), (x, hi))
        } else {
            key((x, hi), (x, lo))
        });
        i = j;
    }
    // Horizontal runs on the slab bounds strictly inside the box: where the slab below
    // and the slab above differ. Free above (blocked below): eastwards; free below:
    // westwards.
    let inside = |list: &[(i64, i64)], a: i64, b: i64| list.iter().any(|&(l, h)| l <= a && b <= h);
    for k in 1..slabs.len() {
        let y = ys[k];
        let (below, above) = (&slabs[k - 1], &slabs[k]);
        let mut xs: Vec<i64> = below
            .iter()
            .chain(above)
            .flat_map(|&(l, h)| [l, h])
            .collect();
        xs.sort_unstable();
        xs.dedup();
        // The current run: (start, eastwards).
        let mut run: Option<(i64, bool)> = None;
        let mut flush = |run: &mut Option<(i64, bool)>, end: i64| {
            if let Some((start, east)) = run.take() {
                walls.insert(if east {
                    key((start, y), (end, y))
                } else {
                    key((end, y), (start, y))
                });
            }
        };
        for w in xs.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (bl, ab) = (inside(below, a, b), inside(above, a, b));
            let kind = (bl != ab).then_some(bl);
            match (run, kind) {
                (Some((_, east)), Some(k)) if east == k => {}
                (_, kind) => {
                    flush(&mut run, a);
                    run = kind.map(|k| (a, k));
                }
            }
        }
        if let Some(&last) = xs.last() {
            flush(&mut run, last);
        }
    }
    walls
}

/// The box of the window method (grid coordinates).
#[derive(Clone, Copy, Debug)]
pub(super) struct Box2 {
    pub(super) x0: i64,
    pub(super) y0: i64,
    pub(super) x1: i64,
    pub(super) y1: i64,
}

impl Box2 {
    pub(super) fn contains(&self, p: GridPoint) -> bool {
        let (x, y) = (p.x as i64, p.y as i64);
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }

    fn on_border(&self, p: GridPoint) -> bool {
        let (x, y) = (p.x as i64, p.y as i64);
        self.contains(p) && (x == self.x0 || x == self.x1 || y == self.y0 || y == self.y1)
    }

    /// Whether a wall lies along a side of the box.
    fn along_side(&self, k: WallKey) -> bool {
        let (a, b) = k.ends();
        let (ax, ay, bx, by) = (a.x as i64, a.y as i64, b.x as i64, b.y as i64);
        (ax == bx && (ax == self.x0 || ax == self.x1))
            || (ay == by && (ay == self.y0 || ay == self.y1))
    }

    /// The part of an axis-parallel wall inside the box (same direction), `None` when it
    /// has no part of positive length there (or, for a point, is not strictly inside).
    pub(super) fn clip(&self, k: WallKey) -> Result<Option<WallKey>, Skip> {
        match k {
            WallKey::Point(p) => {
                let (x, y) = (p.x as i64, p.y as i64);
                Ok((x > self.x0 && x < self.x1 && y > self.y0 && y < self.y1).then_some(k))
            }
            WallKey::Segment { a, b, two_sided } => {
                let c = |p: GridPoint| {
                    GridPoint::new(
                        (p.x as i64).clamp(self.x0, self.x1) as i32,
                        (p.y as i64).clamp(self.y0, self.y1) as i32,
                    )
                };
                if a.x == b.x {
                    let x = a.x as i64;
                    if x <= self.x0 || x >= self.x1 {
                        return Ok(None);
                    }
                } else if a.y == b.y {
                    let y = a.y as i64;
                    if y <= self.y0 || y >= self.y1 {
                        return Ok(None);
                    }
                } else {
                    return Err("a slanted wall in the window".into());
                }
                let (ca, cb) = (c(a), c(b));
                Ok((ca != cb).then_some(WallKey::Segment {
                    a: ca,
                    b: cb,
                    two_sided,
                }))
            }
        }
    }
}
