//! Pair by pair: why is one of our layered paths longer than Detour's on the same pair?
//! For one OBJ level and one agent radius, reads Detour's per-query CSV and its straight
//! paths (`--csv`, `--paths` of the Detour harness), plans the same pairs on our layered
//! ECM, and prints the `K` pairs where ours is longest relative to Detour's, each with:
//! * `oracle0`: the exact layered shortest path at radius 0 on *our* layers (the
//!   independent visibility-graph oracle of the test kit), a lower bound for any radius;
//! * `off`: how much of Detour's path (ground length, sampled every 0.05) is not on our
//!   walkable ground (no layer whose free space holds the point within 1.5 in height),
//!   and where that stretch starts;
//! * `ours0`: our own path at radius 0 on the same pair (so `ours / ours0` is what the
//!   radius costs, `ours0 / oracle0` what the planner loses);
//! * the connections we cross.
//!
//! When Detour's path is shorter than `oracle0`, no planner on our layers can match it:
//! Detour walks where our layers do not (an extraction gap or a semantic difference);
//! when `oracle0` ≤ Detour's but our radius-`r` path is longer, the gap is ours to plan
//! (or the radius). With `--svg DIR` each worst pair is drawn on every layer a path visits
//! (ours orange, the oracle's green, Detour's purple, over the layer's ECM).
//!
//! ```sh
//! cargo run --release -p corridor-io --example detour_pairs -- LEVEL.obj RADIUS DETOUR.csv PATHS.csv [K] [--svg DIR]
//! ```

use corridor_ecm::{LayeredEcm, LayeredPlanner};
use corridor_geom::{LayerId, LayeredEnvironment, Point};
use corridor_io::obj::{read_level, WalkableOptions};
use corridor_io::svg::{Style, SvgDocument};
use corridor_testkit::layered_oracle::{in_closed_free_space, LayeredVisibility};
use std::collections::BTreeMap;

/// Detour's snapped start and goal (Y up), whether it reached the goal, its ground
/// length.
struct Row {
    id: usize,
    start: [f64; 3],
    goal: [f64; 3],
    complete: bool,
    len2d: f64,
}

fn csv(path: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines().filter(|l| !l.is_empty());
    let header = lines.next().unwrap_or("").split(',').map(String::from);
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (header.collect(), rows)
}

fn read_rows(path: &str) -> Vec<Row> {
    let (header, rows) = csv(path);
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let (id, ns, ng, found, len2d) = (
        col("id"),
        col("nsx"),
        col("ngx"),
        col("found"),
        col("len2d"),
    );
    rows.iter()
        .map(|f| {
            let num = |k: usize| f[k].parse::<f64>().unwrap_or(f64::NAN);
            Row {
                id: f[id].parse().unwrap_or(usize::MAX),
                start: [num(ns), num(ns + 1), num(ns + 2)],
                goal: [num(ng), num(ng + 1), num(ng + 2)],
                complete: f[found] == "complete",
                len2d: num(len2d),
            }
        })
        .collect()
}

/// Detour's straight paths by query id, as 3D points (Y up).
fn read_paths(path: &str) -> BTreeMap<usize, Vec<[f64; 3]>> {
    let (_, rows) = csv(path);
    let mut out: BTreeMap<usize, Vec<[f64; 3]>> = BTreeMap::new();
    for f in rows {
        let num = |k: usize| f[k].parse::<f64>().unwrap_or(f64::NAN);
        out.entry(num(0) as usize)
            .or_default()
            .push([num(2), num(3), num(4)]);
    }
    out
}

/// The layer whose free space holds the ground point of `q` and whose surface is
/// nearest in height, within `tolerance`.
fn layer_of(world: &LayeredEnvironment, q: [f64; 3], tolerance: f64) -> Option<(LayerId, Point)> {
    let p = Point::new(q[0], q[2]);
    world
        .layers()
        .filter(|(_, l)| in_closed_free_space(&l.environment, p))
        .map(|(id, l)| (id, (l.height_at(p) - q[1]).abs()))
        .filter(|&(_, dy)| dy <= tolerance)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(id, _)| (id, p))
}

