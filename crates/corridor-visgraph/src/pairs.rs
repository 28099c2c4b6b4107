//! Which corners see each other, pair by pair? The construction for small inputs.
//!
//! The rotational sweep pays per centre for sorting every event, building a status and
//! growing its culling region; with a few hundred vertices that fixed cost (tens of µs
//! per vertex) is most of the build. Here every pair of vertices with nodes is looked at
//! once instead, in two cheap stages:
//!
//! 1. **Direction filter.** A pair can only give an edge if the direction from each end
//!    to the other is allowed by one of that end's nodes (inside the wedge for the full
//!    graph; tangent — both the direction and its opposite inside the wedge — for the
//!    reduced graph). Each node's allowed directions are signs of two cross products of
//!    the direction with the node's walls (both at least 0, either, or their product at
//!    most 0); a sign is trusted only beyond the product's rounding error, a direction
//!    clearly outside is dropped, anything else goes on ([`VisibilityGraph::link`]
//!    decides exactly afterwards). Six multiplications per end and a table look-up;
//!    the row's own end for a whole row of pairs first, the other end only where that
//!    passes. For the reduced graph this drops most pairs.
//! 2. **Segment test.** The open segment between the two vertices is free exactly when it
//!    properly crosses no wall and every vertex strictly inside it lets a straight line
//!    pass (the same [`Walk`] as the sweep and the naive oracle). Only walls stored in
//!    the grid cells the (padded) segment meets are tested — a wall meeting the segment
//!    is stored in the cell of the meeting point, and the cover is conservative — and the
//!    test stops at the first proper crossing. The walls of the obstacle at an end are
//!    skipped when the segment leaves that end, a corner of the obstacle's convex hull,
//!    strictly outside the hull (any obstacle: convex, star-shaped, with pockets).
//!
//! This is O(n²) filter steps plus a segment test per surviving pair: it loses to the
//! triangular expansion except on small reduced graphs, by a few percent (and near 10,000 vertices to the culled sweep), and
//! [`crate::Construction::Auto`] takes it only when the triangulation fails. The result is
//! the same edge set as the naive oracle's (tested on the degenerate random environments).

use crate::angle::{Dir, Wedge, BOTH};
use crate::cones::{box_cone, ConeView, Seen};
use crate::free_space::FreeSpace;
use crate::graph::{Edge, GraphKind, VisibilityGraph};
use crate::ray::{along_ray_cmp, Arrival, Place, Walk};
use corridor_geom::orient;
use corridor_geom::{convex_hull, point_on_segment, Orientation, Point};

/// Relative error bound of a rounded cross product of two rounded differences (a few
/// units of roundoff, 2⁻⁵² each; generously rounded up).
const CROSS_REL: f64 = 1e-14;

/// Added to every error bound: covers products that fall into the subnormal range.
const CROSS_ABS: f64 = 1e-290;

/// Which directions a node allows, as signs of two cross products with the wedge's
/// walls (`s`: towards its start, `e`: towards its end, both from the apex).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Mode {
    /// Every direction, free on both sides (a full wedge).
    All,
    /// Inside a wedge of at most π: `s × d ≥ 0` and `d × e ≥ 0`.
    And,
    /// Inside a wedge of more than π: `s × d ≥ 0` or `d × e ≥ 0`.
    Or,
    /// Tangent at a reflex wedge (both `d` and `−d` inside): `(s × d)(d × e) ≤ 0`.
    Tangent,
    /// Not decided here (a vertex with several nodes): always unsure.
    Several,
}

/// [`Allowed::code`]: no node allows the direction.
const OUTSIDE: u8 = 1;
/// [`Allowed::code`]: the only node allows it, strictly inside.
const INSIDE: u8 = 2;

/// The directions one node allows (see [`Mode`]).
#[derive(Clone, Copy, Debug)]
struct Allowed {
    s: Point,
    e: Point,
    /// `CROSS_REL · (|s.x| + |s.y|)` and the same for `e`: see [`Allowed::code`].
    s_bound: f64,
    e_bound: f64,
    mode: Mode,
}

/// What the direction filter knows about one end of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    /// No node there allows the direction.
    Outside,
    /// Perhaps; the exact tests decide.
    Unsure,
    /// The vertex's only node allows it, strictly inside (free on both sides).
    Inside,
}

impl Allowed {
    fn new(wedge: &Wedge, kind: GraphKind) -> Self {
        let c = wedge.apex;
        let (s, e) = (wedge.start - c, wedge.end - c);
        let mode = if wedge.full {
            Mode::All
        } else {
            match kind {
                // Reduced-graph nodes are reflex.
                GraphKind::Reduced => Mode::Tangent,
                GraphKind::Full if wedge.is_reflex() => Mode::Or,
                GraphKind::Full => Mode::And,
            }
        };
        let bound = |w: Point| CROSS_REL * (w.x.abs() + w.y.abs());
        Allowed {
            s,
            e,
            s_bound: bound(s),
            e_bound: bound(e),
            mode,
        }
    }

    /// What the node says about direction `d` (a rounded difference of two vertices).
    /// The products' signs are trusted only beyond their rounding error; `Outside` and
    /// `Inside` are exact answers, `Unsure` is everything else.
    #[inline(always)]
    fn filter(&self, d: Point) -> Filter {
        let (a1, b1) = (self.s.x * d.y, self.s.y * d.x);
        let (a2, b2) = (d.x * self.e.y, d.y * self.e.x);
        let (c1, c2) = (a1 - b1, a2 - b2);
        let t1 = CROSS_REL * (a1.abs() + b1.abs()) + CROSS_ABS;
        let t2 = CROSS_REL * (a2.abs() + b2.abs()) + CROSS_ABS;
        let (p1, n1, p2, n2) = (c1 > t1, c1 < -t1, c2 > t2, c2 < -t2);
        let (outside, inside) = match self.mode {
            Mode::All => (false, true),
            Mode::And => (n1 | n2, p1 & p2),
            Mode::Or => (n1 & n2, p1 | p2),
            Mode::Tangent => ((p1 & p2) | (n1 & n2), (p1 & n2) | (n1 & p2)),
            Mode::Several => (false, false),
        };
        if outside {
            Filter::Outside
        } else if inside {
            Filter::Inside
        } else {
            Filter::Unsure
        }
    }

