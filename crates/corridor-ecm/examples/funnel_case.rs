//! Finds disk-funnel cases where the shortest path through a corridor's portals differs
//! walked forwards and backwards (issue 24): a shortest path does not depend on the
//! direction, so one of the two runs of `corridor_geom::funnel::taut_path` is wrong.
//! Only windows of portals the start lies before and the goal after are tried.
//! Prints the first few cases as portal lists (Rust literals) for a unit test.
//!
//! ```text
//! cargo run --release -p corridor-ecm --example funnel_case -- MAP RADIUS [CASES]
//! ```

use corridor_ecm::{CorridorStep, Ecm, PathQuery, Planner};
use corridor_geom::funnel::{taut_path, Disk, Portal};
use corridor_geom::Point;

fn keep_out(s: &CorridorStep, wall: Point, corner: bool, r: f64) -> Disk {
    if corner || r == 0.0 {
        Disk::new(wall, r)
    } else {
        Disk::point(wall + (s.position - wall).normalize_or_zero() * r)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let map = corridor_testkit::data_dir().join(format!("movingai/{}.map", args[0]));
    let radius: f64 = args[1].parse().expect("RADIUS");
    let cases: usize = args.get(2).map_or(3, |a| a.parse().expect("CASES"));
    let env = corridor_io::load_environment(&map).expect("map");
    let scen = corridor_io::load_scenarios(map.with_extension("map.scen")).expect("scen");
    let ecm = Ecm::build(&env).expect("ECM");
    let mut planner = Planner::new();
    let r = radius - 1e-7;
    let mut found = 0;
    for (k, s) in scen.iter().enumerate() {
        let query = PathQuery::new(s.start_point(), s.goal_point()).with_radius(radius);
        let Ok(path) = planner.plan(&ecm, &query) else {
            continue;
        };
        let Some(retry) = planner.end_retry() else {
            continue;
        };
        let portals: Vec<Portal> = path
            .corridor
            .iter()
            .map(|c| Portal {
                left: keep_out(c, c.left, c.left_is_corner, r),
                right: keep_out(c, c.right, c.right_is_corner, r),
            })
            .collect();
        let n = portals.len();
        // The smallest window of portals (by count) whose two runs disagree.
        let mut best: Option<(usize, usize, f64, f64)> = None;
        for from in 0..n {
            for to in from..=n {
                if best.is_some_and(|b| b.1 - b.0 <= to - from) {
                    continue;
                }
                let part = &portals[from..to];
                // Only windows the start lies before and the goal after (each portal's
                // left end on the walker's left, seen from there).
                let before = |p: &Portal, at: Point| {
                    (p.right.center - at).perp_dot(p.left.center - at) > 0.0
                };
                if part.first().is_some_and(|p| !before(p, query.start))
                    || part.last().is_some_and(|p| before(p, query.goal))
                {
                    continue;
                }
                let forward = taut_path(query.start, query.goal, part).length;
                let swapped: Vec<Portal> = part.iter().rev().map(Portal::reversed).collect();
                let backward = taut_path(query.goal, query.start, &swapped).length;
                if (forward - backward).abs() > 1e-6 * forward.max(1.0) {
                    best = Some((from, to, forward, backward));
                }
            }
        }
        println!(
            "scenario {k}: {:?} -> {:?}, retry {retry:?}, {n} portals, length {}",
            query.start, query.goal, path.length
        );
        let Some((from, to, forward, backward)) = best else {
            println!("  forward and backward agree on every window");
            continue;
        };
        println!("  portals {from}..{to}: forward {forward}, backward {backward}");
        let d = |d: &Disk| {
            format!(
                "Disk::new(Point::new({:?}, {:?}), {:?})",
                d.center.x, d.center.y, d.radius
            )
        };
        for p in &portals[from..to] {
            println!(
                "    Portal {{ left: {}, right: {} }},",
                d(&p.left),
                d(&p.right)
            );
        }
        found += 1;
        if found == cases {
            break;
        }
    }
}
