//! `corridor simulate`: run a crowd scenario (built in, or a versioned JSON file) and
//! report what happened: arrivals, speeds, the closest approach between characters and
//! to walls, collisions, re-plans and step times; optionally the trails as SVG and every
//! position as CSV.

use crate::environment_arg::write;
use crate::error::CliError;
use crate::progress;
use corridor::crowd::{Phase, Scenario, ScenarioKind};
use corridor_geom::Point;
use corridor_io::svg::{Style, SvgDocument};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// What `corridor simulate` was asked for.
pub struct SimulateArgs<'a> {
    /// A built-in scenario's name or a scenario file.
    pub scenario: &'a str,
    /// Characters (built-in scenarios only).
    pub agents: Option<usize>,
    /// Steps (default: the scenario's).
    pub steps: Option<u64>,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Follow straight lines to the goals instead of ECM routes.
    pub straight: bool,
    /// Picture of the trails.
    pub svg: Option<&'a Path>,
    /// Every position at every step.
    pub csv: Option<&'a Path>,
    /// One JSON object instead of text.
    pub json: bool,
}

/// Most points drawn in the trails picture (longer runs are sampled).
const TRAIL_POINTS: u64 = 400_000;

fn load(args: &SimulateArgs) -> Result<Scenario, CliError> {
    if let Some((kind, implied)) = ScenarioKind::from_name(args.scenario) {
        let _spinner = progress::spinner(format!("placing the characters of {}", kind.name()));
        return Ok(Scenario::builtin(kind, args.agents.or(implied))?);
    }
    let path = Path::new(args.scenario);
    if !path.exists() {
        let names: Vec<&str> = ScenarioKind::ALL.iter().map(|k| k.name()).collect();
        return Err(CliError::Usage(format!(
            "{}: neither a file nor a built-in scenario ({}, circle-5k, circle-50k)",
            args.scenario,
            names.join(", ")
        )));
    }
    if args.agents.is_some() {
        return Err(CliError::Usage(
            "--agents applies to built-in scenarios; a file lists its characters".into(),
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|source| CliError::Io {
        path: args.scenario.into(),
        source,
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    Ok(Scenario::from_json(&text, base)?)
}

/// Runs the scenario and prints the statistics.
pub fn run(args: &SimulateArgs) -> Result<(), CliError> {
    let mut scenario = load(args)?;
    if args.straight {
        scenario.options.route_following = false;
    }
    let setup = Instant::now();
    let mut run = {
        let _spinner = progress::spinner("building the map");
        scenario.start(args.threads)?
    };
    let setup_s = setup.elapsed().as_secs_f64();
    let steps = args.steps.unwrap_or(run.steps);
    let agents = run.sim.crowd().len();
    let mut csv = match args.csv {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|source| CliError::Io {
                path: path.display().to_string(),
                source,
            })?;
            let mut out = std::io::BufWriter::new(file);
            writeln!(out, "step,time,id,x,y,vx,vy").map_err(|e| io_error(path, e))?;
            Some((out, path))
        }
        None => None,
    };
    let every = (agents as u64 * steps / TRAIL_POINTS).max(1);
    let mut trails: BTreeMap<u64, Vec<Point>> = BTreeMap::new();
    let bar = progress::bar(steps, "{bar:40} {pos}/{len} steps {msg} {elapsed}");
    let mut step_ms = Vec::with_capacity(steps as usize);
    let mut agent_steps = 0u64;
    while (step_ms.len() as u64) < steps && !run.all_arrived() {
        agent_steps += run.sim.crowd().len() as u64;
        let t = Instant::now();
        run.step()?;
        step_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let k = run.sim.stats().steps;
        let crowd = run.sim.crowd();
        if let Some((out, path)) = csv.as_mut() {
            let time = run.sim.time();
            for ((id, p), v) in crowd
                .ids()
                .iter()
                .zip(crowd.positions())
                .zip(crowd.velocities())
            {
                writeln!(out, "{k},{time},{},{},{},{},{}", id.0, p.x, p.y, v.x, v.y)
                    .map_err(|e| io_error(path, e))?;
            }
        }
        if args.svg.is_some() && (k % every == 0 || k == 1) {
            for (id, p) in crowd.ids().iter().zip(crowd.positions()) {
                trails.entry(id.0).or_default().push(*p);
            }
        }
        bar.inc(1);
        if k % 20 == 0 {
            let arrived = crowd
                .phases()
                .iter()
                .filter(|&&p| p == Phase::Arrived)
                .count();
            bar.set_message(format!("{arrived}/{} arrived", crowd.len()));
        }
    }
    bar.finish_and_clear();
    if let Some((mut out, path)) = csv {
        out.flush().map_err(|e| io_error(path, e))?;
    }
    run.sim.finish();
    if let Some(path) = args.svg {
        write(
            path,
            &trails_svg(&scenario, &trails, run.sim.crowd().radii()),
        )?;
    }
    report(
        args,
        &scenario,
        &run,
        &step_ms,
        agent_steps,
        agents,
        setup_s,
    );
    Ok(())
}

fn io_error(path: &Path, source: std::io::Error) -> CliError {
    CliError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The environment, each character's trail (coloured by its start) and where it ended.
fn trails_svg(scenario: &Scenario, trails: &BTreeMap<u64, Vec<Point>>, radii: &[f64]) -> String {
    let mut doc =
        SvgDocument::of_environment(&scenario.environment, false).with_title(&scenario.name);
    let width = 0.0015 * doc.view().size().max_element();
    let colours = [
        "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    ];
    for (k, colour) in colours.iter().enumerate() {
        let layer = doc.layer(
            &format!("trails-{k}"),
            Style::stroke(colour, 0.8).with_opacity(0.7),
        );
        for (id, trail) in trails {
            if *id as usize % colours.len() == k && trail.len() > 1 {
                layer.polyline(trail);
            }
        }
    }
    let radius = radii.iter().copied().fold(width, f64::max);
    let ends = doc.layer("characters", Style::filled("#333333", "none", 0.0));
    for trail in trails.values() {
        if let Some(&p) = trail.last() {
            ends.circle(p, radius);
        }
    }
    doc.render()
}

fn report(
    args: &SimulateArgs,
    scenario: &Scenario,
    run: &corridor::crowd::Run,
    step_ms: &[f64],
    agent_steps: u64,
    agents: usize,
    setup_s: f64,
) {
    let s = run.sim.stats();
    let mut sorted = step_ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        if sorted.is_empty() {
            return 0.0;
        }
        sorted[((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1]
    };
    let total_s: f64 = step_ms.iter().sum::<f64>() / 1e3;
    let per_s = agent_steps as f64 / total_s.max(1e-12);
    let finite = |x: f64| if x.is_finite() { Some(x) } else { None };
    if args.json {
        let value = serde_json::json!({
            "scenario": scenario.name,
            "agents": agents,
            "threads": run.sim.options().threads,
            "route_following": run.sim.options().route_following,
            "steps": s.steps,
            "time_s": s.time,
            "all_arrived": run.all_arrived(),
            "arrived": s.arrived,
            "removed": s.removed,
            "mean_travel_s": s.mean_travel_time(),
            "max_travel_s": s.travel_time_max,
            "mean_speed": s.mean_speed(),
            "min_pairwise_distance": finite(s.min_pairwise_distance),
            "min_pairwise_gap": finite(s.min_pairwise_gap),
            "collisions": s.collisions,
            "min_wall_gap": finite(s.min_wall_gap),
            "wall_pushes": s.wall_pushes,
            "undone_moves": s.undone_moves,
            "plans": s.plans,
            "replans": s.replans,
            "shared_plans": s.shared_plans,
            "invalidated": s.invalidated,
            "failed_plans": s.failed_plans,
            "changes": s.changes,
            "pushed_out": s.pushed_out,
            "stuck": s.stuck,
            "setup_s": setup_s,
            "step_ms": {"median": pct(0.5), "p99": pct(0.99), "mean": total_s * 1e3 / step_ms.len().max(1) as f64},
            "agent_steps_per_s": per_s,
        });
        println!("{value}");
        return;
    }
    println!(
        "{}: {agents} characters, {} steps ({:.1} s simulated), {} threads, route following {}",
        scenario.name,
        s.steps,
        s.time,
        run.sim.options().threads,
        if run.sim.options().route_following {
            "on"
        } else {
            "off"
        }
    );
    println!(
        "arrived {} ({} left the map); travel time mean {:.1} s, max {:.1} s; mean speed {:.2} m/s",
        s.arrived,
        s.removed,
        s.mean_travel_time(),
        s.travel_time_max,
        s.mean_speed()
    );
    println!(
        "closest approach {:.3} m between centres (gap {:.3} m); overlapping pairs {} (summed over substeps)",
        s.min_pairwise_distance, s.min_pairwise_gap, s.collisions
    );
    println!(
        "closest to a wall: {:.4} m beyond the radius; pushed back {}, moves undone {}",
        s.min_wall_gap, s.wall_pushes, s.undone_moves
    );
    println!(
        "plans {} (re-plans {}, after obstacle changes {}, joined a group's {}, failed {}); obstacle changes {}, characters pushed out {}, stuck {}",
        s.plans, s.replans, s.invalidated, s.shared_plans, s.failed_plans, s.changes, s.pushed_out, s.stuck
    );
    println!(
        "setup {setup_s:.2} s; step {:.3} ms median, {:.3} ms p99; {per_s:.3e} agent-steps/s",
        pct(0.5),
        pct(0.99)
    );
}
