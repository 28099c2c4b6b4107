//! A stand-in triangulation of the free space for [`crate::expansion`]: `spade`'s
//! constrained Delaunay triangulation, converted into the flat [`Triangulation`] the
//! expansion reads.
//!
//! The expansion needs no Delaunay property, only a triangulation whose vertices are the
//! free space's points and in which every wall is an edge; a cheaper builder with
//! orientation tests only replaces this one behind the same [`triangulate`] function.

use crate::free_space::FreeSpace;
use spade::handles::FixedVertexHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation as _};

/// A triangulation of the convex hull of the free space's points whose vertices are
/// exactly `FreeSpace::points` (same ids, no new points) and in which every wall is an edge.
pub(crate) struct Triangulation {
    /// Corners of triangle `t`, counter-clockwise (exact orientation strictly positive).
    pub corners: Vec<[u32; 3]>,
    /// `neighbours[t][i]`: the triangle across the edge opposite corner `i` (the edge from
    /// `corners[t][(i + 1) % 3]` to `corners[t][(i + 2) % 3]`), or `NO_TRIANGLE` on the hull.
    pub neighbours: Vec<[u32; 3]>,
    /// Bit `i` set: the edge opposite corner `i` is a wall (one- or two-sided).
    pub wall_edges: Vec<u8>,
    /// Whether triangle `t` lies in the free space (false: inside an obstacle or outside
    /// the boundary ring).
    pub free: Vec<bool>,
    /// For every point, one triangle that has it as a corner.
    pub triangle_at: Vec<u32>,
}

/// No triangle (across a hull edge, or at a point no triangle has).
pub(crate) const NO_TRIANGLE: u32 = u32::MAX;

/// Why a free space could not be triangulated (it is inconsistent, or its coordinates are
/// outside what the triangulator accepts).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum TriangulationError {
    /// The triangulator rejected a point (non-finite, or too large or too small).
    #[error("the triangulator rejected a point: {0}")]
    Point(String),
    /// Two walls cross, or a point lies inside a wall.
    #[error("the walls cannot all be triangulation edges")]
    WallConflict,
    /// Triangles on both sides of a non-wall edge disagree about being free, or the free
    /// space reaches the convex hull through an edge that is no wall.
    #[error("the free side of the walls is inconsistent")]
    Inconsistent,
}

const UNKNOWN: u8 = 0;
const FREE: u8 = 1;
const BLOCKED: u8 = 2;

