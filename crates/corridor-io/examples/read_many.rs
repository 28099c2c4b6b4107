//! Times the native JSON and GeoJSON readers on many unit squares (the hardening issue's
//! inputs: 10k, 100k, 1M obstacles), and, for comparison in the same run, the way the
//! readers found positions before (each obstacle's line and column counted from the start
//! of the text) at the smaller sizes. Medians of 3 runs, thread CPU seconds.
//!
//! `cargo run --release -p corridor-io --example read_many -- [MAX_N]`

use corridor_testkit::hostile::{squares_geojson, squares_json};

/// Median thread CPU seconds of 3 runs (steadier than the wall clock on a shared machine).
fn seconds(mut f: impl FnMut()) -> f64 {
    let times: Vec<f64> = (0..3)
        .map(|_| corridor_testkit::timed(&mut f).1 / 1e3)
        .collect();
    corridor_testkit::median(&times)
}

/// What the readers did per obstacle before: the line and column of its start counted
/// from the start of the text.
fn positions_from_the_start(text: &str) -> usize {
    let mut sum = 0;
    for (at, _) in text.match_indices("{\"polygon\"") {
        let before = &text.as_bytes()[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        sum += line + at - start;
    }
    sum
}

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    println!(
        "| obstacles | native JSON (s) | GeoJSON (s) | positions counted from the start (s) |"
    );
    println!("|---:|---:|---:|---:|");
    for n in [10_000, 100_000, 1_000_000]
        .into_iter()
        .filter(|&n| n <= max)
    {
        let json = squares_json(n);
        let geojson = squares_geojson(n);
        let native = seconds(|| {
            assert_eq!(
                corridor_io::read_json(&json).unwrap().obstacles().count(),
                n
            )
        });
        let geo = seconds(|| {
            assert_eq!(
                corridor_io::read_geojson(&geojson)
                    .unwrap()
                    .obstacles()
                    .count(),
                n
            )
        });
        let before = if n <= 10_000 {
            format!(
                "{:.2}",
                seconds(|| assert!(positions_from_the_start(&json) > 0))
            )
        } else {
            "(not run: quadratic)".into()
        };
        println!("| {n} | {native:.2} | {geo:.2} | {before} |");
    }
}
