//! The long seeded fuzz run: N inputs (default 1,000,000) per target (every reader, the
//! saved-ECM loader, damaged and forged, and the native update/obstacle files). Prints
//! one line per target: inputs, accepted, panics (with the first panicking input's
//! number: replay it with the same seed). Targets can be picked by a part of their name.
//!
//! `cargo run --release -p corridor-testkit --example fuzz -- [N] [SEED] [NAME...]`

#[path = "../tests/fuzz_targets/mod.rs"]
mod fuzz_targets;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let inputs: u64 = args
        .first()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(25);
    let names = args.get(2..).unwrap_or_default();
    std::panic::set_hook(Box::new(|_| {}));
    for target in fuzz_targets::targets() {
        if !names.is_empty() && !names.iter().any(|n| target.name.contains(n.as_str())) {
            continue;
        }
        let started = std::time::Instant::now();
        let report =
            corridor_testkit::fuzz::run(&target.corpus, target.tokens, inputs, seed, &target.run);
        println!(
            "{}: {} inputs, {} accepted, {} panics{} ({:.0} s, seed {seed})",
            target.name,
            report.inputs,
            report.accepted,
            report.panics,
            report
                .panicking
                .first()
                .map(|(i, _)| format!(", first at input {i}"))
                .unwrap_or_default(),
            started.elapsed().as_secs_f64()
        );
    }
}
