//! How the ECM build's time and peak memory grow with the number of wall segments, on the
//! generated worlds (issue 30; the table and plot in docs/BENCHMARKS.md):
//!
//! ```sh
//! cargo run --release -p corridor-testkit --example scaling -- --svg docs/images/build-scaling.svg
//! cargo run --release -p corridor-testkit --example scaling -- --grid 128,256 --city 10000 --threads 2
//! ```
//!
//! Each world is built in a child process of its own (this program with `--one`), so that
//! its peak resident memory (`getrusage`'s `ru_maxrss`, which includes the generated world)
//! and its CPU time (user + system, all threads) belong to that build alone. `--grid
//! SIDES` are random Moving AI grids `SIDE²` with 10 % of the cells blocked
//! ([`corridor_testkit::worlds::random_grid_map`]); `--city VERTICES` are cities of about
//! that many obstacle vertices on `10 km · √(VERTICES / 10⁶)` a side
//! ([`corridor_testkit::worlds::city`]); seed 30 for all. `--threads N` sets the build's
//! pool (`RAYON_NUM_THREADS`; default 1).

use corridor_ecm::Ecm;
use corridor_testkit::worlds::{city, random_grid_map, CityOptions};
use std::process::{Command, ExitCode};
use std::time::Instant;

const SEED: u64 = 30;

/// One measured build.
struct Row {
    kind: String,
    size: usize,
    segments: usize,
    vertices: usize,
    bending_points: usize,
    cpu_s: f64,
    wall_s: f64,
    peak_kib: u64,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = if args.first().map(String::as_str) == Some("--one") {
        one(&args[1..])
    } else {
        all(&args)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("scaling: {message}");
            eprintln!("usage: scaling [--grid SIDES] [--city VERTICES] [--threads N] [--svg PATH]");
            ExitCode::FAILURE
        }
    }
}

/// The child: builds one world and prints its row (tab-separated).
fn one(args: &[String]) -> Result<(), String> {
    let size: usize = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .ok_or("--one KIND SIZE")?;
    let env = match args.first().map(String::as_str) {
        Some("grid") => corridor_io::read_map_environment(&random_grid_map(size, size, 0.1, SEED))
            .map_err(|e| e.to_string())?,
        Some("city") => {
            let side = 10_000.0 * (size as f64 / 1e6).sqrt();
            city(&CityOptions::with_vertices(side, size), SEED)
        }
        _ => return Err("the kind is grid or city".into()),
    };
    let cpu_before = cpu_seconds();
    let started = Instant::now();
    let ecm = Ecm::build(&env).map_err(|e| e.to_string())?;
    let wall_s = started.elapsed().as_secs_f64();
    let cpu_s = cpu_seconds() - cpu_before;
    println!(
        "{}\t{}\t{}\t{}\t{}\t{:.3}\t{:.3}\t{}",
        args[0],
        size,
        ecm.stats().input_segments,
        ecm.vertex_count(),
        ecm.bending_point_count(),
        cpu_s,
        wall_s,
        peak_kib()
    );
    Ok(())
}

/// User + system CPU seconds of this process (all threads).
fn cpu_seconds() -> f64 {
    let usage = rusage();
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// The peak resident set of this process, KiB (Linux reports `ru_maxrss` in KiB).
fn peak_kib() -> u64 {
    rusage().ru_maxrss as u64
}

fn rusage() -> libc::rusage {
    // SAFETY: `getrusage` fills the zeroed struct it is given and reads nothing else.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    }
}

/// The parent: runs every world in a child, prints the table, writes the plot.
fn all(args: &[String]) -> Result<(), String> {
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .map(|i| {
                args.get(i + 1)
                    .cloned()
                    .ok_or(format!("{flag} needs a value"))
            })
            .transpose()
    };
    let list = |text: Option<String>, default: &str| -> Result<Vec<usize>, String> {
        text.as_deref()
            .unwrap_or(default)
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().map_err(|_| format!("bad size {s:?}")))
            .collect()
    };
    let grids = list(value("--grid")?, "128,256,512,1024,1448,2048")?;
    let cities = list(value("--city")?, "10000,30000,100000,300000,1000000")?;
    let threads = value("--threads")?.unwrap_or_else(|| "1".into());
    let svg = value("--svg")?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    let jobs = grids
        .iter()
        .map(|&s| ("grid", s))
        .chain(cities.iter().map(|&v| ("city", v)));
    println!("| world | size | wall segments | ECM vertices | bending points | CPU | wall | peak RSS | RSS / segment |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (kind, size) in jobs {
        let out = Command::new(&exe)
            .args(["--one", kind, &size.to_string()])
            .env("RAYON_NUM_THREADS", &threads)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "{kind} {size}: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let row = parse_row(&String::from_utf8_lossy(&out.stdout))
            .ok_or(format!("{kind} {size}: unreadable child output"))?;
        println!(
            "| {} | {} | {} | {} | {} | {:.2} s | {:.2} s | {:.0} MB | {:.2} KiB |",
            row.kind,
            row.size,
            row.segments,
            row.vertices,
            row.bending_points,
            row.cpu_s,
            row.wall_s,
            row.peak_kib as f64 * 1.024 / 1000.0,
            row.peak_kib as f64 / row.segments.max(1) as f64
        );
        rows.push(row);
    }
    if let Some(path) = svg {
        std::fs::write(&path, plot(&rows)).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}

