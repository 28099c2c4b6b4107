//! Every Moving AI scenario's path length at one radius, one line per scenario, so that
//! two builds of the planner can be compared with `cmp` (issue 24: a search change must
//! leave every length as it was).
//!
//! ```text
//! cargo run --release -p corridor-ecm --example scen_lengths -- MAP SCEN RADIUS > lengths.txt
//! ```
//!
//! Each line is the scenario's index and its length to 1e-9 (or the error).

use corridor_ecm::{Ecm, PathQuery, Planner};
use std::fmt::Write as _;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [map, scen, radius] = &args[..] else {
        eprintln!("usage: scen_lengths MAP SCEN RADIUS");
        std::process::exit(2);
    };
    let radius: f64 = radius.parse().expect("RADIUS");
    let env = corridor_io::load_environment(map).expect("map");
    let text = std::fs::read_to_string(scen).expect("scen");
    let scenarios = corridor_io::read_scenarios(&text).expect("scenarios");
    let ecm = Ecm::build(&env).expect("ECM");
    let mut planner = Planner::new();
    let mut out = String::new();
    for (i, s) in scenarios.iter().enumerate() {
        let query = PathQuery::new(s.start_point(), s.goal_point()).with_radius(radius);
        match planner.plan(&ecm, &query) {
            Ok(p) => writeln!(out, "{i} {:.9}", p.length),
            Err(e) => writeln!(out, "{i} error {e}"),
        }
        .expect("write");
    }
    print!("{out}");
}
