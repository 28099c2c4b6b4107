//! Pictures of planner output: the ECM layers and paths on top of an environment.

use corridor_ecm::CorridorStep;
use corridor_geom::{Obstacle, Point};
use corridor_io::svg::{Style, SvgDocument};

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

/// Adds a path: its corridor (light blue, when the planner has one), the path (yellow),
/// start and goal.
pub fn add_path(
    doc: &mut SvgDocument,
    points: &[Point],
    corridor_steps: &[CorridorStep],
    name: &str,
    colour: &str,
) {
    let size = 0.004 * doc.view().size().max_element();
    let corridor = doc.layer(
        &format!("{name}-corridor"),
        Style::filled("#9fd3ff", "none", 0.0).with_opacity(0.45),
    );
    for w in corridor_steps.windows(2) {
        let (a, b) = (w[0], w[1]);
        corridor.raw(&polygon(&[a.left, b.left, b.right, a.right]));
    }
    doc.layer(name, Style::stroke(colour, 3.0)).polyline(points);
    let ends = doc.layer(
        &format!("{name}-ends"),
        Style::filled(colour, "#333333", 1.0),
    );
    if let (Some(&s), Some(&g)) = (points.first(), points.last()) {
        ends.circle(s, size).circle(g, size);
    }
}

fn polygon(points: &[Point]) -> String {
    let list: Vec<String> = points.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
    format!("<polygon points=\"{}\"/>\n", list.join(" "))
}

/// Adds the route not chosen: a faint dashed line, so the chosen one stays prominent.
pub fn add_faint_route(doc: &mut SvgDocument, points: &[Point], name: &str, colour: &str) {
    let mut dashed = String::from("<polyline stroke-dasharray=\"4 3\" points=\"");
    let list: Vec<String> = points.iter().map(|p| format!("{},{}", p.x, p.y)).collect();
    dashed.push_str(&list.join(" "));
    dashed.push_str("\"/>\n");
    doc.layer(name, Style::stroke(colour, 2.0).with_opacity(0.8))
        .raw(&dashed);
}

/// Adds a legend in the top-left corner: one short line and label per `(label, colour,
/// prominent)` entry, drawn as the routes are.
pub fn add_legend(doc: &mut SvgDocument, entries: &[(&str, &str, bool)]) {
    let view = doc.view();
    let unit = 0.025 * view.size().max_element();
    for (i, &(label, colour, prominent)) in entries.iter().enumerate() {
        let y = view.min.y + unit * (1.0 + 1.2 * i as f64);
        let a = Point::new(view.min.x + 0.5 * unit, y);
        let b = Point::new(view.min.x + 2.0 * unit, y);
        let style = if prominent {
            Style::stroke(colour, 3.0)
        } else {
            Style::stroke(colour, 2.0).with_opacity(0.8)
        };
        doc.layer(&format!("legend-{i}"), style).segment(a, b).text(
            Point::new(b.x + 0.4 * unit, y + 0.2 * unit),
            0.6 * unit,
            label,
        );
    }
}
