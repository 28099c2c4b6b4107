//! Which walls can a segment skip, and which obstacles can it not meet at all? The
//! obstacles of the free space for the pair construction: each one's walls, its convex
//! hull's corners (a segment leaving a hull corner outside the hull skips the obstacle's
//! own walls) and the cones in which its box lies as seen from a vertex.

use super::cones::{box_cone, Seen};
use super::filter::{CROSS_ABS, CROSS_REL};
use corridor_geom::free_space::FreeSpace;
use corridor_geom::{convex_hull, orient, Orientation, Point};

/// One wall for the segment test: its ends, their vertex ids, its own id and its
/// obstacle (see [`HullCorner`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct WallEnds {
    pub(super) a: Point,
    pub(super) b: Point,
    pub(super) ia: u32,
    pub(super) ib: u32,
    pub(super) id: u32,
    pub(super) obstacle: u32,
}

/// No obstacle.
pub(super) const NONE: u32 = u32::MAX;

/// A vertex as a corner of the convex hull of its obstacle: the obstacle's number (or
/// [`NONE`] when the vertex is not a strictly convex corner of that hull) and the hull's
/// two sides from it (rounded differences: to the next corner counter-clockwise and to
/// the previous one), with the error-bound factors of [`Allowed`](super::filter::Allowed).
#[derive(Clone, Copy, Debug)]
pub(super) struct HullCorner {
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
    /// in [`Allowed::code`](super::filter::Allowed::code)).
    /// `dl` is `|d.x| + |d.y|`.
    #[inline(always)]
    pub(super) fn skipped_towards(&self, d: Point, dl: f64) -> u32 {
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
/// and so do the cones of [`super::cones`]. For a convex polygon every corner is a hull
/// corner; for a star, the tips.
pub(super) struct Obstacles {
    /// Per vertex, its obstacle's number. Obstacles with at most [`SMALL_WALLS`] walls
    /// come first (see [`Obstacles::small`]).
    pub(super) of: Vec<u32>,
    pub(super) corners: Vec<HullCorner>,
    /// Per obstacle, its bounding box.
    pub(super) lo: Vec<Point>,
    pub(super) hi: Vec<Point>,
    /// Obstacles `0..small` are tested by their cones, the rest through the grid.
    pub(super) small: usize,
    /// Per obstacle, whether it encloses every vertex as a convex ring (see
    /// [`Obstacles::encloses_all`]): its walls are never looked at.
    pub(super) enclosing: Vec<bool>,
}

/// Obstacles with at most this many walls are tested wall by wall when their cone and
/// box allow a segment ([`super::cones`]); larger ones (merged grid cells, the boundary
/// with everything touching it) through the grid cells along the segment.
pub(super) const SMALL_WALLS: usize = 32;

/// A row of pairs uses the cones when at least this many of its pairs, and at least
/// a quarter as many as there are small obstacles, pass the first stage of the
/// direction filter (see [`SegmentTester::use_cones`](super::segment::SegmentTester::use_cones)): setting up the cones costs
/// O(obstacles) per row, each segment test by the cones saves a part of a grid walk.
/// Measured with callgrind on the pyvisgraph comparison's inputs (100–1,000 vertices;
/// with the boundary no longer looked at, sparser rows than before gain).
pub(super) const CONE_ROW: usize = 8;

/// With more small obstacles than this, every obstacle goes through the grid: setting
/// up the cones from every vertex costs O(obstacles) per vertex.
pub(super) const MAX_CONE_OBSTACLES: usize = 1_000;

impl Obstacles {
    pub(super) fn new(fs: &FreeSpace) -> Self {
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
    pub(super) fn encloses_all(
        fs: &FreeSpace,
        hull: &[Point],
        group: &[u32],
        wall_count: usize,
    ) -> bool {
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
    /// [`super::cones::Cone`]): its hull's corner cone when `v` is a hull corner of
    /// `c`, its box's cone when `p` is outside its box, else none.
    /// Obstacles whose box misses `region` (holding every segment of the view) are
    /// never looked at.
    #[inline]
    pub(super) fn cone_from(&self, v: u32, p: Point, c: usize, region: (Point, Point)) -> Seen {
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
