//! How much slower a query with a radius is than the same query at r = 0 (issue 24:
//! median at most 1.5×), on one map's Moving AI scenarios.
//!
//! ```text
//! cargo run --release -p corridor-ecm --example radius_ratio -- MAP SCEN [R ...] [--every N]
//! ```
//!
//! Every scenario (or every N-th) is planned at r = 0 and at each radius R (default 0.25
//! and 0.5) in turn, one planner per radius, so that machine load falls on all radii
//! alike; the wall-clock median, p90 and their ratios to r = 0 are printed, with the
//! median of the per-query ratios. The same figures in thread CPU time follow: on a
//! loaded machine a query that runs longer than the scheduler's slice waits for the
//! other processes, and wall-clock medians then measure the load, not the planner.

use corridor_ecm::{Ecm, PathQuery, Planner};
use corridor_testkit::thread_cpu_time;
use std::time::Instant;

fn q(sorted: &[f64], f: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * f).round() as usize]
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let every = match args.iter().position(|a| a == "--every") {
        Some(i) => {
            let n: usize = args[i + 1].parse().expect("--every N");
            args.drain(i..i + 2);
            n.max(1)
        }
        None => 1,
    };
    let [map, scen, radii @ ..] = &args[..] else {
        eprintln!("usage: radius_ratio MAP SCEN [R ...] [--every N]");
        std::process::exit(2);
    };
    let mut radii: Vec<f64> = radii.iter().map(|r| r.parse().expect("R")).collect();
    if radii.is_empty() {
        radii = vec![0.25, 0.5];
    }
    radii.insert(0, 0.0);
    let env = corridor_io::load_environment(map).expect("map");
    let text = std::fs::read_to_string(scen).expect("scen");
    let scenarios = corridor_io::read_scenarios(&text).expect("scenarios");
    let ecm = Ecm::build(&env).expect("ECM");
    let mut planners: Vec<Planner> = radii.iter().map(|_| Planner::new()).collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); radii.len()];
    let mut cpu: Vec<Vec<f64>> = vec![Vec::new(); radii.len()];
    let mut failed = vec![0usize; radii.len()];
    // Warm the planners' buffers and caches on the first scenario.
    if let Some(s) = scenarios.first() {
        for (planner, &r) in planners.iter_mut().zip(&radii) {
            let query = PathQuery::new(s.start_point(), s.goal_point()).with_radius(r);
            let _ = planner.plan(&ecm, &query);
        }
    }
    for s in scenarios.iter().step_by(every) {
        for (k, (planner, &r)) in planners.iter_mut().zip(&radii).enumerate() {
            let query = PathQuery::new(s.start_point(), s.goal_point()).with_radius(r);
            let (at, cpu_at) = (Instant::now(), thread_cpu_time());
            let found = planner.plan(&ecm, &query);
            cpu[k].push((thread_cpu_time() - cpu_at).as_secs_f64() * 1e3);
            times[k].push(at.elapsed().as_secs_f64() * 1e3);
            failed[k] += usize::from(found.is_err());
        }
    }
    println!("{map}: {} queries", times[0].len());
    report("wall clock", &radii, &mut times, &failed);
    report("thread CPU", &radii, &mut cpu, &failed);
}

/// Prints each radius's median and p90 of `times` (ms, one list per radius, r = 0
/// first) and their ratios to r = 0.
fn report(what: &str, radii: &[f64], times: &mut [Vec<f64>], failed: &[usize]) {
    println!(" {what}:");
    let per_query: Vec<Vec<f64>> = (1..radii.len())
        .map(|k| {
            let mut ratios: Vec<f64> = times[k]
                .iter()
                .zip(&times[0])
                .map(|(t, t0)| t / t0)
                .collect();
            ratios.sort_by(f64::total_cmp);
            ratios
        })
        .collect();
    for t in times.iter_mut() {
        t.sort_by(f64::total_cmp);
    }
    let (p50, p90) = (q(&times[0], 0.5), q(&times[0], 0.9));
    for (k, r) in radii.iter().enumerate() {
        let (m, n) = (q(&times[k], 0.5), q(&times[k], 0.9));
        let ratio = if k == 0 {
            String::new()
        } else {
            format!(
                ", ratio p50 {:.2}, p90 {:.2}, per-query median {:.2}",
                m / p50,
                n / p90,
                q(&per_query[k - 1], 0.5)
            )
        };
        println!(
            "  r = {r}: p50 {m:.4} ms, p90 {n:.4} ms, failed {}{ratio}",
            failed[k]
        );
    }
}
