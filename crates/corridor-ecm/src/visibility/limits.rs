//! What a point sees within a range and a field of view, as games limit their
//! characters' sight: the visibility polygon cut to a disk of radius R around the
//! viewpoint (the cut parts become arcs of the range circle, kept exact as arcs, not
//! chords) and to a cone (an opening angle around a direction; its two sides become edges
//! through the viewpoint).
//!
//! The unlimited polygon is star-shaped around the viewpoint, so both cuts are done along
//! its boundary in angular order: the cone keeps the boundary between its two sides, the
//! disk keeps each edge's part within R (one interval, as the distance along a segment is
//! convex) and joins what is left by arcs.

use super::polygon::ray_hit;
use super::{EdgeKind, VisibilityError, VisibilityIndex, VisibilityPolygon};
use crate::graph::Ecm;
use corridor_geom::Point;
use std::f64::consts::TAU;

/// How far and where a viewer looks: a range (a disk around the viewpoint) and a
/// field-of-view cone, either or both. The default sees everything.
///
/// ```
/// use corridor_ecm::{Ecm, EdgeKind, ViewLimits};
/// use corridor_geom::{Environment, Point};
/// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
/// let ecm = Ecm::build(&env).unwrap();
/// // Looking along +x with a 90° cone, up to 2 units away: a quarter disk.
/// let limits = ViewLimits::new().with_range(2.0).with_cone(Point::new(1.0, 0.0), 90f64.to_radians());
/// let seen = ecm.visibility_polygon_within(Point::new(5.0, 5.0), &limits).unwrap();
/// assert!((seen.area() - std::f64::consts::PI).abs() < 1e-12);
/// assert!(seen.kinds().contains(&EdgeKind::Arc) && seen.kinds().contains(&EdgeKind::Cone));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ViewLimits {
    range: Option<f64>,
    cone: Option<(Point, f64)>,
}

impl ViewLimits {
    /// No limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sees only within `range` (user units, finite and > 0) of the viewpoint.
    pub fn with_range(mut self, range: f64) -> Self {
        self.range = Some(range);
        self
    }

    /// Sees only within `opening / 2` radians either side of `direction` (an opening in
    /// (0, 2π]; 2π is the whole turn, no cone).
    pub fn with_cone(mut self, direction: Point, opening: f64) -> Self {
        self.cone = Some((direction, opening));
        self
    }

    /// The range, if any.
    pub fn range(&self) -> Option<f64> {
        self.range
    }

    /// The cone's direction and opening (radians), if any.
    pub fn cone(&self) -> Option<(Point, f64)> {
        self.cone
    }

    /// Whether the limits are in their domain (the queries check this too).
    ///
    /// ```
    /// # use corridor_ecm::ViewLimits;
    /// # use corridor_geom::Point;
    /// assert!(ViewLimits::new().with_range(3.0).validate().is_ok());
    /// assert!(ViewLimits::new().with_cone(Point::new(0.0, 0.0), 1.0).validate().is_err());
    /// ```
    ///
    /// # Errors
    /// [`VisibilityError::BadRange`] or [`VisibilityError::BadCone`].
    pub fn validate(&self) -> Result<(), VisibilityError> {
        if let Some(range) = self.range {
            if !(range.is_finite() && range > 0.0) {
                return Err(VisibilityError::BadRange { range });
            }
        }
        if let Some((direction, opening)) = self.cone {
            let ok_dir = direction.is_finite() && direction != Point::new(0.0, 0.0);
            if !(ok_dir && opening > 0.0 && opening <= TAU) {
                return Err(VisibilityError::BadCone { direction, opening });
            }
        }
        Ok(())
    }
}

