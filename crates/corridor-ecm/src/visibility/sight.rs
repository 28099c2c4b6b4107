//! Whether two points see each other: a walk along the segment through the ECM cells
//! (exact orientation tests decide which side the segment leaves by, and whether it
//! passes through a corner), and for a character of some radius, a walk over the cells
//! the swept disk meets.

use super::cells::{Across, Piece};
use super::VisibilityError;
use crate::graph::{CellRef, Ecm};
use crate::layers::outside_of;
use corridor_geom::{orient, point_on_segment, FxHashSet, Orientation, Point, Segment};

const CCW: Orientation = Orientation::CounterClockwise;
const CW: Orientation = Orientation::Clockwise;
const COL: Orientation = Orientation::Collinear;

/// How many cells a pivot around one corner may turn through (a medial-axis vertex has a
/// handful; more means a broken map).
const MAX_TURN: usize = 64;

/// Where the walk stands.
enum At {
    /// Inside (or on the boundary of) a cell, entered through a side (none at the start).
    Cell(CellRef, Option<u8>),
    /// On a free corner of the cell, heading along the segment.
    Corner(CellRef, Point),
}

impl Ecm {
    /// Whether the closed segment `p q` stays in the free space, walking from `start`,
    /// the cell that holds `p`.
    pub(crate) fn sight_from(
        &self,
        p: Point,
        q: Point,
        start: CellRef,
    ) -> Result<bool, VisibilityError> {
        let missing = VisibilityError::NotInFreeSpace { point: p };
        let (start, _) = self.home_cell(p, start).ok_or(missing)?;
        Ok(self.sight_walk(p, q, start, None)? == Exit::Seen)
    }

    /// The walk of [`Ecm::sight_from`] from `start`, entered through its side `entry` (the
    /// segment crosses that side towards `q`; `None` when `start` holds `p`): how the
    /// segment ends. The layered walk enters a layer through a wall side that lies on a
    /// connection.
    pub(crate) fn sight_walk(
        &self,
        p: Point,
        q: Point,
        start: CellRef,
        entry: Option<u8>,
    ) -> Result<Exit, VisibilityError> {
        let missing = VisibilityError::NotInFreeSpace { point: p };
        let mut at = At::Cell(start, entry);
        // Each step moves to a cell farther along the segment; the bound only guards a
        // broken map.
        for _ in 0..4 * self.cells.len() + 16 {
            match at {
                At::Cell(cell, entry) => {
                    let piece = self.piece(cell).ok_or(missing)?;
                    // Entered across a side, the cell cannot hold `p` (the segment crossed
                    // that side beyond `p`): only a cell the walk starts or turns in is
                    // checked for `p` on a wall.
                    if entry.is_none() && touches_wall(&piece, p) {
                        return Err(VisibilityError::OnObstacle { point: p });
                    }
                    if p == q {
                        return Ok(Exit::Seen);
                    }
                    let d = q - p;
                    // Which side of the segment's line each corner lies on, once.
                    let sides = piece.corners.map(|c| orient(p, q, c));
                    // The side the segment crosses in its interior, leaving the cell.
                    let mut next = None;
                    let mut corner: Option<(Point, bool)> = None;
                    for j in 0..4 {
                        if Some(j as u8) == entry || piece.across[j] == Across::Nothing {
                            continue;
                        }
                        let k = (j + 1) % 4;
                        let (u, v) = (piece.corners[j], piece.corners[k]);
                        let (ou, ov) = (sides[j], sides[k]);
                        if ou == CW && ov == CCW {
                            next = Some(j);
                        }
                        for (w, k, o) in [(u, j, ou), (v, k, ov)] {
                            let ahead = (w - p).dot(d) > 0.0;
                            if o == COL
                                && ahead
                                && corner.is_none_or(|(c, _)| (w - p).dot(d) > (c - p).dot(d))
                            {
                                corner = Some((w, piece.on_wall[k]));
                            }
                        }
                    }
                    // `q` is in the cell when it is not beyond the side the segment leaves
                    // by (one test instead of four); without a clean exit, test them all.
                    let holds_q = match next {
                        Some(j) => orient(piece.corners[j], piece.corners[(j + 1) % 4], q) != CW,
                        None => piece.contains(q),
                    };
                    if holds_q {
                        return Ok(if touches_wall(&piece, q) {
                            Exit::Blocked
                        } else {
                            Exit::Seen
                        });
                    }
                    match (next, corner) {
                        (Some(j), _) => match self.resolve(cell, piece.across[j]) {
                            Across::Wall => {
                                let (u, v) = (piece.corners[j], piece.corners[(j + 1) % 4]);
                                return Ok(Exit::Wall(u, v));
                            }
                            Across::Piece(n, e) => at = At::Cell(n, Some(e)),
                            Across::Nothing | Across::Vertex(_) => return Ok(Exit::Blocked),
                        },
                        (None, Some((_, true))) => return Ok(Exit::Blocked),
                        (None, Some((w, false))) => at = At::Corner(cell, w),
                        (None, None) => {
                            // The segment starts on a corner of the cell and heads away.
                            if let Some(k) = piece.corners.iter().position(|&c| c == p) {
                                if piece.on_wall[k] {
                                    return Err(VisibilityError::OnObstacle { point: p });
                                }
                                at = At::Corner(cell, p);
                            } else {
                                return Ok(Exit::Blocked);
                            }
                        }
                    }
                }
                At::Corner(cell, w) => match self.turn(cell, w, p, q)? {
                    Turn::Into(n) => at = At::Cell(n, None),
                    Turn::Blocked => return Ok(Exit::Blocked),
                    Turn::Along(n, b) => {
                        // The segment runs along a free side from `w` to `b`.
                        if point_on_segment(q, w, b) {
                            return Ok(Exit::Seen);
                        }
                        at = At::Corner(n, b);
                    }
                },
            }
        }
        Ok(Exit::Blocked)
    }

