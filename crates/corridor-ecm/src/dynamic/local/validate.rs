//! The validation of the full build on the new pieces of a local ECM ([`valid`]):
//! bending points equidistant from their nearest points, no wall closer than their
//! clearance, no cell piece turned over.

use super::select::Piece;
use crate::build::nearest_on_segment;
use crate::graph::{cell_corners, signed_area, Ecm, Side};
use corridor_geom::{PackedTree, Point, WallKey};

/// The validation of the full build, on pieces of the local ECM.
pub(super) fn valid(l: &Ecm, pieces: &[Piece], walls: &[LocalWall], tol: f64) -> bool {
    let scale = l.grid.scale();
    // Many walls (a batch of changes far apart): each piece asks a tree of their boxes for
    // the walls near it instead of filtering all of them (a list made 2,000 squares in
    // one update spend most of the plan here).
    let tree = (walls.len() > WALL_TREE_FROM).then(|| {
        let boxes: Vec<[f64; 4]> = walls
            .iter()
            .map(|w| [w.min.x, w.min.y, w.max.x, w.max.y])
            .collect();
        PackedTree::new(&boxes)
    });
    // The walls that can pass `closer_wall`'s box test for some bending point of a piece.
    let mut near: Vec<LocalWall> = Vec::with_capacity(walls.len());
    // The positions to test against the walls, with their limits.
    let mut tests: Vec<(Point, f64)> = Vec::new();
    for piece in pieces {
        let bps = &l.edges[piece.edge].bending_points[piece.from..=piece.to];
        // The bending points' positions and clearances (grid units), equidistance first;
        // the box of the tested positions, and the largest box-test margin.
        let (mut lo, mut hi, mut margin) = (
            Point::splat(f64::INFINITY),
            -Point::splat(f64::INFINITY),
            0.0f64,
        );
        tests.clear();
        for bp in bps {
            let q = bp.position * scale;
            let (dl, dr) = (q.distance(bp.left * scale), q.distance(bp.right * scale));
            if (dl - dr).abs() > tol {
                return false;
            }
            let clearance = dl.min(dr);
            if clearance > tol {
                tests.push((q, clearance - tol));
                lo = lo.min(q);
                hi = hi.max(q);
                margin = margin.max(closer_margin(q, clearance - tol));
            }
        }
        // A wall passes the box test for `q` with margin `m` when `q.x >= min.x - m` (and
        // alike on the other sides). Rounding is monotone, so `min.x - margin` rounds to at
        // most `min.x - m` for `m <= margin`, and `hi.x >= q.x`: the wall passes this test
        // too. The other walls pass no bending point's test and are left out.
        let passes = |w: &&LocalWall| {
            hi.x >= w.min.x - margin
                && hi.y >= w.min.y - margin
                && lo.x <= w.max.x + margin
                && lo.y <= w.max.y + margin
        };
        near.clear();
        match &tree {
            // The tree's box is wider than the test's by more than its rounding, so the
            // walls it reports hold every wall that passes (the test then decides).
            Some(tree) if !tests.is_empty() => {
                let slack = 2.0 * margin + 1.0 + 1e-9 * hi.abs().max(lo.abs()).max_element();
                let query = [lo.x - slack, lo.y - slack, hi.x + slack, hi.y + slack];
                near.extend(
                    tree.meeting(query)
                        .map(|i| &walls[i as usize])
                        .filter(passes),
                );
            }
            _ => near.extend(walls.iter().filter(passes)),
        }
        if tests.iter().any(|&(q, limit)| closer_wall(&near, q, limit)) {
            return false;
        }
        for side in [Side::Left, Side::Right] {
            for w in bps.windows(2) {
                let piece = cell_corners(&w[0], &w[1], side);
                let area = signed_area(&piece) * scale * scale;
                // `-tol * size.max(1.0)` is at most `-tol` (rounding is monotone), so an
                // area of at least `-tol` passes without the size.
                if area < -tol && {
                    let size = piece
                        .iter()
                        .map(|p| (*p - piece[0]).length() * scale)
                        .fold(0.0, f64::max);
                    area < -tol * size.max(1.0)
                } {
                    return false;
                }
            }
        }
    }
    true
}

/// From how many walls [`valid`] looks them up in a tree instead of a list.
const WALL_TREE_FROM: usize = 64;

/// A local wall in grid coordinates, for the validation of the local diagram.
#[derive(Clone, Copy, Debug)]
pub(super) struct LocalWall {
    a: Point,
    b: Point,
    min: Point,
    max: Point,
}

impl LocalWall {
    pub(super) fn new(k: WallKey) -> LocalWall {
        let (a, b) = k.ends();
        let (a, b) = (
            Point::new(a.x as f64, a.y as f64),
            Point::new(b.x as f64, b.y as f64),
        );
        LocalWall {
            a,
            b,
            min: a.min(b),
            max: a.max(b),
        }
    }

    fn distance_squared(&self, q: Point) -> f64 {
        q.distance_squared(nearest_on_segment(self.a, self.b, q))
    }
}

/// Farther than this from a wall's box on one axis is farther than `limit` from `q`
/// (with a margin for rounding): the box test of [`closer_wall`].
fn closer_margin(q: Point, limit: f64) -> f64 {
    limit * (1.0 + 1e-9) + 1e-9 * q.abs().max_element()
}

/// Whether one of `walls` is closer than `limit` to `q` (grid units). A few dozen walls:
/// a scan with a box test first is cheaper than a tree.
fn closer_wall(walls: &[LocalWall], q: Point, limit: f64) -> bool {
    let limit2 = limit * limit;
    let m = closer_margin(q, limit);
    walls.iter().any(|w| {
        q.x >= w.min.x - m && q.y >= w.min.y - m && q.x <= w.max.x + m && q.y <= w.max.y + m && {
            let d2 = w.distance_squared(q);
            d2 <= limit2 && d2.sqrt() < limit
        }
    })
}
