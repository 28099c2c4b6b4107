//! How does a multi-layered environment look in 3D? An isometric view: every layer's
//! free space lifted to its heights (floors stacked, stairs sloped), obstacles on it,
//! connections in red, paths crossing floors on top. Shapes are painted from the lowest
//! layer up, floors half transparent so that what lies below shows through.

use super::{escape, num};
use corridor_ecm::LayeredPath;
use corridor_geom::{LayeredEnvironment, Obstacle, Point, Point3 as DVec3};
use std::fmt::Write as _;

/// One shape: its painting order, SVG class and presentation attributes, 3D points.
#[derive(Clone, Debug)]
struct Shape {
    order: f64,
    class: &'static str,
    attributes: String,
    points: Vec<DVec3>,
    closed: bool,
}

/// An isometric picture of a layered environment (x to the lower right, y to the lower
/// left, height up), with paths added by [`IsometricSvg::add_path`].
///
/// ```
/// use corridor_io::svg::IsometricSvg;
/// let world = corridor_io::scenes::layers();
/// let ecm = corridor_ecm::LayeredEcm::build(&world).unwrap();
/// let planner = corridor_ecm::LayeredPlanner::new(&ecm, 0.0).unwrap();
/// let (ground, upper) = (corridor_geom::LayerId(0), corridor_geom::LayerId(1));
/// let p = corridor_geom::Point::new;
/// let path = planner.plan(ground, p(2.0, 5.0), upper, p(38.0, 5.0)).unwrap();
/// let svg = IsometricSvg::new(&world).add_path(&world, &path).render();
/// assert!(svg.starts_with("<svg"));
/// // Four layers, four connections, one path.
/// assert_eq!(svg.matches("class=\"layer\"").count(), 4);
/// assert_eq!(svg.matches("class=\"connection\"").count(), 4);
/// assert_eq!(svg.matches("class=\"path\"").count(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct IsometricSvg {
    shapes: Vec<Shape>,
    height_scale: Option<f64>,
    width_px: f64,
}

/// Floor colours, by layer order from the lowest.
const PALETTE: [&str; 6] = [
    "#9ecae1", "#a1d99b", "#fdd0a2", "#bcbddc", "#fcbba1", "#c7e9c0",
];

impl IsometricSvg {
    /// Every layer (its free space and obstacles at their heights) and connection.
    pub fn new(world: &LayeredEnvironment) -> Self {
        let mut shapes = Vec::new();
        let mut lowest: Vec<(f64, usize)> = world
            .layers()
            .map(|(id, layer)| {
                let min = layer
                    .environment
                    .boundary()
                    .vertices()
                    .iter()
                    .map(|&p| layer.height_at(p))
                    .fold(f64::INFINITY, f64::min);
                (min, id.0 as usize)
            })
            .collect();
        lowest.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (rank, &(_, index)) in lowest.iter().enumerate() {
            let Ok(layer) = world.layer(corridor_geom::LayerId(index as u32)) else {
                continue;
            };
            let order = rank as f64;
            let lift = |ps: &[Point]| ps.iter().map(|&p| layer.point_3d(p)).collect();
            shapes.push(Shape {
                order,
                class: "layer",
                attributes: format!(
                    "fill=\"{}\" fill-opacity=\"0.55\" stroke=\"#555\" stroke-width=\"1\"",
                    PALETTE[rank % PALETTE.len()]
                ),
                points: lift(layer.environment.boundary().vertices()),
                closed: true,
            });
            for (_, obstacle) in layer.environment.obstacles() {
                let (points, closed): (Vec<DVec3>, bool) = match obstacle {
                    Obstacle::Polygon(poly) => (lift(poly.exterior.vertices()), true),
                    Obstacle::Polyline(v) => (lift(v), false),
                    Obstacle::Point(p) => (lift(&[*p, *p]), false),
                };
                shapes.push(Shape {
                    order: order + 0.25,
                    class: "obstacle",
                    attributes: if closed {
                        "fill=\"#444\" fill-opacity=\"0.85\" stroke=\"#222\" stroke-width=\"0.5\""
                    } else {
                        "fill=\"none\" stroke=\"#222\" stroke-width=\"2\""
                    }
                    .into(),
                    points,
                    closed,
                });
            }
        }
        let rank_of =
            |index: usize| lowest.iter().position(|&(_, i)| i == index).unwrap_or(0) as f64;
        for (_, c) in world.connections() {
            let [a, b] = c.layers;
            let Ok(layer) = world.layer(a) else { continue };
            shapes.push(Shape {
                order: rank_of(a.0 as usize).max(rank_of(b.0 as usize)) + 0.5,
                class: "connection",
                attributes: "fill=\"none\" stroke=\"#d62828\" stroke-width=\"3\"".into(),
                points: vec![layer.point_3d(c.segment.a), layer.point_3d(c.segment.b)],
                closed: false,
            });
        }
        IsometricSvg {
            shapes,
            height_scale: None,
            width_px: 1200.0,
        }
    }

