//! The [`WallMap`]: the walls of an environment with its snapped obstacles indexed, and
//! how a planned [`WallDelta`] is applied to it.

use super::delta::WallDelta;
use super::key::WallKey;
use super::snapped::{box_meets, push_ring, snap_obstacle, Input, Snapped};
use super::wall_set::WallSet;
use crate::spatial::{boxed, Boxed, DynamicTree};
use crate::walls::{normalize, snapped_boundary};
use crate::FxHashMap as HashMap;
use crate::{Environment, GridPoint, NormalizeError, ObstacleId, SnapGrid, Walls};
use rstar::primitives::Rectangle;
use rstar::AABB;

/// The walls of an environment, kept current under changes of its obstacles by local
/// re-normalization.
///
/// # How a change is normalized locally
///
/// A change of some obstacles only changes the walls near them, but [`normalize`] is a
/// global computation (overlays, rounding of crossing points, merging of collinear
/// chains), and the local result must be the very walls a full normalization gives. Two
/// local methods are tried, each checked, and a full normalization is the last resort:
///
/// * **Window** (rectilinear neighbourhoods, such as grid maps with rectangular doors).
///   When every input edge near the change is axis-parallel and no slanted edge comes
///   near any of them, no crossing point is ever rounded there, so the walls inside a box
///   around the change depend only on the edges inside the box and on the winding number
///   of the obstacles, which an exact ray cast through an R-tree of all input edges gives.
///   The blocked part of the box (winding number ≤ 0) is cut into rectangles by an exact
///   sweep, and the box, these rectangles, the clipped open edges and the points are
///   normalized as a small environment after the change. The walls before the change are
///   the current walls clipped to the box (see below why the window's normalization would
///   give exactly these). Walls cut by the border of the box are joined back to their
///   parts outside it, which the change cannot touch.
/// * **Group.** Normalization only ever splits an edge where another edge's bounding box
///   meets it (rounded crossing points stay inside both boxes, and snapping moves them by
///   a few grid steps at most). The obstacles whose boxes (grown by [`GROUP_MARGIN`](crate::GROUP_MARGIN))
///   overlap the changed ones, transitively, together with the boundary edges they meet,
///   form a group whose walls do not depend on anything else; the group is normalized
///   with the boundary after the change, its walls before the change are the current
///   walls near its members (every wall lies in the boxes of its sources), and walls that
///   are the same in both cancel out. A group with no member and no boundary edge, whose
///   changed obstacle is a convex ring before and after, needs no normalization: its
///   walls are the ring's straight runs (`WallMap::isolated_change`).
/// * **Global:** the whole changed environment is normalized (when the group would hold
///   more than a third of all obstacle vertices, or a check failed).
///
/// Every local result is checked before it is returned: the walls it removes must exist,
/// the walls it adds must not, and no added wall may cross or touch another wall away from
/// a shared endpoint.
///
/// # Why the window needs no normalization before the change
///
/// Up to session 16 the window was also normalized before the change, and the method gave
/// up unless that reproduced the current walls clipped to the box. That check tests a
/// property of every state, the one after the change included, whose result it cannot
/// check: *for axis-parallel inputs on the grid, the window's walls are the full
/// normalization's walls clipped to the open box.* It holds for this reason. Every
/// input edge near the box is axis-parallel (else the method gives up before), so every
/// vertex of the free space and every crossing or touching point of two edges is a grid
/// point whose `x` is an input vertex's `x` and whose `y` an input vertex's `y`: no
/// rounding happens, and the sides of the box, chosen on lines through no input vertex,
/// pass through no wall vertex and along no wall. The blocked rectangles (from the exact
/// winding number) make the free space of the small environment exactly the free space
/// of the map intersected with the box. So inside the open box it has the same edges
/// (one-sided walls, same direction), the open edges are cut at the same crossing and
/// touching points (all strictly inside the box, or on a side where only the dropped
/// side walls are cut), lose the same pieces to the blocked area and merge with the same
/// one-sided walls, and a point lies strictly inside the free space and on no wall in
/// one exactly when in the other. Collinear chains are merged through a vertex when no
/// other wall touches it; every vertex strictly inside the box has the same walls
/// around it in both, and a chain cut by a side is cut there in both (the side walls
/// touch the cut point, and clipping cuts the full wall there). Walls along the sides
/// are left out. What the check caught could therefore only be a fault of this
/// computation, which the state after the change would share unchecked; the soak and
/// `update_walls` compare every result with a full normalization instead.
///
/// The map does not own the environment: [`WallMap::plan`] reads the environment as it is
/// before the change, and after [`WallMap::apply`] the caller applies the same change to
/// its environment.
///
/// ```
/// use corridor_geom::{normalize, Environment, Obstacle, ObstacleEdit, Point, WallKey, WallMap};
/// use std::collections::HashSet;
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
/// env.insert(Obstacle::rectangle(Point::new(2.0, 2.0), Point::new(4.0, 4.0)));
/// let (mut map, _walls) = WallMap::new(&env).unwrap();
/// // A crate overlapping the first one.
/// let crate_ = Obstacle::rectangle(Point::new(3.0, 3.0), Point::new(5.0, 5.0));
/// let id = env.next_id();
/// let delta = map.plan(&env, &[ObstacleEdit { id, obstacle: Some(&crate_) }]).unwrap();
/// map.apply(delta);
/// env.insert(crate_);
/// let full: HashSet<WallKey> = WallKey::all(&normalize(&env).unwrap()).collect();
/// assert_eq!(map.walls().iter().collect::<HashSet<_>>(), full);
/// ```
#[derive(Clone, Debug)]
pub struct WallMap {
    pub(super) grid: SnapGrid,
    /// The snapped boundary, counter-clockwise (as normalization collects it).
    pub(super) boundary_ring: Vec<GridPoint>,
    pub(super) boundary: Vec<Input>,
    /// The boundary edges (their indices in `boundary`) by their boxes: the group
    /// method looks for boundary edges only, and `edge_tree` also holds every edge of
    /// the rectilinear and large obstacles (the city's buildings).
    pub(super) boundary_tree: DynamicTree<Boxed<usize>>,
    pub(super) obstacles: HashMap<ObstacleId, Snapped>,
    /// The input edges of the boundary and of the obstacles that are not small (see
    /// `Snapped::is_small`: rectilinear, or more than [`SMALL_OBSTACLE`](super::snapped::SMALL_OBSTACLE) input edges). The
    /// edges of the small ones are found through `boxes` and refined by their own boxes
    /// ([`WallMap::inputs_meeting`]), so that an update of a small obstacle (the moving
    /// hexagon) moves one box instead of two per edge (here and in `slanted_edges`).
    pub(super) edge_tree: DynamicTree<Boxed<Input>>,
    /// The slanted (not axis-parallel) edges in `edge_tree`.
    pub(super) slanted_edges: DynamicTree<Boxed<Input>>,
    /// Number of small obstacles (all have a slanted edge); when there are none (grid
    /// maps), input queries skip `boxes`.
    pub(super) small_obstacles: usize,
    pub(super) boxes: DynamicTree<Boxed<ObstacleId>>,
    pub(super) walls: WallSet,
    pub(super) vertices: usize,
    pub(super) group_fraction: f64,
}

