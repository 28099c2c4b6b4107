//! Is a decomposition valid? An independent checker: it shares no code with the builder
//! (its own R-trees from `rstar`, its own exact tests), so a bug in the builder cannot
//! hide itself here.
//!
//! It verifies that every region is a strictly convex polygon, that region interiors are
//! pairwise disjoint, that every region lies in the free space (no boundary or obstacle
//! edge meets its interior, no point obstacle lies in it, and a point inside it is
//! inside the boundary and outside every polygon obstacle), and that the links given
//! are exactly the pairs of regions sharing a boundary piece of positive length, with
//! that piece as their portal.

use crate::region::RegionId;
use corridor_geom::{orient, Aabb, Environment, Obstacle, ObstacleId, Orientation, Point, Segment};
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{RTree, AABB};
use std::collections::{BTreeMap, HashMap};

/// A rule the decomposition breaks, naming the regions involved.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValidationError {
    /// The region's vertices do not make a strictly convex counter-clockwise polygon.
    #[error("region {0} is not strictly convex")]
    NotConvex(RegionId),
    /// Two regions' interiors overlap.
    #[error("regions {0} and {1} overlap")]
    Overlap(RegionId, RegionId),
    /// A wall (of the boundary, or of the obstacle named) crosses a region's interior.
    #[error("region {region} is crossed by a wall of {}", owner.map_or("the boundary".to_string(), |o| format!("obstacle {o}")))]
    CrossedByWall {
        /// The region.
        region: RegionId,
        /// The obstacle, or `None` for the boundary.
        owner: Option<ObstacleId>,
    },
    /// A point obstacle lies inside a region.
    #[error("point obstacle {obstacle} lies inside region {region}")]
    ContainsPoint {
        /// The region.
        region: RegionId,
        /// The point obstacle.
        obstacle: ObstacleId,
    },
    /// A region lies outside the boundary or inside an obstacle.
    #[error("region {0} is not in the free space")]
    NotFree(RegionId),
    /// Two regions share a boundary piece but are not linked.
    #[error("regions {0} and {1} share a boundary piece but are not linked")]
    MissingLink(RegionId, RegionId),
    /// Two regions are linked but share no boundary piece of positive length.
    #[error("regions {0} and {1} are linked but not adjacent")]
    ExtraLink(RegionId, RegionId),
    /// A link's portal is not the regions' shared boundary piece.
    #[error("the portal of {0} and {1} is not their shared boundary piece")]
    WrongPortal(RegionId, RegionId),
    /// A link names a region that does not exist.
    #[error("a link names unknown region {0}")]
    UnknownRegion(RegionId),
}

/// What the checker measured on a valid decomposition (on the checked regions, when a
/// window was given).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// Number of regions checked.
    pub regions: usize,
    /// Number of links (pairs of adjacent regions).
    pub links: usize,
    /// The largest number of regions meeting at one point (ASFV promises at most four
    /// where only quads meet).
    pub max_regions_at_point: usize,
}

type Boxed = GeomWithData<Rectangle<[f64; 2]>, usize>;

fn boxed(points: impl IntoIterator<Item = Point>, data: usize) -> Boxed {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        lo = [lo[0].min(p.x), lo[1].min(p.y)];
        hi = [hi[0].max(p.x), hi[1].max(p.y)];
    }
    GeomWithData::new(Rectangle::from_corners(lo, hi), data)
}

fn envelope(points: &[Point]) -> AABB<[f64; 2]> {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        lo = [lo[0].min(p.x), lo[1].min(p.y)];
        hi = [hi[0].max(p.x), hi[1].max(p.y)];
    }
    AABB::from_corners(lo, hi)
}

/// An edge of the boundary or of an obstacle, for the checker.
struct Edge {
    a: Point,
    b: Point,
    owner: Option<ObstacleId>,
    /// Whether it bounds area (boundary or polygon obstacle).
    area: bool,
}