    /// A path across layers, drawn on top of everything, with its start and goal.
    pub fn add_path(&mut self, world: &LayeredEnvironment, path: &LayeredPath) -> &mut Self {
        let points: Vec<DVec3> = path
            .points()
            .into_iter()
            .filter_map(|(layer, p)| world.point_3d(layer, p).ok())
            .collect();
        self.shapes.push(Shape {
            order: f64::INFINITY,
            class: "path",
            attributes: "fill=\"none\" stroke=\"#e6a700\" stroke-width=\"4\"".into(),
            points,
            closed: false,
        });
        self
    }

    /// How much heights are stretched against ground distances (default: enough for
    /// the layers' height span to show as half the ground extent, at least 1).
    pub fn with_height_scale(&mut self, scale: f64) -> &mut Self {
        self.height_scale = Some(scale);
        self
    }

    /// The page's width in pixels.
    pub fn with_width(&mut self, width_px: f64) -> &mut Self {
        self.width_px = width_px;
        self
    }

    /// The SVG text.
    pub fn render(&self) -> String {
        let all = || self.shapes.iter().flat_map(|s| s.points.iter());
        let (lo, hi) = all().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        );
        let (extent, span) = if lo.x.is_finite() {
            ((hi.x - lo.x).max(hi.y - lo.y), hi.z - lo.z)
        } else {
            (1.0, 0.0)
        };
        let scale = self.height_scale.unwrap_or(if span > 0.0 {
            (0.5 * extent / span).max(1.0)
        } else {
            1.0
        });
        let (c, s) = (30f64.to_radians().cos(), 0.5);
        let project = |p: DVec3| Point::new((p.x - p.y) * c, (p.x + p.y) * s - p.z * scale);
        let (mut min, mut max) = (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
        for &p in all() {
            let q = project(p);
            (min, max) = (min.min(q), max.max(q));
        }
        if !min.x.is_finite() {
            (min, max) = (Point::ZERO, Point::ONE);
        }
        let margin = 0.03 * (max - min).max_element().max(1e-9);
        let (min, size) = (
            min - Point::splat(margin),
            max - min + Point::splat(2.0 * margin),
        );
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\">",
            num(self.width_px),
            num((self.width_px * size.y / size.x).max(1.0)),
            num(min.x),
            num(min.y),
            num(size.x),
            num(size.y)
        );
        out.push_str(
            "<style>* { stroke-linejoin: round; stroke-linecap: round; vector-effect: non-scaling-stroke; }</style>\n",
        );
        let _ = writeln!(
            out,
            "<title>{}</title>",
            escape(&format!("isometric view, heights ×{}", num(scale)))
        );
        let mut order: Vec<&Shape> = self.shapes.iter().collect();
        order.sort_by(|a, b| a.order.total_cmp(&b.order));
        for shape in order {
            let points: String = shape
                .points
                .iter()
                .map(|&p| {
                    let q = project(p);
                    format!("{},{}", num(q.x), num(q.y))
                })
                .collect::<Vec<_>>()
                .join(" ");
            let tag = if shape.closed { "polygon" } else { "polyline" };
            let _ = writeln!(
                out,
                "<{tag} class=\"{}\" {} points=\"{points}\"/>",
                shape.class, shape.attributes
            );
        }
        out.push_str("</svg>\n");
        out
    }

    /// Writes the SVG text to a file.
    pub fn write(&self, path: impl AsRef<std::path::Path>) -> std::io::Result<()> {
        std::fs::write(path, self.render())
    }
}
