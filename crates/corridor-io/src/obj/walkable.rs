//! Which parts of which triangles can an agent stand on? Recast's three rules, applied
//! to exact ground-plane geometry instead of voxels: a triangle is walkable where its
//! slope is gentle enough, where nothing is above it closer than the agent's height,
//! and where no wall higher than a step stands on it.

use super::ground::{GroundGrid, Region};
use super::read::TriangleMesh;
use corridor_geom::{HeightPlane, PackedTree, Point};

/// The rules for walkable ground, in the level's units (metres for Recast's demo
/// levels). The defaults are the Recast demo's agent: 45° slopes, 2.0 high, climbs 0.9.
///
/// ```
/// let options = corridor_io::obj::WalkableOptions::default();
/// assert_eq!(options.max_slope_degrees, 45.0);
/// assert_eq!((options.agent_height, options.max_climb), (2.0, 0.9));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkableOptions {
    /// Steepest walkable slope in degrees (angle between the upward face normal and the
    /// vertical). Faces whose normal (by their winding, as in Recast) points down are
    /// never walkable.
    pub max_slope_degrees: f64,
    /// Headroom the agent needs: a walkable point has no geometry above it within this
    /// height (Recast's `walkableHeight`).
    pub agent_height: f64,
    /// Highest step the agent climbs: a wall lower than this does not cut the ground it
    /// stands on, and two walkable pieces whose edges meet in the ground plane join when
    /// their heights there differ by at most this (Recast's `walkableClimb`).
    pub max_climb: f64,
    /// A triangle whose ground-plane projection is thinner than this is a wall: it cuts
    /// the ground below it as a strip of this width (a vertical triangle has no area of
    /// its own to cut).
    pub wall_thickness: f64,
    /// Layers (connected parts of walkable ground) smaller than this area are dropped:
    /// slivers left between cuts, too small for any agent (Recast's demo drops far
    /// more: regions under 8 voxels, 0.72 square units, unless connected).
    pub min_layer_area: f64,
}

impl Default for WalkableOptions {
    fn default() -> Self {
        WalkableOptions {
            max_slope_degrees: 45.0,
            agent_height: 2.0,
            max_climb: 0.9,
            wall_thickness: 0.01,
            min_layer_area: 0.01,
        }
    }
}

impl WalkableOptions {
    /// The name and value of the first option out of range, if any.
    pub(crate) fn out_of_range(&self) -> Option<(&'static str, f64)> {
        let checks = [
            (
                "max_slope_degrees",
                self.max_slope_degrees,
                (0.0..90.0).contains(&self.max_slope_degrees),
            ),
            (
                "agent_height",
                self.agent_height,
                self.agent_height.is_finite() && self.agent_height >= 0.0,
            ),
            (
                "max_climb",
                self.max_climb,
                self.max_climb.is_finite() && self.max_climb >= 0.0,
            ),
            (
                "wall_thickness",
                self.wall_thickness,
                self.wall_thickness.is_finite() && self.wall_thickness > 0.0,
            ),
            (
                "min_layer_area",
                self.min_layer_area,
                self.min_layer_area.is_finite() && self.min_layer_area >= 0.0,
            ),
        ];
        checks.into_iter().find(|c| !c.2).map(|c| (c.0, c.1))
    }
}

/// Geometry this little above a walkable point (say, a coplanar copy of its triangle)
/// does not count as above it.
pub(crate) const HEIGHT_TOLERANCE: f64 = 1e-3;

/// The height plane of a triangle over the ground plane; `None` when its ground
/// projection has no area.
pub(crate) fn plane_through(p: [Point; 3], h: [f64; 3]) -> Option<HeightPlane> {
    let (d1, d2) = (p[1] - p[0], p[2] - p[0]);
    let det = d1.perp_dot(d2);
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let (e1, e2) = (h[1] - h[0], h[2] - h[0]);
    let a = (e1 * d2.y - e2 * d1.y) / det;
    let b = (e2 * d1.x - e1 * d2.x) / det;
    Some(HeightPlane::new(a, b, h[0] - a * p[0].x - b * p[0].y))
}