    /// [`Allowed::filter`] as bits, [`OUTSIDE`], [`INSIDE`] or 0 (unsure), without
    /// branches, for the pair loop: `d` a rounded difference of two vertices and `dl`
    /// its `|d.x| + |d.y|` (shared by both ends of a pair). The error bounds are
    /// `CROSS_REL · (|w.x| + |w.y|) · dl`, at least the per-product bounds of
    /// [`Allowed::filter`] (`|w.x d.y| + |w.y d.x|` is at most that product), so every
    /// `OUTSIDE` or `INSIDE` here is one there too.
    #[inline(always)]
    fn code(&self, d: Point, dl: f64) -> u8 {
        let c1 = self.s.x * d.y - self.s.y * d.x;
        let c2 = d.x * self.e.y - d.y * self.e.x;
        let t1 = self.s_bound * dl + CROSS_ABS;
        let t2 = self.e_bound * dl + CROSS_ABS;
        let signs = ((c1 > t1) as usize) << 3
            | ((c1 < -t1) as usize) << 2
            | ((c2 > t2) as usize) << 1
            | (c2 < -t2) as usize;
        CODES[(self.mode as usize) << 4 | signs]
    }
}

impl Allowed {
    /// [`Allowed::code`] for the directions from this node's apex `p` to each of
    /// `targets`, appended to `out`. Tangent nodes (every node of the reduced graph) get
    /// a loop of their own, without the table.
    fn codes_towards(&self, p: Point, targets: &[Point], out: &mut Vec<u8>) {
        // One loop per mode, each without the table (as in `CODES`; in each mode the
        // two answers are exclusive).
        match self.mode {
            Mode::Tangent => self.codes_with(p, targets, out, |p1, n1, p2, n2| {
                ((p1 & p2 | n1 & n2) * OUTSIDE) | ((p1 & n2 | n1 & p2) * INSIDE)
            }),
            Mode::Or => self.codes_with(p, targets, out, |p1, n1, p2, n2| {
                ((n1 & n2) * OUTSIDE) | ((p1 | p2) * INSIDE)
            }),
            Mode::And => self.codes_with(p, targets, out, |p1, n1, p2, n2| {
                ((n1 | n2) * OUTSIDE) | ((p1 & p2) * INSIDE)
            }),
            Mode::All | Mode::Several => out.extend(targets.iter().map(|&q| {
                let d = q - p;
                self.code(d, d.x.abs() + d.y.abs())
            })),
        }
    }

    /// [`Allowed::codes_towards`] for one mode: `answer` maps the sign bits (`c1 > 0`,
    /// `c1 < 0`, `c2 > 0`, `c2 < 0`, each beyond its error bound) to the code.
    #[inline(always)]
    fn codes_with(
        &self,
        p: Point,
        targets: &[Point],
        out: &mut Vec<u8>,
        answer: impl Fn(u8, u8, u8, u8) -> u8,
    ) {
        let (s, e) = (self.s, self.e);
        let (sb, eb) = (self.s_bound, self.e_bound);
        out.extend(targets.iter().map(|&q| {
            let d = q - p;
            let dl = d.x.abs() + d.y.abs();
            let c1 = s.x * d.y - s.y * d.x;
            let c2 = d.x * e.y - d.y * e.x;
            let (t1, t2) = (sb * dl + CROSS_ABS, eb * dl + CROSS_ABS);
            let (p1, n1) = ((c1 > t1) as u8, (c1 < -t1) as u8);
            let (p2, n2) = ((c2 > t2) as u8, (c2 < -t2) as u8);
            answer(p1, n1, p2, n2)
        }));
    }
}

/// [`Allowed::code`]'s answers per mode (in [`Mode`]'s order) and sign bits
/// (`c1 > 0, c1 < 0, c2 > 0, c2 < 0`, high to low), by [`Allowed::filter`]'s rules.
const CODES: [u8; 80] = {
    let mut table = [0u8; 80];
    let mut i = 0;
    while i < 80 {
        let (m, b) = (i >> 4, i & 15);
        let (p1, n1, p2, n2) = (b & 8 != 0, b & 4 != 0, b & 2 != 0, b & 1 != 0);
        let (outside, inside) = match m {
            0 => (false, true),
            1 => (n1 | n2, p1 & p2),
            2 => (n1 & n2, p1 | p2),
            3 => ((p1 & p2) | (n1 & n2), (p1 & n2) | (n1 & p2)),
            _ => (false, false),
        };
        table[i] = if outside {
            OUTSIDE
        } else if inside {
            INSIDE
        } else {
            0
        };
        i += 1;
    }
    table
};

/// One wall for the segment test: its ends, their vertex ids, its own id and its
/// obstacle (see [`hull_corners`]).
#[derive(Clone, Copy, Debug)]
struct WallEnds {
    a: Point,
    b: Point,
    ia: u32,
    ib: u32,
    id: u32,
    obstacle: u32,
}

/// No obstacle.
const NONE: u32 = u32::MAX;

/// A vertex as a corner of the convex hull of its obstacle: the obstacle's number (or
/// [`NONE`] when the vertex is not a strictly convex corner of that hull) and the hull's
/// two sides from it (rounded differences: to the next corner counter-clockwise and to
/// the previous one), with the error-bound factors of [`Allowed`].
#[derive(Clone, Copy, Debug)]
struct HullCorner {
    obstacle: u32,
    next: Point,
    prev: Point,
    next_bound: f64,
    prev_bound: f64,
}

impl HullCorner {
    /// The obstacle whose walls a segment leaving this corner along `d` (a rounded
    /// difference of two vertices) cannot meet again, or `NONE - 1` (matching no wall).
    ///
    /// The hull lies in the cone its two sides span at a strictly convex corner (an
    /// angle below π), so a segment leaving the corner strictly outside that cone meets
    /// the hull, and every wall and vertex of the obstacle, only at the corner itself:
    /// neither a proper crossing nor a vertex inside the segment. "Strictly outside" is
    /// a cross product with one side certainly negative (beyond its rounding error, as
    /// in [`Allowed::code`]).
    /// `dl` is `|d.x| + |d.y|`.
    #[inline(always)]
    fn skipped_towards(&self, d: Point, dl: f64) -> u32 {
        let c1 = self.next.x * d.y - self.next.y * d.x;
        let c2 = d.x * self.prev.y - d.y * self.prev.x;
        let outside =
            (c1 < -(self.next_bound * dl + CROSS_ABS)) | (c2 < -(self.prev_bound * dl + CROSS_ABS));
        if outside && self.obstacle != NONE {
            self.obstacle
        } else {
            NONE - 1
        }
    }
}

