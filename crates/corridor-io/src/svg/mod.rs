//! SVG pictures: a document with a fitting view box and named layers that any planner
//! can add to (the medial axis, corridors, paths, agents...).
//!
//! Coordinates are user units with y growing downward, as in grid maps (row index = y).
//! Stroke widths are given in pixels of the rendered picture, so a 10-unit box and a
//! 10 000-unit city get equally thin lines.
//!
//! The planners' own layers live beside the document: [`SvgDocument::add_ecm`] draws an
//! Explicit Corridor Map; [`LayeredSvg`] draws every layer of a multi-layered
//! environment side by side.

mod ecm;
mod isometric;
mod layered;
mod visibility;

pub use isometric::IsometricSvg;
pub use layered::LayeredSvg;

use corridor_geom::{Aabb, Environment, Obstacle, Point, Polygon, Ring};
use std::fmt::Write as _;

/// An SVG picture made of layers drawn in the order they were added.
///
/// ```
/// use corridor_geom::{Environment, Obstacle, Point};
/// use corridor_io::svg::{Style, SvgDocument};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 5.0));
/// env.insert(Obstacle::rectangle(Point::new(2.0, 1.0), Point::new(4.0, 3.0)));
/// let mut doc = SvgDocument::of_environment(&env, false);
/// doc.layer("path", Style::stroke("#e6c300", 2.0))
///     .polyline(&[Point::new(1.0, 1.0), Point::new(9.0, 4.0)]);
/// let svg = doc.render();
/// assert!(svg.starts_with("<svg"));
/// assert!(svg.contains("id=\"path\""));
/// ```
#[derive(Clone, Debug)]
pub struct SvgDocument {
    view: Aabb,
    width_px: f64,
    layers: Vec<Layer>,
    title: Option<String>,
}

/// The look of a layer: stroke and fill, as SVG attributes.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// Stroke colour (`none` for no stroke).
    pub stroke: String,
    /// Stroke width in pixels.
    pub stroke_width: f64,
    /// Fill colour (`none` for no fill).
    pub fill: String,
    /// Overall opacity.
    pub opacity: f64,
}

impl Style {
    /// Lines only.
    pub fn stroke(colour: &str, width_px: f64) -> Self {
        Style {
            stroke: colour.into(),
            stroke_width: width_px,
            fill: "none".into(),
            opacity: 1.0,
        }
    }

    /// Filled shapes with an outline.
    pub fn filled(fill: &str, stroke: &str, width_px: f64) -> Self {
        Style {
            stroke: stroke.into(),
            stroke_width: width_px,
            fill: fill.into(),
            opacity: 1.0,
        }
    }

    /// The same style at another opacity.
    pub fn with_opacity(mut self, opacity: f64) -> Self {
        self.opacity = opacity;
        self
    }
}

/// One named group of shapes sharing a style.
#[derive(Clone, Debug)]
pub struct Layer {
    name: String,
    style: Style,
    body: String,
}

impl Layer {
    /// A line segment.
    pub fn segment(&mut self, a: Point, b: Point) -> &mut Self {
        let _ = writeln!(
            self.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            num(a.x),
            num(a.y),
            num(b.x),
            num(b.y)
        );
        self
    }

    /// An open polyline.
    pub fn polyline(&mut self, points: &[Point]) -> &mut Self {
        if points.len() >= 2 {
            let _ = writeln!(
                self.body,
                "<polyline fill=\"none\" points=\"{}\"/>",
                point_list(points)
            );
        }
        self
    }

    /// A closed ring.
    pub fn ring(&mut self, ring: &Ring) -> &mut Self {
        let _ = writeln!(
            self.body,
            "<polygon points=\"{}\"/>",
            point_list(ring.vertices())
        );
        self
    }

    /// A polygon with holes (even-odd fill, so holes stay empty).
    pub fn polygon(&mut self, polygon: &Polygon) -> &mut Self {
        let mut d = String::new();
        for ring in polygon.rings() {
            for (i, p) in ring.vertices().iter().enumerate() {
                let _ = write!(
                    d,
                    "{}{} {} ",
                    if i == 0 { "M" } else { "L" },
                    num(p.x),
                    num(p.y)
                );
            }
            d.push_str("Z ");
        }
        let _ = writeln!(
            self.body,
            "<path fill-rule=\"evenodd\" d=\"{}\"/>",
            d.trim_end()
        );
        self
    }

    /// A circle of radius `r` user units.
    pub fn circle(&mut self, centre: Point, r: f64) -> &mut Self {
        let _ = writeln!(
            self.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
            num(centre.x),
            num(centre.y),
            num(r)
        );
        self
    }