impl Ecm {
    /// The visibility polygon of `q` (see [`Ecm::visibility_polygon`]) cut to `limits`:
    /// edges of kind [`EdgeKind::Arc`] run along the range circle (counter-clockwise
    /// around `q`), edges of kind [`EdgeKind::Cone`] along the cone's sides (through `q`,
    /// which is then a corner).
    ///
    /// ```
    /// # use corridor_ecm::{Ecm, ViewLimits};
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let disk = ecm.visibility_polygon_within(Point::new(5.0, 5.0), &ViewLimits::new().with_range(1.0)).unwrap();
    /// assert_eq!(disk.len(), 1); // the whole circle: one corner, one arc
    /// assert!((disk.area() - std::f64::consts::PI).abs() < 1e-12);
    /// assert!(ecm.visibility_polygon_within(Point::new(5.0, 5.0), &ViewLimits::new().with_range(-1.0)).is_err());
    /// ```
    ///
    /// # Errors
    /// As [`Ecm::visibility_polygon`], and [`VisibilityError::BadRange`] or
    /// [`VisibilityError::BadCone`] for limits out of their domain.
    pub fn visibility_polygon_within(
        &self,
        q: Point,
        limits: &ViewLimits,
    ) -> Result<VisibilityPolygon, VisibilityError> {
        limits.validate()?;
        Ok(within(q, self.visibility_polygon(q)?, limits))
    }
}

impl VisibilityIndex {
    /// The visibility polygon of `q` cut to `limits`, as
    /// [`Ecm::visibility_polygon_within`] answers it.
    ///
    /// ```
    /// # use corridor_ecm::{VisibilityIndex, ViewLimits};
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    /// let index = VisibilityIndex::build(&env).unwrap();
    /// let disk = index.visibility_polygon_within(Point::new(5.0, 5.0), &ViewLimits::new().with_range(1.0)).unwrap();
    /// assert!((disk.area() - std::f64::consts::PI).abs() < 1e-12);
    /// ```
    ///
    /// # Errors
    /// As [`VisibilityIndex::visibility_polygon`], and [`VisibilityError::BadRange`] or
    /// [`VisibilityError::BadCone`] for limits out of their domain.
    pub fn visibility_polygon_within(
        &self,
        q: Point,
        limits: &ViewLimits,
    ) -> Result<VisibilityPolygon, VisibilityError> {
        limits.validate()?;
        Ok(within(q, self.visibility_polygon(q)?, limits))
    }
}

/// The edge kinds the cuts make: an arc of the range circle and a side of the cone.
pub(super) trait LimitKind: Copy + PartialEq {
    const ARC: Self;
    const CONE: Self;
}

impl LimitKind for EdgeKind {
    const ARC: Self = EdgeKind::Arc;
    const CONE: Self = EdgeKind::Cone;
}

/// The unlimited polygon `full` of `q` cut to (valid) `limits`.
fn within(q: Point, full: VisibilityPolygon, limits: &ViewLimits) -> VisibilityPolygon {
    let mut ring: Vec<(Point, EdgeKind)> = full
        .vertices
        .iter()
        .copied()
        .zip(full.kinds.iter().copied())
        .collect();
    if let Some((direction, opening)) = limits.cone {
        if opening < TAU {
            ring = cut_cone(q, &ring, direction, opening);
        }
    }
    if let Some(range) = limits.range {
        ring = cut_range(q, &ring, range);
        if ring.is_empty() {
            // Nothing within reach: the whole circle.
            ring = vec![(q + Point::new(range, 0.0), EdgeKind::Arc)];
        }
    }
    VisibilityPolygon {
        origin: q,
        vertices: ring.iter().map(|v| v.0).collect(),
        kinds: ring.iter().map(|v| v.1).collect(),
        range: limits.range,
    }
}

