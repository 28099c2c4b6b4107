//! Keeping the [`Walls`] of an environment current while obstacles are inserted, removed
//! and moved, without normalizing the whole environment again: [`WallMap`].
//!
//! See [`WallMap`] for how a change is normalized locally.

use crate::normalize::{corner, snap_shape, snapped_boundary, SnappedShape};
use crate::{
    normalize, orient_grid, segments_intersect_grid, Environment, GridPoint, NormalizeError,
    Obstacle, ObstacleId, Orientation, SnapGrid, Walls,
};
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{Envelope, RStarInsertionStrategy, RTree, RTreeParams, AABB};
use std::collections::{BTreeMap, BTreeSet};

/// FxHash maps: the keys (ids, grid coordinates, walls) are not chosen by an adversary,
/// and SipHash showed in the profiles of small updates.
type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;
type HashSet<K> = rustc_hash::FxHashSet<K>;

/// How far (grid steps) bounding boxes are grown when the group of interacting obstacles
/// is collected: rounded crossing points and the snapping of later splitting rounds move
/// edges by much less than this.
pub const GROUP_MARGIN: i64 = 16;

/// Obstacles with a slanted edge and at most this many input edges are indexed by their
/// box alone (see `WallMap::edge_tree`); larger ones edge by edge, so that a query near a
/// part of a large obstacle does not read all its edges.
const SMALL_OBSTACLE: usize = 8;

/// The margin (grid steps) between the changed obstacles and the box of the window method.
const WINDOW_MARGIN: i64 = 4;

/// How far a side of the window box may be moved outwards to avoid input vertices.
const WINDOW_SHIFTS: i64 = 64;

/// A wall by its geometry (grid coordinates), without its sources: what the ECM is built
/// from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WallKey {
    /// A segment from `a` to `b`: free space on its left when one-sided; `a < b` when
    /// two-sided.
    Segment {
        /// Start.
        a: GridPoint,
        /// End.
        b: GridPoint,
        /// Whether free space lies on both sides.
        two_sided: bool,
    },
    /// An isolated point obstacle.
    Point(GridPoint),
}

impl WallKey {
    /// All walls of `walls` as keys.
    ///
    /// ```
    /// use corridor_geom::{normalize, Environment, Obstacle, Point, WallKey};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(4.0, 4.0));
    /// env.insert(Obstacle::Point(Point::new(1.0, 1.0)));
    /// let walls = normalize(&env).unwrap();
    /// assert_eq!(WallKey::all(&walls).count(), 5);
    /// ```
    pub fn all(walls: &Walls) -> impl Iterator<Item = WallKey> + '_ {
        walls
            .segments
            .iter()
            .map(|s| WallKey::Segment {
                a: s.a,
                b: s.b,
                two_sided: s.two_sided,
            })
            .chain(walls.points.iter().map(|(p, _)| WallKey::Point(*p)))
    }

    /// The two ends (twice the point for a point).
    pub fn ends(self) -> (GridPoint, GridPoint) {
        match self {
            WallKey::Segment { a, b, .. } => (a, b),
            WallKey::Point(p) => (p, p),
        }
    }

    /// Whether this is a one-sided segment (an edge of the free space).
    pub fn is_one_sided(self) -> bool {
        matches!(
            self,
            WallKey::Segment {
                two_sided: false,
                ..
            }
        )
    }

    /// Its share of twice the free area (grid units², exact): the cross product of its
    /// ends for a one-sided wall, zero otherwise.
    pub fn twice_area_share(self) -> i128 {
        match self {
            WallKey::Segment {
                a,
                b,
                two_sided: false,
            } => a.x as i128 * b.y as i128 - b.x as i128 * a.y as i128,
            _ => 0,
        }
    }

    fn envelope(self) -> AABB<[i64; 2]> {
        let (a, b) = self.ends();
        AABB::from_corners(corner(a), corner(b))
    }

    fn extent(self) -> u32 {
        let (a, b) = self.ends();
        [a, b]
            .iter()
            .map(|p| p.x.unsigned_abs().max(p.y.unsigned_abs()))
            .max()
            .unwrap_or(0)
    }
}

type Boxed<T> = GeomWithData<Rectangle<[i64; 2]>, T>;

/// R-tree parameters for trees that change with every update (here and in the ECM's
/// update indices): the nodes of the default parameters, without the R* forced
/// reinsertion (which made an insertion cost several thousand instructions; splits alone
/// keep the trees good enough for box queries).
#[derive(Clone, Copy, Debug, Default)]
pub struct DynamicTreeParams;

impl RTreeParams for DynamicTreeParams {
    const MIN_SIZE: usize = 3;
    const MAX_SIZE: usize = 6;
    const REINSERTION_COUNT: usize = 0;
    type DefaultInsertionStrategy = RStarInsertionStrategy;
}

/// An R-tree that changes with every update.
pub type DynamicTree<T> = RTree<T, DynamicTreeParams>;

fn boxed<T>(a: GridPoint, b: GridPoint, data: T) -> Boxed<T> {
    Boxed::new(Rectangle::from_corners(corner(a), corner(b)), data)
}

/// A set of walls with an R-tree over them, the exact free area and the largest
/// coordinate, kept current under [`WallDelta`]s.
#[derive(Clone, Debug, Default)]
pub struct WallSet {
    tree: DynamicTree<Boxed<WallKey>>,
    keys: HashSet<WallKey>,
    free_twice: i128,
    /// How many walls have each extent (largest absolute coordinate), and the largest
    /// extent with a wall (0 when there are none).
    extents: HashMap<u32, u32>,
    max_extent: u32,
    points: usize,
}

impl WallSet {
    /// The set of these walls.
    pub fn new(keys: impl IntoIterator<Item = WallKey>) -> Self {
        let keys: HashSet<WallKey> = keys.into_iter().collect();
        let mut set = WallSet {
            tree: DynamicTree::bulk_load_with_params(
                keys.iter()
                    .map(|k| {
                        let (a, b) = k.ends();
                        boxed(a, b, *k)
                    })
                    .collect(),
            ),
            ..WallSet::default()
        };
        for k in &keys {
            set.count(*k, 1);
        }
        set.keys = keys;
        set
    }

    fn count(&mut self, k: WallKey, sign: i32) {
        self.free_twice += sign as i128 * k.twice_area_share();
        if matches!(k, WallKey::Point(_)) {
            self.points = (self.points as i64 + sign as i64) as usize;
        }
        let e = k.extent();
        let entry = self.extents.entry(e).or_insert(0);
        *entry = (*entry as i64 + sign as i64) as u32;
        if *entry == 0 {
            self.extents.remove(&e);
            if e == self.max_extent {
                self.max_extent = self.extents.keys().copied().max().unwrap_or(0);
            }
        } else if e > self.max_extent {
            self.max_extent = e;
        }
    }

    /// Number of walls (segments and points).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are no walls.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Number of isolated points.
    pub fn point_count(&self) -> usize {
        self.points
    }

    /// Whether the set holds this wall.
    pub fn contains(&self, key: &WallKey) -> bool {
        self.keys.contains(key)
    }

    /// All walls, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = WallKey> + '_ {
        self.keys.iter().copied()
    }

    /// The walls whose bounding boxes meet the box with corners `min` and `max` (grid
    /// coordinates).
    pub fn in_box(&self, min: [i64; 2], max: [i64; 2]) -> impl Iterator<Item = WallKey> + '_ {
        self.tree
            .locate_in_envelope_intersecting(AABB::from_corners(min, max))
            .map(|item| item.data)
    }

    /// Twice the free area enclosed by the one-sided walls (grid units², exact).
    pub fn free_area_twice(&self) -> i128 {
        self.free_twice
    }

    /// The largest absolute coordinate of any wall (0 when there are none).
    pub fn extent(&self) -> u32 {
        self.max_extent
    }

    /// The largest absolute coordinate after `delta` would be applied.
    pub fn extent_after(&self, delta: &WallDelta) -> u32 {
        let mut gone: HashMap<u32, u32> = HashMap::default();
        for k in &delta.removed {
            *gone.entry(k.extent()).or_default() += 1;
        }
        let left = |(e, n): (&u32, &u32)| *n > gone.get(e).copied().unwrap_or(0);
        let kept = if left((
            &self.max_extent,
            &self.extents.get(&self.max_extent).copied().unwrap_or(0),
        )) {
            self.max_extent
        } else {
            self.extents
                .iter()
                .filter(|&(e, n)| left((e, n)))
                .map(|(e, _)| *e)
                .max()
                .unwrap_or(0)
        };
        delta.added.iter().map(|k| k.extent()).fold(kept, u32::max)
    }

    fn apply(&mut self, removed: &[WallKey], added: &[WallKey]) {
        for k in removed {
            if self.keys.remove(k) {
                let (a, b) = k.ends();
                self.tree.remove(&boxed(a, b, *k));
                self.count(*k, -1);
            }
        }
        for k in added {
            if self.keys.insert(*k) {
                let (a, b) = k.ends();
                self.tree.insert(boxed(a, b, *k));
                self.count(*k, 1);
            }
        }
    }
}

