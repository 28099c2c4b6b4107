//! The `corridor` binary end to end: `update`, `soak` and the door of `demo`.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{assert_success, corridor, scratch_dir, stderr, stdout};

/// A file in this test's scratch folder.
fn scratch(name: &str, contents: &str) -> PathBuf {
    let dir = scratch_dir("corridor-cli-tests");
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// Two obstacles for the dungeon (rooms of 20 × 20 with walls on multiples of 20): a
/// crate in the middle of the centre room and a pillar.
const CRATE_AND_PILLAR: &str = r#"[
  {"polygon": [[52, 52], [56, 52], [56, 55], [52, 55]]},
  {"point": [46, 57]}
]"#;

/// Fails unless the command failed (exit code 1, not a panic's 101) and said `needles`.
fn assert_failure(o: &Output, needles: &[&str]) {
    assert_eq!(
        o.status.code(),
        Some(1),
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
    let err = stderr(o);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.starts_with("error: "), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "'{needle}' not in: {err}");
    }
}

#[test]
fn update_inserts_and_removes_on_a_builtin_scene() {
    let obstacles = scratch("crate-and-pillar.json", CRATE_AND_PILLAR);
    let svg = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("corridor-cli-tests/update.svg");
    let _ = std::fs::remove_file(&svg);
    let o = corridor(&[
        "update",
        "builtin:dungeon",
        "--insert",
        obstacles.to_str().unwrap(),
        "--remove",
        "3",
        "--remove",
        "#40",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_success(&o);
    let out = stdout(&o);
    // The dungeon has obstacles 0..=116, so the two new ones are 117 and 118.
    assert!(out.contains("inserted 117, 118; removed 3, 40"), "{out}");
    assert!(out.contains("repair "), "{out}");
    assert!(out.contains("plan "), "{out}");
    assert!(out.contains("full rebuild equal"), "{out}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg"));
    for layer in ["inserted-obstacles", "removed-obstacles", "obstacles"] {
        assert!(
            picture.contains(&format!("id=\"{layer}\"")),
            "no layer {layer}"
        );
    }
}

#[test]
fn update_prints_one_json_object() {
    let obstacles = scratch("crate-and-pillar-json.json", CRATE_AND_PILLAR);
    let o = corridor(&[
        "update",
        "builtin:dungeon",
        "--insert",
        obstacles.to_str().unwrap(),
        "--remove",
        "7",
        "--json",
    ]);
    assert_success(&o);
    let out = stdout(&o);
    assert_eq!(out.trim().lines().count(), 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["file"], "builtin:dungeon");
    assert_eq!(v["inserted"], serde_json::json!([117, 118]));
    assert_eq!(v["removed"], serde_json::json!([7]));
    assert!(
        ["local", "full_rebuild", "unchanged"].contains(&v["method"].as_str().unwrap()),
        "{v}"
    );
    assert!(
        ["window", "group", "global", "unchanged"]
            .contains(&v["normalize_scope"].as_str().unwrap()),
        "{v}"
    );
    assert_eq!(v["equal_to_full_rebuild"], true, "{v}");
    assert!(v["difference"].is_null());
    for key in [
        "changed_walls",
        "removed_edges",
        "added_edges",
        "local_walls",
        "widenings",
    ] {
        assert!(v[key].is_u64(), "{key} in {v}");
    }
    for key in [
        "initial_build",
        "plan",
        "plan_walls",
        "plan_voronoi",
        "apply",
        "update",
        "full_rebuild",
    ] {
        assert!(
            v["ms"][key].as_f64().is_some_and(|t| t >= 0.0),
            "{key} in {v}"
        );
    }
    assert!(v["speedup"].as_f64().is_some_and(|s| s > 0.0));
    for key in ["vertices", "edges", "components"] {
        assert!(v["before"][key].as_u64().unwrap() > 0, "{v}");
        assert!(v["after"][key].as_u64().unwrap() > 0, "{v}");
    }
    // One obstacle removed and two added: the free area shrinks or grows accordingly.
    assert!(v["after"]["free_area"].as_f64().unwrap() > 0.0);
}

#[test]
fn update_closing_a_door_splits_a_component() {
    // The dungeon's doorway between walls 41 and 42 (y = 40, x from 64.75 to 69.75)
    // is the only way between two parts of the map.
    let door = scratch(
        "door.json",
        r#"{"polygon": [[63.7, 39.0], [70.8, 39.0], [70.8, 41.0], [63.7, 41.0]]}"#,
    );
    let o = corridor(&[
        "update",
        "builtin:dungeon",
        "--insert",
        door.to_str().unwrap(),
        "--json",
    ]);
    assert_success(&o);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        v["after"]["components"].as_u64().unwrap(),
        v["before"]["components"].as_u64().unwrap() + 1,
        "{v}"
    );
    assert_eq!(v["equal_to_full_rebuild"], true, "{v}");
}

#[test]
fn update_refuses_an_unknown_id() {
    let o = corridor(&["update", "builtin:dungeon", "--remove", "9999"]);
    assert_failure(&o, &["no obstacle with id 9999", "render --ids"]);
    let o = corridor(&["update", "builtin:dungeon", "--remove", "door"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o)); // clap's usage error
    assert!(stderr(&o).contains("'door' is not an obstacle id"));
    let o = corridor(&[
        "update",
        "builtin:dungeon",
        "--remove",
        "4",
        "--remove",
        "4",
    ]);
    assert_failure(&o, &["obstacle 4 is removed twice"]);
}

