//! Runs a built-in scenario and prints its statistics and step times (the Rust side of
//! `bench/rvo2`).
//!
//! `cargo run --release -p corridor-crowd --example run -- SCENARIO [AGENTS] [STEPS] [THREADS] [route|straight] [share|alone]`
//!
//! Prints one line: agents, threads, steps, all_arrived, setup seconds (building the map
//! and placing the crowd), the first step's seconds (everyone plans then), step_ms
//! median/p99/mean of the STEPS steps after it, agent_steps_per_s, and the statistics.

use corridor_crowd::{Scenario, ScenarioKind};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("circle");
    let (kind, implied) = ScenarioKind::from_name(name).ok_or("unknown scenario")?;
    let count = args.get(1).and_then(|a| a.parse().ok()).or(implied);
    let mut scenario = Scenario::builtin(kind, count)?;
    let steps: u64 = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(scenario.steps);
    let threads: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    if args.get(4).map(String::as_str) == Some("straight") {
        scenario.options.route_following = false;
    }
    match args.get(5).map(String::as_str) {
        Some("share") => scenario.options.share_plans = true,
        Some("alone") => scenario.options.share_plans = false,
        _ => {}
    }
    let setup = Instant::now();
    let mut run = scenario.start(threads)?;
    let setup_s = setup.elapsed().as_secs_f64();
    let n = run.sim.crowd().len();
    let (first, first_cpu) = (Instant::now(), cpu_seconds());
    run.step()?;
    let first_step_s = first.elapsed().as_secs_f64();
    let first_step_cpu_s = cpu_seconds() - first_cpu;
    let steps_cpu = cpu_seconds();
    let mut ms = Vec::new();
    let mut agent_steps = 0u64;
    let mut total = 0.0;
    while (ms.len() as u64) < steps && !run.all_arrived() {
        agent_steps += run.sim.crowd().len() as u64;
        let t = Instant::now();
        run.step()?;
        let e = t.elapsed().as_secs_f64() * 1e3;
        total += e;
        ms.push(e);
    }
    let steps_cpu_s = cpu_seconds() - steps_cpu;
    run.sim.finish();
    let mut sorted = ms.clone();
    sorted.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        let at = (p / 100.0 * sorted.len() as f64).ceil() as usize;
        sorted.get(at.max(1) - 1).copied().unwrap_or(0.0)
    };
    let s = run.sim.stats();
    println!(
        "scenario={} agents={n} threads={threads} route_following={} steps={} all_arrived={} setup_s={setup_s:.2} first_step_s={first_step_s:.2} first_step_cpu_s={first_step_cpu_s:.2} steps_cpu_s={steps_cpu_s:.2} step_ms median={:.4} p99={:.4} mean={:.4} agent_steps_per_s={:.3e}",
        scenario.name,
        scenario.options.route_following,
        ms.len(),
        run.all_arrived(),
        pct(50.0),
        pct(99.0),
        total / ms.len() as f64,
        agent_steps as f64 / (total / 1e3),
    );
    // A hash of the final positions' bits: equal runs give equal hashes (a change that
    // should keep the trajectories bit-identical is checked with it).
    let hash = run
        .sim
        .crowd()
        .positions()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, p| {
            [p.x, p.y]
                .iter()
                .fold(h, |h, c| (h ^ c.to_bits()).wrapping_mul(0x0100_0000_01b3))
        });
    println!("positions_hash={hash:016x}");
    println!(
        "stats: arrived={} min_pairwise_distance={:.4} min_gap={:.4} collisions={} min_wall_gap={:.4} pushes={} undone={} plans={} replans={} shared_plans={} invalidated={} failed_plans={} pushed_out={} stuck={} mean_travel_s={:.1} mean_speed={:.3}",
        s.arrived, s.min_pairwise_distance, s.min_pairwise_gap, s.collisions, s.min_wall_gap, s.wall_pushes, s.undone_moves, s.plans, s.replans, s.shared_plans, s.invalidated, s.failed_plans, s.pushed_out, s.stuck, s.mean_travel_time(), s.mean_speed()
    );
    Ok(())
}

/// CPU seconds this process has used, all threads (Linux's /proc; NaN elsewhere): on a
/// loaded machine wall-clock seconds overstate the work.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // Fields after the command's closing parenthesis; utime and stime are the 12th and
    // 13th of them, in clock ticks (100 per second on Linux).
    let rest = stat.rsplit(')').next().unwrap_or("");
    let ticks: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|t| t.parse().ok())
        .collect();
    if ticks.len() == 2 {
        (ticks[0] + ticks[1]) / 100.0
    } else {
        f64::NAN
    }
}