    /// At the free corner `w` of `cell`, turns around `w` through the cells that meet
    /// there until one holds the direction of `p → q` beyond `w`.
    fn turn(&self, cell: CellRef, w: Point, p: Point, q: Point) -> Result<Turn, VisibilityError> {
        let missing = VisibilityError::NotInFreeSpace { point: p };
        let mut current = cell;
        let target = w + (q - p);
        for _ in 0..MAX_TURN {
            let piece = self.piece(current).ok_or(missing)?;
            let Some(k) = piece.corners.iter().position(|&c| c == w) else {
                return Ok(Turn::Blocked);
            };
            if piece.on_wall[k] {
                return Ok(Turn::Blocked);
            }
            // The sides at `w`: into it (from `a`) and out of it (to `b`), skipping sides
            // of length zero.
            let (mut ka, mut kb) = ((k + 3) % 4, k);
            while piece.across[ka] == Across::Nothing && ka != kb {
                ka = (ka + 3) % 4;
            }
            while piece.across[kb] == Across::Nothing && kb != ka {
                kb = (kb + 1) % 4;
            }
            let a = piece.corners[ka];
            let b = piece.corners[(kb + 1) % 4];
            let (ob, oa) = (orient(w, b, target), orient(w, a, target));
            if ob == COL && (b - w).dot(target - w) > 0.0 {
                return Ok(match piece.across[kb] {
                    Across::Wall => Turn::Blocked,
                    _ if piece.on_wall[(kb + 1) % 4] && !point_on_segment(q, w, b) => Turn::Blocked,
                    _ if piece.on_wall[(kb + 1) % 4] && q == b => Turn::Blocked,
                    _ => Turn::Along(current, b),
                });
            }
            if oa == COL && (a - w).dot(target - w) > 0.0 {
                return Ok(match piece.across[ka] {
                    Across::Wall => Turn::Blocked,
                    _ if piece.on_wall[ka] && (!point_on_segment(q, w, a) || q == a) => {
                        Turn::Blocked
                    }
                    _ => Turn::Along(current, a),
                });
            }
            if ob == CCW && oa == CW {
                return Ok(Turn::Into(current));
            }
            // Turn counter-clockwise: cross the side out of `w`.
            match self.resolve(current, piece.across[kb]) {
                Across::Piece(n, _) => current = n,
                _ => return Ok(Turn::Blocked),
            }
        }
        Ok(Turn::Blocked)
    }

    /// Whether a disk of `radius` swept along `p q` stays at least `radius` from every
    /// wall (it may touch them), walking over the cells the swept disk meets. The insides
    /// of the connections in `crossed` (which lie on walls of a layer's ECM) are not walls.
    pub(crate) fn capsule_clear(
        &self,
        p: Point,
        q: Point,
        radius: f64,
        start: CellRef,
        crossed: &[Segment],
    ) -> bool {
        let segment = Segment { a: p, b: q };
        // The distance to the wall side `w`, its parts inside the crossed connections left out.
        let wall_distance = |w: Segment| {
            if w.a == w.b {
                // A wall corner: one of a connection's ends counts, a point inside not.
                let inside = crossed.iter().any(|&c| outside_of(w, c).is_empty())
                    && !crossed.iter().any(|c| c.a == w.a || c.b == w.a);
                return if inside {
                    f64::INFINITY
                } else {
                    segment.distance(w.a)
                };
            }
            let mut parts = vec![w];
            for &c in crossed {
                parts = parts.into_iter().flat_map(|w| outside_of(w, c)).collect();
            }
            parts
                .iter()
                .map(|w| segment.distance_to_segment(w))
                .fold(f64::INFINITY, f64::min)
        };
        let mut seen: FxHashSet<CellRef> = FxHashSet::default();
        seen.insert(start);
        let mut todo = vec![start];
        while let Some(cell) = todo.pop() {
            let Some(piece) = self.piece(cell) else {
                continue;
            };
            for j in 0..4 {
                let side = Segment {
                    a: piece.corners[j],
                    b: piece.corners[(j + 1) % 4],
                };
                let near = segment.distance_to_segment(&side);
                match self.resolve(cell, piece.across[j]) {
                    Across::Wall if near < radius && wall_distance(side) < radius => return false,
                    Across::Nothing
                        if piece.on_wall[j]
                            && segment.distance(side.a) < radius
                            && wall_distance(Segment {
                                a: side.a,
                                b: side.a,
                            }) < radius =>
                    {
                        return false
                    }
                    Across::Piece(n, _) if near <= radius && seen.insert(n) => todo.push(n),
                    _ => {}
                }
            }
        }
        true
    }
}

/// How a walk along a segment ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Exit {
    /// It reached `q` without touching a wall.
    Seen,
    /// It touched a wall at a corner, along a side, or at `q`.
    Blocked,
    /// It crossed the open wall side `u v` (from the cell's inside out): the first wall it
    /// meets, in one point inside that side.
    Wall(Point, Point),
}

/// What turning around a corner found.
enum Turn {
    /// The segment goes on into the interior of this cell.
    Into(CellRef),
    /// The segment runs along a free side of this cell, from the corner to this point.
    Along(CellRef, Point),
    /// The segment touches a wall at the corner.
    Blocked,
}

/// Whether `x` lies on a wall side or a wall corner of the piece.
fn touches_wall(piece: &Piece, x: Point) -> bool {
    (0..4).any(|j| {
        (piece.on_wall[j] && piece.corners[j] == x)
            || (piece.across[j] == Across::Wall
                && point_on_segment(x, piece.corners[j], piece.corners[(j + 1) % 4]))
    })
}
