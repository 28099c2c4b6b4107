//! What is free? The boundary of the free space as exact walls with free wedges.
//!
//! Obstacles given as interior-disjoint polygons (touching along edges or at corners, as
//! the cells of a grid map do) are merged exactly, without any new coordinates: every
//! polygon edge is split at the vertices lying on it, pieces that two polygons share
//! (or that a polygon shares with the outer boundary) cancel, and straight runs are
//! joined. What is left is a set of walls with the free space on their left (one-sided)
//! or on both sides (thin walls), and at every wall vertex the closed sectors of free
//! directions ([`Wedge`]s). All decisions use exact orientation tests.

use crate::angle::{angle_cmp, flip, Dir, Wedge, BOTH};
use crate::index::SegmentGrid;
use crate::ray::{along_ray_cmp, Place, Walk};
use crate::BuildError;
use corridor_geom::orient;
use corridor_geom::{
    point_on_segment, Aabb, Environment, Obstacle, ObstacleId, Orientation, Point, Ring, Segment,
};
use rustc_hash::FxHashMap as HashMap;
use std::cmp::Ordering;

/// One wall of the free space.
///
/// ```
/// use corridor_geom::{Environment, Point};
/// use corridor_visgraph::FreeSpace;
/// let env = Environment::rectangle(Point::ZERO, Point::new(4.0, 3.0));
/// let free = FreeSpace::from_environment(&env).unwrap();
/// // The boundary, counter-clockwise: the free space lies on the left of every wall.
/// assert_eq!(free.walls().count(), 4);
/// assert!(free.walls().all(|w| !w.two_sided));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wall {
    /// The wall from `segment.a` to `segment.b`.
    pub segment: Segment,
    /// Free space on both sides (a thin wall); otherwise only on the left of `a → b`.
    pub two_sided: bool,
    /// The obstacle the wall came from (`None` for the outer boundary).
    pub source: Option<ObstacleId>,
}

/// Where a point lies relative to the free space.
#[derive(Clone, Debug, PartialEq)]
pub enum PointClass {
    /// In the open free space.
    Free,
    /// On a wall; the free directions there. More than one wedge where obstacles touch at
    /// the point (a diagonal pinch) or on a thin wall.
    Boundary(Vec<Wedge>),
    /// Inside an obstacle; the owner of the nearest wall to the right, when known.
    Blocked(Option<ObstacleId>),
    /// Outside the environment's boundary.
    Outside,
}

impl PointClass {
    /// Whether a path may start or end here.
    pub fn is_free(&self) -> bool {
        matches!(self, PointClass::Free | PointClass::Boundary(_))
    }

    /// Whether a path may leave the point towards `to`.
    pub fn allows_towards(&self, to: Point) -> bool {
        self.sides_towards(to) != 0
    }

    /// On which sides of a path leaving towards `to` the free space lies (0: none).
    pub(crate) fn sides_towards(&self, to: Point) -> u8 {
        match self {
            PointClass::Free => BOTH,
            PointClass::Boundary(wedges) => wedges
                .iter()
                .fold(0, |s, w| s | w.sides_along(Dir::towards(to))),
            _ => 0,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct WallRec {
    pub a: u32,
    pub b: u32,
    pub two_sided: bool,
    pub source: Option<ObstacleId>,
}

/// The free space of an environment, as walls with exact free wedges at their vertices.
///
/// Points and wedges are numbered; a wedge is what a path can turn in, so the
/// visibility graph's nodes are wedges, not points.
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// use corridor_visgraph::{FreeSpace, PointClass};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(3.0, 3.0));
/// // Two cells touching at (1, 1) only diagonally.
/// env.insert(Obstacle::rectangle(Point::new(0.0, 0.0), Point::new(1.0, 1.0)));
/// env.insert(Obstacle::rectangle(Point::new(1.0, 1.0), Point::new(2.0, 2.0)));
/// let free = FreeSpace::from_environment(&env).unwrap();
/// match free.classify(Point::new(1.0, 1.0)) {
///     PointClass::Boundary(wedges) => assert_eq!(wedges.len(), 2),
///     other => panic!("{other:?}"),
/// }
/// // A path may not squeeze between the two cells...
/// assert!(!free.segment_is_free(Point::new(0.5, 1.5), Point::new(1.5, 0.5)));
/// // ...but may touch the corner and turn back.
/// assert!(free.segment_is_free(Point::new(0.5, 1.5), Point::new(1.0, 1.0)));
/// assert!(free.segment_is_free(Point::new(0.0, 2.5), Point::new(3.0, 2.5)));
/// ```
#[derive(Clone, Debug)]
pub struct FreeSpace {
    pub(crate) points: Vec<Point>,
    point_ids: HashMap<(u64, u64), u32>,
    pub(crate) walls: Vec<WallRec>,
    pub(crate) grid: SegmentGrid,
    /// CSR: walls incident to point `p` are `incident[incident_start[p]..incident_start[p + 1]]`.
    incident_start: Vec<u32>,
    incident: Vec<u32>,
    /// CSR: wedges at point `p` are `wedges[wedge_start[p]..wedge_start[p + 1]]`.
    wedge_start: Vec<u32>,
    pub(crate) wedges: Vec<Wedge>,
    pub(crate) wedge_apex: Vec<u32>,
    boundary: Ring,
}

fn point_key(p: Point) -> (u64, u64) {
    // +0.0 and -0.0 are the same point.
    ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits())
}

fn lex_cmp(p: Point, q: Point) -> Ordering {
    p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y))
}