/// The ground point of an OBJ vertex (Y up): `(x, z)`; its height is `y`.
pub(crate) fn ground(v: [f64; 3]) -> Point {
    Point::new(v[0], v[2])
}

/// The walkable part of one triangle.
pub(crate) struct WalkablePiece {
    /// The triangle in the mesh.
    pub triangle: usize,
    /// Its height plane.
    pub plane: HeightPlane,
    /// Its walkable ground region (the triangle's projection minus what is cut).
    pub region: Region,
}

/// Whether triangle `t` passes the slope rule (upward-facing, within the maximum slope).
pub(crate) fn slope_ok(mesh: &TriangleMesh, t: usize, max_slope_degrees: f64) -> bool {
    let [a, b, c] = mesh.corners(t);
    let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        e1[1] * e2[2] - e1[2] * e2[1],
        e1[2] * e2[0] - e1[0] * e2[2],
        e1[0] * e2[1] - e1[1] * e2[0],
    ];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    len > 0.0 && n[1] >= len * max_slope_degrees.to_radians().cos() && n[1] > 0.0
}

/// The walkable pieces of the mesh: every triangle that passes the slope rule, minus
/// the ground under geometry less than `agent_height` above it and the strips of walls
/// that rise more than `max_climb` above it.
pub(crate) fn walkable_pieces(
    mesh: &TriangleMesh,
    options: &WalkableOptions,
    grid: &GroundGrid,
) -> Vec<WalkablePiece> {
    let feet: Vec<[Point; 3]> = (0..mesh.triangles().len())
        .map(|t| mesh.corners(t).map(ground))
        .collect();
    let boxes: Vec<[f64; 4]> = feet.iter().map(triangle_box).collect();
    let tree = PackedTree::new(&boxes);
    let mut pieces = Vec::new();
    for t in 0..feet.len() {
        if !slope_ok(mesh, t, options.max_slope_degrees) {
            continue;
        }
        let foot = ccw(feet[t]);
        let heights = mesh.corners(t).map(|v| v[1]);
        let Some(plane) = plane_through(feet[t], heights) else {
            continue;
        };
        let mut cuts: Vec<Vec<[f64; 2]>> = Vec::new();
        for u in tree.meeting(boxes[t]) {
            let u = u as usize;
            if u != t {
                cuts.extend(cut_by(mesh, &feet[u], u, &foot, &plane, options));
            }
        }
        // On the snap grid, as the results of cuts are, so that pieces meet exactly.
        let contour: Vec<[f64; 2]> = foot.iter().map(|&p| grid.round(p)).collect();
        let region = if cuts.is_empty() {
            vec![vec![contour]]
        } else {
            grid.difference(&contour, &cuts)
        };
        if !region.is_empty() {
            pieces.push(WalkablePiece {
                triangle: t,
                plane,
                region,
            });
        }
    }
    pieces
}

fn triangle_box(f: &[Point; 3]) -> [f64; 4] {
    [
        f[0].x.min(f[1].x).min(f[2].x),
        f[0].y.min(f[1].y).min(f[2].y),
        f[0].x.max(f[1].x).max(f[2].x),
        f[0].y.max(f[1].y).max(f[2].y),
    ]
}

fn ccw(mut f: [Point; 3]) -> [Point; 3] {
    if (f[1] - f[0]).perp_dot(f[2] - f[0]) < 0.0 {
        f.swap(1, 2);
    }
    f
}

