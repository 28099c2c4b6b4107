//! Where can a disk of radius r go, and what is its shortest path? The exact tangent
//! graph of the visibility–Voronoi complex for clearance r (Wein, van den Berg and
//! Halperin), without growing the obstacles by a polygon.
//!
//! A disk of radius `r` fits wherever its centre keeps clearance `≥ r` from every wall
//! (touching is fitting). The centre's shortest path bends only around the circles of
//! radius `r` centred at the convex corners of the obstacles (the reflex corners of the
//! free space, and isolated points); between bends it follows segments tangent to
//! those circles. So the graph's nodes are touching points on the circles, in two
//! orientations (travelling counter-clockwise or clockwise), and its edges are
//!
//! * **tangent segments** between two circles (two outer and two inner per pair),
//!   kept only when both touching points lie in their corner's *cone* (the directions
//!   from which the corner is the nearest point of its walls: elsewhere the disk would
//!   overlap a wall at the corner) and every wall keeps at least `r` from the segment
//!   (a walk through a grid of walls, [`clearance`]);
//! * **arcs** between consecutive touching points on one circle, kept when every wall
//!   keeps at least `r` from the arc.
//!
//! A query joins start and goal to the circles by their tangents and runs A*. Lengths
//! are exact up to floating point (arcs are `r · angle`); clearance is compared with
//! `r` less a tolerance of about `1e-10` (scaled with the map's extent), so paths along
//! a corridor exactly `2r` wide pass.

mod clearance;
mod geometry;
mod path;
mod search;

pub use path::{DiskArc, DiskPath, DiskPiece};

use crate::BuildError;
use clearance::WallIndex;
use corridor_geom::{Endpoint, Environment, FreeSpace, Obstacle, PathQueryError, Point};
use geometry::{bitangents, ArcSpec, Cone, Tangent, CCW, CW};
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// Why a disk's visibility graph could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DiskBuildError {
    /// The radius is not a positive finite number (for radius 0 use
    /// [`VisibilityGraph`](crate::VisibilityGraph)).
    #[error("the disk's radius must be positive and finite, not {radius}")]
    Radius {
        /// As given.
        radius: f64,
    },
    /// The free space could not be built.
    #[error(transparent)]
    Free(#[from] BuildError),
}

/// Why a disk's shortest-path query has no answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DiskQueryError {
    /// An end is not finite, outside the boundary or inside an obstacle, or no path
    /// exists for the disk.
    #[error(transparent)]
    Free(#[from] PathQueryError),
    /// An end lies closer than the radius to a wall: the disk does not fit there.
    #[error("{endpoint} ({}, {}) is {clearance} from a wall, less than the radius {radius}",
        point.x, point.y)]
    TooClose {
        /// Start or goal.
        endpoint: Endpoint,
        /// As given.
        point: Point,
        /// Its distance to the nearest wall.
        clearance: f64,
        /// The disk's radius.
        radius: f64,
    },
}

/// A circle of the graph: radius r around a convex obstacle corner (or point obstacle),
/// touched only within its cone, with the walls that can come within r of it.
#[derive(Clone, Debug)]
pub(crate) struct Circle {
    pub centre: Point,
    pub cone: Cone,
    pub near: Vec<u32>,
    /// Its sites (touching points), by increasing offset in the cone.
    pub sites: std::ops::Range<u32>,
}

/// A touching point on a circle, where paths join or leave it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Site {
    pub circle: u32,
    /// Angle past the cone's start.
    pub offset: f64,
    pub point: Point,
}