/// The obstacles (connected sets of walls) of a free space: per vertex its obstacle and
/// its [`HullCorner`], per obstacle its bounding box.
///
/// Any connected set of walls lies in the convex hull of its vertices, whatever its
/// shape (convex, star-shaped, with pockets or thin walls), so the skip of
/// [`HullCorner::skipped_towards`] holds for every obstacle, at the corners of its hull,
/// and so do the cones of [`crate::cones`]. For a convex polygon every corner is a hull
/// corner; for a star, the tips.
struct Obstacles {
    /// Per vertex, its obstacle's number. Obstacles with at most [`SMALL_WALLS`] walls
    /// come first (see [`Obstacles::small`]).
    of: Vec<u32>,
    corners: Vec<HullCorner>,
    /// Per obstacle, its bounding box.
    lo: Vec<Point>,
    hi: Vec<Point>,
    /// Obstacles `0..small` are tested by their cones, the rest through the grid.
    small: usize,
    /// Per obstacle, whether it encloses every vertex as a convex ring (see
    /// [`Obstacles::encloses_all`]): its walls are never looked at.
    enclosing: Vec<bool>,
}

/// Obstacles with at most this many walls are tested wall by wall when their cone and
/// box allow a segment ([`crate::cones`]); larger ones (merged grid cells, the boundary
/// with everything touching it) through the grid cells along the segment.
const SMALL_WALLS: usize = 32;

/// A row of pairs uses the cones when at least this many of its pairs, and at least
/// a quarter as many as there are small obstacles, pass the first stage of the
/// direction filter (see [`SegmentTester::use_cones`]): setting up the cones costs
/// O(obstacles) per row, each segment test by the cones saves a part of a grid walk.
/// Measured with callgrind on the pyvisgraph comparison's inputs (100–1,000 vertices;
/// with the boundary no longer looked at, sparser rows than before gain).
const CONE_ROW: usize = 8;

/// With more small obstacles than this, every obstacle goes through the grid: setting
/// up the cones from every vertex costs O(obstacles) per vertex.
const MAX_CONE_OBSTACLES: usize = 1_000;

impl Obstacles {
    fn new(fs: &FreeSpace) -> Self {
        let n = fs.points.len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn root(parent: &mut [u32], mut v: u32) -> u32 {
            while parent[v as usize] != v {
                let up = parent[parent[v as usize] as usize];
                parent[v as usize] = up;
                v = up;
            }
            v
        }
        for w in &fs.walls {
            let (ra, rb) = (root(&mut parent, w.a), root(&mut parent, w.b));
            parent[ra as usize] = rb;
        }
        let rep: Vec<u32> = (0..n as u32).map(|v| root(&mut parent, v)).collect();
        let mut walls = vec![0usize; n];
        for w in &fs.walls {
            walls[rep[w.a as usize] as usize] += 1;
        }
        // Vertices grouped by obstacle, small obstacles first.
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_unstable_by_key(|&v| {
            let r = rep[v as usize];
            (walls[r as usize] > SMALL_WALLS, r)
        });
        let mut groups: Vec<&[u32]> = order
            .chunk_by(|&u, &v| rep[u as usize] == rep[v as usize])
            .collect();
        let mut small = groups
            .iter()
            .take_while(|g| walls[rep[g[0] as usize] as usize] <= SMALL_WALLS)
            .count();
        if small > MAX_CONE_OBSTACLES {
            small = 0;
        }
        let none = HullCorner {
            obstacle: NONE,
            next: Point::ZERO,
            prev: Point::ZERO,
            next_bound: 0.0,
            prev_bound: 0.0,
        };
        let mut obstacles = Obstacles {
            of: vec![NONE; n],
            corners: vec![none; n],
            lo: Vec::with_capacity(groups.len()),
            hi: Vec::with_capacity(groups.len()),
            small,
            enclosing: vec![false; groups.len()],
        };
        let all = corridor_geom::Aabb::from_points(fs.points.iter().copied());
        let bound = |w: Point| CROSS_REL * (w.x.abs() + w.y.abs());
        let mut points: Vec<Point> = Vec::new();
        for (c, group) in groups.drain(..).enumerate() {
            points.clear();
            points.extend(group.iter().map(|&v| fs.points[v as usize]));
            let (mut lo, mut hi) = (points[0], points[0]);
            for (&v, &y) in group.iter().zip(&points) {
                obstacles.of[v as usize] = c as u32;
                lo = Point::new(lo.x.min(y.x), lo.y.min(y.y));
                hi = Point::new(hi.x.max(y.x), hi.y.max(y.y));
            }
            obstacles.lo.push(lo);
            obstacles.hi.push(hi);
            // Counter-clockwise, strictly convex corners only (exact orientation tests).
            let hull = convex_hull(&points);
            let m = hull.len();
            if m < 3 {
                continue;
            }
            if all.is_some_and(|all| {
                lo.x <= all.min.x && lo.y <= all.min.y && hi.x >= all.max.x && hi.y >= all.max.y
            }) {
                obstacles.enclosing[c] =
                    Self::encloses_all(fs, &hull, group, walls[rep[group[0] as usize] as usize]);
            }
            for k in 0..m {
                let Some(v) = fs.vertex_at(hull[k]) else {
                    continue;
                };
                let y = hull[k];
                let (next, prev) = (hull[(k + 1) % m] - y, hull[(k + m - 1) % m] - y);
                obstacles.corners[v] = HullCorner {
                    obstacle: c as u32,
                    next,
                    prev,
                    next_bound: bound(next),
                    prev_bound: bound(prev),
                };
            }
        }
        obstacles
    }

    /// Whether the obstacle with vertices `group` (`wall_count` walls, counter-clockwise
    /// convex hull `hull`) is a convex ring holding every vertex of the free space: its
    /// vertices are exactly the strictly convex corners of its hull, its walls exactly
    /// the hull's sides, and no vertex lies strictly outside the hull (the boundary
    /// rectangle of most maps, when nothing touches it).
    ///
    /// Then no segment between two vertices meets it but at its ends: the segment lies
    /// in the (convex) hull, so it cannot cross a side of the hull properly, and no
    /// corner of the hull (an extreme point) lies strictly inside a segment within it.
    fn encloses_all(fs: &FreeSpace, hull: &[Point], group: &[u32], wall_count: usize) -> bool {
        let m = hull.len();
        if group.len() != m || wall_count != m {
            return false;
        }
        // Every vertex a hull corner (hull corners are distinct group points).
        let mut at = Vec::with_capacity(m);
        for &y in hull {
            match fs.vertex_at(y) {
                Some(v) if group.contains(&(v as u32)) => at.push(v as u32),
                _ => return false,
            }
        }
        // Every wall of the group joins two consecutive corners.
        for (k, &v) in at.iter().enumerate() {
            let next = at[(k + 1) % m];
            let joined = fs.incident_walls(v).iter().any(|&w| {
                let w = &fs.walls[w as usize];
                (w.a, w.b) == (v, next) || (w.a, w.b) == (next, v)
            });
            if !joined {
                return false;
            }
        }
        // No vertex strictly right of a counter-clockwise side.
        fs.points.iter().all(|&y| {
            (0..m).all(|k| orient(hull[k], hull[(k + 1) % m], y) != Orientation::Clockwise)
        })
    }

