//! What does a file dropped on the page hold? A 2D environment (`.map`, `.json`,
//! `.geojson`, `.mesh`) or a layered one (a layered `.json`, a Wavefront `.obj` level),
//! read by corridor-io and checked against the server's work limits before any map is
//! built, so that a bad or oversized file gets an error instead of holding a thread.

use crate::protocol::{ServeError, MAX_WALL_PIECES};
use corridor_ecm::LayeredPlanner;
use corridor_geom::{Environment, LayeredEnvironment, NormalizeLimits};
use corridor_io::obj::{read_level, WalkableOptions};

/// Most floors an uploaded layered scene may have.
pub const MAX_LAYERS: usize = 4096;
/// Most pairs of crossing samples on one floor, summed over the floors, an uploaded
/// layered scene may have at radius 0. A layered planner places a sample every
/// [`LayeredPlanner::SPACING`] along each connection; a query plans the legs between the
/// samples of a floor that its search reaches (and keeps them for later queries), so the
/// work and memory a scene can take grow with the square of the connections' length on a
/// floor. The count at radius 0 bounds every radius (a larger one keeps fewer samples):
/// `builtin:layers` has at most 7,564 pairs, Recast's `dungeon.obj` 889,113,
/// `nav_test.obj` 339,288.
pub const MAX_CROSSING_PAIRS: usize = 1_000_000;

/// An uploaded file's environment.
#[derive(Debug)]
pub enum Uploaded {
    /// A 2D environment.
    Flat(Environment),
    /// Floors joined by connections.
    Layered(LayeredEnvironment),
}

/// Reads an uploaded file, choosing the reader by the file name (and, for `.json`, by
/// its top-level `format`).
///
/// ```
/// use corridor_serve::{read_upload, Uploaded};
/// let text = corridor_io::write_layered_json(&corridor_io::scenes::layers()).unwrap();
/// assert!(matches!(read_upload("house.json", &text), Ok(Uploaded::Layered(_))));
/// let map = "type octile\nheight 1\nwidth 2\nmap\n..\n";
/// assert!(matches!(read_upload("a.map", map), Ok(Uploaded::Flat(_))));
/// assert_eq!(read_upload("a.obj", "v 0 0\n").unwrap_err().kind(), "load");
/// ```
pub fn read_upload(name: &str, text: &str) -> Result<Uploaded, ServeError> {
    let load = |e: &dyn std::fmt::Display| ServeError::Load(format!("{name}: {e}"));
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".obj") {
        let level = read_level(text, &WalkableOptions::default()).map_err(|e| load(&e))?;
        let world = level.into_layered();
        check_layered(name, &world)?;
        return Ok(Uploaded::Layered(world));
    }
    if lower.ends_with(".json") && corridor_io::is_layered_json(text) {
        let world = corridor_io::read_layered_json(text).map_err(|e| load(&e))?;
        check_layered(name, &world)?;
        return Ok(Uploaded::Layered(world));
    }
    let env = if lower.ends_with(".map") {
        corridor_io::read_map_environment(text).map_err(|e| load(&e))?
    } else if lower.ends_with(".mesh") {
        corridor_io::read_mesh(text)
            .map_err(|e| load(&e))?
            .to_environment()
            .map_err(|e| load(&e))?
    } else if lower.ends_with(".geojson")
        || (lower.ends_with(".json") && text.contains("FeatureCollection"))
    {
        corridor_io::read_geojson(text).map_err(|e| load(&e))?
    } else if lower.ends_with(".json") {
        corridor_io::read_json(text).map_err(|e| load(&e))?
    } else {
        return Err(ServeError::Load(format!(
            "{name}: unknown format (expected .map, .json, .geojson, .mesh, a layered .json \
             or an .obj level)"
        )));
    };
    env.validate().map_err(|e| load(&e))?;
    Ok(Uploaded::Flat(env))
}