struct Interner {
    points: Vec<Point>,
    ids: HashMap<(u64, u64), u32>,
}

impl Interner {
    fn id(&mut self, p: Point) -> u32 {
        let next = self.points.len() as u32;
        *self.ids.entry(point_key(p)).or_insert_with(|| {
            self.points.push(p + Point::ZERO);
            next
        })
    }
}

/// A piece of input boundary between two interned points.
#[derive(Clone, Copy, Debug)]
struct Piece {
    a: u32,
    b: u32,
    two_sided: bool,
    source: Option<ObstacleId>,
}

impl FreeSpace {
    /// The free space of an environment.
    ///
    /// Interior-disjoint obstacles (touching along edges and at corners, as grid cells
    /// do) are merged exactly at their own coordinates ([`FreeSpace::from_disjoint`]).
    /// Obstacles that overlap (or thin walls that cross obstacles) are instead unioned by
    /// [`corridor_geom::normalize`]; the walls then lie on the environment's snap grid.
    ///
    /// # Errors
    /// [`BuildError::Environment`] for invalid input; [`BuildError::Normalize`] if the
    /// union fails.
    pub fn from_environment(env: &Environment) -> Result<Self, BuildError> {
        match Self::from_disjoint(env) {
            Err(
                BuildError::Crossing { .. }
                | BuildError::Overlap { .. }
                | BuildError::Inconsistent { .. },
            ) => {
                // Overlapping obstacles: let the geometry kernel union them (on its grid).
                let walls = corridor_geom::normalize(env)?;
                Self::from_walls(&walls, env.boundary().clone())
            }
            other => other,
        }
    }

    /// The free space of an environment whose polygon obstacles are interior-disjoint
    /// (they may touch along edges and at corners, and may touch the boundary), merged
    /// exactly: no coordinate is moved or created.
    ///
    /// Polyline obstacles become thin walls (free on both sides); pieces of them lying in
    /// an obstacle or along an obstacle's edge are dropped. Point obstacles are ignored:
    /// they take no area, and a shortest path in the closed free space never needs to
    /// bend at an isolated point.
    ///
    /// # Errors
    /// [`BuildError::Environment`] for invalid input; [`BuildError::Crossing`],
    /// [`BuildError::Overlap`] or [`BuildError::Inconsistent`] when obstacles overlap.
    pub fn from_disjoint(env: &Environment) -> Result<Self, BuildError> {
        env.validate()?;
        // Every polygon corner is interned once (one hash look-up), its ring's pieces
        // then join consecutive ids: no copy of the ring, no second look-up per corner.
        let corners = env.boundary().len()
            + env
                .obstacles()
                .map(|(_, o)| match o {
                    Obstacle::Polygon(poly) => poly.rings().map(Ring::len).sum(),
                    Obstacle::Polyline(line) => line.len(),
                    Obstacle::Point(_) => 0,
                })
                .sum::<usize>();
        let mut interner = Interner {
            points: Vec::with_capacity(corners),
            ids: HashMap::default(),
        };
        interner.ids.reserve(corners);
        let mut pieces: Vec<Piece> = Vec::with_capacity(corners);
        let mut ring_ids: Vec<u32> = Vec::new();
        let mut add_ring = |ring: &Ring, ccw: bool, source: Option<ObstacleId>| {
            // Interned in walking order (the numbering does not depend on the input's
            // orientation).
            ring_ids.clear();
            if ring.is_counter_clockwise() == ccw {
                ring_ids.extend(ring.vertices().iter().map(|&p| interner.id(p)));
            } else {
                ring_ids.extend(ring.vertices().iter().rev().map(|&p| interner.id(p)));
            }
            let Some(&first) = ring_ids.first() else {
                return;
            };
            let next = ring_ids[1..].iter().chain(std::iter::once(&first));
            for (&a, &b) in ring_ids.iter().zip(next) {
                if a != b {
                    pieces.push(Piece {
                        a,
                        b,
                        two_sided: false,
                        source,
                    });
                }
            }
        };
        // Free space on the left: the boundary counter-clockwise, obstacle exteriors
        // clockwise, holes in obstacles (free pockets) counter-clockwise.
        add_ring(env.boundary(), true, None);
        for (id, obstacle) in env.obstacles() {
            if let Obstacle::Polygon(poly) = obstacle {
                add_ring(&poly.exterior, false, Some(id));
                for hole in &poly.holes {
                    add_ring(hole, true, Some(id));
                }
            }
        }
        for (id, obstacle) in env.obstacles() {
            if let Obstacle::Polyline(line) = obstacle {
                for w in line.windows(2) {
                    let (a, b) = (interner.id(w[0]), interner.id(w[1]));
                    if a != b {
                        pieces.push(Piece {
                            a,
                            b,
                            two_sided: true,
                            source: Some(id),
                        });
                    }
                }
            }
        }
        Self::from_pieces(interner, pieces, env.boundary().clone())
    }