    /// A label; `size` is the font size in user units.
    pub fn text(&mut self, at: Point, size: f64, text: &str) -> &mut Self {
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" stroke=\"none\" fill=\"#222\">{}</text>",
            num(at.x),
            num(at.y),
            num(size),
            escape(text)
        );
        self
    }

    /// Raw SVG elements, for layers that need something the helpers do not offer.
    pub fn raw(&mut self, elements: &str) -> &mut Self {
        self.body.push_str(elements);
        self
    }

    /// The layer's name (its SVG `id`).
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl SvgDocument {
    /// An empty picture showing `view` (a margin of 2 % is added), `width_px` pixels wide.
    pub fn new(view: Aabb) -> Self {
        let margin = 0.02 * view.size().x.max(view.size().y).max(1e-9);
        SvgDocument {
            view: view.expanded(margin),
            width_px: 1000.0,
            layers: Vec::new(),
            title: None,
        }
    }

    /// A picture of the environment: the boundary, the obstacles, and optionally each
    /// obstacle's id at its first vertex.
    pub fn of_environment(env: &Environment, with_ids: bool) -> Self {
        let mut doc = SvgDocument::new(env.bounds());
        doc.layer("free-space", Style::filled("#ffffff", "#333333", 1.5))
            .ring(env.boundary());
        let obstacles = doc.layer("obstacles", Style::filled("#9e9e9e", "#555555", 0.8));
        let point_radius = 0.004 * env.bounds().size().max_element();
        for (_, obstacle) in env.obstacles() {
            match obstacle {
                Obstacle::Point(p) => obstacles.circle(*p, point_radius),
                Obstacle::Polyline(points) => obstacles.polyline(points),
                Obstacle::Polygon(polygon) => obstacles.polygon(polygon),
            };
        }
        if with_ids {
            let size = 0.012 * env.bounds().size().max_element();
            let labels = doc.layer("obstacle-ids", Style::filled("#222222", "none", 0.0));
            for (id, obstacle) in env.obstacles() {
                if let Some(p) = obstacle.points().next() {
                    labels.text(p, size, &id.0.to_string());
                }
            }
        }
        doc
    }

    /// The picture's width in pixels (the height follows the view's aspect ratio).
    pub fn with_width(mut self, width_px: f64) -> Self {
        self.width_px = width_px;
        self
    }

    /// A title shown by viewers.
    pub fn with_title(mut self, title: &str) -> Self {
        self.title = Some(title.to_string());
        self
    }

    /// The visible region in user units.
    pub fn view(&self) -> Aabb {
        self.view
    }

    /// The layer named `name`, created on top of the others if it does not exist yet
    /// (its style is then `style`; an existing layer keeps its own).
    pub fn layer(&mut self, name: &str, style: Style) -> &mut Layer {
        let index = match self.layers.iter().position(|l| l.name == name) {
            Some(i) => i,
            None => {
                self.layers.push(Layer {
                    name: name.to_string(),
                    style,
                    body: String::new(),
                });
                self.layers.len() - 1
            }
        };
        &mut self.layers[index]
    }

    /// The layers in drawing order.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The SVG text.
    pub fn render(&self) -> String {
        let size = self.view.size();
        let height_px = self.width_px * size.y / size.x.max(1e-12);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\">",
            num(self.width_px),
            num(height_px.max(1.0)),
            num(self.view.min.x),
            num(self.view.min.y),
            num(size.x),
            num(size.y)
        );
        if let Some(title) = &self.title {
            let _ = writeln!(out, "<title>{}</title>", escape(title));
        }
        out.push_str("<style>* { stroke-linejoin: round; stroke-linecap: round; }</style>\n");
        // Stroke widths are given in pixels; convert them to user units so that every
        // viewer (not only those that know `vector-effect`) draws them alike.
        let user_per_px = size.x / self.width_px;
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f4f0\"/>",
            num(self.view.min.x),
            num(self.view.min.y),
            num(size.x),
            num(size.y)
        );
        write_layers(&mut out, &self.layers, user_per_px, "");
        out.push_str("</svg>\n");
        out
    }

    /// Writes the SVG text to a file.
    pub fn write(&self, path: impl AsRef<std::path::Path>) -> std::io::Result<()> {
        std::fs::write(path, self.render())
    }
}

/// Each layer as a group with its style (stroke widths at `user_per_px`), its id
/// prefixed by `prefix`.
fn write_layers(out: &mut String, layers: &[Layer], user_per_px: f64, prefix: &str) {
    for layer in layers {
        let s = &layer.style;
        let _ = writeln!(
            out,
            "<g id=\"{}{}\" stroke=\"{}\" stroke-width=\"{}\" fill=\"{}\" opacity=\"{}\">",
            escape(prefix),
            escape(&layer.name),
            escape(&s.stroke),
            num(s.stroke_width * user_per_px),
            escape(&s.fill),
            num(s.opacity)
        );
        out.push_str(&layer.body);
        out.push_str("</g>\n");
    }
}

/// A number printed compactly (at most 4 decimals, no trailing zeros).
fn num(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

fn point_list(points: &[Point]) -> String {
    let mut s = String::with_capacity(points.len() * 12);
    for p in points {
        let _ = write!(s, "{},{} ", num(p.x), num(p.y));
    }
    s.trim_end().to_string()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
