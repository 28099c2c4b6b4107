//! Every scenario of Moving AI maps at given radii (issue 24): solved, ratio to the octile
//! optimum, fallbacks, and which disk-funnel retry ([`Planner::end_retry`]) each path
//! needed; `--dump FILE` writes every scenario's length (to 1e-9) so that two builds can
//! be compared.
//!
//! ```text
//! cargo run --release -p corridor-ecm --example scen_radius -- [MAP ...] [--radius R ...] [--dump FILE]
//! ```
//!
//! `MAP` is a map name under `data/movingai` (`den520d`) or a `.map` path (its `.scen`
//! next to it); with none, all the `.map` files of `data/movingai`. Radii default to
//! 0.25 and 0.5.

use corridor_ecm::{Ecm, PathQuery, Planner};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut maps, mut radii, mut dump) = (Vec::new(), Vec::new(), None);
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--radius" => {
                radii.push(args[i + 1].parse::<f64>().expect("RADIUS"));
                i += 1;
            }
            "--dump" => {
                dump = Some(args[i + 1].clone());
                i += 1;
            }
            name => maps.push(name.to_string()),
        }
        i += 1;
    }
    if radii.is_empty() {
        radii = vec![0.25, 0.5];
    }
    let dir = corridor_testkit::data_dir().join("movingai");
    let mut paths: Vec<PathBuf> = if maps.is_empty() {
        let mut all: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("data/movingai")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "map"))
            .collect();
        all.sort();
        all
    } else {
        maps.iter()
            .map(|m| {
                let p = PathBuf::from(m);
                if p.exists() {
                    p
                } else {
                    dir.join(format!("{m}.map"))
                }
            })
            .collect()
    };
    paths.dedup();
    let mut out = String::new();
    println!(
        "map radius solved/total above(1e-3) max_ratio fallbacks retries{{(a,b,backwards):count}}"
    );
    for map in &paths {
        let env = corridor_io::load_environment(map).expect("map");
        let scen = corridor_io::load_scenarios(map.with_extension("map.scen")).expect("scen");
        let ecm = Ecm::build(&env).expect("ECM");
        let name = map.file_stem().unwrap().to_string_lossy().into_owned();
        for &radius in &radii {
            let mut planner = Planner::new();
            let (mut solved, mut above, mut max_ratio, mut fallbacks) = (0, 0, 0f64, 0);
            let mut retries: BTreeMap<(isize, isize, bool), usize> = BTreeMap::new();
            for (k, s) in scen.iter().enumerate() {
                let query = PathQuery::new(s.start_point(), s.goal_point()).with_radius(radius);
                match planner.plan(&ecm, &query) {
                    Ok(path) => {
                        solved += 1;
                        let ratio = path.length / s.optimal_length.max(1e-12);
                        if s.optimal_length > 0.0 {
                            max_ratio = max_ratio.max(ratio);
                            above += usize::from(ratio > 1.0 + 1e-3);
                        }
                        fallbacks += usize::from(path.fallback.is_some());
                        if let Some(r) = planner.end_retry() {
                            *retries.entry(r).or_default() += 1;
                        }
                        let _ = writeln!(out, "{name} {radius} {k} {:.9}", path.length);
                    }
                    Err(e) => {
                        let _ = writeln!(out, "{name} {radius} {k} error {e}");
                    }
                }
            }
            println!(
                "{name} {radius} {solved}/{} {above} {max_ratio:.5} {fallbacks} {retries:?}",
                scen.len()
            );
        }
    }
    if let Some(file) = dump {
        std::fs::write(file, out).expect("dump");
    }
}