/// Which method computed a [`WallDelta`] (see [`WallMap`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NormalizeScope {
    /// Nothing changed on the grid.
    Unchanged,
    /// A box around the change, in a rectilinear neighbourhood.
    Window,
    /// The group of obstacles interacting with the change.
    Group,
    /// The whole environment.
    Global,
}

/// The change of the walls caused by a change of obstacles, computed by
/// [`WallMap::plan`] and applied by [`WallMap::apply`].
#[derive(Clone, Debug)]
pub struct WallDelta {
    removed: Vec<WallKey>,
    added: Vec<WallKey>,
    scope: NormalizeScope,
    note: Option<String>,
    edits: Vec<(ObstacleId, Option<Snapped>)>,
    free_twice: i128,
}

impl WallDelta {
    /// The walls that disappear (sorted).
    pub fn removed(&self) -> &[WallKey] {
        &self.removed
    }

    /// The walls that appear (sorted).
    pub fn added(&self) -> &[WallKey] {
        &self.added
    }

    /// Whether no wall changes.
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.added.is_empty()
    }

    /// How the change was computed.
    pub fn scope(&self) -> NormalizeScope {
        self.scope
    }

    /// Why a local method was not used, when the scope is wider than it could have been.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Twice the free area after the change (grid units², exact).
    pub fn free_area_twice(&self) -> i128 {
        self.free_twice
    }
}

/// One obstacle change for [`WallMap::plan`]: the obstacle with this id gets this
/// geometry (`None`: it is removed; an id not in the environment: it is inserted).
#[derive(Clone, Copy, Debug)]
pub struct ObstacleEdit<'a> {
    /// The obstacle.
    pub id: ObstacleId,
    /// Its new geometry, or `None` to remove it.
    pub obstacle: Option<&'a Obstacle>,
}

/// What kind of input edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An edge of the boundary or of a polygon ring, directed so that the winding number
    /// of its ring is what normalization counts (boundary counter-clockwise, obstacle
    /// exteriors clockwise, holes counter-clockwise).
    Ring,
    /// An open edge (of a polyline or a polygon that collapsed on the grid), `a < b`.
    Open,
    /// A point obstacle (`a == b`).
    Point,
}

/// One snapped input element as normalization sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Input {
    a: GridPoint,
    b: GridPoint,
    kind: Kind,
    /// `None` for the boundary.
    owner: Option<ObstacleId>,
}

impl Input {
    fn item(self) -> Boxed<Input> {
        boxed(self.a, self.b, self)
    }

    fn axis_parallel(self) -> bool {
        self.a.x == self.b.x || self.a.y == self.b.y
    }
}

/// An obstacle snapped to the grid, as normalization reads it.
#[derive(Clone, Debug, PartialEq)]
struct Snapped {
    inputs: Vec<Input>,
    /// What normalization collects (see [`snap_shape`]).
    shape: SnappedShape,
    min: [i64; 2],
    max: [i64; 2],
    rectilinear: bool,
    vertices: usize,
}

impl Snapped {
    fn new(inputs: Vec<Input>, shape: SnappedShape, vertices: usize) -> Self {
        let mut min = [i64::MAX; 2];
        let mut max = [i64::MIN; 2];
        for i in &inputs {
            for p in [i.a, i.b] {
                min = [min[0].min(p.x as i64), min[1].min(p.y as i64)];
                max = [max[0].max(p.x as i64), max[1].max(p.y as i64)];
            }
        }
        let rectilinear = inputs.iter().all(|i| i.axis_parallel());
        Snapped {
            inputs,
            shape,
            min,
            max,
            rectilinear,
            vertices,
        }
    }

    fn has_box(&self) -> bool {
        !self.inputs.is_empty()
    }

    /// Whether its edges are indexed by its box alone (see `WallMap::edge_tree`): a small
    /// obstacle with a slanted edge. Rectilinear ones (grid maps) stay indexed edge by
    /// edge: the window method's ray casts run along long rays through them, where a
    /// box lookup would read whole obstacles (measured: +12 k instructions per Aurora
    /// door).
    fn is_small(&self) -> bool {
        !self.rectilinear && self.inputs.len() <= SMALL_OBSTACLE
    }
}

fn push_ring(out: &mut Vec<Input>, ring: &[GridPoint], owner: Option<ObstacleId>) {
    let n = ring.len();
    out.reserve(n);
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if a != b {
            out.push(Input {
                a,
                b,
                kind: Kind::Ring,
                owner,
            });
        }
    }
}

fn push_open(out: &mut Vec<Input>, vertices: &[GridPoint], owner: Option<ObstacleId>) {
    let mut any = false;
    for w in vertices.windows(2) {
        if w[0] != w[1] {
            any = true;
            out.push(Input {
                a: w[0].min(w[1]),
                b: w[0].max(w[1]),
                kind: Kind::Open,
                owner,
            });
        }
    }
    if !any {
        if let Some(&p) = vertices.first() {
            out.push(Input {
                a: p,
                b: p,
                kind: Kind::Point,
                owner,
            });
        }
    }
}

/// The obstacle's input to normalization (as [`normalize`] collects it).
fn snap_obstacle(
    grid: &SnapGrid,
    id: ObstacleId,
    obstacle: &Obstacle,
) -> Result<Snapped, NormalizeError> {
    let who = Some(id);
    let (shape, vertices) = snap_shape(grid, id, obstacle)?;
    let mut inputs = Vec::new();
    match &shape {
        SnappedShape::Point(g) => inputs.push(Input {
            a: *g,
            b: *g,
            kind: Kind::Point,
            owner: who,
        }),
        SnappedShape::Open(v) => push_open(&mut inputs, v, who),
        SnappedShape::Rings(rings) => {
            for ring in rings {
                push_ring(&mut inputs, ring, who);
            }
        }
    }
    Ok(Snapped::new(inputs, shape, vertices))
}

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
///   a few grid steps at most). The obstacles whose boxes (grown by [`GROUP_MARGIN`])
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
    grid: SnapGrid,
    /// The snapped boundary, counter-clockwise (as normalization collects it).
    boundary_ring: Vec<GridPoint>,
    boundary: Vec<Input>,
    /// The boundary edges (their indices in `boundary`) by their boxes: the group
    /// method looks for boundary edges only, and `edge_tree` also holds every edge of
    /// the rectilinear and large obstacles (the city's buildings).
    boundary_tree: DynamicTree<Boxed<usize>>,
    obstacles: HashMap<ObstacleId, Snapped>,
    /// The input edges of the boundary and of the obstacles that are not small (see
    /// `Snapped::is_small`: rectilinear, or more than [`SMALL_OBSTACLE`] input edges). The
    /// edges of the small ones are found through `boxes` and refined by their own boxes
    /// ([`WallMap::inputs_meeting`]), so that an update of a small obstacle (the moving
    /// hexagon) moves one box instead of two per edge (here and in `slanted_edges`).
    edge_tree: DynamicTree<Boxed<Input>>,
    /// The slanted (not axis-parallel) edges in `edge_tree`.
    slanted_edges: DynamicTree<Boxed<Input>>,
    /// Number of small obstacles (all have a slanted edge); when there are none (grid
    /// maps), input queries skip `boxes`.
    small_obstacles: usize,
    boxes: DynamicTree<Boxed<ObstacleId>>,
    walls: WallSet,
    vertices: usize,
    group_fraction: f64,
}

/// Why a local method gave up (the next one is tried).
type Skip = String;