    /// Obstacle `c`'s cone from vertex `v` at `p` (directions from `p`, see
    /// [`crate::cones::Cone`]): its hull's corner cone when `v` is a hull corner of
    /// `c`, its box's cone when `p` is outside its box, else none.
    /// Obstacles whose box misses `region` (holding every segment of the view) are
    /// never looked at.
    #[inline]
    fn cone_from(&self, v: u32, p: Point, c: usize, region: (Point, Point)) -> Seen {
        let (lo, hi) = (self.lo[c], self.hi[c]);
        let off_region =
            (hi.x < region.0.x) | (lo.x > region.1.x) | (hi.y < region.0.y) | (lo.y > region.1.y);
        if off_region || self.enclosing[c] {
            return Seen::Never;
        }
        let cone = if self.of[v as usize] == c as u32 {
            let corner = &self.corners[v as usize];
            (corner.obstacle != NONE).then_some((corner.next, corner.prev))
        } else {
            box_cone(p, lo, hi)
        };
        match cone {
            Some((a, b)) => Seen::Within(a, b),
            None => Seen::Always,
        }
    }
}

/// The sign of `orient(p, q, y)` from `n = q − p` (rounded once per segment) when the
/// rounded determinant `n × (y − p)` decides it (Shewchuk's stage-A bound, pivot `p`),
/// else 0: exactly 0 when `y` is `p` or `q`, otherwise perhaps undecided. No branches.
#[inline(always)]
fn quick_side(p: Point, n: Point, y: Point) -> i32 {
    const BOUND: f64 = 3.330_669_073_875_471_6e-16;
    let left = n.x * (y.y - p.y);
    let right = n.y * (y.x - p.x);
    let det = left - right;
    let bound = BOUND * (left.abs() + right.abs());
    (det > bound) as i32 - (-det > bound) as i32
}

/// One segment `p q` between vertices `v` and `x` under test, with what every wall test
/// needs (`n = q − p` rounded once; `lo`, `hi` the segment's bounding box).
struct Probe {
    p: Point,
    q: Point,
    n: Point,
    v: u32,
    x: u32,
    lo: Point,
    hi: Point,
}

/// What one wall does to the segment.
enum WallVerdict {
    /// It crosses the segment properly: blocked.
    Crosses,
    /// Anything else (vertices of it strictly inside the segment are noted).
    Passes,
}

impl Probe {
    /// Whether `wall` certainly neither crosses the segment nor has a vertex strictly
    /// inside it: its box misses the segment's, or both its ends are strictly on one
    /// side of the line (or at `p` / `q`). Branch-free: most walls are dismissed here,
    /// and which ones is hard to predict.
    #[inline(always)]
    fn dismisses(&self, wall: &WallEnds) -> bool {
        let (sa, sb) = (
            quick_side(self.p, self.n, wall.a),
            quick_side(self.p, self.n, wall.b),
        );
        self.dismisses_sided(wall.a, wall.b, wall.ia, wall.ib, sa, sb)
    }

    /// [`Probe::dismisses`] for the wall `a b` (vertices `ia`, `ib`) with its ends'
    /// [`quick_side`]s known.
    #[inline(always)]
    fn dismisses_sided(&self, a: Point, b: Point, ia: u32, ib: u32, sa: i32, sb: i32) -> bool {
        let (lo, hi) = (self.lo, self.hi);
        let off_box = (a.x < lo.x) & (b.x < lo.x)
            | (a.x > hi.x) & (b.x > hi.x)
            | (a.y < lo.y) & (b.y < lo.y)
            | (a.y > hi.y) & (b.y > hi.y);
        // A 0 at a wall end that is `p` or `q` is exact; elsewhere it may be.
        let (v, x) = (self.v, self.x);
        let unsure = (sa == 0) & (ia != v) & (ia != x) | (sb == 0) & (ib != v) & (ib != x);
        off_box | !(unsure | (sa * sb < 0))
    }

    /// The exact test of one wall not [`Probe::dismisses`]ed: a proper crossing, or
    /// its vertices strictly inside the segment pushed to `inside`.
    fn examine(&self, wall: &WallEnds, inside: &mut Vec<u32>) -> WallVerdict {
        let (p, q, v, x) = (self.p, self.q, self.v, self.x);
        // Points are interned: a wall end is at `p` exactly when it is vertex `v`. A wall
        // end at `p` or `q` is collinear there (no need to ask).
        let side = |y: Point, id: u32| {
            if id == v || id == x {
                Orientation::Collinear
            } else {
                orient(p, q, y)
            }
        };
        let (a, b) = (wall.a, wall.b);
        let (oa, ob) = (side(a, wall.ia), side(b, wall.ib));
        if opposite(oa, ob) {
            if opposite(orient(a, b, p), orient(a, b, q)) {
                return WallVerdict::Crosses;
            }
            return WallVerdict::Passes;
        }
        for (id, y, o) in [(wall.ia, a, oa), (wall.ib, b, ob)] {
            if o == Orientation::Collinear && id != v && id != x && point_on_segment(y, p, q) {
                inside.push(id);
            }
        }
        WallVerdict::Passes
    }
}

/// Scratch space for segment tests over one free space.
struct SegmentTester<'a> {
    fs: &'a FreeSpace,
    /// Per wall.
    walls: Vec<WallEnds>,
    obstacles: Obstacles,
    /// CSR: the walls of small obstacle `c` are
    /// `small_walls[small_start[c]..small_start[c + 1]]`.
    small_start: Vec<u32>,
    small_walls: Vec<WallEnds>,
    /// The walls of the other obstacles per grid cell (looked at along the segment
    /// when the cones are used), and every wall per grid cell (when not).
    large_slots: GridSlots,
    all_slots: GridSlots,
    /// The small obstacles' cones from vertex `view_of` (`NONE`: not set yet).
    view: ConeView,
    view_of: u32,
    /// A box holding every segment tested from `view_of` (see
    /// [`SegmentTester::use_cones`]).
    region: (Point, Point),
    /// Whether the free space has thin walls (two-sided ones).
    thin_walls: bool,
    /// Whether to use the cones for the current row of pairs (see
    /// [`SegmentTester::use_cones`]).
    cones: bool,
    wall_mark: Vec<u32>,
    stamp: u32,
    inside: Vec<u32>,
}

