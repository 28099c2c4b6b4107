//! Benchmark of dynamic updates (issue 5): local repair of the ECM against a full
//! rebuild, in the same run.
//!
//! A plain `fn main` harness (`harness = false`):
//!
//! ```text
//! cargo bench -p corridor-ecm --bench update                      # everything
//! cargo bench -p corridor-ecm --bench update -- --doors           # the door experiment
//! cargo bench -p corridor-ecm --bench update -- --doors --map Aurora
//! cargo bench -p corridor-ecm --bench update -- --moving          # the moving hexagon
//! cargo bench -p corridor-ecm --bench update -- --insertions      # 2,000 insertions + SVG
//! ```
//!
//! * **Doors** (localized-recalculation paper, Table 1): door-like polygons that close
//!   a narrow gap between two obstacles (they overlap both) are inserted and deleted
//!   again, one after the other, on the built-in scenes and on the largest shared Moving
//!   AI maps (`data/movingai`, relative to the workspace root). Gaps are found
//!   on the ECM (the narrowest point of an edge, whose two nearest obstacle points are
//!   0.5–3 units apart on grid maps, 0.5–8 m on the scenes, and belong to different
//!   obstacles where there are enough such gaps); on grid maps the doors are
//!   axis-parallel rectangles 0.5 thick reaching 0.5 into the walls on both sides, on the
//!   scenes quadrilaterals across the gap.
//! * **Moving** (dynamic-2012 paper §6.4): a hexagon is moved through 1,000 positions
//!   (a circle around the centre of the scene, turning as it goes), one
//!   [`DynamicEcm::move_to`] per position.
//! * **Insertions** (localized-recalculation paper, Fig. 5): 2,000 random obstacles
//!   (points, triangles, convex and concave polygons, overlapping freely) are inserted
//!   into an empty 200 × 200 environment; the time of every insertion is recorded and
//!   plotted against the number of obstacles, with full rebuilds at intervals, in
//!   `docs/images/insertions.svg`.
//!
//! Times are the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`: time spent waiting for a
//! core on a shared machine is left out) of plan plus apply; full rebuilds
//! ([`Ecm::build`], normalization included) are timed the same way in the same run. A few
//! updates of every experiment are compared with a full rebuild ([`Ecm::canonical_diff`]),
//! outside the timings. Without cargo's `--bench` flag (as under `cargo test --benches`)
//! only a tiny smoke case runs.

use corridor_ecm::{Change, DynamicEcm, Ecm, RepairMethod, UpdateOptions};
use corridor_geom::{Environment, Obstacle, ObstacleId, Point, Polygon, Ring};
use corridor_testkit::random::{random_concave_polygon, random_convex_polygon};
use corridor_testkit::{median, quantile, timed};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rstar::primitives::{GeomWithData, Line};
use rstar::{PointDistance, RTree};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn shared_dir() -> PathBuf {
    corridor_testkit::data_dir().join("movingai")
}

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

struct Options {
    doors: bool,
    moving: bool,
    insertions: bool,
    map_filter: Option<String>,
    svg: Option<PathBuf>,
    doors_per_map: usize,
    positions: usize,
    inserts: usize,
    repeat: usize,
    checks: bool,
}

