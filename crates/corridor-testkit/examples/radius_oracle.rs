//! The ECM's paths for radii r > 0 against the exact disk planner (issue 24): the
//! built-in scenes, random environments and the shared Moving AI maps, with the issue's
//! thresholds (no solvable query refused, clearance ≥ r, length ratio mean ≤ 1.005,
//! p99 ≤ 1.02, max ≤ 1.05).
//!
//! `cargo run --release -p corridor-testkit --example radius_oracle [-- --quick]`
//! (`--quick`: 100 random environments and 20 queries per map and radius instead of
//! 1,000 and 100; `--maps a,b`: only those maps).

use corridor_ecm::Ecm;
use corridor_geom::Point;
use corridor_io::scenes::Scene;
use corridor_testkit::radius_oracle::{compare, random_free_pairs, walls, RadiusTally};
use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};

const GRID_RADII: [f64; 5] = [0.1, 0.25, 0.5, 1.0, 2.0];
/// Radii elsewhere, as fractions of the environment's extent.
const SCENE_FRACTIONS: [f64; 3] = [0.005, 0.01, 0.02];

fn report(name: &str, tally: &RadiusTally) {
    let mark = if tally.meets_thresholds() {
        "ok  "
    } else {
        "FAIL"
    };
    println!("{mark} {name}: {}", tally.summary());
    for c in tally.refused.iter().take(3) {
        println!(
            "       refused {} ({}, {}) → ({}, {}): {}",
            c.label, c.start.x, c.start.y, c.goal.x, c.goal.y, c.detail
        );
    }
    for c in tally.violations.iter().take(3) {
        println!(
            "       violation {} ({}, {}) → ({}, {}): {}",
            c.label, c.start.x, c.start.y, c.goal.x, c.goal.y, c.detail
        );
    }
    for (ratio, c) in tally.worst.iter().take(3).filter(|(r, _)| *r > 1.02) {
        println!(
            "       ratio {ratio:.4} {} ({}, {}) → ({}, {}): {}",
            c.label, c.start.x, c.start.y, c.goal.x, c.goal.y, c.detail
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let only: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--maps")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.split(',').map(String::from).collect());
    let (envs, per_map) = if quick { (100, 20) } else { (1000, 100) };
    let mut all = RadiusTally::default();
    let merge = |all: &mut RadiusTally, t: &RadiusTally| {
        all.queries += t.queries;
        all.solvable += t.solvable;
        all.refused.extend(t.refused.iter().cloned());
        all.violations.extend(t.violations.iter().cloned());
        all.ratios.extend(&t.ratios);
        all.oracle_build_s += t.oracle_build_s;
        all.oracle_query_s.extend(&t.oracle_query_s);
    };
    if only.is_none() {
        let mut scenes = RadiusTally::default();
        for scene in Scene::ALL {
            let env = scene.build();
            let ecm = Ecm::build(&env).unwrap();
            let w = walls(&env);
            let extent = env.bounds().size().max_element();
            for f in SCENE_FRACTIONS {
                let r = extent * f;
                scenes.label = format!("{} r={r}", scene.name());
                let pairs = random_free_pairs(&env, &w, r, per_map, 7);
                compare(&env, &ecm, r, &pairs, &mut scenes).unwrap();
            }
        }
        report("built-in scenes", &scenes);
        merge(&mut all, &scenes);
        let mut random = RadiusTally::default();
        for seed in 0..envs as u64 {
            let options = match seed % 3 {
                0 => RandomEnvironmentOptions::grid_map(24, 60),
                1 => RandomEnvironmentOptions::scaled(100.0, Point::new(50.0, 50.0)),
                _ => RandomEnvironmentOptions::default(),
            };
            let env = random_environment(seed, &options);
            let Ok(ecm) = Ecm::build(&env) else { continue };
            let w = walls(&env);
            let r = env.bounds().size().max_element() * SCENE_FRACTIONS[seed as usize % 3];
            random.label = format!("random seed {seed} r={r}");
            let pairs = random_free_pairs(&env, &w, r, 3, seed);
            let _ = compare(&env, &ecm, r, &pairs, &mut random);
        }
        report(&format!("{envs} random environments"), &random);
        merge(&mut all, &random);
    }
    let dir = corridor_testkit::data_dir().join("movingai");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".map").map(String::from))
        .collect();
    names.sort();
    for name in names {
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        let map = dir.join(format!("{name}.map"));
        let env = corridor_io::load_environment(&map).unwrap();
        let ecm = Ecm::build(&env).unwrap();
        let w = walls(&env);
        let scen = corridor_io::load_scenarios(dir.join(format!("{name}.map.scen"))).unwrap();
        let step = (scen.len() / (3 * per_map)).max(1);
        let pairs: Vec<(Point, Point)> = scen
            .iter()
            .step_by(step)
            .map(|s| (s.start_point(), s.goal_point()))
            .collect();
        for r in GRID_RADII {
            let mut t = RadiusTally {
                label: format!("{name} r={r}"),
                ..Default::default()
            };
            // The first `per_map` pairs where both ends fit the disk.
            let fits = |p: Point| w.iter().all(|s| s.distance(p) >= r);
            let chosen: Vec<(Point, Point)> = pairs
                .iter()
                .copied()
                .filter(|&(a, b)| fits(a) && fits(b))
                .take(per_map)
                .collect();
            compare(&env, &ecm, r, &chosen, &mut t).unwrap();
            report(&format!("{name} r={r}"), &t);
            merge(&mut all, &t);
        }
    }
    report("all", &all);
}
