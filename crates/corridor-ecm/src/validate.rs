//! Is this ECM right? The always-on checks that stand between the Voronoi library and the
//! user, and the input checks on the walls.
//!
//! Tolerances are in grid steps: a point counts as equidistant, and a wall as "not
//! closer", within [`tolerance`] of the walls' extent (a thousandth of a grid step plus
//! 10⁻¹⁰ of the largest coordinate, which covers `f64` rounding of coordinates up to 2²⁹).

use crate::error::{BuildError, FailureKind, ValidationFailure, WallProblem};
use crate::graph::{signed_area, Ecm};
use corridor_geom::{
    orient_grid, segments_intersect_grid, GridPoint, Orientation, Point, SnapGrid, WallSource,
    Walls,
};
use rstar::{RTree, RTreeObject, AABB};

/// Which wall an index entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WallRef {
    /// `walls.segments[i]`.
    Segment(u32),
    /// `walls.points[i]`.
    Point(u32),
}

/// One wall in the R-tree, in grid coordinates.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WallEntry {
    a: [f64; 2],
    b: [f64; 2],
    wall: WallRef,
}

impl RTreeObject for WallEntry {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        AABB::from_corners(self.a, self.b)
    }
}

impl rstar::PointDistance for WallEntry {
    fn distance_2(&self, p: &[f64; 2]) -> f64 {
        let q = nearest_on_segment(Point::from(self.a), Point::from(self.b), Point::from(*p));
        q.distance_squared(Point::from(*p))
    }
}

/// The nearest point of segment `a b` to `q` (a point if `a == b`).
pub(crate) fn nearest_on_segment(a: Point, b: Point, q: Point) -> Point {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return a;
    }
    let t = ((q - a).dot(d) / len2).clamp(0.0, 1.0);
    if t == 0.0 {
        a
    } else if t == 1.0 {
        b
    } else {
        a + d * t
    }
}

/// An R-tree over the walls in grid coordinates.
pub(crate) struct WallIndex {
    tree: RTree<WallEntry>,
}

fn gp(p: GridPoint) -> [f64; 2] {
    [p.x as f64, p.y as f64]
}

impl WallIndex {
    /// Indexes the walls.
    pub(crate) fn new(walls: &Walls) -> Self {
        let mut entries = Vec::with_capacity(walls.segments.len() + walls.points.len());
        for (i, s) in walls.segments.iter().enumerate() {
            entries.push(WallEntry {
                a: gp(s.a),
                b: gp(s.b),
                wall: WallRef::Segment(i as u32),
            });
        }
        for (i, (p, _)) in walls.points.iter().enumerate() {
            entries.push(WallEntry {
                a: gp(*p),
                b: gp(*p),
                wall: WallRef::Point(i as u32),
            });
        }
        WallIndex {
            tree: RTree::bulk_load(entries),
        }
    }

    /// The wall nearest to `q` (grid coordinates) and its distance.
    fn nearest(&self, q: Point) -> Option<(WallRef, f64)> {
        self.tree
            .nearest_neighbor_with_distance_2([q.x, q.y])
            .map(|(e, d2)| (e.wall, d2.sqrt()))
    }

    /// Replaces `out` with every wall whose bounding box meets `envelope`.
    fn walls_meeting(&self, envelope: AABB<[f64; 2]>, out: &mut Vec<WallEntry>) {
        out.clear();
        out.extend(self.tree.locate_in_envelope_intersecting(envelope).copied());
    }
}

/// A wall among `candidates` strictly closer than `radius` to `q`, if any. Any wall
/// closer than `radius` to `q` must be among the candidates (their query box must
/// contain the box of the disc of that radius around `q`).
fn closer_among(candidates: &[WallEntry], q: Point, radius: f64) -> Option<(WallRef, f64)> {
    candidates.iter().find_map(|e| {
        let d = rstar::PointDistance::distance_2(e, &[q.x, q.y]).sqrt();
        (d < radius).then_some((e.wall, d))
    })
}

/// Whether `x <= y`; false when either is NaN (so that checks written with it fail on
/// NaN).
pub(crate) fn at_most(x: f64, y: f64) -> bool {
    x <= y
}

/// The box of the disc of radius `r` around `q`, grown by `margin`.
fn disc_box(q: Point, r: f64, margin: f64) -> ([f64; 2], [f64; 2]) {
    let r = r + margin;
    ([q.x - r, q.y - r], [q.x + r, q.y + r])
}

fn sources_of(walls: &Walls, wall: WallRef) -> Vec<WallSource> {
    match wall {
        WallRef::Segment(i) => walls.segments[i as usize].sources.clone(),
        WallRef::Point(i) => walls.points[i as usize].1.clone(),
    }
}

/// The validation tolerance in grid steps for walls whose largest absolute coordinate is
/// `extent`.
pub fn tolerance(extent: f64) -> f64 {
    1e-3 + 1e-10 * extent
}

/// The largest absolute coordinate of the walls.
pub(crate) fn extent(walls: &Walls) -> f64 {
    let seg = walls
        .segments
        .iter()
        .flat_map(|s| [s.a, s.b])
        .chain(walls.points.iter().map(|(p, _)| *p))
        .map(|p| p.x.unsigned_abs().max(p.y.unsigned_abs()))
        .max()
        .unwrap_or(0);
    seg as f64
}