fn parse_row(line: &str) -> Option<Row> {
    let f: Vec<&str> = line.trim().split('\t').collect();
    Some(Row {
        kind: f.first()?.to_string(),
        size: f.get(1)?.parse().ok()?,
        segments: f.get(2)?.parse().ok()?,
        vertices: f.get(3)?.parse().ok()?,
        bending_points: f.get(4)?.parse().ok()?,
        cpu_s: f.get(5)?.parse().ok()?,
        wall_s: f.get(6)?.parse().ok()?,
        peak_kib: f.get(7)?.parse().ok()?,
    })
}

/// What a plot panel shows of a row.
type Measure = fn(&Row) -> f64;

/// Two log-log panels against wall segments: CPU seconds and peak MB, one line per kind.
fn plot(rows: &[Row]) -> String {
    let (w, h, pad) = (420.0, 300.0, 50.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n",
        2.0 * w
    );
    let panels: [(&str, Measure); 2] = [
        ("build CPU (s)", |r| r.cpu_s),
        ("peak RSS (MB)", |r| r.peak_kib as f64 * 1.024 / 1000.0),
    ];
    let log_range = |values: Vec<f64>| {
        let lo = values
            .iter()
            .cloned()
            .fold(f64::INFINITY, f64::min)
            .max(1e-3);
        let hi = values.iter().cloned().fold(0.0, f64::max).max(lo * 10.0);
        (lo.log10().floor(), hi.log10().ceil())
    };
    let (x0, x1) = log_range(rows.iter().map(|r| r.segments as f64).collect());
    for (p, (title, get)) in panels.iter().enumerate() {
        let left = p as f64 * w + pad;
        let (y0, y1) = log_range(rows.iter().map(get).collect());
        let px = |x: f64| left + (x.log10() - x0) / (x1 - x0) * (w - 1.5 * pad);
        let py = |y: f64| h - pad - (y.log10() - y0) / (y1 - y0) * (h - 1.5 * pad);
        s += &format!(
            "<text x=\"{}\" y=\"16\" text-anchor=\"middle\">{title} against wall segments</text>\n",
            left + (w - 1.5 * pad) / 2.0
        );
        for e in x0 as i32..=x1 as i32 {
            let x = px(10f64.powi(e));
            s += &format!("<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">1e{e}</text>\n", pad / 2.0, h - pad, h - pad + 14.0);
        }
        for e in y0 as i32..=y1 as i32 {
            let y = py(10f64.powi(e));
            s += &format!("<line x1=\"{left:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">1e{e}</text>\n", left + w - 1.5 * pad, left - 4.0, y + 4.0);
        }
        for (i, (kind, colour)) in [("grid", "#1f77b4"), ("city", "#d62728")]
            .iter()
            .enumerate()
        {
            let points: Vec<String> = rows
                .iter()
                .filter(|r| r.kind == *kind)
                .map(|r| format!("{:.1},{:.1}", px(r.segments as f64), py(get(r))))
                .collect();
            if points.is_empty() {
                continue;
            }
            s += &format!(
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>\n",
                points.join(" ")
            );
            for pt in &points {
                let (x, y) = pt.split_once(',').unwrap_or(("0", "0"));
                s += &format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"3\" fill=\"{colour}\"/>\n");
            }
            s += &format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"{colour}\">{}</text>\n",
                left + 10.0,
                pad / 2.0 + 14.0 * (i + 1) as f64,
                if *kind == "grid" {
                    "random grid, 10 %"
                } else {
                    "city"
                }
            );
        }
    }
    s + "</svg>\n"
}
