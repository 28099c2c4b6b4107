//! Writes a large generated world to a file, for `corridor build` and the issue-30
//! benchmarks (docs/BENCHMARKS.md):
//!
//! ```sh
//! cargo run --release -p corridor-testkit --example world -- grid 2048 2048 0.1 30 /tmp/r2048.map
//! cargo run --release -p corridor-testkit --example world -- city 10000 1000000 30 /tmp/city.json
//! ```
//!
//! `grid WIDTH HEIGHT BLOCKED SEED OUT` writes a Moving AI map
//! ([`corridor_testkit::worlds::random_grid_map`]); `city SIZE VERTICES SEED OUT` a native
//! JSON city `SIZE` units a side with about `VERTICES` obstacle vertices
//! ([`corridor_testkit::worlds::city`]).

use corridor_testkit::worlds::{city, random_grid_map, CityOptions};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("world: {message}");
            eprintln!("usage: world grid WIDTH HEIGHT BLOCKED SEED OUT | world city SIZE VERTICES SEED OUT");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    fn num<T: std::str::FromStr>(args: &[String], i: usize, what: &str) -> Result<T, String> {
        let text = args.get(i).ok_or(format!("missing {what}"))?;
        text.parse().map_err(|_| format!("bad {what}: {text:?}"))
    }
    let (text, out) = match args.first().map(String::as_str) {
        Some("grid") => {
            let text = random_grid_map(
                num(args, 1, "WIDTH")?,
                num(args, 2, "HEIGHT")?,
                num(args, 3, "BLOCKED")?,
                num(args, 4, "SEED")?,
            );
            (text, args.get(5))
        }
        Some("city") => {
            let size: f64 = num(args, 1, "SIZE")?;
            let options = CityOptions::with_vertices(size, num(args, 2, "VERTICES")?);
            let env = city(&options, num(args, 3, "SEED")?);
            let text = corridor_io::write_json(&env).map_err(|e| e.to_string())?;
            (text, args.get(4))
        }
        _ => return Err("the first argument is grid or city".into()),
    };
    let out = out.ok_or("missing OUT")?;
    std::fs::write(out, text).map_err(|e| format!("{out}: {e}"))
}