/// The exact shortest-path planner for a disk of one radius among polygonal obstacles.
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// use corridor_visgraph::DiskVisibilityGraph;
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
/// env.insert(Obstacle::rectangle(Point::new(4.0, 4.0), Point::new(6.0, 6.0)));
/// let graph = DiskVisibilityGraph::build(&env, 0.5).unwrap();
/// // Along the bottom (touching it), a quarter circle of radius 0.5 around the corner
/// // (6, 4), up the right side.
/// let path = graph.shortest_path(Point::new(5.0, 3.5), Point::new(6.5, 5.0)).unwrap();
/// let expected = 1.0 + 0.5 * std::f64::consts::FRAC_PI_2 + 1.0;
/// assert!((path.length - expected).abs() < 1e-9);
/// ```
#[derive(Clone, Debug)]
pub struct DiskVisibilityGraph {
    pub(crate) radius: f64,
    pub(crate) tolerance: f64,
    pub(crate) free: FreeSpace,
    pub(crate) walls: WallIndex,
    pub(crate) circles: Vec<Circle>,
    pub(crate) sites: Vec<Site>,
    /// CSR adjacency over nodes `2 · site + (0 for CCW, 1 for CW)`.
    pub(crate) offsets: Vec<u32>,
    pub(crate) targets: Vec<u32>,
    pub(crate) weights: Vec<f64>,
}

/// A tangent found at build time, between site slots to be numbered.
struct Found {
    from: (u32, f64, i8),
    to: (u32, f64, i8),
    length: f64,
}

/// The node of `site` travelled in orientation `sigma`.
#[inline]
pub(crate) fn node(site: u32, sigma: i8) -> u32 {
    2 * site + u32::from(sigma == CW)
}

impl DiskVisibilityGraph {
    /// The graph for a disk of `radius` in `env` (obstacles of any kind; the boundary
    /// counts as a wall).
    ///
    /// # Errors
    /// [`DiskBuildError::Radius`] unless `radius` is positive and finite;
    /// [`DiskBuildError::Free`] when the environment is invalid.
    pub fn build(env: &Environment, radius: f64) -> Result<Self, DiskBuildError> {
        if !(radius.is_finite() && radius > 0.0) {
            return Err(DiskBuildError::Radius { radius });
        }
        let free = FreeSpace::from_environment(env).map_err(BuildError::from)?;
        // Which convex corners see each other: a tangent between two corners' circles
        // that keeps clearance r needs the segment between the corners to cross no wall
        // (the region between that segment and the tangent holds no wall).
        let corners = crate::VisibilityGraph::corner_pairs(free);
        let mut circles = Vec::new();
        let circle_of_node: Vec<u32> = (0..corners.node_count())
            .map(|n| {
                let w = corners.node_wedge(n);
                corner_cone(w).map_or(u32::MAX, |cone| {
                    circles.push((w.apex, cone));
                    circles.len() as u32 - 1
                })
            })
            .collect();
        let mut pairs: Vec<(u32, u32)> = corners
            .edges()
            .map(|(a, b)| (circle_of_node[a], circle_of_node[b]))
            .filter(|&(a, b)| a != u32::MAX && b != u32::MAX)
            .collect();
        let free = corners.free;
        let mut walls: Vec<(Point, Point)> =
            free.walls().map(|w| (w.segment.a, w.segment.b)).collect();
        // Point obstacles are no walls of the free space (a point path may touch them):
        // their circles are paired with every circle.
        for (_, obstacle) in env.obstacles() {
            if let Obstacle::Point(p) = obstacle {
                walls.push((*p, *p));
                let id = circles.len() as u32;
                pairs.extend((0..id).map(|other| (other, id)));
                circles.push((*p, Cone::new(0.0, TAU)));
            }
        }
        let extent = free.bounds().size().max_element().max(1.0);
        let tolerance = 1e-10 * (1.0 + extent / 1000.0);
        let walls = WallIndex::new(walls, radius);
        let circles: Vec<Circle> = circles
            .into_iter()
            .map(|(centre, cone)| {
                let reach = 2.0 * radius + tolerance;
                let mut near = Vec::new();
                walls.for_each_near(
                    &corridor_geom::Aabb::new(centre, centre).expanded(reach),
                    |w| {
                        let (a, b) = walls.wall(w);
                        if geometry::point_segment_distance(centre, a, b) < reach {
                            near.push(w);
                        }
                    },
                );
                near.sort_unstable();
                near.dedup();
                Circle {
                    centre,
                    cone,
                    near,
                    sites: 0..0,
                }
            })
            .collect();
        let mut graph = DiskVisibilityGraph {
            radius,
            tolerance,
            free,
            walls,
            circles,
            sites: Vec::new(),
            offsets: vec![0],
            targets: Vec::new(),
            weights: Vec::new(),
        };
        let found = graph.tangents(&pairs);
        graph.store(&found);
        Ok(graph)
    }

