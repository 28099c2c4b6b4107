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
    // The batch (the triangulated index) answers as the single query (the ECM walk).
    let o = corridor(&[
        "visibility",
        map.to_str().unwrap(),
        "--from",
        "3.5,2.5",
        "--json",
    ]);
    assert_success(&o);
    let single: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let fields: Vec<&str> = lines[3].split(',').collect();
    let corners: usize = fields[2].parse().unwrap();
    let area: f64 = fields[4].parse().unwrap();
    let single_area = single["area"].as_f64().unwrap();
    assert_eq!(
        corners,
        single["vertices"].as_array().unwrap().len(),
        "{out}"
    );
    assert!((area - single_area).abs() <= 1e-9 * single_area, "{out}");
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

#[test]
fn range_and_field_of_view() {
    let map = small_map();
    let svg = scratch_dir("corridor-cli-visibility").join("cone.svg");
    // From (3.5, 1.5), facing -x with a 90° cone, 1 unit away: a quarter disk of area π/4.
    let o = corridor(&[
        "visibility",
        map.to_str().unwrap(),
        "--from",
        "3.5,1.5",
        "--range",
        "0.5",
        "--fov",
        "90",
        "--dir",
        "-1,0",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_success(&o);
    let value: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let area = value["area"].as_f64().unwrap();
    let quarter = std::f64::consts::PI * 0.25 / 4.0;
    assert!((area - quarter).abs() < 1e-12, "{area}");
    let kinds = value["kinds"].as_array().unwrap();
    assert!(kinds.iter().any(|k| k == "arc") && kinds.iter().any(|k| k == "cone"));
    assert_eq!(value["range"].as_f64(), Some(0.5));
    // Limits out of their domain: a clear error, no panic.
    for bad in [
        &["--range", "-2"][..],
        &["--fov", "400", "--dir", "1,0"][..],
    ] {
        let mut args = vec!["visibility", map.to_str().unwrap(), "--from", "3.5,1.5"];
        args.extend_from_slice(bad);
        let o = corridor(&args);
        assert!(!o.status.success());
        assert!(
            stderr(&o).contains("range") || stderr(&o).contains("cone"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn a_layered_map_is_seen_through_its_connections() {
    // builtin:layers: from the ground floor's west end, stairs A (10 × 3, its connection
    // at x = 10) is seen whole, and the upper floor through the stairs' far connection.
    let svg = scratch_dir("corridor-cli-visibility").join("layered.svg");
    let _ = std::fs::remove_file(&svg);
    let o = corridor(&[
        "visibility",
        "builtin:layers",
        "--from",
        "5,1.5",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_success(&o);
    let value: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(value["layer"], 0);
    let regions = value["regions"].as_array().unwrap();
    let area_on = |layer: u64| -> f64 {
        regions
            .iter()
            .filter(|r| r["layer"] == layer)
            .map(|r| r["area"].as_f64().unwrap())
            .sum()
    };
    assert!((area_on(2) - 30.0).abs() < 1e-9, "{}", area_on(2));
    assert!(area_on(0) > 100.0 && area_on(1) > 0.0);
    for r in regions {
        assert_eq!(
            r["vertices"].as_array().unwrap().len(),
            r["kinds"].as_array().unwrap().len()
        );
    }
    assert!(regions[0]["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .any(|k| k == "connection"));
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .contains("visibility-connections"));
}

#[test]
fn a_layered_view_takes_a_range_a_cone_and_a_batch() {
    // From the ground floor's west end looking east along the corridor, 12 units.
    let seen_within_12 = |more: &[&str]| {
        let base = [
            "visibility",
            "builtin:layers",
            "--from",
            "5,1.5",
            "--range",
            "12",
        ];
        corridor(&[&base[..], more].concat())
    };
    let o = seen_within_12(&["--fov", "40", "--dir", "1,0", "--json"]);
    assert_success(&o);
    let value: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(value["range"], 12.0);
    let regions = value["regions"].as_array().unwrap();
    let kinds: Vec<&str> = regions
        .iter()
        .flat_map(|r| r["kinds"].as_array().unwrap())
        .map(|k| k.as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"arc") && kinds.contains(&"cone"),
        "{kinds:?}"
    );
    let area: f64 = regions.iter().map(|r| r["area"].as_f64().unwrap()).sum();
    // Within the cone's sector of radius 12 (40° of the whole turn).
    assert!(
        area > 0.0 && area <= 144.0 * std::f64::consts::PI / 9.0 + 1e-9,
        "{area}"
    );
    // A batch with a layer column: an empty layer is found, a point not free on its
    // layer gets its error on its line.
    let csv = scratch_dir("corridor-cli-visibility").join("layered-points.csv");
    std::fs::write(&csv, "x,y,layer\n5,1.5,\n5,1.5,0\n-50,-50,0\n").unwrap();
    let o = corridor(&[
        "visibility",
        "builtin:layers",
        "--batch",
        csv.to_str().unwrap(),
        "--range",
        "12",
    ]);
    assert_success(&o);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "x,y,layer,regions,area,error");
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[1], lines[2]);
    assert!(lines[1].starts_with("5,1.5,0,") && lines[1].ends_with(','));
    assert!(
        lines[3].starts_with("-50,-50,,,,") && lines[3].len() > 12,
        "{}",
        lines[3]
    );
    // Same figures as the single query.
    let single = seen_within_12(&["--json"]);
    let value: serde_json::Value = serde_json::from_str(stdout(&single).trim()).unwrap();
    let area: f64 = value["regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["area"].as_f64().unwrap())
        .sum();
    let batch_area: f64 = lines[1].split(',').nth(4).unwrap().parse().unwrap();
    assert_eq!(area, batch_area);
}
