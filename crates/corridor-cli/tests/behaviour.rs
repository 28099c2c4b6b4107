//! The command line behaves: negative numbers, saved ECMs wherever a map is, `update
//! --save`, `info --ids`, JSON errors, `--quiet`, `path --geojson` and scenarios checked
//! against their map.

use serde_json::Value;
use std::process::Command;

mod common;
use common::{assert_error, assert_success, corridor, scratch_dir, stderr, stdout};

/// A path in this test file's scratch folder (created), as a string.
fn scratch(name: &str) -> String {
    let dir = scratch_dir("corridor-cli-behaviour");
    dir.join(name).display().to_string()
}

fn scratch_file(name: &str, contents: &str) -> String {
    let path = scratch(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A 20 × 20 room centred on the origin with a block in the middle.
const CENTRED_ROOM: &str = r#"{
  "version": 1,
  "boundary": [[-10, -10], [10, -10], [10, 10], [-10, 10]],
  "obstacles": [{"polygon": [[-2, -2], [2, -2], [2, 2], [-2, 2]]}]
}"#;

#[test]
fn negative_coordinates_are_points() {
    let room = scratch_file("centred-room.json", CENTRED_ROOM);
    let o = corridor(&["path", &room, "--from", "-5,5", "--to", "5,-5", "--json"]);
    assert_success(&o);
    let v = json(&stdout(&o));
    assert_eq!(v["points"][0], serde_json::json!([-5.0, 5.0]));
    assert!(v["length"].as_f64().unwrap() > 200f64.sqrt());
    let o = corridor(&[
        "path",
        &room,
        "--from=-5,-5",
        "--to",
        "-9,9",
        "--radius",
        "0.5",
    ]);
    assert_success(&o);
}

#[test]
fn a_negative_radius_is_a_clear_error() {
    let args = ["path", "builtin:empty", "--from", "10,10", "--to", "90,70"];
    let o = corridor(&[&args[..], &["--radius", "-1"]].concat());
    assert_error(&o, 2, &["--radius", "-1 is not a distance", "zero or more"]);
    let o = corridor(&[&args[..], &["--clearance", "-0.5"]].concat());
    assert_error(&o, 2, &["--clearance", "not a distance"]);
    let o = corridor(&["scen", "a.map", "a.map.scen", "--radius", "-2"]);
    assert_error(&o, 2, &["-2 is not a distance"]);
    let o = corridor(&[&args[..], &["--radius", "nan"]].concat());
    assert_error(&o, 2, &["not a distance"]);
}

#[test]
fn a_saved_ecm_is_a_map() {
    let saved = scratch("military.ecm");
    let _ = std::fs::remove_file(&saved);
    assert_success(&corridor(&["build", "builtin:military", "--save", &saved]));

    let on_env = corridor(&[
        "path",
        "builtin:military",
        "--from",
        "10,10",
        "--to",
        "190,190",
        "--json",
    ]);
    let on_saved = corridor(&[
        "path", &saved, "--from", "10,10", "--to", "190,190", "--json",
    ]);
    assert_success(&on_saved);
    let (a, b) = (json(&stdout(&on_env)), json(&stdout(&on_saved)));
    assert_eq!(a["length"], b["length"]);
    assert_eq!(a["points"], b["points"]);

    let o = corridor(&["info", &saved, "--json"]);
    assert_success(&o);
    let v = json(&stdout(&o));
    assert_eq!(v["saved_ecm"], true);
    let built = json(&stdout(&corridor(&["build", "builtin:military", "--json"])));
    assert_eq!(v["edges"], built["edges"]);

    let svg = scratch("military-ecm.svg");
    assert_success(&corridor(&["render", &saved, "-o", &svg]));
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .contains("ecm-medial-axis"));
    assert_success(&corridor(&["build", &saved]));

    // Commands that need the obstacles say so.
    let needs = "is a saved ECM, which does not hold the environment";
    let o = corridor(&["update", &saved, "--remove", "1"]);
    assert_error(&o, 1, &[needs, "corridor update"]);
    let o = corridor(&["info", &saved, "--ids"]);
    assert_error(&o, 1, &[needs, "--ids"]);
    let o = corridor(&[
        "path",
        &saved,
        "--from",
        "10,10",
        "--to",
        "190,190",
        "--planner",
        "visgraph",
    ]);
    assert_error(&o, 1, &[needs, "visgraph planner"]);
    let o = corridor(&["convert", &saved, "-o", &scratch("x.json")]);
    assert_error(&o, 1, &[needs]);
    let o = corridor(&["asfv", &saved]);
    assert_error(&o, 1, &[needs]);

    // Not an ECM at all.
    let bogus = scratch_file("bogus.ecm", "hello");
    let o = corridor(&["path", &bogus, "--from", "1,1", "--to", "2,2"]);
    assert_error(&o, 1, &["not a saved ECM"]);
}