    /// The free space of normalized [`Walls`](corridor_geom::Walls) (obstacles already
    /// unioned and clipped, coordinates on the walls' snap grid), inside `boundary`.
    ///
    /// # Errors
    /// Only if the walls break their own guarantees ([`BuildError::Crossing`] and the
    /// like).
    pub fn from_walls(walls: &corridor_geom::Walls, boundary: Ring) -> Result<Self, BuildError> {
        let mut interner = Interner {
            points: Vec::new(),
            ids: HashMap::default(),
        };
        let mut pieces = Vec::new();
        for w in &walls.segments {
            let (a, b) = (
                interner.id(walls.grid.to_point(w.a)),
                interner.id(walls.grid.to_point(w.b)),
            );
            if a == b {
                continue;
            }
            let source = w.sources.iter().find_map(|s| match s {
                corridor_geom::WallSource::Obstacle(id) => Some(*id),
                corridor_geom::WallSource::Boundary => None,
            });
            pieces.push(Piece {
                a,
                b,
                two_sided: w.two_sided,
                source,
            });
        }
        Self::from_pieces(interner, pieces, boundary)
    }

    fn from_pieces(
        interner: Interner,
        pieces: Vec<Piece>,
        boundary: Ring,
    ) -> Result<Self, BuildError> {
        let (points, interner_ids) = (interner.points, interner.ids);
        let (pieces, piece_grid) = split_at_vertices(&points, pieces);

        // Cancel pieces shared by two polygons (or a polygon and the boundary): the
        // one-sided pieces by their undirected key (piece order kept within a key, so the
        // first piece with an owner names the wall), each key's directions summed.
        let key_of = |p: &Piece| (p.a.min(p.b) as u64) << 32 | p.a.max(p.b) as u64;
        let mut keyed: Vec<(u64, u32)> = pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.two_sided)
            .map(|(i, p)| (key_of(p), i as u32))
            .collect();
        keyed.sort_unstable();
        let mut one_sided: Vec<Piece> = Vec::with_capacity(keyed.len());
        let mut net_keys: Vec<u64> = Vec::with_capacity(keyed.len());
        for run in keyed.chunk_by(|x, y| x.0 == y.0) {
            let (mut n, mut source) = (0i32, None);
            for &(_, i) in run {
                let p = pieces[i as usize];
                n += if p.a < p.b { 1 } else { -1 };
                source = source.or(p.source);
            }
            let key = run[0].0;
            net_keys.push(key);
            let (lo, hi) = ((key >> 32) as u32, key as u32);
            match n {
                0 => {}
                1 | -1 => one_sided.push(Piece {
                    a: if n == 1 { lo } else { hi },
                    b: if n == 1 { hi } else { lo },
                    two_sided: false,
                    source,
                }),
                _ => {
                    return Err(BuildError::Overlap {
                        segment: Segment::new(points[lo as usize], points[hi as usize]),
                    })
                }
            }
        }
        // The walls' order: by their directed ends.
        one_sided.sort_unstable_by_key(|p| (p.a as u64) << 32 | p.b as u64);

        // Thin walls: drop duplicates, pieces along polygon edges and pieces inside
        // obstacles.
        let thin: Vec<Piece> = pieces.iter().filter(|p| p.two_sided).copied().collect();
        let mut thin_seen: HashMap<u64, ()> = HashMap::default();
        let thin: Vec<Piece> = if thin.is_empty() {
            // No thin walls (the usual polygon input): no probe grid to build.
            thin
        } else {
            let probe = Probe::new(&points, &one_sided);
            thin.into_iter()
                .filter(|p| {
                    let key = key_of(p);
                    if net_keys.binary_search(&key).is_ok() || thin_seen.insert(key, ()).is_some() {
                        return false;
                    }
                    let mid = (points[p.a as usize] + points[p.b as usize]) * 0.5;
                    probe.winding(mid) == 1
                })
                .collect()
        };

        let walls = merge_straight_runs(&points, one_sided, thin);
        // When nothing was split, cancelled or joined (and there are no thin walls), the
        // walls are the pieces in another order (sorted by their ends): the pieces' grid,
        // renumbered, is the walls' grid.
        let unchanged = walls.len() == pieces.len() && pieces.iter().all(|p| !p.two_sided);
        let grid = piece_grid.filter(|_| unchanged).and_then(|mut grid| {
            let wall_of: Vec<u32> = pieces
                .iter()
                .map(|p| {
                    let at = walls.binary_search_by_key(&(p.a, p.b), |w| (w.a, w.b));
                    at.map_or(u32::MAX, |k| k as u32)
                })
                .collect();
            if wall_of.contains(&u32::MAX) {
                return None;
            }
            grid.renumber(&wall_of);
            Some(grid)
        });

