//! The published `boostvoronoi` 0.12.1 against Corridor's patched copy
//! (`vendor/boostvoronoi`, see its PATCH.md), on the walls of every shared map and of
//! random environments, in one run.
//!
//! `cargo run --release --manifest-path bench/voronoi-patch/Cargo.toml [-- --quick] [--synthetic]`
//! `cargo run --release --manifest-path bench/voronoi-patch/Cargo.toml -- --fuzz N`
//! (differential test on N random environments, see [`fuzz`]; `--mirror` flips them in y)
//! `… -- --dump SEED [--mirror]` (that fuzz input in the C++ driver's format),
//! `… -- --small N [--cpp]` (the time of the N smallest-kind inputs of the fuzz, like the
//! diagrams of local updates), `… -- --shrink SEED [--mirror]` (a smallest input of that seed the patched diagram gets
//! wrong), `… -- --show FILE [--cpp]` (the vertices of each diagram, wrong ones marked)
//!
//! With `--cpp`, C++ Boost.Polygon (1.74, Debian's headers; `cpp/build.sh` installs them
//! and builds the driver `cpp/out/boost_voronoi`) runs on the same sites: a third timing
//! column, and a third diagram checked by brute force in the differential test.
//!
//! For each input both builds run alternately on the same `i64` segments (the input
//! `corridor-ecm` gives the library), so every ratio comes from one run under one load.
//! Times are the CPU time of the benchmark thread; inputs under 50 ms are repeated in
//! batches. Both diagrams are compared: the same numbers of vertices, edges and cells,
//! and the largest difference between the coordinates of matching vertices (matched by
//! position, in grid units).

use corridor_testkit::{median, thread_cpu_time};
use corridor_testkit::random::{random_environment, ObstacleMix, RandomEnvironmentOptions};
use corridor_geom::{normalize, Environment};
use std::path::{Path, PathBuf};

/// The walls of an environment as the library's input.
struct Input {
    name: String,
    points: Vec<[i64; 2]>,
    segments: Vec<[i64; 4]>,
}

impl Input {
    /// The text `cpp/boost_voronoi.cpp` reads.
    fn text(&self) -> String {
        let mut text = format!("{}\n", self.points.len());
        for p in &self.points {
            text += &format!("{} {}\n", p[0], p[1]);
        }
        text += &format!("{}\n", self.segments.len());
        for s in &self.segments {
            text += &format!("{} {} {} {}\n", s[0], s[1], s[2], s[3]);
        }
        text
    }

    fn new(name: String, env: &Environment) -> Option<Input> {
        let walls = match normalize(env) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("{name}: skipped ({e})");
                return None;
            }
        };
        let sites = walls.integer_sites();
        Some(Input {
            name,
            points: sites.points,
            segments: sites.segments,
        })
    }
}

/// What is compared between the two diagrams.
#[derive(Debug, PartialEq)]
struct Shape {
    vertices: usize,
    edges: usize,
    cells: usize,
}

macro_rules! build_with {
    ($krate:ident, $input:expr) => {{
        let d = $krate::prelude::Builder::<i64>::default()
            .with_vertices($input.points.iter())
            .expect("points")
            .with_segments($input.segments.iter())
            .expect("segments")
            .build()
            .expect("diagram");
        let shape = Shape {
            vertices: d.vertices().len(),
            edges: d.edges().len(),
            cells: d.cells().len(),
        };
        let coordinates: Vec<[f64; 2]> = d.vertices().iter().map(|v| [v.x(), v.y()]).collect();
        (shape, coordinates)
    }};
}

/// The C++ Boost.Polygon driver, when `--cpp` was given (built by `cpp/build.sh`).
fn cpp_driver() -> Option<PathBuf> {
    std::env::args().any(|a| a == "--cpp").then(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("cpp/out/boost_voronoi");
        assert!(
            path.exists(),
            "--cpp needs {}: run bench/voronoi-patch/cpp/build.sh",
            path.display()
        );
        path
    })
}

/// Runs the C++ driver on `input` with `args`; its standard output.
fn run_cpp(driver: &Path, input: &Input, args: &[&str]) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(driver)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("C++ driver starts");
    let text = input.text();
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().expect("C++ driver runs");
    assert!(out.status.success(), "C++ driver failed on {}", input.name);
    String::from_utf8(out.stdout).expect("text")
}

