//! The fuzz targets shared by the short CI run (`tests/fuzz_short.rs`) and the long one
//! (`examples/fuzz.rs`): one per reader, the saved-ECM loader (damaged and forged
//! files, with a path query after a successful load) and the native update/obstacle
//! files, each with its corpus of real or generated files and its vocabulary.

use corridor_ecm::{Ecm, PathQuery};
use corridor_geom::{Environment, Point};
use corridor_testkit::corrupt::with_header;
use corridor_testkit::data_path;

/// The code under test of a target: whether it accepted the input.
pub type Check = Box<dyn Fn(&[u8]) -> bool>;

/// One fuzz target: a name, a corpus, a vocabulary and the code under test (which tells
/// whether it accepted the input).
pub struct Target {
    pub name: &'static str,
    pub corpus: Vec<Vec<u8>>,
    pub tokens: &'static [&'static str],
    pub run: Check,
}

fn text(b: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(b)
}

fn file(relative: &str) -> Vec<u8> {
    let p = data_path(relative);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

const JSON_TOKENS: &[&str] = &[
    "\"version\"",
    "\"boundary\"",
    "\"obstacles\"",
    "\"polygon\"",
    "\"polyline\"",
    "\"point\"",
    "\"holes\"",
    "\"id\"",
    "\"next_id\"",
    "\"snap_scale\"",
    "\"type\"",
    "\"Feature\"",
    "\"FeatureCollection\"",
    "\"features\"",
    "\"geometry\"",
    "\"properties\"",
    "\"role\"",
    "\"boundary\"",
    "\"Polygon\"",
    "\"MultiPolygon\"",
    "\"LineString\"",
    "\"Point\"",
    "\"coordinates\"",
    "null",
    "true",
    "[[0, 0], [1, 0], [1, 1]]",
    "[5, 5]",
    ":",
    ",",
];
const GRID_TOKENS: &[&str] = &[
    "type octile",
    "height",
    "width",
    "map",
    "@",
    ".",
    "T",
    "G",
    "S",
    "W",
    "O",
    "version 1",
    "\t",
    "512",
    "-3",
    "1.5",
];
const MESH_TOKENS: &[&str] = &["mesh", "2", "-1", "0", "3", "1e9", "nan", "\n"];

/// Every target, with corpora from the shared data and the builtin scenes.
pub fn targets() -> Vec<Target> {
    let scenes: Vec<Environment> = corridor_io::scenes::Scene::ALL
        .iter()
        .map(|s| s.build())
        .collect();
    let json_corpus: Vec<Vec<u8>> = scenes
        .iter()
        .take(3)
        .map(|e| corridor_io::write_json(e).unwrap().into_bytes())
        .chain([corridor_testkit::hostile::squares_json(4).into_bytes()])
        .collect();
    let room = Environment::rectangle(Point::ZERO, Point::new(100.0, 100.0));
    let ecm = Ecm::build(&scenes[1]).unwrap();
    let saved = ecm.to_bytes();
    let saved_copy = saved.clone();
    let probes: Vec<Point> = ecm
        .vertices()
        .step_by(13)
        .take(4)
        .map(|(_, v)| v.position)
        .collect();
    let use_ecm = move |e: &Ecm| {
        for w in probes.windows(2) {
            let _ = e.plan(&PathQuery::new(w[0], w[1]));
            let _ = e.locate(w[0]);
        }
        true
    };
    let use_forged = use_ecm.clone();
    vec![
        Target {
            name: "native JSON",
            corpus: json_corpus.clone(),
            tokens: JSON_TOKENS,
            run: Box::new(|b| corridor_io::read_json(&text(b)).is_ok()),
        },
        Target {
            name: "GeoJSON",
            corpus: vec![
                corridor_testkit::hostile::squares_geojson(4).into_bytes(),
                br#"{"type": "FeatureCollection", "features": [
  {"type": "Feature", "properties": {"role": "boundary", "id": 0}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [20, 0], [20, 20], [0, 20], [0, 0]]]}},
  {"type": "Feature", "properties": {"id": 3}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[2, 2], [4, 2], [4, 4], [2, 2]]], [[[8, 8], [9, 8], [9, 9], [8, 8]]]]}},
  {"type": "Feature", "properties": null, "geometry": {"type": "LineString", "coordinates": [[5, 12], [7, 15], [11, 12]]}},
  {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPoint", "coordinates": [[15, 15], [16, 3]]}}
]}"#
                .to_vec(),
            ],
            tokens: JSON_TOKENS,
            run: Box::new(|b| corridor_io::read_geojson(&text(b)).is_ok()),
        },
        Target {
            name: "obstacles (update files)",
            corpus: vec![
                br#"[{"polygon": [[1, 1], [2, 1], [2, 3]], "id": 4}, {"point": [5, 5]}]"#.to_vec(),
                br#"{"polyline": [[0, 0], [1, 1], [3, 0]]}"#.to_vec(),
                br#"{"polygon": [[10, 10], [20, 10], [20, 20], [10, 20]], "holes": [[[12, 12], [12, 14], [14, 14], [14, 12]]]}"#.to_vec(),
            ],
            tokens: JSON_TOKENS,
            run: Box::new(move |b| match corridor_io::read_obstacles(&text(b)) {
                Ok(records) => records
                    .iter()
                    .all(|r| room.validate_obstacle_geometry(&r.obstacle).is_ok()),
                Err(_) => false,
            }),
        },
        Target {
            name: "Moving AI .map",
            corpus: vec![file("movingai/arena.map")],
            tokens: GRID_TOKENS,
            run: Box::new(|b| corridor_io::read_map(&text(b)).is_ok()),
        },
        Target {
            name: "Moving AI .scen",
            corpus: vec![file("movingai/arena.map.scen").into_iter().take(4000).collect()],
            tokens: GRID_TOKENS,
            run: Box::new(|b| corridor_io::read_scenarios(&text(b)).is_ok()),
        },
        Target {
            name: "any-angle maze.txt",
            corpus: vec![file("anyangle/custom_maze14x11/maze.txt")],
            tokens: GRID_TOKENS,
            run: Box::new(|b| corridor_io::read_maze(&text(b)).is_ok()),
        },
        Target {
            name: "any-angle problems.csv",
            corpus: vec![file("anyangle/custom_maze14x11/problems.csv")],
            tokens: GRID_TOKENS,
            run: Box::new(|b| corridor_io::read_problems(&text(b)).is_ok()),
        },
        Target {
            name: "Polyanya .mesh",
            corpus: vec![file("polyanya/arena.mesh")],
            tokens: MESH_TOKENS,
            run: Box::new(|b| {
                corridor_io::read_mesh(&text(b)).is_ok_and(|m| m.to_environment().is_ok())
            }),
        },
        Target {
            name: "saved ECM (damaged)",
            corpus: vec![saved.clone()],
            tokens: &[],
            // A damaged file must never load as a map: only the original may (a mutation
            // can give it back, as a swap of two equal bytes does); anything else that
            // loads panics here, and the run counts it.
            run: Box::new(move |b| {
                Ecm::from_bytes(b).is_ok_and(|e| {
                    assert!(b == &saved_copy[..], "a damaged saved ECM loaded");
                    use_ecm(&e)
                })
            }),
        },
        Target {
            name: "saved ECM (forged: header made to match)",
            corpus: vec![saved[20..].to_vec()],
            tokens: &[],
            run: Box::new(move |payload| {
                let bytes = with_header(b"CRDECM07", payload);
                Ecm::from_bytes(&bytes).is_ok_and(|e| use_forged(&e))
            }),
        },
    ]
}
