//! The ECM itself: its vertices, edges, components and cell index, and the accessors
//! that read them.

use super::cells::CellIndex;
use super::elements::{signed_area, Edge, Vertex};
use super::ids::{ComponentId, EdgeId, Side, VertexId};
use super::stats::BuildStats;
use corridor_geom::SnapGrid;
use serde::{Deserialize, Serialize};
use slotmap::SlotMap;

/// The Explicit Corridor Map: the medial axis of the free space as a graph whose edges
/// carry, at every bending point, the nearest obstacle point on each side.
///
/// Built by [`Ecm::build`] or [`Ecm::from_walls`], which validate the result before
/// returning it. Coordinates are user units (`f64`); internally the construction works on
/// the environment's integer [`SnapGrid`] and converts exactly once at the end.
///
/// ```
/// use corridor_ecm::{Ecm, Side};
/// use corridor_geom::{GridPoint, SnapGrid, WallSegment, WallSource, Walls};
/// // A 4 × 2 room (grid units; scale 1 so that grid and user units agree).
/// let corners = [(0, 0), (4, 0), (4, 2), (0, 2)];
/// let segments = (0..4)
///     .map(|i| {
///         let (a, b) = (corners[i], corners[(i + 1) % 4]);
///         WallSegment {
///             a: GridPoint::new(a.0, a.1),
///             b: GridPoint::new(b.0, b.1),
///             two_sided: false,
///             sources: [WallSource::Boundary].into(),
///         }
///     })
///     .collect();
/// let walls = Walls { grid: SnapGrid::new(1.0).unwrap(), segments, ..Walls::default() };
/// let ecm = Ecm::from_walls(&walls).unwrap();
/// // Four corner branches meet in two degree-3 vertices joined by the centre line.
/// assert_eq!(ecm.vertex_count(), 6);
/// assert_eq!(ecm.edge_count(), 5);
/// assert_eq!(ecm.component_count(), 1);
/// let widest = ecm.edges().map(|(_, e)| e.min_clearance).fold(0.0, f64::max);
/// assert!((widest - 1.0).abs() < 1e-9);
/// // The cells tile the room.
/// let area: f64 = ecm.edges().map(|(id, _)| ecm.cell_area(id, Side::Left) + ecm.cell_area(id, Side::Right)).sum();
/// assert!((area - 8.0).abs() < 1e-9);
/// ```
#[derive(Debug, Serialize, Deserialize)]
pub struct Ecm {
    pub(crate) grid: SnapGrid,
    pub(crate) vertices: SlotMap<VertexId, Vertex>,
    pub(crate) edges: SlotMap<EdgeId, Edge>,
    pub(crate) component_count: u32,
    pub(crate) free_area: f64,
    pub(crate) stats: BuildStats,
    pub(crate) cells: CellIndex,
    /// Identity of this map's current contents, so that caches keyed by edge id (such as
    /// a [`crate::Planner`]'s edge costs) are never reused across maps. Fresh on every
    /// build, load and change.
    #[serde(skip, default = "fresh_uid")]
    pub(crate) uid: u64,
    /// Identity of the line of versions this map belongs to: a local repair of a
    /// [`crate::DynamicEcm`] keeps it, since it removes and inserts edges but never
    /// changes one in place, and a slot map never gives a removed edge's id to another, so within one lineage an edge
    /// id always names the same edge and per-edge caches stay valid across patches.
    /// Fresh on every build, load and clone (two clones patched apart would reuse ids).
    #[serde(skip, default = "fresh_uid")]
    pub(crate) lineage: u64,
}

impl Clone for Ecm {
    fn clone(&self) -> Self {
        Ecm {
            grid: self.grid,
            vertices: self.vertices.clone(),
            edges: self.edges.clone(),
            component_count: self.component_count,
            free_area: self.free_area,
            stats: self.stats.clone(),
            cells: self.cells.clone(),
            uid: self.uid,
            lineage: fresh_uid(),
        }
    }
}

/// A number no other map content has had in this process.
pub(crate) fn fresh_uid() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Ecm {
    /// The snap grid the ECM was built on.
    pub fn snap_grid(&self) -> SnapGrid {
        self.grid
    }

    /// All vertices with their ids.
    pub fn vertices(&self) -> impl ExactSizeIterator<Item = (VertexId, &Vertex)> {
        self.vertices.iter()
    }

    /// All edges with their ids.
    pub fn edges(&self) -> impl ExactSizeIterator<Item = (EdgeId, &Edge)> {
        self.edges.iter()
    }

    /// The vertex with this id.
    pub fn vertex(&self, id: VertexId) -> Option<&Vertex> {
        self.vertices.get(id)
    }

    /// The edge with this id.
    pub fn edge(&self, id: EdgeId) -> Option<&Edge> {
        self.edges.get(id)
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Number of bending points, counting each vertex once and each edge's interior
    /// bending points.
    pub fn bending_point_count(&self) -> usize {
        self.vertices.len()
            + self
                .edges
                .values()
                .map(|e| e.bending_points.len().saturating_sub(2))
                .sum::<usize>()
    }

    /// Number of connected components (one per connected component of the free space).
    pub fn component_count(&self) -> usize {
        self.component_count as usize
    }

    /// The vertices of one component.
    pub fn component_vertices(
        &self,
        component: ComponentId,
    ) -> impl Iterator<Item = VertexId> + '_ {
        self.vertices
            .iter()
            .filter(move |(_, v)| v.component == component)
            .map(|(id, _)| id)
    }

    /// Area of the free space the ECM was built for (exact, from the walls).
    pub fn free_area(&self) -> f64 {
        self.free_area
    }

    /// Area of one edge side's cell (the sum of its pieces' signed areas).
    pub fn cell_area(&self, edge: EdgeId, side: Side) -> f64 {
        self.edges
            .get(edge)
            .map(|e| e.cell_pieces(side).map(|p| signed_area(&p)).sum())
            .unwrap_or(0.0)
    }

    /// Timings and counts of the build that made this ECM.
    pub fn stats(&self) -> &BuildStats {
        &self.stats
    }
}