/// Checks `regions` (id, counter-clockwise vertices) and `links` (pairs with their
/// portal) against `env`. Returns the first broken rule.
///
/// ```
/// use corridor_asfv::{check_regions, RegionId};
/// use corridor_geom::{Environment, Point};
/// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 4.0));
/// let no_regions: Vec<(RegionId, Vec<Point>)> = Vec::new();
/// let report = check_regions(&env, &no_regions, &[]).unwrap();
/// assert_eq!(report.regions, 0);
/// ```
pub fn check_regions(
    env: &Environment,
    regions: &[(RegionId, Vec<Point>)],
    links: &[(RegionId, RegionId, Segment)],
) -> Result<CheckReport, ValidationError> {
    check_regions_within(env, regions, links, None)
}

/// [`check_regions`] restricted to the regions whose bounding boxes meet `window` (and their
/// pairs and links): after a local repair this checks what the repair could have
/// touched in a fraction of the time. `None` checks everything.
pub fn check_regions_within(
    env: &Environment,
    regions: &[(RegionId, Vec<Point>)],
    links: &[(RegionId, RegionId, Segment)],
    window: Option<Aabb>,
) -> Result<CheckReport, ValidationError> {
    let in_window = |poly: &[Point]| {
        window.is_none_or(|w| {
            Aabb::from_points(poly.iter().copied()).is_some_and(|b| b.intersects(&w))
        })
    };
    let selected: Vec<bool> = regions.iter().map(|(_, poly)| in_window(poly)).collect();
    for (id, poly) in regions {
        if !strictly_convex(poly) {
            return Err(ValidationError::NotConvex(*id));
        }
    }
    // Walls.
    let mut edges: Vec<Edge> = env
        .boundary()
        .edges()
        .map(|e| Edge {
            a: e.a,
            b: e.b,
            owner: None,
            area: true,
        })
        .collect();
    let mut points: Vec<(Point, ObstacleId)> = Vec::new();
    for (id, obstacle) in env.obstacles() {
        match obstacle {
            Obstacle::Point(p) => points.push((*p, id)),
            Obstacle::Polyline(v) => edges.extend(v.windows(2).map(|w| Edge {
                a: w[0],
                b: w[1],
                owner: Some(id),
                area: false,
            })),
            Obstacle::Polygon(poly) => edges.extend(poly.edges().map(|e| Edge {
                a: e.a,
                b: e.b,
                owner: Some(id),
                area: true,
            })),
        }
    }
    let edge_tree = RTree::bulk_load(
        edges
            .iter()
            .enumerate()
            .map(|(i, e)| boxed([e.a, e.b], i))
            .collect(),
    );
    let point_tree = RTree::bulk_load(
        points
            .iter()
            .enumerate()
            .map(|(i, (p, _))| boxed([*p], i))
            .collect(),
    );
    for ((id, poly), _) in regions.iter().zip(&selected).filter(|(_, s)| **s) {
        let env_box = envelope(poly);
        for item in edge_tree.locate_in_envelope_intersecting(env_box) {
            let e = &edges[item.data];
            if crosses_interior(poly, e.a, e.b) {
                return Err(ValidationError::CrossedByWall {
                    region: *id,
                    owner: e.owner,
                });
            }
        }
        for item in point_tree.locate_in_envelope_intersecting(env_box) {
            let (p, obstacle) = points[item.data];
            if strictly_inside(poly, p) {
                return Err(ValidationError::ContainsPoint {
                    region: *id,
                    obstacle,
                });
            }
        }
        // No wall meets the interior, so the region is all free or all blocked.
        let probe = interior_point(poly).ok_or(ValidationError::NotConvex(*id))?;
        if !is_free(probe, &edges, &edge_tree) {
            return Err(ValidationError::NotFree(*id));
        }
    }
    // Pairwise disjointness and geometric adjacency.
    let region_tree = RTree::bulk_load(
        regions
            .iter()
            .enumerate()
            .map(|(i, (_, poly))| boxed(poly.iter().copied(), i))
            .collect(),
    );
    let mut adjacent: BTreeMap<(RegionId, RegionId), (Point, Point)> = BTreeMap::new();
    for (i, (id, poly)) in regions.iter().enumerate() {
        if !selected[i] {
            continue;
        }
        for item in region_tree.locate_in_envelope_intersecting(envelope(poly)) {
            let j = item.data;
            if j == i || (j < i && selected[j]) {
                continue;
            }
            let (other_id, other) = (&regions[j].0, &regions[j].1);
            if !separated(poly, other) {
                return Err(ValidationError::Overlap(*id, *other_id));
            }
            if let Some(piece) = common_piece(poly, other) {
                if let Some(open) = open_piece(piece, &edges, &edge_tree) {
                    adjacent.insert(ordered(*id, *other_id), open);
                }
            }
        }
    }
    let known: HashMap<RegionId, ()> = regions.iter().map(|(id, _)| (*id, ())).collect();
    let mut linked: BTreeMap<(RegionId, RegionId), Segment> = BTreeMap::new();
    let chosen: HashMap<RegionId, bool> = regions
        .iter()
        .zip(&selected)
        .map(|((id, _), s)| (*id, *s))
        .collect();
    for &(a, b, s) in links {
        for id in [a, b] {
            if !known.contains_key(&id) {
                return Err(ValidationError::UnknownRegion(id));
            }
        }
        if chosen.get(&a).copied().unwrap_or(false) || chosen.get(&b).copied().unwrap_or(false) {
            linked.insert(ordered(a, b), s);
        }
    }
    for (&(a, b), &(p, q)) in &adjacent {
        match linked.get(&(a, b)) {
            None => return Err(ValidationError::MissingLink(a, b)),
            Some(s) => {
                if !((s.a == p && s.b == q) || (s.a == q && s.b == p)) {
                    return Err(ValidationError::WrongPortal(a, b));
                }
            }
        }
    }
    if let Some(&(a, b)) = linked.keys().find(|k| !adjacent.contains_key(k)) {
        return Err(ValidationError::ExtraLink(a, b));
    }
    // The most regions at one point: a point where several meet is a vertex of one.
    let mut max_at_point = if regions.is_empty() { 0 } else { 1 };
    for ((_, poly), _) in regions.iter().zip(&selected).filter(|(_, s)| **s) {
        for &v in poly {
            let count = region_tree
                .locate_in_envelope_intersecting(AABB::from_point([v.x, v.y]))
                .filter(|item| inside_or_on(&regions[item.data].1, v))
                .count();
            max_at_point = max_at_point.max(count);
        }
    }
    Ok(CheckReport {
        regions: selected.iter().filter(|s| **s).count(),
        links: adjacent.len(),
        max_regions_at_point: max_at_point,
    })
}

