//! `corridor simulate`: a built-in scenario and a scenario file, their JSON statistics,
//! the trails and trajectories written, and bad input refused with a typed error.

mod common;
use common::{assert_success, corridor, scratch_dir, stderr, stdout};

#[test]
fn a_built_in_scenario_reports_and_writes_trails() {
    let dir = scratch_dir("simulate-builtin");
    let (svg, csv) = (dir.join("trails.svg"), dir.join("t.csv"));
    let o = corridor(&[
        "simulate",
        "crossing",
        "--agents",
        "20",
        "--threads",
        "2",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_success(&o);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["agents"], 20);
    assert_eq!(v["all_arrived"], true);
    assert_eq!(v["arrived"], 20);
    assert!(v["min_wall_gap"].as_f64().unwrap() >= 0.0);
    assert!(v["agent_steps_per_s"].as_f64().unwrap() > 0.0);
    let rows = std::fs::read_to_string(&csv).unwrap();
    let steps = v["steps"].as_u64().unwrap() as usize;
    assert_eq!(rows.lines().count(), 1 + 20 * steps);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<polyline"));
}

#[test]
fn a_scenario_file_runs_and_bad_input_is_refused() {
    let dir = scratch_dir("simulate-file");
    let file = dir.join("two.json");
    std::fs::write(
        &file,
        r#"{"version": 1, "name": "two", "steps": 400,
            "environment": {"builtin": "empty"},
            "characters": [
              {"position": [10, 10], "goal": [30, 10], "radius": 0.5},
              {"position": [30, 10.2], "goal": [10, 10], "radius": 0.4, "max_speed": 1.5}
            ]}"#,
    )
    .unwrap();
    let o = corridor(&["simulate", file.to_str().unwrap(), "--json"]);
    assert_success(&o);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["all_arrived"], true);
    assert!(v["min_pairwise_distance"].as_f64().unwrap() >= 0.9 - 1e-6);

    let o = corridor(&[
        "simulate",
        file.to_str().unwrap(),
        "--agents",
        "5",
        "--json",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("\"kind\":\"usage\""), "{}", stderr(&o));
    std::fs::write(
        &file,
        r#"{"version": 2, "environment": {"builtin": "empty"}, "characters": []}"#,
    )
    .unwrap();
    let o = corridor(&["simulate", file.to_str().unwrap(), "--json"]);
    assert!(stderr(&o).contains("\"kind\":\"crowd\""), "{}", stderr(&o));
    let o = corridor(&["simulate", "no-such-scenario"]);
    assert!(!o.status.success());
}