/// Walls removed and walls added.
type Change = (Vec<WallKey>, Vec<WallKey>);

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

    /// Computes how the walls change when `edits` are made to `env` (which must be the
    /// environment this map currently describes). Only reads the map.
    ///
    /// Errors are those of [`normalize`] for the changed environment: an invalid new
    /// obstacle is reported as [`NormalizeError::Environment`] naming it.
    pub fn plan(
        &self,
        env: &Environment,
        edits: &[ObstacleEdit<'_>],
    ) -> Result<WallDelta, NormalizeError> {
        let mut snapped: Vec<(ObstacleId, Option<Snapped>)> = Vec::with_capacity(edits.len());
        for edit in edits {
            let new = match edit.obstacle {
                Some(o) => {
                    let mut single =
                        Environment::new(env.boundary().clone()).with_snap_grid(self.grid);
                    single.insert_with_id(edit.id, o.clone());
                    single.validate()?;
                    Some(snap_obstacle(&self.grid, edit.id, o)?)
                }
                None => None,
            };
            snapped.push((edit.id, new));
        }
        let unchanged = snapped
            .iter()
            .all(|(id, new)| self.obstacles.get(id) == new.as_ref());
        let mut delta = WallDelta {
            removed: Vec::new(),
            added: Vec::new(),
            scope: NormalizeScope::Unchanged,
            note: None,
            edits: Vec::new(),
            free_twice: self.walls.free_twice,
        };
        if !unchanged {
            let mut notes = Vec::new();
            let mut result = None;
            match self.window(&snapped) {
                Ok(d) => result = Some((d, NormalizeScope::Window)),
                Err(why) => notes.push(format!("window: {why}")),
            }
            if result.is_none() {
                match self.group(&snapped) {
                    Ok(Some(d)) => result = Some((d, NormalizeScope::Group)),
                    Ok(None) => notes.push("group: too large".into()),
                    Err(GroupError::Skip(why)) => notes.push(format!("group: {why}")),
                    Err(GroupError::Normalize(e)) => return Err(e),
                }
            }
            let (removed, added, scope) = match result {
                Some(((removed, added), scope)) => (removed, added, scope),
                None => {
                    let (removed, added) = self.global(env, edits)?;
                    (removed, added, NormalizeScope::Global)
                }
            };
            delta.removed = removed;
            delta.added = added;
            delta.scope = scope;
            if !notes.is_empty() && scope != NormalizeScope::Window {
                delta.note = Some(notes.join("; "));
            }
            delta.free_twice = self.walls.free_twice
                - delta
                    .removed
                    .iter()
                    .map(|k| k.twice_area_share())
                    .sum::<i128>()
                + delta
                    .added
                    .iter()
                    .map(|k| k.twice_area_share())
                    .sum::<i128>();
        }
        delta.edits = snapped;
        Ok(delta)
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

    // -----------------------------------------------------------------------------------
    // Global.

    fn global(
        &self,
        env: &Environment,
        edits: &[ObstacleEdit<'_>],
    ) -> Result<Change, NormalizeError> {
        let mut changed = env.clone();
        for edit in edits {
            match edit.obstacle {
                Some(o) => {
                    changed.insert_with_id(edit.id, o.clone());
                }
                None => {
                    changed.remove(edit.id);
                }
            }
        }
        let walls = normalize(&changed)?;
        let keys: HashSet<WallKey> = WallKey::all(&walls).collect();
        let mut removed: Vec<WallKey> = self.walls.keys.difference(&keys).copied().collect();
        let mut added: Vec<WallKey> = keys.difference(&self.walls.keys).copied().collect();
        removed.sort_unstable();
        added.sort_unstable();
        Ok((removed, added))
    }

    // -----------------------------------------------------------------------------------
    // Group.

    fn group(
        &self,
        snapped: &[(ObstacleId, Option<Snapped>)],
    ) -> Result<Option<Change>, GroupError> {
        let edited: HashSet<ObstacleId> = snapped.iter().map(|(id, _)| *id).collect();
        let mut queue: Vec<([i64; 2], [i64; 2])> = Vec::with_capacity(16);
        for (id, new) in snapped {
            for s in [self.obstacles.get(id), new.as_ref()].into_iter().flatten() {
                if s.has_box() {
                    queue.push((s.min, s.max));
                }
            }
        }
        let limit = if self.group_fraction.is_finite() {
            ((self.vertices as f64 * self.group_fraction) as usize).max(64)
        } else {
            usize::MAX
        };
        let mut members: BTreeSet<ObstacleId> = BTreeSet::new();
        let mut boundary_edges: HashSet<usize> = HashSet::default();
        // The boxes of everything in the group: its walls lie in them (see below).
        let mut reach: Vec<([i64; 2], [i64; 2])> = Vec::with_capacity(16);
        reach.extend_from_slice(&queue);
        let mut size = 0usize;
        while let Some((min, max)) = queue.pop() {
            let envelope = AABB::from_corners(
                [min[0] - GROUP_MARGIN, min[1] - GROUP_MARGIN],
                [max[0] + GROUP_MARGIN, max[1] + GROUP_MARGIN],
            );
            for item in self.boxes.locate_in_envelope_intersecting(envelope) {
                let id = item.data;
                if edited.contains(&id) || !members.insert(id) {
                    continue;
                }
                let s = &self.obstacles[&id];
                size += s.vertices;
                if size > limit {
                    return Ok(None);
                }
                queue.push((s.min, s.max));
                reach.push((s.min, s.max));
            }
            for item in self.boundary_tree.locate_in_envelope_intersecting(envelope) {
                let k = item.data;
                let n = self.boundary.len();
                let mut pending = vec![k];
                while let Some(k) = pending.pop() {
                    if !boundary_edges.insert(k) {
                        continue;
                    }
                    let e = self.boundary[k];
                    queue.push(bbox(e.a, e.b));
                    reach.push(bbox(e.a, e.b));
                    // A straight continuation merges with this edge: take it too.
                    for j in [(k + n - 1) % n, (k + 1) % n] {
                        let f = self.boundary[j];
                        if orient_grid(e.a, e.b, f.a) == Orientation::Collinear
                            && orient_grid(e.a, e.b, f.b) == Orientation::Collinear
                        {
                            pending.push(j);
                        }
                    }
                }
            }
        }
        if members.is_empty() && boundary_edges.is_empty() {
            if let Some((removed, added)) = self.isolated_change(snapped) {
                self.check(&removed, &added).map_err(GroupError::Skip)?;
                return Ok(Some((removed, added)));
            }
        }
        // The group as normalization collects it: the boundary, the members and the
        // changed obstacles after the change (a later edit of an id replaces an earlier).
        let mut shapes: BTreeMap<ObstacleId, &SnappedShape> = members
            .iter()
            .filter_map(|id| self.obstacles.get(id).map(|s| (*id, &s.shape)))
            .collect();
        for (id, new) in snapped {
            match new {
                Some(s) => {
                    shapes.insert(*id, &s.shape);
                }
                None => {
                    shapes.remove(id);
                }
            }
        }
        // In id order (the map's), as normalization reads an environment's obstacles.
        let shapes: Vec<(ObstacleId, &SnappedShape)> = shapes.into_iter().collect();
        // A changed obstacle whose edges properly cross an edge of another group member
        // or of the boundary (the hexagon over a building) makes the walls cross, so
        // normalization's overlay-free path for interior-disjoint rings would build its
        // candidate walls, fail its disjointness check and fall back to the overlay:
        // go to the overlay at once. Both routes give the same walls (the fast path only
        // returns when the overlay would split and move nothing), so this choice only
        // saves that failed attempt and a second collection of the input.
        let crossing = self.changed_edges_cross(&members, &boundary_edges, snapped)
            || self.fast_path_doomed(&members, snapped);
        // The group holds the boundary, obstacles of the map and the new obstacles
        // validated by `plan`, and `check` below checks every added wall: normalization
        // need do neither.
        let normalized = crate::normalize::normalize_snapped_trusted(
            self.grid,
            &self.boundary_ring,
            &shapes,
            crossing,
        );
        let new_walls = normalized.map_err(|e| match e {
            NormalizeError::Environment(_) | NormalizeError::BoundaryCollapsed { .. } => {
                GroupError::Normalize(e)
            }
            other => GroupError::Skip(format!("the group did not normalize: {other}")),
        })?;
        // The group's walls before the change are read from the current walls instead of
        // normalizing the group again. Every wall lies in the union of the boxes of its
        // sources (crossing points are rounded to grid points inside both edges' boxes,
        // pieces of pieces stay inside those), so the group's walls lie in `reach`, and the
        // walls of everything else lie in boxes farther than `GROUP_MARGIN` from it (else
        // they would be in the group): the current walls whose boxes meet `reach` grown by
        // half that margin are exactly the group's. The group normalization also holds the
        // boundary edges outside the group, with no obstacle near them, so the same before
        // and after the change: they are left out of both sides (and must lie outside
        // `reach`).
        let grow = GROUP_MARGIN / 2;
        let grown: Vec<([i64; 2], [i64; 2])> = reach
            .iter()
            .map(|(lo, hi)| ([lo[0] - grow, lo[1] - grow], [hi[0] + grow, hi[1] + grow]))
            .collect();
        let meets_reach = |k: WallKey| {
            let (lo, hi) = {
                let (a, b) = k.ends();
                bbox(a, b)
            };
            grown.iter().any(|&g| boxes_meet((lo, hi), g))
        };
        let mut old: Vec<WallKey> = Vec::with_capacity(64);
        for (lo, hi) in &grown {
            old.extend(self.walls.in_box(*lo, *hi));
        }
        old.sort_unstable();
        old.dedup();
        let mut new: Vec<WallKey> = Vec::with_capacity(old.len() + 8);
        // (`normalize_snapped_trusted` keeps the sources of these walls only.)
        let boundary_only =
            |sources: &[crate::WallSource]| sources[..] == [crate::WallSource::Boundary];
        for s in &new_walls.segments {
            let k = WallKey::Segment {
                a: s.a,
                b: s.b,
                two_sided: s.two_sided,
            };
            if meets_reach(k) {
                new.push(k);
            } else if s.two_sided || !boundary_only(&s.sources) {
                return Err(GroupError::Skip(format!(
                    "the group's wall {k:?} lies outside the group"
                )));
            }
        }
        for (p, _) in &new_walls.points {
            let k = WallKey::Point(*p);
            if !meets_reach(k) {
                return Err(GroupError::Skip(format!(
                    "the group's wall {k:?} lies outside the group"
                )));
            }
            new.push(k);
        }
        new.sort_unstable();
        new.dedup();
        let (removed, added) = sorted_difference(&old, &new);
        self.check(&removed, &added).map_err(GroupError::Skip)?;
        Ok(Some((removed, added)))
    }

    /// The change of an empty group: one changed obstacle with no other obstacle and no
    /// boundary edge near it before or after the change (nothing within [`GROUP_MARGIN`]
    /// of its boxes), each of its shapes a strictly convex ring (or none). `None` when
    /// that is not the case (the group is normalized).
    ///
    /// The group's normalization would be the boundary and this one ring. Nothing comes
    /// near the ring (the premise of the group method: an edge is only split where the
    /// box of another edge meets it), so its edges are split nowhere and it is either all
    /// in the free space (inside the boundary: a vertex is tested exactly) or all
    /// outside it. Inside, the free-space edges along it are its edges directed with the
    /// free space on their left, which the clockwise input ring already is (obstacle
    /// exteriors are clockwise), and the straight chains through vertices that no other
    /// wall touches are merged: each wall is a maximal straight run of the ring, from one
    /// corner (a strict turn) to the next. The boundary's walls far from the ring are the
    /// same before and after. So the walls removed are the old ring's runs, the walls
    /// added the new ring's, and runs that are the same in both cancel (the unit test
    /// `isolated_rings_match_normalization` compares with `normalize`).
    fn isolated_change(
        &self,
        snapped: &[(ObstacleId, Option<Snapped>)],
    ) -> Option<(Vec<WallKey>, Vec<WallKey>)> {
        let [(id, new)] = snapped else {
            return None;
        };
        let runs = |s: Option<&Snapped>| -> Option<Vec<WallKey>> {
            let Some(s) = s else {
                return Some(Vec::new());
            };
            let walls = convex_ring_walls(&s.inputs)?;
            let inside = self.inside_boundary(s.inputs[0].a);
            Some(if inside { walls } else { Vec::new() })
        };
        let mut old = runs(self.obstacles.get(id))?;
        let mut new = runs(new.as_ref())?;
        old.sort_unstable();
        new.sort_unstable();
        Some(sorted_difference(&old, &new))
    }

    /// Whether `p`, a grid point on no boundary edge, lies inside the boundary.
    fn inside_boundary(&self, p: GridPoint) -> bool {
        inside_rings(&self.boundary, p) == Some(true)
    }

    /// Whether normalization's fast path for interior-disjoint rings is sure to fail for
    /// this group even though no changed edge properly crosses another (then the group
    /// goes to the overlay at once; both routes give the same walls, so this only
    /// chooses the cost). Measured on the city's 200 moves, the fast path failed for 19
    /// of 20 groups of three or more members (buildings that touch or overlap one
    /// another), so those go to the overlay. For two members, it fails when they meet.
    /// For any group, it fails when a changed obstacle and a member overlap: a vertex of
    /// one lies strictly inside the other (the hexagon inside a building, where no edges
    /// meet but the winding number is 2).
    fn fast_path_doomed(
        &self,
        members: &BTreeSet<ObstacleId>,
        snapped: &[(ObstacleId, Option<Snapped>)],
    ) -> bool {
        if members.len() >= 3 {
            return true;
        }
        let member = |id: &ObstacleId| self.obstacles.get(id);
        if let [m, n] = members.iter().filter_map(member).collect::<Vec<_>>()[..] {
            let meet = m.inputs.iter().any(|i| {
                let (lo, hi) = bbox(i.a, i.b);
                n.inputs.iter().any(|j| {
                    boxes_meet((lo, hi), bbox(j.a, j.b))
                        && segments_intersect_grid(i.a, i.b, j.a, j.b)
                })
            });
            if meet {
                return true;
            }
        }
        let inside = |s: &Snapped, p: GridPoint| {
            p.x as i64 > s.min[0]
                && (p.x as i64) < s.max[0]
                && p.y as i64 > s.min[1]
                && (p.y as i64) < s.max[1]
                && s.inputs.iter().all(|i| i.kind == Kind::Ring)
                && inside_rings(&s.inputs, p) == Some(true)
        };
        for (_, new) in snapped {
            let Some(s) = new else { continue };
            for m in members.iter().filter_map(member) {
                let (Some(a), Some(b)) = (s.inputs.first(), m.inputs.first()) else {
                    continue;
                };
                if inside(m, a.a) || inside(s, b.a) {
                    return true;
                }
            }
        }
        false
    }

    /// Every input edge (of the boundary and of the obstacles) whose box meets `envelope`:
    /// what an R-tree over all input edges would report, in another order. An obstacle's
    /// edges lie in its box, so looking them up through `boxes` misses none.
    fn inputs_meeting(&self, envelope: AABB<[i64; 2]>) -> impl Iterator<Item = Input> + '_ {
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

    /// Whether an edge of a changed obstacle (after the change) crosses an edge of a
    /// group member, of the boundary part in the group, or of another changed obstacle
    /// at a point inside both (a proper crossing: the four orientations are strict).
    fn changed_edges_cross(
        &self,
        members: &BTreeSet<ObstacleId>,
        boundary_edges: &HashSet<usize>,
        snapped: &[(ObstacleId, Option<Snapped>)],
    ) -> bool {
        let proper = |a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint| {
            let opposite = |x: Orientation, y: Orientation| {
                matches!(
                    (x, y),
                    (Orientation::Clockwise, Orientation::CounterClockwise)
                        | (Orientation::CounterClockwise, Orientation::Clockwise)
                )
            };
            opposite(orient_grid(a, b, c), orient_grid(a, b, d))
                && opposite(orient_grid(c, d, a), orient_grid(c, d, b))
        };
        fn edges_of(
            s: &Snapped,
        ) -> impl Iterator<Item = (GridPoint, GridPoint, Option<ObstacleId>)> + '_ {
            s.inputs
                .iter()
                .filter(|i| i.kind != Kind::Point)
                .map(|i| (i.a, i.b, i.owner))
        }
        let mut others: Vec<(GridPoint, GridPoint, Option<ObstacleId>)> = Vec::with_capacity(
            members
                .iter()
                .filter_map(|id| self.obstacles.get(id))
                .map(|s| s.inputs.len())
                .sum::<usize>()
                + boundary_edges.len(),
        );
        for id in members {
            if let Some(s) = self.obstacles.get(id) {
                others.extend(edges_of(s));
            }
        }
        others.extend(boundary_edges.iter().map(|&k| {
            let e = self.boundary[k];
            (e.a, e.b, None)
        }));
        let mut changed: Vec<(GridPoint, GridPoint, Option<ObstacleId>)> = Vec::with_capacity(
            snapped
                .iter()
                .filter_map(|(_, new)| new.as_ref())
                .map(|s| s.inputs.len())
                .sum(),
        );
        for (_, new) in snapped {
            if let Some(s) = new {
                changed.extend(edges_of(s));
            }
        }
        for (n, &(a, b, owner)) in changed.iter().enumerate() {
            let (lo, hi) = bbox(a, b);
            let against = others.iter().chain(changed[n + 1..].iter());
            for &(c, d, other) in against {
                if other == owner && other.is_some() {
                    continue;
                }
                if boxes_meet((lo, hi), bbox(c, d)) && proper(a, b, c, d) {
                    return true;
                }
            }
        }
        false
    }

    // -----------------------------------------------------------------------------------
    // Window.

    fn window(&self, snapped: &[(ObstacleId, Option<Snapped>)]) -> Result<Change, Skip> {
        let edited: HashSet<ObstacleId> = snapped.iter().map(|(id, _)| *id).collect();
        let mut min = [i64::MAX; 2];
        let mut max = [i64::MIN; 2];
        for (id, new) in snapped {
            for s in [self.obstacles.get(id), new.as_ref()].into_iter().flatten() {
                if !s.rectilinear {
                    return Err("a changed obstacle has slanted edges".into());
                }
                if s.has_box() {
                    min = [min[0].min(s.min[0]), min[1].min(s.min[1])];
                    max = [max[0].max(s.max[0]), max[1].max(s.max[1])];
                }
            }
        }
        if min[0] > max[0] {
            return Err("nothing to place".into());
        }
        let new_inputs: Vec<Input> = snapped
            .iter()
            .filter_map(|(_, s)| s.as_ref())
            .flat_map(|s| s.inputs.iter().copied())
            .collect();
        let limit = SnapGrid::MAX_GRID_COORDINATE as i64;
        let reach = WINDOW_MARGIN + WINDOW_SHIFTS + GROUP_MARGIN;
        let outer = AABB::from_corners(
            [min[0] - reach, min[1] - reach],
            [max[0] + reach, max[1] + reach],
        );
        // Everything near the window, before the change (the edited obstacles' old edges
        // included) and the new edges.
        let near: Vec<Input> = self.inputs_meeting(outer).collect();
        if near.len() > 4096 {
            return Err("too many edges near the change".into());
        }
        let everything = near.iter().chain(&new_inputs);
        let mut xs: HashSet<i64> = HashSet::default();
        let mut ys: HashSet<i64> = HashSet::default();
        for i in everything.clone() {
            if i.kind != Kind::Point && !i.axis_parallel() {
                return Err("slanted edges near the change".into());
            }
            for p in [i.a, i.b] {
                xs.insert(p.x as i64);
                ys.insert(p.y as i64);
            }
        }
        // No slanted edge may come near an edge that reaches the window (it could bend
        // that edge's pieces by rounding).
        if self.small_obstacles > 0 || self.slanted_edges.size() > 0 {
            for i in everything.clone() {
                let (lo, hi) = bbox(i.a, i.b);
                let env = AABB::from_corners(
                    [lo[0] - GROUP_MARGIN, lo[1] - GROUP_MARGIN],
                    [hi[0] + GROUP_MARGIN, hi[1] + GROUP_MARGIN],
                );
                let edges = || {
                    self.slanted_edges
                        .locate_in_envelope_intersecting(env)
                        .any(|s| !edited.contains(&s.data.owner.unwrap_or(ObstacleId(u32::MAX))))
                };
                let obstacle = || {
                    self.small_obstacles > 0
                        && self.boxes.locate_in_envelope_intersecting(env).any(|item| {
                            let s = &self.obstacles[&item.data];
                            s.is_small()
                                && !edited.contains(&item.data)
                                && s.inputs
                                    .iter()
                                    .any(|i| !i.axis_parallel() && box_meets(*i, &env))
                        })
                };
                if edges() || obstacle() {
                    return Err("a slanted edge is near an edge of the window".into());
                }
            }
        }
        // Sides of the box on lines without any input vertex.
        let pick = |start: i64, step: i64, used: &HashSet<i64>| -> Option<i64> {
            (0..=WINDOW_SHIFTS)
                .map(|k| start + step * k)
                .find(|c| !used.contains(c) && c.abs() < limit)
        };
        let (Some(x0), Some(x1), Some(y0), Some(y1)) = (
            pick(min[0] - WINDOW_MARGIN, -1, &xs),
            pick(max[0] + WINDOW_MARGIN, 1, &xs),
            pick(min[1] - WINDOW_MARGIN, -1, &ys),
            pick(max[1] + WINDOW_MARGIN, 1, &ys),
        ) else {
            return Err("no free line for a side of the window".into());
        };
        let bx = Box2 { x0, y0, x1, y1 };
        let inside = |i: &Input| {
            let (lo, hi) = bbox(i.a, i.b);
            lo[0] <= x1 && hi[0] >= x0 && lo[1] <= y1 && hi[1] >= y0
        };
        let new_local: Vec<Input> = near
            .iter()
            .filter(|i| !i.owner.is_some_and(|o| edited.contains(&o)))
            .chain(&new_inputs)
            .copied()
            .filter(inside)
            .collect();
        let new_walls = self
            .local_walls(
                &bx,
                &new_local,
                |i| !i.owner.is_some_and(|o| edited.contains(&o)),
                &new_inputs,
                false,
            )
            .map_err(|e| format!("the window did not normalize after the change: {e}"))?;
        // The walls before the change are the current walls clipped to the box: the
        // window's normalization of the state before the change would give exactly these
        // (see "Why the window needs no normalization before the change" on
        // [`WallMap`]), so it is not run.
        let mut clipped_to_global: HashMap<WallKey, WallKey> = HashMap::default();
        for w in self.walls.in_box([x0, y0], [x1, y1]) {
            if let Some(c) = bx.clip(w)? {
                clipped_to_global.insert(c, w);
            }
        }
        let old_walls: HashSet<WallKey> = clipped_to_global.keys().copied().collect();
        let mut removed: Vec<WallKey> = old_walls
            .difference(&new_walls)
            .map(|w| clipped_to_global[w])
            .collect();
        removed.sort_unstable();
        removed.dedup();
        let mut added: Vec<WallKey> = Vec::new();
        for v in new_walls.difference(&old_walls) {
            let WallKey::Segment { a, b, two_sided } = *v else {
                added.push(*v);
                continue;
            };
            let extend = |p: GridPoint, forward: bool| -> Result<GridPoint, Skip> {
                if !bx.on_border(p) {
                    return Ok(p);
                }
                for w in &removed {
                    let WallKey::Segment {
                        a: wa,
                        b: wb,
                        two_sided: ts,
                    } = *w
                    else {
                        continue;
                    };
                    if ts != two_sided
                        || orient_grid(a, b, wa) != Orientation::Collinear
                        || orient_grid(a, b, wb) != Orientation::Collinear
                        || !on_segment(p, wa, wb)
                    {
                        continue;
                    }
                    // Same direction along the line.
                    let same = (b.x as i64 - a.x as i64) * (wb.x as i64 - wa.x as i64)
                        + (b.y as i64 - a.y as i64) * (wb.y as i64 - wa.y as i64)
                        > 0;
                    if !same {
                        continue;
                    }
                    let far = if forward { wb } else { wa };
                    if far != p {
                        return Ok(far);
                    }
                }
                Err(format!("no wall continues the new wall at {p:?}"))
            };
            added.push(WallKey::Segment {
                a: extend(a, false)?,
                b: extend(b, true)?,
                two_sided,
            });
        }
        added.sort_unstable();
        added.dedup();
        // Every removed wall's parts outside the box come back.
        let ends: HashSet<GridPoint> = added
            .iter()
            .flat_map(|k| {
                let (a, b) = k.ends();
                [a, b]
            })
            .collect();
        for w in &removed {
            let (a, b) = w.ends();
            for p in [a, b] {
                if !bx.contains(p) && !ends.contains(&p) {
                    return Err(format!(
                        "the part of a wall outside the window at {p:?} is lost"
                    ));
                }
            }
        }
        self.check(&removed, &added)?;
        Ok((removed, added))
    }

    /// The walls inside the box for the inputs that meet it (`keep` filters the tree's
    /// inputs for the ray cast, `extra` are inputs not in the tree), without the walls on
    /// the box's sides.
    ///
    /// When every input in the box is a ring edge (no points, no open edges), the walls
    /// are read off the blocked intervals of the slabs directly ([`walls_of_slabs`]);
    /// else, or when `force_normalize` is set, the box and its blocked rectangles are
    /// normalized as a small environment.
    fn local_walls(
        &self,
        bx: &Box2,
        local: &[Input],
        keep: impl Fn(&Input) -> bool,
        extra: &[Input],
        force_normalize: bool,
    ) -> Result<HashSet<WallKey>, NormalizeError> {
        let Box2 { x0, y0, x1, y1 } = *bx;
        // Slabs between the y's of the vertices strictly inside the box.
        let mut ys: Vec<i64> = vec![y0, y1];
        for i in local.iter().filter(|i| i.kind == Kind::Ring) {
            for p in [i.a, i.b] {
                let y = p.y as i64;
                if y > y0 && y < y1 {
                    ys.push(y);
                }
            }
        }
        ys.sort_unstable();
        ys.dedup();
        // Vertical ring edges inside the box: (x, y low, y high, winding step moving left).
        let mut verticals: Vec<(i64, i64, i64, i32)> = Vec::new();
        // Horizontal ring edges across the right side: (y, winding step moving up).
        let mut crossings: Vec<(i64, i32)> = Vec::new();
        for i in local.iter().filter(|i| i.kind == Kind::Ring) {
            let (a, b) = (i.a, i.b);
            if a.x == b.x {
                let x = a.x as i64;
                if x > x0 && x < x1 {
                    let up = b.y > a.y;
                    verticals.push((
                        x,
                        a.y.min(b.y) as i64,
                        a.y.max(b.y) as i64,
                        if up { 1 } else { -1 },
                    ));
                }
            } else if a.y == b.y {
                let y = a.y as i64;
                let (lo, hi) = (a.x.min(b.x) as i64, a.x.max(b.x) as i64);
                if y > y0 && y < y1 && lo < x1 && hi > x1 {
                    crossings.push((y, if b.x > a.x { 1 } else { -1 }));
                }
            }
        }
        verticals.sort_unstable_by_key(|v| std::cmp::Reverse(v.0));
        // Winding number on the right side of the first slab, by an exact ray cast.
        let py2 = ys[0] + ys[1];
        let mut right = self.winding_right_of(2 * x1, py2, &keep, extra);
        // The blocked intervals of every slab, ascending and maximal.
        let mut slabs: Vec<Vec<(i64, i64)>> = Vec::with_capacity(ys.len() - 1);
        for k in 0..ys.len() - 1 {
            let (ya, yb) = (ys[k], ys[k + 1]);
            if k > 0 {
                right += crossings
                    .iter()
                    .filter(|(y, _)| *y == ya)
                    .map(|(_, s)| *s)
                    .sum::<i32>();
            }
            let mut blocked: Vec<(i64, i64)> = Vec::new();
            let mut w = right;
            let mut x = x1;
            let mut idx = 0;
            let spanning: Vec<&(i64, i64, i64, i32)> = verticals
                .iter()
                .filter(|v| v.1 <= ya && v.2 >= yb)
                .collect();
            while idx <= spanning.len() {
                let next = spanning.get(idx).map(|v| v.0).unwrap_or(x0);
                if next < x && w <= 0 {
                    match blocked.last_mut() {
                        Some(last) if last.0 == x => last.0 = next,
                        _ => blocked.push((next, x)),
                    }
                }
                x = next;
                if idx == spanning.len() {
                    break;
                }
                while idx < spanning.len() && spanning[idx].0 == x {
                    w += spanning[idx].3;
                    idx += 1;
                }
            }
            blocked.reverse();
            slabs.push(blocked);
        }
        if !force_normalize && local.iter().all(|i| i.kind == Kind::Ring) {
            return Ok(walls_of_slabs(bx, &ys, &slabs));
        }
        // Blocked rectangles: intervals blocked in the same way in consecutive slabs are
        // one rectangle.
        let mut rects: Vec<(i64, i64, i64, i64)> = Vec::new();
        // Open blocked rectangles: (x low, x high) -> y start.
        let mut open: Vec<(i64, i64, i64)> = Vec::new();
        for (k, blocked) in slabs.into_iter().enumerate() {
            let ya = ys[k];
            let mut next_open = Vec::with_capacity(blocked.len());
            for (lo, hi) in blocked {
                match open.iter().position(|o| o.0 == lo && o.1 == hi) {
                    Some(j) => next_open.push(open.swap_remove(j)),
                    None => next_open.push((lo, hi, ya)),
                }
            }
            for (lo, hi, start) in open.drain(..) {
                rects.push((lo, start, hi, ya));
            }
            open = next_open;
        }
        for (lo, hi, start) in open {
            rects.push((lo, start, hi, y1));
        }
        let grid = self.grid;
        let user = |x: i64, y: i64| grid.to_point(GridPoint::new(x as i32, y as i32));
        let mut sub = Environment::rectangle(user(x0, y0), user(x1, y1)).with_snap_grid(grid);
        for (xa, ya, xb, yb) in rects {
            sub.insert(Obstacle::rectangle(user(xa, ya), user(xb, yb)));
        }
        for i in local {
            match i.kind {
                Kind::Ring => {}
                Kind::Point => {
                    let p = (i.a.x as i64, i.a.y as i64);
                    if p.0 > x0 && p.0 < x1 && p.1 > y0 && p.1 < y1 {
                        sub.insert(Obstacle::Point(user(p.0, p.1)));
                    }
                }
                Kind::Open => {
                    // Axis-parallel: clipping keeps the grid.
                    let clamp =
                        |p: GridPoint| ((p.x as i64).clamp(x0, x1), (p.y as i64).clamp(y0, y1));
                    let (a, b) = (clamp(i.a), clamp(i.b));
                    if a != b {
                        sub.insert(Obstacle::Polyline(vec![user(a.0, a.1), user(b.0, b.1)]));
                    }
                }
            }
        }
        let walls = normalize(&sub)?;
        Ok(WallKey::all(&walls)
            .filter(|k| !bx.along_side(*k))
            .collect())
    }

    /// The winding number (boundary +1 inside, obstacles −1 inside) at the point with
    /// doubled coordinates `(px2, py2)`, which lies on no input edge.
    fn winding_right_of(
        &self,
        px2: i64,
        py2: i64,
        keep: &impl Fn(&Input) -> bool,
        extra: &[Input],
    ) -> i32 {
        let (ylo, yhi) = (py2.div_euclid(2), (py2 + 1).div_euclid(2));
        let envelope = AABB::from_corners([px2.div_euclid(2), ylo], [i64::MAX / 4, yhi]);
        let step = |i: &Input| -> i32 {
            if i.kind != Kind::Ring {
                return 0;
            }
            let (ax, ay) = (2 * i.a.x as i128, 2 * i.a.y as i128);
            let (bx, by) = (2 * i.b.x as i128, 2 * i.b.y as i128);
            let (px, py) = (px2 as i128, py2 as i128);
            let side = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
            if ay <= py {
                if by > py && side > 0 {
                    return 1;
                }
            } else if by <= py && side < 0 {
                return -1;
            }
            0
        };
        let tree: i32 = self
            .inputs_meeting(envelope)
            .filter(|i| keep(i))
            .map(|i| step(&i))
            .sum();
        tree + extra.iter().map(step).sum::<i32>()
    }

    // -----------------------------------------------------------------------------------
    // Checks.

    /// The removed walls exist, the added ones do not (unless removed too), and no added
    /// wall meets another wall away from a shared endpoint.
    fn check(&self, removed: &[WallKey], added: &[WallKey]) -> Result<(), Skip> {
        let gone: HashSet<WallKey> = removed.iter().copied().collect();
        for k in removed {
            if !self.walls.contains(k) {
                return Err(format!("a removed wall {k:?} is not in the map"));
            }
        }
        // A few added walls (a moved obstacle) are tested against the walls near all of
        // them, found in one query; many, each against the walls near it.
        let near_all: Option<Vec<(WallKey, AABB<[i64; 2]>)>> = (added.len() <= 16)
            .then(|| {
                let mut it = added.iter().map(|k| k.envelope());
                let first = it.next()?;
                let env = it.fold(first, |e, f| e.merged(&f));
                Some(
                    self.walls
                        .in_box(env.lower(), env.upper())
                        .filter(|w| !gone.contains(w))
                        .map(|w| (w, w.envelope()))
                        .collect(),
                )
            })
            .flatten();
        for (n, k) in added.iter().enumerate() {
            if matches!(*k, WallKey::Segment { a, b, .. } if a == b) {
                return Err(format!("the added wall {k:?} has zero length"));
            }
            if self.walls.contains(k) && !gone.contains(k) {
                return Err(format!("an added wall {k:?} is already in the map"));
            }
            let env = k.envelope();
            let meets = |w: &WallKey| {
                if conflict(*k, *w) {
                    Err(format!("the added wall {k:?} meets the wall {w:?}"))
                } else {
                    Ok(())
                }
            };
            match &near_all {
                Some(near) => {
                    for (w, e) in near {
                        if e.intersects(&env) {
                            meets(w)?;
                        }
                    }
                }
                None => {
                    for w in self
                        .walls
                        .in_box(env.lower(), env.upper())
                        .filter(|w| !gone.contains(w))
                    {
                        meets(&w)?;
                    }
                }
            }
            for w in &added[n + 1..] {
                meets(w)?;
            }
        }
        Ok(())
    }
}

enum GroupError {
    Skip(Skip),
    Normalize(NormalizeError),
}

/// The walls inside the window box, without those on its sides, when its inputs are ring
/// edges only: the edges of the free part of the box (the box less the blocked intervals
/// of its slabs), directed with the free space on their left, each a maximal straight
/// run. This is what normalizing the box and its blocked rectangles gives: with
/// axis-parallel edges on the grid nothing is rounded, and a vertex where a run goes
/// straight on in the same direction has exactly two walls (a third, horizontal, wall
/// there would need the free space to change across the vertical line on one side,
/// which a straight run with the free space on one side excludes), so normalization
/// merges the run through it; where two collinear walls of opposite directions meet (a
/// pinch) they stay apart. `ys` are the slabs' bounds, `slabs` the blocked intervals of
/// each, ascending and maximal.
fn walls_of_slabs(bx: &Box2, ys: &[i64], slabs: &[Vec<(i64, i64)>]) -> HashSet<WallKey> {
    let Box2 { x0, x1, .. } = *bx;
    let key = |a: (i64, i64), b: (i64, i64)| WallKey::Segment {
        a: GridPoint::new(a.0 as i32, a.1 as i32),
        b: GridPoint::new(b.0 as i32, b.1 as i32),
        two_sided: false,
    };
    let mut walls: HashSet<WallKey> = HashSet::default();
    // Vertical runs: (x, upwards, y low, y high), merged over consecutive slabs. The left
    // end of a blocked interval has the free space on its west (upwards), the right end
    // on its east (downwards).
    let mut pieces: Vec<(i64, bool, i64, i64)> = Vec::new();
    for (k, blocked) in slabs.iter().enumerate() {
        let (ya, yb) = (ys[k], ys[k + 1]);
        for &(lo, hi) in blocked {
            if lo > x0 {
                pieces.push((lo, true, ya, yb));
            }
            if hi < x1 {
                pieces.push((hi, false, ya, yb));
            }
        }
    }
    pieces.sort_unstable();
    let mut i = 0;
    while i < pieces.len() {
        let (x, up, lo, mut hi) = pieces[i];
        let mut j = i + 1;
        while j < pieces.len() && pieces[j].0 == x && pieces[j].1 == up && pieces[j].2 == hi {
            hi = pieces[j].3;
            j += 1;
        }
        walls.insert(if up {
            key((x, lo), (x, hi))
        } else {
            key((x, hi), (x, lo))
        });
        i = j;
    }
    // Horizontal runs on the slab bounds strictly inside the box: where the slab below
    // and the slab above differ. Free above (blocked below): eastwards; free below:
    // westwards.
    let inside = |list: &[(i64, i64)], a: i64, b: i64| list.iter().any(|&(l, h)| l <= a && b <= h);
    for k in 1..slabs.len() {
        let y = ys[k];
        let (below, above) = (&slabs[k - 1], &slabs[k]);
        let mut xs: Vec<i64> = below
            .iter()
            .chain(above)
            .flat_map(|&(l, h)| [l, h])
            .collect();
        xs.sort_unstable();
        xs.dedup();
        // The current run: (start, eastwards).
        let mut run: Option<(i64, bool)> = None;
        let mut flush = |run: &mut Option<(i64, bool)>, end: i64| {
            if let Some((start, east)) = run.take() {
                walls.insert(if east {
                    key((start, y), (end, y))
                } else {
                    key((end, y), (start, y))
                });
            }
        };
        for w in xs.windows(2) {
            let (a, b) = (w[0], w[1]);
            let (bl, ab) = (inside(below, a, b), inside(above, a, b));
            let kind = (bl != ab).then_some(bl);
            match (run, kind) {
                (Some((_, east)), Some(k)) if east == k => {}
                (_, kind) => {
                    flush(&mut run, a);
                    run = kind.map(|k| (a, k));
                }
            }
        }
        if let Some(&last) = xs.last() {
            flush(&mut run, last);
        }
    }
    walls
}

/// Whether the box of an input edge meets `envelope` (as its R-tree entry would).
fn box_meets(i: Input, envelope: &AABB<[i64; 2]>) -> bool {
    let (lo, hi) = bbox(i.a, i.b);
    AABB::from_corners(lo, hi).intersects(envelope)
}

/// Whether two closed boxes `(min, max)` share a point.
fn boxes_meet((lo, hi): ([i64; 2], [i64; 2]), (l, h): ([i64; 2], [i64; 2])) -> bool {
    lo[0] <= h[0] && hi[0] >= l[0] && lo[1] <= h[1] && hi[1] >= l[1]
}

/// The bounding box of two points.
fn bbox(a: GridPoint, b: GridPoint) -> ([i64; 2], [i64; 2]) {
    (
        [a.x.min(b.x) as i64, a.y.min(b.y) as i64],
        [a.x.max(b.x) as i64, a.y.max(b.y) as i64],
    )
}

/// The box of the window method (grid coordinates).
#[derive(Clone, Copy, Debug)]
struct Box2 {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl Box2 {
    fn contains(&self, p: GridPoint) -> bool {
        let (x, y) = (p.x as i64, p.y as i64);
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }

    fn on_border(&self, p: GridPoint) -> bool {
        let (x, y) = (p.x as i64, p.y as i64);
        self.contains(p) && (x == self.x0 || x == self.x1 || y == self.y0 || y == self.y1)
    }

    /// Whether a wall lies along a side of the box.
    fn along_side(&self, k: WallKey) -> bool {
        let (a, b) = k.ends();
        let (ax, ay, bx, by) = (a.x as i64, a.y as i64, b.x as i64, b.y as i64);
        (ax == bx && (ax == self.x0 || ax == self.x1))
            || (ay == by && (ay == self.y0 || ay == self.y1))
    }

    /// The part of an axis-parallel wall inside the box (same direction), `None` when it
    /// has no part of positive length there (or, for a point, is not strictly inside).
    fn clip(&self, k: WallKey) -> Result<Option<WallKey>, Skip> {
        match k {
            WallKey::Point(p) => {
                let (x, y) = (p.x as i64, p.y as i64);
                Ok((x > self.x0 && x < self.x1 && y > self.y0 && y < self.y1).then_some(k))
            }
            WallKey::Segment { a, b, two_sided } => {
                let c = |p: GridPoint| {
                    GridPoint::new(
                        (p.x as i64).clamp(self.x0, self.x1) as i32,
                        (p.y as i64).clamp(self.y0, self.y1) as i32,
                    )
                };
                if a.x == b.x {
                    let x = a.x as i64;
                    if x <= self.x0 || x >= self.x1 {
                        return Ok(None);
                    }
                } else if a.y == b.y {
                    let y = a.y as i64;
                    if y <= self.y0 || y >= self.y1 {
                        return Ok(None);
                    }
                } else {
                    return Err("a slanted wall in the window".into());
                }
                let (ca, cb) = (c(a), c(b));
                Ok((ca != cb).then_some(WallKey::Segment {
                    a: ca,
                    b: cb,
                    two_sided,
                }))
            }
        }
    }
}

/// The keys of `old` not in `new` and those of `new` not in `old` (both sorted, without
/// repeats; so are the results).
fn sorted_difference(old: &[WallKey], new: &[WallKey]) -> Change {
    let (mut removed, mut added) = (Vec::with_capacity(old.len()), Vec::with_capacity(new.len()));
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                removed.push(*a);
                i += 1;
            }
            (Some(a), None) => {
                removed.push(*a);
                i += 1;
            }
            (_, Some(b)) => {
                added.push(*b);
                j += 1;
            }
            (None, None) => break,
        }
    }
    (removed, added)
}