fn parse_args() -> Result<Option<Options>, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let benching = args.iter().any(|a| a == "--bench");
    let mut o = Options {
        doors: false,
        moving: false,
        insertions: false,
        map_filter: None,
        svg: Some(docs_dir().join("images/insertions.svg")),
        doors_per_map: 20,
        positions: 1000,
        inserts: 2000,
        repeat: 1,
        checks: true,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let number = |s: String| s.parse::<usize>().map_err(|_| format!("bad number {s:?}"));
        match arg.as_str() {
            "--bench" => {}
            "--doors" => o.doors = true,
            "--moving" => o.moving = true,
            "--insertions" => o.insertions = true,
            "--map" => o.map_filter = Some(value("--map")?),
            "--svg" => o.svg = Some(PathBuf::from(value("--svg")?)),
            "--no-svg" => o.svg = None,
            "--doors-per-map" => o.doors_per_map = number(value("--doors-per-map")?)?,
            "--positions" => o.positions = number(value("--positions")?)?,
            "--inserts" => o.inserts = number(value("--inserts")?)?,
            "--repeat" => o.repeat = number(value("--repeat")?)?.max(1),
            "--no-checks" => o.checks = false,
            "-h" | "--help" => {
                println!(
                    "usage: cargo bench -p corridor-ecm --bench update -- [--doors] [--moving] \
                     [--insertions] [--map NAME] [--svg PATH | --no-svg] [--doors-per-map N] \
                     [--positions N] [--inserts N] [--repeat N] [--no-checks]"
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    if !benching {
        return Ok(None);
    }
    if !o.doors && !o.moving && !o.insertions {
        o.doors = true;
        o.moving = true;
        o.insertions = true;
    }
    Ok(Some(o))
}

/// Full rebuilds of `env` (normalization included): the median CPU time of `reps`.
/// Empties the Voronoi library's per-thread cache of exact fallbacks (results of its slow
/// exact circle computations; consecutive local diagrams share many of them). Repeated
/// doors and the full builds of this harness would otherwise fill it with exactly the
/// entries the timed updates need.
fn cold() {
    corridor_voronoi::clear_exact_fallback_cache();
}

fn full_rebuild_ms(env: &Environment, reps: usize) -> f64 {
    let times: Vec<f64> = (0..reps)
        .map(|_| timed(|| Ecm::build(env).expect("full rebuild")).1)
        .collect();
    median(&times)
}

fn check(map: &DynamicEcm, what: &str) -> bool {
    let full = Ecm::build(map.environment()).expect("full rebuild");
    match map.ecm().canonical_diff(&full, 1e-6) {
        None => true,
        Some(d) => {
            eprintln!("MISMATCH {what}: {d}");
            false
        }
    }
}

// ---------------------------------------------------------------------------------------
// Doors.

type ObstacleEdge = GeomWithData<Line<[f64; 2]>, ObstacleId>;

/// The obstacle whose outline passes through `p` (within `tol`).
fn owner(tree: &RTree<ObstacleEdge>, p: Point, tol: f64) -> Option<ObstacleId> {
    tree.locate_within_distance([p.x, p.y], tol * tol)
        .min_by(|a, b| {
            a.distance_2(&[p.x, p.y])
                .total_cmp(&b.distance_2(&[p.x, p.y]))
        })
        .map(|e| e.data)
}

fn obstacle_edges(env: &Environment) -> RTree<ObstacleEdge> {
    let mut items = Vec::new();
    for (id, o) in env.obstacles() {
        let pts: Vec<Point> = o.points().collect();
        let closed = matches!(o, Obstacle::Polygon(_));
        match o {
            Obstacle::Polygon(poly) => {
                for e in poly.edges() {
                    items.push(ObstacleEdge::new(
                        Line::new([e.a.x, e.a.y], [e.b.x, e.b.y]),
                        id,
                    ));
                }
            }
            _ => {
                for w in pts.windows(2) {
                    items.push(ObstacleEdge::new(
                        Line::new([w[0].x, w[0].y], [w[1].x, w[1].y]),
                        id,
                    ));
                }
                if pts.len() == 1 || closed {
                    let p = pts[0];
                    items.push(ObstacleEdge::new(Line::new([p.x, p.y], [p.x, p.y]), id));
                }
            }
        }
    }
    RTree::bulk_load(items)
}

/// Door-like obstacles across narrow gaps of the ECM: up to `count`, spread over the map.
fn find_doors(env: &Environment, ecm: &Ecm, grid_map: bool, count: usize) -> Vec<Obstacle> {
    let tree = obstacle_edges(env);
    let mut candidates: Vec<(Point, Point, bool)> = Vec::new();
    for (_, e) in ecm.edges() {
        let bps = &e.bending_points;
        if bps.len() < 3 {
            continue;
        }
        // The narrowest interior point of the edge.
        let Some(bp) = bps[1..bps.len() - 1]
            .iter()
            .min_by(|a, b| a.clearance.total_cmp(&b.clearance))
        else {
            continue;
        };
        let width = bp.left.distance(bp.right);
        let widest = if grid_map { 3.0 } else { 8.0 };
        if !(0.5..=widest).contains(&width) {
            continue;
        }
        let (l, r) = (owner(&tree, bp.left, 1e-6), owner(&tree, bp.right, 1e-6));
        let (Some(l), Some(r)) = (l, r) else { continue };
        candidates.push((bp.left, bp.right, l != r));
    }
    let distinct = candidates.iter().filter(|c| c.2).count();
    if distinct >= count {
        candidates.retain(|c| c.2);
    }
    // Spread: a deterministic shuffle, then keep doors far from each other.
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for i in (1..candidates.len()).rev() {
        let j = rng.random_range(0..=i);
        candidates.swap(i, j);
    }
    let mut doors = Vec::new();
    let mut centres: Vec<Point> = Vec::new();
    for (l, r, _) in candidates {
        let c = (l + r) / 2.0;
        if centres.iter().any(|q| q.distance(c) < 10.0) {
            continue;
        }
        let d = r - l;
        let door = if grid_map {
            // Axis-parallel, along the dominant direction of the gap.
            if d.x.abs() >= d.y.abs() {
                let (x0, x1) = (l.x.min(r.x) - 0.5, l.x.max(r.x) + 0.5);
                Obstacle::rectangle(Point::new(x0, c.y - 0.25), Point::new(x1, c.y + 0.25))
            } else {
                let (y0, y1) = (l.y.min(r.y) - 0.5, l.y.max(r.y) + 0.5);
                Obstacle::rectangle(Point::new(c.x - 0.25, y0), Point::new(c.x + 0.25, y1))
            }
        } else {
            let u = d / d.length();
            let n = Point::new(-u.y, u.x) * 0.25;
            let (a, b) = (l - u * 0.4, r + u * 0.4);
            Obstacle::Polygon(Polygon::simple(Ring::new(vec![a - n, b - n, b + n, a + n])))
        };
        centres.push(c);
        doors.push(door);
        if doors.len() == count {
            break;
        }
    }
    doors
}

struct DoorRow {
    name: String,
    walls: usize,
    edges: usize,
    full_ms: f64,
    insert: Vec<f64>,
    delete: Vec<f64>,
    voronoi: Vec<f64>,
    walls_ms: Vec<f64>,
    local_walls: Vec<f64>,
    apply: Vec<f64>,
    scopes: BTreeMap<String, usize>,
    fallbacks: usize,
    /// Updates whose local repair cut the influenced edges.
    cut: usize,
    checked: usize,
    mismatches: usize,
}

fn door_experiment(
    name: &str,
    env: Environment,
    grid_map: bool,
    count: usize,
    repeat: usize,
    checks: bool,
) -> DoorRow {
    let (map, build_ms) = timed(|| DynamicEcm::new(env.clone()).expect("initial build"));
    let mut map = map;
    let reps = if build_ms > 1000.0 { 3 } else { 5 };
    let full_ms = full_rebuild_ms(&env, if checks { reps } else { 1 });
    let doors = find_doors(&env, map.ecm(), grid_map, count);
    let mut row = DoorRow {
        name: name.to_string(),
        walls: map.wall_map().walls().len(),
        edges: map.ecm().edge_count(),
        full_ms,
        insert: Vec::new(),
        delete: Vec::new(),
        voronoi: Vec::new(),
        walls_ms: Vec::new(),
        local_walls: Vec::new(),
        apply: Vec::new(),
        scopes: BTreeMap::new(),
        fallbacks: 0,
        cut: 0,
        checked: 0,
        mismatches: 0,
    };
    let doors: Vec<Obstacle> = (0..repeat).flat_map(|_| doors.iter().cloned()).collect();
    for (k, door) in doors.into_iter().enumerate() {
        let id = map.environment().next_id();
        // Each door is placed as if for the first time: nothing kept from the builds above
        // or from an earlier repeat of the same door (see `cold`). Its deletion may reuse
        // what its insertion computed, as a real door closed and opened again does.
        cold();
        for (n, change) in [Change::Insert(door), Change::Remove(id)]
            .into_iter()
            .enumerate()
        {
            let ((report, apply_ms), ms) = timed(|| {
                let patch = map.plan_update(&change).expect("plan");
                let report = patch.report().clone();
                let (_, apply_ms) = timed(|| map.apply(patch).expect("apply"));
                (report, apply_ms)
            });
            row.apply.push(apply_ms);
            if n == 0 {
                row.insert.push(ms);
            } else {
                row.delete.push(ms);
            }
            row.voronoi.push(report.voronoi_time.as_secs_f64() * 1e3);
            row.walls_ms.push(report.walls_time.as_secs_f64() * 1e3);
            row.local_walls.push(report.local_walls as f64);
            *row.scopes
                .entry(format!("{:?}", report.normalize_scope))
                .or_default() += 1;
            if report.method == RepairMethod::FullRebuild {
                row.fallbacks += 1;
            }
            row.cut += report.cut_edges as usize;
            if k < 3 && checks {
                row.checked += 1;
                if !check(&map, &format!("{name} door {k} step {n}")) {
                    row.mismatches += 1;
                }
            }
        }
    }
    row
}

fn print_doors(rows: &[DoorRow]) {
    println!();
    println!("Door experiment (insert then delete each door; plan + apply, thread CPU ms)");
    println!(
        "| environment | walls | ECM edges | doors | full rebuild | insert median | delete median | update median | update p99 | of which apply (median) | speed-up (median) | local Voronoi median | its walls (median) | walls median | scopes | fallbacks | cut edges | checked |"
    );
    println!(
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
    );
    for r in rows {
        let all: Vec<f64> = r.insert.iter().chain(&r.delete).copied().collect();
        let m = median(&all);
        println!(
            "| {} | {} | {} | {} | {:.2} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.0}× | {:.3} ms | {:.0} | {:.3} ms | {} | {} | {} | {} ({} mismatches) |",
            r.name,
            r.walls,
            r.edges,
            r.insert.len(),
            r.full_ms,
            median(&r.insert),
            median(&r.delete),
            m,
            quantile(&all, 0.99),
            median(&r.apply),
            r.full_ms / m,
            median(&r.voronoi),
            median(&r.local_walls),
            median(&r.walls_ms),
            r.scopes
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", "),
            r.fallbacks,
            r.cut,
            r.checked,
            r.mismatches
        );
    }
}

// ---------------------------------------------------------------------------------------
// Moving hexagon.

fn hexagon(c: Point, r: f64, angle: f64) -> Obstacle {
    Obstacle::Polygon(Polygon::simple(Ring::new(
        (0..6)
            .map(|k| {
                let a = angle + k as f64 * std::f64::consts::PI / 3.0;
                c + Point::new(a.cos(), a.sin()) * r
            })
            .collect(),
    )))
}

struct MovingRow {
    name: String,
    full_ms: f64,
    moves: Vec<f64>,
    voronoi: Vec<f64>,
    local_walls: Vec<f64>,
    widenings: usize,
    removed_edges: Vec<f64>,
    fallbacks: usize,
    /// Moves whose local repair cut the influenced edges.
    cut: usize,
    checked: usize,
    mismatches: usize,
}

fn moving_experiment(name: &str, env: Environment, positions: usize) -> MovingRow {
    let b = env.bounds();
    let centre = (b.min + b.max) / 2.0;
    let size = b.max - b.min;
    let radius = 0.35 * size.x.min(size.y);
    let r = (size.x.min(size.y) / 200.0).clamp(0.5, 2.0);
    let at = |k: usize| {
        let t = k as f64 / positions as f64 * std::f64::consts::TAU;
        (centre + Point::new(t.cos(), t.sin()) * radius, 3.0 * t)
    };
    let full_ms = full_rebuild_ms(&env, 3);
    let mut map = DynamicEcm::new(env).expect("initial build");
    let (p, a) = at(0);
    let id = map.insert(hexagon(p, r, a)).expect("insert");
    // The moves may share work only with each other, not with the builds above.
    cold();
    let mut row = MovingRow {
        name: name.to_string(),
        full_ms,
        moves: Vec::new(),
        voronoi: Vec::new(),
        local_walls: Vec::new(),
        widenings: 0,
        removed_edges: Vec::new(),
        fallbacks: 0,
        cut: 0,
        checked: 0,
        mismatches: 0,
    };
    for k in 1..=positions {
        let (p, a) = at(k);
        let change = Change::Move {
            id,
            obstacle: hexagon(p, r, a),
        };
        let (report, ms) = timed(|| {
            let patch = map.plan_update(&change).expect("plan");
            let report = patch.report().clone();
            map.apply(patch).expect("apply");
            report
        });
        row.moves.push(ms);
        row.voronoi.push(report.voronoi_time.as_secs_f64() * 1e3);
        row.local_walls.push(report.local_walls as f64);
        row.widenings += report.widenings;
        row.removed_edges.push(report.removed_edges as f64);
        if report.method == RepairMethod::FullRebuild {
            row.fallbacks += 1;
        }
        row.cut += report.cut_edges as usize;
        if k.is_multiple_of((positions / 5).max(1)) {
            row.checked += 1;
            if !check(&map, &format!("{name} position {k}")) {
                row.mismatches += 1;
            }
        }
    }
    row
}

fn print_moving(rows: &[MovingRow]) {
    println!();
    println!("Moving hexagon (one move = plan + apply, thread CPU ms)");
    println!("| environment | moves | full rebuild | median | mean | p99 | max | speed-up (median) | local Voronoi median | its walls (median) | ECM edges replaced (median) | widenings | fallbacks | cut edges | checked |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let mean = r.moves.iter().sum::<f64>() / r.moves.len() as f64;
        println!(
            "| {} | {} | {:.2} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.0}× | {:.3} ms | {:.0} | {:.0} | {} | {} | {} | {} ({} mismatches) |",
            r.name,
            r.moves.len(),
            r.full_ms,
            median(&r.moves),
            mean,
            quantile(&r.moves, 0.99),
            quantile(&r.moves, 1.0),
            r.full_ms / median(&r.moves),
            median(&r.voronoi),
            median(&r.local_walls),
            median(&r.removed_edges),
            r.widenings,
            r.fallbacks,
            r.cut,
            r.checked,
            r.mismatches
        );
    }
}

// ---------------------------------------------------------------------------------------
// Insertions into an empty environment.

#[derive(Clone, Copy, Debug)]
enum Kind {
    Point,
    Triangle,
    Convex,
    Concave,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Point => "points",
            Kind::Triangle => "triangles",
            Kind::Convex => "convex",
            Kind::Concave => "concave",
        }
    }

    fn colour(self) -> &'static str {
        match self {
            Kind::Point => "#1b9e77",
            Kind::Triangle => "#d95f02",
            Kind::Convex => "#7570b3",
            Kind::Concave => "#e7298a",
        }
    }

    fn draw(self, rng: &mut ChaCha8Rng, size: f64) -> Obstacle {
        let c = Point::new(
            rng.random_range(2.0..size - 2.0),
            rng.random_range(2.0..size - 2.0),
        );
        let r = rng.random_range(0.3..1.5);
        match self {
            Kind::Point => Obstacle::Point(c),
            Kind::Triangle => {
                Obstacle::Polygon(Polygon::simple(random_convex_polygon(rng, c, r, 3)))
            }
            Kind::Convex => {
                let n = rng.random_range(4..9);
                Obstacle::Polygon(Polygon::simple(random_convex_polygon(rng, c, r, n)))
            }
            Kind::Concave => {
                let n = rng.random_range(5..10);
                Obstacle::Polygon(Polygon::simple(random_concave_polygon(rng, c, r, n)))
            }
        }
    }
}

