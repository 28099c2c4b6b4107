//! Benchmark of ECM construction (issue 3): the time of every build phase, the overhead
//! of the whole [`Ecm::build`] over a bare `boostvoronoi` build of the same segments,
//! the memory an ECM takes, and loading a saved ECM versus building it.
//!
//! A plain `fn main` harness (`harness = false`), so it needs no benchmark framework:
//!
//! ```text
//! cargo bench -p corridor-ecm --bench build                       # everything
//! cargo bench -p corridor-ecm --bench build -- --sizes 1k,10k     # synthetic sizes only
//! cargo bench -p corridor-ecm --bench build -- --maps             # shared maps only
//! cargo bench -p corridor-ecm --bench build -- --sizes 100k --reps 9
//! ```
//!
//! Options: `--sizes LIST` (comma-separated segment counts with optional `k`/`m`
//! suffix), `--maps` (the Moving AI `.map` and Polyanya `.mesh` files in
//! `data/` in the repository), `--map NAME` (only maps whose file
//! name contains NAME, ignoring case; implies `--maps`), `--reps N` (override the
//! number of timed samples), `--seed S`. With neither `--sizes` nor `--maps` it runs the
//! four synthetic sizes 1k, 10k, 100k, 1M and every map. Without cargo's `--bench` flag (as
//! under `cargo test --benches`) it only runs a tiny smoke case.
//!
//! Method: every case is prepared once (generation or loading, and the normalized walls
//! for the bare Voronoi input); then each timed sample runs a batch of bare
//! `boostvoronoi` builds and a batch of whole `Ecm::build`s back to back (alternating
//! which goes first; a batch is one build for inputs that take 50 ms or more), so ratios
//! are taken within one run under the same machine load. Times are the benchmark
//! thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), which leaves out the time spent
//! waiting for a core on a shared machine, with the wall clock beside them; the phase
//! times come from [`corridor_ecm::BuildStats`] and are wall clock. Medians are
//! reported. Memory is measured in an extra, untimed first build with a counting global
//! allocator (switched on only for that build, so the timed builds pay one relaxed
//! atomic load per allocation): the heap the finished ECM keeps, the peak heap during
//! the build, and as a cross-check an estimate of the ECM's heap from its `Vec`
//! capacities and the sizes of its element types. (The peak resident set, `VmHWM`, was
//! tried first and dropped: the C allocator reuses memory freed by earlier cases, so it
//! understates.) When validation rejected the first diagram, the build is repeated
//! with the identity transform only, untimed, to print why.