/// The C++ diagram: its shape and vertex coordinates.
fn cpp_diagram(driver: &Path, input: &Input) -> (Shape, Vec<[f64; 2]>) {
    let out = run_cpp(driver, input, &[]);
    let mut lines = out.lines();
    let counts: Vec<usize> = lines
        .next()
        .expect("counts")
        .split_whitespace()
        .map(|c| c.parse().expect("count"))
        .collect();
    let coordinates = lines
        .map(|l| {
            let mut xy = l.split_whitespace().map(|c| c.parse::<f64>().expect("x y"));
            [xy.next().expect("x"), xy.next().expect("y")]
        })
        .collect();
    let shape = Shape {
        vertices: counts[0],
        edges: counts[1],
        cells: counts[2],
    };
    (shape, coordinates)
}

/// C++ build time in ms (thread CPU time per build, `reps` builds in one process).
fn cpp_time(driver: &Path, input: &Input, reps: usize) -> f64 {
    let out = run_cpp(driver, input, &["time", &reps.to_string()]);
    out.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .expect("time")
}

fn timed_batch(reps: usize, mut f: impl FnMut()) -> f64 {
    let start = thread_cpu_time();
    for _ in 0..reps {
        f();
    }
    (thread_cpu_time() - start).as_secs_f64() * 1e3 / reps as f64
}

/// Vertices in a canonical order: the sweep may meet tied circle events in another
/// order when their last bits differ, so vertices are matched by position, not index.
fn sorted(mut xy: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    let key = |p: &[f64; 2]| ((p[0] * 1e3).round() as i64, (p[1] * 1e3).round() as i64);
    xy.sort_by_key(key);
    xy
}

/// The largest coordinate difference between matching vertices of two diagrams with
/// the same number of vertices (matched by position).
fn largest_difference(a: Vec<[f64; 2]>, b: Vec<[f64; 2]>) -> f64 {
    sorted(a)
        .iter()
        .zip(&sorted(b))
        .map(|(a, b)| (a[0] - b[0]).abs().max((a[1] - b[1]).abs()))
        .fold(0.0, f64::max)
}

fn compare(input: &Input, samples: usize, cpp: Option<&Path>) {
    let (stock_shape, stock_xy) = build_with!(stock, input);
    let (patched_shape, patched_xy) = build_with!(patched, input);
    let max_difference = if stock_shape == patched_shape {
        format!("{:.1e}", largest_difference(stock_xy, patched_xy.clone()))
    } else {
        format!("DIFFERENT {stock_shape:?} / {patched_shape:?}")
    };
    let first = timed_batch(1, || {
        std::hint::black_box(build_with!(stock, input));
    });
    let reps = ((50.0 / first.max(1e-3)).ceil() as usize).clamp(1, 1000);
    let (mut t_stock, mut t_patched, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let (mut t_cpp, mut cpp_ratios) = (Vec::new(), Vec::new());
    for i in 0..samples {
        let (a, b);
        if i % 2 == 0 {
            a = timed_batch(reps, || {
                std::hint::black_box(build_with!(stock, input));
            });
            b = timed_batch(reps, || {
                std::hint::black_box(build_with!(patched, input));
            });
        } else {
            b = timed_batch(reps, || {
                std::hint::black_box(build_with!(patched, input));
            });
            a = timed_batch(reps, || {
                std::hint::black_box(build_with!(stock, input));
            });
        }
        if let Some(driver) = cpp {
            let c = cpp_time(driver, input, reps);
            t_cpp.push(c);
            cpp_ratios.push(b / c);
        }
        t_stock.push(a);
        t_patched.push(b);
        ratios.push(a / b);
    }
    let cpp_columns = match cpp {
        Some(driver) => {
            let (shape, xy) = cpp_diagram(driver, input);
            let same = if shape == patched_shape {
                format!("{:.1e}", largest_difference(xy, patched_xy))
            } else {
                format!("DIFFERENT {shape:?}")
            };
            format!(
                " {:.2} ms | {:.2}× | {same} |",
                median(&t_cpp),
                median(&cpp_ratios)
            )
        }
        None => String::new(),
    };
    println!(
        "| {} | {} | {:.2} ms | {:.2} ms | {:.2}× | {} |{cpp_columns}",
        input.name,
        input.segments.len() + input.points.len(),
        median(&t_stock),
        median(&t_patched),
        median(&ratios),
        max_difference
    );
}

fn shared_maps(data: &Path) -> Vec<PathBuf> {
    let mut maps = Vec::new();
    for (dir, ext) in [("movingai", "map"), ("polyanya", "mesh")] {
        if let Ok(entries) = std::fs::read_dir(data.join(dir)) {
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().and_then(|x| x.to_str()) == Some(ext) {
                    maps.push(p);
                }
            }
        }
    }
    maps.sort();
    maps
}

