//! Benchmark of the visibility graphs and the trapezoidal map (issue 4): build time and
//! memory against n for the naive full graph, the sweep's full and reduced graphs, the
//! triangular expansion's full and reduced graphs (the default) and the trapezoidal map, and query times of both planners on the shared
//! problems. It lives in `corridor-trapmap` because that crate depends on
//! `corridor-visgraph`, so one harness times every structure in one run.
//!
//! A plain `fn main` harness (`harness = false`):
//!
//! ```text
//! cargo bench -p corridor-trapmap --bench build                            # everything
//! cargo bench -p corridor-trapmap --bench build -- --sizes 100,1k,10k      # synthetic only
//! cargo bench -p corridor-trapmap --bench build -- --maps                  # Moving AI + Polyanya
//! cargo bench -p corridor-trapmap --bench build -- --anyangle              # the 83 mazes
//! cargo bench -p corridor-trapmap --bench build -- --sizes 100,300,1k,3k,10k \
//!     --svg docs/images/visgraph-trapmap-build.svg                         # with the plot
//! ```
//!
//! Options: `--sizes LIST` (target numbers of free-space vertices, `k` suffix allowed),
//! `--maps` (every `data/movingai/*.map` and `data/polyanya/*.mesh`),
//! `--map NAME` (only maps whose file name contains NAME; implies `--maps`), `--anyangle`
//! (the 83 any-angle mazes, each built once, reported as one aggregate row), `--reps N`,
//! `--seed S`, `--queries Q` (at most Q problems per map, evenly spaced; default 500),
//! `--naive-limit S` / `--full-limit S` (skip the naive / full sweep graph where its
//! predicted build time exceeds S seconds; defaults 30 and 60), `--svg PATH` (a log-log
//! plot of build time against n for the synthetic sizes; a relative path is taken from
//! the workspace root). With none of `--sizes`,
//! `--maps`, `--anyangle` it runs the sizes 100, 300, 1k, 3k, 10k, every map and the
//! mazes. Without cargo's `--bench` flag (as under `cargo test --benches`) it only runs a
//! tiny smoke case.
//!
//! n is the number of vertices of the free space ([`FreeSpace::vertices`]: obstacle and
//! boundary corners after touching obstacles are merged). Synthetic inputs come from
//! [`corridor_testkit::random::random_environment`] with polygon obstacles only, their
//! number and size scaled so that the density stays the same and n is close to the
//! target (overlapping obstacles are unioned by `corridor_geom::normalize`, as in any
//! build).
//!
//! Method: the free space is built (and timed) first; every structure is then built
//! from a clone of it (the clone is not timed), so the structure columns are the
//! structures' own construction. Times are the benchmark thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`, which leaves out waiting for a core on a shared machine)
//! with the wall clock beside them; builds under 20 ms are timed in batches; medians of
//! the samples are reported. A structure whose predicted time (from the last measured
//! one, scaled by n³ for the naive and n² for the full sweep) exceeds its limit is
//! skipped. Memory is counted from the structures' vectors (`memory_bytes`). Queries are
//! timed one by one (CPU time) on the reduced graph and on the trapezoidal map.

use corridor_geom::{Environment, Point};
use corridor_testkit::random::{random_environment, ObstacleMix, RandomEnvironmentOptions};
use corridor_testkit::thread_cpu_time;
use corridor_trapmap::TrapezoidalMap;
use corridor_visgraph::{Construction, FreeSpace, GraphKind, GraphOptions, VisibilityGraph};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A first build slower than this is timed once.
const SLOW_RUN: Duration = Duration::from_secs(30);

struct Options {
    sizes: Vec<usize>,
    maps: bool,
    map_filter: Option<String>,
    anyangle: bool,
    reps: Option<usize>,
    seed: u64,
    queries: usize,
    naive_limit: f64,
    full_limit: f64,
    svg: Option<PathBuf>,
}

