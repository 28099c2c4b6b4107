//! `corridor visibility` end to end: one polygon (text, JSON, SVG), a batch, bad points.

use std::path::PathBuf;

mod common;
use common::{assert_success, corridor, scratch_dir, stderr, stdout};

/// A 4 × 3 grid map with one blocked cell at (1, 1): free area 11.
fn small_map() -> PathBuf {
    let path = scratch_dir("corridor-cli-visibility").join("small.map");
    std::fs::write(
        &path,
        "type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n....\n",
    )
    .unwrap();
    path
}

#[test]
fn one_polygon_as_json_and_svg() {
    let map = small_map();
    let svg = scratch_dir("corridor-cli-visibility").join("seen.svg");
    let _ = std::fs::remove_file(&svg);
    let o = corridor(&[
        "visibility",
        map.to_str().unwrap(),
        "--from",
        "0.5,0.5",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_success(&o);
    let value: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let area = value["area"].as_f64().unwrap();
    // The block hides part of the map from the corner cell, but not all of it.
    assert!(area > 5.0 && area < 11.0, "{area}");
    let vertices = value["vertices"].as_array().unwrap();
    let kinds = value["kinds"].as_array().unwrap();
    assert_eq!(vertices.len(), kinds.len());
    assert!(kinds.iter().any(|k| k == "window") && kinds.iter().any(|k| k == "wall"));
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains("visibility-region"));
    // From a cell that sees everything: the whole free area.
    let o = corridor(&["visibility", map.to_str().unwrap(), "--from", "3.5,1.5"]);
    assert_success(&o);
    assert!(stdout(&o).contains("corners"));
}

#[test]
fn batch_reports_each_point_and_bad_points_fail_cleanly() {
    let map = small_map();
    let csv = scratch_dir("corridor-cli-visibility").join("points.csv");
    std::fs::write(&csv, "x,y\n0.5,0.5\n1.5,1.5\n3.5,2.5\n").unwrap();
    let o = corridor(&[
        "visibility",
        map.to_str().unwrap(),
        "--batch",
        csv.to_str().unwrap(),
    ]);
    assert_success(&o);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[2].contains("not in the free space"), "{out}");
    // A viewpoint inside the block: exit 1 with a message, no panic.
    let o = corridor(&["visibility", map.to_str().unwrap(), "--from", "1.5,1.5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not in the free space"),
        "{}",
        stderr(&o)
    );
    let o = corridor(&["visibility", map.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}