/// Why a local method gave up (the next one is tried).
pub(super) type Skip = String;

/// Walls removed and walls added.
pub(super) type Change = (Vec<WallKey>, Vec<WallKey>);

impl WallMap {
    /// Normalizes `env` once and indexes it; returns the map and the walls.
    pub fn new(env: &Environment) -> Result<(WallMap, Walls), NormalizeError> {
        let walls = normalize(env)?;
        let grid = env.snap_grid();
        let boundary = snapped_boundary(env)?;
        let mut boundary_inputs = Vec::new();
        push_ring(&mut boundary_inputs, &boundary, None);
        let mut obstacles = HashMap::default();
        let mut items: Vec<Boxed<Input>> = boundary_inputs.iter().map(|i| i.item()).collect();
        let mut boxes = Vec::new();
        let mut vertices = 0;
        let mut small_obstacles = 0;
        for (id, o) in env.obstacles() {
            let s = snap_obstacle(&grid, id, o)?;
            if s.is_small() {
                small_obstacles += 1;
            } else {
                items.extend(s.inputs.iter().map(|i| i.item()));
            }
            if s.has_box() {
                boxes.push(Boxed::new(Rectangle::from_corners(s.min, s.max), id));
            }
            vertices += s.vertices;
            obstacles.insert(id, s);
        }
        let slanted = items
            .iter()
            .filter(|i| !i.data.axis_parallel())
            .cloned()
            .collect();
        let boundary_tree = DynamicTree::bulk_load_with_params(
            boundary_inputs
                .iter()
                .enumerate()
                .map(|(k, i)| boxed(i.a, i.b, k))
                .collect(),
        );
        let map = WallMap {
            grid,
            boundary_ring: boundary,
            boundary: boundary_inputs,
            boundary_tree,
            obstacles,
            edge_tree: DynamicTree::bulk_load_with_params(items),
            slanted_edges: DynamicTree::bulk_load_with_params(slanted),
            small_obstacles,
            boxes: DynamicTree::bulk_load_with_params(boxes),
            walls: WallSet::new(WallKey::all(&walls)),
            vertices,
            group_fraction: 1.0 / 3.0,
        };
        Ok((map, walls))
    }