fn parse_size(s: &str) -> Result<usize, String> {
    let s = s.trim().to_ascii_lowercase();
    let (digits, factor) = match s.strip_suffix('k') {
        Some(d) => (d, 1_000),
        None => (s.as_str(), 1),
    };
    digits
        .parse::<f64>()
        .map(|n| (n * factor as f64).round() as usize)
        .map_err(|_| format!("not a size: {s:?} (use e.g. 100,1k,10k)"))
}

fn parse_args() -> Result<Option<Options>, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then smoke-test.
    let benching = args.iter().any(|a| a == "--bench");
    let mut o = Options {
        sizes: Vec::new(),
        maps: false,
        map_filter: None,
        anyangle: false,
        reps: None,
        seed: 1,
        queries: 500,
        naive_limit: 30.0,
        full_limit: 60.0,
        svg: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let number = |name: &str, v: String| -> Result<f64, String> {
            v.parse().map_err(|_| format!("bad {name} {v:?}"))
        };
        match arg.as_str() {
            "--bench" => {}
            "--sizes" => {
                for s in value("--sizes")?.split(',').filter(|s| !s.is_empty()) {
                    o.sizes.push(parse_size(s)?);
                }
            }
            "--maps" => o.maps = true,
            "--map" => {
                o.maps = true;
                o.map_filter = Some(value("--map")?);
            }
            "--anyangle" => o.anyangle = true,
            "--reps" => o.reps = Some(number("--reps", value("--reps")?)? as usize),
            "--seed" => o.seed = number("--seed", value("--seed")?)? as u64,
            "--queries" => o.queries = number("--queries", value("--queries")?)? as usize,
            "--naive-limit" => o.naive_limit = number("--naive-limit", value("--naive-limit")?)?,
            "--full-limit" => o.full_limit = number("--full-limit", value("--full-limit")?)?,
            "--svg" => o.svg = Some(PathBuf::from(value("--svg")?)),
            "-h" | "--help" => {
                println!(
                    "usage: cargo bench -p corridor-trapmap --bench build -- [--sizes 100,300,1k,3k,10k] \
                     [--maps] [--map NAME] [--anyangle] [--reps N] [--seed S] [--queries Q] \
                     [--naive-limit S] [--full-limit S] [--svg PATH]"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    if !benching {
        return Ok(None);
    }
    if o.sizes.is_empty() && !o.maps && !o.anyangle {
        o.sizes = vec![100, 300, 1_000, 3_000, 10_000];
        o.maps = true;
        o.anyangle = true;
    }
    Ok(Some(o))
}

/// Wall and thread-CPU clocks started together.
struct Clock {
    wall: Instant,
    cpu: Duration,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    /// (wall ms, CPU ms) per item of a batch of `n`.
    fn per(&self, n: usize) -> (f64, f64) {
        let wall = self.wall.elapsed().as_secs_f64() * 1e3 / n as f64;
        let cpu = (thread_cpu_time() - self.cpu).as_secs_f64() * 1e3 / n as f64;
        (wall, cpu)
    }
}

/// The `q`-quantile (nearest rank) of sorted values.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Builds per timed sample for a build that took `first`: at least 20 ms per sample.
fn batch_for(first: Duration) -> usize {
    let target = 0.020;
    let t = first.as_secs_f64().max(1e-7);
    if t >= target {
        1
    } else {
        ((target / t).ceil() as usize).min(500)
    }
}

fn reps_for(first: Duration, fixed: Option<usize>) -> usize {
    if first > SLOW_RUN {
        return 1;
    }
    fixed.unwrap_or(if first.as_secs_f64() < 2.0 { 5 } else { 3 })
}

/// One timed structure.
#[derive(Clone, Debug, Default)]
struct Timed {
    reps: usize,
    batch: usize,
    /// Median (wall ms, CPU ms).
    wall: f64,
    cpu: f64,
    /// Nodes (graphs) or trapezoids (map).
    count: usize,
    /// Edges (graphs) or DAG nodes (map).
    links: usize,
    /// DAG depth (map only).
    depth: usize,
    /// Bytes of the structure alone (without its free space).
    bytes: usize,
}

/// Times `build` (which must consume its own copy of the input, prepared untimed by
/// `prepare`), returning the last result for inspection.
fn time<I, T>(
    prepare: impl Fn() -> I,
    build: impl Fn(I) -> T,
    fixed_reps: Option<usize>,
) -> (Timed, T) {
    let input = prepare();
    let clock = Instant::now();
    let first = build(input);
    let first_time = clock.elapsed();
    let reps = reps_for(first_time, fixed_reps);
    let batch = batch_for(first_time);
    let (mut walls, mut cpus) = (Vec::new(), Vec::new());
    let mut last = Some(first);
    if first_time <= SLOW_RUN {
        last = None;
        for _ in 0..reps {
            let inputs: Vec<I> = (0..batch).map(|_| prepare()).collect();
            let clock = Clock::start();
            let mut out = None;
            for i in inputs {
                out = Some(black_box(build(i)));
            }
            let (w, c) = clock.per(batch);
            walls.push(w);
            cpus.push(c);
            last = out;
        }
    } else {
        // Timed once: the first build (its CPU time is not known; use wall for both).
        let ms = first_time.as_secs_f64() * 1e3;
        walls.push(ms);
        cpus.push(ms);
    }
    let timed = Timed {
        reps: walls.len(),
        batch,
        wall: corridor_testkit::median(&walls),
        cpu: corridor_testkit::median(&cpus),
        ..Timed::default()
    };
    (timed, last.expect("at least one build"))
}

#[derive(Clone, Debug, Default)]
struct Queries {
    timed: usize,
    found: usize,
    /// Sorted CPU ms per query.
    ms: Vec<f64>,
}

impl Queries {
    fn add(&mut self, other: Queries) {
        self.timed += other.timed;
        self.found += other.found;
        self.ms.extend(other.ms);
        self.ms.sort_by(f64::total_cmp);
    }
}

#[derive(Clone, Debug, Default)]
struct Row {
    name: String,
    synthetic: bool,
    n: usize,
    walls: usize,
    free: Timed,
    free_bytes: usize,
    naive: Option<Timed>,
    full: Option<Timed>,
    reduced: Timed,
    /// The triangular expansion's full graph (with `all`) and reduced graph (the default).
    expansion_full: Option<Timed>,
    expansion_reduced: Timed,
    trapmap: Timed,
    /// Whether the naive and sweep full graphs have the same edge set.
    naive_agrees: Option<bool>,
    vis_queries: Queries,
    trap_queries: Queries,
}

/// Predictions for skipping slow structures: seconds per n³ (naive) and per n² (full).
#[derive(Default)]
struct Predictor {
    naive: Option<f64>,
    full: Option<f64>,
}

fn time_queries(
    problems: &[(Point, Point)],
    mut query: impl FnMut(Point, Point) -> bool,
) -> Queries {
    let mut q = Queries::default();
    for &(s, f) in problems {
        let clock = Clock::start();
        let ok = black_box(query(s, f));
        q.ms.push(clock.per(1).1);
        q.timed += 1;
        q.found += usize::from(ok);
    }
    q.ms.sort_by(f64::total_cmp);
    q
}

fn graph_opts(kind: GraphKind, construction: Construction) -> GraphOptions {
    GraphOptions {
        kind,
        construction,
        no_culling: false,
    }
}

/// Times one visibility-graph construction and records the graph's size.
fn time_graph(
    free: &FreeSpace,
    kind: GraphKind,
    construction: Construction,
    reps: Option<usize>,
) -> (Timed, VisibilityGraph) {
    let (mut t, graph) = time(
        || free.clone(),
        |f| VisibilityGraph::from_free_space(f, graph_opts(kind, construction)),
        reps,
    );
    t.count = graph.node_count();
    t.links = graph.edge_count();
    t.bytes = graph.graph_memory_bytes();
    (t, graph)
}

/// Measures every structure on one environment. `all`: also the naive and full graphs
/// (subject to the predictor's limits).
fn measure(
    name: &str,
    env: &Environment,
    problems: &[(Point, Point)],
    options: &Options,
    predictor: &mut Predictor,
    all: bool,
    fixed_reps: Option<usize>,
) -> Result<Row, String> {
    let (mut free_timed, free) = time(
        || (),
        |()| FreeSpace::from_environment(env),
        fixed_reps.or(options.reps),
    );
    let free = free.map_err(|e| format!("{name}: free space: {e}"))?;
    let n = free.vertices().len();
    free_timed.bytes = free.memory_bytes();
    let reps = fixed_reps.or(options.reps);
    let mut row = Row {
        name: name.to_string(),
        n,
        walls: free.wall_count(),
        free_bytes: free.memory_bytes(),
        free: free_timed,
        ..Row::default()
    };
    let nf = n as f64;

    let mut naive_edges = None;
    if all {
        let predicted = predictor
            .naive
            .map_or(if n <= 1000 { 0.0 } else { f64::INFINITY }, |c| {
                c * nf.powi(3)
            });
        if predicted <= options.naive_limit {
            eprintln!("  naive full graph (predicted {predicted:.1} s)");
            let (t, g) = time_graph(&free, GraphKind::Full, Construction::Naive, reps);
            predictor.naive = Some(t.cpu / 1e3 / nf.powi(3));
            naive_edges = Some(g.edges().collect::<Vec<_>>());
            row.naive = Some(t);
        } else {
            eprintln!("  naive full graph skipped (predicted {predicted:.0} s)");
        }
        let predicted = predictor.full.map_or(0.0, |c| c * nf * nf);
        if predicted <= options.full_limit {
            eprintln!("  sweep full graph (predicted {predicted:.1} s)");
            let (t, g) = time_graph(&free, GraphKind::Full, Construction::Sweep, reps);
            predictor.full = Some(t.cpu / 1e3 / (nf * nf));
            if let Some(edges) = &naive_edges {
                row.naive_agrees = Some(g.edges().eq(edges.iter().copied()));
            }
            row.full = Some(t);
        } else {
            eprintln!("  sweep full graph skipped (predicted {predicted:.0} s)");
        }
        eprintln!("  expansion full graph");
        let (t, g) = time_graph(&free, GraphKind::Full, Construction::Expansion, reps);
        if let Some(edges) = &naive_edges {
            let same = g.edges().eq(edges.iter().copied());
            row.naive_agrees = Some(row.naive_agrees.unwrap_or(true) && same);
        }
        row.expansion_full = Some(t);
    }
    eprintln!("  expansion reduced graph (the default)");
    row.expansion_reduced = time_graph(&free, GraphKind::Reduced, Construction::Expansion, reps).0;
    eprintln!("  sweep reduced graph");
    // Explicitly the sweep (the default is the expansion, its own column), so the column
    // stays what its name says and comparable with earlier runs.
    let (t, graph) = time_graph(&free, GraphKind::Reduced, Construction::Sweep, reps);
    row.reduced = t;
    eprintln!("  trapezoidal map");
    let (mut t, map) = time(
        || free.clone(),
        |f| TrapezoidalMap::from_free_space(f, 0),
        reps,
    );
    t.count = map.trapezoid_count();
    t.links = map.dag_size();
    t.depth = map.dag_depth();
    t.bytes = map.map_memory_bytes();
    row.trapmap = t;
    if !problems.is_empty() {
        eprintln!("  {} queries", problems.len());
        row.vis_queries = time_queries(problems, |s, f| graph.shortest_path(s, f).is_ok());
        row.trap_queries = time_queries(problems, |s, f| map.path(s, f).is_ok());
    }
    Ok(row)
}

/// A random polygon environment with about `target` free-space vertices.
fn synthetic(target: usize, seed: u64) -> (Environment, usize) {
    let make = |obstacles: usize| {
        // Constant density: the square grows with the number of obstacles.
        let scale = (obstacles.max(1) as f64).sqrt();
        let options = RandomEnvironmentOptions {
            obstacles,
            size: 10.0 * scale,
            mix: ObstacleMix::POLYGONS,
            min_radius: 0.15 / scale,
            max_radius: 0.45 / scale,
            max_vertices: 10,
            on_boundary: 0.0,
            ..Default::default()
        };
        let env = random_environment(seed, &options);
        let n = FreeSpace::from_environment(&env)
            .map(|f| f.vertices().len())
            .unwrap_or(0);
        (env, n)
    };
    let mut obstacles = (target / 8).max(1);
    let mut best = make(obstacles);
    for _ in 0..3 {
        let n = best.1.max(1);
        if (n as f64 / target as f64 - 1.0).abs() < 0.05 {
            break;
        }
        obstacles = ((obstacles as f64 * target as f64 / n as f64).round() as usize).max(1);
        let next = make(obstacles);
        if (next.1 as f64 - target as f64).abs() < (best.1 as f64 - target as f64).abs() {
            best = next;
        }
    }
    best
}

fn data_dir() -> PathBuf {
    corridor_testkit::data_dir()
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Every `step`-th problem so that at most `max` remain.
fn sample<T: Copy>(all: &[T], max: usize) -> Vec<T> {
    if all.len() <= max || max == 0 {
        return all.to_vec();
    }
    (0..max).map(|i| all[i * all.len() / max]).collect()
}

fn shared_maps(filter: Option<&str>) -> Vec<(PathBuf, Option<PathBuf>)> {
    let data = data_dir();
    let mut out = Vec::new();
    for (dir, ext) in [("movingai", "map"), ("polyanya", "mesh")] {
        let Ok(entries) = std::fs::read_dir(data.join(dir)) else {
            println!("note: {dir} is absent, its maps are skipped");
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .filter(|p| {
                filter.is_none_or(|f| file_name(p).to_lowercase().contains(&f.to_lowercase()))
            })
            .collect();
        found.sort();
        for map in found {
            let problems = if ext == "map" {
                Some(PathBuf::from(format!("{}.scen", map.display())))
            } else if file_name(&map).starts_with("aurora") {
                Some(data.join("polyanya/aurora-euclidean.csv"))
            } else {
                None
            };
            out.push((map, problems.filter(|p| p.is_file())));
        }
    }
    out
}

/// The 83 any-angle mazes, each built once, as one aggregate row (times and bytes are
/// sums, queries pooled), plus the name and reduced-graph time of the slowest maze.
fn anyangle_row(options: &Options) -> Result<(Row, String), String> {
    let root = data_dir().join("anyangle");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map_err(|e| format!("{}: {e}", root.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut total = Row {
        name: format!("{} any-angle mazes (sums)", dirs.len()),
        ..Row::default()
    };
    let mut slowest = (0.0, String::new(), 0usize);
    let mut predictor = Predictor::default();
    for dir in &dirs {
        let env = corridor_io::load_grid(dir)
            .map_err(|e| e.to_string())?
            .to_environment();
        let problems: Vec<(Point, Point)> = corridor_io::load_problems(dir)
            .map_err(|e| e.to_string())?
            .iter()
            .map(|p| (p.start, p.goal))
            .collect();
        let row = measure(
            &file_name(dir),
            &env,
            &problems,
            options,
            &mut predictor,
            false,
            Some(1),
        )?;
        if row.reduced.cpu > slowest.0 {
            slowest = (row.reduced.cpu, row.name.clone(), row.n);
        }
        total.n += row.n;
        total.walls += row.walls;
        total.free_bytes += row.free_bytes;
        for (sum, one) in [
            (&mut total.free, &row.free),
            (&mut total.reduced, &row.reduced),
            (&mut total.trapmap, &row.trapmap),
        ] {
            sum.reps = 1;
            sum.batch = 1;
            sum.wall += one.wall;
            sum.cpu += one.cpu;
            sum.count += one.count;
            sum.links += one.links;
            sum.depth = sum.depth.max(one.depth);
            sum.bytes += one.bytes;
        }
        total.vis_queries.add(row.vis_queries);
        total.trap_queries.add(row.trap_queries);
    }
    Ok((
        total,
        format!(
            "slowest maze for the reduced graph: {} (n = {}), {:.0} ms CPU",
            slowest.1, slowest.2, slowest.0
        ),
    ))
}

fn cell(t: &Option<Timed>) -> String {
    match t {
        Some(t) => format!("{:.2} ({:.2})", t.cpu, t.wall),
        None => "–".into(),
    }
}

fn print_tables(rows: &[Row]) {
    println!();
    println!(
        "Build time: median CPU ms of the benchmark thread (wall ms in brackets). The free \
         space is built first; each structure is built from a copy of it."
    );
    println!();
    println!("| input | n | walls | free space | naive full graph | sweep full graph | sweep reduced graph | expansion full graph | expansion reduced graph (default) | trapezoidal map | naive / sweep (full) | sweep / expansion (full) | sweep / expansion (reduced) | samples × batch (reduced) |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        let ratio = |a: &Option<Timed>, b: Option<&Timed>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.1}×", a.cpu / b.cpu),
            _ => "–".into(),
        };
        println!(
            "| {} | {} | {} | {:.2} ({:.2}) | {} | {} | {:.2} ({:.2}) | {} | {:.2} ({:.2}) | {:.2} ({:.2}) | {} | {} | {:.1}× | {} × {} |",
            r.name,
            r.n,
            r.walls,
            r.free.cpu,
            r.free.wall,
            cell(&r.naive),
            cell(&r.full),
            r.reduced.cpu,
            r.reduced.wall,
            cell(&r.expansion_full),
            r.expansion_reduced.cpu,
            r.expansion_reduced.wall,
            r.trapmap.cpu,
            r.trapmap.wall,
            ratio(&r.naive, r.full.as_ref()),
            ratio(&r.full, r.expansion_full.as_ref()),
            r.reduced.cpu / r.expansion_reduced.cpu,
            r.reduced.reps,
            r.reduced.batch
        );
    }
    println!();
    println!(
        "Sizes and memory. Bytes counted from the structures' vectors (`memory_bytes`); \
         graph and map bytes exclude the free space they share (its own column)."
    );
    println!();
    println!("| input | n | full graph nodes / edges | reduced graph nodes / edges | trapezoids / DAG nodes / depth | free space bytes (per n) | full graph bytes (per n) | reduced graph bytes (per n) | trapezoidal map bytes (per n) | naive = sweep = expansion (full) |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for r in rows {
        let nf = r.n.max(1) as f64;
        let full = r.full.as_ref().or(r.naive.as_ref());
        let bytes = |b: usize| format!("{b} ({:.0})", b as f64 / nf);
        println!(
            "| {} | {} | {} | {} / {} | {} / {} / {} | {} | {} | {} | {} | {} |",
            r.name,
            r.n,
            full.map_or("–".into(), |t| format!("{} / {}", t.count, t.links)),
            r.reduced.count,
            r.reduced.links,
            r.trapmap.count,
            r.trapmap.links,
            r.trapmap.depth,
            bytes(r.free_bytes),
            full.map_or("–".into(), |t| bytes(t.bytes)),
            bytes(r.reduced.bytes),
            bytes(r.trapmap.bytes),
            match r.naive_agrees {
                Some(true) => "same edges",
                Some(false) => "DIFFERENT",
                None => "–",
            }
        );
    }
    let with_queries: Vec<&Row> = rows.iter().filter(|r| r.vis_queries.timed > 0).collect();
    if !with_queries.is_empty() {
        println!();
        println!(
            "Queries, CPU ms each (timed one by one): the reduced visibility graph \
             (`shortest_path`) and the trapezoidal map (`path`)."
        );
        println!();
        println!("| input | problems timed | visibility graph: found | p50 | p99 | max | trapezoidal map: found | p50 | p99 | max |");
        println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for r in with_queries {
            let (v, t) = (&r.vis_queries, &r.trap_queries);
            println!(
                "| {} | {} | {} | {:.3} | {:.3} | {:.3} | {} | {:.3} | {:.3} | {:.3} |",
                r.name,
                v.timed,
                v.found,
                quantile(&v.ms, 0.5),
                quantile(&v.ms, 0.99),
                v.ms.last().copied().unwrap_or(f64::NAN),
                t.found,
                quantile(&t.ms, 0.5),
                quantile(&t.ms, 0.99),
                t.ms.last().copied().unwrap_or(f64::NAN),
            );
        }
    }
}

/// A log-log plot of CPU build time (free space + structure) against n.
fn write_svg(path: &Path, rows: &[Row]) -> std::io::Result<()> {
    let rows: Vec<&Row> = rows.iter().filter(|r| r.synthetic).collect();
    type Pick = fn(&Row) -> Option<f64>;
    let series: [(&str, &str, Pick); 6] = [
        ("naive full graph", "#d62728", |r| {
            r.naive.as_ref().map(|t| t.cpu + r.free.cpu)
        }),
        ("sweep full graph", "#1f77b4", |r| {
            r.full.as_ref().map(|t| t.cpu + r.free.cpu)
        }),
        ("sweep reduced graph", "#2ca02c", |r| {
            Some(r.reduced.cpu + r.free.cpu)
        }),
        ("expansion full graph", "#ff7f0e", |r| {
            r.expansion_full.as_ref().map(|t| t.cpu + r.free.cpu)
        }),
        ("expansion reduced graph (default)", "#17becf", |r| {
            Some(r.expansion_reduced.cpu + r.free.cpu)
        }),
        ("trapezoidal map", "#9467bd", |r| {
            Some(r.trapmap.cpu + r.free.cpu)
        }),
    ];
    let points: Vec<(f64, f64)> = rows
        .iter()
        .flat_map(|r| {
            series
                .iter()
                .filter_map(|s| s.2(r).map(|t| (r.n as f64, t)))
        })
        .filter(|&(n, t)| n > 0.0 && t > 0.0)
        .collect();
    if points.is_empty() {
        return Ok(());
    }
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(n, t) in &points {
        x0 = x0.min(n.log10());
        x1 = x1.max(n.log10());
        y0 = y0.min(t.log10());
        y1 = y1.max(t.log10());
    }
    let (x0, x1, y0, y1) = (x0.floor(), x1.ceil(), y0.floor(), y1.ceil());
    let (w, h, left, right, top, bottom) = (640.0, 420.0, 70.0, 190.0, 20.0, 50.0);
    let px = |n: f64| left + (n.log10() - x0) / (x1 - x0) * (w - left - right);
    let py = |t: f64| h - bottom - (t.log10() - y0) / (y1 - y0) * (h - top - bottom);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    );
    for e in x0 as i32..=x1 as i32 {
        let x = px(10f64.powi(e));
        s += &format!(
            "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">10^{e}</text>\n",
            h - bottom,
            h - bottom + 16.0
        );
    }
    for e in y0 as i32..=y1 as i32 {
        let y = py(10f64.powi(e));
        let label = if e >= 3 {
            format!("{} s", 10f64.powi(e - 3))
        } else {
            format!("{} ms", 10f64.powi(e))
        };
        s += &format!(
            "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>\n",
            w - right,
            left - 6.0,
            y + 4.0
        );
    }
    s += &format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">n (free-space vertices)</text>\n\
         <text x=\"16\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {:.1})\">build time with free space (CPU, median)</text>\n",
        (left + w - right) / 2.0,
        h - 12.0,
        (top + h - bottom) / 2.0,
        (top + h - bottom) / 2.0
    );
    for (k, (label, colour, pick)) in series.iter().enumerate() {
        let pts: Vec<String> = rows
            .iter()
            .filter_map(|r| pick(r).map(|t| (r.n as f64, t)))
            .map(|(n, t)| format!("{:.1},{:.1}", px(n), py(t)))
            .collect();
        if pts.is_empty() {
            continue;
        }
        s += &format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>\n",
            pts.join(" ")
        );
        for p in &pts {
            let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
            s += &format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"3\" fill=\"{colour}\"/>\n");
        }
        let ly = top + 20.0 + 20.0 * k as f64;
        s += &format!(
            "<line x1=\"{:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"2\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{label}</text>\n",
            w - right + 10.0,
            w - right + 30.0,
            w - right + 36.0,
            ly + 4.0
        );
    }
    s += "</svg>\n";
    std::fs::write(path, s)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "n/a".into())
}

