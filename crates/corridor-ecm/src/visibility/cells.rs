//! How the ECM cell pieces fit together, for the walks of the visibility queries: the four
//! sides of a piece (counter-clockwise), which are walls and which are portals, and the
//! piece (and its side) across each portal — found from the edges and the vertices' edge
//! order alone, so the walks need nothing beyond the ECM.

use crate::graph::{CellRef, Ecm, Edge, Side, Vertex};
use corridor_geom::{orient, Orientation, Point};

/// What lies across one side of a cell piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Across {
    /// An obstacle: the side runs along a wall.
    Wall,
    /// Another cell piece, entered through its side `side` (an index 0..4).
    Piece(CellRef, u8),
    /// Nothing (a side of length zero, or a link the map does not have).
    Nothing,
    /// The piece across the edge's start (`false`) or end (`true`) vertex, found when
    /// asked ([`Ecm::resolve`]): most walks never cross most of these.
    Vertex(bool),
}

/// One cell piece as a quadrilateral: corner `i` to corner `i + 1` is side `i`,
/// counter-clockwise (sides of length zero stay, marked [`Across::Nothing`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece {
    pub(crate) corners: [Point; 4],
    pub(crate) across: [Across; 4],
    /// Whether the corner is a wall end point (used to tell a junction of two cell
    /// pieces along one straight wall from a real corner of the free space).
    pub(crate) wall_corner: [bool; 4],
    /// Whether the corner lies on a wall (a nearest obstacle point).
    pub(crate) on_wall: [bool; 4],
}

impl Ecm {
    /// The cell piece `cell` with its neighbours, or `None` for a reference the map does
    /// not have.
    ///
    /// Left pieces are `bp_k, bp_k+1, left_k+1, left_k` (sides: chord, spoke to the next
    /// piece, wall, spoke to the previous piece); right pieces are `bp_k, right_k,
    /// right_k+1, bp_k+1` (sides: spoke to the previous piece, wall, spoke to the next
    /// piece, chord).
    pub(crate) fn piece(&self, cell: CellRef) -> Option<Piece> {
        let edge = self.edges.get(cell.edge)?;
        let k = cell.piece as usize;
        let (a, b) = (edge.bending_points.get(k)?, edge.bending_points.get(k + 1)?);
        let last = edge.bending_points.len() - 2;
        let prev = |side| {
            if k == 0 {
                Across::Vertex(false)
            } else {
                let c = CellRef {
                    piece: cell.piece - 1,
                    ..cell
                };
                Across::Piece(c, if side == Side::Left { 1 } else { 2 })
            }
        };
        let next = |side| {
            if k == last {
                Across::Vertex(true)
            } else {
                let c = CellRef {
                    piece: cell.piece + 1,
                    ..cell
                };
                Across::Piece(c, if side == Side::Left { 3 } else { 0 })
            }
        };
        let nonzero =
            |p: Point, q: Point, across: Across| if p == q { Across::Nothing } else { across };
        Some(match cell.side {
            Side::Left => {
                let corners = [a.position, b.position, b.left, a.left];
                let chord = Across::Piece(
                    CellRef {
                        side: Side::Right,
                        ..cell
                    },
                    3,
                );
                Piece {
                    corners,
                    across: [
                        nonzero(corners[0], corners[1], chord),
                        nonzero(corners[1], corners[2], next(Side::Left)),
                        nonzero(corners[2], corners[3], Across::Wall),
                        nonzero(corners[3], corners[0], prev(Side::Left)),
                    ],
                    wall_corner: [false, false, b.left_is_corner, a.left_is_corner],
                    on_wall: [a.clearance <= 0.0, b.clearance <= 0.0, true, true],
                }
            }
            Side::Right => {
                let corners = [a.position, a.right, b.right, b.position];
                let chord = Across::Piece(
                    CellRef {
                        side: Side::Left,
                        ..cell
                    },
                    0,
                );
                Piece {
                    corners,
                    across: [
                        nonzero(corners[0], corners[1], prev(Side::Right)),
                        nonzero(corners[1], corners[2], Across::Wall),
                        nonzero(corners[2], corners[3], next(Side::Right)),
                        nonzero(corners[3], corners[0], chord),
                    ],
                    wall_corner: [false, a.right_is_corner, b.right_is_corner, false],
                    on_wall: [a.clearance <= 0.0, true, true, b.clearance <= 0.0],
                }
            }
        })
    }