fn ordered(a: RegionId, b: RegionId) -> (RegionId, RegionId) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// Strictly convex and simple: every turn is a strict left turn and the boundary winds
/// once (the edge directions change x-sign at most twice and y-sign at most twice).
fn strictly_convex(poly: &[Point]) -> bool {
    let n = poly.len();
    if n < 3 || poly.iter().any(|p| !p.is_finite()) {
        return false;
    }
    for i in 0..n {
        let (a, b, c) = (poly[i], poly[(i + 1) % n], poly[(i + 2) % n]);
        if orient(a, b, c) != Orientation::CounterClockwise {
            return false;
        }
    }
    let sign_changes = |f: fn(Point) -> f64| {
        let signs: Vec<f64> = (0..n)
            .map(|i| f(poly[(i + 1) % n] - poly[i]).signum())
            .filter(|s| *s != 0.0)
            .collect();
        (0..signs.len())
            .filter(|&i| signs[i] != signs[(i + 1) % signs.len()])
            .count()
    };
    sign_changes(|d| if d.x == 0.0 { 0.0 } else { d.x }) <= 2
        && sign_changes(|d| if d.y == 0.0 { 0.0 } else { d.y }) <= 2
}

/// Whether the closed segment `a b` meets the open interior of the convex polygon.
///
/// Either an endpoint lies strictly inside, or the segment crosses an edge properly, or
/// else the segment meets the closed polygon in a piece whose ends are contact points
/// (polygon vertices on the segment, segment endpoints on the boundary): that piece is
/// in the interior unless it runs along one edge.
fn crosses_interior(poly: &[Point], a: Point, b: Point) -> bool {
    if strictly_inside(poly, a) || strictly_inside(poly, b) {
        return true;
    }
    if a == b {
        return false;
    }
    let n = poly.len();
    let mut contacts: Vec<Point> = Vec::new();
    for i in 0..n {
        let (u, v) = (poly[i], poly[(i + 1) % n]);
        let (o1, o2) = (orient(a, b, u), orient(a, b, v));
        let (o3, o4) = (orient(u, v, a), orient(u, v, b));
        let proper = o1 != o2
            && o1 != Orientation::Collinear
            && o2 != Orientation::Collinear
            && o3 != o4
            && o3 != Orientation::Collinear
            && o4 != Orientation::Collinear;
        if proper {
            return true;
        }
        if o1 == Orientation::Collinear && within(u, a, b) {
            contacts.push(u);
        }
        for q in [a, b] {
            if orient(u, v, q) == Orientation::Collinear && within(q, u, v) {
                contacts.push(q);
            }
        }
    }
    contacts.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    contacts.dedup();
    let (Some(&p), Some(&q)) = (contacts.first(), contacts.last()) else {
        return false;
    };
    if p == q {
        return false;
    }
    let along_an_edge = (0..n).any(|i| {
        let (u, v) = (poly[i], poly[(i + 1) % n]);
        orient(u, v, p) == Orientation::Collinear && orient(u, v, q) == Orientation::Collinear
    });
    !along_an_edge
}

