//! The Rust side of `bench/detour/run.sh`: the layered ECM of an OBJ level answers the
//! start/goal pairs Detour answered (its CSV, `--csv` of the Detour harness), for one
//! agent radius, and prints one line per level and radius: ground-plane lengths (ours and
//! Detour's on the pairs both found), who found what, and per-query time medians.
//!
//! ```sh
//! cargo run --release -p corridor-io --example detour_side -- LEVEL.obj RADIUS DETOUR.csv [DETOUR.csv ...]
//! ```
//! Several CSVs (one per radius, given as `RADIUS=FILE`) share one ECM build.

use corridor_ecm::{LayeredEcm, LayeredPlanner};
use corridor_geom::{LayerId, LayeredEnvironment, Point};
use corridor_io::obj::{read_level, WalkableOptions};
use std::time::Instant;

/// One Detour row: snapped start and goal (Y up), whether Detour reached the goal, its
/// straight path's ground length, its query time.
struct Row {
    start: [f64; 3],
    goal: [f64; 3],
    found: String,
    len2d: f64,
    t_us: f64,
}

fn read_rows(path: &str) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{path}: no column {name}"))
    };
    let (ns, ng) = (col("nsx"), col("ngx"));
    let (found, len2d, t_us) = (col("found"), col("len2d"), col("t_us"));
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let num = |k: usize| f[k].parse::<f64>().unwrap_or(f64::NAN);
            Row {
                start: [num(ns), num(ns + 1), num(ns + 2)],
                goal: [num(ng), num(ng + 1), num(ng + 2)],
                found: f[found].to_string(),
                len2d: num(len2d),
                t_us: num(t_us),
            }
        })
        .collect()
}

/// The layer under a 3D point (Y up): among the layers whose free space holds its ground
/// point, the one whose surface is nearest in height, if within `tolerance`.
fn layer_of(ecm: &LayeredEcm, q: [f64; 3], tolerance: f64) -> Option<(LayerId, Point)> {
    let p = Point::new(q[0], q[2]);
    let world: &LayeredEnvironment = ecm.world();
    world
        .layers()
        .filter(|(id, _)| ecm.locate(*id, p).is_ok())
        .map(|(id, l)| (id, (l.height_at(p) - q[1]).abs()))
        .filter(|&(_, dy)| dy <= tolerance)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(id, _)| (id, p))
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [level, runs @ ..] = &args[..] else {
        eprintln!("usage: detour_side LEVEL.obj RADIUS=DETOUR.csv [RADIUS=DETOUR.csv ...]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(level).unwrap_or_else(|e| panic!("{level}: {e}"));
    let started = Instant::now();
    let world = read_level(&text, &WalkableOptions::default())
        .unwrap_or_else(|e| panic!("{level}: {e}"))
        .into_layered();
    let layers_ms = started.elapsed().as_secs_f64() * 1e3;
    let started = Instant::now();
    let ecm = LayeredEcm::build(&world).unwrap_or_else(|e| panic!("{level}: {e}"));
    let build_ms = started.elapsed().as_secs_f64() * 1e3;
    let name = std::path::Path::new(level)
        .file_stem()
        .map_or(level.clone(), |s| s.to_string_lossy().into_owned());
    println!(
        "level={name} layers={} connections={} obj_to_layers_ms={layers_ms:.1} ecm_build_ms={build_ms:.1}",
        world.layer_count(),
        world.connections().len()
    );
    for run in runs {
        let (radius, csv) = run.split_once('=').expect("RADIUS=FILE");
        let radius: f64 = radius.parse().expect("a radius");
        let rows = read_rows(csv);
        let started = Instant::now();
        let planner = LayeredPlanner::new(&ecm, radius).unwrap_or_else(|e| panic!("{e}"));
        let planner_ms = started.elapsed().as_secs_f64() * 1e3;
        let (mut both, mut ours_only, mut detour_only, mut neither, mut off_map) = (0, 0, 0, 0, 0);
        let (mut ratios, mut our_us, mut their_us) = (Vec::new(), Vec::new(), Vec::new());
        for row in &rows {
            let detour = row.found == "complete";
            their_us.push(row.t_us);
            // Detour's snapped points are on its detail mesh, within its height error
            // of the triangles (sample distance 6, max error 1).
            let t = Instant::now();
            let ends = (
                layer_of(&ecm, row.start, 1.5),
                layer_of(&ecm, row.goal, 1.5),
            );
            let ours = match ends {
                (Some((la, a)), Some((lb, b))) => planner.plan(la, a, lb, b).ok(),
                _ => None,
            };
            our_us.push(t.elapsed().as_secs_f64() * 1e6);
            if ends.0.is_none() || ends.1.is_none() {
                off_map += 1;
            }
            match (ours, detour) {
                (Some(path), true) => {
                    both += 1;
                    if row.len2d > 0.0 {
                        ratios.push(path.length / row.len2d);
                    }
                }
                (Some(_), false) => ours_only += 1,
                (None, true) => detour_only += 1,
                (None, false) => neither += 1,
            }
        }
        let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
        let shorter = ratios.iter().filter(|&&r| r < 1.0).count();
        println!(
            "level={name} radius={radius} pairs={} both={both} ours_only={ours_only} detour_only={detour_only} neither={neither} \
             endpoint_on_no_layer={off_map} length_ratio_mean={mean:.4} ours_shorter={shorter}/{} \
             planner_setup_ms={planner_ms:.1} query_us_median ours={:.1} detour={:.2}",
            rows.len(),
            ratios.len(),
            median(&mut our_us),
            median(&mut their_us)
        );
    }
}
