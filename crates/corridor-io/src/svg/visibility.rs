//! How a visibility polygon looks: the seen region filled in translucent yellow, its wall
//! edges traced in red, its windows in thin brown, the viewpoint as a dot.

use super::{Style, SvgDocument};
use corridor_ecm::{EdgeKind, VisibilityPolygon};

impl SvgDocument {
    /// Adds a visibility polygon as four layers: `visibility-region` (the region),
    /// `visibility-walls` (the edges along walls), `visibility-windows` (the edges along
    /// rays past corners) and `visibility-origin` (the viewpoint).
    ///
    /// ```
    /// use corridor_ecm::Ecm;
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// use corridor_io::svg::SvgDocument;
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 6.0));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 2.0), Point::new(6.0, 4.0)));
    /// let ecm = Ecm::build(&env).unwrap();
    /// let seen = ecm.visibility_polygon(Point::new(1.0, 3.0)).unwrap();
    /// let mut doc = SvgDocument::of_environment(&env, false);
    /// doc.add_visibility(&seen);
    /// let svg = doc.render();
    /// assert!(svg.contains("id=\"visibility-region\"") && svg.contains("id=\"visibility-windows\""));
    /// ```
    pub fn add_visibility(&mut self, polygon: &VisibilityPolygon) -> &mut Self {
        let size = 0.006 * self.view().size().max_element();
        // Arcs of the range circle drawn as short chords (about 5° each).
        let (o, r) = (polygon.origin(), polygon.range().unwrap_or(0.0));
        let mut ring: Vec<_> = Vec::with_capacity(polygon.len() + 1);
        for (a, b, kind) in polygon.edges() {
            ring.push(a);
            if kind == EdgeKind::Arc {
                let start = (a - o).y.atan2((a - o).x);
                let mut turn =
                    ((b - o).y.atan2((b - o).x) - start).rem_euclid(std::f64::consts::TAU);
                if turn == 0.0 {
                    turn = std::f64::consts::TAU;
                }
                let steps = (turn / 5f64.to_radians()).ceil() as usize;
                for i in 1..steps {
                    let t = start + turn * i as f64 / steps as f64;
                    ring.push(o + corridor_geom::Point::new(t.cos(), t.sin()) * r);
                }
            }
        }
        if let Some(&first) = ring.first() {
            ring.push(first);
        }
        self.layer(
            "visibility-region",
            Style::filled("#ffd400", "none", 0.0).with_opacity(0.45),
        )
        .polyline(&ring);
        let walls = self.layer("visibility-walls", Style::stroke("#d62728", 2.0));
        for (a, b, kind) in polygon.edges() {
            if kind == EdgeKind::Wall {
                walls.segment(a, b);
            }
        }
        let windows = self.layer("visibility-windows", Style::stroke("#8c6d00", 1.0));
        for (a, b, kind) in polygon.edges() {
            if kind == EdgeKind::Window {
                windows.segment(a, b);
            }
        }
        self.layer("visibility-origin", Style::filled("#d62728", "none", 0.0))
            .circle(polygon.origin(), size);
        self
    }
}