    /// What lies across a side of `cell`: [`Across::Vertex`] resolved into the piece
    /// beyond the vertex, anything else as it is.
    #[inline]
    pub(crate) fn resolve(&self, cell: CellRef, across: Across) -> Across {
        match across {
            Across::Vertex(at_end) => match self.edges.get(cell.edge) {
                Some(edge) => self.across_vertex(cell.edge, edge, at_end, cell.side),
                None => Across::Nothing,
            },
            other => other,
        }
    }

    /// The piece across the spoke of `side` of `edge` at its start (`at_end == false`) or
    /// end vertex: the neighbouring sector's piece of the next edge around the vertex.
    fn across_vertex(&self, id: crate::EdgeId, edge: &Edge, at_end: bool, side: Side) -> Across {
        let v = if at_end { edge.end } else { edge.start };
        let Some(vertex) = self.vertices.get(v) else {
            return Across::Nothing;
        };
        let Some(i) = end_index(vertex, id, edge, at_end) else {
            return Across::Nothing;
        };
        let n = vertex.edges.len();
        // Walking away from the vertex, the left side of an edge that starts there is on the
        // counter-clockwise side; of an edge that ends there, the right side.
        let ccw_side = (side == Side::Left) != at_end;
        let j = if ccw_side {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        };
        let other_id = vertex.edges[j];
        let Some(other) = self.edges.get(other_id) else {
            return Across::Nothing;
        };
        let other_at_start = if other.start == other.end {
            end_index(vertex, other_id, other, false) == Some(j)
        } else {
            other.start == v
        };
        // The neighbour is on the clockwise side of the next edge (or the counter-clockwise
        // side of the previous one), seen walking away from the vertex.
        let other_side = match (ccw_side, other_at_start) {
            (true, true) | (false, false) => Side::Right,
            (true, false) | (false, true) => Side::Left,
        };
        let piece = if other_at_start {
            0
        } else {
            other.bending_points.len() as u32 - 2
        };
        let entry = match (other_side, other_at_start) {
            (Side::Left, true) => 3,
            (Side::Left, false) => 1,
            (Side::Right, true) => 0,
            (Side::Right, false) => 2,
        };
        Across::Piece(
            CellRef {
                edge: other_id,
                side: other_side,
                piece,
            },
            entry,
        )
    }
}

/// Where the end of `edge` at its start (or end) stands in the vertex's counter-clockwise
/// edge list. A loop edge stands there twice: its two ends are told apart by the angles
/// of their leaving directions, the order the list was sorted in.
fn end_index(vertex: &Vertex, id: crate::EdgeId, edge: &Edge, at_end: bool) -> Option<usize> {
    let mut found = vertex
        .edges
        .iter()
        .enumerate()
        .filter(|(_, &e)| e == id)
        .map(|(i, _)| i);
    let first = found.next()?;
    let Some(second) = found.next() else {
        return Some(first);
    };
    let bps = &edge.bending_points;
    let n = bps.len();
    let angle = |d: Point| d.y.atan2(d.x);
    let start_angle = angle(bps[1].position - bps[0].position);
    let end_angle = angle(bps[n - 2].position - bps[n - 1].position);
    let start_first = start_angle <= end_angle;
    Some(if start_first != at_end { first } else { second })
}

impl Piece {
    /// Whether `x` lies in the closed piece (left of or on every side of positive length).
    pub(crate) fn contains(&self, x: Point) -> bool {
        (0..4).all(|j| {
            self.across[j] == Across::Nothing
                || orient(self.corners[j], self.corners[(j + 1) % 4], x) != Orientation::Clockwise
        })
    }
}

impl Ecm {
    /// A cell piece that holds `q` by the exact predicates, starting from `located` (the
    /// cell index decides with a tolerance, so a point within rounding of a side may be
    /// placed in the neighbour): steps across the sides that have `q` beyond them.
    pub(crate) fn home_cell(&self, q: Point, located: CellRef) -> Option<(CellRef, Piece)> {
        let mut cell = located;
        let mut tried: Vec<CellRef> = Vec::new();
        for _ in 0..64 {
            let piece = self.piece(cell)?;
            if piece.contains(q) {
                return Some((cell, piece));
            }
            tried.push(cell);
            let next = (0..4).find_map(|j| match self.resolve(cell, piece.across[j]) {
                Across::Piece(n, _)
                    if !tried.contains(&n)
                        && orient(piece.corners[j], piece.corners[(j + 1) % 4], q)
                            == Orientation::Clockwise =>
                {
                    Some(n)
                }
                _ => None,
            })?;
            cell = next;
        }
        None
    }
}
