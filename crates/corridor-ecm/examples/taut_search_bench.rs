//! Query times and taut-search label counts on random problems (issue 24/25): the
//! pillar-lattice label blow-up of the taut-length search shows on the built-in city at
//! r > 0.
//!
//! ```text
//! cargo run --release -p corridor-ecm --example taut_search_bench -- MAP RADIUS [QUERIES] [--dump FILE] [--diagonal]
//! ```
//!
//! `MAP` is `city`, `military`, `dungeon`, `lattice:K` (the pillar lattice of
//! `corridor_testkit::worlds::pillar_lattice_map`, side 2K + 1) or a map file. Queries are pairs of random
//! medial-axis vertices with clearance at least the radius (seeded). Prints p50/p90/max of
//! the query time and of the labels the search created, and each phase's median; `--dump FILE` writes every
//! query's result (length to 1e-9 and the route's edges) so that two builds can be
//! compared with `cmp`. `--diagonal` draws each goal among the vertices on a 45° line
//! through the start (the lattice's easy queries, against which issue 25 measures the
//! others).

use corridor_ecm::{Ecm, PathQuery, Planner};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::time::Instant;

fn q(sorted: &[f64], f: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * f).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let map = args.first().cloned().unwrap_or_else(|| "city".into());
    let radius: f64 = args.get(1).map_or(0.25, |a| a.parse().expect("RADIUS"));
    let queries: usize = args.get(2).map_or(300, |a| a.parse().expect("QUERIES"));
    let dump = args
        .iter()
        .position(|a| a == "--dump")
        .map(|i| args[i + 1].clone());
    let env = match corridor_io::scenes::Scene::from_name(&map) {
        Some(scene) => scene.build(),
        None => match map.strip_prefix("lattice:") {
            Some(k) => corridor_io::read_map_environment(
                &corridor_testkit::worlds::pillar_lattice_map(k.parse().expect("lattice:K")),
            )
            .expect("lattice"),
            None => corridor_io::load_environment(&map).expect("map"),
        },
    };
    let ecm = Ecm::build(&env).expect("ECM");
    // The largest component's vertices (the city's closed courtyards are left out).
    let mut sizes = std::collections::HashMap::new();
    for (_, v) in ecm.vertices() {
        *sizes.entry(v.component).or_insert(0usize) += 1;
    }
    let main = sizes.iter().max_by_key(|(_, &n)| n).map(|(&c, _)| c);
    let points: Vec<_> = ecm
        .vertices()
        .filter(|(_, v)| v.clearance >= radius + 1e-6 && Some(v.component) == main)
        .map(|(_, v)| v.position)
        .collect();
    let diagonal = args.iter().any(|a| a == "--diagonal");
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let mut planner = Planner::new();
    planner.set_timing(true);
    let mut phases: Vec<Vec<f64>> = vec![Vec::new(); planner.phase_times().len()];
    let (mut times, mut labels) = (Vec::new(), Vec::new());
    let mut out = String::new();
    for i in 0..queries {
        let a = points[rng.random_range(0..points.len())];
        let mut b = points[rng.random_range(0..points.len())];
        if diagonal {
            let on_line: Vec<_> = points
                .iter()
                .filter(|p| p != &&a && ((p.x - a.x).abs() - (p.y - a.y).abs()).abs() < 1e-9)
                .collect();
            if !on_line.is_empty() {
                b = *on_line[rng.random_range(0..on_line.len())];
            }
        }
        let query = PathQuery::new(a, b).with_radius(radius);
        let t = Instant::now();
        let result = planner.plan(&ecm, &query);
        times.push(t.elapsed().as_secs_f64() * 1e3);
        labels.push(planner.search_statistics().1 as f64);
        for (k, (_, t)) in planner.phase_times().iter().enumerate() {
            phases[k].push(t.as_secs_f64() * 1e3);
        }
        match result {
            Ok(p) => {
                let _ = writeln!(out, "{i} {:.9} {:?}", p.length, p.edges);
            }
            Err(e) => {
                let _ = writeln!(out, "{i} error {e}");
            }
        }
    }
    times.sort_by(f64::total_cmp);
    labels.sort_by(f64::total_cmp);
    println!(
        "{map} r={radius}: {queries} queries, time ms p50 {:.3} p90 {:.3} max {:.3}; labels p50 {} p90 {} max {}",
        q(&times, 0.5),
        q(&times, 0.9),
        q(&times, 1.0),
        q(&labels, 0.5),
        q(&labels, 0.9),
        q(&labels, 1.0),
    );
    let names = planner.phase_times().map(|(name, _)| name);
    let medians: Vec<String> = phases
        .iter_mut()
        .zip(names)
        .map(|(v, name)| {
            v.sort_by(f64::total_cmp);
            format!("{name} {:.3}", q(v, 0.5))
        })
        .collect();
    println!("  phase medians (ms): {}", medians.join(", "));
    if let Some(file) = dump {
        std::fs::write(file, out).expect("dump");
    }
}