use corridor_ecm::{BendingPoint, BuildOptions, CellRef, Ecm, Edge, Transform, Vertex};
use corridor_geom::{normalize, Environment, Obstacle, Point, Polygon};
use corridor_testkit::random::random_convex_polygon;
use corridor_testkit::{median, thread_cpu_time};
use corridor_voronoi::prelude::Builder;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rstar::primitives::{GeomWithData, Rectangle};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The system allocator, counting live and peak heap bytes while `COUNTING` is on.
struct CountingAllocator;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call forwards to `System` unchanged; the counters only observe sizes.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() && COUNTING.load(Relaxed) {
            let size = layout.size() as isize;
            PEAK.fetch_max(LIVE.fetch_add(size, Relaxed) + size, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Relaxed) {
            LIVE.fetch_sub(layout.size() as isize, Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() && COUNTING.load(Relaxed) {
            let growth = new_size as isize - layout.size() as isize;
            PEAK.fetch_max(LIVE.fetch_add(growth, Relaxed) + growth, Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// A runtime above which a case is timed once instead of repeatedly.
const SLOW_RUN: Duration = Duration::from_secs(120);

struct Options {
    sizes: Vec<usize>,
    maps: bool,
    map_filter: Option<String>,
    reps: Option<usize>,
    seed: u64,
}

fn parse_size(s: &str) -> Result<usize, String> {
    let s = s.trim().to_ascii_lowercase();
    let (digits, factor) = if let Some(d) = s.strip_suffix('k') {
        (d, 1_000)
    } else if let Some(d) = s.strip_suffix('m') {
        (d, 1_000_000)
    } else {
        (s.as_str(), 1)
    };
    digits
        .parse::<usize>()
        .map(|n| n * factor)
        .map_err(|_| format!("not a size: {s:?} (use e.g. 1k,10k,100k,1m)"))
}

fn parse_args() -> Result<Option<Options>, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then smoke-test.
    let benching = args.iter().any(|a| a == "--bench");
    let mut options = Options {
        sizes: Vec::new(),
        maps: false,
        map_filter: None,
        reps: None,
        seed: 1,
    };
    let mut sizes_given = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match arg.as_str() {
            "--bench" => {}
            "--sizes" => {
                sizes_given = true;
                for s in value("--sizes")?.split(',').filter(|s| !s.is_empty()) {
                    options.sizes.push(parse_size(s)?);
                }
            }
            "--maps" => options.maps = true,
            "--map" => {
                options.maps = true;
                options.map_filter = Some(value("--map")?);
            }
            "--reps" => {
                let n = value("--reps")?;
                options.reps = Some(n.parse().map_err(|_| format!("bad --reps {n:?}"))?);
            }
            "--seed" => {
                let n = value("--seed")?;
                options.seed = n.parse().map_err(|_| format!("bad --seed {n:?}"))?;
            }
            "-h" | "--help" => {
                println!(
                    "usage: cargo bench -p corridor-ecm --bench build -- \
                     [--sizes 1k,10k,100k,1m] [--maps] [--map NAME] [--reps N] [--seed S]"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    if !benching {
        return Ok(None);
    }
    if !sizes_given && !options.maps {
        options.sizes = vec![1_000, 10_000, 100_000, 1_000_000];
        options.maps = true;
    }
    Ok(Some(options))
}

/// A deterministic environment with about `target` wall segments: a square box cut into
/// unit lattice cells, each holding one obstacle that stays inside its own cell (so no two
/// obstacles ever touch): a random convex polygon with 3 to 8 corners (80 %) or a single
/// two-sided segment (20 %), of random size and jittered position.
fn synthetic(target: usize, seed: u64) -> Environment {
    // Expected segments per cell: 0.8 × 5.5 corners + 0.2 × 1 segment.
    let per_cell = 0.8 * 5.5 + 0.2;
    let side = ((target as f64 / per_cell).sqrt().ceil() as usize).max(1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut env = Environment::rectangle(Point::ZERO, Point::splat(side as f64));
    let mut segments = 4; // the boundary
    'cells: for y in 0..side {
        for x in 0..side {
            if segments >= target {
                break 'cells;
            }
            let cell = Point::new(x as f64 + 0.5, y as f64 + 0.5);
            let radius = 0.1 + 0.3 * rng.random::<f64>();
            let slack = 0.45 - radius;
            let center = cell
                + Point::new(
                    slack * (2.0 * rng.random::<f64>() - 1.0),
                    slack * (2.0 * rng.random::<f64>() - 1.0),
                );
            if rng.random::<f64>() < 0.8 {
                let corners = rng.random_range(3..=8);
                let ring = random_convex_polygon(&mut rng, center, radius, corners);
                segments += ring.len();
                env.insert(Obstacle::Polygon(Polygon::simple(ring)));
            } else {
                let d = Point::new(
                    radius * (2.0 * rng.random::<f64>() - 1.0),
                    radius * (2.0 * rng.random::<f64>() - 1.0),
                );
                let d = if d.length() < 0.05 {
                    Point::X * radius
                } else {
                    d
                };
                env.insert(Obstacle::segment(center - d, center + d));
                segments += 1;
            }
        }
    }
    env
}

/// The integer input of the Voronoi diagram, exactly as `corridor-ecm` passes it.
struct BareInput {
    points: Vec<[i64; 2]>,
    segments: Vec<[i64; 4]>,
}

impl BareInput {
    fn new(env: &Environment) -> BareInput {
        let walls = normalize(env).expect("benchmark input normalizes");
        let sites = walls.integer_sites();
        BareInput {
            points: sites.points,
            segments: sites.segments,
        }
    }

    /// A bare `boostvoronoi` build: the same minimal call as `corridor-ecm`'s
    /// `extract::voronoi` (the conversion to `i64` is done once, beforehand).
    fn build(&self) -> corridor_voronoi::prelude::Diagram {
        Builder::<i64>::default()
            .with_vertices(self.points.iter())
            .expect("points")
            .with_segments(self.segments.iter())
            .expect("segments")
            .build()
            .expect("bare boostvoronoi build")
    }
}

/// Empties the Voronoi library's per-thread cache of exact fallbacks (the results of its
/// slow exact circle computations, kept so that consecutive local diagrams of dynamic
/// updates share them). Timed builds repeat one input, and without this every build after
/// the first would find all its fallbacks cached, which no build of a new map does: on
/// arena.map a bare build takes 26 % fewer instructions warm than cold. Costs a few
/// microseconds (a cleared table), the same for both sides.
fn cold() {
    corridor_voronoi::clear_exact_fallback_cache();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Heap estimate of a finished ECM (bytes): slot maps (value + 8 bytes of slot header,
/// counted at their length), every `Vec` at its capacity, the R-tree's leaves plus a
/// fifth for its inner nodes (rstar's bulk load fills nodes of up to 6 children).
fn estimate_heap(ecm: &Ecm) -> usize {
    use std::mem::size_of;
    let mut bytes = 0;
    for (_, v) in ecm.vertices() {
        bytes += size_of::<Vertex>() + 8;
        // The lists are inline up to `INLINE_DEGREE` items (inside `Vertex`).
        if v.nearest_obstacle_points.spilled() {
            bytes += v.nearest_obstacle_points.capacity() * size_of::<Point>();
        }
        if v.edges.spilled() {
            bytes += v.edges.capacity() * size_of::<corridor_ecm::EdgeId>();
        }
    }
    for (_, e) in ecm.edges() {
        bytes += size_of::<Edge>() + 8;
        bytes += e.bending_points.capacity() * size_of::<BendingPoint>();
    }
    // An index entry is a box and a run of cell pieces (edge, side, first, count): the
    // layout of `(CellRef, u32)`.
    let node = size_of::<rstar::RTreeNode<GeomWithData<Rectangle<[f64; 2]>, (CellRef, u32)>>>();
    bytes += ecm.cell_index().entries() * node * 6 / 5;
    bytes
}

struct Memory {
    /// `to_bytes().len()`.
    bytes: usize,
    /// Heap bytes the finished ECM holds (counting allocator).
    retained: isize,
    /// Peak heap bytes during the build above what was live before it.
    peak_heap: isize,
    /// [`estimate_heap`].
    estimate: usize,
}

struct Row {
    name: String,
    segments: usize,
    points: usize,
    vertices: usize,
    edges: usize,
    bending_points: usize,
    components: usize,
    recoveries: usize,
    transform: Option<Transform>,
    /// The error of a build that may only use the identity transform.
    first_failure: Option<String>,
    reps: usize,
    /// Builds per timed sample.
    batch: usize,
    /// Median wall-clock ms of each phase (from `BuildStats`).
    phases: [f64; 5],
    build_wall: f64,
    build_cpu: f64,
    bare_wall: f64,
    bare_cpu: f64,
    /// Median over samples of (ECM CPU time / bare CPU time).
    ratio_median: f64,
    load_wall: f64,
    load_cpu: f64,
    memory: Memory,
}

/// Wall-clock and thread CPU time together. On a shared machine the CPU time of the
/// benchmark thread leaves out the time it waited for a core, so ratios and medians are
/// taken from it; the wall clock is shown beside it.
#[derive(Clone, Copy)]
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

    /// (wall, cpu) since `start`, in milliseconds, divided by `batch`.
    fn per(&self, batch: usize) -> (f64, f64) {
        let wall = self.wall.elapsed();
        let cpu = thread_cpu_time().saturating_sub(self.cpu);
        (ms(wall) / batch as f64, ms(cpu) / batch as f64)
    }
}

/// A timed sample lasts at least this long (small inputs are built several times per
/// sample), so that timer resolution and single preemptions matter less.
const MIN_SAMPLE: Duration = Duration::from_millis(50);

fn batch_for(once: Duration) -> usize {
    let once = once.as_secs_f64().max(1e-6);
    ((MIN_SAMPLE.as_secs_f64() / once).ceil() as usize).clamp(1, 1000)
}

/// Measures one environment: `reps` timed samples (one if the untimed first build is
/// slower than [`SLOW_RUN`]), each a bare `boostvoronoi` batch and an `Ecm::build` batch
/// back to back, in alternating order.
fn measure(name: &str, env: &Environment, reps: usize) -> Result<Row, String> {
    let bare_input = BareInput::new(env);

    // Untimed first builds: the bare one warms up; the ECM one is measured for memory.
    drop(black_box(bare_input.build()));
    // Counted bytes are relative to this point (signed, in case the build frees something
    // allocated before it).
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    COUNTING.store(true, Relaxed);
    let clock = Instant::now();
    let ecm = Ecm::build(env);
    let first = clock.elapsed();
    COUNTING.store(false, Relaxed);
    let ecm = ecm.map_err(|e| format!("{name}: build failed: {e}"))?;
    let (retained, peak_heap) = (LIVE.load(Relaxed), PEAK.load(Relaxed));
    let bytes = ecm.to_bytes();
    let memory = Memory {
        bytes: bytes.len(),
        retained,
        peak_heap,
        estimate: estimate_heap(&ecm),
    };
    let reps = if first > SLOW_RUN {
        eprintln!(
            "  {name}: first build took {:.0} s > {} s, timing once",
            first.as_secs_f64(),
            SLOW_RUN.as_secs()
        );
        1
    } else {
        reps.max(1)
    };
    let counts = ecm.stats().clone();
    drop(ecm);
    // Why the identity transform was rejected, when it was.
    let first_failure = if counts.recoveries > 0 {
        let identity_only = BuildOptions {
            recovery: vec![Transform::Identity],
            ..BuildOptions::default()
        };
        match Ecm::build_with(env, &identity_only) {
            Err(e) => Some(e.to_string()),
            Ok(_) => Some("identity build passed when retried alone".into()),
        }
    } else {
        None
    };
    let batch = batch_for(first);

    let mut phases: [Vec<f64>; 5] = Default::default();
    let (mut build, mut bare, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for rep in 0..reps {
        let time_bare = || {
            let clock = Clock::start();
            for _ in 0..batch {
                // Every timed build is a first build: nothing is left from the build before
                // (see `cold`).
                cold();
                drop(black_box(bare_input.build()));
            }
            clock.per(batch)
        };
        let time_ecm = || -> Result<((f64, f64), [f64; 5]), String> {
            let mut phases = [0.0; 5];
            let clock = Clock::start();
            for _ in 0..batch {
                cold();
                let ecm = Ecm::build(env).map_err(|e| format!("{name}: build failed: {e}"))?;
                let s = ecm.stats();
                for (k, d) in [s.normalize, s.voronoi, s.extraction, s.validation, s.index]
                    .into_iter()
                    .enumerate()
                {
                    phases[k] += ms(d) / batch as f64;
                }
                drop(black_box(ecm));
            }
            Ok((clock.per(batch), phases))
        };
        let (b, (t, p)) = if rep % 2 == 0 {
            let b = time_bare();
            (b, time_ecm()?)
        } else {
            let e = time_ecm()?;
            (time_bare(), e)
        };
        for k in 0..5 {
            phases[k].push(p[k]);
        }
        build.push(t);
        bare.push(b);
        ratios.push(t.1 / b.1);
    }

    // Loading: at least eleven samples (it is fast and noisy under load).
    let clock = Instant::now();
    drop(black_box(
        Ecm::from_bytes(&bytes).map_err(|e| format!("{name}: load failed: {e}"))?,
    ));
    let load_batch = batch_for(clock.elapsed());
    let mut load = Vec::new();
    for _ in 0..reps.max(11) {
        let clock = Clock::start();
        for _ in 0..load_batch {
            drop(black_box(
                Ecm::from_bytes(&bytes).map_err(|e| e.to_string())?,
            ));
        }
        load.push(clock.per(load_batch));
    }

    let wall = |v: &[(f64, f64)]| median(&v.iter().map(|x| x.0).collect::<Vec<_>>());
    let cpu = |v: &[(f64, f64)]| median(&v.iter().map(|x| x.1).collect::<Vec<_>>());
    Ok(Row {
        name: name.to_string(),
        segments: counts.input_segments,
        points: counts.input_points,
        vertices: counts.vertices,
        edges: counts.edges,
        bending_points: counts.bending_points,
        components: counts.components,
        recoveries: counts.recoveries,
        transform: counts.transform,
        first_failure,
        reps,
        batch,
        phases: phases.map(|v| median(&v)),
        build_wall: wall(&build),
        build_cpu: cpu(&build),
        bare_wall: wall(&bare),
        bare_cpu: cpu(&bare),
        ratio_median: median(&ratios),
        load_wall: wall(&load),
        load_cpu: cpu(&load),
        memory,
    })
}

/// Repetitions for an input of `segments` wall segments (the issue asks for at least 5
/// on small inputs and at least 3 on large ones).
fn default_reps(segments: usize) -> usize {
    match segments {
        0..=20_000 => 11,
        20_001..=200_000 => 5,
        _ => 3,
    }
}

fn label(n: usize) -> String {
    if n >= 1_000_000 && n.is_multiple_of(1_000_000) {
        format!("{}M", n / 1_000_000)
    } else if n >= 1_000 && n.is_multiple_of(1_000) {
        format!("{}k", n / 1_000)
    } else {
        n.to_string()
    }
}

fn shared_maps(filter: Option<&str>) -> Vec<PathBuf> {
    let data = corridor_testkit::data_dir();
    let mut maps = Vec::new();
    for (dir, ext) in [("movingai", "map"), ("polyanya", "mesh")] {
        let dir = data.join(dir);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            println!("note: {} is absent, its maps are skipped", dir.display());
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .filter(|p| {
                filter.is_none_or(|f| {
                    p.file_name().is_some_and(|n| {
                        n.to_string_lossy()
                            .to_lowercase()
                            .contains(&f.to_lowercase())
                    })
                })
            })
            .collect();
        found.sort();
        maps.extend(found);
    }
    maps
}

fn print_tables(rows: &[Row]) {
    println!();
    println!(
        "Phases: median wall-clock ms of each phase (`BuildStats`); `build` is the median \
         CPU time of the whole `Ecm::build` (wall clock in brackets); `reps × batch` timed builds"
    );
    println!();
    println!("| input | segments | points | vertices | edges | bending points | components | reps × batch | normalize | Voronoi | extraction | validation | index | build |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} × {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} ({:.2}) |",
            r.name,
            r.segments,
            r.points,
            r.vertices,
            r.edges,
            r.bending_points,
            r.components,
            r.reps,
            r.batch,
            r.phases[0],
            r.phases[1],
            r.phases[2],
            r.phases[3],
            r.phases[4],
            r.build_cpu,
            r.build_wall
        );
    }
    println!();
    println!(
        "Overhead over a bare boostvoronoi build of the same integer segments (same run, \
         interleaved; CPU ms, wall ms in brackets)"
    );
    println!();
    println!("| input | bare boostvoronoi | Ecm::build | build / bare (CPU) | median of per-sample ratios (CPU) | build / bare (wall) | non-Voronoi phases / Voronoi phase | recoveries |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for r in rows {
        let others = r.phases[0] + r.phases[2] + r.phases[3] + r.phases[4];
        let recoveries = match r.transform {
            Some(t) if r.recoveries > 0 => format!("{} (accepted {t:?})", r.recoveries),
            _ => r.recoveries.to_string(),
        };
        println!(
            "| {} | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.2}× | {:.2}× | {:.2}× | {:.2} | {} |",
            r.name,
            r.bare_cpu,
            r.bare_wall,
            r.build_cpu,
            r.build_wall,
            r.build_cpu / r.bare_cpu,
            r.ratio_median,
            r.build_wall / r.bare_wall,
            others / r.phases[1],
            recoveries
        );
    }
    for r in rows {
        if let Some(failure) = &r.first_failure {
            println!();
            println!(
                "{}: the identity-transform diagram was rejected: {failure}",
                r.name
            );
        }
    }
    println!();
    println!(
        "Memory and loading. Saved: `to_bytes()`. Heap: counting allocator around one \
         build (kept = live after the build; peak = most live during it). Estimate: Vec \
         capacities × element sizes. Load: `from_bytes`, median CPU ms (wall)"
    );
    println!();
    println!("| input | saved bytes | saved / vertex | saved / bending point | heap kept by the ECM | heap / vertex | heap / bending point | estimate / vertex | peak heap during build (MiB) | load ms | build / load (CPU) |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in rows {
        let m = &r.memory;
        let (v, b) = (r.vertices.max(1) as f64, r.bending_points.max(1) as f64);
        println!(
            "| {} | {} | {:.0} | {:.0} | {} | {:.0} | {:.0} | {:.0} | {:.1} | {:.3} ({:.3}) | {:.0}× |",
            r.name,
            m.bytes,
            m.bytes as f64 / v,
            m.bytes as f64 / b,
            m.retained,
            m.retained as f64 / v,
            m.retained as f64 / b,
            m.estimate as f64 / v,
            m.peak_heap as f64 / (1024.0 * 1024.0),
            r.load_cpu,
            r.load_wall,
            r.build_cpu / r.load_cpu
        );
    }
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "n/a".into())
}

fn main() {
    let options = match parse_args() {
        Ok(Some(options)) => options,
        Ok(None) => {
            // Smoke test (cargo test --benches): one tiny case, one repetition.
            let env = synthetic(200, 1);
            match measure("smoke", &env, 1) {
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
        "ECM construction benchmark; load average at start: {}; {} CPUs",
        loadavg(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let mut rows = Vec::new();
    let mut failed = false;
    let mut cases: Vec<(String, Environment)> = Vec::new();
    for &n in &options.sizes {
        let clock = Instant::now();
        let env = synthetic(n, options.seed);
        eprintln!(
            "generated {} ({} obstacles) in {:.2} s",
            label(n),
            env.obstacles().count(),
            clock.elapsed().as_secs_f64()
        );
        cases.push((format!("synthetic {}", label(n)), env));
    }
    if options.maps {
        for path in shared_maps(options.map_filter.as_deref()) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match corridor_io::load_environment(&path) {
                Ok(env) => cases.push((name, env)),
                Err(e) => {
                    println!("note: {name} skipped, it does not load: {e}");
                }
            }
        }
    }
    for (name, env) in cases {
        let segments = normalize(&env).map(|w| w.segments.len()).unwrap_or(0);
        let reps = options.reps.unwrap_or_else(|| default_reps(segments));
        eprintln!(
            "{name}: {segments} segments, {reps} reps, load {}",
            loadavg()
        );
        let clock = Instant::now();
        match measure(&name, &env, reps) {
            Ok(row) => {
                eprintln!(
                    "  CPU: build {:.1} ms, bare {:.1} ms, ratio {:.2}, load {:.2} ms ({:.0} s)",
                    row.build_cpu,
                    row.bare_cpu,
                    row.build_cpu / row.bare_cpu,
                    row.load_cpu,
                    clock.elapsed().as_secs_f64()
                );
                rows.push(row);
            }
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    print_tables(&rows);
    println!();
    println!("load average at end: {}", loadavg());
    if failed {
        std::process::exit(1);
    }
}