impl<'a> SegmentTester<'a> {
    /// Whether the next segment tests (a row of pairs from one vertex) use the small
    /// obstacles' cones from that vertex ([`crate::cones`]) or the grid for all walls.
    /// The cones cost a set-up per vertex, O(obstacles); rows with few candidate pairs
    /// walk the grid instead (see [`CONE_ROW`]).
    ///
    /// `region` (lower and upper corner) holds every segment tested until the next call:
    /// obstacles outside it are left out of the cones.
    fn use_cones(&mut self, cones: bool, region: (Point, Point)) {
        self.cones = cones;
        self.region = region;
        self.view_of = NONE;
    }

    fn new(fs: &'a FreeSpace) -> Self {
        let obstacles = Obstacles::new(fs);
        let walls: Vec<WallEnds> = fs
            .walls
            .iter()
            .enumerate()
            .map(|(id, w)| WallEnds {
                a: fs.points[w.a as usize],
                b: fs.points[w.b as usize],
                ia: w.a,
                ib: w.b,
                id: id as u32,
                obstacle: obstacles.of[w.a as usize],
            })
            .collect();
        let small = obstacles.small;
        // Small obstacles' walls, obstacle after obstacle.
        let mut small_start = vec![0u32; small + 1];
        for w in &walls {
            if (w.obstacle as usize) < small {
                small_start[w.obstacle as usize + 1] += 1;
            }
        }
        for c in 0..small {
            small_start[c + 1] += small_start[c];
        }
        let mut fill = small_start.clone();
        let mut small_walls = walls.clone();
        small_walls.truncate(small_start[small] as usize);
        for w in &walls {
            if (w.obstacle as usize) < small {
                let slot = &mut fill[w.obstacle as usize];
                small_walls[*slot as usize] = *w;
                *slot += 1;
            }
        }
        // Walls of enclosing obstacles are never looked at.
        let enclosing = &obstacles.enclosing;
        let large_slots = GridSlots::new(fs, &walls, |w| {
            w.obstacle as usize >= small && !enclosing[w.obstacle as usize]
        });
        let all_slots = GridSlots::new(fs, &walls, |w| !enclosing[w.obstacle as usize]);
        SegmentTester {
            fs,
            view: ConeView::new(small),
            view_of: NONE,
            walls,
            obstacles,
            small_start,
            small_walls,
            large_slots,
            all_slots,
            cones: true,
            region: (Point::splat(f64::NEG_INFINITY), Point::splat(f64::INFINITY)),
            thin_walls: fs.walls.iter().any(|w| w.two_sided),
            wall_mark: vec![0; fs.walls.len()],
            stamp: 0,
            inside: Vec::new(),
        }
    }

    /// Whether the open segment between vertices `v` and `x` is free, and if so what a
    /// path along it must agree with side-wise, for each direction (`v → x`, `x → v`).
    /// Equal to [`crate::naive::visibility`] both ways.
    ///
    /// Walls looked at: those of the small obstacles whose cone from `v`
    /// ([`crate::cones`]) holds the segment's direction and whose box meets the
    /// segment's, and those of the other obstacles in the grid cells along the segment.
    /// The walls of the obstacle at `x` are skipped when the segment reaches `x` from
    /// strictly outside its obstacle's hull ([`HullCorner::skipped_towards`]), and so
    /// are those of a large obstacle at `v`; those of an obstacle enclosing every vertex
    /// ([`Obstacles::encloses_all`]) never.
    ///
    /// `hint` is a wall to try first (the one that blocked the previous segment from
    /// `v`: consecutive candidates often end on one obstacle and are blocked by the same
    /// wall); it is updated to this segment's blocker. Only an exact proper crossing
    /// counts, so the hint changes the speed, never the answer.
    fn visibility(&mut self, v: u32, x: u32, hint: &mut u32) -> (Option<Arrival>, Option<Arrival>) {
        let fs = self.fs;
        let (p, q) = (fs.points[v as usize], fs.points[x as usize]);
        let n = q - p;
        let probe = Probe {
            p,
            q,
            n,
            v,
            x,
            lo: Point::new(p.x.min(q.x), p.y.min(q.y)),
            hi: Point::new(p.x.max(q.x), p.y.max(q.y)),
        };
        if let Some(w) = self.walls.get(*hint as usize) {
            if !probe.dismisses(w) {
                if let WallVerdict::Crosses = probe.examine(w, &mut self.inside) {
                    return (None, None);
                }
            }
        }
        self.inside.clear();
        let nl = n.x.abs() + n.y.abs();
        // Rounding is symmetric: the direction back is exactly `-n`. (`NONE - 1` matches
        // no obstacle.)
        let skip_x = self.obstacles.corners[x as usize].skipped_towards(-n, nl);
        if self.cones {
            if self.view_of != v {
                let obstacles = &self.obstacles;
                let region = self.region;
                self.view.set(|c| obstacles.cone_from(v, p, c, region));
                self.view_of = v;
            }
            let (view, inside) = (&self.view, &mut self.inside);
            let (lo, hi) = (probe.lo, probe.hi);
            for &c in view.bin(n).iter().chain(&view.always) {
                let c = c as usize;
                let (olo, ohi) = (self.obstacles.lo[c], self.obstacles.hi[c]);
                let off_box = (ohi.x < lo.x) | (olo.x > hi.x) | (ohi.y < lo.y) | (olo.y > hi.y);
                if off_box | (c as u32 == skip_x) || view.cones[c].excludes(n, nl) {
                    continue;
                }
                let walls = self.small_start[c] as usize..self.small_start[c + 1] as usize;
                for wall in &self.small_walls[walls] {
                    if probe.dismisses(wall) {
                        continue;
                    }
                    if let WallVerdict::Crosses = probe.examine(wall, inside) {
                        *hint = wall.id;
                        return (None, None);
                    }
                }
            }
        }
        // The grid: every obstacle without cones, the large ones with.
        let grid = if self.cones {
            &self.large_slots
        } else {
            &self.all_slots
        };
        let skip_v = self.obstacles.corners[v as usize].skipped_towards(n, nl);
        let walk = grid_walk(
            fs,
            &probe,
            grid,
            skip_v,
            skip_x,
            &mut self.wall_mark,
            &mut self.stamp,
            &mut self.inside,
        );
        if let Err(blocker) = walk {
            *hint = blocker;
            return (None, None);
        }
        if self.inside.is_empty() {
            // Nothing on the way: the arrival depends only on whether the segment is a
            // thin wall, the same both ways (with no thin walls, free on both sides).
            let arrival = if self.thin_walls {
                Walk::new(fs, Place::Vertex(v), Dir::away_from(p)).arrive(Place::Vertex(x))
            } else {
                Arrival {
                    centre_sides: BOTH,
                    end_sides: BOTH,
                    joint: false,
                }
            };
            return (Some(arrival), Some(arrival));
        }
        self.inside.sort_unstable_by(|&u, &w| {
            along_ray_cmp(p, fs.points[u as usize], fs.points[w as usize])
        });
        self.inside.dedup();
        let walk = |from: u32, to: u32, on_the_way: &mut dyn Iterator<Item = u32>| {
            let mut walk = Walk::new(
                fs,
                Place::Vertex(from),
                Dir::away_from(fs.points[from as usize]),
            );
            for u in on_the_way {
                walk.arrive(Place::Vertex(u));
                if !walk.pass(u) {
                    return None;
                }
            }
            Some(walk.arrive(Place::Vertex(to)))
        };
        (
            walk(v, x, &mut self.inside.iter().copied()),
            walk(x, v, &mut self.inside.iter().rev().copied()),
        )
    }
}

