//! The commands on layered maps: `builtin:layers`, its layered JSON (written by `convert`)
//! and an OBJ level give the same answers; paths come back in 3D on their layers' heights;
//! bad layered input is a one-line error.

mod common;
use common::{assert_success, corridor, scratch_dir, stderr, stdout};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let o = corridor(args);
    assert_success(&o);
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn builtin_layers_and_its_json_give_the_same_path_in_3d() {
    let dir = scratch_dir("layered");
    let file = dir.join("layers.json");
    let file = file.to_str().unwrap();
    assert_success(&corridor(&["convert", "builtin:layers", "-o", file]));
    let svg = dir.join("path.svg");
    let mut lengths = Vec::new();
    for map in ["builtin:layers", file] {
        let info = json(&["info", map, "--json"]);
        assert_eq!(info["layers"].as_array().unwrap().len(), 4);
        assert_eq!(info["valid"], true);
        let build = json(&["build", map, "--json"]);
        assert_eq!(build["layers"], 4);
        assert!((build["free_area"].as_f64().unwrap() - 1453.0).abs() < 1e-6);
        let args = [
            "path",
            map,
            "--from",
            "2,10",
            "--to",
            "38,10",
            "--to-layer",
            "1",
        ];
        let path = json(&[&args[..], &["--json", "--svg", svg.to_str().unwrap()]].concat());
        // From the ground floor up stairs A to the upper floor (4 units up).
        assert_eq!(path["layers"], serde_json::json!([0, 2, 1]));
        let points = path["points"].as_array().unwrap();
        let z = |p: &Value| p["z"].as_f64().unwrap();
        assert_eq!(z(&points[0]), 0.0);
        assert_eq!(z(points.last().unwrap()), 4.0);
        // On the stairs (z = 0.4 x - 4), every point is on the slope.
        for p in points.iter().filter(|p| p["layer"] == 2) {
            let x = p["x"].as_f64().unwrap();
            assert!((z(p) - (0.4 * x - 4.0)).abs() < 1e-9, "{p}");
        }
        lengths.push(path["length"].as_f64().unwrap());
        let picture = std::fs::read_to_string(&svg).unwrap();
        assert_eq!(picture.matches("<g transform=").count(), 4);
        assert!(picture.contains("id=\"L2-path\""));
    }
    assert_eq!(lengths[0], lengths[1]);
}

#[test]
fn obj_levels_are_maps() {
    let level = corridor_testkit::data_dir()
        .join("recast")
        .join("undulating.obj");
    let level = level.to_str().unwrap();
    let info = json(&["info", level, "--json"]);
    assert_eq!(info["valid"], true);
    let path = json(&[
        "path",
        level,
        "--from",
        "5020,5020",
        "--to",
        "5040,5040",
        "--json",
    ]);
    assert!((path["length"].as_f64().unwrap() - 800f64.sqrt()).abs() < 1e-6);
    assert_eq!(path["points"].as_array().unwrap().len(), 2);
}

#[test]
fn bad_layered_input_is_one_line() {
    let dir = scratch_dir("layered-bad");
    let file = dir.join("bad.json");
    std::fs::write(
        &file,
        "{\"format\": \"corridor-layered\", \"version\": 3, \"layers\": []}",
    )
    .unwrap();
    let o = corridor(&["info", file.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unsupported version 3"),
        "{}",
        stderr(&o)
    );
    let o = corridor(&["path", "builtin:layers", "--from", "-5,5", "--to", "2,2"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("on no layer"), "{}", stderr(&o));
    let o = corridor(&["build", "builtin:layers", "--save", "x.ecm"]);
    assert!(
        stderr(&o).contains("not available for layered maps"),
        "{}",
        stderr(&o)
    );
}
