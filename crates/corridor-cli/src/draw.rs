//! Pictures of planner output: the ECM layers and paths on top of an environment.

use corridor_ecm::{CorridorPath, Ecm};
use corridor_geom::{Obstacle, Point};
use corridor_io::svg::{Style, SvgDocument};

/// Adds the ECM's layers (medial axis blue, nearest-point segments orange, vertices sized
/// by clearance).
pub fn add_ecm(doc: &mut SvgDocument, ecm: &Ecm) {
    for layer in ecm.svg_layers() {
        let style = Style {
            stroke: layer.stroke.clone(),
            stroke_width: layer.stroke_width_px,
            fill: layer.fill.clone(),
            opacity: layer.opacity,
        };
        doc.layer(&layer.name, style).raw(&layer.elements);
    }
}

/// Draws obstacles in a highlight colour: `filled` for inserted ones (translucent
/// fill), outlined for removed ones.
pub fn add_obstacles<'a>(
    doc: &mut SvgDocument,
    name: &str,
    obstacles: impl IntoIterator<Item = &'a Obstacle>,
    colour: &str,
    filled: bool,
) {
    let size = 0.006 * doc.view().size().max_element();
    let style = if filled {
        Style::filled(colour, colour, 2.5).with_opacity(0.6)
    } else {
        Style::filled("none", colour, 2.5)
    };
    let layer = doc.layer(name, style);
    for obstacle in obstacles {
        match obstacle {
            Obstacle::Point(p) => layer.circle(*p, size),
            Obstacle::Polyline(points) => layer.polyline(points),
            Obstacle::Polygon(polygon) => layer.polygon(polygon),
        };
    }
}

/// Adds a path: its corridor (light blue), the path (yellow), start and goal.
pub fn add_path(doc: &mut SvgDocument, path: &CorridorPath, name: &str, colour: &str) {
    let size = 0.004 * doc.view().size().max_element();
    let corridor = doc.layer(
        &format!("{name}-corridor"),
        Style::filled("#9fd3ff", "none", 0.0).with_opacity(0.45),
    );
    for w in path.corridor.windows(2) {
        let (a, b) = (w[0], w[1]);
        corridor.raw(&polygon(&[a.left, b.left, b.right, a.right]));
    }
    doc.layer(name, Style::stroke(colour, 3.0))
        .polyline(&path.points);
    let ends = doc.layer(
        &format!("{name}-ends"),
        Style::filled(colour, "#333333", 1.0),
    );
    if let (Some(&s), Some(&g)) = (path.points.first(), path.points.last()) {
        ends.circle(s, size).circle(g, size);
    }
}

fn polygon(points: &[Point]) -> String {
    let list: Vec<String> = points.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
    format!("<polygon points=\"{}\"/>\n", list.join(" "))
}
