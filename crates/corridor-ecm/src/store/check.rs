//! Is a decoded ECM one that queries can trust? The structural check every load runs
//! (ids live, indices in range, counts consistent, numbers finite, the cell index exactly
//! covering the cells), and the geometric one behind [`super::LoadOptions::full_validation`]
//! (what a build's validation checks without its walls).

use super::error::{StoreError, StructureProblem};
use super::frame::LoadOptions;
use crate::build::tolerance;
use crate::graph::{cell_corners, signed_area, Ecm, Edge, EdgeId, Side};
use crate::util::{at_most, slot};
use corridor_geom::{Point, SnapGrid};

/// The decoded ECM once its structure (and, when asked, its geometry) checks out.
pub(super) fn checked(ecm: Ecm, options: &LoadOptions) -> Result<Ecm, StoreError> {
    structure(&ecm)?;
    if options.full_validation {
        geometry(&ecm)?;
    }
    Ok(ecm)
}

fn problem(what: impl Into<String>) -> StructureProblem {
    StructureProblem(what.into())
}

/// 0 for a finite `x`, NaN for an infinite or NaN one: a sum of these is 0 exactly when
/// every term is finite.
#[allow(clippy::eq_op)]
#[inline(always)]
fn zero_if_finite(x: f64) -> f64 {
    x - x
}

fn finite(p: Point) -> bool {
    p.x.is_finite() && p.y.is_finite()
}

/// [`checked`] for an ECM whose cell index was rebuilt from its edges on load (so it
/// covers them by construction) and whose bending points' numbers were checked as they
/// were decoded ([`edge_numbers`]): the links of the graph, and the geometry when asked.
pub(super) fn checked_links(ecm: Ecm, options: &LoadOptions) -> Result<Ecm, StoreError> {
    links(&ecm)?;
    if options.full_validation {
        geometry(&ecm)?;
    }
    Ok(ecm)
}

/// Everything the queries, the planner and the updates index by or rely on: after this,
/// no id or index read from the file is out of range.
pub(super) fn structure(ecm: &Ecm) -> Result<(), StructureProblem> {
    let pieces = links(ecm)?;
    for (id, e) in &ecm.edges {
        let derived = crate::BendingPoint::length_and_min_clearance(&e.bending_points);
        edge_numbers(id, e, derived)?;
    }
    cell_index(ecm, pieces)
}

/// An edge's numbers: every bending point's finite and its clearance not negative, and
/// the edge's length and smallest clearance those of its bending points (`derived`,
/// [`crate::BendingPoint::length_and_min_clearance`] of them, which a decoder that has
/// just computed it passes instead of a second pass over the points).
pub(super) fn edge_numbers(
    id: EdgeId,
    e: &Edge,
    (length, min_clearance): (f64, f64),
) -> Result<(), StructureProblem> {
    // One sum of `zero_if_finite` per edge, one comparison per clearance (measured:
    // `is_finite` on each number was a tenth of a load).
    let (mut zero, mut signs) = (0.0, true);
    for b in &e.bending_points {
        let (p, l, r, c) = (b.position, b.left, b.right, b.clearance);
        zero += zero_if_finite(p.x) + zero_if_finite(p.y) + zero_if_finite(l.x);
        zero += zero_if_finite(l.y) + zero_if_finite(r.x) + zero_if_finite(r.y);
        zero += zero_if_finite(c);
        signs &= c >= 0.0;
    }
    let numbers = zero == 0.0 && signs;
    if !numbers || !e.length.is_finite() || !e.min_clearance.is_finite() {
        return Err(problem(format!("edge {id:?}: a number is not finite")));
    }
    let near = |a: f64, b: f64| at_most((a - b).abs(), 1e-9 * a.abs().max(b.abs()).max(1.0));
    if !near(length, e.length) || !at_most(e.min_clearance, min_clearance) {
        return Err(problem(format!(
            "edge {id:?}: length or clearance inconsistent"
        )));
    }
    Ok(())
}