/// The part of the star-shaped ring (corners with the kind of the edge leaving each)
/// between the cone's sides, closed through `q`.
pub(super) fn cut_cone<K: LimitKind>(
    q: Point,
    ring: &[(Point, K)],
    direction: Point,
    opening: f64,
) -> Vec<(Point, K)> {
    let n = ring.len();
    let start = direction.y.atan2(direction.x) - opening / 2.0;
    let angle = |p: Point| {
        let d = p - q;
        (d.y.atan2(d.x) - start).rem_euclid(TAU)
    };
    let angles: Vec<f64> = ring.iter().map(|v| angle(v.0)).collect();
    // The angles grow around the ring but once, where it passes the cone's first side.
    let first = (0..n)
        .max_by(|&i, &j| {
            let drop = |k: usize| angles[(k + n - 1) % n] - angles[k];
            drop(i).total_cmp(&drop(j))
        })
        .unwrap_or(0);
    let side = |a: f64| q + Point::new(a.cos(), a.sin());
    let before = (first + n - 1) % n;
    let mut out = vec![
        (q, K::CONE),
        (
            ray_hit(q, side(start), ring[before].0, ring[first].0),
            ring[before].1,
        ),
    ];
    let mut last = before;
    for i in first..first + n {
        let k = i % n;
        if angles[k] >= opening {
            break;
        }
        out.push(ring[k]);
        last = k;
    }
    let end = ray_hit(
        q,
        side(start + opening),
        ring[last].0,
        ring[(last + 1) % n].0,
    );
    out.push((end, K::CONE));
    dedup(out)
}

/// The ring cut to the disk of radius `r` around `q`: each edge keeps its part within the
/// disk, and arcs of the circle (counter-clockwise around `q`) join the parts. Empty when
/// no edge comes within reach (the disk is then inside the ring, or outside it).
pub(super) fn cut_range<K: LimitKind>(q: Point, ring: &[(Point, K)], r: f64) -> Vec<(Point, K)> {
    let n = ring.len();
    let mut out: Vec<(Point, K)> = Vec::with_capacity(n + 4);
    let inside = |p: Point| (p - q).length_squared() <= r * r;
    for i in 0..n {
        let (a, kind) = ring[i];
        let b = ring[(i + 1) % n].0;
        // |a - q + t (b - a)|² ≤ r² for t in [t0, t1] ∩ [0, 1].
        let (d, f) = (b - a, a - q);
        let (aa, bb, cc) = (d.dot(d), f.dot(d), f.dot(f) - r * r);
        let disc = bb * bb - aa * cc;
        if aa == 0.0 || disc < 0.0 {
            continue;
        }
        let root = disc.sqrt();
        let t0 = if inside(a) { 0.0 } else { (-bb - root) / aa };
        let t1 = if inside(b) { 1.0 } else { (-bb + root) / aa };
        if t0 > 1.0 || t1 < 0.0 || t0 > t1 {
            continue;
        }
        let at = |t: f64| {
            if t <= 0.0 {
                a
            } else if t >= 1.0 {
                b
            } else {
                a + d * t
            }
        };
        if t0 < t1 {
            out.push((at(t0), kind));
            if t1 < 1.0 {
                out.push((at(t1), K::ARC));
            }
        } else {
            out.push((at(t0), K::ARC));
        }
    }
    let mut out = dedup(out);
    // One arc between two parts, not several.
    let mut i = 0;
    while out.len() > 1 && i < out.len() {
        let prev = (i + out.len() - 1) % out.len();
        if out[prev].1 == K::ARC && out[i].1 == K::ARC {
            out.remove(i);
        } else {
            i += 1;
        }
    }
    out
}

/// Drops a corner equal to the next one (cyclically): the later one says which edge
/// leaves the point.
pub(super) fn dedup<K>(ring: Vec<(Point, K)>) -> Vec<(Point, K)> {
    let mut out: Vec<(Point, K)> = Vec::with_capacity(ring.len());
    for v in ring {
        if out.last().is_some_and(|l| l.0 == v.0) {
            out.pop();
        }
        out.push(v);
    }
    while out.len() > 1 && out[0].0 == out[out.len() - 1].0 {
        out.pop();
    }
    out
}
