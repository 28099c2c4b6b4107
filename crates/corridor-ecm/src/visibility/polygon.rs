//! The visibility polygon of a point by expansion through the ECM cells: the view is a
//! set of angular windows bounded by rays through actual points (cell corners), each
//! pushed from a cell into its neighbour across a portal and narrowed by exact orientation
//! tests; where a window meets a wall, that part of the wall is seen. The cells are
//! convex, so a window that enters a cell leaves it through the other sides in
//! counter-clockwise order, and a depth-first walk emits the seen walls in angular order.

use super::cells::{Across, Piece};
use super::{EdgeKind, VisibilityError, VisibilityPolygon};
use crate::graph::{CellRef, Ecm};
use corridor_geom::{orient, point_on_segment, Orientation, Point};

const CCW: Orientation = Orientation::CounterClockwise;
const CW: Orientation = Orientation::Clockwise;

/// A wall part seen between two rays, with whether each end is a junction of two cell
/// pieces along one straight wall (not a corner of the free space).
#[derive(Clone, Copy, Debug)]
pub(super) struct Seen {
    pub(super) a: Point,
    pub(super) b: Point,
    pub(super) a_junction: bool,
    pub(super) b_junction: bool,
}

/// A wall part seen by the walk: what it shows ([`Seen`]), the cell side `u v` it lies
/// on, and the rays to `lo` and `hi` (actual points) that bound it. The layered walk
/// splits such a part where it lies on a connection.
#[derive(Clone, Copy, Debug)]
pub(super) struct WallView {
    pub(super) seen: Seen,
    pub(super) u: Point,
    pub(super) v: Point,
    pub(super) lo: Point,
    pub(super) hi: Point,
}

/// Work left on the walk's stack, popped in angular order.
pub(super) enum Step {
    Seen(WallView),
    /// Enter `cell` through its side `entry`, looking between the rays to `r`
    /// (clockwise bound) and `l` (counter-clockwise bound).
    Enter {
        cell: CellRef,
        entry: u8,
        r: Point,
        l: Point,
    },
}

impl Ecm {
    /// The walls seen from `q` in counter-clockwise order (the raw output of the walk).
    fn seen_walls(
        &self,
        q: Point,
        start: CellRef,
        out: &mut Vec<Seen>,
    ) -> Result<(), VisibilityError> {
        let mut stack = self.start_steps(q, start)?;
        self.expand(q, &mut stack, &mut |w| out.push(w.seen));
        Ok(())
    }

    /// The walk's first steps from the cell of `q`: every side around `q`, the last in
    /// angular order first.
    pub(super) fn start_steps(
        &self,
        q: Point,
        start: CellRef,
    ) -> Result<Vec<Step>, VisibilityError> {
        let mut stack: Vec<Step> = Vec::new();
        let (start, piece) = self
            .home_cell(q, start)
            .ok_or(VisibilityError::NotInFreeSpace { point: q })?;
        if strictly_inside(&piece, q) {
            for j in (0..4).rev() {
                start_side(self, start, &piece, j, &mut stack);
            }
        } else {
            let mut windows = self.fan(q, start)?;
            windows.sort_by(|x, y| pseudo_angle(x.2 - q).total_cmp(&pseudo_angle(y.2 - q)));
            for (cell, piece, _, j) in windows.iter().rev() {
                start_side(self, *cell, piece, *j, &mut stack);
            }
        }
        Ok(stack)
    }