#[test]
fn update_saves_its_result() {
    let obstacle = scratch_file(
        "box.json",
        r#"{"polygon": [[40, 30], [44, 30], [44, 34], [40, 34]]}"#,
    );
    let (env_out, ecm_out) = (scratch("updated.json"), scratch("updated.ecm"));
    let o = corridor(&[
        "update",
        "builtin:empty",
        "--insert",
        &obstacle,
        "--save",
        &env_out,
        "--save",
        &ecm_out,
        "--quiet",
    ]);
    assert_success(&o);
    let v = json(&stdout(&corridor(&["info", &env_out, "--json"])));
    assert_eq!(v["obstacles"], 1);
    // The saved ECM is the updated one: a straight line through the box is blocked.
    let from_env = corridor(&[
        "path", &env_out, "--from", "30,32", "--to", "54,32", "--json",
    ]);
    let from_ecm = corridor(&[
        "path", &ecm_out, "--from", "30,32", "--to", "54,32", "--json",
    ]);
    assert_success(&from_ecm);
    let (a, b) = (json(&stdout(&from_env)), json(&stdout(&from_ecm)));
    assert!(b["length"].as_f64().unwrap() > 24.0 + 1e-6);
    assert!((a["length"].as_f64().unwrap() - b["length"].as_f64().unwrap()).abs() < 1e-9);
}

#[test]
fn info_lists_obstacle_ids() {
    let o = corridor(&["info", "builtin:military", "--ids", "--json"]);
    assert_success(&o);
    let v = json(&stdout(&o));
    let ids = v["obstacle_ids"].as_array().unwrap();
    assert_eq!(ids.len() as u64, v["obstacles"].as_u64().unwrap());
    for entry in ids {
        assert!(entry["id"].is_u64());
        assert!(["point", "polyline", "polygon"].contains(&entry["kind"].as_str().unwrap()));
        let b = entry["bounds"].as_array().unwrap();
        assert!(b[0].as_f64() <= b[2].as_f64() && b[1].as_f64() <= b[3].as_f64());
    }
    let text = stdout(&corridor(&["info", "builtin:military", "--ids"]));
    assert!(text.contains("polyline"), "{text}");
    assert_eq!(text.lines().count(), 7 + ids.len(), "{text}");
}