struct InsertionSeries {
    kind: Kind,
    /// Time of insertion k (with k obstacles already present).
    times: Vec<f64>,
    /// (obstacles, full rebuild ms).
    full: Vec<(usize, f64)>,
    fallbacks: usize,
    mismatches: usize,
}

fn insertion_experiment(kind: Kind, inserts: usize) -> InsertionSeries {
    let size = 200.0;
    let env = Environment::rectangle(Point::ZERO, Point::new(size, size));
    let options = UpdateOptions::default();
    let mut map = DynamicEcm::with_options(env, options).expect("empty map");
    let mut rng = ChaCha8Rng::seed_from_u64(2000 + kind as u64);
    let mut s = InsertionSeries {
        kind,
        times: Vec::with_capacity(inserts),
        full: Vec::new(),
        fallbacks: 0,
        mismatches: 0,
    };
    let checkpoints = 8;
    let every = (inserts / checkpoints).max(1);
    while s.times.len() < inserts {
        let o = kind.draw(&mut rng, size);
        let (result, ms) = timed(|| {
            let patch = map.plan_update(&Change::Insert(o))?;
            let method = patch.report().method;
            map.apply(patch)?;
            Ok::<_, corridor_ecm::UpdateError>(method)
        });
        let Ok(method) = result else { continue };
        s.times.push(ms);
        if method == RepairMethod::FullRebuild {
            s.fallbacks += 1;
        }
        let n = s.times.len();
        if n.is_multiple_of(every) || n == 1 {
            s.full.push((n, full_rebuild_ms(map.environment(), 1)));
            if !check(&map, &format!("{} insertion {n}", kind.name())) {
                s.mismatches += 1;
            }
        }
    }
    s
}

