//! How does a multi-layered environment look? Every layer in its own panel, side by side
//! on one page in the same ground-plane frame and scale, connections highlighted in red
//! (labelled with the layer on the other side), and paths drawn piece by piece in the
//! panels of the layers they cross.

use super::{escape, num, write_layers, Style, SvgDocument};
use corridor_ecm::{LayeredEcm, LayeredPath};
use corridor_geom::{Aabb, LayerId, LayeredEnvironment, Point};
use std::fmt::Write as _;

/// A picture of every layer side by side: one [`SvgDocument`] panel per layer, in the
/// layer's own ground coordinates, laid out in a grid by [`LayeredSvg::render`].
///
/// ```
/// use corridor_io::svg::LayeredSvg;
/// let world = corridor_io::scenes::layers();
/// let mut picture = LayeredSvg::new(&world);
/// let ecm = corridor_ecm::LayeredEcm::build(&world).unwrap();
/// picture.add_ecm(&ecm);
/// let svg = picture.render();
/// assert!(svg.starts_with("<svg"));
/// // Four panels; each of the four connections is drawn in both its layers' panels.
/// assert_eq!(svg.matches("<g transform=").count(), 4);
/// assert!(svg.contains("<g id=\"L3-ecm-medial-axis\""));
/// assert_eq!(svg.matches("class=\"connection\"").count(), 8);
/// ```
#[derive(Clone, Debug)]
pub struct LayeredSvg {
    names: Vec<String>,
    panels: Vec<SvgDocument>,
    frame: Aabb,
    width_px: f64,
}

impl LayeredSvg {
    /// Panels of every layer (its free space and obstacles) with its connections.
    pub fn new(world: &LayeredEnvironment) -> Self {
        let mut frame: Option<Aabb> = None;
        let mut panels = Vec::with_capacity(world.layer_count());
        let mut names = Vec::with_capacity(world.layer_count());
        for (id, layer) in world.layers() {
            let bounds = layer.environment.bounds();
            frame = Some(frame.map_or(bounds, |f| f.union(bounds)));
            panels.push(SvgDocument::of_environment(&layer.environment, false));
            names.push(if layer.name.is_empty() {
                id.to_string()
            } else {
                format!("{id} {}", layer.name)
            });
        }
        let frame = frame.unwrap_or(Aabb::new(Point::ZERO, Point::ONE));
        let mut picture = LayeredSvg {
            names,
            panels,
            frame,
            width_px: 1400.0,
        };
        let label = 0.02 * frame.size().max_element();
        for (id, c) in world.connections() {
            for (layer, other) in [(c.layers[0], c.layers[1]), (c.layers[1], c.layers[0])] {
                if let Some(panel) = picture.panel(layer) {
                    let s = c.segment;
                    panel
                        .layer("connections", Style::stroke("#d62828", 4.0))
                        .raw(&format!(
                        "<line class=\"connection\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n",
                        num(s.a.x),
                        num(s.a.y),
                        num(s.b.x),
                        num(s.b.y)
                    ));
                    panel
                        .layer("connection-labels", Style::filled("#d62828", "none", 0.0))
                        .text((s.a + s.b) * 0.5, label, &format!("{id}→{other}"));
                }
            }
        }
        picture
    }

    /// The panel of `layer`, to draw on in that layer's ground coordinates.
    pub fn panel(&mut self, layer: LayerId) -> Option<&mut SvgDocument> {
        self.panels.get_mut(layer.0 as usize)
    }

    /// The page's width in pixels.
    pub fn with_width(mut self, width_px: f64) -> Self {
        self.width_px = width_px;
        self
    }

    /// Every layer's ECM in its panel ([`SvgDocument::add_ecm`]).
    pub fn add_ecm(&mut self, ecm: &LayeredEcm) -> &mut Self {
        for (id, layer) in ecm.layers() {
            if let Some(panel) = self.panel(id) {
                panel.add_ecm(layer);
            }
        }
        self
    }

    /// A path across layers: each step in its layer's panel, each crossing segment in the
    /// panels of both layers it joins, the start and goal as discs.
    pub fn add_path(&mut self, path: &LayeredPath) -> &mut Self {
        let style = || Style::stroke("#e6a700", 3.0);
        for step in &path.steps {
            if let Some(panel) = self.panel(step.layer) {
                panel.layer("path", style()).polyline(&step.path.points);
            }
        }
        for pair in path.steps.windows(2) {
            let (Some(&a), Some(&b)) = (pair[0].path.points.last(), pair[1].path.points.first())
            else {
                continue;
            };
            for layer in [pair[0].layer, pair[1].layer] {
                if let Some(panel) = self.panel(layer) {
                    panel.layer("path", style()).segment(a, b);
                }
            }
        }
        let r = 0.008 * self.frame.size().max_element();
        let ends = [
            path.steps
                .first()
                .and_then(|s| Some((s.layer, *s.path.points.first()?))),
            path.steps
                .last()
                .and_then(|s| Some((s.layer, *s.path.points.last()?))),
        ];
        for (layer, p) in ends.into_iter().flatten() {
            if let Some(panel) = self.panel(layer) {
                panel
                    .layer("path-ends", Style::filled("#e6a700", "#7a5800", 1.0))
                    .circle(p, r);
            }
        }
        self
    }

    /// The SVG text: panels in a grid of ⌈√n⌉ columns, each showing the frame of all
    /// layers together (so stacked floors line up), titled with the layer's id and name.
    pub fn render(&self) -> String {
        let n = self.panels.len().max(1);
        let columns = (n as f64).sqrt().ceil() as usize;
        let rows = n.div_ceil(columns);
        let size = self.frame.size();
        let gap = 0.08 * size.max_element();
        let title = 0.06 * size.max_element();
        let (cell_w, cell_h) = (size.x + gap, size.y + gap + title);
        let (page_w, page_h) = (columns as f64 * cell_w + gap, rows as f64 * cell_h + gap);
        let user_per_px = page_w / self.width_px;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">",
            num(self.width_px),
            num((self.width_px * page_h / page_w).max(1.0)),
            num(page_w),
            num(page_h)
        );
        out.push_str("<style>* { stroke-linejoin: round; stroke-linecap: round; }</style>\n");
        let _ = writeln!(
            out,
            "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#f4f4f0\"/>",
            num(page_w),
            num(page_h)
        );
        for (k, (panel, name)) in self.panels.iter().zip(&self.names).enumerate() {
            let x = gap + (k % columns) as f64 * cell_w;
            let y = gap + (k / columns) as f64 * cell_h;
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#222\">{}</text>",
                num(x),
                num(y + 0.7 * title),
                num(0.6 * title),
                escape(name)
            );
            let (dx, dy) = (x - self.frame.min.x, y + title - self.frame.min.y);
            let _ = writeln!(
                out,
                "<g transform=\"translate({} {})\">\n<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#bbbbbb\" stroke-width=\"{}\"/>",
                num(dx),
                num(dy),
                num(self.frame.min.x),
                num(self.frame.min.y),
                num(size.x),
                num(size.y),
                num(user_per_px)
            );
            write_layers(&mut out, &panel.layers, user_per_px, &format!("L{k}-"));
            out.push_str("</g>\n");
        }
        out.push_str("</svg>\n");
        out
    }

    /// Writes the SVG text to a file.
    pub fn write(&self, path: impl AsRef<std::path::Path>) -> std::io::Result<()> {
        std::fs::write(path, self.render())
    }
}