/// What triangle `u` (ground corners `foot_u`) cuts from the walkable triangle with
/// ground corners `foot` (counter-clockwise) and height `plane`.
fn cut_by(
    mesh: &TriangleMesh,
    foot_u: &[Point; 3],
    u: usize,
    foot: &[Point; 3],
    plane: &HeightPlane,
    options: &WalkableOptions,
) -> Option<Vec<[f64; 2]>> {
    let heights_u = mesh.corners(u).map(|v| v[1]);
    let area2 = (foot_u[1] - foot_u[0])
        .perp_dot(foot_u[2] - foot_u[0])
        .abs();
    let (i, longest) = (0..3)
        .map(|i| (i, foot_u[i].distance(foot_u[(i + 1) % 3])))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    if longest == 0.0 {
        return None;
    }
    let width = area2 / longest;
    let mut region: Vec<Point> = if width < options.wall_thickness {
        // A wall: it blocks where it rises more than a step above the ground and
        // starts below head height.
        let (p, q) = (foot_u[i], foot_u[(i + 1) % 3]);
        let (s0, s1) = clip_segment(p, q, foot)?;
        let (top, bottom) = heights_u
            .iter()
            .fold((f64::MIN, f64::MAX), |(hi, lo), &h| (hi.max(h), lo.min(h)));
        let (h0, h1) = (plane.height_at(s0), plane.height_at(s1));
        if top <= h0.min(h1) + options.max_climb || bottom >= h0.max(h1) + options.agent_height {
            return None;
        }
        let dir = (q - p) / longest;
        let half = options.wall_thickness * 0.5;
        let (along, side) = (dir * half, dir.perp() * half);
        vec![
            s0 - along - side,
            s1 + along - side,
            s1 + along + side,
            s0 - along + side,
        ]
    } else {
        // A surface: it blocks where it is above the ground by more than the tolerance
        // and less than the agent's height.
        let plane_u = plane_through(*foot_u, heights_u)?;
        let mut poly = foot.to_vec();
        for k in 0..3 {
            let (a, b) = (foot_u[k], foot_u[(k + 1) % 3]);
            let orientation = (foot_u[1] - foot_u[0])
                .perp_dot(foot_u[2] - foot_u[0])
                .signum();
            poly = clip_convex(&poly, |p| orientation * (b - a).perp_dot(p - a));
        }
        let gap = |p: Point| plane_u.height_at(p) - plane.height_at(p);
        poly = clip_convex(&poly, |p| gap(p) - HEIGHT_TOLERANCE);
        clip_convex(&poly, |p| options.agent_height - gap(p))
    };
    if region.len() < 3 {
        return None;
    }
    let area = region
        .iter()
        .zip(region.iter().cycle().skip(1))
        .map(|(p, q)| p.perp_dot(*q))
        .sum::<f64>()
        * 0.5;
    if area.abs() <= 1e-12 {
        return None;
    }
    if area < 0.0 {
        region.reverse();
    }
    Some(region.iter().map(|p| [p.x, p.y]).collect())
}

/// The part of convex polygon `poly` where `f >= 0` (`f` affine), Sutherland–Hodgman.
fn clip_convex(poly: &[Point], f: impl Fn(Point) -> f64) -> Vec<Point> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    for k in 0..poly.len() {
        let (p, q) = (poly[k], poly[(k + 1) % poly.len()]);
        let (fp, fq) = (f(p), f(q));
        if fp >= 0.0 {
            out.push(p);
        }
        if (fp >= 0.0) != (fq >= 0.0) {
            out.push(p + (q - p) * (fp / (fp - fq)));
        }
    }
    out
}

/// The part of segment `p q` inside the counter-clockwise triangle `foot`, if it has
/// positive length.
fn clip_segment(p: Point, q: Point, foot: &[Point; 3]) -> Option<(Point, Point)> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for k in 0..3 {
        let (a, b) = (foot[k], foot[(k + 1) % 3]);
        let (fp, fq) = ((b - a).perp_dot(p - a), (b - a).perp_dot(q - a));
        if fp < 0.0 && fq < 0.0 {
            return None;
        }
        if fp < 0.0 {
            t0 = t0.max(fp / (fp - fq));
        } else if fq < 0.0 {
            t1 = t1.min(fp / (fp - fq));
        }
    }
    (t1 - t0 > 1e-9).then(|| (p + (q - p) * t0, p + (q - p) * t1))
}
