//! How do ground-plane regions combine? Unions and differences of polygons through
//! `i_overlay`, all on one integer grid per level, so that an edge two results share
//! has the same coordinates in both.

use corridor_geom::{Point, SnapGrid};
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay::ShapeType;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::core::solver::Solver;
use i_overlay::float::overlay::{FloatOverlay, OverlayOptions};
use i_overlay::i_float::adapter::FloatPointAdapter;
use i_overlay::i_float::float::rect::FloatRect;

/// A region: shapes, each an outer contour (counter-clockwise) and its holes
/// (clockwise), as `i_overlay` returns them.
pub(crate) type Region = Vec<Vec<Vec<[f64; 2]>>>;

/// The grid of one level: every overlay of the level rounds to it.
#[derive(Clone)]
pub(crate) struct GroundGrid {
    adapter: FloatPointAdapter<[f64; 2], i32>,
}

impl GroundGrid {
    /// The grid of the layers' environments (`snap`: `scale` steps per unit, origin at
    /// zero), for a level within `[min, max]` grown by `margin`: every overlay result
    /// is on it, so snapping the layers changes nothing. `None` when the level is too
    /// large for `i32` coordinates at that scale.
    pub(crate) fn new(min: Point, max: Point, margin: f64, snap: SnapGrid) -> Option<Self> {
        let r = min.abs().max(max.abs()).max_element() + margin;
        let rect = FloatRect::new(-r, r, -r, r).ok()?;
        let adapter =
            FloatPointAdapter::try_with_scale_and_coordinate_bits(rect, snap.scale(), 29).ok()?;
        Some(GroundGrid { adapter })
    }

    /// `p` rounded to the grid.
    pub(crate) fn round(&self, p: Point) -> [f64; 2] {
        let i = self.adapter.float_to_int(&[p.x, p.y]);
        self.adapter.int_to_float(&i)
    }

    fn overlay(&self, subject: &[&[[f64; 2]]], clip: &[&[[f64; 2]]], rule: OverlayRule) -> Region {
        // OGC-valid output: no contour touches itself or another of its shape, so
        // every contour is a simple ring the environment accepts.
        let mut options = OverlayOptions::ogc();
        options.clean_result = true;
        let mut overlay =
            FloatOverlay::new_custom(self.adapter.clone(), options, Solver::default(), 16);
        for c in subject {
            overlay = overlay.unsafe_add_contour(c, ShapeType::Subject);
        }
        for c in clip {
            overlay = overlay.unsafe_add_contour(c, ShapeType::Clip);
        }
        overlay.overlay(rule, FillRule::NonZero)
    }

    /// `subject` minus the union of `cuts` (contours of either orientation).
    pub(crate) fn difference(&self, subject: &[[f64; 2]], cuts: &[Vec<[f64; 2]>]) -> Region {
        let clip: Vec<&[[f64; 2]]> = cuts.iter().map(Vec::as_slice).collect();
        self.overlay(&[subject], &clip, OverlayRule::Difference)
    }

    /// The union of regions.
    pub(crate) fn union<'a>(&self, regions: impl IntoIterator<Item = &'a Region>) -> Region {
        let contours: Vec<&[[f64; 2]]> = regions
            .into_iter()
            .flatten()
            .flatten()
            .map(Vec::as_slice)
            .collect();
        self.overlay(&contours, &[], OverlayRule::Subject)
    }

    /// The area two regions share.
    pub(crate) fn overlap_area(&self, a: &Region, b: &Region) -> f64 {
        let ca: Vec<&[[f64; 2]]> = a.iter().flatten().map(Vec::as_slice).collect();
        let cb: Vec<&[[f64; 2]]> = b.iter().flatten().map(Vec::as_slice).collect();
        region_area(&self.overlay(&ca, &cb, OverlayRule::Intersect))
    }
}

/// Signed area of a contour (positive when counter-clockwise).
pub(crate) fn contour_area(c: &[[f64; 2]]) -> f64 {
    let n = c.len();
    (0..n)
        .map(|i| {
            let (p, q) = (c[i], c[(i + 1) % n]);
            p[0] * q[1] - q[0] * p[1]
        })
        .sum::<f64>()
        * 0.5
}

/// Area of a region (outer contours minus holes).
pub(crate) fn region_area(r: &Region) -> f64 {
    r.iter().flatten().map(|c| contour_area(c)).sum()
}

/// The bounding box of a region, `None` when empty.
pub(crate) fn region_box(r: &Region) -> Option<(Point, Point)> {
    let mut it = r.iter().flatten().flatten();
    let first = it.next()?;
    let init = (
        Point::new(first[0], first[1]),
        Point::new(first[0], first[1]),
    );
    Some(it.fold(init, |(lo, hi), p| {
        (
            Point::new(lo.x.min(p[0]), lo.y.min(p[1])),
            Point::new(hi.x.max(p[0]), hi.y.max(p[1])),
        )
    }))
}