/// Walls per grid cell, in the grid's order: cell `i`'s are
/// `slots[start[i]..start[i + 1]]`.
struct GridSlots {
    start: Vec<u32>,
    slots: Vec<WallEnds>,
}

impl GridSlots {
    /// The walls that `keep` keeps, in the grid cells of `fs` that hold them.
    fn new(fs: &FreeSpace, walls: &[WallEnds], keep: impl Fn(&WallEnds) -> bool) -> Self {
        let mut start = vec![0u32];
        let mut slots = Vec::new();
        for cell in 0..fs.grid.cell_count() {
            slots.extend(
                fs.grid
                    .cell_items(cell)
                    .iter()
                    .map(|&w| walls[w as usize])
                    .filter(&keep),
            );
            start.push(slots.len() as u32);
        }
        if slots.is_empty() {
            start.clear();
        }
        GridSlots { start, slots }
    }
}

/// The walls of `grid` in the cells along the probe's segment (padded) through
/// [`Probe::dismisses`] and [`Probe::examine`], each once (`wall_mark`, `stamp`),
/// skipping the obstacles `skip_v` and `skip_x`. `Err` with the first wall found to
/// cross the segment.
#[allow(clippy::too_many_arguments)]
fn grid_walk(
    fs: &FreeSpace,
    probe: &Probe,
    grid: &GridSlots,
    skip_v: u32,
    skip_x: u32,
    wall_mark: &mut [u32],
    stamp: &mut u32,
    inside: &mut Vec<u32>,
) -> Result<(), u32> {
    if grid.slots.is_empty() {
        return Ok(());
    }
    *stamp = stamp.wrapping_add(1);
    if *stamp == 0 {
        wall_mark.iter_mut().for_each(|m| *m = 0);
        *stamp = 1;
    }
    let stamp = *stamp;
    let (p, q) = (probe.p, probe.q);
    let scale = p.abs().max_element().max(q.abs().max_element()) + fs.bounds().size().max_element();
    let pad = 2e-9 * scale + 2e-6 * fs.grid.cell_size();
    let mut blocker = u32::MAX;
    let free = fs.grid.cover_segment(p, q, pad, |cell| {
        let cell_slots = &grid.slots[grid.start[cell] as usize..grid.start[cell + 1] as usize];
        for wall in cell_slots {
            if (wall.obstacle == skip_v) | (wall.obstacle == skip_x) || probe.dismisses(wall) {
                // Dismissals are the same in every cell.
                continue;
            }
            // Looked at in an earlier cell of this segment already?
            let mark = &mut wall_mark[wall.id as usize];
            if *mark == stamp {
                continue;
            }
            *mark = stamp;
            if let WallVerdict::Crosses = probe.examine(wall, inside) {
                blocker = wall.id;
                return false;
            }
        }
        true
    });
    if free {
        Ok(())
    } else {
        Err(blocker)
    }
}

fn opposite(x: Orientation, y: Orientation) -> bool {
    use Orientation::*;
    matches!(
        (x, y),
        (Clockwise, CounterClockwise) | (CounterClockwise, Clockwise)
    )
}