/// Whether `p` lies inside the closed rings `edges` by the even-odd rule (crossings of a
/// ray to the right, exact); `None` when `p` lies on one of the edges.
fn inside_rings(edges: &[Input], p: GridPoint) -> Option<bool> {
    let mut inside = false;
    for e in edges {
        let (a, b) = (e.a, e.b);
        let side = orient_grid(a, b, p);
        if side == Orientation::Collinear && on_segment(p, a, b) {
            return None;
        }
        if (a.y > p.y) != (b.y > p.y) {
            // Upward, the ray crosses when `p` is left of the edge; downward, right.
            let upward = b.y > a.y;
            if (upward && side == Orientation::CounterClockwise)
                || (!upward && side == Orientation::Clockwise)
            {
                inside = !inside;
            }
        }
    }
    Some(inside)
}

/// The walls of a ring (clockwise input edges, as [`push_ring`] gives them) that is a
/// strictly convex polygon once straight vertices are dropped, when nothing else is near
/// it: its maximal straight runs, directed as the ring. `None` for anything else (open
/// edges or points, more than one ring, a counter-clockwise or reflex turn, a spike,
/// a repeated vertex, fewer than three corners).
fn convex_ring_walls(inputs: &[Input]) -> Option<Vec<WallKey>> {
    let n = inputs.len();
    if !(3..=4 * SMALL_OBSTACLE).contains(&n) {
        return None;
    }
    for (k, i) in inputs.iter().enumerate() {
        if i.kind != Kind::Ring || i.b != inputs[(k + 1) % n].a {
            return None;
        }
    }
    let v = |k: usize| inputs[k % n].a;
    let mut corners: Vec<GridPoint> = Vec::with_capacity(n);
    for k in 0..n {
        let (p, q, r) = (v(k + n - 1), v(k), v(k + 1));
        match orient_grid(p, q, r) {
            Orientation::Clockwise => corners.push(q),
            Orientation::CounterClockwise => return None,
            Orientation::Collinear => {
                let dot = (q.x as i64 - p.x as i64) * (r.x as i64 - q.x as i64)
                    + (q.y as i64 - p.y as i64) * (r.y as i64 - q.y as i64);
                if dot <= 0 {
                    return None;
                }
            }
        }
    }
    let m = corners.len();
    if m < 3 {
        return None;
    }
    // Every corner strictly right of every edge between two other corners: a strictly
    // convex polygon, traversed once, clockwise (so simple, and the straight vertices
    // dropped lie on its edges).
    for j in 0..m {
        let (a, b) = (corners[j], corners[(j + 1) % m]);
        for (k, &c) in corners.iter().enumerate() {
            if k != j && k != (j + 1) % m && orient_grid(a, b, c) != Orientation::Clockwise {
                return None;
            }
        }
    }
    Some(
        (0..m)
            .map(|j| WallKey::Segment {
                a: corners[j],
                b: corners[(j + 1) % m],
                two_sided: false,
            })
            .collect(),
    )
}

