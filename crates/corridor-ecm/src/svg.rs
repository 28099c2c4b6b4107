//! How an ECM looks: SVG layers as in the papers' figures (medial axis in blue,
//! nearest-point segments in orange, vertices sized by clearance).
//!
//! The layers carry a name, a style and raw SVG elements in user coordinates, the shape
//! `corridor_io::svg::SvgDocument` takes (`doc.layer(name, style).raw(elements)`), so this
//! crate needs no dependency on the picture writer.

use crate::graph::Ecm;
use std::fmt::Write as _;

/// One named group of SVG elements with a common style (user coordinates).
#[derive(Clone, Debug, PartialEq)]
pub struct SvgLayer {
    /// The layer's name (its SVG `id`).
    pub name: String,
    /// Stroke colour.
    pub stroke: String,
    /// Stroke width in pixels (strokes do not scale with the view).
    pub stroke_width_px: f64,
    /// Fill colour (`none` for no fill).
    pub fill: String,
    /// Opacity.
    pub opacity: f64,
    /// The SVG elements, one per line.
    pub elements: String,
}

impl SvgLayer {
    /// The layer as one `<g>` element.
    pub fn to_group(&self) -> String {
        format!(
            "<g id=\"{}\" stroke=\"{}\" stroke-width=\"{}\" fill=\"{}\" opacity=\"{}\">\n{}</g>\n",
            self.name,
            self.stroke,
            num(self.stroke_width_px),
            self.fill,
            num(self.opacity),
            self.elements
        )
    }
}

impl Ecm {
    /// The ECM as three layers, drawn in this order: `ecm-nearest-points` (orange
    /// segments from every bending point to its two nearest obstacle points),
    /// `ecm-medial-axis` (blue polylines through the bending points) and `ecm-vertices`
    /// (blue discs whose radius is a quarter of the vertex's clearance, at least a
    /// thousandth of the picture's size so that corner vertices stay visible).
    ///
    /// ```
    /// # use corridor_ecm::Ecm;
    /// # use corridor_geom::{GridPoint, SnapGrid, WallSegment, WallSource, Walls};
    /// # let corners = [(0, 0), (4, 0), (4, 2), (0, 2)];
    /// # let segments = (0..4).map(|i| { let (a, b) = (corners[i], corners[(i + 1) % 4]);
    /// #     WallSegment { a: GridPoint::new(a.0, a.1), b: GridPoint::new(b.0, b.1), two_sided: false,
    /// #     sources: [WallSource::Boundary].into() } }).collect();
    /// # let walls = Walls { grid: SnapGrid::new(1.0).unwrap(), segments, ..Walls::default() };
    /// let ecm = Ecm::from_walls(&walls).unwrap();
    /// let layers = ecm.svg_layers();
    /// assert_eq!(layers[1].name, "ecm-medial-axis");
    /// assert_eq!(layers[1].elements.matches("<polyline").count(), ecm.edge_count());
    /// assert_eq!(layers[2].elements.matches("<circle").count(), ecm.vertex_count());
    /// assert!(layers[0].to_group().starts_with("<g id=\"ecm-nearest-points\""));
    /// ```
    pub fn svg_layers(&self) -> Vec<SvgLayer> {
        let mut nearest = String::new();
        let mut axis = String::new();
        let mut discs = String::new();
        let (mut lo, mut hi) = (
            corridor_geom::Point::splat(f64::INFINITY),
            corridor_geom::Point::splat(f64::NEG_INFINITY),
        );
        for (_, e) in self.edges() {
            let _ = write!(axis, "<polyline points=\"");
            for (i, b) in e.bending_points.iter().enumerate() {
                lo = lo.min(b.position).min(b.left).min(b.right);
                hi = hi.max(b.position).max(b.left).max(b.right);
                let _ = write!(
                    axis,
                    "{}{},{}",
                    if i == 0 { "" } else { " " },
                    num(b.position.x),
                    num(b.position.y)
                );
                for n in [b.left, b.right] {
                    if n != b.position {
                        let _ = writeln!(
                            nearest,
                            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                            num(b.position.x),
                            num(b.position.y),
                            num(n.x),
                            num(n.y)
                        );
                    }
                }
            }
            let _ = writeln!(axis, "\"/>");
        }
        let size = (hi - lo).max_element();
        let min_radius = if size.is_finite() { 1e-3 * size } else { 0.0 };
        for (_, v) in self.vertices() {
            let _ = writeln!(
                discs,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                num(v.position.x),
                num(v.position.y),
                num((0.25 * v.clearance).max(min_radius))
            );
        }
        let layer = |name: &str, stroke: &str, width: f64, fill: &str, elements: String| SvgLayer {
            name: name.into(),
            stroke: stroke.into(),
            stroke_width_px: width,
            fill: fill.into(),
            opacity: 1.0,
            elements,
        };
        vec![
            layer("ecm-nearest-points", "#f08c00", 0.6, "none", nearest),
            layer("ecm-medial-axis", "#1c5fd6", 1.5, "none", axis),
            layer("ecm-vertices", "#0b3a8c", 0.5, "#1c5fd6", discs),
        ]
    }

    /// All of [`Ecm::svg_layers`] as `<g>` elements, ready to paste into an SVG document
    /// drawn in user coordinates.
    pub fn svg_groups(&self) -> String {
        self.svg_layers().iter().map(SvgLayer::to_group).collect()
    }
}

/// A number printed compactly (at most 4 decimals, no trailing zeros), as the project's
/// SVG writer does.
fn num(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}