/// The directed edges of `graph`'s nodes, pair by pair (see the module doc).
pub(crate) fn adjacency(graph: &VisibilityGraph) -> Vec<Edge> {
    let fs = &graph.free;
    // About as many directed edges as the graph of a few hundred scattered polygons
    // has (the full graph ≈ 25 per vertex at 100 vertices, the reduced one ≈ 10): at
    // most one growth there, a few at thousands of vertices.
    let per_vertex = match graph.kind {
        GraphKind::Full => 32,
        GraphKind::Reduced => 16,
    };
    let mut edges = Vec::with_capacity(per_vertex * fs.points.len());
    // Vertices with nodes, the directions their nodes allow (CSR), and their node when
    // they have only one.
    let n = fs.points.len();
    let mut vertices: Vec<u32> = Vec::with_capacity(n);
    let mut single: Vec<u32> = Vec::with_capacity(n);
    let mut starts: Vec<u32> = Vec::with_capacity(n + 1);
    starts.push(0);
    let mut all: Vec<Allowed> = Vec::with_capacity(n);
    for v in 0..fs.points.len() as u32 {
        let before = all.len();
        for n in graph.nodes_at(v) {
            all.push(Allowed::new(
                &fs.wedges[graph.node_wedge[n as usize] as usize],
                graph.kind,
            ));
        }
        if all.len() > before {
            vertices.push(v);
            let mut nodes = graph.nodes_at(v);
            let only = nodes.next().filter(|_| nodes.next().is_none());
            single.push(only.unwrap_or(u32::MAX));
            starts.push(all.len() as u32);
        }
    }
    // The direction filter, branch-free over one row of pairs at a time: per vertex its
    // position and its only node's directions (a vertex with several nodes gets mode
    // bits 0 here, "unsure", and the exact per-node answer below).
    let pos: Vec<Point> = vertices.iter().map(|&v| fs.points[v as usize]).collect();
    let first: Vec<Allowed> = (0..vertices.len())
        .map(|i| {
            let mut a = all[starts[i] as usize];
            if single[i] == u32::MAX {
                a.mode = Mode::Several;
            }
            a
        })
        .collect();
    let several = |i: usize, d: Point| {
        let nodes = &all[starts[i] as usize..starts[i + 1] as usize];
        if nodes.iter().all(|a| a.filter(d) == Filter::Outside) {
            Filter::Outside
        } else {
            Filter::Unsure
        }
    };
    let mut codes: Vec<u8> = Vec::with_capacity(vertices.len());
    let mut tester = SegmentTester::new(fs);
    for i in 0..vertices.len() {
        let (v, p, here) = (vertices[i], pos[i], first[i]);
        codes.clear();
        // This end first (for the reduced graph most directions leave it untangent),
        // the other end only where that passes.
        here.codes_towards(p, &pos[i + 1..], &mut codes);
        let mut hint = u32::MAX;
        // The row's candidates: how many, and a box holding their segments.
        let (mut candidates, mut lo, mut hi) = (0, p, p);
        for (&code, &q) in codes.iter().zip(&pos[i + 1..]) {
            if code & OUTSIDE == 0 {
                candidates += 1;
                lo = Point::new(lo.x.min(q.x), lo.y.min(q.y));
                hi = Point::new(hi.x.max(q.x), hi.y.max(q.y));
            }
        }
        tester.use_cones(
            candidates >= CONE_ROW.max(tester.obstacles.small / 4),
            (lo, hi),
        );
        for (k, &code) in codes.iter().enumerate() {
            if code & OUTSIDE != 0 {
                continue;
            }
            let j = i + 1 + k;
            let (x, q) = (vertices[j], pos[j]);
            // Rounding is symmetric: the direction back is exactly `-d`.
            let back = p - q;
            let code = code | first[j].code(back, back.x.abs() + back.y.abs()) << 2;
            if code & OUTSIDE << 2 != 0 {
                continue;
            }
            if here.mode == Mode::Several && several(i, q - p) == Filter::Outside
                || first[j].mode == Mode::Several && several(j, p - q) == Filter::Outside
            {
                continue;
            }
            let (there, back) = tester.visibility(v, x, &mut hint);
            if code == INSIDE | INSIDE << 2 {
                // Each end's only node allows the direction with free space on both
                // sides: what `link` would find, without its exact wedge tests.
                let dist = p.distance(q);
                let (u, w) = (single[i], single[j]);
                if there.is_some_and(|a| a.admits(BOTH, BOTH)) {
                    edges.push(Edge {
                        from: u,
                        to: w,
                        length: dist,
                    });
                }
                if back.is_some_and(|a| a.admits(BOTH, BOTH)) {
                    edges.push(Edge {
                        from: w,
                        to: u,
                        length: q.distance(p),
                    });
                }
                continue;
            }
            if let Some(arrival) = there {
                graph.link(v, x, arrival, &mut edges);
            }
            if let Some(arrival) = back {
                graph.link(x, v, arrival, &mut edges);
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive;
    use corridor_geom::{Environment, Obstacle};

    fn p(x: i32, y: i32) -> Point {
        Point::new(x as f64, y as f64)
    }

    /// Every ordered pair of vertices through [`SegmentTester::visibility`] (with the
    /// blocker hint carried along as in the pair loop) against [`naive::visibility`]
    /// both ways.
    fn segment_tests_equal_naive(env: &Environment) -> usize {
        let fs = FreeSpace::from_environment(env).unwrap();
        let mut tester = SegmentTester::new(&fs);
        let n = fs.points.len() as u32;
        let mut free = 0;
        // Rows alternately by the obstacles' cones and by the grid alone; each row in
        // two halves (targets before and after `v`), each with the box of its
        // segments as the cones' region.
        for v in 0..n {
            let mut hint = u32::MAX;
            for x in (0..n).filter(|&x| x != v) {
                if x == 0 || x == v + 1 || (v == 0 && x == 1) {
                    let half = if x < v { 0..v } else { v + 1..n };
                    let pv = fs.points[v as usize];
                    let (lo, hi) =
                        half.map(|y| fs.points[y as usize])
                            .fold((pv, pv), |(lo, hi), q| {
                                (
                                    Point::new(lo.x.min(q.x), lo.y.min(q.y)),
                                    Point::new(hi.x.max(q.x), hi.y.max(q.y)),
                                )
                            });
                    tester.use_cones(v % 2 == 0, (lo, hi));
                }
                let (there, back) = tester.visibility(v, x, &mut hint);
                let (pv, px) = (fs.points[v as usize], fs.points[x as usize]);
                assert_eq!(there, naive::visibility(&fs, v, x), "{pv} → {px}");
                assert_eq!(back, naive::visibility(&fs, x, v), "{px} → {pv}");
                free += there.is_some() as usize;
            }
        }
        free
    }

    /// A U-shaped obstacle (a pocket open to the top), an L with a reflex corner, a
    /// triangle and a thin wall, all on integer coordinates so that many vertex pairs
    /// are collinear with other vertices and walls.
    fn pocket_environment() -> Environment {
        let mut env = Environment::rectangle(p(-2, -2), p(14, 12));
        env.insert(Obstacle::polygon(vec![
            p(2, 2),
            p(8, 2),
            p(8, 8),
            p(6, 8),
            p(6, 4),
            p(4, 4),
            p(4, 8),
            p(2, 8),
        ]));
        env.insert(Obstacle::polygon(vec![
            p(9, 1),
            p(11, 1),
            p(11, 2),
            p(10, 2),
            p(10, 5),
            p(9, 5),
        ]));
        env.insert(Obstacle::polygon(vec![p(10, 8), p(12, 8), p(11, 10)]));
        env.insert(Obstacle::Polyline(vec![p(0, 10), p(4, 10), p(6, 11)]));
        env
    }

    #[test]
    fn segment_test_equals_naive_around_concave_obstacles() {
        let env = pocket_environment();
        let fs = FreeSpace::from_environment(&env).unwrap();
        let id = |q: Point| fs.vertex_at(q).unwrap() as u32;
        let seen = |a: Point, b: Point| naive::visibility(&fs, id(a), id(b)).is_some();
        // The configurations this environment is for, as the oracle sees them.
        // Across the pocket's mouth and down into it: free.
        assert!(seen(p(4, 8), p(6, 8)));
        assert!(seen(p(4, 8), p(6, 4)));
        // Into the pocket through its mouth, down to its inner corner: free; on through
        // the pocket's inner wall: blocked.
        assert!(seen(p(4, 10), p(6, 4)));
        assert!(!seen(p(4, 10), p(9, 1)));
        // Along the top walls of both arms and across the mouth, through two corners.
        assert!(seen(p(2, 8), p(8, 8)));
        // Along the wall ending at the L's reflex corner (10, 2): free; on past that
        // corner (through it, into the L's upright) to the U's corner (8, 2): blocked.
        assert!(seen(p(11, 2), p(10, 2)));
        assert!(!seen(p(11, 2), p(8, 2)));
        // Grazing the L's corner (10, 5) from the triangle: free up to it, blocked past
        // it (the line goes on through the L to the U's corner (8, 2)).
        assert!(seen(p(12, 8), p(10, 5)));
        assert!(!seen(p(12, 8), p(8, 2)));
        let free = segment_tests_equal_naive(&env);
        assert!(free > 0);
    }

    /// The degenerate random environments of the integration tests (integer grid,
    /// touching cells, pinches, thin walls), with every row tested both by the cones and
    /// by the grid, and with more, smaller obstacles than the pair loop's rows reach
    /// the cones with.
    #[test]
    fn segment_test_equals_naive_on_degenerate_environments() {
        use rand::{Rng, SeedableRng};
        let mut free = 0;
        for seed in 0..150u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let (w, h) = (rng.random_range(3..8), rng.random_range(3..8));
            let mut env = Environment::rectangle(p(0, 0), p(w, h));
            for y in 0..h {
                for x in 0..w {
                    if !rng.random_bool(0.35) {
                        continue;
                    }
                    let (a, b, c, d) = (p(x, y), p(x + 1, y), p(x + 1, y + 1), p(x, y + 1));
                    env.insert(Obstacle::polygon(match rng.random_range(0..6) {
                        0 | 1 => vec![a, b, c, d],
                        2 => vec![a, b, c],
                        3 => vec![a, c, d],
                        4 => vec![a, b, d],
                        _ => vec![b, c, d],
                    }));
                }
            }
            // Thin walls along grid lines and diagonals (dropped where they would cross
            // an obstacle, as the integration tests' generator does).
            for _ in 0..rng.random_range(0..3) {
                let (x, y) = (rng.random_range(0..w), rng.random_range(0..h));
                let wall = vec![p(x, y), p(x + 1, y + rng.random_range(0..2))];
                let mut with = env.clone();
                with.insert(Obstacle::Polyline(wall));
                if FreeSpace::from_disjoint(&with).is_ok() {
                    env = with;
                }
            }
            free += segment_tests_equal_naive(&env);
        }
        assert!(free > 0);
    }

    /// Scattered convex and star-shaped polygons in general position (the pyvisgraph
    /// comparison's inputs, smaller), rows both ways as above.
    #[test]
    fn segment_test_equals_naive_on_scattered_polygons() {
        use corridor_testkit::random::{random_concave_polygon, random_convex_polygon};
        use rand::{Rng, SeedableRng};
        for seed in 0..6u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut env = Environment::rectangle(p(-10, -10), p(60, 60));
            for y in 0..5 {
                for x in 0..5 {
                    let centre = Point::new(10.0 * x as f64 + 5.0, 10.0 * y as f64 + 5.0);
                    let radius = 1.5 + 2.5 * rng.random::<f64>();
                    let ring = if seed % 2 == 0 {
                        let corners = rng.random_range(3..=8);
                        random_convex_polygon(&mut rng, centre, radius, corners)
                    } else {
                        let corners = rng.random_range(5..=10);
                        random_concave_polygon(&mut rng, centre, radius, corners)
                    };
                    env.insert(Obstacle::Polygon(corridor_geom::Polygon::simple(ring)));
                }
            }
            assert!(segment_tests_equal_naive(&env) > 0);
        }
    }

    /// Which obstacles count as enclosing every vertex: the plain rectangle boundary, a
    /// convex boundary, not an L-shaped one, not one an obstacle touches (a vertex on
    /// its side); and the segment tests stay equal to the oracle.
    #[test]
    fn enclosing_boundaries() {
        use corridor_geom::Ring;
        let inner = || Obstacle::polygon(vec![p(3, 3), p(5, 3), p(4, 5)]);
        let enclosing = |env: &Environment| {
            let fs = FreeSpace::from_environment(env).unwrap();
            let obstacles = Obstacles::new(&fs);
            segment_tests_equal_naive(env);
            let boundary = obstacles.of[fs.vertex_at(env.boundary().vertices()[0]).unwrap()];
            obstacles.enclosing[boundary as usize]
        };
        let mut rectangle = Environment::rectangle(p(0, 0), p(10, 8));
        rectangle.insert(inner());
        assert!(enclosing(&rectangle));
        let mut hexagon = Environment::new(Ring::new(vec![
            p(2, 0),
            p(8, 0),
            p(10, 4),
            p(8, 8),
            p(2, 8),
            p(0, 4),
        ]));
        hexagon.insert(inner());
        assert!(enclosing(&hexagon));
        let mut l_shape = Environment::new(Ring::new(vec![
            p(0, 0),
            p(10, 0),
            p(10, 4),
            p(6, 4),
            p(6, 8),
            p(0, 8),
        ]));
        l_shape.insert(Obstacle::polygon(vec![p(1, 1), p(3, 1), p(2, 3)]));
        l_shape.insert(Obstacle::polygon(vec![p(7, 1), p(9, 1), p(8, 3)]));
        assert!(!enclosing(&l_shape));
        let mut touched = Environment::rectangle(p(0, 0), p(10, 8));
        touched.insert(Obstacle::polygon(vec![p(0, 3), p(4, 3), p(2, 5)]));
        touched.insert(inner());
        assert!(!enclosing(&touched));
    }

    #[test]
    fn segment_test_equals_naive_on_star_shaped_obstacles() {
        // Star-shaped (concave) polygons whose spikes reach past one another's
        // reflex corners, with several points on common lines.
        let mut env = Environment::rectangle(p(0, 0), p(20, 20));
        for (cx, cy) in [(5, 5), (14, 6), (6, 14), (15, 15)] {
            let ring: Vec<Point> = [
                (0, -4),
                (1, -1),
                (4, 0),
                (1, 1),
                (0, 4),
                (-1, 1),
                (-4, 0),
                (-1, -1),
            ]
            .iter()
            .map(|&(dx, dy)| p(cx + dx, cy + dy))
            .collect();
            env.insert(Obstacle::polygon(ring));
        }
        assert!(segment_tests_equal_naive(&env) > 0);
    }
}