        // Renumber the points still in use.
        let mut new_id = vec![u32::MAX; points.len()];
        let mut kept: Vec<Point> = Vec::with_capacity(points.len());
        let mut walls: Vec<WallRec> = walls;
        for w in &mut walls {
            for v in [&mut w.a, &mut w.b] {
                if new_id[*v as usize] == u32::MAX {
                    new_id[*v as usize] = kept.len() as u32;
                    kept.push(points[*v as usize]);
                }
                *v = new_id[*v as usize];
            }
        }
        let points = kept;
        // The interner's map, renumbered in place (no point hashed a second time).
        let mut point_ids = interner_ids;
        point_ids.retain(|_, id| {
            *id = new_id[*id as usize];
            *id != u32::MAX
        });
        let segs: Vec<(Point, Point)> = walls
            .iter()
            .map(|w| (points[w.a as usize], points[w.b as usize]))
            .collect();
        let grid = grid.unwrap_or_else(|| SegmentGrid::new(&segs));

        // Walls must not cross (they may only meet at shared endpoints). Each pair once,
        // the first wall's least crossing one reported; `mark` drops a wall met again in
        // another cell.
        let mut mark = vec![u32::MAX; segs.len()];
        for (i, &(a, b)) in segs.iter().enumerate() {
            let mut crossing = u32::MAX;
            grid.for_each_in_box(&Aabb::new(a, b), |j| {
                let seen = &mut mark[j as usize];
                if j as usize > i && *seen != i as u32 {
                    *seen = i as u32;
                    let (c, d) = segs[j as usize];
                    if j < crossing && properly_cross(a, b, c, d) {
                        crossing = j;
                    }
                }
            });
            if let Some(&(c, d)) = segs.get(crossing as usize) {
                return Err(BuildError::Crossing {
                    first: Segment::new(a, b),
                    second: Segment::new(c, d),
                });
            }
        }

        let mut incident_start = vec![0u32; points.len() + 1];
        for w in &walls {
            incident_start[w.a as usize + 1] += 1;
            incident_start[w.b as usize + 1] += 1;
        }
        for i in 0..points.len() {
            incident_start[i + 1] += incident_start[i];
        }
        let mut fill = incident_start.clone();
        let mut incident = vec![0u32; 2 * walls.len()];
        for (i, w) in walls.iter().enumerate() {
            for v in [w.a, w.b] {
                incident[fill[v as usize] as usize] = i as u32;
                fill[v as usize] += 1;
            }
        }