/// Whether `p` lies on the closed segment `a b` (exact).
fn on_segment(p: GridPoint, a: GridPoint, b: GridPoint) -> bool {
    orient_grid(a, b, p) == Orientation::Collinear
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

/// Whether two walls meet where the [`Walls`] guarantees forbid it.
fn conflict(k: WallKey, w: WallKey) -> bool {
    if k == w {
        return true;
    }
    match (k, w) {
        (WallKey::Point(p), WallKey::Point(q)) => p == q,
        (WallKey::Point(p), WallKey::Segment { a, b, .. })
        | (WallKey::Segment { a, b, .. }, WallKey::Point(p)) => on_segment(p, a, b),
        (WallKey::Segment { a, b, .. }, WallKey::Segment { a: c, b: d, .. }) => {
            if !segments_intersect_grid(a, b, c, d) {
                return false;
            }
            let (p, q, r) = match (a == c, a == d, b == c, b == d) {
                (true, false, false, false) => (a, b, d),
                (false, true, false, false) => (a, b, c),
                (false, false, true, false) => (b, a, d),
                (false, false, false, true) => (b, a, c),
                _ => return true,
            };
            orient_grid(p, q, r) == Orientation::Collinear
                && (q.x as i64 - p.x as i64) * (r.x as i64 - p.x as i64)
                    + (q.y as i64 - p.y as i64) * (r.y as i64 - p.y as i64)
                    > 0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: i64) -> i64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as i64
        }
    }

    /// The window's walls read off the slabs are those of normalizing the box with its
    /// blocked rectangles, and both are the full normalization's walls clipped to the
    /// box, on random rectilinear maps (overlapping and touching rectangles, pinches,
    /// boxes cutting through them).
    #[test]
    fn window_walls_from_slabs_match_normalization() {
        let grid = SnapGrid::new(1.0).unwrap();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut boxes, mut compared) = (0, 0);
        for round in 0..300 {
            let size = 24 + rng.below(24);
            let mut env =
                Environment::rectangle(Point::ZERO, Point::splat(size as f64)).with_snap_grid(grid);
            for _ in 0..(2 + rng.below(14)) {
                let (x, y) = (rng.below(size - 1), rng.below(size - 1));
                let (w, h) = (1 + rng.below(8), 1 + rng.below(8));
                let (xb, yb) = ((x + w).min(size), (y + h).min(size));
                env.insert(Obstacle::rectangle(
                    Point::new(x as f64, y as f64),
                    Point::new(xb as f64, yb as f64),
                ));
            }
            let (map, walls) = WallMap::new(&env).unwrap();
            let all: Vec<WallKey> = WallKey::all(&walls).collect();
            let inputs: Vec<Input> = map
                .boundary
                .iter()
                .copied()
                .chain(
                    map.obstacles
                        .values()
                        .flat_map(|s| s.inputs.iter().copied()),
                )
                .collect();
            let used_x: HashSet<i64> = inputs
                .iter()
                .flat_map(|i| [i.a.x as i64, i.b.x as i64])
                .collect();
            let used_y: HashSet<i64> = inputs
                .iter()
                .flat_map(|i| [i.a.y as i64, i.b.y as i64])
                .collect();
            for _ in 0..4 {
                let pick = |rng: &mut Rng, used: &HashSet<i64>| loop {
                    let c = rng.below(size + 8) - 4;
                    if !used.contains(&c) {
                        return c;
                    }
                };
                let (a, b) = (pick(&mut rng, &used_x), pick(&mut rng, &used_x));
                let (c, d) = (pick(&mut rng, &used_y), pick(&mut rng, &used_y));
                if a == b || c == d {
                    continue;
                }
                let bx = Box2 {
                    x0: a.min(b),
                    x1: a.max(b),
                    y0: c.min(d),
                    y1: c.max(d),
                };
                let local: Vec<Input> = inputs
                    .iter()
                    .copied()
                    .filter(|i| {
                        let (lo, hi) = bbox(i.a, i.b);
                        lo[0] <= bx.x1 && hi[0] >= bx.x0 && lo[1] <= bx.y1 && hi[1] >= bx.y0
                    })
                    .collect();
                let direct = map.local_walls(&bx, &local, |_| true, &[], false).unwrap();
                let normalized = map.local_walls(&bx, &local, |_| true, &[], true).unwrap();
                let clipped: HashSet<WallKey> =
                    all.iter().filter_map(|w| bx.clip(*w).unwrap()).collect();
                assert_eq!(direct, normalized, "round {round}, box {bx:?}");
                assert_eq!(direct, clipped, "round {round}, box {bx:?}");
                boxes += 1;
                compared += direct.len();
            }
        }
        assert!(
            boxes > 1000 && compared > 4 * boxes,
            "{boxes} boxes, {compared} walls"
        );
    }

    /// A random polygon around `(cx, cy)`: `k` vertices on a circle of radius `r` at
    /// random angles, sometimes with an extra vertex halfway along an edge, sometimes
    /// counter-clockwise, sometimes a star (reflex vertices).
    fn random_ring(rng: &mut Rng, cx: f64, cy: f64, r: f64) -> Obstacle {
        let k = 3 + rng.below(6) as usize;
        let mut angles: Vec<f64> = (0..k)
            .map(|_| rng.below(10_000) as f64 / 10_000.0 * std::f64::consts::TAU)
            .collect();
        angles.sort_by(f64::total_cmp);
        let star = rng.below(6) == 0;
        let mut pts: Vec<Point> = angles
            .iter()
            .enumerate()
            .map(|(j, a)| {
                let rr = if star && j % 2 == 1 { r * 0.3 } else { r };
                Point::new(cx + rr * a.cos(), cy + rr * a.sin())
            })
            .collect();
        if rng.below(3) == 0 {
            let j = rng.below(k as i64) as usize;
            let (p, q) = (pts[j], pts[(j + 1) % k]);
            pts.insert(j + 1, Point::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0));
        }
        if rng.below(2) == 0 {
            pts.reverse();
        }
        Obstacle::polygon(pts)
    }

    /// `convex_ring_walls` gives what `normalize` gives for one ring far from the
    /// boundary, whenever it gives anything: random convex rings (some with straight
    /// vertices, snapped on a coarse grid, so that some turn reflex or collapse), stars.
    #[test]
    fn isolated_rings_match_normalization() {
        let grid = SnapGrid::new(4.0).unwrap();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut direct, mut declined) = (0, 0);
        for _ in 0..2000 {
            let mut env =
                Environment::rectangle(Point::ZERO, Point::splat(100.0)).with_snap_grid(grid);
            let r = 0.3 + rng.below(400) as f64 / 40.0;
            let o = random_ring(&mut rng, 50.0, 50.0, r);
            let id = env.insert(o.clone());
            let Ok(walls) = normalize(&env) else {
                continue;
            };
            let ring: HashSet<WallKey> = walls
                .segments
                .iter()
                .filter(|w| w.sources[..] != [crate::WallSource::Boundary])
                .map(|w| WallKey::Segment {
                    a: w.a,
                    b: w.b,
                    two_sided: w.two_sided,
                })
                .chain(walls.points.iter().map(|(p, _)| WallKey::Point(*p)))
                .collect();
            let snapped = snap_obstacle(&grid, id, &o).unwrap();
            match convex_ring_walls(&snapped.inputs) {
                Some(w) => {
                    assert_eq!(w.iter().copied().collect::<HashSet<_>>(), ring, "{o:?}");
                    assert_eq!(w.len(), ring.len());
                    direct += 1;
                }
                None => declined += 1,
            }
        }
        assert!(
            direct > 1000 && declined > 200,
            "{direct} direct, {declined} declined"
        );
    }

    /// A ring moved, inserted and removed among a few far-apart obstacles: the map's walls
    /// after each change are the full normalization's, and the isolated-ring shortcut of
    /// the group method is taken often.
    #[test]
    fn isolated_moves_match_full_normalization() {
        let grid = SnapGrid::new(2.0).unwrap();
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        let mut env = Environment::rectangle(Point::ZERO, Point::splat(200.0)).with_snap_grid(grid);
        for _ in 0..6 {
            let (x, y) = (rng.below(180) as f64, rng.below(180) as f64);
            let (w, h) = (2.0 + rng.below(16) as f64, 2.0 + rng.below(16) as f64);
            env.insert(Obstacle::rectangle(
                Point::new(x, y),
                Point::new((x + w).min(200.0), (y + h).min(200.0)),
            ));
        }
        let (mut map, _) = WallMap::new(&env).unwrap();
        let mut id: Option<ObstacleId> = None;
        let mut isolated = 0;
        for step in 0..600 {
            let (cx, cy) = (rng.below(2000) as f64 / 10.0, rng.below(2000) as f64 / 10.0);
            let r = 0.5 + rng.below(80) as f64 / 10.0;
            let o = random_ring(&mut rng, cx, cy, r);
            let remove = id.is_some() && step % 7 == 3;
            let target = id.unwrap_or_else(|| env.next_id());
            let edit = ObstacleEdit {
                id: target,
                obstacle: (!remove).then_some(&o),
            };
            let Ok(delta) = map.plan(&env, &[edit]) else {
                continue;
            };
            let snapped = map.obstacles.get(&target).cloned();
            let new = delta.edits[0].1.clone();
            let near = |s: &Snapped| {
                let envelope = AABB::from_corners(
                    [s.min[0] - GROUP_MARGIN, s.min[1] - GROUP_MARGIN],
                    [s.max[0] + GROUP_MARGIN, s.max[1] + GROUP_MARGIN],
                );
                map.boxes
                    .locate_in_envelope_intersecting(envelope)
                    .any(|b| b.data != target)
                    || map
                        .edge_tree
                        .locate_in_envelope_intersecting(envelope)
                        .any(|i| i.data.owner.is_none())
            };
            let alone = [snapped.as_ref(), new.as_ref()]
                .into_iter()
                .flatten()
                .all(|s| !near(s) && convex_ring_walls(&s.inputs).is_some());
            if alone && delta.scope() == NormalizeScope::Group {
                isolated += 1;
            }
            map.apply(delta);
            if remove {
                env.remove(target);
                id = None;
            } else {
                env.insert_with_id(target, o);
                id = Some(target);
            }
            let full: HashSet<WallKey> = WallKey::all(&normalize(&env).unwrap()).collect();
            assert_eq!(
                map.walls().iter().collect::<HashSet<_>>(),
                full,
                "step {step}"
            );
        }
        assert!(isolated > 100, "{isolated} isolated changes");
    }
}
