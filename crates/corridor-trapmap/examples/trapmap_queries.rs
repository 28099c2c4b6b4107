//! Query times of the trapezoidal map's roadmap planner on the shared maps (issue 4),
//! without building the visibility graphs the full benchmark also builds.
//!
//! ```text
//! cargo run --release -p corridor-trapmap --example trapmap_queries -- [--queries Q] [--map NAME]
//! ```
//!
//! For every `data/movingai/*.map` (with its `.scen`) and the Polyanya Aurora
//! mesh (with `aurora-euclidean.csv`): builds the map once, then times
//! `TrapezoidalMap::path` on at most Q problems (default 500) evenly spaced through the
//! file, each alone, by the CPU time of the thread. Prints one markdown row per map:
//! roadmap nodes, build ms, queries, paths found, and p50 / p99 / max query ms.

use corridor_testkit::thread_cpu_time;
use corridor_trapmap::TrapezoidalMap;
use std::path::PathBuf;

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut queries, mut filter) = (500usize, None::<String>);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match (arg.as_str(), it.next()) {
            ("--queries", Some(v)) => match v.parse() {
                Ok(q) => queries = q,
                Err(_) => {
                    eprintln!("bad --queries {v:?}");
                    std::process::exit(2);
                }
            },
            ("--map", Some(v)) => filter = Some(v.to_lowercase()),
            _ => {
                eprintln!("usage: trapmap_queries [--queries Q] [--map NAME]");
                std::process::exit(2);
            }
        }
    }
    let data = corridor_testkit::data_dir();
    let mut inputs: Vec<(PathBuf, PathBuf)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(data.join("movingai")) {
        let mut maps: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "map"))
            .collect();
        maps.sort();
        for m in maps {
            let scen = PathBuf::from(format!("{}.scen", m.display()));
            inputs.push((m, scen));
        }
    }
    inputs.push((
        data.join("polyanya/aurora.mesh"),
        data.join("polyanya/aurora-euclidean.csv"),
    ));
    println!("| map | roadmap nodes | build ms | queries | paths | p50 ms | p99 ms | max ms |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (map, scen) in inputs {
        let name = map
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        if filter
            .as_ref()
            .is_some_and(|f| !name.to_lowercase().contains(f))
        {
            continue;
        }
        let env = match corridor_io::load_environment(&map) {
            Ok(env) => env,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let problems = match corridor_io::load_point_pairs(&scen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{}: {e}", scen.display());
                continue;
            }
        };
        let t = thread_cpu_time();
        let tm = match TrapezoidalMap::build(&env) {
            Ok(tm) => tm,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let build_ms = (thread_cpu_time() - t).as_secs_f64() * 1e3;
        let step = problems.len().div_ceil(queries.max(1)).max(1);
        let (mut times, mut found) = (Vec::new(), 0);
        for &(s, g) in problems.iter().step_by(step) {
            let t = thread_cpu_time();
            let result = tm.path(s, g);
            times.push((thread_cpu_time() - t).as_secs_f64() * 1e3);
            found += usize::from(result.is_ok());
        }
        times.sort_by(f64::total_cmp);
        println!(
            "| {name} | {} | {build_ms:.1} | {} | {found} | {:.3} | {:.3} | {:.3} |",
            tm.roadmap().nodes().len(),
            times.len(),
            quantile(&times, 0.5),
            quantile(&times, 0.99),
            times.last().copied().unwrap_or(f64::NAN)
        );
    }
}