/// Whether `p` lies on the closed segment `a b`, given that it is collinear with it.
fn within(p: Point, a: Point, b: Point) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

fn strictly_inside(poly: &[Point], p: Point) -> bool {
    let n = poly.len();
    (0..n).all(|i| orient(poly[i], poly[(i + 1) % n], p) == Orientation::CounterClockwise)
}

fn inside_or_on(poly: &[Point], p: Point) -> bool {
    let n = poly.len();
    (0..n).all(|i| orient(poly[i], poly[(i + 1) % n], p) != Orientation::Clockwise)
}

/// A point strictly inside the polygon: the centroid of its largest fan triangle.
fn interior_point(poly: &[Point]) -> Option<Point> {
    let mut best: Option<(f64, Point)> = None;
    for i in 1..poly.len() - 1 {
        let (a, b, c) = (poly[0], poly[i], poly[i + 1]);
        let area = (b - a).perp_dot(c - a);
        let p = (a + b + c) / 3.0;
        if strictly_inside(poly, p) && best.is_none_or(|(x, _)| area > x) {
            best = Some((area, p));
        }
    }
    best.map(|(_, p)| p)
}

/// Inside the boundary and inside no polygon obstacle, by exact ray casting to +x with
/// a crossing parity per owner (holes may run either way round).
fn is_free(p: Point, edges: &[Edge], tree: &RTree<Boxed>) -> bool {
    let ray = AABB::from_corners([p.x, p.y], [f64::MAX, p.y]);
    let mut odd: HashMap<Option<ObstacleId>, bool> = HashMap::new();
    for item in tree.locate_in_envelope_intersecting(ray) {
        let e = &edges[item.data];
        if !e.area {
            continue;
        }
        let (lo, hi) = if e.a.y <= e.b.y {
            (e.a, e.b)
        } else {
            (e.b, e.a)
        };
        // Half-open in y, and the crossing strictly right of p.
        if lo.y <= p.y && hi.y > p.y && orient(lo, hi, p) == Orientation::CounterClockwise {
            let flag = odd.entry(e.owner).or_insert(false);
            *flag = !*flag;
        }
    }
    let inside_boundary = odd.get(&None).copied().unwrap_or(false);
    let in_obstacle = odd.iter().any(|(owner, o)| owner.is_some() && *o);
    inside_boundary && !in_obstacle
}