fn print_insertions(series: &[InsertionSeries]) {
    println!();
    println!("2,000 insertions into an empty 200 × 200 environment (thread CPU ms per insertion)");
    println!("| obstacles | insertions 1–500 median | 501–1000 | 1001–1500 | 1501–2000 | p99 (all) | full rebuild at the end | speed-up at the end | fallbacks | mismatches |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for s in series {
        let q = s.times.len() / 4;
        let part = |k: usize| {
            median(&s.times[(k * q).min(s.times.len())..((k + 1) * q).min(s.times.len())])
        };
        let last_full = s.full.last().map(|f| f.1).unwrap_or(f64::NAN);
        let tail = &s.times[s.times.len().saturating_sub(200)..];
        println!(
            "| {} | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.1} ms | {:.0}× | {} | {} |",
            s.kind.name(),
            part(0),
            part(1),
            part(2),
            part(3),
            quantile(&s.times, 0.99),
            last_full,
            last_full / median(tail),
            s.fallbacks,
            s.mismatches
        );
    }
}

/// Time per insertion against the number of obstacles, log-scaled time axis: for each
/// kind, the median of every 50 insertions (line) and the full rebuilds (dots).
fn insertion_svg(series: &[InsertionSeries]) -> String {
    let (w, h) = (760.0, 440.0);
    let (left, right, top, bottom) = (70.0, 170.0, 40.0, 50.0);
    let n_max = series.iter().map(|s| s.times.len()).max().unwrap_or(1) as f64;
    let values = series
        .iter()
        .flat_map(|s| s.times.iter().copied().chain(s.full.iter().map(|f| f.1)));
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for v in values.filter(|v| *v > 0.0) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    let (lo, hi) = (
        10f64.powf(lo.max(1e-3).log10().floor()),
        10f64.powf(hi.max(1e-2).log10().ceil()),
    );
    let x = |n: f64| left + (w - left - right) * n / n_max;
    let y = |t: f64| {
        let f = (t.max(lo).log10() - lo.log10()) / (hi.log10() - lo.log10());
        h - bottom - (h - top - bottom) * f
    };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">Time per insertion against the number of obstacles (thread CPU time, log scale)</text>"#,
        w / 2.0
    );
    // Axes and grid.
    let mut t = lo;
    while t <= hi * 1.0001 {
        let yy = y(t);
        let _ = writeln!(
            svg,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            w - right,
            left - 6.0,
            yy + 4.0,
            if t < 1.0 {
                format!("{t} ms")
            } else {
                format!("{t:.0} ms")
            }
        );
        t *= 10.0;
    }
    let steps = 4;
    for k in 0..=steps {
        let n = n_max * k as f64 / steps as f64;
        let xx = x(n);
        let _ = writeln!(
            svg,
            r##"<line x1="{xx:.1}" y1="{top}" x2="{xx:.1}" y2="{:.1}" stroke="#eee"/><text x="{xx:.1}" y="{:.1}" text-anchor="middle">{n:.0}</text>"##,
            h - bottom,
            h - bottom + 18.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">obstacles in the environment</text>"#,
        (left + w - right) / 2.0,
        h - 10.0
    );
    let _ = writeln!(
        svg,
        r#"<rect x="{left}" y="{top}" width="{:.1}" height="{:.1}" fill="none" stroke="black"/>"#,
        w - left - right,
        h - top - bottom
    );
    // Series.
    for (k, s) in series.iter().enumerate() {
        let colour = s.kind.colour();
        let window = 50;
        let points: Vec<String> = s
            .times
            .chunks(window)
            .enumerate()
            .map(|(j, c)| {
                let n = (j * window + c.len() / 2) as f64;
                format!("{:.1},{:.1}", x(n), y(median(c)))
            })
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.6"/>"#,
            points.join(" ")
        );
        for (n, ms) in &s.full {
            let _ = writeln!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="none" stroke="{colour}" stroke-width="1.4"/>"#,
                x(*n as f64),
                y(*ms)
            );
        }
        let ly = top + 14.0 + 34.0 * k as f64;
        let lx = w - right + 14.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{lx}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{colour}" stroke-width="1.6"/><text x="{:.1}" y="{:.1}">{} (update)</text><circle cx="{:.1}" cy="{:.1}" r="3.5" fill="none" stroke="{colour}"/><text x="{:.1}" y="{:.1}">full rebuild</text>"#,
            lx + 18.0,
            lx + 24.0,
            ly + 4.0,
            s.kind.name(),
            lx + 9.0,
            ly + 16.0,
            lx + 24.0,
            ly + 20.0
        );
    }
    let _ = writeln!(
        svg,
        r##"<text x="{left}" y="{:.1}" font-size="10" fill="#555">lines: median of every 50 insertions; circles: full rebuild (normalization included) at that size</text>"##,
        top - 6.0
    );
    svg.push_str("</svg>\n");
    svg
}