/// The graph's links: the grid and the free area, vertices finite and naming live edges
/// that end there, each edge listed once at each end, components consistent, each edge
/// running between its vertices. Returns the number of cell pieces. Besides these,
/// [`structure`] checks each edge's numbers ([`edge_numbers`]) and the cell index.
fn links(ecm: &Ecm) -> Result<usize, StructureProblem> {
    if SnapGrid::new(ecm.grid.scale()).is_err() {
        return Err(problem("the snap grid's scale is not a positive number"));
    }
    if !(ecm.free_area.is_finite() && ecm.free_area >= 0.0) {
        return Err(problem("the free area is not a non-negative number"));
    }
    let components = ecm.component_count;
    // Per edge slot: how often the edge appears among its start's and its end's edges.
    let mut at_start = vec![0u32; ecm.edges.capacity() + 1];
    let mut at_end = at_start.clone();
    for (id, v) in &ecm.vertices {
        if !(finite(v.position) && v.clearance.is_finite() && v.clearance >= 0.0) {
            return Err(problem(format!(
                "vertex {id:?}: position or clearance not finite"
            )));
        }
        if !v.nearest_obstacle_points.iter().all(|&p| finite(p)) {
            return Err(problem(format!(
                "vertex {id:?}: a nearest point is not finite"
            )));
        }
        if v.component.0 >= components {
            return Err(problem(format!("vertex {id:?}: component out of range")));
        }
        for &e in &v.edges {
            let Some(edge) = ecm.edges.get(e) else {
                return Err(problem(format!("vertex {id:?} names a missing edge")));
            };
            let counter = if edge.start == id {
                &mut at_start
            } else if edge.end == id {
                &mut at_end
            } else {
                return Err(problem(format!(
                    "vertex {id:?} names an edge not ending there"
                )));
            };
            let count = counter
                .get_mut(slot(e))
                .ok_or_else(|| problem("an edge slot out of range"))?;
            *count += 1;
        }
    }
    let mut pieces = 0usize;
    for (id, e) in &ecm.edges {
        let (Some(start), Some(end)) = (ecm.vertices.get(e.start), ecm.vertices.get(e.end)) else {
            return Err(problem(format!("edge {id:?} names a missing vertex")));
        };
        // A loop is listed twice at its vertex (both times as starting there).
        let s = at_start.get(slot(id)).copied().unwrap_or(0);
        let listed = if e.start == e.end {
            s == 2
        } else {
            s == 1 && at_end.get(slot(id)) == Some(&1)
        };
        if !listed {
            return Err(problem(format!(
                "edge {id:?} is not listed once at each end"
            )));
        }
        if e.component.0 >= components || start.component != e.component {
            return Err(problem(format!("edge {id:?}: component inconsistent")));
        }
        let bps = &e.bending_points;
        let (Some(first), Some(last)) = (bps.first(), bps.last()) else {
            return Err(problem(format!("edge {id:?} has no bending points")));
        };
        if bps.len() < 2 || first.position != start.position || last.position != end.position {
            return Err(problem(format!(
                "edge {id:?} does not run between its vertices"
            )));
        }
        pieces += 2 * (bps.len() - 1);
    }
    Ok(pieces)
}

/// The cell index: its trees of the right shape, and its live runs covering every cell
/// piece of every edge side exactly once, each under a box that holds its pieces.
fn cell_index(ecm: &Ecm, pieces: usize) -> Result<(), StructureProblem> {
    let runs = &ecm.cells.runs;
    runs.check().map_err(problem)?;
    if ecm.cells.pieces != pieces {
        return Err(problem("the cell index counts another number of pieces"));
    }
    // Per edge slot and side: the runs' (first, count), to be sorted and chained.
    let mut by_side: Vec<(usize, u8, u32, u32)> = Vec::new();
    let mut counted = 0usize;
    for (b, run) in runs.live_entries() {
        let Some(edge) = ecm.edges.get(run.edge) else {
            return Err(problem("the cell index names a missing edge"));
        };
        let bps = &edge.bending_points;
        let (first, count) = (run.first as usize, run.count as usize);
        if count == 0 || first + count > bps.len() - 1 {
            return Err(problem("the cell index names pieces an edge does not have"));
        }
        for w in bps[first..=first + count].windows(2) {
            for p in cell_corners(&w[0], &w[1], run.side) {
                if !(b[0] <= p.x && p.x <= b[2] && b[1] <= p.y && p.y <= b[3]) {
                    return Err(problem("a cell index box does not hold its pieces"));
                }
            }
        }
        counted += count;
        by_side.push((slot(run.edge), run.side as u8, run.first, run.count));
    }
    if counted != pieces {
        return Err(problem("the cell index does not cover each piece once"));
    }
    // With the counts right, the runs cover each piece once if, per edge side, they
    // chain from piece 0 without a gap or an overlap.
    by_side.sort_unstable();
    let mut next = (usize::MAX, u8::MAX, 0u32);
    for (edge, side, first, count) in by_side {
        if (edge, side) != (next.0, next.1) {
            next = (edge, side, 0);
        }
        if first != next.2 {
            return Err(problem("the cell index does not cover each piece once"));
        }
        next.2 = first + count;
    }
    Ok(())
}

