//! How an ECM looks: SVG layers as in the papers' figures (medial axis in blue,
//! nearest-point segments in orange, vertices sized by clearance).

use super::{num, Style, SvgDocument};
use corridor_ecm::Ecm;
use corridor_geom::Point;
use std::fmt::Write as _;

impl SvgDocument {
    /// Adds the ECM as three layers, drawn in this order: `ecm-nearest-points` (orange
    /// segments from every bending point to its two nearest obstacle points),
    /// `ecm-medial-axis` (blue polylines through the bending points) and `ecm-vertices`
    /// (blue discs whose radius is a quarter of the vertex's clearance, at least a
    /// thousandth of the ECM's size so that corner vertices stay visible).
    ///
    /// ```
    /// use corridor_ecm::Ecm;
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// use corridor_io::svg::SvgDocument;
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 6.0));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 2.0), Point::new(6.0, 4.0)));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let mut doc = SvgDocument::of_environment(&env, false);
    /// doc.add_ecm(&ecm);
    /// let names: Vec<&str> = doc.layers().iter().map(|l| l.name()).collect();
    /// assert_eq!(names[2..], ["ecm-nearest-points", "ecm-medial-axis", "ecm-vertices"]);
    /// let svg = doc.render();
    /// assert_eq!(svg.matches("<polyline").count(), ecm.edge_count());
    /// assert_eq!(svg.matches("<circle").count(), ecm.vertex_count());
    /// ```
    pub fn add_ecm(&mut self, ecm: &Ecm) -> &mut Self {
        let mut nearest = String::new();
        let mut axis = String::new();
        let mut discs = String::new();
        let (mut lo, mut hi) = (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
        for (_, e) in ecm.edges() {
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
        for (_, v) in ecm.vertices() {
            let _ = writeln!(
                discs,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                num(v.position.x),
                num(v.position.y),
                num((0.25 * v.clearance).max(min_radius))
            );
        }
        self.layer("ecm-nearest-points", Style::stroke("#f08c00", 0.6))
            .raw(&nearest);
        self.layer("ecm-medial-axis", Style::stroke("#1c5fd6", 1.5))
            .raw(&axis);
        self.layer("ecm-vertices", Style::filled("#1c5fd6", "#0b3a8c", 0.5))
            .raw(&discs);
        self
    }
}
