//! `corridor path --route shortest|indicative --clearance c`: the indicative route is what
//! the user sees, and it keeps the preferred clearance where the corridor has room, checked
//! against the ECM's own clearance queries on a built-in scene.

mod common;
use common::{assert_success, corridor, scratch_dir, stderr, stdout};
use corridor_ecm::Ecm;
use corridor_geom::Point;
use corridor_io::scenes::Scene;
use serde_json::Value;

const FROM: &str = "10,10";
const TO: &str = "190,190";

/// `corridor path builtin:military --from FROM --to TO` with `extra` arguments.
fn military_path(extra: &[&str]) -> std::process::Output {
    let mut args = vec!["path", "builtin:military", "--from", FROM, "--to", TO];
    args.extend_from_slice(extra);
    corridor(&args)
}

fn path_json(extra: &[&str]) -> Value {
    let mut args = vec!["--json"];
    args.extend_from_slice(extra);
    let o = military_path(&args);
    assert_success(&o);
    serde_json::from_str(&stdout(&o)).expect("one JSON object")
}

fn points(v: &Value) -> Vec<Point> {
    v.as_array()
        .expect("a list of points")
        .iter()
        .map(|p| Point::new(p[0].as_f64().unwrap(), p[1].as_f64().unwrap()))
        .collect()
}

fn length(points: &[Point]) -> f64 {
    points.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The room at `v`: the largest clearance met stepping straight away from its nearest
/// wall point, up to `reach` further (where the corridor is wide, at least `reach`).
fn room(ecm: &Ecm, v: Point, reach: f64) -> f64 {
    let o = ecm.nearest_obstacle_point(v).unwrap();
    let away = (v - o) * (1.0 / v.distance(o).max(1e-12));
    (0..=100)
        .filter_map(|i| ecm.clearance(v + away * (reach * i as f64 / 100.0)).ok())
        .fold(0.0, f64::max)
}

#[test]
fn the_indicative_route_is_printed_and_keeps_the_clearance_where_there_is_room() {
    let (radius, clearance) = (1.0, 4.0);
    let v = path_json(&["--radius", "1", "--clearance", "4", "--route", "indicative"]);
    assert_eq!(v["route"], "indicative");
    assert_eq!(v["clearance"], clearance);
    let route = points(&v["points"]);
    assert_eq!(route, points(&v["indicative_route"]["points"]));
    let shortest = &v["shortest_route"];
    let shortest_length = shortest["length"].as_f64().unwrap();
    // The printed length is the printed polyline's.
    let route_length = v["length"].as_f64().unwrap();
    assert!((route_length - length(&route)).abs() < 1e-9);
    assert_eq!(v["indicative_route"]["length"], v["length"]);
    // From the query's start to its goal, never shorter than the shortest path.
    assert_eq!(route.first(), Some(&Point::new(10.0, 10.0)));
    assert_eq!(route.last(), Some(&Point::new(190.0, 190.0)));
    assert!(route_length >= shortest_length - 1e-9);
    assert!(
        route_length > shortest_length + 1e-3,
        "the clearance costs length"
    );

    let ecm = Ecm::build(&Scene::Military.build()).unwrap();
    // Every point along the route keeps the radius (1e-6: the ECM's fitting tolerance).
    for w in route.windows(2) {
        for i in 0..=20 {
            let p = w[0] + (w[1] - w[0]) * (i as f64 / 20.0);
            let c = ecm.clearance(p).unwrap();
            assert!(c >= radius - 1e-6, "{p:?} is {c} from a wall");
        }
    }
    // Where the route bends (around a corner), it keeps min(clearance, room); the
    // shortest path touches its corners at the radius.
    let mut wide_bends = 0;
    for &v in &route[1..route.len() - 1] {
        let c = ecm.clearance(v).unwrap();
        let room = room(&ecm, v, clearance);
        assert!(
            c >= clearance.min(room) - 0.05 * clearance,
            "bend {v:?} is {c} from a wall, room {room}"
        );
        if room >= clearance {
            wide_bends += 1;
        }
    }
    assert!(wide_bends > 0, "the scene has wide bends");
    let shortest_points = points(&shortest["points"]);
    let hugging = shortest_points[1..shortest_points.len() - 1]
        .iter()
        .map(|&p| ecm.clearance(p).unwrap())
        .fold(f64::INFINITY, f64::min);
    assert!(hugging < radius + 0.1, "the shortest path touches a corner");
}

#[test]
fn shortest_is_the_default_and_a_larger_clearance_changes_the_route() {
    let v = path_json(&["--radius", "1", "--clearance", "1.5"]);
    assert_eq!(v["route"], "shortest");
    assert_eq!(points(&v["points"]), points(&v["shortest_route"]["points"]));
    let narrow = points(&v["indicative_route"]["points"]);
    let w = path_json(&["--radius", "1", "--clearance", "4"]);
    let wide = points(&w["indicative_route"]["points"]);
    // The shortest path does not depend on the clearance; the indicative route does.
    assert_eq!(v["points"], w["points"]);
    assert_ne!(narrow, wide);
    assert!(length(&wide) > length(&narrow) + 1e-3);
    // With the clearance equal to the radius, the two routes are one.
    let same = path_json(&["--radius", "1"]);
    assert_eq!(same["clearance"], 1.0);
    assert_eq!(same["indicative_route"]["points"], same["points"]);
}

#[test]
fn a_clearance_below_the_radius_is_refused() {
    let o = military_path(&["--radius", "2", "--clearance", "1"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("--clearance 1 is below --radius 2"), "{e}");
}

#[test]
fn the_indicative_route_needs_the_ecm() {
    let o = military_path(&["--planner", "visgraph", "--route", "indicative"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("needs the ecm planner"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn both_routes_are_drawn_and_written_as_geojson() {
    let dir = scratch_dir("route");
    let (svg, geo) = (dir.join("route.svg"), dir.join("route.geojson"));
    let o = military_path(&[
        "--radius",
        "1",
        "--clearance",
        "4",
        "--route",
        "indicative",
        "--svg",
        svg.to_str().unwrap(),
        "--geojson",
        geo.to_str().unwrap(),
    ]);
    assert_success(&o);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(
        picture.contains("id=\"shortest-route\""),
        "the other route, faint"
    );
    assert!(picture.contains("id=\"path\""), "the chosen route");
    assert!(
        picture.contains("indicative, clearance 4"),
        "a legend entry"
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&geo).unwrap()).unwrap();
    let lines: Vec<&Value> = v["features"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["geometry"]["type"] == "LineString")
        .collect();
    let roles: Vec<&str> = lines
        .iter()
        .map(|f| f["properties"]["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["indicative", "shortest"]);
    assert!(
        lines[0]["properties"]["length"].as_f64().unwrap()
            >= lines[1]["properties"]["length"].as_f64().unwrap()
    );
}
