//! `--planner visgraph --radius r` is the exact disk planner, and `--pinch open|closed`
//! decides whether a point passes between grid cells touching at a corner.

mod common;
use common::{assert_success, corridor, scratch_dir, stdout};

fn length(out: &std::process::Output) -> f64 {
    let json: serde_json::Value = serde_json::from_str(&stdout(out)).unwrap();
    json["length"].as_f64().unwrap()
}

#[test]
fn pinch_closed_by_default_and_open_on_request() {
    let map = scratch_dir("radius_and_pinch").join("pinch.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 2\nmap\n@.\n.@\n").unwrap();
    let map = map.to_str().unwrap();
    let query = [
        "--from",
        "1.5,0.5",
        "--to",
        "0.5,1.5",
        "--planner",
        "visgraph",
        "--json",
    ];
    let closed = corridor(&[&["path", map][..], &query].concat());
    assert!(!closed.status.success());
    let open = corridor(&[&["--pinch", "open", "path", map][..], &query].concat());
    assert_success(&open);
    assert!((length(&open) - 2f64.sqrt()).abs() < 1e-9);
}

#[test]
fn visgraph_with_a_radius_is_exact() {
    // One blocked cell [4, 5] × [2, 3] between start and goal; a disk of radius 0.5
    // rolls over its two corners on one side.
    let map = scratch_dir("radius_and_pinch").join("block.map");
    let rows = [
        ".........",
        ".........",
        "....@....",
        ".........",
        ".........",
    ];
    std::fs::write(
        &map,
        format!("type octile\nheight 5\nwidth 9\nmap\n{}\n", rows.join("\n")),
    )
    .unwrap();
    let out = corridor(&[
        "path",
        map.to_str().unwrap(),
        "--from",
        "1.5,2.5",
        "--to",
        "7.5,2.5",
        "--radius",
        "0.5",
        "--planner",
        "visgraph",
        "--json",
    ]);
    assert_success(&out);
    let (s, corner, r) = (
        corridor_geom::Point::new(1.5, 2.5),
        corridor_geom::Point::new(4.0, 2.0),
        0.5,
    );
    let v = s - corner;
    let d = v.length();
    let away = corridor_geom::Point::new(0.0, -1.0); // the side's outward normal
    let arc = (v.dot(away) / d).acos() - (r / d).acos();
    let exact = 2.0 * ((d * d - r * r).sqrt() + r * arc) + 1.0;
    assert!(
        (length(&out) - exact).abs() < 1e-9,
        "{} vs {exact}",
        length(&out)
    );
}
