//! The local repair of the ECM after a change of the walls.
//!
//! # Why it is exact
//! Let `C` be the walls (segments and points, as sets of grid points) that the change
//! removed or added. A medial-axis point `q` of clearance `r` is *stable* if every
//! element of `C` is farther than `r` from it. A stable point has the same nearest walls,
//! the same annotation and the same neighbourhood in the old and the new diagram (nothing
//! within its clearance disc changed), so the stable parts of both medial axes coincide,
//! ECM vertices included. An old ECM edge all of whose points are stable is therefore an
//! edge of the new ECM, unchanged; these are the *kept* edges. Every other old edge is
//! *influenced* and removed. The test is conservative (a chord of bending points `a b`
//! is influenced when `C` comes within `max(r_a, r_b) + deviation + ε` of it: along a
//! Voronoi arc the clearance is convex, and the arc is within the sampling deviation of
//! its chord), so it may remove a stable edge too, which is then found again below.
//!
//! The new ECM is the kept edges plus a set `Y` of new edges. `Y` is taken from the
//! ECM `L` of the new walls that meet a box `B` (plus a frame far outside, so that the
//! diagram is closed): a point of `L` whose clearance disc lies inside `B` has no other
//! wall in its disc than the ones `L` was built from, so it is a point of the new medial
//! axis with the same annotation, and a vertex of `L` whose disc lies inside `B` has the
//! same incident edges as in the new ECM. An edge of `L` all of whose chords have their
//! discs (bounded as above) strictly inside `B` is *certified*: it is an edge of the new
//! ECM. `Y` is every certified edge of `L` that is not a kept edge.
//!
//! `Y` is complete when (1) every vertex of `Y` that is not an old vertex has all of its
//! `L` edges in `Y`, (2) every old vertex where kept and influenced edges meet (an *end
//! vertex*, stable, so of the same degree in both maps) gets exactly as many `Y` edge
//! ends as it lost influenced ones, and (3) the cells of `Y` minus those of the removed
//! edges cover exactly the change of the free area (a whole missing component has an
//! area of at least half a grid step squared). A missing edge of the new ECM would break
//! (1) or (2) at one of its ends, or (3) if its whole component is missing. When a check
//! fails, `B` is doubled; after a few doublings the update falls back to a full rebuild.
//! The Voronoi diagram of `L` is validated on the certified edges with the predicates of
//! the full build (equidistance, no closer wall, no inverted cell), with the same exact
//! transforms for recovery.

use super::canonical::same_geometry;
use super::DynamicEcm;
use crate::build::finalize;
use crate::extract::{extract, voronoi};
use crate::graph::{signed_area, ComponentId, Ecm, Edge, EdgeId, Side, Vertex, VertexId};
use crate::validate::{extent, free_area_twice, nearest_on_segment, tolerance};
use corridor_geom::{GridPoint, Point, WallSegment, Walls};
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{Envelope, PointDistance, RTree, RTreeObject, AABB};
use slotmap::SecondaryMap;
use std::collections::{HashMap, HashSet};

/// A wall by its geometry (the sources do not matter to the ECM).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum WallKey {
    /// A segment from `a` to `b` (free space on its left when one-sided).
    Segment {
        a: GridPoint,
        b: GridPoint,
        two_sided: bool,
    },
    /// An isolated point.
    Point(GridPoint),
}

impl WallKey {
    fn ends(self) -> (GridPoint, GridPoint) {
        match self {
            WallKey::Segment { a, b, .. } => (a, b),
            WallKey::Point(p) => (p, p),
        }
    }

    fn item(self) -> WallItem {
        let (a, b) = self.ends();
        WallItem::new(
            Rectangle::from_corners([a.x as f64, a.y as f64], [b.x as f64, b.y as f64]),
            self,
        )
    }
}

fn wall_keys(walls: &Walls) -> impl Iterator<Item = WallKey> + '_ {
    walls
        .segments
        .iter()
        .map(|s| WallKey::Segment {
            a: s.a,
            b: s.b,
            two_sided: s.two_sided,
        })
        .chain(walls.points.iter().map(|(p, _)| WallKey::Point(*p)))
}

type WallItem = GeomWithData<Rectangle<[f64; 2]>, WallKey>;
type SweepItem = GeomWithData<Rectangle<[f64; 2]>, EdgeId>;