/// The free area enclosed by the one-sided walls (grid units², exact): by Green's theorem
/// the one-sided walls, free space on their left, are the positively oriented boundary of
/// the free space.
pub(crate) fn free_area_twice(walls: &Walls) -> i128 {
    walls
        .segments
        .iter()
        .filter(|s| !s.two_sided)
        .map(|s| s.a.x as i128 * s.b.y as i128 - s.b.x as i128 * s.a.y as i128)
        .sum()
}

/// Checks the [`Walls`] contract and returns the wall index for validation.
pub(crate) fn check_walls(walls: &Walls) -> Result<WallIndex, BuildError> {
    let max = SnapGrid::MAX_GRID_COORDINATE;
    let in_range = |p: GridPoint| p.x.abs() <= max && p.y.abs() <= max;
    let invalid = |sources: &[WallSource], problem| BuildError::InvalidWalls {
        sources: sources.to_vec(),
        problem,
    };
    for s in &walls.segments {
        for p in [s.a, s.b] {
            if !in_range(p) {
                return Err(invalid(&s.sources, WallProblem::OutOfRange { at: p }));
            }
        }
        if s.a == s.b {
            return Err(invalid(&s.sources, WallProblem::ZeroLength { at: s.a }));
        }
    }
    for (p, sources) in &walls.points {
        if !in_range(*p) {
            return Err(invalid(sources, WallProblem::OutOfRange { at: *p }));
        }
    }
    let index = WallIndex::new(walls);
    // Crossings and overlaps.
    for (i, s) in walls.segments.iter().enumerate() {
        let env = AABB::from_corners(gp(s.a), gp(s.b));
        for e in index.tree.locate_in_envelope_intersecting(env) {
            let WallRef::Segment(j) = e.wall else {
                continue;
            };
            let j = j as usize;
            if j <= i {
                continue;
            }
            let t = &walls.segments[j];
            if segments_conflict(s.a, s.b, t.a, t.b) {
                return Err(invalid(
                    &s.sources,
                    WallProblem::Crossing {
                        at: s.a,
                        other: t.sources.clone(),
                    },
                ));
            }
        }
    }
    // Points on walls or on each other.
    for (i, (p, sources)) in walls.points.iter().enumerate() {
        let env = AABB::from_point(gp(*p));
        for e in index.tree.locate_in_envelope_intersecting(env) {
            let on = match e.wall {
                WallRef::Point(j) => j as usize != i,
                WallRef::Segment(j) => {
                    let s = &walls.segments[j as usize];
                    orient_grid(s.a, s.b, *p) == Orientation::Collinear
                }
            };
            if on {
                return Err(invalid(sources, WallProblem::PointOnWall { at: *p }));
            }
        }
    }
    check_orientation(walls)?;
    Ok(index)
}

/// Whether two segments share a point other than one common end point.
fn segments_conflict(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
    let shared = [(a, b, c, d), (a, b, d, c), (b, a, c, d), (b, a, d, c)]
        .into_iter()
        .find(|(p, _, q, _)| p == q);
    match shared {
        Some((p, other1, _, other2)) => {
            if other1 == other2 {
                return true; // duplicate
            }
            // Sharing one end: they overlap iff they leave it in the same direction.
            orient_grid(p, other1, other2) == Orientation::Collinear
                && (other1.x as i64 - p.x as i64) * (other2.x as i64 - p.x as i64)
                    + (other1.y as i64 - p.y as i64) * (other2.y as i64 - p.y as i64)
                    > 0
        }
        None => segments_intersect_grid(a, b, c, d),
    }
}

/// At every grid point, the one-sided walls around it must alternate between leaving and
/// arriving, so that each wedge between them is consistently free or blocked.
fn check_orientation(walls: &Walls) -> Result<(), BuildError> {
    // (point, angle, leaving?, segment)
    let mut ends: Vec<(GridPoint, f64, bool, u32)> = Vec::new();
    for (i, s) in walls.segments.iter().enumerate() {
        if s.two_sided {
            continue;
        }
        let (dx, dy) = ((s.b.x - s.a.x) as f64, (s.b.y - s.a.y) as f64);
        ends.push((s.a, dy.atan2(dx), true, i as u32));
        ends.push((s.b, (-dy).atan2(-dx), false, i as u32));
    }
    ends.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)));
    for group in ends.chunk_by(|x, y| x.0 == y.0) {
        let n = group.len();
        let bad = n % 2 == 1 || (0..n).any(|k| group[k].2 == group[(k + 1) % n].2);
        if bad {
            let seg = &walls.segments[group[0].3 as usize];
            return Err(BuildError::InvalidWalls {
                sources: seg.sources.clone(),
                problem: WallProblem::Orientation { at: group[0].0 },
            });
        }
    }
    Ok(())
}