        let mut space = FreeSpace {
            points,
            point_ids,
            walls,
            grid,
            incident_start,
            incident,
            wedge_start: Vec::new(),
            wedges: Vec::new(),
            wedge_apex: Vec::new(),
            boundary,
        };
        space.compute_wedges()?;
        Ok(space)
    }

    fn compute_wedges(&mut self) -> Result<(), BuildError> {
        // (direction point, is_incoming)
        let mut around: Vec<(Point, bool)> = Vec::new();
        self.wedge_start = Vec::with_capacity(self.points.len() + 1);
        // About one wedge per vertex (more only where obstacles touch at a point).
        self.wedges = Vec::with_capacity(self.points.len());
        self.wedge_apex = Vec::with_capacity(self.points.len());
        self.wedge_start.push(0);
        for v in 0..self.points.len() {
            let apex = self.points[v];
            around.clear();
            for &wi in self.incident_walls(v as u32) {
                let w = self.walls[wi as usize];
                let (other, outgoing) = if w.a == v as u32 {
                    (self.points[w.b as usize], true)
                } else {
                    (self.points[w.a as usize], false)
                };
                if w.two_sided {
                    around.push((other, true));
                    around.push((other, false));
                } else {
                    around.push((other, !outgoing));
                }
            }
            // Counter-clockwise; on a tie (a thin wall) the incoming side first.
            around.sort_by(|x, y| {
                angle_cmp(apex, Dir::towards(x.0), Dir::towards(y.0)).then(y.1.cmp(&x.1))
            });
            let n = around.len();
            let first_out = around.iter().position(|x| !x.1);
            let Some(first_out) = first_out else {
                return Err(BuildError::Inconsistent { point: apex });
            };
            for k in 0..n {
                let i = (first_out + k) % n;
                let expect_incoming = k % 2 == 1;
                if around[i].1 != expect_incoming || n % 2 == 1 {
                    return Err(BuildError::Inconsistent { point: apex });
                }
                if !expect_incoming {
                    let start = around[i].0;
                    let end = around[(i + 1) % n].0;
                    self.wedges.push(Wedge {
                        apex,
                        start,
                        end,
                        full: start == end,
                    });
                    self.wedge_apex.push(v as u32);
                }
            }
            self.wedge_start.push(self.wedges.len() as u32);
        }
        Ok(())
    }

    /// The bytes this free space occupies: the struct itself plus the heap behind it,
    /// counted from its vectors' capacities × element sizes (the point-lookup hash map
    /// as capacity × (entry + 1 control byte), an approximation of its table). The
    /// benchmarks report it; it is a count, not a measurement of the allocator.
    ///
    /// ```
    /// use corridor_geom::{Environment, Point};
    /// use corridor_visgraph::FreeSpace;
    /// let env = Environment::rectangle(Point::ZERO, Point::new(4.0, 3.0));
    /// let free = FreeSpace::from_environment(&env).unwrap();
    /// assert!(free.memory_bytes() > 4 * std::mem::size_of::<Point>());
    /// ```
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + self.points.capacity() * size_of::<Point>()
            + self.point_ids.capacity() * (size_of::<((u64, u64), u32)>() + 1)
            + self.walls.capacity() * size_of::<WallRec>()
            + self.grid.memory_bytes()
            + (self.incident_start.capacity()
                + self.incident.capacity()
                + self.wedge_start.capacity()
                + self.wedge_apex.capacity())
                * size_of::<u32>()
            + self.wedges.capacity() * size_of::<Wedge>()
            + self.boundary.len() * size_of::<Point>()
    }

    /// The wall vertices.
    pub fn vertices(&self) -> &[Point] {
        &self.points
    }

    /// The walls, each once.
    pub fn walls(&self) -> impl ExactSizeIterator<Item = Wall> + '_ {
        self.walls.iter().map(|w| Wall {
            segment: Segment::new(self.points[w.a as usize], self.points[w.b as usize]),
            two_sided: w.two_sided,
            source: w.source,
        })
    }

    /// Number of walls.
    pub fn wall_count(&self) -> usize {
        self.walls.len()
    }

    /// All wedges (free sectors at wall vertices), numbered.
    pub fn wedges(&self) -> &[Wedge] {
        &self.wedges
    }

    /// The wedges at vertex `v` (an index into [`FreeSpace::vertices`]).
    pub fn wedges_at(&self, v: usize) -> &[Wedge] {
        &self.wedges[self.wedge_start[v] as usize..self.wedge_start[v + 1] as usize]
    }

    /// The wedge ids at vertex `v`.
    pub(crate) fn wedge_range(&self, v: u32) -> std::ops::Range<usize> {
        self.wedge_start[v as usize] as usize..self.wedge_start[v as usize + 1] as usize
    }

    pub(crate) fn incident_walls(&self, v: u32) -> &[u32] {
        &self.incident
            [self.incident_start[v as usize] as usize..self.incident_start[v as usize + 1] as usize]
    }

    pub(crate) fn wall_points(&self, w: u32) -> (Point, Point) {
        let w = self.walls[w as usize];
        (self.points[w.a as usize], self.points[w.b as usize])
    }

    /// The index of the vertex at exactly `p`, if any.
    pub fn vertex_at(&self, p: Point) -> Option<usize> {
        self.point_ids.get(&point_key(p)).map(|&i| i as usize)
    }

    /// The environment's outer boundary.
    pub fn boundary(&self) -> &Ring {
        &self.boundary
    }

    /// Bounding box of all walls.
    pub fn bounds(&self) -> Aabb {
        self.grid.bounds()
    }

    /// Where `p` lies: in the free space, on a wall (with its free wedges), inside an
    /// obstacle or outside the boundary. Exact.
    pub fn classify(&self, p: Point) -> PointClass {
        if !p.is_finite() {
            return PointClass::Outside;
        }
        if let Some(v) = self.vertex_at(p) {
            return PointClass::Boundary(self.wedges_at(v).to_vec());
        }
        let mut on: Vec<Wedge> = Vec::new();
        self.grid.for_each_in_box(&Aabb::new(p, p), |wi| {
            let (a, b) = self.wall_points(wi);
            if point_on_segment(p, a, b) {
                on.push(Wedge {
                    apex: p,
                    start: b,
                    end: a,
                    full: false,
                });
                if self.walls[wi as usize].two_sided {
                    on.push(Wedge {
                        apex: p,
                        start: a,
                        end: b,
                        full: false,
                    });
                }
            }
        });
        if !on.is_empty() {
            return PointClass::Boundary(on);
        }
        let (winding, owner) = self.winding(p);
        if winding == 1 {
            PointClass::Free
        } else if self.boundary.contains_or_touches(p) {
            PointClass::Blocked(owner)
        } else {
            PointClass::Outside
        }
    }

    /// Winding number of the one-sided walls around `p` (1 in the free space, 0 in
    /// obstacles and outside), and the owner of the nearest wall crossed to the right.
    fn winding(&self, p: Point) -> (i32, Option<ObstacleId>) {
        // Cast the ray towards the nearest side of the grid (fewest cells to look at);
        // turning the plane by a multiple of 90° is exact and keeps orientations, so the
        // ray becomes the usual one towards +x.
        let dir = self.grid.shortest_ray(p);
        let turn = |q: Point| match dir {
            0 => q,
            1 => Point::new(-q.x, -q.y),
            2 => Point::new(q.y, -q.x),
            _ => Point::new(-q.y, q.x),
        };
        let mut ids = Vec::new();
        self.grid.for_each_on_ray(p, dir, |i| ids.push(i));
        ids.sort_unstable();
        ids.dedup();
        let p = turn(p);
        let mut winding = 0;
        let mut nearest = (f64::INFINITY, None);
        for i in ids {
            let w = self.walls[i as usize];
            if w.two_sided {
                continue;
            }
            let (a, b) = self.wall_points(i);
            let (a, b) = (turn(a), turn(b));
            let crossed = if a.y <= p.y {
                if b.y > p.y && orient(a, b, p) == Orientation::CounterClockwise {
                    winding += 1;
                    true
                } else {
                    false
                }
            } else if b.y <= p.y && orient(a, b, p) == Orientation::Clockwise {
                winding -= 1;
                true
            } else {
                false
            };
            if crossed {
                let t = (p.y - a.y) / (b.y - a.y);
                let x = a.x + t * (b.x - a.x);
                if x < nearest.0 {
                    nearest = (x, w.source);
                }
            }
        }
        (winding, nearest.1)
    }

    /// Whether the closed segment `p q` lies in the free space: it crosses no wall, enters
    /// no obstacle, passes no boundary point from one of its wedges into another (no
    /// squeezing between obstacles that touch at a point) and keeps to one side of a thin
    /// wall while running along it. Running along walls and touching corners is allowed.
    /// Exact.
    pub fn segment_is_free(&self, p: Point, q: Point) -> bool {
        let (cp, cq) = (self.classify(p), self.classify(q));
        if !cp.is_free() || !cq.is_free() {
            return false;
        }
        if p == q {
            return true;
        }
        let leave = cp.sides_towards(q);
        let arrive = flip(cq.sides_towards(p));
        if leave == 0 || arrive == 0 {
            return false;
        }
        let mut ids = Vec::new();
        self.grid.for_each_in_box(&Aabb::new(p, q), |i| ids.push(i));
        ids.sort_unstable();
        ids.dedup();
        let mut on_path: Vec<u32> = Vec::new();
        for i in ids {
            let w = self.walls[i as usize];
            let (a, b) = self.wall_points(i);
            if properly_cross(p, q, a, b) {
                return false;
            }
            for (v, x) in [(w.a, a), (w.b, b)] {
                if x != p && x != q && point_on_segment(x, p, q) {
                    on_path.push(v);
                }
            }
        }
        on_path.sort_unstable();
        on_path.dedup();
        on_path
            .sort_by(|&u, &v| along_ray_cmp(p, self.points[u as usize], self.points[v as usize]));
        let mut walk = Walk::new(self, self.place(p), Dir::away_from(p));
        for v in on_path {
            walk.arrive(Place::Vertex(v));
            if !walk.pass(v) {
                return false;
            }
        }
        walk.arrive(self.place(q)).admits(leave, arrive)
    }

    /// On which sides of a straight path passing vertex `v` along `d` the free space may
    /// lie (0: the path cannot pass there).
    pub(crate) fn passable_sides(&self, v: u32, d: Dir) -> u8 {
        self.wedge_range(v)
            .fold(0, |sides, w| sides | self.wedges[w].sides_through(d))
    }

    /// Where `p` lies on the walls (without checking that it is free).
    pub(crate) fn place(&self, p: Point) -> Place {
        if let Some(v) = self.vertex_at(p) {
            return Place::Vertex(v as u32);
        }
        let mut found = Place::Free;
        self.grid.for_each_in_box(&Aabb::new(p, p), |wi| {
            let (a, b) = self.wall_points(wi);
            if point_on_segment(p, a, b) {
                found = Place::OnWall(wi);
            }
        });
        found
    }

    /// Whether the straight piece between two consecutive boundary points of a path runs
    /// along a thin wall.
    pub(crate) fn thin_wall_between(&self, a: Place, b: Place) -> bool {
        let thin_with_end = |w: u32, v: u32| {
            let rec = self.walls[w as usize];
            rec.two_sided && (rec.a == v || rec.b == v)
        };
        match (a, b) {
            (Place::Vertex(a), Place::Vertex(b)) => self
                .incident_walls(b)
                .iter()
                .any(|&w| thin_with_end(w, a) && (a != b)),
            (Place::OnWall(w), Place::Vertex(v)) | (Place::Vertex(v), Place::OnWall(w)) => {
                thin_with_end(w, v)
            }
            (Place::OnWall(w1), Place::OnWall(w2)) => w1 == w2 && self.walls[w1 as usize].two_sided,
            _ => false,
        }
    }
}