/// Detour's path sampled every `step` along the ground: each sample with its layer
/// (`None`: on no layer of ours).
fn samples(
    world: &LayeredEnvironment,
    path: &[[f64; 3]],
    step: f64,
) -> Vec<(Option<LayerId>, Point)> {
    let mut out = Vec::new();
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = Point::new(a[0], a[2]).distance(Point::new(b[0], b[2]));
        let n = (len / step).ceil().max(1.0) as usize;
        for k in 0..n {
            let t = k as f64 / n as f64;
            let q = [0, 1, 2].map(|i| a[i] + (b[i] - a[i]) * t);
            out.push((layer_of(world, q, 1.5).map(|x| x.0), Point::new(q[0], q[2])));
        }
    }
    if let Some(&q) = path.last() {
        out.push((layer_of(world, q, 1.5).map(|x| x.0), Point::new(q[0], q[2])));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let svg_dir = args
        .iter()
        .position(|a| a == "--svg")
        .and_then(|i| args.get(i + 1).cloned());
    let plain: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| *a != "--svg" && (*i == 0 || args[i - 1] != "--svg"))
        .map(|(_, a)| a)
        .collect();
    let [level, radius, table, paths, rest @ ..] = &plain[..] else {
        eprintln!("usage: detour_pairs LEVEL.obj RADIUS DETOUR.csv PATHS.csv [K] [--svg DIR]");
        std::process::exit(2);
    };
    let radius: f64 = radius.parse().expect("a radius");
    let worst: usize = rest.first().map_or(10, |k| k.parse().expect("K"));
    let text = std::fs::read_to_string(level).unwrap_or_else(|e| panic!("{level}: {e}"));
    let level_data =
        read_level(&text, &WalkableOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for e in level_data.rejected_connections() {
        println!("refused joint: {e}");
    }
    let world = level_data.into_layered();
    // Connections too short for a crossing at this radius (the planner crosses at
    // least r from a connection's ends).
    let lengths: Vec<f64> = world
        .connections()
        .map(|(_, c)| c.segment.a.distance(c.segment.b))
        .collect();
    let short = lengths.iter().filter(|&&l| l <= 2.0 * radius).count();
    println!(
        "layers={} connections={} total_length={:.2} shorter_than_2r={short} (their length {:.2})",
        world.layer_count(),
        lengths.len(),
        lengths.iter().sum::<f64>(),
        lengths.iter().filter(|&&l| l <= 2.0 * radius).sum::<f64>()
    );
    let ecm = LayeredEcm::build(&world).unwrap_or_else(|e| panic!("{e}"));
    let planner = LayeredPlanner::new(&ecm, radius).unwrap_or_else(|e| panic!("{e}"));
    let oracle = LayeredVisibility::new(&world);
    // Our own radius-0 path on the same pair separates the radius's share of the length
    // from the planner's (ours at r = 0 against the oracle).
    let point_planner =
        (radius > 0.0).then(|| LayeredPlanner::new(&ecm, 0.0).unwrap_or_else(|e| panic!("{e}")));
    let detour_paths = read_paths(paths);
    let mut pairs = Vec::new();
    for row in read_rows(table).into_iter().filter(|r| r.complete) {
        let (Some((la, a)), Some((lb, b))) = (
            layer_of(&world, row.start, 1.5),
            layer_of(&world, row.goal, 1.5),
        ) else {
            continue;
        };
        if let Ok(path) = planner.plan(la, a, lb, b) {
            pairs.push((path.length / row.len2d, row, path, (la, a, lb, b)));
        }
    }
    pairs.sort_by(|x, y| y.0.total_cmp(&x.0));
    let ratios: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    println!(
        "radius={radius} pairs={} mean={:.4} above_1.05={}",
        ratios.len(),
        ratios.iter().sum::<f64>() / ratios.len().max(1) as f64,
        ratios.iter().filter(|&&r| r > 1.05).count()
    );
    for (ratio, row, path, (la, a, lb, b)) in pairs.iter().take(worst) {
        let oracle_path = oracle.shortest_path(*la, *a, *lb, *b);
        let oracle0 = oracle_path.as_ref().map(|o| o.0);
        let mut oracle_layers: Vec<u32> = oracle_path
            .iter()
            .flat_map(|o| o.1.iter().map(|x| x.0 .0))
            .collect();
        oracle_layers.dedup();
        let ours0 = point_planner.as_ref().map_or(Some(path.length), |p| {
            p.plan(*la, *a, *lb, *b).ok().map(|p| p.length)
        });
        let detour = detour_paths.get(&row.id).cloned().unwrap_or_default();
        let walk = samples(&world, &detour, 0.05);
        let off = walk.iter().filter(|s| s.0.is_none()).count() as f64 * 0.05;
        let first_off = walk.iter().find(|s| s.0.is_none()).map(|s| s.1);
        // Where Detour's path passes from one of our layers to another with no
        // connection of ours between them there (a joint we miss).
        let jumps: Vec<(u32, u32, Point)> = walk
            .windows(2)
            .filter_map(|w| match (w[0].0, w[1].0) {
                (Some(x), Some(y)) if x != y => {
                    let joined = world.connections().any(|(_, c)| {
                        c.layers.contains(&x)
                            && c.layers.contains(&y)
                            && c.segment.distance(w[1].1) < 0.2
                    });
                    (!joined).then_some((x.0, y.0, w[1].1))
                }
                _ => None,
            })
            .collect();
        println!(
            "id={} ratio={ratio:.4} ours={:.3} detour={:.3} oracle0={} ours0={} layers={}->{} crossings={:?} oracle_layers={oracle_layers:?} detour_off_layers={off:.2} first_off={first_off:?} detour_unjoined_steps={jumps:?}",
            row.id,
            path.length,
            row.len2d,
            oracle0.map_or("none".into(), |o| format!("{o:.3}")),
            ours0.map_or("none".into(), |o| format!("{o:.3}")),
            la,
            lb,
            path.crossings.iter().map(|c| c.0).collect::<Vec<_>>(),
        );
        if let Some(dir) = &svg_dir {
            // One picture per layer that any of the three paths visits: that layer's
            // free space and ECM, ours (orange), the oracle's at r = 0 (green),
            // Detour's (purple).
            let mut visited: Vec<LayerId> = path.steps.iter().map(|s| s.layer).collect();
            visited.extend(oracle_layers.iter().map(|&l| LayerId(l)));
            visited.extend(walk.iter().filter_map(|s| s.0));
            visited.sort();
            visited.dedup();
            for layer in visited {
                let env = &world.layer(layer).expect("a layer").environment;
                let mut picture = SvgDocument::of_environment(env, false);
                picture.add_ecm(ecm.layer(layer).expect("a layer"));
                for step in path.steps.iter().filter(|s| s.layer == layer) {
                    picture
                        .layer("ours", Style::stroke("#e6a700", 3.0))
                        .polyline(&step.path.points);
                }
                if let Some((_, points)) = &oracle_path {
                    for run in points
                        .chunk_by(|x, y| x.0 == y.0)
                        .filter(|r| r[0].0 == layer)
                    {
                        let run: Vec<Point> = run.iter().map(|x| x.1).collect();
                        picture
                            .layer("oracle", Style::stroke("#2a9d8f", 2.0))
                            .polyline(&run);
                    }
                }
                for run in walk
                    .chunk_by(|x, y| x.0 == y.0)
                    .filter(|r| r[0].0 == Some(layer))
                {
                    let run: Vec<Point> = run.iter().map(|x| x.1).collect();
                    picture
                        .layer("detour", Style::stroke("#7b2cbf", 2.0))
                        .polyline(&run);
                }
                let file = format!("{dir}/pair-{}-r{radius}-{layer}.svg", row.id);
                picture
                    .write(&file)
                    .unwrap_or_else(|e| panic!("{file}: {e}"));
            }
        }
    }
}