    /// Runs the walk from `stack`, handing each wall part seen to `emit` in angular order.
    pub(super) fn expand(&self, q: Point, stack: &mut Vec<Step>, emit: &mut impl FnMut(WallView)) {
        while let Some(step) = stack.pop() {
            match step {
                Step::Seen(w) => emit(w),
                Step::Enter { cell, entry, r, l } => {
                    let Some(piece) = self.piece(cell) else {
                        continue;
                    };
                    // Pushed last side first, so that they come off in angular order.
                    for i in (1..4).rev() {
                        let j = (entry as usize + i) % 4;
                        let (u, v) = (piece.corners[j], piece.corners[(j + 1) % 4]);
                        if piece.across[j] == Across::Nothing || orient(q, u, v) != CCW {
                            continue;
                        }
                        let lo = if orient(q, r, u) != CW { u } else { r };
                        let hi = if orient(q, v, l) != CW { v } else { l };
                        if orient(q, lo, hi) != CCW {
                            continue;
                        }
                        match self.resolve(cell, piece.across[j]) {
                            Across::Wall => stack.push(Step::Seen(WallView {
                                seen: Seen {
                                    a: if lo == u { u } else { ray_hit(q, lo, u, v) },
                                    b: if hi == v { v } else { ray_hit(q, hi, u, v) },
                                    a_junction: lo == u && !piece.wall_corner[j],
                                    b_junction: hi == v && !piece.wall_corner[(j + 1) % 4],
                                },
                                u,
                                v,
                                lo,
                                hi,
                            })),
                            Across::Piece(cell, entry) => stack.push(Step::Enter {
                                cell,
                                entry,
                                r: lo,
                                l: hi,
                            }),
                            Across::Nothing | Across::Vertex(_) => {}
                        }
                    }
                }
            }
        }
    }

    /// The cells around `q` when it lies on the boundary of `start` (on a portal or a
    /// corner): every side that `q` sees from the inside, as (piece, its first corner,
    /// side index). A point on a wall is not free.
    fn fan(
        &self,
        q: Point,
        start: CellRef,
    ) -> Result<Vec<(CellRef, Piece, Point, usize)>, VisibilityError> {
        let mut seen = vec![start];
        let mut todo = vec![start];
        let mut windows = Vec::new();
        while let Some(cell) = todo.pop() {
            let piece = self
                .piece(cell)
                .ok_or(VisibilityError::NotInFreeSpace { point: q })?;
            for j in 0..4 {
                let (u, v) = (piece.corners[j], piece.corners[(j + 1) % 4]);
                if (piece.on_wall[j] && u == q)
                    || (piece.across[j] == Across::Wall && point_on_segment(q, u, v))
                {
                    return Err(VisibilityError::OnObstacle { point: q });
                }
                match self.resolve(cell, piece.across[j]) {
                    Across::Nothing => {}
                    _ if orient(q, u, v) == CCW => windows.push((cell, piece, u, j)),
                    Across::Piece(next, _)
                        if point_on_segment(q, u, v) && !seen.contains(&next) =>
                    {
                        seen.push(next);
                        todo.push(next);
                    }
                    _ => {}
                }
            }
            if seen.len() > 64 {
                break;
            }
        }
        Ok(windows)
    }

    /// The visibility polygon of `q` from its located cell (see
    /// [`Ecm::visibility_polygon`]).
    pub(crate) fn visibility_from(
        &self,
        q: Point,
        start: CellRef,
    ) -> Result<VisibilityPolygon, VisibilityError> {
        let mut seen = Vec::new();
        self.seen_walls(q, start, &mut seen)?;
        Ok(assemble(q, &seen))
    }
}

/// Pushes the work for side `j` of the piece holding the viewpoint (the whole side is in view).
fn start_side(ecm: &Ecm, cell: CellRef, piece: &Piece, j: usize, stack: &mut Vec<Step>) {
    let (u, v) = (piece.corners[j], piece.corners[(j + 1) % 4]);
    match ecm.resolve(cell, piece.across[j]) {
        Across::Wall => stack.push(Step::Seen(WallView {
            seen: Seen {
                a: u,
                b: v,
                a_junction: !piece.wall_corner[j],
                b_junction: !piece.wall_corner[(j + 1) % 4],
            },
            u,
            v,
            lo: u,
            hi: v,
        })),
        Across::Piece(cell, entry) => stack.push(Step::Enter {
            cell,
            entry,
            r: u,
            l: v,
        }),
        Across::Nothing | Across::Vertex(_) => {}
    }
}