/// Whether the closed segments `a b` and `c d` cross at a single point interior to both.
pub(crate) fn properly_cross(a: Point, b: Point, c: Point, d: Point) -> bool {
    use Orientation::*;
    let opposite = |x: Orientation, y: Orientation| {
        matches!(
            (x, y),
            (Clockwise, CounterClockwise) | (CounterClockwise, Clockwise)
        )
    };
    opposite(orient(a, b, c), orient(a, b, d)) && opposite(orient(c, d, a), orient(c, d, b))
}

/// Splits every piece at the input vertices lying in its interior (T-junctions), so that
/// afterwards pieces meet only at endpoints and overlapping pieces coincide exactly.
///
/// Also returns the grid of the pieces when none was split.
fn split_at_vertices(points: &[Point], pieces: Vec<Piece>) -> (Vec<Piece>, Option<SegmentGrid>) {
    let segs: Vec<(Point, Point)> = pieces
        .iter()
        .map(|p| (points[p.a as usize], points[p.b as usize]))
        .collect();
    let grid = SegmentGrid::new(&segs);
    let mut splits: Vec<(u32, u32)> = Vec::new();
    for (v, &x) in points.iter().enumerate() {
        grid.for_each_in_box(&Aabb::new(x, x), |i| {
            let p = pieces[i as usize];
            if p.a != v as u32 && p.b != v as u32 {
                let (a, b) = segs[i as usize];
                if point_on_segment(x, a, b) {
                    splits.push((i, v as u32));
                }
            }
        });
    }
    if splits.is_empty() {
        return (pieces, Some(grid));
    }
    splits.sort_unstable();
    splits.dedup();
    let mut out = Vec::with_capacity(pieces.len() + splits.len());
    let mut k = 0;
    for (i, p) in pieces.iter().enumerate() {
        let start = k;
        while k < splits.len() && splits[k].0 == i as u32 {
            k += 1;
        }
        if start == k {
            out.push(*p);
            continue;
        }
        let (a, b) = segs[i];
        let mut inner: Vec<u32> = splits[start..k].iter().map(|s| s.1).collect();
        let forward = lex_cmp(a, b) == Ordering::Less;
        inner.sort_by(|&u, &v| {
            let o = lex_cmp(points[u as usize], points[v as usize]);
            if forward {
                o
            } else {
                o.reverse()
            }
        });
        let mut prev = p.a;
        for v in inner.into_iter().chain(std::iter::once(p.b)) {
            out.push(Piece {
                a: prev,
                b: v,
                ..*p
            });
            prev = v;
        }
    }
    (out, None)
}

