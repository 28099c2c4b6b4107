//! Thread CPU time per query of Corridor's planner at radius 0 on a Polyanya `.mesh` and a
//! problem CSV, printed as the JSON lines of the C++ Polyanya driver (`csvdriver`), so that
//! `bench/polyanya-cpp/run.sh` can put the two side by side in one run (issue 24).
//!
//! ```text
//! cargo run --release -p corridor-ecm --example mesh_queries -- MESH CSV [REPS]
//! ```
//!
//! One untimed warm-up pass, then REPS timed passes. A query's time covers point location,
//! the search and the funnel (`Planner::plan_into` into a reused path), as the C++ driver's
//! covers `set_start_goal`, `search` and `get_path_points`.

use corridor_ecm::{CorridorPath, Ecm, PathQuery, Planner};
use corridor_testkit::{quantile, thread_cpu_time};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mesh, csv, reps) = match &args[..] {
        [m, c] => (m, c, 1),
        [m, c, r] => (m, c, r.parse::<usize>().expect("REPS is a count")),
        _ => {
            eprintln!("usage: mesh_queries MESH CSV [REPS]");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let env = corridor_io::load_environment(mesh).expect("the mesh loads");
    let ecm = Ecm::build(&env).expect("the ECM builds");
    let build_ms = started.elapsed().as_secs_f64() * 1e3;
    let problems = corridor_io::load_problems(csv).expect("the problems load");
    let queries: Vec<PathQuery> = problems
        .iter()
        .map(|p| PathQuery::new(p.start, p.goal))
        .collect();
    let mut planner = Planner::new();
    let mut path = CorridorPath::empty();
    for q in &queries {
        let _ = planner.plan_into(&ecm, q, &mut path);
    }
    println!(
        "{{\"impl\":\"corridor\",\"mesh\":\"{mesh}\",\"problems\":{},\"load_and_build_ms\":{build_ms:.3}}}",
        problems.len()
    );
    for rep in 0..reps {
        let (mut cpu, mut ratio, mut failed) = (Vec::new(), Vec::new(), 0);
        for (q, p) in queries.iter().zip(&problems) {
            let t0 = thread_cpu_time();
            let found = planner.plan_into(&ecm, q, &mut path);
            cpu.push((thread_cpu_time() - t0).as_secs_f64() * 1e3);
            match found {
                Ok(()) if p.length > 0.0 => ratio.push(path.length / p.length),
                Ok(()) => ratio.push(1.0 + path.length),
                Err(_) => failed += 1,
            }
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        let (longer, shorter) = (
            ratio.iter().filter(|r| **r > 1.0 + 5e-6).count(),
            ratio.iter().filter(|r| **r < 1.0 - 5e-6).count(),
        );
        println!(
            "{{\"impl\":\"corridor\",\"rep\":{rep},\"cpu_ms\":{{\"p50\":{:.5},\"p99\":{:.5},\"mean\":{:.5}}},\
             \"solved\":{},\"failed\":{failed},\"ratio\":{{\"mean\":{:.6},\"p99\":{:.6},\"max\":{:.6},\"min\":{:.6}}},\
             \"longer\":{longer},\"shorter\":{shorter}}}",
            quantile(&cpu, 0.5),
            quantile(&cpu, 0.99),
            mean(&cpu),
            ratio.len(),
            mean(&ratio),
            quantile(&ratio, 0.99),
            quantile(&ratio, 1.0),
            quantile(&ratio, 0.0),
        );
    }
}