// ---------------------------------------------------------------------------------------

fn load_map(name: &str) -> Option<Environment> {
    match corridor_io::load_environment(shared_dir().join(name)) {
        Ok(env) => Some(env),
        Err(e) => {
            eprintln!("skipping {name}: {e}");
            None
        }
    }
}

fn main() {
    let options = match parse_args() {
        Ok(Some(o)) => o,
        Ok(None) => {
            // Smoke test: one door on the military scene, a few moves, a few insertions.
            let row = door_experiment(
                "military",
                corridor_io::scenes::military(),
                false,
                2,
                1,
                true,
            );
            print_doors(&[row]);
            let row = moving_experiment("empty", corridor_io::scenes::empty(), 10);
            print_moving(&[row]);
            let s = insertion_experiment(Kind::Convex, 20);
            print_insertions(&[s]);
            return;
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    println!(
        "Dynamic update benchmark; load average at start: {}",
        std::fs::read_to_string("/proc/loadavg")
            .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    );
    let wanted = |name: &str| {
        options
            .map_filter
            .as_ref()
            .is_none_or(|f| name.contains(f.as_str()))
    };
    let mut mismatches = 0;
    if options.doors {
        let mut rows = Vec::new();
        for scene in corridor_io::scenes::Scene::ALL {
            if scene == corridor_io::scenes::Scene::Empty || !wanted(scene.name()) {
                continue;
            }
            rows.push(door_experiment(
                scene.name(),
                scene.build(),
                false,
                options.doors_per_map,
                options.repeat,
                options.checks,
            ));
            print_doors(&rows[rows.len() - 1..]);
        }
        for name in [
            "den520d.map",
            "brc202d.map",
            "Aurora.map",
            "random512-10-0.map",
        ] {
            if !wanted(name) {
                continue;
            }
            if let Some(env) = load_map(name) {
                rows.push(door_experiment(
                    name,
                    env,
                    true,
                    options.doors_per_map,
                    options.repeat,
                    options.checks,
                ));
                print_doors(&rows[rows.len() - 1..]);
            }
        }
        print_doors(&rows);
        mismatches += rows.iter().map(|r| r.mismatches).sum::<usize>();
    }
    if options.moving {
        let mut rows = Vec::new();
        for scene in corridor_io::scenes::Scene::ALL {
            if !wanted(scene.name()) {
                continue;
            }
            rows.push(moving_experiment(
                scene.name(),
                scene.build(),
                options.positions,
            ));
        }
        print_moving(&rows);
        mismatches += rows.iter().map(|r| r.mismatches).sum::<usize>();
    }
    if options.insertions {
        let series: Vec<InsertionSeries> =
            [Kind::Point, Kind::Triangle, Kind::Convex, Kind::Concave]
                .into_iter()
                .map(|k| insertion_experiment(k, options.inserts))
                .collect();
        print_insertions(&series);
        mismatches += series.iter().map(|s| s.mismatches).sum::<usize>();
        if let Some(path) = &options.svg {
            match std::fs::write(path, insertion_svg(&series)) {
                Ok(()) => println!("wrote {}", path.display()),
                Err(e) => eprintln!("could not write {}: {e}", path.display()),
            }
        }
    }
    if mismatches > 0 {
        eprintln!("{mismatches} mismatches with full rebuilds");
        std::process::exit(1);
    }
}