/// What a build's validation checks that needs no walls: every bending point equidistant
/// from its two nearest points (and its clearance that distance), no cell piece turned
/// over, the cells adding up to the free area, degree 1 or at least 3 (2 only for the
/// vertex of a lone loop). Tolerances as in the build (grid steps).
pub(super) fn geometry(ecm: &Ecm) -> Result<(), StructureProblem> {
    let scale = ecm.grid.scale();
    let g = |p: Point| p * scale;
    let largest = ecm
        .edges
        .values()
        .flat_map(|e| &e.bending_points)
        .flat_map(|b| [b.left, b.right])
        .map(|p| g(p).x.abs().max(g(p).y.abs()))
        .fold(0.0, f64::max);
    let tol = tolerance(largest);
    let mut cells = 0.0;
    for (id, e) in &ecm.edges {
        for b in &e.bending_points {
            let q = g(b.position);
            let (dl, dr) = (q.distance(g(b.left)), q.distance(g(b.right)));
            if !at_most((dl - dr).abs(), tol)
                || !at_most((b.clearance * scale - dl.min(dr)).abs(), tol)
            {
                return Err(problem(format!(
                    "edge {id:?}: a bending point not equidistant from its nearest points"
                )));
            }
        }
        for side in [Side::Left, Side::Right] {
            for w in e.bending_points.windows(2) {
                let piece = cell_corners(&w[0], &w[1], side);
                let area = signed_area(&piece) * scale * scale;
                let size = piece
                    .iter()
                    .map(|p| g(*p).distance(g(piece[0])))
                    .fold(0.0, f64::max);
                if area < -tol * size.max(1.0) {
                    return Err(problem(format!("edge {id:?}: a cell piece is turned over")));
                }
                cells += area;
            }
        }
    }
    for (id, v) in &ecm.vertices {
        let d = v.degree();
        let lone_loop = d == 2
            && v.edges[0] == v.edges[1]
            && ecm
                .edges
                .get(v.edges[0])
                .is_some_and(|e| e.start == id && e.end == id);
        if d == 0 || (d == 2 && !lone_loop) {
            return Err(problem(format!("vertex {id:?} has degree {d}")));
        }
    }
    let free = ecm.free_area * scale * scale;
    if !at_most((cells - free).abs(), 1e-9 * free.abs().max(1.0) + tol) {
        return Err(problem(format!(
            "the cells add up to {} square units, the free area is {}",
            cells / (scale * scale),
            ecm.free_area
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::{GridPoint, SnapGrid, WallSegment, WallSource, Walls};

    /// A 10 × 10 room around a 2 × 2 block.
    fn room() -> Ecm {
        let ring = |pts: &[(i32, i32)], source: WallSource| -> Vec<WallSegment> {
            (0..pts.len())
                .map(|i| WallSegment {
                    a: GridPoint::new(pts[i].0, pts[i].1),
                    b: GridPoint::new(pts[(i + 1) % pts.len()].0, pts[(i + 1) % pts.len()].1),
                    two_sided: false,
                    sources: [source].into(),
                })
                .collect()
        };
        let mut segments = ring(&[(0, 0), (10, 0), (10, 10), (0, 10)], WallSource::Boundary);
        let block = WallSource::Obstacle(corridor_geom::ObstacleId(0));
        segments.extend(ring(&[(4, 4), (4, 6), (6, 6), (6, 4)], block));
        let walls = Walls {
            grid: SnapGrid::new(1.0).unwrap(),
            segments,
            ..Walls::default()
        };
        Ecm::from_walls(&walls).unwrap()
    }

    /// Each kind of inconsistency a forged file could carry is found, and a built map
    /// (and one after a round trip) passes both checks.
    #[test]
    fn inconsistencies_are_found() {
        let ecm = room();
        structure(&ecm).unwrap();
        geometry(&ecm).unwrap();
        type Damage = Box<dyn Fn(&mut Ecm)>;
        let damaged: Vec<(&str, Damage)> = vec![
            ("NaN free area", Box::new(|e| e.free_area = f64::NAN)),
            ("no components", Box::new(|e| e.component_count = 0)),
            (
                "dead edge key",
                Box::new(|e| {
                    let (id, _) = e.edges.iter().next().unwrap();
                    let v = e.edges[id].start;
                    e.edges.remove(id);
                    let _ = v;
                }),
            ),
            (
                "NaN nearest point",
                Box::new(|e| {
                    let edge = e.edges.values_mut().next().unwrap();
                    edge.bending_points[0].left.x = f64::NAN;
                }),
            ),
            (
                "one bending point",
                Box::new(|e| {
                    let edge = e.edges.values_mut().next().unwrap();
                    edge.bending_points.truncate(1);
                }),
            ),
            (
                "swapped ends",
                Box::new(|e| {
                    let edge = e.edges.values_mut().find(|e| e.start != e.end).unwrap();
                    std::mem::swap(&mut edge.start, &mut edge.end);
                }),
            ),
            ("piece count", Box::new(|e| e.cells.pieces += 1)),
            (
                "moved bending point",
                Box::new(|e| {
                    let edge = e
                        .edges
                        .values_mut()
                        .max_by_key(|e| e.bending_points.len())
                        .unwrap();
                    let n = edge.bending_points.len();
                    edge.bending_points[n / 2].position.x += 0.25;
                    let (length, _) =
                        crate::BendingPoint::length_and_min_clearance(&edge.bending_points);
                    edge.length = length;
                }),
            ),
        ];
        for (what, damage) in damaged {
            let mut e = ecm.clone();
            damage(&mut e);
            let found = structure(&e).and_then(|()| geometry(&e));
            assert!(found.is_err(), "{what} not found");
        }
    }
}