/// Refuses a layered scene whose ECMs or planners would take too long to build: too many
/// floors, more than [`MAX_WALL_PIECES`] edges in all, a floor whose walls overlap into
/// more pieces than its share of them (in proportion to its edges, at least twice its
/// edges: all floors together stay under three times the limit), or connections long
/// enough for more than [`MAX_CROSSING_PAIRS`].
fn check_layered(name: &str, world: &LayeredEnvironment) -> Result<(), ServeError> {
    let layers = world.layer_count();
    if layers > MAX_LAYERS {
        return Err(ServeError::TooLarge(format!(
            "{name}: {layers} floors (at most {MAX_LAYERS})"
        )));
    }
    let edges: Vec<usize> = world
        .layers()
        .map(|(_, l)| {
            let env = &l.environment;
            let obstacles: usize = env.obstacles().map(|(_, o)| o.points().count()).sum();
            env.boundary().vertices().len() + obstacles
        })
        .collect();
    let total: usize = edges.iter().sum();
    if total > MAX_WALL_PIECES {
        return Err(ServeError::TooLarge(format!(
            "{name}: {total} wall edges on the floors (at most {MAX_WALL_PIECES})"
        )));
    }
    for ((id, layer), edges) in world.layers().zip(edges) {
        layer.environment.validate().map_err(|e| {
            ServeError::Load(format!("{name}: floor {} ('{}'): {e}", id.0, layer.name))
        })?;
        let share = MAX_WALL_PIECES as f64 * edges as f64 / total.max(1) as f64;
        let limits = NormalizeLimits {
            max_wall_pieces: Some((share as usize).max(2 * edges)),
        };
        limits.check_environment(&layer.environment).map_err(|e| {
            ServeError::TooLarge(format!("{name}: floor {} ('{}'): {e}", id.0, layer.name))
        })?;
    }
    let pairs = crossing_pairs(world);
    if pairs > MAX_CROSSING_PAIRS as f64 {
        return Err(ServeError::TooLarge(format!(
            "{name}: the connections make {pairs:.0} pairs of crossing samples on the floors \
             (at most {MAX_CROSSING_PAIRS}; a sample every {} units)",
            LayeredPlanner::SPACING
        )));
    }
    Ok(())
}

/// The pairs of crossing samples a layered planner of radius 0 measures between (the
/// most for any radius: a larger one keeps fewer samples).
fn crossing_pairs(world: &LayeredEnvironment) -> f64 {
    let mut samples = vec![0.0f64; world.layer_count()];
    for (_, c) in world.connections() {
        let count = (c.segment.a.distance(c.segment.b) / LayeredPlanner::SPACING).ceil() + 1.0;
        for l in c.layers {
            if let Some(s) = samples.get_mut(l.0 as usize) {
                *s += count;
            }
        }
    }
    samples.iter().map(|n| n * (n - 1.0).max(0.0) / 2.0).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::{HeightPlane, Layer, Point, Segment};

    /// Two rooms side by side joined across a doorway `door` units wide.
    fn rooms(door: f64) -> LayeredEnvironment {
        let mut world = LayeredEnvironment::new();
        let room = |x: f64| {
            Layer::new(
                "room",
                Environment::rectangle(Point::new(x, 0.0), Point::new(x + 10.0, 10_000.0)),
                HeightPlane::flat(0.0),
            )
        };
        let a = world.add_layer(room(0.0));
        let b = world.add_layer(room(10.0));
        world
            .connect(
                a,
                b,
                Segment::new(Point::new(10.0, 1.0), Point::new(10.0, 1.0 + door)),
            )
            .unwrap();
        world
    }

    #[test]
    fn a_long_connection_is_refused_before_a_planner_is_made() {
        let ok = corridor_io::write_layered_json(&rooms(5.0)).unwrap();
        assert!(matches!(
            read_upload("r.json", &ok),
            Ok(Uploaded::Layered(_))
        ));
        // 9,000 units of doorway: 90,000 samples a side, 4e9 pairs.
        let long = corridor_io::write_layered_json(&rooms(9_000.0)).unwrap();
        let e = read_upload("r.json", &long).unwrap_err();
        assert_eq!(e.kind(), "too_large", "{e}");
        assert!(e.to_string().contains("crossing samples"), "{e}");
    }

    #[test]
    fn recast_levels_and_the_builtin_scene_pass_the_limits() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/recast");
        for file in ["dungeon.obj", "nav_test.obj"] {
            let text = std::fs::read_to_string(data.join(file)).unwrap();
            let world = match read_upload(file, &text) {
                Ok(Uploaded::Layered(world)) => world,
                other => panic!("{file}: {other:?}"),
            };
            println!(
                "{file}: {} floors, {} crossing pairs",
                world.layer_count(),
                crossing_pairs(&world)
            );
        }
        let world = corridor_io::scenes::layers();
        println!("builtin:layers: {} crossing pairs", crossing_pairs(&world));
        check_layered("layers", &world).unwrap();
    }

    #[test]
    fn bad_layered_files_get_load_errors() {
        for (name, text) in [
            ("a.json", r#"{"format": "corridor-layered", "version": 1}"#),
            (
                "a.json",
                r#"{"format": "corridor-layered", "version": 99, "layers": []}"#,
            ),
            ("a.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n"),
            ("a.obj", "v 0 0 0\nv 1 0 nan\nv 0 0 1\nf 1 2 3\n"),
            ("a.obj", ""),
            ("a.txt", "hello"),
        ] {
            let e = read_upload(name, text).unwrap_err();
            assert_eq!(e.kind(), "load", "{name}: {e}");
        }
    }
}