/// Whether some edge of either polygon has the other polygon entirely on its closed
/// outer side (then the interiors are disjoint).
fn separated(p: &[Point], q: &[Point]) -> bool {
    let outside = |poly: &[Point], other: &[Point]| {
        let n = poly.len();
        (0..n).any(|i| {
            let (u, v) = (poly[i], poly[(i + 1) % n]);
            other
                .iter()
                .all(|&w| orient(u, v, w) != Orientation::CounterClockwise)
        })
    };
    outside(p, q) || outside(q, p)
}

/// The longest stretch of a shared boundary piece that no wall runs along (a fence
/// between two regions is no way through), or `None`.
fn open_piece(
    piece: (Point, Point),
    edges: &[Edge],
    tree: &RTree<Boxed>,
) -> Option<(Point, Point)> {
    let (p, q) = piece;
    let lex = |a: &Point, b: &Point| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y));
    let mut blocked: Vec<(Point, Point)> = Vec::new();
    for item in tree.locate_in_envelope_intersecting(envelope(&[p, q])) {
        let e = &edges[item.data];
        if e.a == e.b
            || orient(p, q, e.a) != Orientation::Collinear
            || orient(p, q, e.b) != Orientation::Collinear
        {
            continue;
        }
        let mut w = [e.a, e.b];
        w.sort_by(lex);
        blocked.push((w[0], w[1]));
    }
    let mut ends = [p, q];
    ends.sort_by(lex);
    let [lo, hi] = ends;
    // Walk from lo to hi, skipping blocked stretches; keep the longest free stretch.
    blocked.sort_by(|x, y| lex(&x.0, &y.0));
    let mut best: Option<(Point, Point)> = None;
    let mut consider = |s: Point, t: Point| {
        if lex(&s, &t).is_lt() && best.is_none_or(|(u, v)| s.distance(t) > u.distance(v)) {
            best = Some((s, t));
        }
    };
    let mut at = lo;
    for (s, t) in blocked {
        if lex(&t, &lo).is_le() || lex(&s, &hi).is_ge() {
            continue;
        }
        let s = if lex(&s, &hi).is_lt() { s } else { hi };
        consider(at, s);
        if lex(&t, &at).is_gt() {
            at = t;
        }
    }
    consider(at, hi);
    // Report it in the piece's own direction.
    best.map(|(s, t)| if lex(&p, &q).is_lt() { (s, t) } else { (t, s) })
}

/// The boundary piece two polygons share, if it has positive length: collinear edges
/// whose overlap (ordered lexicographically, which is monotone along any line) is more
/// than a point.
fn common_piece(p: &[Point], q: &[Point]) -> Option<(Point, Point)> {
    let lex = |a: &Point, b: &Point| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y));
    let (n, m) = (p.len(), q.len());
    let mut best: Option<(Point, Point)> = None;
    for i in 0..n {
        let (a, b) = (p[i], p[(i + 1) % n]);
        for j in 0..m {
            let (c, d) = (q[j], q[(j + 1) % m]);
            if orient(a, b, c) != Orientation::Collinear
                || orient(a, b, d) != Orientation::Collinear
            {
                continue;
            }
            let mut e1 = [a, b];
            let mut e2 = [c, d];
            e1.sort_by(lex);
            e2.sort_by(lex);
            let lo = if lex(&e1[0], &e2[0]).is_ge() {
                e1[0]
            } else {
                e2[0]
            };
            let hi = if lex(&e1[1], &e2[1]).is_le() {
                e1[1]
            } else {
                e2[1]
            };
            if lex(&lo, &hi).is_lt() {
                if best.is_some() {
                    // Two convex polygons share at most one piece; a second one means
                    // the geometry is inconsistent: report the first.
                    continue;
                }
                best = Some((lo, hi));
            }
        }
    }
    best
}