    /// The minimum clearance accepted: the radius less the tolerance.
    #[inline]
    pub(crate) fn min_clearance(&self) -> f64 {
        self.radius - self.tolerance
    }

    /// Whether the point at direction `u` on circle `c` keeps the radius from every wall
    /// near the circle.
    pub(crate) fn touch_clear(&self, c: &Circle, p: Point) -> bool {
        let min = self.min_clearance();
        c.near.iter().all(|&w| {
            let (a, b) = self.walls.wall(w);
            geometry::point_segment_distance(p, a, b) >= min
        })
    }

    /// Whether the arc of circle `c` from `from` counter-clockwise over `sweep` (angles
    /// past the cone's start) keeps the radius from every wall.
    pub(crate) fn arc_clear(&self, c: &Circle, from: f64, sweep: f64) -> bool {
        let arc = ArcSpec {
            c: c.centre,
            r: self.radius,
            from: c.cone.lo + from,
            sweep,
        };
        let min = self.min_clearance();
        c.near.iter().all(|&w| {
            let (a, b) = self.walls.wall(w);
            arc.segment_distance(a, b) >= min
        })
    }

    /// Where a tangent touches circle `i` in direction `u`: its offset in the cone, when
    /// inside it and clear.
    pub(crate) fn touch(&self, i: usize, u: Point) -> Option<(f64, Point)> {
        let c = &self.circles[i];
        if !c.cone.may_contain(u) {
            return None;
        }
        let offset = c.cone.offset(u)?;
        let p = c.centre + u * self.radius;
        self.touch_clear(c, p).then_some((offset, p))
    }

    /// Every clear tangent segment between the circles of the candidate `pairs`,
    /// touching both in their cones.
    fn tangents(&self, pairs: &[(u32, u32)]) -> Vec<Found> {
        let mut out = Vec::new();
        let mut ts: Vec<Tangent> = Vec::with_capacity(4);
        let min = self.min_clearance();
        for &(i, j) in pairs {
            let (i, j) = (i as usize, j as usize);
            let (ci, cj) = (&self.circles[i], &self.circles[j]);
            bitangents(ci.centre, cj.centre, self.radius, &mut ts);
            for t in &ts {
                if !(ci.cone.may_contain(t.u_from) && cj.cone.may_contain(t.u_to)) {
                    continue;
                }
                let Some((oi, p)) = self.touch(i, t.u_from) else {
                    continue;
                };
                let Some((oj, q)) = self.touch(j, t.u_to) else {
                    continue;
                };
                if self.walls.segment_clear(p, q, min) {
                    out.push(Found {
                        from: (i as u32, oi, t.sigma_from),
                        to: (j as u32, oj, t.sigma_to),
                        length: t.length,
                    });
                }
            }
        }
        out
    }