/// Joins walls through vertices where a straight run simply continues (one wall in, one
/// out, collinear, nothing else there): fewer walls, same free space.
fn merge_straight_runs(points: &[Point], one_sided: Vec<Piece>, thin: Vec<Piece>) -> Vec<WallRec> {
    let n = points.len();
    let mut out_deg = vec![0u32; n];
    let mut in_deg = vec![0u32; n];
    let mut thin_deg = vec![0u32; n];
    let mut out_edge = vec![u32::MAX; n];
    let mut in_edge = vec![u32::MAX; n];
    for (i, p) in one_sided.iter().enumerate() {
        out_deg[p.a as usize] += 1;
        in_deg[p.b as usize] += 1;
        out_edge[p.a as usize] = i as u32;
        in_edge[p.b as usize] = i as u32;
    }
    let mut thin_nb: Vec<[u32; 2]> = vec![[u32::MAX; 2]; n];
    let mut thin_pieces: Vec<[u32; 2]> = vec![[u32::MAX; 2]; n];
    for (i, p) in thin.iter().enumerate() {
        for (v, w) in [(p.a, p.b), (p.b, p.a)] {
            let d = thin_deg[v as usize] as usize;
            if d < 2 {
                thin_nb[v as usize][d] = w;
                thin_pieces[v as usize][d] = i as u32;
            }
            thin_deg[v as usize] += 1;
        }
    }
    let straight = |a: u32, v: u32, b: u32| {
        orient(points[a as usize], points[v as usize], points[b as usize]) == Orientation::Collinear
    };
    // One-sided runs.
    let removable_one = |v: u32| {
        let vi = v as usize;
        out_deg[vi] == 1
            && in_deg[vi] == 1
            && thin_deg[vi] == 0
            && straight(
                one_sided[in_edge[vi] as usize].a,
                v,
                one_sided[out_edge[vi] as usize].b,
            )
    };
    let mut walls = Vec::with_capacity(one_sided.len() + thin.len());
    let mut used = vec![false; one_sided.len()];
    for i in 0..one_sided.len() {
        let p = one_sided[i];
        if used[i] || removable_one(p.a) {
            continue;
        }
        used[i] = true;
        let mut cur = p.b;
        while removable_one(cur) {
            let next = out_edge[cur as usize] as usize;
            if used[next] {
                break;
            }
            used[next] = true;
            cur = one_sided[next].b;
        }
        walls.push(WallRec {
            a: p.a,
            b: cur,
            two_sided: false,
            source: p.source,
        });
    }
    // Whatever is left forms closed straight loops, which cannot happen for valid input;
    // keep such pieces unmerged rather than lose them.
    for (i, p) in one_sided.iter().enumerate() {
        if !used[i] {
            walls.push(WallRec {
                a: p.a,
                b: p.b,
                two_sided: false,
                source: p.source,
            });
        }
    }
    // Thin runs.
    let removable_thin = |v: u32| {
        let vi = v as usize;
        thin_deg[vi] == 2
            && out_deg[vi] == 0
            && in_deg[vi] == 0
            && straight(thin_nb[vi][0], v, thin_nb[vi][1])
    };
    let mut used = vec![false; thin.len()];
    for i in 0..thin.len() {
        let p = thin[i];
        if used[i] {
            continue;
        }
        // Start only from an end that is not removable.
        let start = if !removable_thin(p.a) {
            p.a
        } else if !removable_thin(p.b) {
            p.b
        } else {
            continue;
        };
        used[i] = true;
        let (mut prev, mut cur) = (start, if start == p.a { p.b } else { p.a });
        while removable_thin(cur) {
            let vi = cur as usize;
            let k = if thin_nb[vi][0] == prev { 1 } else { 0 };
            let next = thin_pieces[vi][k] as usize;
            if used[next] {
                break;
            }
            used[next] = true;
            prev = cur;
            cur = thin_nb[vi][k];
        }
        walls.push(WallRec {
            a: start,
            b: cur,
            two_sided: true,
            source: p.source,
        });
    }
    for (i, p) in thin.iter().enumerate() {
        if !used[i] {
            walls.push(WallRec {
                a: p.a,
                b: p.b,
                two_sided: true,
                source: p.source,
            });
        }
    }
    walls
}

