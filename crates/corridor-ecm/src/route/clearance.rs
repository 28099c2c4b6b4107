//! The clearance check of a path: whether every piece keeps the radius from every wall.
//!
//! The cells tile the free space and each has its wall on one side, so a wall point
//! within `radius` of a piece lies in a cell whose box meets the piece's box grown by
//! `radius`: the cell index finds every wall that could be too close. The check is a
//! predicate over (piece, wall) pairs, so how the index is asked does not change its
//! answer, only its cost:
//! - A long piece is looked up in stretches of about `step` (each box grown by `radius`
//!   and a rounding margin), which finds the walls near it without visiting every cell in
//!   its whole bounding box.
//! - Consecutive short pieces whose points fit in one box no wider than `step` share one
//!   look-up: a disk path's arcs are drawn as a dozen or more short pieces round each
//!   corner, and one index query per piece cost more than the distances.
//!
//! Distances are always measured to the whole piece.

use crate::graph::Ecm;
use corridor_geom::{point_on_segment, Point, Segment};

/// Most pieces one look-up serves (bounds the pairs tested per wall when `step` is
/// infinite or the pieces are tiny).
const GROUP: usize = 32;

/// Whether every piece of `points` keeps `radius` (up to rounding) from every wall
/// (`step`: the look-up stretch, see the module doc).
pub(super) fn keeps_clearance(ecm: &Ecm, points: &[Point], radius: f64, step: f64) -> bool {
    let allowed = radius * (1.0 - 1e-9) - 1e-12;
    if allowed <= 0.0 {
        // Every distance passes: nothing to look up.
        return true;
    }
    let far = (allowed * (1.0 + 1e-9)).powi(2);
    let keeps = |a: Point, b: Point, wall: &Segment| piece_keeps(a, b, wall, allowed, far);
    let mut i = 0;
    while i + 1 < points.len() {
        let (a, b) = (points[i], points[i + 1]);
        let stretches = if step.is_finite() {
            ((b - a).length() / step).ceil() as usize
        } else {
            1
        };
        if stretches > 1 {
            if !long_piece_keeps(ecm, a, b, stretches.min(1 << 16), radius, &keeps) {
                return false;
            }
            i += 1;
            continue;
        }
        // Pieces i..end share one look-up: their points fit in a box no wider than `step`.
        let (mut lo, mut hi) = (a.min(b), a.max(b));
        let mut end = i + 1;
        while end + 1 < points.len() && end - i < GROUP {
            let p = points[end + 1];
            let (l, h) = (lo.min(p), hi.max(p));
            if (h - l).max_element() > step {
                break;
            }
            (lo, hi, end) = (l, h, end + 1);
        }
        let group = &points[i..=end];
        if !walls_near(ecm, lo - radius, hi + radius)
            .all(|wall| group.windows(2).all(|w| keeps(w[0], w[1], &wall)))
        {
            return false;
        }
        i = end;
    }
    true
}

/// A piece longer than `step`, looked up in `stretches` stretches.
fn long_piece_keeps(
    ecm: &Ecm,
    a: Point,
    b: Point,
    stretches: usize,
    radius: f64,
    keeps: &impl Fn(Point, Point, &Segment) -> bool,
) -> bool {
    let d = b - a;
    let scale = a.x.abs().max(a.y.abs()).max(b.x.abs()).max(b.y.abs());
    let margin = 1e-9 * (1.0 + scale);
    let at = |i: usize| match i {
        0 => a,
        i if i == stretches => b,
        i => a + d * (i as f64 / stretches as f64),
    };
    (0..stretches).all(|i| {
        let (p, q) = (at(i), at(i + 1));
        let grow = radius + margin;
        walls_near(ecm, p.min(q) - grow, p.max(q) + grow).all(|wall| keeps(a, b, &wall))
    })
}

/// The walls of the cell pieces whose boxes meet the box `lo..hi`.
fn walls_near(ecm: &Ecm, lo: Point, hi: Point) -> impl Iterator<Item = Segment> + '_ {
    let reach = rstar::AABB::from_corners([lo.x, lo.y], [hi.x, hi.y]);
    ecm.cells.pieces_meeting(&ecm.edges, reach).map(|cell| {
        let bps = &ecm.edges[cell.edge].bending_points;
        let k = cell.piece as usize;
        Segment::new(bps[k].nearest(cell.side), bps[k + 1].nearest(cell.side))
    })
}

/// Whether the piece `a b` keeps `allowed` from `wall` (`far`: `allowed` squared with a
/// margin over rounding).
#[inline]
fn piece_keeps(a: Point, b: Point, wall: &Segment, allowed: f64, far: f64) -> bool {
    // Most walls the index reports are clearly far: their bounding boxes already lie
    // apart by more than `allowed`.
    let (box_lo, box_hi) = (a.min(b), a.max(b));
    let gap = (wall.a.min(wall.b) - box_hi)
        .max(box_lo - wall.a.max(wall.b))
        .max(Point::ZERO);
    if gap.length_squared() > far {
        return true;
    }
    let piece = Segment::new(a, b);
    if wall.a == wall.b {
        // A convex corner: the same answer as the general distance below, without its
        // intersection test, whose orientations of the point "segment" are all
        // degenerate and take the slow exact path every time.
        let c = wall.a;
        let near = piece.distance(c).min(c.distance(a)).min(c.distance(b));
        return near >= allowed && !point_on_segment(c, a, b);
    }
    piece.distance_to_segment(wall) >= allowed
}