fn main() {
    let options = match parse_args() {
        Ok(Some(o)) => o,
        Ok(None) => {
            // Smoke test (cargo test --benches): one tiny case, one repetition each.
            let (env, _) = synthetic(60, 1);
            let smoke = Options {
                sizes: Vec::new(),
                maps: false,
                map_filter: None,
                anyangle: false,
                reps: Some(1),
                seed: 1,
                queries: 0,
                naive_limit: 30.0,
                full_limit: 60.0,
                svg: None,
            };
            match measure(
                "smoke",
                &env,
                &[],
                &smoke,
                &mut Predictor::default(),
                true,
                Some(1),
            ) {
                Ok(row) => print_tables(&[row]),
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(1);
                }
            }
            return;
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    println!(
        "Visibility graph and trapezoidal map benchmark; load average at start: {}; {} CPUs",
        loadavg(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let mut rows = Vec::new();
    let mut failed = false;
    let mut predictor = Predictor::default();
    let mut notes = Vec::new();
    for &target in &options.sizes {
        let (env, n) = synthetic(target, options.seed);
        let name = format!("synthetic {target}");
        eprintln!("{name}: n = {n}, load {}", loadavg());
        match measure(&name, &env, &[], &options, &mut predictor, true, None) {
            Ok(mut row) => {
                row.synthetic = true;
                rows.push(row);
            }
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    if options.maps {
        for (path, problems) in shared_maps(options.map_filter.as_deref()) {
            let name = file_name(&path);
            let env = match corridor_io::load_environment(&path) {
                Ok(env) => env,
                Err(e) => {
                    println!("note: {name} skipped, it does not load: {e}");
                    continue;
                }
            };
            let problems = match problems.map(corridor_io::load_point_pairs) {
                Some(Ok(all)) => sample(&all, options.queries),
                Some(Err(e)) => {
                    println!("note: {name}: problems do not load: {e}");
                    Vec::new()
                }
                None => Vec::new(),
            };
            eprintln!("{name}: load {}", loadavg());
            match measure(&name, &env, &problems, &options, &mut predictor, true, None) {
                Ok(row) => rows.push(row),
                Err(e) => {
                    eprintln!("{e}");
                    failed = true;
                }
            }
        }
    }
    if options.anyangle {
        eprintln!("any-angle mazes: load {}", loadavg());
        match anyangle_row(&options) {
            Ok((row, note)) => {
                rows.push(row);
                notes.push(note);
            }
            Err(e) => {
                eprintln!("any-angle mazes: {e}");
                failed = true;
            }
        }
    }
    print_tables(&rows);
    for note in notes {
        println!();
        println!("{note}");
    }
    if let Some(path) = &options.svg {
        // Relative to the workspace root (cargo runs benches in the crate's folder).
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path);
        match write_svg(&path, &rows) {
            Ok(()) => println!("\nwrote {}", path.display()),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                failed = true;
            }
        }
    }
    println!();
    println!("load average at end: {}", loadavg());
    if failed {
        std::process::exit(1);
    }
}
