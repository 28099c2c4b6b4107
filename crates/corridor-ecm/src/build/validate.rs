//! Is this ECM right? The always-on checks that stand between the Voronoi library and the
//! user, and the input checks on the walls.
//!
//! Tolerances are in grid steps: a point counts as equidistant, and a wall as "not
//! closer", within [`tolerance`] of the walls' extent (a thousandth of a grid step plus
//! 10⁻¹⁰ of the largest coordinate, which covers `f64` rounding of coordinates up to 2²⁹).

use super::error::{BuildError, FailureKind, ValidationFailure, WallProblem};
use super::extract::segment_ends;
use crate::graph::{signed_area, Ecm, Edge};
use crate::util::{at_most, slot};

use corridor_geom::{
    GridPoint, Point, PointGroups, SegmentGrid, SnapGrid, WallConflict, WallSource, Walls,
};

use super::wall_index::{closer_among, disc_box, sources_of, Candidates, WallIndex};
use rayon::prelude::*;
use std::sync::{Mutex, PoisonError};

/// The validation tolerance in grid steps for walls whose largest absolute coordinate is
/// `extent`.
pub(crate) fn tolerance(extent: f64) -> f64 {
    1e-3 + 1e-10 * extent
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

/// How far the caller has already checked the [`Walls`] contract.
#[derive(Debug)]
pub(crate) enum WallsChecked {
    /// Nothing is known: walls from a caller of [`crate::Ecm::from_walls`].
    No,
    /// [`Walls::check_disjoint_indexed`] passed on exactly these walls (as inside
    /// [`corridor_geom::normalize_indexed`]) and built this grid, so no segments cross,
    /// overlap or touch away from shared end points and no point lies on a wall or
    /// another point.
    Disjoint(SegmentGrid),
}

/// Checks the [`Walls`] contract and returns the wall index for validation and the
/// segment ends grouped by point (for extraction).
///
/// The disjointness part is [`Walls::check_disjoint`] (exact, through a bucket grid),
/// skipped when `checked` says it already passed: [`crate::Ecm::build`] gets its walls
/// from `normalize`, which has just run it, and repeating it was a fifth of the
/// validation time on the shared maps. Range, length and orientation are always checked.
pub(crate) fn check_walls(
    walls: &Walls,
    checked: WallsChecked,
) -> Result<(WallIndex, PointGroups), BuildError> {
    check_ranges(walls)?;
    let invalid = |sources: &[WallSource], problem| BuildError::InvalidWalls {
        sources: sources.to_vec(),
        problem,
    };
    let grid = match checked {
        WallsChecked::Disjoint(grid) => grid,
        WallsChecked::No => match walls.check_disjoint_indexed() {
            Ok(grid) => grid,
            Err(WallConflict::ZeroLength { segment }) => {
                let s = &walls.segments[segment];
                return Err(invalid(&s.sources, WallProblem::ZeroLength { at: s.a }));
            }
            Err(WallConflict::SegmentsMeet { first, second }) => {
                let (s, t) = (&walls.segments[first], &walls.segments[second]);
                return Err(invalid(
                    &s.sources,
                    WallProblem::Crossing {
                        at: s.a,
                        other: t.sources.to_vec(),
                    },
                ));
            }
            Err(
                WallConflict::PointOnSegment { point, .. }
                | WallConflict::PointsCoincide { second: point, .. },
            ) => {
                let (p, sources) = &walls.points[point];
                return Err(invalid(sources, WallProblem::PointOnWall { at: *p }));
            }
        },
    };
    let ends = segment_ends(walls);
    check_orientation(walls, &ends)?;
    Ok((WallIndex::new(walls, grid), ends))
}

/// The part of [`check_walls`] that must hold before the Voronoi library runs (which the
/// parallel build starts before the rest of the checks): some walls, every coordinate
/// in the snap range, no segment of zero length.
pub(crate) fn check_ranges(walls: &Walls) -> Result<(), BuildError> {
    if walls.segments.is_empty() && walls.points.is_empty() {
        // Nothing bounds anything: the obstacles covered the map (an unenclosed free
        // space has walls, which the Voronoi extraction finds open).
        return Err(BuildError::EmptyFreeSpace);
    }
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
    Ok(())
}

/// At every grid point, the one-sided walls around it must alternate between leaving and
/// arriving, so that each wedge between them is consistently free or blocked.
///
/// Most grid points are the ends of exactly two walls, where alternating just means one
/// leaves and one arrives; only the points with more ends are sorted by angle. When
/// several points are bad, the smallest (by `GridPoint` order) is reported.
fn check_orientation(walls: &Walls, ends: &PointGroups) -> Result<(), BuildError> {
    // (point, leaving?, segment) of the one-sided walls ending at one point.
    let mut group: Vec<(GridPoint, bool, u32)> = Vec::new();
    let mut around: Vec<(GridPoint, bool, u32)> = Vec::new();
    let angle = |&(p, leaving, i): &(GridPoint, bool, u32)| {
        let s = &walls.segments[i as usize];
        let other = if leaving { s.b } else { s.a };
        ((other.y - p.y) as f64).atan2((other.x - p.x) as f64)
    };
    let mut worst: Option<(GridPoint, u32)> = None;
    for g in 0..ends.len() {
        let p = ends.point(g);
        if worst.is_some_and(|(q, _)| q < p) {
            continue;
        }
        // Item `2i` is segment i's end `a`, where it leaves.
        let one_sided = |end: u32| {
            let i = end / 2;
            (!walls.segments[i as usize].two_sided).then_some((p, end.is_multiple_of(2), i))
        };
        // The one-sided ends are counted first (and the leaving ones among them): two of
        // them alternate when exactly one leaves, and the list is made only when more
        // than two must be sorted or a bad point must be named.
        let (mut n, mut leaving) = (0usize, 0usize);
        for &end in ends.group(g) {
            if let Some((_, leaves, _)) = one_sided(end) {
                n += 1;
                leaving += usize::from(leaves);
            }
        }
        let fill = |group: &mut Vec<(GridPoint, bool, u32)>| {
            group.clear();
            group.extend(ends.group(g).iter().filter_map(|&end| one_sided(end)));
        };
        let bad = match n {
            0 => false,
            2 => leaving != 1,
            _ if n % 2 == 1 => true,
            _ => {
                fill(&mut group);
                around.clear();
                around.extend_from_slice(&group);
                around.sort_by(|x, y| angle(x).total_cmp(&angle(y)));
                (0..n).any(|k| around[k].1 == around[(k + 1) % n].1)
            }
        };
        if bad {
            fill(&mut group);
            // Name the first wall counter-clockwise from the positive x axis.
            let first = group
                .iter()
                .min_by(|x, y| angle(x).total_cmp(&angle(y)).then(x.2.cmp(&y.2)))
                .map_or(0, |e| e.2);
            worst = Some((p, first));
        }
    }
    match worst {
        None => Ok(()),
        Some((at, first)) => Err(BuildError::InvalidWalls {
            sources: walls.segments[first as usize].sources.to_vec(),
            problem: WallProblem::Orientation { at },
        }),
    }
}

/// Edges per validation chunk: the chunks are checked side by side (rayon), each with a
/// fresh [`Candidates::forget_density`], and their cell areas are added in chunk order, so
/// that the verdict, the failure reported (the first in edge order) and the area total
/// are the same for any number of threads.
const EDGES_PER_CHUNK: usize = 1024;

/// Runs every check on a finished ECM against the walls it was built from; `free_twice` is
/// their [`free_area_twice`] (computed once by the caller). The per-edge checks run on
/// every thread of the current rayon pool. Never inlined, nor is [`check_edges`], so that
/// a profile can name their instructions (`--toggle-collect`); they run once a build and
/// once a chunk.
#[inline(never)]
pub(crate) fn validate(
    ecm: &Ecm,
    walls: &Walls,
    free_twice: i128,
    index: &WallIndex,
) -> Result<(), ValidationFailure> {
    let scale = ecm.grid.scale();
    let tol = tolerance(index.extent);
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
    let edges: Vec<&Edge> = ecm.edges().map(|(_, e)| e).collect();
    // One scratch per thread (what it holds never changes an answer, see `Scratch`).
    let scratch: Vec<Mutex<Scratch>> = (0..rayon::current_num_threads())
        .map(|_| Mutex::default())
        .collect();
    let areas: Vec<Result<f64, ValidationFailure>> = edges
        .par_chunks(EDGES_PER_CHUNK)
        .map(|chunk| {
            let slot = rayon::current_thread_index().unwrap_or(0) % scratch.len();
            let mut scratch = scratch[slot].lock().unwrap_or_else(PoisonError::into_inner);
            scratch.candidates.forget_density();
            check_edges(chunk, ecm, walls, index, &mut scratch)
        })
        .collect();
    let mut cells = 0.0;
    for area in areas {
        cells += area?;
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
    let free = free_twice as f64 * 0.5;
    if !at_most((cells - free).abs(), 1e-9 * free.abs().max(1.0) + tol) {
        return Err(fail(
            FailureKind::AreaMismatch { cells, free },
            Point::ZERO,
            Vec::new(),
        ));
    }
    Ok(())
}

/// One thread's scratch for [`check_edges`]: buffers, the last bucket query's walls, and
/// what the closer-wall check found around the vertices it met. None of it changes an
/// answer: the vertex entries only skip checks that would pass (see [`check_edges`]).
#[derive(Default)]
struct Scratch {
    candidates: Candidates,
    /// Each bending point of the edge in grid coordinates with its distances to its two
    /// nearest points, computed once per point.
    measured: Vec<(Point, f64, f64)>,
    /// By vertex slot: a point there (grid coordinates) and a radius within which the
    /// closer-wall check found no wall around it.
    at_vertex: Vec<(Point, f64)>,
}

/// The checks of each edge of `edges` (equidistance, no closer wall, cells not turned
/// over), in order: the first failure, or the edges' cell area (grid units², added in
/// order).
#[inline(never)]
fn check_edges(
    edges: &[&Edge],
    ecm: &Ecm,
    walls: &Walls,
    index: &WallIndex,
    scratch: &mut Scratch,
) -> Result<f64, ValidationFailure> {
    let scale = ecm.grid.scale();
    let extent = index.extent;
    let tol = tolerance(extent);
    let g = |p: Point| p * scale;
    let fail = |kind, at: Point, sources| ValidationFailure {
        kind,
        position: at,
        sources,
    };
    let nearest_sources = |index: &WallIndex, p: Point| {
        index
            .nearest(g(p))
            .map(|(w, _)| sources_of(walls, w))
            .unwrap_or_default()
    };
    let mut cells = 0.0;
    let area_scale = scale * scale;
    let smaller = |a: f64, b: f64| if a < b { a } else { b };
    let larger = |a: f64, b: f64| if a > b { a } else { b };
    // The closer-wall check gathers the walls near a run of consecutive bending points
    // with one bucket-grid query (their discs' boxes together, kept at most twice the
    // largest single box so the candidate list stays short) instead of one per point.
    let Scratch {
        candidates,
        measured,
        at_vertex,
    } = scratch;
    // A query box grown by a grid step, so that rounding cannot leave out a wall whose
    // distance is just under the radius.
    let margin = 1.0 + tol;
    let same_point =
        |p: Point, q: Point| p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits();
    for edge in edges {
        let bps = &edge.bending_points;
        measured.clear();
        measured.extend(bps.iter().map(|b| {
            let q = g(b.position);
            (q, q.distance(g(b.left)), q.distance(g(b.right)))
        }));
        // The bending points before `covered_to`, from the one that started the current
        // run, have their discs inside the box of the current `candidates`.
        let mut covered_to = 0;
        for (k, (bp, &(q, dl, dr))) in bps.iter().zip(measured.iter()).enumerate() {
            // Written so that a NaN coordinate fails too.
            if !at_most((dl - dr).abs(), tol) {
                let mut sources = nearest_sources(index, bp.left);
                sources.extend(nearest_sources(index, bp.right));
                return Err(fail(
                    FailureKind::NotEquidistant {
                        left: dl,
                        right: dr,
                    },
                    bp.position,
                    sources,
                ));
            }
            // Neither is NaN here: the minimum by one comparison.
            let clearance = smaller(dl, dr);
            if clearance > tol {
                // An end of the edge is at a vertex, which the other edges there also
                // end at. If one of them has already passed this check at the same
                // point (bit for bit) with a radius at least this one, this point
                // passes too, with the same answer `closer_among` would give: that
                // check saw every wall that could be closer than its radius (its query
                // box held the disc's box) and found none whose computed distance was
                // below it, and the same point gives the same computed distances. The
                // vertex's slot (the low half of its key) only says where to look; the
                // point itself is compared. On the shared maps about 60 % of the edge
                // ends are skipped this way (den520d: 1,475 of 2,444).
                let end = if k == 0 {
                    Some(edge.start)
                } else if k + 1 == bps.len() {
                    Some(edge.end)
                } else {
                    None
                };
                let slot = end.map(slot);
                let radius = clearance - tol;
                if let Some(slot) = slot {
                    if let Some(&(p, r)) = at_vertex.get(slot) {
                        if same_point(p, q) && radius <= r {
                            continue;
                        }
                    }
                }
                let (disc_lo, disc_hi) = disc_box(q, clearance, margin);
                let large = index.is_large(candidates, disc_lo, disc_hi);
                if !large && k >= covered_to {
                    // Grow a run from `k` while the union box stays small.
                    let (mut lo, mut hi) = (disc_lo, disc_hi);
                    let mut largest = (hi[0] - lo[0]) * (hi[1] - lo[1]);
                    covered_to = k + 1;
                    for &(p, pl, pr) in &measured[k + 1..] {
                        // Minima and maxima by one comparison each (no NaN fix-ups). A
                        // NaN coordinate makes the union box NaN, which ends the run; a
                        // NaN distance may leave that point's own disc out of the box,
                        // which is harmless: the point fails equidistance before its
                        // closer-wall check, and the points after it are never reached.
                        // Without NaN these are the values of `f64::min` and `f64::max`
                        // (up to the sign of a zero, which nothing here can tell).
                        let c = smaller(pl, pr);
                        let (l, h) = disc_box(p, larger(c, 0.0), margin);
                        if index.is_large(candidates, l, h) {
                            break;
                        }
                        let nlo = [smaller(lo[0], l[0]), smaller(lo[1], l[1])];
                        let nhi = [larger(hi[0], h[0]), larger(hi[1], h[1])];
                        let big = larger((h[0] - l[0]) * (h[1] - l[1]), largest);
                        if !at_most((nhi[0] - nlo[0]) * (nhi[1] - nlo[1]), 2.0 * big) {
                            break;
                        }
                        (lo, hi, largest) = (nlo, nhi, big);
                        covered_to += 1;
                    }
                    // Walls whose boxes miss the run's box are dropped once for the
                    // run instead of once per bending point. No wall meeting a disc's
                    // box is dropped, so the answers are the same.
                    index.walls_meeting(lo, hi, candidates);
                }
                let closer = if large {
                    index.closer_by_tree(q, radius)
                } else {
                    closer_among(index, candidates, q, radius, extent)
                };
                if let Some((wall, distance)) = closer {
                    return Err(fail(
                        FailureKind::CloserWall {
                            clearance,
                            distance,
                        },
                        bp.position,
                        sources_of(walls, wall),
                    ));
                }
                if let Some(slot) = slot {
                    if slot >= at_vertex.len() {
                        at_vertex.resize(slot + 1, (Point::new(f64::NAN, f64::NAN), 0.0));
                    }
                    let kept = &mut at_vertex[slot];
                    if !same_point(kept.0, q) || radius > kept.1 {
                        *kept = (q, radius);
                    }
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
                            nearest_sources(index, piece[0]),
                        ));
                    }
                }
                cells += area;
            }
        }
    }
    Ok(cells)
}
