//! Corridor against polyanya on the Aurora mesh problems, radius 0, in one run.
//!
//! `cargo run --release --manifest-path bench/polyanya-compare/Cargo.toml [-- EVERY]`
//! (EVERY: use every n-th problem; default 1). Reads data/polyanya.
//!
//! Both planners first answer every query once untimed (warm-up: Corridor's planner
//! fills its edge-cost cache and buffers); then every query is timed once per planner,
//! alternating, so both see the same machine load. Corridor plans into one reused
//! `CorridorPath` (`Planner::plan_into`).

use corridor_ecm::{CorridorPath, Ecm, PathQuery, Planner};
use std::time::Instant;

fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let dir = polyanya_compare::polyanya_dir();
    let every = polyanya_compare::every();
    let problems = polyanya_compare::aurora_problems(every);

    let started = Instant::now();
    let mesh: polyanya::Mesh =
        polyanya::PolyanyaFile::from_file(dir.join("aurora.mesh").to_str().unwrap())
            .try_into()
            .expect("polyanya reads the mesh");
    let polyanya_load = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let env =
        corridor_io::load_environment(dir.join("aurora.mesh")).expect("corridor reads the mesh");
    let ecm = Ecm::build(&env).expect("ECM");
    let corridor_build = started.elapsed().as_secs_f64();

    let (mut t_poly, mut t_corr, mut r_poly, mut r_corr) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut poly_failed, mut corr_failed) = (0, 0);
    let mut planner = Planner::new();
    let mut out = CorridorPath::empty();
    for p in &problems {
        let s = glam::Vec2::new(p.start.x as f32, p.start.y as f32);
        let g = glam::Vec2::new(p.goal.x as f32, p.goal.y as f32);
        std::hint::black_box(mesh.path(s, g));
        let _ = planner.plan_into(&ecm, &PathQuery::new(p.start, p.goal), &mut out);
    }
    for p in &problems {
        let (s, g) = (
            glam::Vec2::new(p.start.x as f32, p.start.y as f32),
            glam::Vec2::new(p.goal.x as f32, p.goal.y as f32),
        );
        let t = Instant::now();
        let found = mesh.path(s, g);
        t_poly.push(t.elapsed().as_secs_f64() * 1e3);
        match found {
            Some(path) => r_poly.push(path.length as f64 / p.length.max(1e-12)),
            None => poly_failed += 1,
        }
        let t = Instant::now();
        let found = planner.plan_into(&ecm, &PathQuery::new(p.start, p.goal), &mut out);
        t_corr.push(t.elapsed().as_secs_f64() * 1e3);
        match found {
            Ok(()) => r_corr.push(out.length / p.length.max(1e-12)),
            Err(_) => corr_failed += 1,
        }
    }
    println!(
        "Aurora, {} problems (every {every}), radius 0, one run (after one untimed warm-up pass)",
        problems.len()
    );
    println!(
        "setup: polyanya mesh load {:.1} ms, corridor load + ECM build {:.1} ms",
        polyanya_load * 1e3,
        corridor_build * 1e3
    );
    for (name, times, ratios, failed) in [
        ("polyanya", &mut t_poly, &mut r_poly, poly_failed),
        ("corridor", &mut t_corr, &mut r_corr, corr_failed),
    ] {
        let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
        println!(
            "{name:<9} query ms p50 {:.4} p99 {:.4} | length/optimum mean {mean:.5} p99 {:.5} max {:.5} | failed {failed}",
            quantile(times, 0.5),
            quantile(times, 0.99),
            quantile(ratios, 0.99),
            quantile(ratios, 1.0),
        );
    }
    println!(
        "median query time ratio corridor / polyanya: {:.2}",
        quantile(&mut t_corr, 0.5) / quantile(&mut t_poly, 0.5)
    );
}