/// Runs every check on a finished ECM against the walls it was built from.
pub(crate) fn validate(
    ecm: &Ecm,
    walls: &Walls,
    index: &WallIndex,
) -> Result<(), ValidationFailure> {
    let scale = ecm.grid.scale();
    let tol = tolerance(extent(walls));
    let g = |p: Point| p * scale;
    let fail = |kind, at: Point, sources| ValidationFailure {
        kind,
        position: at,
        sources,
    };
    let nearest_sources = |p: Point| {
        index
            .nearest(g(p))
            .map(|(w, _)| sources_of(walls, w))
            .unwrap_or_default()
    };
    let mut cells = 0.0;
    let area_scale = scale * scale;
    // The closer-wall check gathers the walls near a run of consecutive bending points
    // with one R-tree query (their discs' boxes together, kept at most twice the largest
    // single box so the candidate list stays short) instead of one query per point.
    let mut candidates: Vec<WallEntry> = Vec::new();
    // A query box grown by a grid step, so that rounding cannot leave out a wall whose
    // distance is just under the radius.
    let margin = 1.0 + tol;
    for (_, edge) in ecm.edges() {
        let bps = &edge.bending_points;
        // The bending points before `covered_to`, from the one that started the current
        // run, have their discs inside the box of the current `candidates`.
        let mut covered_to = 0;
        for (k, bp) in bps.iter().enumerate() {
            let q = g(bp.position);
            let (dl, dr) = (q.distance(g(bp.left)), q.distance(g(bp.right)));
            // Written so that a NaN coordinate fails too.
            if !at_most((dl - dr).abs(), tol) {
                let mut sources = nearest_sources(bp.left);
                sources.extend(nearest_sources(bp.right));
                return Err(fail(
                    FailureKind::NotEquidistant {
                        left: dl,
                        right: dr,
                    },
                    bp.position,
                    sources,
                ));
            }
            let clearance = dl.min(dr);
            if clearance > tol {
                if k >= covered_to {
                    // Grow a run from `k` while the union box stays small.
                    let (mut lo, mut hi) = disc_box(q, clearance, margin);
                    let mut largest = (hi[0] - lo[0]) * (hi[1] - lo[1]);
                    covered_to = k + 1;
                    for b in &bps[k + 1..] {
                        let p = g(b.position);
                        let c = p.distance(g(b.left)).min(p.distance(g(b.right)));
                        let (l, h) = disc_box(p, c.max(0.0), margin);
                        let nlo = [lo[0].min(l[0]), lo[1].min(l[1])];
                        let nhi = [hi[0].max(h[0]), hi[1].max(h[1])];
                        let big = largest.max((h[0] - l[0]) * (h[1] - l[1]));
                        // NaN boxes end the run (and a NaN point fails equidistance).
                        if !at_most((nhi[0] - nlo[0]) * (nhi[1] - nlo[1]), 2.0 * big) {
                            break;
                        }
                        (lo, hi, largest) = (nlo, nhi, big);
                        covered_to += 1;
                    }
                    index.walls_meeting(AABB::from_corners(lo, hi), &mut candidates);
                }
                if let Some((wall, distance)) = closer_among(&candidates, q, clearance - tol) {
                    return Err(fail(
                        FailureKind::CloserWall {
                            clearance,
                            distance,
                        },
                        bp.position,
                        sources_of(walls, wall),
                    ));
                }
            }
        }
        for side in [crate::Side::Left, crate::Side::Right] {
            for w in bps.windows(2) {
                // The piece `a, b, b.left, a.left` (left) or `a, a.right, b.right, b`
                // (right) as in `cell_piece`, without allocating: repeated points add
                // exact zeros to the fan from the first point, so the area is the same.
                let (a, b) = (&w[0], &w[1]);
                let piece = match side {
                    crate::Side::Left => [a.position, b.position, b.left, a.left],
                    crate::Side::Right => [a.position, a.right, b.right, b.position],
                };
                let area = signed_area(&piece) * area_scale;
                // A piece may be flat; it must not be turned over by more than rounding.
                if area < 0.0 {
                    let size = piece
                        .iter()
                        .map(|p| g(*p).distance(g(piece[0])))
                        .fold(0.0, f64::max);
                    if area < -tol * size.max(1.0) {
                        return Err(fail(
                            FailureKind::InvertedCell { area },
                            piece[0],
                            nearest_sources(piece[0]),
                        ));
                    }
                }
                cells += area;
            }
        }
    }
    for (id, v) in ecm.vertices() {
        let d = v.degree();
        // Degree 2 only for the single vertex of a closed loop: one edge, both ends here.
        let lone_loop = d == 2
            && v.edges[0] == v.edges[1]
            && ecm
                .edge(v.edges[0])
                .is_some_and(|e| e.start == id && e.end == id);
        if d == 0 || (d == 2 && !lone_loop) {
            return Err(fail(
                FailureKind::Degree { degree: d },
                v.position,
                nearest_sources(v.position),
            ));
        }
    }
    let free = free_area_twice(walls) as f64 * 0.5;
    if !at_most((cells - free).abs(), 1e-9 * free.abs().max(1.0) + tol) {
        return Err(fail(
            FailureKind::AreaMismatch { cells, free },
            Point::ZERO,
            Vec::new(),
        ));
    }
    Ok(())
}
