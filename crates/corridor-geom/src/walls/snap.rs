//! Snapping: obstacles and the boundary moved onto the [`SnapGrid`], as normalization
//! reads them (rings oriented, collapsed polygons turned into open edges).

use super::NormalizeError;
use crate::free_space::traced::twice_signed_area;
use crate::{
    Environment, EnvironmentError, GridPoint, Obstacle, ObstacleId, Owner, Point, Ring, SnapGrid,
};

/// An obstacle on the snap grid, as normalization collects it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SnappedShape {
    /// A point obstacle.
    Point(GridPoint),
    /// The vertices of a polyline, or of a polygon thinner than a grid step (closed: the
    /// first vertex repeated at the end): open edges, or a point if they all coincide.
    Open(Vec<GridPoint>),
    /// A polygon: its exterior clockwise, then its holes with nonzero area
    /// counter-clockwise (winding −1 inside the obstacle, 0 in its holes).
    Rings(Vec<Vec<GridPoint>>),
}

/// Snaps an obstacle as [`normalize`](crate::normalize) reads it; also the number of its
/// vertices snapped (a polygon's holes counted whatever their area).
pub(crate) fn snap_shape(
    grid: &SnapGrid,
    id: ObstacleId,
    obstacle: &Obstacle,
) -> Result<(SnappedShape, usize), NormalizeError> {
    let owner = Owner::Obstacle(id);
    Ok(match obstacle {
        Obstacle::Point(p) => (SnappedShape::Point(snap(grid, owner, *p)?), 1),
        Obstacle::Polyline(vertices) => {
            let snapped = vertices
                .iter()
                .map(|&p| snap(grid, owner, p))
                .collect::<Result<Vec<_>, _>>()?;
            let n = snapped.len();
            (SnappedShape::Open(snapped), n)
        }
        Obstacle::Polygon(polygon) => {
            let mut exterior = snap_ring(grid, owner, &polygon.exterior)?;
            let mut count = exterior.len();
            let area = twice_signed_area(&exterior);
            if area == 0 {
                // Thinner than a grid step: what is left is a line-like wall.
                exterior.extend(exterior.first().copied());
                return Ok((SnappedShape::Open(exterior), count));
            }
            if area > 0 {
                exterior.reverse();
            }
            let mut rings = vec![exterior];
            for hole in &polygon.holes {
                let mut hole = snap_ring(grid, owner, hole)?;
                count += hole.len();
                let area = twice_signed_area(&hole);
                if area == 0 {
                    continue; // a crack inside the obstacle: nothing to keep
                }
                if area < 0 {
                    hole.reverse();
                }
                rings.push(hole);
            }
            (SnappedShape::Rings(rings), count)
        }
    })
}

pub(crate) fn snap(grid: &SnapGrid, owner: Owner, p: Point) -> Result<GridPoint, NormalizeError> {
    grid.snap(p)
        .map_err(|source| EnvironmentError::Snap { owner, source }.into())
}

/// The environment's boundary on the snap grid, counter-clockwise; an error if snapping
/// collapses it.
pub(crate) fn snapped_boundary(env: &Environment) -> Result<Vec<GridPoint>, NormalizeError> {
    let grid = env.snap_grid();
    let mut boundary = snap_ring(&grid, Owner::Boundary, env.boundary())?;
    let area = twice_signed_area(&boundary);
    if area == 0 {
        return Err(NormalizeError::BoundaryCollapsed {
            scale: grid.scale(),
        });
    }
    if area < 0 {
        boundary.reverse();
    }
    Ok(boundary)
}

/// Snaps a ring and drops consecutive repeated vertices (including the closing one).
pub(crate) fn snap_ring(
    grid: &SnapGrid,
    owner: Owner,
    ring: &Ring,
) -> Result<Vec<GridPoint>, NormalizeError> {
    let mut out: Vec<GridPoint> = Vec::with_capacity(ring.len());
    for &p in ring.vertices() {
        let g = snap(grid, owner, p)?;
        if out.last() != Some(&g) {
            out.push(g);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    Ok(out)
}
