//! Clear words for every mistake (the hardening issue's last section): an empty free
//! space is called empty, NaN and negative distances are refused by every planner, a
//! one-point path prints length 0 (not -0), `scen` exits nonzero when queries fail, and
//! a saved map that was damaged or is a device is refused with a clear error.

mod common;
use common::{assert_error, assert_success, corridor, scratch_dir, stderr, stdout};

fn scratch_file(name: &str, contents: &[u8]) -> String {
    let path = scratch_dir("corridor-cli-words").join(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

#[test]
fn an_empty_free_space_is_called_empty() {
    let blocked = scratch_file(
        "blocked.map",
        b"type octile\nheight 2\nwidth 3\nmap\n@@@\n@@@\n",
    );
    let covered = scratch_file(
        "covered.json",
        br#"{"version": 1, "boundary": [[0, 0], [10, 0], [10, 10], [0, 10]],
            "obstacles": [{"polygon": [[-1, -1], [11, -1], [11, 11], [-1, 11]]}]}"#,
    );
    for file in [&blocked, &covered] {
        let o = corridor(&["build", file]);
        assert_error(&o, 1, &["the free space is empty"]);
        assert!(!stderr(&o).contains("not enclosed"));
    }
}

#[test]
fn every_planner_refuses_nan_and_negative_distances() {
    for planner in ["ecm", "visgraph", "trapmap", "asfv"] {
        let args = [
            "path",
            "builtin:empty",
            "--planner",
            planner,
            "--from",
            "10,10",
            "--to",
            "90,70",
        ];
        for bad in ["NaN", "nan", "-1", "inf"] {
            let o = corridor(&[&args[..], &["--radius", bad]].concat());
            assert_error(&o, 2, &["--radius", "not a distance"]);
            let o = corridor(&[&args[..], &["--clearance", bad]].concat());
            assert_error(&o, 2, &["--clearance", "not a distance"]);
        }
    }
}

#[test]
fn a_one_point_path_has_length_zero() {
    for planner in ["ecm", "visgraph", "trapmap", "asfv"] {
        let o = corridor(&[
            "path",
            "builtin:empty",
            "--planner",
            planner,
            "--from",
            "10,10",
            "--to",
            "10,10",
        ]);
        assert_success(&o);
        let out = stdout(&o);
        assert!(out.starts_with("length 0.000000"), "{planner}: {out}");
        assert!(!out.contains("-0.0"), "{planner}: {out}");
    }
}

#[test]
fn scen_exits_nonzero_when_queries_fail() {
    let map = scratch_file(
        "t.map",
        b"type octile\nheight 4\nwidth 5\nmap\n.....\n.....\n.@@..\n.....\n",
    );
    // The second query's goal (1, 2) is a blocked cell.
    let scen = scratch_file(
        "t.map.scen",
        b"version 1\n0\tt.map\t5\t4\t0\t0\t4\t3\t4.82842712\n0\tt.map\t5\t4\t0\t0\t1\t2\t2.4\n",
    );
    let o = corridor(&["scen", &map, &scen]);
    assert_error(&o, 1, &["1 of 2 queries failed"]);
    assert!(stdout(&o).contains("1 solved, 1 failed"), "{}", stdout(&o));
    let o = corridor(&["scen", &map, &scen, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(report["failed"], 1);
    let error: serde_json::Value = serde_json::from_str(stderr(&o).trim()).unwrap();
    assert_eq!(error["kind"], "queries_failed");
}

#[test]
fn a_damaged_saved_map_is_refused() {
    let dir = scratch_dir("corridor-cli-words");
    let saved = dir.join("room.ecm").display().to_string();
    assert_success(&corridor(&["build", "builtin:military", "--save", &saved]));
    let mut bytes = std::fs::read(&saved).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x10;
    let damaged = scratch_file("damaged.ecm", &bytes);
    let o = corridor(&["path", &damaged, "--from", "10,10", "--to", "190,190"]);
    assert_error(&o, 1, &["damaged saved ECM: checksum"]);
    let mut longer = std::fs::read(&saved).unwrap();
    longer.extend_from_slice(&[0; 1000]);
    let longer = scratch_file("longer.ecm", &longer);
    let o = corridor(&["info", &longer]);
    assert_error(&o, 1, &["1000 unexpected bytes after the saved ECM"]);
    #[cfg(unix)]
    {
        let link = dir.join("endless.ecm");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let o = corridor(&["info", &link.display().to_string()]);
        assert_error(&o, 1, &["not a regular file"]);
        let link = dir.join("endless.map");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let o = corridor(&["build", &link.display().to_string()]);
        assert_error(&o, 1, &["not a regular file"]);
    }
}

#[test]
fn build_threads_must_be_positive_and_do_not_change_the_ecm() {
    let o = corridor(&["build", "builtin:dungeon", "--threads", "0"]);
    assert_error(&o, 2, &["--threads"]);
    let counts = |threads: &str| {
        let o = corridor(&["build", "builtin:dungeon", "--threads", threads, "--json"]);
        assert_success(&o);
        let text = stdout(&o);
        assert!(text.contains(&format!("\"threads\":{threads}")), "{text}");
        // The counts, without the times and the thread count.
        let counts = text.split("\"ms\"").next().unwrap().to_string();
        let rest = text.split("\"recoveries\"").nth(1).unwrap();
        counts + rest.split("\"threads\"").next().unwrap()
    };
    assert_eq!(counts("1"), counts("2"));
}
