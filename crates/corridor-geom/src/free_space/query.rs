//! Where is a point, and is a straight segment free? Exact queries on a [`FreeSpace`].

use super::ray::{along_ray_cmp, Place};
use super::walk::Walk;
use super::wedge::{flip, Dir, Wedge};
use super::{FreeSpace, PointClass};
use crate::{orient, point_on_segment, Aabb, ObstacleId, Orientation, Point};

impl FreeSpace {
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
}

/// Whether the closed segments `a b` and `c d` cross at a single point interior to both.
#[inline]
pub fn properly_cross(a: Point, b: Point, c: Point, d: Point) -> bool {
    use Orientation::*;
    let opposite = |x: Orientation, y: Orientation| {
        matches!(
            (x, y),
            (Clockwise, CounterClockwise) | (CounterClockwise, Clockwise)
        )
    };
    opposite(orient(a, b, c), orient(a, b, d)) && opposite(orient(c, d, a), orient(c, d, b))
}