/// Whether every vertex of `a` has a vertex of `b` within a relative 1e-9 (both lists
/// sorted by x).
fn covered(a: &[[f64; 2]], b: &[[f64; 2]]) -> bool {
    a.iter().all(|p| {
        let tol = 1e-9 * (1.0 + p[0].abs().max(p[1].abs()));
        let from = b.partition_point(|q| q[0] < p[0] - tol);
        b[from..]
            .iter()
            .take_while(|q| q[0] <= p[0] + tol)
            .any(|q| (q[1] - p[1]).abs() <= tol)
    })
}

/// Distance from `p` to the segment `s`.
fn segment_distance(p: [f64; 2], s: &[i64; 4]) -> f64 {
    let (ax, ay, bx, by) = (s[0] as f64, s[1] as f64, s[2] as f64, s[3] as f64);
    let (dx, dy) = (bx - ax, by - ay);
    let t = (((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    (p[0] - ax - t * dx).hypot(p[1] - ay - t * dy)
}

/// The number of vertices that do not have three sites (input points, segment end
/// points, segments) at their smallest distance to any site: a Voronoi vertex has at
/// least three. Brute force, for small inputs.
fn wrong_vertices(input: &Input, vertices: &[[f64; 2]]) -> usize {
    let mut points: Vec<[i64; 2]> = input.points.clone();
    for s in &input.segments {
        points.push([s[0], s[1]]);
        points.push([s[2], s[3]]);
    }
    points.sort();
    points.dedup();
    let mut distances = Vec::new();
    vertices
        .iter()
        .filter(|v| {
            distances.clear();
            distances.extend(
                points
                    .iter()
                    .map(|q| (v[0] - q[0] as f64).hypot(v[1] - q[1] as f64)),
            );
            distances.extend(input.segments.iter().map(|s| segment_distance(**v, s)));
            let nearest = distances.iter().copied().fold(f64::INFINITY, f64::min);
            let tol = 1e-9 * (1.0 + v[0].abs().max(v[1].abs()));
            distances.iter().filter(|d| **d <= nearest + tol).count() < 3
        })
        .count()
}

/// Differential test: the walls of `count` random environments (every obstacle kind,
/// free and lattice coordinates, sizes from 40 to 2·10⁴ units) built by both versions
/// must give the same numbers of vertices and edges and the same vertex positions.
fn fuzz(count: u64, cpp: Option<&Path>) {
    let mut cpp_wrong = 0;
    let mut mismatches = 0;
    let mut sites = 0;
    let (mut stock_wrong, mut patched_wrong) = (0, 0);
    for seed in 0..count {
        let Some(input) = fuzz_input(seed) else {
            continue;
        };
        sites += input.segments.len() + input.points.len();
        let (sa, mut a) = build_with!(stock, input);
        let (sb, mut b) = build_with!(patched, input);
        a.sort_by(|p, q| p[0].total_cmp(&q[0]));
        b.sort_by(|p, q| p[0].total_cmp(&q[0]));
        let (wrong_a, wrong_b) = (wrong_vertices(&input, &a), wrong_vertices(&input, &b));
        stock_wrong += (wrong_a > 0) as usize;
        patched_wrong += (wrong_b > 0) as usize;
        let wrong_c = cpp.map_or(0, |driver| {
            let (_, mut c) = cpp_diagram(driver, &input);
            c.sort_by(|p, q| p[0].total_cmp(&q[0]));
            wrong_vertices(&input, &c)
        });
        cpp_wrong += (wrong_c > 0) as usize;
        if wrong_a + wrong_b + wrong_c > 0 {
            println!(
                "seed {seed}: wrong vertices: published {wrong_a}, patched {wrong_b}, C++ {}",
                if cpp.is_some() {
                    wrong_c.to_string()
                } else {
                    "-".into()
                }
            );
        }
        if sa != sb || !covered(&a, &b) || !covered(&b, &a) {
            mismatches += 1;
            if let Ok(dir) = std::env::var("VORONOI_PATCH_DUMP") {
                let _ = std::fs::write(format!("{dir}/seed{seed}.txt"), input.text());
            }
            println!("seed {seed}: stock {sa:?}, patched {sb:?}: different diagrams");
        }
    }
    println!(
        "{count} random inputs ({sites} sites): {mismatches} with different diagrams; \
         diagrams with a wrong vertex: published {stock_wrong}, patched {patched_wrong}{}",
        if cpp.is_some() {
            format!(", C++ Boost {cpp_wrong}")
        } else {
            String::new()
        }
    );
}

/// The fuzz input of `seed`.
fn fuzz_input(seed: u64) -> Option<Input> {
    let size = [40.0, 1_000.0, 5_000.0, 20_000.0][(seed % 4) as usize];
    let options = RandomEnvironmentOptions {
        obstacles: 2 + (seed as usize * 7) % 19,
        size,
        max_vertices: 3 + (seed as usize % 7),
        lattice: seed.is_multiple_of(3).then_some(size / 64.0),
        ..RandomEnvironmentOptions::scaled(size, corridor_geom::Point::new(size * 0.3, size * 1.7))
    };
    let mut input = Input::new(format!("seed {seed}"), &random_environment(seed, &options))?;
    if std::env::args().any(|a| a == "--mirror") {
        // The mirror image in y: ties between events are met in the other order.
        input.points.iter_mut().for_each(|p| p[1] = -p[1]);
        input.segments.iter_mut().for_each(|s| {
            s[1] = -s[1];
            s[3] = -s[3];
        });
    }
    Some(input)
}

/// Shrinks the fuzz input of `seed` to a smallest set of sites (by removing chunks, then
/// single sites) on which the patched diagram still has a wrong vertex, and prints it in
/// the C++ driver's format.
fn shrink(seed: u64) {
    let wrong = |input: &Input| {
        let (_, mut xy) = build_with!(patched, input);
        xy.sort_by(|p, q| p[0].total_cmp(&q[0]));
        wrong_vertices(input, &xy) > 0
    };
    let mut input = fuzz_input(seed).expect("input");
    assert!(wrong(&input), "seed {seed}: the patched diagram is right");
    let mut chunk = (input.points.len() + input.segments.len()) / 2;
    while chunk >= 1 {
        let mut start = 0;
        while start < input.points.len() + input.segments.len() {
            let mut trial = Input {
                name: input.name.clone(),
                points: Vec::new(),
                segments: Vec::new(),
            };
            let np = input.points.len();
            for (i, p) in input.points.iter().enumerate() {
                if !(start..start + chunk).contains(&i) {
                    trial.points.push(*p);
                }
            }
            for (i, s) in input.segments.iter().enumerate() {
                if !(start..start + chunk).contains(&(np + i)) {
                    trial.segments.push(*s);
                }
            }
            if wrong(&trial) {
                input = trial;
            } else {
                start += chunk;
            }
        }
        chunk /= 2;
    }
    print!("{}", input.text());
}

/// Builds each of `count` fuzz inputs five times with each version and counts the
/// inputs whose diagrams differ between builds of the same version: the beach line is a
/// skip list whose levels come from the thread's random generator.
fn repeat(count: u64) {
    let (mut stock_varies, mut patched_varies) = (0, 0);
    for seed in 0..count {
        let Some(input) = fuzz_input(seed) else {
            continue;
        };
        let key = |(shape, xy): (Shape, Vec<[f64; 2]>)| {
            (
                format!("{shape:?}"),
                sorted(xy)
                    .iter()
                    .map(|p| format!("{:.6} {:.6}", p[0], p[1]))
                    .collect::<Vec<_>>(),
            )
        };
        let stock: Vec<_> = (0..5).map(|_| key(build_with!(stock, input))).collect();
        let patched: Vec<_> = (0..5).map(|_| key(build_with!(patched, input))).collect();
        let varies = |v: &[(String, Vec<String>)]| v.iter().any(|k| k != &v[0]);
        if varies(&stock) || varies(&patched) {
            println!(
                "seed {seed}: published varies {}, patched varies {}",
                varies(&stock),
                varies(&patched)
            );
        }
        stock_varies += varies(&stock) as usize;
        patched_varies += varies(&patched) as usize;
    }
    println!("{count} inputs built 5 times each: diagrams vary between builds for published {stock_varies}, patched {patched_varies}");
}

/// The first `count` inputs: those in `--dir DIR` (C++ driver format, e.g. local update
/// diagrams, in file-name order), or else the fuzz inputs of seeds `0..count`.
fn first_inputs(count: u64) -> Vec<Input> {
    match value_of("--dir") {
        Some(dir) => {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("--dir")
                .map(|e| e.expect("entry").path())
                .collect();
            paths.sort();
            paths
                .iter()
                .take(count as usize)
                .map(|p| read_input(p))
                .collect()
        }
        None => (0..count).filter_map(fuzz_input).collect(),
    }
}

/// Times small diagrams like those of local updates (the fuzz inputs of seeds `0..count`,
/// 6 to 200 sites): the total CPU time of building each once, published against
/// patched (and C++ with `--cpp`, timed inside its driver), in `rounds` alternating rounds.
fn small(count: u64, cpp: Option<&Path>) {
    let inputs = first_inputs(count);
    let sites: usize = inputs
        .iter()
        .map(|i| i.segments.len() + i.points.len())
        .sum();
    let rounds = 7;
    let (mut stock, mut patched, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    // `--patched-only`: for profiles of the patched library alone.
    let with_stock = !std::env::args().any(|a| a == "--patched-only");
    for _ in 0..rounds {
        let a = timed_batch(1, || {
            for input in inputs.iter().filter(|_| with_stock) {
                std::hint::black_box(build_with!(stock, input));
            }
        });
        let b = timed_batch(1, || {
            for input in &inputs {
                std::hint::black_box(build_with!(patched, input));
            }
        });
        stock.push(a);
        patched.push(b);
        ratios.push(a / b);
    }
    let per_site = |ms: f64| ms * 1e3 / sites as f64;
    let (a, b) = (median(&stock), median(&patched));
    print!(
        "{} small inputs, {sites} sites ({:.1} per input): published {a:.1} ms ({:.2} µs per site), \
         patched {b:.1} ms ({:.2} µs per site), speed-up {:.2}×",
        inputs.len(),
        sites as f64 / inputs.len() as f64,
        per_site(a),
        per_site(b),
        median(&ratios)
    );
    if let Some(driver) = cpp {
        let c: f64 = inputs.iter().map(|i| cpp_time(driver, i, 200)).sum();
        print!(
            ", C++ {c:.1} ms ({:.2} µs per site), patched / C++ {:.2}",
            per_site(c),
            b / c
        );
    }
    println!();
}

/// `--digest N [--dir DIR] [--maps]`: one FNV-1a hash over the whole patched diagram of
/// each input (vertex coordinates bit for bit, every edge's cell, vertex, twin, next and
/// prev, every cell's source and incident edge), to check that a library change leaves
/// every diagram exactly as it was. Prints one line per input and the total.
fn digest(count: u64) {
    let mut inputs = first_inputs(count);
    if std::env::args().any(|a| a == "--maps") {
        let data = corridor_testkit::data_dir();
        for path in shared_maps(&data) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if let Ok(env) = corridor_io::load_environment(&path) {
                inputs.extend(Input::new(name, &env));
            }
        }
    }
    let mut total = Fnv::default();
    for input in &inputs {
        let d = patched::prelude::Builder::<i64>::default()
            .with_vertices(input.points.iter())
            .expect("points")
            .with_segments(input.segments.iter())
            .expect("segments")
            .build()
            .expect("diagram");
        let mut h = Fnv::default();
        for v in d.vertices() {
            h.add(v.x().to_bits());
            h.add(v.y().to_bits());
            h.add(v.get_incident_edge().map_or(u64::MAX, |e| e.usize() as u64));
        }
        for e in d.edges() {
            let index = |r: Option<usize>| r.map_or(u64::MAX, |i| i as u64);
            h.add(index(e.cell().ok().map(|c| c.usize())));
            h.add(index(e.vertex0().map(|v| v.usize())));
            h.add(index(e.twin().ok().map(|t| t.usize())));
            h.add(index(e.next().ok().map(|t| t.usize())));
            h.add(index(e.prev().ok().map(|t| t.usize())));
            h.add(u64::from(e.is_primary()) | u64::from(e.is_linear()) << 1);
        }
        for c in d.cells() {
            h.add(c.source_index().usize() as u64);
            h.add(c.source_category() as u64);
            h.add(c.get_incident_edge().map_or(u64::MAX, |e| e.usize() as u64));
        }
        println!("{:016x} {}", h.0, input.name);
        total.add(h.0);
    }
    println!("{:016x} total over {} inputs", total.0, inputs.len());
}

/// 64-bit FNV-1a over words.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn add(&mut self, word: u64) {
        for byte in word.to_le_bytes() {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Reads an input in the C++ driver's format.
fn read_input(path: &Path) -> Input {
    let text = std::fs::read_to_string(path).expect("input file");
    let mut numbers = text
        .split_whitespace()
        .map(|n| n.parse::<i64>().expect("integer"));
    let mut next = || numbers.next().expect("more numbers");
    let points = (0..next()).map(|_| [next(), next()]).collect();
    let segments = (0..next())
        .map(|_| [next(), next(), next(), next()])
        .collect();
    Input {
        name: path.display().to_string(),
        points,
        segments,
    }
}

/// Prints the vertices of each version's diagram of the input in `path`, marking those
/// that fail the brute-force check.
fn show(path: &Path, cpp: Option<&Path>) {
    let input = read_input(path);
    let mut diagrams = vec![
        ("published", build_with!(stock, input)),
        ("patched", build_with!(patched, input)),
    ];
    if let Some(driver) = cpp {
        diagrams.push(("C++", cpp_diagram(driver, &input)));
    }
    for (name, (shape, xy)) in diagrams {
        println!("{name}: {shape:?}");
        for v in sorted(xy) {
            let wrong = wrong_vertices(&input, &[v]) > 0;
            println!(
                "  {:.9} {:.9}{}",
                v[0],
                v[1],
                if wrong { "  WRONG" } else { "" }
            );
        }
    }
}

/// The argument after `flag`, when `flag` was given.
fn value_of(flag: &str) -> Option<String> {
    let mut args = std::env::args().skip_while(|a| a != flag);
    args.next()?;
    Some(
        args.next()
            .unwrap_or_else(|| panic!("{flag} needs a value")),
    )
}

fn main() {
    if let Some(path) = value_of("--show") {
        show(Path::new(&path), cpp_driver().as_deref());
        return;
    }
    if let Some(count) = value_of("--repeat") {
        repeat(count.parse().expect("--repeat N"));
        return;
    }
    if let Some(seed) = value_of("--dump") {
        let input = fuzz_input(seed.parse().expect("--dump SEED")).expect("input");
        print!("{}", input.text());
        return;
    }
    if let Some(seed) = value_of("--shrink") {
        shrink(seed.parse().expect("--shrink SEED"));
        return;
    }
    if let Some(count) = value_of("--digest") {
        digest(count.parse().expect("--digest N"));
        return;
    }
    if let Some(count) = value_of("--small") {
        small(count.parse().expect("--small N"), cpp_driver().as_deref());
        return;
    }
    if let Some(count) = value_of("--fuzz") {
        fuzz(count.parse().expect("--fuzz N"), cpp_driver().as_deref());
        return;
    }
    let cpp = cpp_driver();
    let cpp = cpp.as_deref();
    let quick = std::env::args().any(|a| a == "--quick");
    let samples = if quick { 3 } else { 7 };
    let data = corridor_testkit::data_dir();
    if cpp.is_some() {
        println!("| input | sites | published 0.12.1 | patched | speed-up (median of per-sample ratios) | largest vertex difference | C++ Boost 1.74 | patched / C++ | largest vertex difference, C++ |");
        println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    } else {
        println!("| input | sites | published 0.12.1 | patched | speed-up (median of per-sample ratios) | largest vertex difference |");
        println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    }
    let synthetic_only = std::env::args().any(|a| a == "--synthetic");
    let maps = if synthetic_only {
        Vec::new()
    } else {
        shared_maps(&data)
    };
    for path in maps {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match corridor_io::load_environment(&path) {
            Ok(env) => {
                if let Some(input) = Input::new(name, &env) {
                    compare(&input, samples, cpp);
                }
            }
            Err(e) => eprintln!("{name}: skipped ({e})"),
        }
    }
    let sizes: &[usize] = if quick { &[1_000] } else { &[1_000, 10_000] };
    for &obstacles in sizes {
        let options = RandomEnvironmentOptions {
            obstacles,
            size: (obstacles as f64).sqrt() * 20.0,
            mix: ObstacleMix::POLYGONS,
            // Radii of 3-8 units on a 20-unit spacing: mostly separate obstacles.
            min_radius: 0.15 / (obstacles as f64).sqrt(),
            max_radius: 0.4 / (obstacles as f64).sqrt(),
            ..Default::default()
        };
        let env = random_environment(1, &options);
        if let Some(input) = Input::new(format!("random polygons, {obstacles} obstacles"), &env) {
            compare(&input, samples, cpp);
        }
        let grid =
            RandomEnvironmentOptions::grid_map((obstacles as f64).sqrt() as usize * 4, obstacles);
        let env = random_environment(1, &grid);
        if let Some(input) = Input::new(format!("random grid map, {obstacles} blocks"), &env) {
            compare(&input, samples, cpp);
        }
    }
}