/// The walls removed and added by a change, and the new set of walls.
#[derive(Clone, Debug, Default)]
pub(crate) struct WallDiff {
    removed: Vec<WallKey>,
    added: Vec<WallKey>,
    keys: HashSet<WallKey>,
}

impl WallDiff {
    pub(crate) fn len(&self) -> usize {
        self.removed.len() + self.added.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What the local repair keeps next to the ECM: an R-tree over the walls (grid
/// coordinates), the set of walls, and an R-tree over the boxes that bound the clearance
/// discs of every edge (user coordinates).
#[derive(Clone, Debug)]
pub(crate) struct UpdateIndex {
    walls: RTree<WallItem>,
    keys: HashSet<WallKey>,
    sweep: RTree<SweepItem>,
}

/// The box that contains the clearance disc of every point of the arc between two
/// consecutive bending points (user units).
fn chord_box(a: &crate::BendingPoint, b: &crate::BendingPoint, deviation: f64) -> Aabb2 {
    let r = a.clearance.max(b.clearance) + deviation;
    Aabb2 {
        min: a.position.min(b.position) - Point::splat(r),
        max: a.position.max(b.position) + Point::splat(r),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Aabb2 {
    min: Point,
    max: Point,
}

impl Aabb2 {
    const EMPTY: Aabb2 = Aabb2 {
        min: Point::splat(f64::INFINITY),
        max: Point::splat(f64::NEG_INFINITY),
    };

    fn union(self, o: Aabb2) -> Aabb2 {
        Aabb2 {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    fn expanded(self, m: f64) -> Aabb2 {
        Aabb2 {
            min: self.min - Point::splat(m),
            max: self.max + Point::splat(m),
        }
    }

    fn strictly_inside(&self, outer: &Aabb2) -> bool {
        self.min.x > outer.min.x
            && self.min.y > outer.min.y
            && self.max.x < outer.max.x
            && self.max.y < outer.max.y
    }

    fn rect(&self) -> Rectangle<[f64; 2]> {
        Rectangle::from_corners([self.min.x, self.min.y], [self.max.x, self.max.y])
    }
}

fn sweep_item(id: EdgeId, edge: &Edge, deviation: f64) -> SweepItem {
    let b = edge
        .bending_points
        .windows(2)
        .map(|w| chord_box(&w[0], &w[1], deviation))
        .fold(Aabb2::EMPTY, Aabb2::union);
    SweepItem::new(b.rect(), id)
}

impl UpdateIndex {
    pub(crate) fn new(walls: &Walls, ecm: &Ecm, deviation: f64) -> Self {
        let keys: HashSet<WallKey> = wall_keys(walls).collect();
        let mut index = UpdateIndex {
            walls: RTree::bulk_load(keys.iter().map(|k| k.item()).collect()),
            keys,
            sweep: RTree::new(),
        };
        index.rebuild_sweep(ecm, deviation);
        index
    }

    pub(crate) fn rebuild_sweep(&mut self, ecm: &Ecm, deviation: f64) {
        self.sweep = RTree::bulk_load(
            ecm.edges()
                .map(|(id, e)| sweep_item(id, e, deviation))
                .collect(),
        );
    }

    /// The walls removed and added on the way to `walls`.
    pub(crate) fn diff(&self, walls: &Walls) -> WallDiff {
        let keys: HashSet<WallKey> = wall_keys(walls).collect();
        let mut removed: Vec<WallKey> = self.keys.difference(&keys).copied().collect();
        let mut added: Vec<WallKey> = keys.difference(&self.keys).copied().collect();
        removed.sort_unstable();
        added.sort_unstable();
        WallDiff {
            removed,
            added,
            keys,
        }
    }

    pub(crate) fn apply_diff(&mut self, diff: WallDiff) {
        for k in &diff.removed {
            self.walls.remove(&k.item());
        }
        for k in &diff.added {
            self.walls.insert(k.item());
        }
        self.keys = diff.keys;
    }
}

/// Why the local repair gave up (the update then rebuilds the whole ECM).
#[derive(Clone, Debug)]
pub(crate) struct Fallback {
    pub reason: String,
    pub widenings: usize,
}

/// A vertex of a new edge: an old end vertex, or one of the splice's new vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VertexRef {
    Old(VertexId),
    New(usize),
}

/// A new edge (its `start`/`end` ids are placeholders until it is applied).
#[derive(Clone, Debug)]
pub(crate) struct NewEdge {
    start: VertexRef,
    end: VertexRef,
    edge: Edge,
}

/// The local replacement computed by [`plan`].
#[derive(Clone, Debug)]
pub(crate) struct Splice {
    pub remove_edges: Vec<EdgeId>,
    pub remove_vertices: Vec<VertexId>,
    pub new_vertices: Vec<Vertex>,
    pub new_edges: Vec<NewEdge>,
    pub free_area: f64,
    pub widenings: usize,
}

/// Distance between segments `a b` and `c d` (either may be a point).
fn segment_distance(a: Point, b: Point, c: Point, d: Point) -> f64 {
    let cross = |o: Point, p: Point, q: Point| (p - o).perp_dot(q - o);
    let (d1, d2) = (cross(a, b, c), cross(a, b, d));
    let (d3, d4) = (cross(c, d, a), cross(c, d, b));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    let p = |q: Point, s: Point, t: Point| q.distance(nearest_on_segment(s, t, q));
    p(a, c, d).min(p(b, c, d)).min(p(c, a, b)).min(p(d, a, b))
}

/// A local wall in grid coordinates, for the validation of the local diagram.
#[derive(Clone, Copy, Debug)]
struct LocalWall {
    a: [f64; 2],
    b: [f64; 2],
}

impl RTreeObject for LocalWall {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        AABB::from_corners(self.a, self.b)
    }
}

impl PointDistance for LocalWall {
    fn distance_2(&self, p: &[f64; 2]) -> f64 {
        let q = Point::from(*p);
        q.distance_squared(nearest_on_segment(
            Point::from(self.a),
            Point::from(self.b),
            q,
        ))
    }
}

enum Step {
    Done(Splice),
    Widen(String),
    Fail(String),
}

struct Context<'a> {
    ecm: &'a Ecm,
    index: &'a UpdateIndex,
    new_walls: &'a Walls,
    old_walls: &'a Walls,
    diff: &'a WallDiff,
    removed: HashSet<WallKey>,
    influenced: HashSet<EdgeId>,
    /// End vertices with the number of influenced edge ends they lose.
    end_vertices: HashMap<VertexId, usize>,
    remove_vertices: Vec<VertexId>,
    options: &'a crate::BuildOptions,
    deviation: f64,
    /// Position tolerance for matching (user units).
    tol: f64,
    /// Validation tolerance (grid units).
    tol_grid: f64,
    total_walls: usize,
    max_local_fraction: f64,
}

/// Plans the local repair of `dynamic`'s ECM for the new walls.
pub(crate) fn plan(
    dynamic: &DynamicEcm,
    new_walls: &Walls,
    diff: &WallDiff,
) -> Result<Splice, Fallback> {
    let ecm = &dynamic.ecm;
    let grid = ecm.grid;
    let deviation = dynamic.options.build.max_arc_deviation;
    let tol_grid = tolerance(extent(new_walls).max(extent(&dynamic.walls)));
    let tol = tol_grid / grid.scale();
    let eps = 4.0 * tol;
    let changed: Vec<(Point, Point)> = diff
        .removed
        .iter()
        .chain(&diff.added)
        .map(|k| {
            let (a, b) = k.ends();
            (grid.to_point(a), grid.to_point(b))
        })
        .collect();

    // Influenced edges.
    let mut influenced: HashSet<EdgeId> = HashSet::new();
    let mut region = Aabb2::EMPTY;
    for &(a, b) in &changed {
        let env = AABB::from_corners([a.x, a.y], [b.x, b.y]);
        region = region.union(Aabb2 {
            min: a.min(b),
            max: a.max(b),
        });
        for item in dynamic.index.sweep.locate_in_envelope_intersecting(env) {
            let id = item.data;
            if influenced.contains(&id) {
                continue;
            }
            let Some(e) = ecm.edges.get(id) else { continue };
            let hit = e.bending_points.windows(2).any(|w| {
                segment_distance(a, b, w[0].position, w[1].position)
                    <= w[0].clearance.max(w[1].clearance) + deviation + eps
            });
            if hit {
                influenced.insert(id);
            }
        }
    }
    let mut end_vertices: HashMap<VertexId, usize> = HashMap::new();
    let mut remove_vertices = Vec::new();
    let mut seen: HashSet<VertexId> = HashSet::new();
    for &id in &influenced {
        let e = &ecm.edges[id];
        for w in e.bending_points.windows(2) {
            region = region.union(chord_box(&w[0], &w[1], deviation));
        }
        for v in [e.start, e.end] {
            if !seen.insert(v) {
                continue;
            }
            let vertex = &ecm.vertices[v];
            let lost = vertex
                .edges
                .iter()
                .filter(|x| influenced.contains(x))
                .count();
            if lost < vertex.edges.len() {
                end_vertices.insert(v, lost);
            } else {
                remove_vertices.push(v);
            }
        }
    }
    let margin = 2.0 * deviation + 4.0 / grid.scale();
    let mut region = region.expanded(margin);
    let ctx = Context {
        ecm,
        index: &dynamic.index,
        new_walls,
        old_walls: &dynamic.walls,
        diff,
        removed: diff.removed.iter().copied().collect(),
        influenced,
        end_vertices,
        remove_vertices,
        options: &dynamic.options.build,
        deviation,
        tol,
        tol_grid,
        total_walls: new_walls.segments.len() + new_walls.points.len(),
        max_local_fraction: dynamic.options.max_local_fraction,
    };
    let mut last = String::new();
    for widenings in 0..=dynamic.options.max_widenings {
        match attempt(&ctx, region) {
            Step::Done(mut splice) => {
                splice.widenings = widenings;
                return Ok(splice);
            }
            Step::Fail(reason) => return Err(Fallback { reason, widenings }),
            Step::Widen(reason) => {
                last = reason;
                let size = region.max - region.min;
                region = region.expanded(0.5 * size.x.max(size.y));
            }
        }
    }
    Err(Fallback {
        reason: format!("still unproven after widening: {last}"),
        widenings: dynamic.options.max_widenings,
    })
}

fn attempt(ctx: &Context<'_>, region: Aabb2) -> Step {
    let grid = ctx.ecm.grid;
    let scale = grid.scale();
    let lo = [
        (region.min.x * scale).floor(),
        (region.min.y * scale).floor(),
    ];
    let hi = [(region.max.x * scale).ceil(), (region.max.y * scale).ceil()];
    let env = AABB::from_corners(lo, hi);
    let mut keys: Vec<WallKey> = ctx
        .index
        .walls
        .locate_in_envelope_intersecting(env)
        .map(|item| item.data)
        .filter(|k| !ctx.removed.contains(k))
        .collect();
    keys.extend(
        ctx.diff
            .added
            .iter()
            .filter(|k| env.intersects(&k.item().envelope())),
    );
    if keys.len() as f64 > ctx.max_local_fraction * ctx.total_walls as f64 && ctx.total_walls > 64 {
        return Step::Fail("the region covers most of the walls".into());
    }
    // Local walls, and a frame around them and the region.
    let mut local = Walls {
        grid,
        ..Walls::default()
    };
    let (mut fmin, mut fmax) = ([lo[0] as i64, lo[1] as i64], [hi[0] as i64, hi[1] as i64]);
    for k in &keys {
        let (a, b) = k.ends();
        for p in [a, b] {
            fmin = [fmin[0].min(p.x as i64), fmin[1].min(p.y as i64)];
            fmax = [fmax[0].max(p.x as i64), fmax[1].max(p.y as i64)];
        }
        match *k {
            WallKey::Segment { a, b, two_sided } => local.segments.push(WallSegment {
                a,
                b,
                two_sided,
                sources: Vec::new(),
            }),
            WallKey::Point(p) => local.points.push((p, Vec::new())),
        }
    }
    let pad = 16.max((fmax[0] - fmin[0]).max(fmax[1] - fmin[1]) / 16);
    let limit = i32::MAX as i64 - 64;
    let (x0, y0) = ((fmin[0] - pad).max(-limit), (fmin[1] - pad).max(-limit));
    let (x1, y1) = ((fmax[0] + pad).min(limit), (fmax[1] + pad).min(limit));
    let corners = [
        GridPoint::new(x0 as i32, y0 as i32),
        GridPoint::new(x1 as i32, y0 as i32),
        GridPoint::new(x1 as i32, y1 as i32),
        GridPoint::new(x0 as i32, y1 as i32),
    ];
    for i in 0..4 {
        local.segments.push(WallSegment {
            a: corners[i],
            b: corners[(i + 1) % 4],
            two_sided: false,
            sources: Vec::new(),
        });
    }
    let wall_tree: RTree<LocalWall> = RTree::bulk_load(
        keys.iter()
            .map(|k| {
                let (a, b) = k.ends();
                LocalWall {
                    a: [a.x as f64, a.y as f64],
                    b: [b.x as f64, b.y as f64],
                }
            })
            .collect(),
    );
    let deviation_grid = grid.to_grid_length(ctx.deviation);
    // The certified zone: discs strictly inside the region (which lies inside the grid
    // box whose walls were all taken).
    let zone = region;
    for &transform in &ctx.options.recovery {
        let Some(transformed) = transform.apply_walls(&local) else {
            continue;
        };
        let Ok(diagram) = voronoi(&transformed) else {
            continue;
        };
        let Ok(raw) = extract(&transformed, &diagram, deviation_grid) else {
            continue;
        };
        let l = finalize(&raw, transform, &local);
        let certified: SecondaryMap<EdgeId, bool> = l
            .edges()
            .map(|(id, e)| {
                let ok = e
                    .bending_points
                    .windows(2)
                    .all(|w| chord_box(&w[0], &w[1], ctx.deviation).strictly_inside(&zone));
                (id, ok)
            })
            .collect();
        if !valid(&l, &certified, &wall_tree, ctx.tol_grid) {
            continue;
        }
        return select(ctx, &l, &certified);
    }
    Step::Fail("no local diagram passed validation".into())
}

/// The validation of the full build, on the certified edges of a local ECM.
fn valid(
    l: &Ecm,
    certified: &SecondaryMap<EdgeId, bool>,
    walls: &RTree<LocalWall>,
    tol: f64,
) -> bool {
    let scale = l.grid.scale();
    for (id, edge) in l.edges() {
        if !certified[id] {
            continue;
        }
        for bp in &edge.bending_points {
            let q = bp.position * scale;
            let (dl, dr) = (q.distance(bp.left * scale), q.distance(bp.right * scale));
            if (dl - dr).abs() > tol {
                return false;
            }
            let clearance = dl.min(dr);
            if clearance > tol {
                let limit = clearance - tol;
                let closer = walls
                    .locate_within_distance([q.x, q.y], limit * limit)
                    .any(|w| w.distance_2(&[q.x, q.y]).sqrt() < limit);
                if closer {
                    return false;
                }
            }
        }
        for side in [Side::Left, Side::Right] {
            for piece in edge.cell_pieces(side) {
                let area = signed_area(&piece) * scale * scale;
                let size = piece
                    .iter()
                    .map(|p| (*p - piece[0]).length() * scale)
                    .fold(0.0, f64::max);
                if area < -tol * size.max(1.0) {
                    return false;
                }
            }
        }
    }
    true
}

fn edge_area(e: &Edge) -> f64 {
    [Side::Left, Side::Right]
        .into_iter()
        .flat_map(|side| e.cell_pieces(side).map(|p| signed_area(&p)))
        .sum()
}

/// Picks the new edges from the local ECM and checks that they complete the kept ones.
fn select(ctx: &Context<'_>, l: &Ecm, certified: &SecondaryMap<EdgeId, bool>) -> Step {
    let ecm = ctx.ecm;
    let tol = 8.0 * ctx.tol;
    // Is this certified local edge a kept old edge?
    let kept = |e: &Edge| {
        let p = e.bending_points[0].position;
        let env = AABB::from_corners([p.x - tol, p.y - tol], [p.x + tol, p.y + tol]);
        ctx.index
            .sweep
            .locate_in_envelope_intersecting(env)
            .any(|item| {
                !ctx.influenced.contains(&item.data)
                    && ecm
                        .edges
                        .get(item.data)
                        .is_some_and(|o| same_geometry(o, e, tol))
            })
    };
    let mut taken: Vec<EdgeId> = Vec::new();
    let mut is_taken: SecondaryMap<EdgeId, ()> = SecondaryMap::new();
    for (id, e) in l.edges() {
        if certified[id] && !kept(e) {
            taken.push(id);
            is_taken.insert(id, ());
        }
    }
    // End vertices by position.
    let cell = 4.0 * tol;
    let bucket = |p: Point| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let mut buckets: HashMap<(i64, i64), Vec<VertexId>> = HashMap::new();
    for &v in ctx.end_vertices.keys() {
        buckets
            .entry(bucket(ecm.vertices[v].position))
            .or_default()
            .push(v);
    }
    let near_end =
        |p: Point| -> Vec<VertexId> {
            let (bx, by) = bucket(p);
            let mut out = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(vs) = buckets.get(&(bx + dx, by + dy)) {
                        out.extend(vs.iter().copied().filter(|v| {
                            (ecm.vertices[*v].position - p).abs().max_element() <= tol
                        }));
                    }
                }
            }
            out
        };
    let mut map: SecondaryMap<VertexId, VertexRef> = SecondaryMap::new();
    let mut used_old: HashMap<VertexId, VertexId> = HashMap::new();
    let mut new_vertices: Vec<Vertex> = Vec::new();
    let mut gained: HashMap<VertexId, usize> = HashMap::new();
    for &id in &taken {
        let e = &l.edges[id];
        for lv in [e.start, e.end] {
            if !map.contains_key(lv) {
                let v = &l.vertices[lv];
                let candidates = if v.degree() >= 2 {
                    near_end(v.position)
                } else {
                    Vec::new()
                };
                let r = match candidates.as_slice() {
                    [] => {
                        // A new vertex: all its local edges must be new.
                        for le in &v.edges {
                            if !is_taken.contains_key(*le) {
                                return if certified[*le] {
                                    Step::Fail(format!(
                                        "a new vertex at {:?} has a kept edge",
                                        v.position
                                    ))
                                } else {
                                    Step::Widen(format!(
                                        "an edge of the new vertex at {:?} leaves the region",
                                        v.position
                                    ))
                                };
                            }
                        }
                        let mut nv = v.clone();
                        nv.edges.clear();
                        new_vertices.push(nv);
                        VertexRef::New(new_vertices.len() - 1)
                    }
                    [old] => {
                        if used_old.insert(*old, lv).is_some() {
                            return Step::Fail("two local vertices match one end vertex".into());
                        }
                        VertexRef::Old(*old)
                    }
                    _ => return Step::Fail("ambiguous end vertices".into()),
                };
                map.insert(lv, r);
            }
            if let VertexRef::Old(old) = map[lv] {
                *gained.entry(old).or_default() += 1;
            }
        }
    }
    for (v, lost) in &ctx.end_vertices {
        let got = gained.get(v).copied().unwrap_or(0);
        if got != *lost {
            return Step::Widen(format!(
                "the end vertex at {:?} lost {lost} edges and regained {got}",
                ecm.vertices[*v].position
            ));
        }
    }
    // Areas.
    let scale = ecm.grid.scale();
    let added: f64 = taken.iter().map(|id| edge_area(&l.edges[*id])).sum();
    let removed: f64 = ctx
        .influenced
        .iter()
        .map(|id| edge_area(&ecm.edges[*id]))
        .sum();
    let new_twice = free_area_twice(ctx.new_walls);
    let old_twice = free_area_twice(ctx.old_walls);
    let change = (new_twice - old_twice) as f64 * 0.5;
    let area_scale = scale * scale;
    let mismatch = ((added - removed) * area_scale - change).abs();
    let allowed = 1e-9 * (added.abs() + removed.abs()) * area_scale + 0.05 + ctx.tol_grid;
    if mismatch > allowed {
        return Step::Widen(format!(
            "the new cells cover {} grid units² but the free area changed by {change}",
            (added - removed) * area_scale
        ));
    }
    let grid = ecm.grid;
    let free_area = grid.to_user_length(grid.to_user_length(1.0)) * new_twice as f64 * 0.5;
    let new_edges = taken
        .iter()
        .map(|id| {
            let e = &l.edges[*id];
            NewEdge {
                start: map[e.start],
                end: map[e.end],
                edge: e.clone(),
            }
        })
        .collect();
    Step::Done(Splice {
        remove_edges: ctx.influenced.iter().copied().collect(),
        remove_vertices: ctx.remove_vertices.clone(),
        new_vertices,
        new_edges,
        free_area,
        widenings: 0,
    })
}

/// Splices a planned repair into the ECM and keeps the indexes current.
pub(crate) fn apply(ecm: &mut Ecm, index: &mut UpdateIndex, splice: Splice, deviation: f64) {
    let mut touched: Vec<VertexId> = Vec::new();
    for id in splice.remove_edges {
        let Some(edge) = ecm.edges.remove(id) else {
            continue;
        };
        ecm.cells.remove_edge(id, &edge);
        index.sweep.remove(&sweep_item(id, &edge, deviation));
        for v in [edge.start, edge.end] {
            if let Some(vertex) = ecm.vertices.get_mut(v) {
                vertex.edges.retain(|e| *e != id);
                touched.push(v);
            }
        }
    }
    for v in splice.remove_vertices {
        ecm.vertices.remove(v);
    }
    let new_ids: Vec<VertexId> = splice
        .new_vertices
        .into_iter()
        .map(|v| ecm.vertices.insert(v))
        .collect();
    let resolve = |r: VertexRef| match r {
        VertexRef::Old(v) => v,
        VertexRef::New(i) => new_ids[i],
    };
    for ne in splice.new_edges {
        let (start, end) = (resolve(ne.start), resolve(ne.end));
        let mut edge = ne.edge;
        edge.start = start;
        edge.end = end;
        let id = ecm.edges.insert(edge);
        let edge = &ecm.edges[id];
        ecm.cells.insert_edge(id, edge);
        index.sweep.insert(sweep_item(id, edge, deviation));
        for v in [start, end] {
            ecm.vertices[v].edges.push(id);
            touched.push(v);
        }
    }
    touched.sort_unstable();
    touched.dedup();
    for v in touched {
        if ecm.vertices.contains_key(v) {
            sort_incident(ecm, v);
        }
    }
    recompute_components(ecm);
    ecm.free_area = splice.free_area;
    ecm.stats.vertices = ecm.vertex_count();
    ecm.stats.edges = ecm.edge_count();
    ecm.stats.bending_points = ecm.bending_point_count();
    ecm.stats.components = ecm.component_count();
}

/// Orders a vertex's incident edges counter-clockwise by leaving direction (as the build
/// does).
fn sort_incident(ecm: &mut Ecm, vid: VertexId) {
    let edges = &ecm.edges;
    let angle = |e: EdgeId| {
        let edge = &edges[e];
        let bps = &edge.bending_points;
        let (from, to) = if edge.start == vid {
            (
                bps[0].position,
                bps.iter()
                    .map(|b| b.position)
                    .find(|p| *p != bps[0].position),
            )
        } else {
            let l = bps[bps.len() - 1].position;
            (l, bps.iter().rev().map(|b| b.position).find(|p| *p != l))
        };
        to.map(|t| (t - from).y.atan2((t - from).x)).unwrap_or(0.0)
    };
    let mut list = std::mem::take(&mut ecm.vertices[vid].edges);
    list.sort_by(|a, b| angle(*a).total_cmp(&angle(*b)));
    ecm.vertices[vid].edges = list;
}

/// Numbers the connected components again (in vertex order).
fn recompute_components(ecm: &mut Ecm) {
    let mut component: SecondaryMap<VertexId, u32> = SecondaryMap::new();
    let mut count = 0u32;
    let mut stack = Vec::new();
    let ids: Vec<VertexId> = ecm.vertices.keys().collect();
    for v in ids {
        if component.contains_key(v) {
            continue;
        }
        component.insert(v, count);
        stack.push(v);
        while let Some(u) = stack.pop() {
            for e in &ecm.vertices[u].edges {
                let edge = &ecm.edges[*e];
                for w in [edge.start, edge.end] {
                    if !component.contains_key(w) {
                        component.insert(w, count);
                        stack.push(w);
                    }
                }
            }
        }
        count += 1;
    }
    for (v, vertex) in ecm.vertices.iter_mut() {
        vertex.component = ComponentId(component[v]);
    }
    for (_, edge) in ecm.edges.iter_mut() {
        edge.component = ComponentId(component[edge.start]);
    }
    ecm.component_count = count;
}