/// Winding numbers of one-sided pieces before the final index exists.
struct Probe<'a> {
    points: &'a [Point],
    pieces: &'a [Piece],
    grid: SegmentGrid,
}

impl<'a> Probe<'a> {
    fn new(points: &'a [Point], pieces: &'a [Piece]) -> Self {
        let segs: Vec<(Point, Point)> = pieces
            .iter()
            .map(|p| (points[p.a as usize], points[p.b as usize]))
            .collect();
        Probe {
            points,
            pieces,
            grid: SegmentGrid::new(&segs),
        }
    }

    fn winding(&self, p: Point) -> i32 {
        let mut ids = Vec::new();
        self.grid.for_each_right_of(p, |i| ids.push(i));
        ids.sort_unstable();
        ids.dedup();
        let mut winding = 0;
        for i in ids {
            let piece = self.pieces[i as usize];
            let (a, b) = (self.points[piece.a as usize], self.points[piece.b as usize]);
            if a.y <= p.y {
                if b.y > p.y && orient(a, b, p) == Orientation::CounterClockwise {
                    winding += 1;
                }
            } else if b.y <= p.y && orient(a, b, p) == Orientation::Clockwise {
                winding -= 1;
            }
        }
        winding
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::random::{random_environment, ObstacleMix, RandomEnvironmentOptions};

    /// Every wall is found in the grid cell of each of its points (sampled along it), the
    /// grid holds no other ids and each cell lists its walls in increasing order: whether
    /// the grid was built over the walls or renumbered from the pieces'.
    fn assert_grid_holds_the_walls(fs: &FreeSpace) {
        let n = fs.walls.len();
        for i in 0..n as u32 {
            let (a, b) = fs.wall_points(i);
            let Aabb { min: lo, max: hi } = Aabb::new(a, b);
            for k in 0..=8 {
                // (Clamped: the rounded point stays in the wall's box.)
                let x = a + (b - a) * (k as f64 / 8.0);
                let x = Point::new(x.x.clamp(lo.x, hi.x), x.y.clamp(lo.y, hi.y));
                let mut found = false;
                fs.grid
                    .for_each_in_box(&Aabb::new(x, x), |j| found |= j == i);
                assert!(found, "wall {i} missing from the grid at {x:?}");
            }
        }
        for cell in 0..fs.grid.cell_count() {
            let items = fs.grid.cell_items(cell);
            assert!(items.iter().all(|&j| (j as usize) < n));
            assert!(
                items.windows(2).all(|w| w[0] < w[1]),
                "cell {cell} unsorted"
            );
        }
    }

    #[test]
    fn grid_holds_the_walls_after_merging() {
        for seed in 0..60 {
            let options = match seed % 3 {
                // Scattered polygons: nothing split or cancelled, the pieces' grid reused.
                0 => RandomEnvironmentOptions {
                    mix: ObstacleMix::POLYGONS,
                    ..RandomEnvironmentOptions::default()
                },
                // Grid maps: shared edges cancel, runs merge, the grid is built again.
                1 => RandomEnvironmentOptions::grid_map(12, 20),
                _ => RandomEnvironmentOptions::default(),
            };
            let env = random_environment(seed, &options);
            let fs = FreeSpace::from_environment(&env).unwrap();
            assert_grid_holds_the_walls(&fs);
        }
    }

    #[test]
    fn crossing_obstacles_are_reported_by_from_disjoint() {
        let p = |x: f64, y: f64| Point::new(x, y);
        let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
        env.insert(Obstacle::rectangle(p(1.0, 1.0), p(5.0, 3.0)));
        env.insert(Obstacle::rectangle(p(2.0, 2.0), p(4.0, 6.0)));
        assert!(matches!(
            FreeSpace::from_disjoint(&env),
            Err(BuildError::Crossing { .. })
        ));
        // `from_environment` unions them instead.
        assert!(FreeSpace::from_environment(&env).is_ok());
    }
}