#[test]
fn json_errors_are_json_on_stderr() {
    let o = corridor(&[
        "path",
        "builtin:empty",
        "--from",
        "500,500",
        "--to",
        "10,10",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    let v = json(&stderr(&o));
    assert_eq!(v["kind"], "plan");
    assert!(v["error"].as_str().unwrap().contains("500"), "{v}");

    let o = corridor(&["info", "builtin:nowhere", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(json(&stderr(&o))["kind"], "unknown_scene");

    let o = corridor(&[
        "path",
        "builtin:empty",
        "--from",
        "x",
        "--to",
        "1,1",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let v = json(&stderr(&o));
    assert_eq!(v["kind"], "usage");
    assert!(v["error"].as_str().unwrap().contains("--from"), "{v}");

    // Without --json: one line of text.
    let o = corridor(&["info", "builtin:nowhere"]);
    assert!(stderr(&o).starts_with("error: unknown built-in scene"));
}

#[test]
fn no_progress_without_a_terminal_or_with_quiet() {
    // The tests' stderr is a pipe: the bars stay hidden, so stderr holds nothing.
    let o = corridor(&[
        "path",
        "builtin:city",
        "--from",
        "5,5",
        "--to",
        "395,395",
        "--planner",
        "visgraph",
    ]);
    assert!(
        stderr(&o).is_empty() || o.status.code() == Some(1),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("building"), "{}", stderr(&o));
    // Without a terminal soak prints plain progress lines, except with --quiet.
    let o = corridor(&["soak", "--ops", "20", "--seed", "3"]);
    assert_success(&o);
    assert!(stderr(&o).contains("soak: "), "{}", stderr(&o));
    let o = corridor(&["--quiet", "soak", "--ops", "20", "--seed", "3"]);
    assert_success(&o);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let o = corridor(&["soak", "--ops", "20", "--seed", "3", "-q"]);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn path_writes_geojson() {
    let out = scratch("path.geojson");
    let o = corridor(&[
        "path",
        "builtin:military",
        "--from",
        "10,10",
        "--to",
        "190,190",
        "--radius",
        "1",
        "--clearance",
        "3",
        "--geojson",
        &out,
    ]);
    assert_success(&o);
    let v = json(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(v["type"], "FeatureCollection");
    let features = v["features"].as_array().unwrap();
    let kinds: Vec<&str> = features
        .iter()
        .map(|f| f["properties"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["path", "indicative_route", "corridor"]);
    assert_eq!(features[0]["geometry"]["type"], "LineString");
    assert_eq!(
        features[0]["geometry"]["coordinates"][0],
        serde_json::json!([10.0, 10.0])
    );
    assert_eq!(features[2]["geometry"]["type"], "MultiPolygon");
    let ring = &features[2]["geometry"]["coordinates"][0][0];
    assert_eq!(ring[0], ring[4]); // closed

    // A planner without a corridor writes the path alone.
    let o = corridor(&[
        "path",
        "builtin:military",
        "--from",
        "10,10",
        "--to",
        "190,190",
        "--planner",
        "visgraph",
        "--geojson",
        &out,
    ]);
    assert_success(&o);
    let v = json(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(v["features"].as_array().unwrap().len(), 1);
}

const TINY_MAP: &str = "type octile\nheight 4\nwidth 5\nmap\n.....\n.....\n.@@..\n.....\n";

#[test]
fn scen_refuses_a_scenario_of_another_map() {
    let map = scratch_file("tiny.map", TINY_MAP);
    let good = scratch_file(
        "tiny.map.scen",
        "version 1\n0\tmaps/x/tiny.map\t5\t4\t0\t0\t4\t3\t4.82842712\n",
    );
    let o = corridor(&["scen", &map, &good, "--json"]);
    assert_success(&o);
    assert_eq!(json(&stdout(&o))["solved"], 1);

    let other = scratch_file(
        "other.map.scen",
        "version 1\n0\tmaps/x/other.map\t5\t4\t0\t0\t4\t3\t4.82842712\n",
    );
    let o = corridor(&["scen", &map, &other]);
    assert_error(
        &o,
        1,
        &[
            "scenario 1 is for map 'maps/x/other.map' of 5x4 cells",
            "'tiny.map' of 5x4 cells",
        ],
    );

    let resized = scratch_file(
        "resized.map.scen",
        "version 1\n0\ttiny.map\t5\t4\t0\t0\t4\t3\t4.8\n0\ttiny.map\t512\t512\t0\t0\t4\t3\t4.8\n",
    );
    let o = corridor(&["scen", &map, &resized, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&stderr(&o));
    assert_eq!(v["kind"], "scenario_mismatch");
    assert!(v["error"].as_str().unwrap().contains("scenario 2"), "{v}");
}

#[test]
fn every_planner_answers_through_one_path_command() {
    for planner in ["ecm", "visgraph", "trapmap", "asfv"] {
        let o = corridor(&[
            "path",
            "builtin:military",
            "--from",
            "10,10",
            "--to",
            "190,190",
            "--planner",
            planner,
            "--json",
        ]);
        assert_success(&o);
        let v = json(&stdout(&o));
        assert_eq!(v["planner"], planner);
        assert!(v["length"].as_f64().unwrap() >= 180.0 * 2f64.sqrt() - 1e-6);
        assert_eq!(v["corridor_steps"].is_u64(), planner == "ecm");
    }
    let o = corridor(&[
        "path",
        "builtin:military",
        "--from",
        "10,10",
        "--to",
        "190,190",
        "--planner",
        "trapmap",
        "--radius",
        "1",
    ]);
    assert_error(&o, 1, &["trapmap planner plans for points only"]);
}

/// On a terminal (a pseudo-terminal from util-linux `script`, when the machine has it)
/// the progress bar is drawn on stderr, and `--quiet` keeps it off.
#[test]
fn progress_on_a_terminal_unless_quiet() {
    let bin = env!("CARGO_BIN_EXE_corridor");
    let on_terminal = |args: &str| -> Option<String> {
        let o = Command::new("script")
            .args(["-qec", &format!("'{bin}' {args} >/dev/null"), "/dev/null"])
            .output()
            .ok()?;
        o.status.success().then(|| stdout(&o))
    };
    let Some(shown) = on_terminal("soak --ops 60 --seed 5") else {
        eprintln!("no `script` here: skipped");
        return;
    };
    assert!(shown.contains("soak ["), "{shown}");
    let quiet = on_terminal("--quiet soak --ops 60 --seed 5").unwrap_or_default();
    assert!(!quiet.contains("soak ["), "{quiet}");
}
