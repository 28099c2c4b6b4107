//! Which planner answers: building one by kind (with its picture layers) behind the
//! facade's one way to ask for a path, [`corridor::PathPlanner`].

use crate::environment_arg::Map;
use crate::error::CliError;
use crate::progress;
use corridor::visgraph::DiskVisibilityGraph;
use corridor::RadiusGraph;
use corridor::{FindPathError, PathPlanner, PlannedPath};
use corridor_asfv::Decomposition;
use corridor_ecm::Ecm;
use corridor_ecm::PathQuery;
use corridor_geom::Environment;
use corridor_io::svg::{Style, SvgDocument};
use corridor_trapmap::TrapezoidalMap;

/// Which planner answers the queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlannerKind {
    /// A* on the Explicit Corridor Map, then the taut path inside the corridor.
    Ecm,
    /// Adaptive space-filling volumes: A* over convex regions, then the funnel.
    Asfv,
    /// Visibility graph: exact Euclidean shortest paths; with a radius, the exact tangent
    /// graph for a disk (segments and arcs of that radius around corners).
    Visgraph,
    /// Trapezoidal-map roadmap: trapezoid centres and wall midpoints (valid, not shortest).
    Trapmap,
}

impl PlannerKind {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PlannerKind::Ecm => "ecm",
            PlannerKind::Asfv => "asfv",
            PlannerKind::Visgraph => "visgraph",
            PlannerKind::Trapmap => "trapmap",
        }
    }
}

/// A built planner of any kind, asked for paths through the facade's one trait.
pub type AnyPlanner = Box<dyn PathPlanner>;

/// Builds the planner of `kind` for a character of `radius` on `map`, read from `file` (a
/// saved ECM serves the ECM planner only); with `doc`, adds the planner's own layers to
/// the picture.
pub fn build(
    kind: PlannerKind,
    file: &str,
    map: Map,
    radius: f64,
    doc: Option<&mut SvgDocument>,
) -> Result<AnyPlanner, CliError> {
    let env = match map {
        Map::Ecm(ecm) if kind == PlannerKind::Ecm => {
            if let Some(doc) = doc {
                doc.add_ecm(&ecm);
            }
            return Ok(ecm);
        }
        Map::Ecm(_) => {
            return Err(CliError::NeedsEnvironment {
                file: file.into(),
                what: format!("the {} planner", kind.name()),
            })
        }
        Map::Environment(env) => env,
    };
    build_on(kind, &env, radius, doc)
}

/// Builds the planner of `kind` on an environment (see [`build`]).
pub fn build_on(
    kind: PlannerKind,
    env: &Environment,
    radius: f64,
    doc: Option<&mut SvgDocument>,
) -> Result<AnyPlanner, CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::Planner(format!("{}: {e}", kind.name()));
    let points_only = || {
        CliError::Usage(format!(
            "the {} planner plans for points only (radius 0)",
            kind.name()
        ))
    };
    let _spinner = progress::spinner(format!("building the {} planner", kind.name()));
    Ok(match kind {
        PlannerKind::Ecm => {
            let ecm = Ecm::build(env)?;
            if let Some(doc) = doc {
                doc.add_ecm(&ecm);
            }
            Box::new(ecm)
        }
        PlannerKind::Asfv if radius != 0.0 => return Err(points_only()),
        PlannerKind::Asfv => {
            let decomposition =
                Decomposition::build(env, &Default::default()).map_err(|e| fail(&e))?;
            if let Some(doc) = doc {
                draw_asfv(doc, &decomposition);
            }
            Box::new(decomposition)
        }
        PlannerKind::Visgraph if radius > 0.0 => {
            let graph = DiskVisibilityGraph::build(env, radius).map_err(|e| fail(&e))?;
            if let Some(doc) = doc {
                let layer = doc.layer(
                    "disk-tangent-graph",
                    Style::stroke("#8c6bb1", 0.5).with_opacity(0.6),
                );
                for s in graph.tangent_segments() {
                    layer.segment(s.a, s.b);
                }
            }
            Box::new(DiskPlanner(graph))
        }
        PlannerKind::Visgraph => {
            let graph = RadiusGraph::build(env, radius).map_err(|e| fail(&e))?;
            if let Some(doc) = doc {
                let layer = doc.layer(
                    "visibility-graph",
                    Style::stroke("#8c6bb1", 0.5).with_opacity(0.6),
                );
                for s in graph.graph().edge_segments() {
                    layer.segment(s.a, s.b);
                }
            }
            Box::new(graph)
        }
        PlannerKind::Trapmap if radius != 0.0 => return Err(points_only()),
        PlannerKind::Trapmap => {
            let map = TrapezoidalMap::build(env).map_err(|e| fail(&e))?;
            if let Some(doc) = doc {
                draw_trapmap(doc, &map);
            }
            Box::new(map)
        }
    })
}

/// The exact disk planner behind the facade's trait: the path's polyline samples its
/// arcs (points on them, at most a tenth of the radius apart); the length is exact.
struct DiskPlanner(DiskVisibilityGraph);

impl PathPlanner for DiskPlanner {
    fn find_path(&self, query: &PathQuery) -> Result<PlannedPath, FindPathError> {
        let radius = self.0.radius();
        if query.radius != radius {
            return Err(FindPathError::UnsupportedRadius {
                planner: self.name(),
                supported: radius,
                radius: query.radius,
            });
        }
        let path = self.0.shortest_path(query.start, query.goal)?;
        Ok(PlannedPath {
            points: path.sampled(radius / 10.0),
            length: path.length,
            ..Default::default()
        })
    }

    fn name(&self) -> &'static str {
        "visgraph"
    }
}

fn draw_trapmap(doc: &mut SvgDocument, map: &TrapezoidalMap) {
    let cells = doc.layer("trapezoids", Style::filled("#e8f1fb", "#9bb7d4", 0.5));
    for t in map.trapezoids().filter(|t| t.free) {
        cells.raw(&format!(
            "<polygon points=\"{}\"/>\n",
            t.corners
                .iter()
                .map(|p| format!("{},{}", p.x, p.y))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    let roadmap = doc.layer("roadmap", Style::stroke("#2ca02c", 0.6));
    for s in map.roadmap().edge_segments() {
        roadmap.segment(s.a, s.b);
    }
}

/// Adds the regions (light fills), portals (green) and connectivity graph (grey).
pub fn draw_asfv(doc: &mut SvgDocument, decomposition: &Decomposition) {
    const FILLS: [&str; 6] = [
        "#cfe8ff", "#d8f5d0", "#fde7c8", "#ead8f7", "#fbd3d9", "#d6f3f1",
    ];
    for (k, fill) in FILLS.iter().enumerate() {
        let layer = doc.layer(
            &format!("asfv-regions-{k}"),
            Style::filled(fill, "#7a7a7a", 0.5),
        );
        for region in decomposition.regions().skip(k).step_by(FILLS.len()) {
            layer.ring(&region.ring());
        }
    }
    let portals = doc.layer("asfv-portals", Style::stroke("#2ca02c", 1.5));
    for portal in decomposition.portals() {
        portals.segment(portal.segment.a, portal.segment.b);
    }
    let graph = doc.layer(
        "asfv-graph",
        Style::stroke("#555555", 0.5).with_opacity(0.6),
    );
    for s in decomposition.graph_segments() {
        graph.segment(s.a, s.b);
    }
}