#[test]
fn update_names_the_problem_of_a_bad_obstacle_file() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "typo.json",
            "[\n  {\"point\": [10, 10]},\n  {\"pont\": [10, 10]}\n]",
            &["typo.json", "line 3", "unknown field `pont`"],
        ),
        (
            "truncated.json",
            "{\"polygon\": [[10, 10], [12, 10]",
            &["truncated.json", "ended too early"],
        ),
        (
            "two-kinds.json",
            "{\"point\": [10, 10], \"polyline\": [[1, 1], [2, 2]]}",
            &["two-kinds.json", "more than one of"],
        ),
        (
            "bow-tie.json",
            "{\"polygon\": [[50, 50], [54, 54], [54, 50], [50, 54]]}",
            &[
                "bow-tie.json",
                "line 1",
                "invalid polygon",
                "intersects itself",
            ],
        ),
        (
            "outside.json",
            "[{\"point\": [50, 50]}, {\"point\": [500, 500]}]",
            &["outside.json", "column 23", "outside the boundary"],
        ),
        ("empty-list.json", "[]", &["empty-list.json", "no obstacle"]),
    ];
    for (name, text, needles) in cases {
        let path = scratch(name, text);
        let o = corridor(&[
            "update",
            "builtin:dungeon",
            "--insert",
            path.to_str().unwrap(),
        ]);
        assert_failure(&o, needles);
    }
    let o = corridor(&[
        "update",
        "builtin:dungeon",
        "--insert",
        "/nonexistent/obstacles.json",
    ]);
    assert_failure(&o, &["/nonexistent/obstacles.json", "No such file"]);
    let o = corridor(&["update", "/nonexistent/map.json", "--remove", "1"]);
    assert_failure(&o, &["/nonexistent/map.json"]);
    let o = corridor(&["update", "builtin:dungeon"]);
    assert_failure(&o, &["nothing to update"]);
}

#[test]
fn soak_of_200_operations_has_no_mismatch() {
    let o = corridor(&["soak", "--ops", "200", "--seed", "3", "--json"]);
    assert_success(&o);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["mismatches"], 0, "{v}");
    assert_eq!(v["requested"], 200);
    assert_eq!(v["seed"], 3);
    let n = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(n("operations") + n("rejected"), 200, "{v}");
    assert_eq!(
        n("inserts") + n("removes") + n("moves") + n("batches"),
        n("operations")
    );
    assert_eq!(
        n("local") + n("full_rebuilds") + n("unchanged"),
        n("operations")
    );
    assert_eq!(n("checked"), n("operations"));

    let o = corridor(&["soak", "--ops", "40"]);
    assert_success(&o);
    let out = stdout(&o);
    assert!(out.contains("0 mismatches"), "{out}");
    assert!(out.contains("inserts"), "{out}");
}

#[test]
fn demo_closes_and_opens_a_door() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("corridor-cli-tests/demo");
    let o = corridor(&["demo", "-o", dir.to_str().unwrap()]);
    assert_success(&o);
    let out = stdout(&o);
    let door = out
        .lines()
        .find(|l| l.starts_with("door"))
        .unwrap_or_default();
    assert!(door.contains("reopened = original: yes"), "{out}");
    assert!(door.contains("closed = full rebuild: yes"), "{out}");
    assert!(door.contains("closed no path"), "{out}");
    for file in ["door-open.svg", "door-closed.svg"] {
        let svg = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(svg.contains("id=\"door\""), "{file}");
    }
    assert!(std::fs::read_to_string(dir.join("door-open.svg"))
        .unwrap()
        .contains("id=\"path-open\""));
    assert!(std::fs::read_to_string(dir.join("door-closed.svg"))
        .unwrap()
        .contains("id=\"path-closed-failed\""));
}

#[test]
fn soak_replays_a_dumped_update() {
    // The format `soak --dump` writes: the environment before the update (native
    // format), the changes, and what differed.
    let dump = scratch(
        "mismatch-replay.json",
        r#"{
  "description": "written by hand for this test",
  "environment": {
    "version": 1, "snap_scale": 10000.0, "next_id": 2,
    "boundary": [[0, 0], [10, 0], [10, 10], [0, 10]],
    "obstacles": [{"id": 1, "polygon": [[2, 2], [4, 2], [4, 4], [2, 4]]}]
  },
  "changes": [
    {"insert": {"polygon": {"exterior": [[6, 6], [7, 6], [7, 7], [6, 7]]}}},
    {"move": {"id": 1, "obstacle": {"point": [3, 3]}}}
  ]
}"#,
    );
    let o = corridor(&["soak", "--replay", dump.to_str().unwrap()]);
    assert_success(&o);
    assert!(
        stdout(&o).contains("now equal to a full rebuild"),
        "{}",
        stdout(&o)
    );

    let broken = scratch("mismatch-broken.json", r#"{"environment": {"version": 1}}"#);
    let o = corridor(&["soak", "--replay", broken.to_str().unwrap()]);
    assert_failure(&o, &["mismatch-broken.json", "environment"]);

    // A clean run writes no file.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("corridor-cli-tests/dump");
    let _ = std::fs::remove_dir_all(&dir);
    let o = corridor(&[
        "soak",
        "--ops",
        "30",
        "--seed",
        "5",
        "--dump",
        dir.to_str().unwrap(),
    ]);
    assert_success(&o);
    assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().next().is_none());
}