    /// The largest group of interacting obstacles normalized locally, as a fraction of
    /// all obstacle vertices (default ⅓; beyond it the whole environment is normalized,
    /// which is then about as cheap). `f64::INFINITY` always uses the group.
    pub fn with_group_fraction(mut self, fraction: f64) -> Self {
        self.group_fraction = fraction;
        self
    }

    /// The current walls.
    pub fn walls(&self) -> &WallSet {
        &self.walls
    }

    /// The snap grid.
    pub fn grid(&self) -> SnapGrid {
        self.grid
    }

    /// Applies a delta planned on the current state (the caller applies the same edits to
    /// its environment).
    pub fn apply(&mut self, delta: WallDelta) {
        let WallDelta {
            removed,
            added,
            edits,
            ..
        } = delta;
        for (id, new) in edits {
            if let Some(old) = self.obstacles.remove(&id) {
                if !old.is_small() {
                    for i in &old.inputs {
                        self.edge_tree.remove(&i.item());
                        if !i.axis_parallel() {
                            self.slanted_edges.remove(&i.item());
                        }
                    }
                } else {
                    self.small_obstacles -= 1;
                }
                if old.has_box() {
                    self.boxes
                        .remove(&Boxed::new(Rectangle::from_corners(old.min, old.max), id));
                }
                self.vertices -= old.vertices;
            }
            if let Some(new) = new {
                if !new.is_small() {
                    for i in &new.inputs {
                        self.edge_tree.insert(i.item());
                        if !i.axis_parallel() {
                            self.slanted_edges.insert(i.item());
                        }
                    }
                } else {
                    self.small_obstacles += 1;
                }
                if new.has_box() {
                    self.boxes
                        .insert(Boxed::new(Rectangle::from_corners(new.min, new.max), id));
                }
                self.vertices += new.vertices;
                self.obstacles.insert(id, new);
            }
        }
        self.walls.apply(&removed, &added);
    }

    /// Every input edge (of the boundary and of the obstacles) whose box meets `envelope`:
    /// what an R-tree over all input edges would report, in another order. An obstacle's
    /// edges lie in its box, so looking them up through `boxes` misses none.
    pub(super) fn inputs_meeting(
        &self,
        envelope: AABB<[i64; 2]>,
    ) -> impl Iterator<Item = Input> + '_ {
        let obstacles = (self.small_obstacles > 0)
            .then(|| self.boxes.locate_in_envelope_intersecting(envelope))
            .into_iter()
            .flatten()
            .flat_map(move |item| {
                let s = &self.obstacles[&item.data];
                let small: &[Input] = if s.is_small() { &s.inputs } else { &[] };
                small
                    .iter()
                    .copied()
                    .filter(move |i| box_meets(*i, &envelope))
            });
        self.edge_tree
            .locate_in_envelope_intersecting(envelope)
            .map(|i| i.data)
            .chain(obstacles)
    }
}
