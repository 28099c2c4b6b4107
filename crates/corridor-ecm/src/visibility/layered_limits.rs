//! What a point of a layered map sees within a range and a field of view: the regions of
//! [`layered_visibility`] cut to the disk of radius R around the viewpoint (in the ground
//! plane) and to the cone, as [`super::ViewLimits`] cuts the 2D polygon.
//!
//! The viewpoint's own region is star-shaped around it and is cut as the 2D polygon is. A
//! region seen through a connection lies within a cone from the viewpoint narrower than a
//! half turn (the viewpoint is not on the connection's line) and meets every ray from it
//! in one stretch, so each side of the view cone that passes through it cuts it along one
//! straight line (a half-plane), and the disk cuts it along its boundary, arcs joining
//! the parts left, as in 2D.

use super::layered_view::{layered_visibility, LayeredView, RegionEdge, VisibleRegion};
use super::limits::{cut_cone, cut_range, dedup, LimitKind};
use super::{LayeredSightError, ViewLimits};
use crate::layers::LayeredMap;
use corridor_geom::{LayerId, Point};
use std::f64::consts::{PI, TAU};

impl LimitKind for RegionEdge {
    const ARC: Self = RegionEdge::Arc;
    const CONE: Self = RegionEdge::Cone;
}

/// A region's corners, each with the kind of the edge leaving it.
type Ring = Vec<(Point, RegionEdge)>;

/// The regions seen from the free point `q` of layer `from` ([`layered_visibility`]) cut
/// to `limits`: edges of kind [`RegionEdge::Arc`] run along the range circle, edges of
/// kind [`RegionEdge::Cone`] along the cone's sides. A region cut away entirely is left
/// out; one that a cone side splits in two becomes two.
///
/// ```
/// use corridor_ecm::{layered_visibility_within, LayeredEcm, RegionEdge, ViewLimits};
/// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
/// let mut world = LayeredEnvironment::new();
/// let hall = world.add_layer(Layer::new("hall",
///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0)), HeightPlane::flat(0.0)));
/// let ramp = world.add_layer(Layer::new("ramp",
///     Environment::rectangle(Point::new(10.0, 0.0), Point::new(15.0, 4.0)), HeightPlane::new(0.2, 0.0, -2.0)));
/// world.connect(hall, ramp, Segment::new(Point::new(10.0, 0.0), Point::new(10.0, 4.0))).unwrap();
/// let ecm = LayeredEcm::build(&world).unwrap();
/// // Looking along +x, a quarter radian either side, up to 8 units away.
/// let limits = ViewLimits::new().with_range(8.0).with_cone(Point::new(1.0, 0.0), 0.5);
/// let view = layered_visibility_within(&ecm, hall, Point::new(5.0, 2.0), &limits).unwrap();
/// assert!(view.area_on(hall) < 40.0 && view.area_on(ramp) > 0.0);
/// let far = view.on_layer(ramp).next().unwrap();
/// assert!(far.kinds().contains(&RegionEdge::Cone) && far.kinds().contains(&RegionEdge::Arc));
/// ```
///
/// # Errors
/// As [`layered_visibility`], and [`LayeredSightError::Point`] with
/// [`super::VisibilityError::BadRange`] or [`super::VisibilityError::BadCone`] for limits
/// out of their domain.
pub fn layered_visibility_within(
    map: &impl LayeredMap,
    from: LayerId,
    q: Point,
    limits: &ViewLimits,
) -> Result<LayeredView, LayeredSightError> {
    limits.validate()?;
    let view = layered_visibility(map, from, q)?;
    let circle = limits.range().map(|r| (q, r));
    let mut regions = Vec::with_capacity(view.regions.len());
    for (i, region) in view.regions.into_iter().enumerate() {
        let ring: Ring = region.vertices.into_iter().zip(region.kinds).collect();
        let rings = if i == 0 {
            vec![own(q, ring, limits)]
        } else {
            across(q, ring, limits)
        };
        for ring in rings {
            let cut = VisibleRegion {
                layer: region.layer,
                vertices: ring.iter().map(|v| v.0).collect(),
                kinds: ring.iter().map(|v| v.1).collect(),
                circle,
            };
            // The viewpoint's region is never empty; others may be cut to nothing.
            if i == 0 || cut.area() > 0.0 {
                regions.push(cut);
            }
        }
    }
    Ok(LayeredView {
        origin: view.origin,
        regions,
    })
}