/// The triangulation of `fs` (see [`Triangulation`]).
pub(crate) fn triangulate(fs: &FreeSpace) -> Result<Triangulation, TriangulationError> {
    let vertices: Vec<Point2<f64>> = fs.points.iter().map(|p| Point2::new(p.x, p.y)).collect();
    let constraints: Vec<[usize; 2]> = fs
        .walls
        .iter()
        .map(|w| [w.a as usize, w.b as usize])
        .collect();
    let mut conflict = false;
    let cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::try_bulk_load_cdt(
        vertices,
        constraints,
        |_| conflict = true,
    )
    .map_err(|e| TriangulationError::Point(format!("{e:?}")))?;
    // Points are distinct, so the bulk load keeps every one at its own index.
    if conflict || cdt.num_vertices() != fs.points.len() {
        return Err(TriangulationError::WallConflict);
    }
    let n = cdt.num_inner_faces();
    // spade numbers the outer face 0 and the inner faces from 1.
    let index = |f: usize| (f - 1) as u32;
    let mut corners = Vec::with_capacity(n);
    let mut neighbours = Vec::with_capacity(n);
    let mut wall_edges = Vec::with_capacity(n);
    for face in cdt.inner_faces() {
        debug_assert_eq!(index(face.fix().index()) as usize, corners.len());
        let v = face.vertices();
        corners.push([0, 1, 2].map(|i| v[i].fix().index() as u32));
        // Edge k runs from corner k to corner k + 1: it is opposite corner k + 2.
        let mut across = [NO_TRIANGLE; 3];
        let mut walls = 0u8;
        for (k, e) in face.adjacent_edges().into_iter().enumerate() {
            let opposite = (k + 2) % 3;
            if let Some(g) = e.rev().face().as_inner() {
                across[opposite] = index(g.fix().index());
            }
            if cdt.is_constraint_edge(e.as_undirected().fix()) {
                walls |= 1 << opposite;
            }
        }
        neighbours.push(across);
        wall_edges.push(walls);
    }

    // Free or not: the triangle left of a one-sided wall is free, the one on its right
    // is not; both sides of a thin wall are free. The rest follows across non-wall edges.
    let mut status = vec![UNKNOWN; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut seed =
        |f: Option<u32>, s: u8, stack: &mut Vec<u32>| -> Result<(), TriangulationError> {
            let Some(t) = f else {
                // A free side outside the hull: inconsistent; a blocked one: nothing to mark.
                return if s == FREE {
                    Err(TriangulationError::Inconsistent)
                } else {
                    Ok(())
                };
            };
            match status[t as usize] {
                UNKNOWN => {
                    status[t as usize] = s;
                    stack.push(t);
                    Ok(())
                }
                x if x == s => Ok(()),
                _ => Err(TriangulationError::Inconsistent),
            }
        };
    for w in &fs.walls {
        let (a, b) = (
            FixedVertexHandle::from_index(w.a as usize),
            FixedVertexHandle::from_index(w.b as usize),
        );
        let e = cdt
            .get_edge_from_neighbors(a, b)
            .ok_or(TriangulationError::WallConflict)?;
        let left = e.face().as_inner().map(|f| index(f.fix().index()));
        let right = e.rev().face().as_inner().map(|f| index(f.fix().index()));
        seed(left, FREE, &mut stack)?;
        seed(right, if w.two_sided { FREE } else { BLOCKED }, &mut stack)?;
    }
    while let Some(t) = stack.pop() {
        let s = status[t as usize];
        for (k, &g) in neighbours[t as usize].iter().enumerate() {
            if wall_edges[t as usize] >> k & 1 == 1 {
                continue;
            }
            if g == NO_TRIANGLE {
                if s == FREE {
                    return Err(TriangulationError::Inconsistent);
                }
                continue;
            }
            match status[g as usize] {
                UNKNOWN => {
                    status[g as usize] = s;
                    stack.push(g);
                }
                x if x != s => return Err(TriangulationError::Inconsistent),
                _ => {}
            }
        }
    }
    // Whatever no wall reached lies between the boundary and the hull: outside.
    let free: Vec<bool> = status.iter().map(|&s| s == FREE).collect();

    let mut triangle_at = vec![NO_TRIANGLE; fs.points.len()];
    for (t, c) in corners.iter().enumerate() {
        for &v in c {
            triangle_at[v as usize] = t as u32;
        }
    }
    Ok(Triangulation {
        corners,
        neighbours,
        wall_edges,
        free,
        triangle_at,
    })
}

/// The coordinates of a point as the triangulation stores them (for tests).
#[cfg(test)]
pub(crate) fn corner_points(
    fs: &FreeSpace,
    tri: &Triangulation,
    t: usize,
) -> [corridor_geom::Point; 3] {
    tri.corners[t].map(|v| fs.points[v as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::{orient, Environment, Obstacle, Orientation, Point};

    #[test]
    fn triangles_are_ccw_walls_are_edges_and_obstacles_are_not_free() {
        let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
        env.insert(Obstacle::rectangle(
            Point::new(2.0, 2.0),
            Point::new(5.0, 5.0),
        ));
        env.insert(Obstacle::Polyline(vec![
            Point::new(6.0, 1.0),
            Point::new(8.0, 6.0),
        ]));
        let fs = FreeSpace::from_environment(&env).unwrap();
        let tri = triangulate(&fs).unwrap();
        let mut wall_count = 0;
        for t in 0..tri.corners.len() {
            let [a, b, c] = corner_points(&fs, &tri, t);
            assert_eq!(orient(a, b, c), Orientation::CounterClockwise);
            let centre = (a + b + c) * (1.0 / 3.0);
            let inside_square = (2.0..5.0).contains(&centre.x) && (2.0..5.0).contains(&centre.y);
            assert_eq!(tri.free[t], !inside_square, "triangle {t}");
            wall_count += tri.wall_edges[t].count_ones();
            for i in 0..3 {
                let g = tri.neighbours[t][i];
                if g != NO_TRIANGLE {
                    assert!(tri.neighbours[g as usize].contains(&(t as u32)));
                }
            }
        }
        // Boundary walls once, the square's and the thin wall's twice.
        assert_eq!(wall_count, 4 + 2 * 4 + 2);
        for (v, &t) in tri.triangle_at.iter().enumerate() {
            assert!(tri.corners[t as usize].contains(&(v as u32)));
        }
    }
}