/// Whether `q` lies strictly inside the piece (left of every side of positive length).
fn strictly_inside(piece: &Piece, q: Point) -> bool {
    (0..4).all(|j| {
        piece.across[j] == Across::Nothing
            || orient(piece.corners[j], piece.corners[(j + 1) % 4], q) == CCW
    })
}

/// A monotone stand-in for the angle of `d` in `[0, 4)`, counter-clockwise from +x.
fn pseudo_angle(d: Point) -> f64 {
    let p = d.x / (d.x.abs() + d.y.abs());
    if d.y >= 0.0 {
        1.0 - p
    } else {
        3.0 + p
    }
}

/// Where the ray from `q` through `d` meets the segment `u v` (clamped to it); exact in the
/// coordinate a horizontal or vertical wall fixes.
pub(crate) fn ray_hit(q: Point, d: Point, u: Point, v: Point) -> Point {
    let dir = d - q;
    let wall = v - u;
    let denom = dir.perp_dot(wall);
    let s = if denom == 0.0 {
        0.0
    } else {
        ((u - q).perp_dot(dir) / denom).clamp(0.0, 1.0)
    };
    let mut p = u + wall * s;
    if u.x == v.x {
        p.x = u.x;
    }
    if u.y == v.y {
        p.y = u.y;
    }
    p
}

/// The polygon from the seen walls in angular order: consecutive walls that do not meet
/// are joined by a window (along a ray from the viewpoint); junctions of cell pieces along
/// one wall and vertices exactly between two collinear walls are dropped.
pub(super) fn assemble(origin: Point, seen: &[Seen]) -> VisibilityPolygon {
    // (vertex, kind of the edge leaving it, junction)
    let mut ring: Vec<(Point, EdgeKind, bool)> = Vec::with_capacity(seen.len() * 2);
    for s in seen {
        match ring.last_mut() {
            Some(last) if last.0 == s.a => {
                last.1 = EdgeKind::Wall;
                last.2 &= s.a_junction;
            }
            _ => ring.push((s.a, EdgeKind::Wall, s.a_junction)),
        }
        ring.push((s.b, EdgeKind::Window, s.b_junction));
    }
    if ring.len() > 1 && ring[0].0 == ring[ring.len() - 1].0 {
        let last = ring.pop().expect("two or more");
        ring[0].2 &= last.2;
    }
    // Drop junctions and collinear wall vertices (a stack pass, then the wrap-around).
    let droppable = |prev: &(Point, EdgeKind, bool), cur: &(Point, EdgeKind, bool), next: Point| {
        prev.1 == EdgeKind::Wall
            && cur.1 == EdgeKind::Wall
            && (cur.2
                || (orient(prev.0, cur.0, next) == Orientation::Collinear
                    && (cur.0 - prev.0).dot(next - cur.0) > 0.0))
    };
    let out = drop_vertices(ring, droppable);
    VisibilityPolygon {
        origin,
        vertices: out.iter().map(|v| v.0).collect(),
        kinds: out.iter().map(|v| v.1).collect(),
        range: None,
    }
}

/// The closed ring of (vertex, kind of the edge leaving it, junction) without the vertices
/// `droppable(previous, vertex, next)` names: a stack pass, then the wrap-around, so that
/// a ring of three or more vertices keeps three.
pub(super) fn drop_vertices<K: Copy>(
    ring: Vec<(Point, K, bool)>,
    droppable: impl Fn(&(Point, K, bool), &(Point, K, bool), Point) -> bool,
) -> Vec<(Point, K, bool)> {
    let mut out: Vec<(Point, K, bool)> = Vec::with_capacity(ring.len());
    for v in ring {
        while out.len() >= 2 && droppable(&out[out.len() - 2], &out[out.len() - 1], v.0) {
            out.pop();
        }
        out.push(v);
    }
    loop {
        let n = out.len();
        if n < 4 {
            break;
        }
        if droppable(&out[n - 2], &out[n - 1], out[0].0) {
            out.pop();
        } else if droppable(&out[n - 1], &out[0], out[1].0) {
            out.remove(0);
        } else {
            break;
        }
    }
    out
}