/// The viewpoint's own region (star-shaped around `q`) cut to `limits`.
fn own(q: Point, mut ring: Ring, limits: &ViewLimits) -> Ring {
    if let Some((direction, opening)) = limits.cone() {
        if opening < TAU {
            ring = cut_cone(q, &ring, direction, opening);
        }
    }
    if let Some(r) = limits.range() {
        ring = cut_range(q, &ring, r);
        if ring.is_empty() {
            // No edge within reach: the whole circle.
            ring = vec![(q + Point::new(r, 0.0), RegionEdge::Arc)];
        }
    }
    ring
}

/// A region seen through a connection cut to `limits`: none, one or two rings.
fn across(q: Point, ring: Ring, limits: &ViewLimits) -> Vec<Ring> {
    let mut rings = match limits.cone() {
        Some((direction, opening)) if opening < TAU => cone(q, ring, direction, opening),
        _ => vec![ring],
    };
    if let Some(r) = limits.range() {
        rings = rings.iter().map(|ring| cut_range(q, ring, r)).collect();
    }
    rings.retain(|ring| ring.len() >= 2);
    rings
}

/// The ring (within a cone from `q` narrower than a half turn) cut to the view cone.
fn cone(q: Point, ring: Ring, direction: Point, opening: f64) -> Vec<Ring> {
    let Some(&(first, _)) = ring.first() else {
        return Vec::new();
    };
    let angle = |p: Point| (p.y - q.y).atan2(p.x - q.x);
    let start = direction.y.atan2(direction.x) - opening / 2.0;
    let end = start + opening;
    // The ring's angular span, relative to its first corner (within a half turn of it).
    let base = angle(first);
    let rel = |a: f64| (a - base + PI).rem_euclid(TAU) - PI;
    let (lo, hi) = ring.iter().fold((0.0f64, 0.0f64), |(lo, hi), v| {
        let a = rel(angle(v.0));
        (lo.min(a), hi.max(a))
    });
    let splits = |a: f64| lo < rel(a) && rel(a) < hi;
    let ray = |a: f64| Point::new(a.cos(), a.sin());
    match (splits(start), splits(end)) {
        (false, false) => {
            let mid = base + (lo + hi) / 2.0;
            if (mid - start).rem_euclid(TAU) < opening {
                vec![ring]
            } else {
                Vec::new()
            }
        }
        (true, false) => vec![clip(q, &ring, ray(start), 1.0)],
        (false, true) => vec![clip(q, &ring, ray(end), -1.0)],
        // Both sides through the ring: the cone's inside (a half turn or less) is the
        // wedge between them; a wider cone leaves the ring's two ends.
        (true, true) if opening <= PI => {
            vec![clip(q, &clip(q, &ring, ray(start), 1.0), ray(end), -1.0)]
        }
        (true, true) => vec![
            clip(q, &ring, ray(end), -1.0),
            clip(q, &ring, ray(start), 1.0),
        ],
    }
}

/// The ring cut to the side of the line through `q` along `dir` that `sign` names (+1
/// its left, −1 its right); the cut runs along the line ([`RegionEdge::Cone`]). The ring
/// meets the line in one stretch, so what is left is one ring.
fn clip(q: Point, ring: &[(Point, RegionEdge)], dir: Point, sign: f64) -> Ring {
    let f = |p: Point| sign * dir.perp_dot(p - q);
    let n = ring.len();
    let mut out = Vec::with_capacity(n + 2);
    for i in 0..n {
        let (a, kind) = ring[i];
        let b = ring[(i + 1) % n].0;
        let (fa, fb) = (f(a), f(b));
        let cross = || a + (b - a) * (fa / (fa - fb));
        match (fa >= 0.0, fb >= 0.0) {
            (true, true) => out.push((a, kind)),
            (true, false) => {
                out.push((a, kind));
                out.push((cross(), RegionEdge::Cone));
            }
            (false, true) => out.push((cross(), kind)),
            (false, false) => {}
        }
    }
    dedup(out)
}