    /// Numbers the sites (touching points at one offset of a circle merge) and stores the
    /// tangents and the clear arcs between consecutive sites as the CSR adjacency.
    fn store(&mut self, found: &[Found]) {
        // Each tangent's two ends, per circle, sorted by offset.
        let mut ends: Vec<(u32, f64, u32)> = Vec::with_capacity(2 * found.len());
        for (k, f) in found.iter().enumerate() {
            ends.push((f.from.0, f.from.1, 2 * k as u32));
            ends.push((f.to.0, f.to.1, 2 * k as u32 + 1));
        }
        ends.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut end_site = vec![0u32; ends.len()];
        let mut sites: Vec<Site> = Vec::new();
        let mut start = 0;
        for (c, circle) in self.circles.iter_mut().enumerate() {
            let first = sites.len() as u32;
            while start < ends.len() && ends[start].0 == c as u32 {
                let (_, offset, end) = ends[start];
                let same = sites
                    .last()
                    .is_some_and(|s: &Site| s.circle == c as u32 && offset - s.offset <= SAME_SITE);
                if !same {
                    let a = circle.cone.lo + offset;
                    sites.push(Site {
                        circle: c as u32,
                        offset,
                        point: circle.centre + Point::new(a.cos(), a.sin()) * self.radius,
                    });
                }
                end_site[end as usize] = sites.len() as u32 - 1;
                start += 1;
            }
            circle.sites = first..sites.len() as u32;
        }
        let mut edges: Vec<(u32, u32, f64)> = Vec::new();
        for (k, f) in found.iter().enumerate() {
            let (a, b) = (end_site[2 * k], end_site[2 * k + 1]);
            edges.push((node(a, f.from.2), node(b, f.to.2), f.length));
            edges.push((node(b, -f.to.2), node(a, -f.from.2), f.length));
        }
        for circle in &self.circles {
            let ids: Vec<u32> = circle.sites.clone().collect();
            let mut pairs: Vec<(u32, u32, f64)> = ids
                .windows(2)
                .map(|w| {
                    (
                        w[0],
                        w[1],
                        sites[w[1] as usize].offset - sites[w[0] as usize].offset,
                    )
                })
                .collect();
            if circle.cone.full() && ids.len() > 1 {
                let (first, last) = (ids[0], *ids.last().unwrap());
                pairs.push((
                    last,
                    first,
                    TAU - sites[last as usize].offset + sites[first as usize].offset,
                ));
            }
            for (a, b, sweep) in pairs {
                if self.arc_clear(circle, sites[a as usize].offset, sweep) {
                    let length = self.radius * sweep;
                    edges.push((node(a, CCW), node(b, CCW), length));
                    edges.push((node(b, CW), node(a, CW), length));
                }
            }
        }
        let n = 2 * sites.len();
        let mut offsets = vec![0u32; n + 1];
        for e in &edges {
            offsets[e.0 as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets[..n].to_vec();
        let mut targets = vec![0u32; edges.len()];
        let mut weights = vec![0f64; edges.len()];
        for &(from, to, w) in &edges {
            let slot = &mut fill[from as usize];
            targets[*slot as usize] = to;
            weights[*slot as usize] = w;
            *slot += 1;
        }
        self.sites = sites;
        self.offsets = offsets;
        self.targets = targets;
        self.weights = weights;
    }

    /// The radius it plans for.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The free space (of the points; the disk needs clearance `r` within it).
    pub fn free_space(&self) -> &FreeSpace {
        &self.free
    }

    /// Number of circles (convex corners and point obstacles).
    pub fn circle_count(&self) -> usize {
        self.circles.len()
    }

    /// Number of touching points on the circles (two graph nodes each, one per
    /// orientation).
    pub fn site_count(&self) -> usize {
        self.sites.len()
    }

    /// Number of directed edges (tangents and arcs, each in both travel directions).
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The tangent segments of the graph, each once (for drawing).
    pub fn tangent_segments(&self) -> Vec<corridor_geom::Segment> {
        let mut out = Vec::new();
        for (n, w) in self.offsets.windows(2).enumerate() {
            let a = &self.sites[n / 2];
            for &t in &self.targets[w[0] as usize..w[1] as usize] {
                let b = &self.sites[t as usize / 2];
                if a.circle != b.circle && n / 2 < t as usize / 2 {
                    out.push(corridor_geom::Segment::new(a.point, b.point));
                }
            }
        }
        out
    }
}

/// Touching points closer than this (in angle) on one circle are one site.
const SAME_SITE: f64 = 1e-12;

/// The cone of a convex obstacle corner (a reflex free wedge): from the normal of the
/// wedge's first wall to the normal of its last, both pointing into the free space.
fn corner_cone(w: &corridor_geom::Wedge) -> Option<Cone> {
    if !w.is_reflex() {
        return None;
    }
    let angle = |p: Point| (p - w.apex).y.atan2((p - w.apex).x);
    let start = angle(w.start);
    let free = if w.full {
        TAU
    } else {
        (angle(w.end) - start).rem_euclid(TAU)
    };
    (free > PI).then(|| Cone::new(start + FRAC_PI_2, free - PI))
}
