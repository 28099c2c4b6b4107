//! The soak of dynamic updates ([`corridor_testkit::soak`]): thousands of random insertions,
//! removals, moves and batches on random environments, each compared with a full rebuild.
//! Together with `update.rs` these are more than 10,000 compared operations.

use corridor_testkit::soak::{soak, SoakOptions};

fn run(ops: usize, seed: u64, options: SoakOptions) {
    let clock = std::time::Instant::now();
    let report = soak(ops, seed, &options);
    println!(
        "{ops} ops, seed {seed}, {:.1} s: {report:#?}",
        clock.elapsed().as_secs_f64()
    );
    assert_eq!(report.mismatches, 0, "{:#?}", report.details);
    assert_eq!(report.operations + report.rejected, ops);
    assert_eq!(report.checked, report.operations);
    assert_eq!(report.full_rebuilds, 0, "{report:?}");
    assert!(report.local > report.operations / 2, "{report:?}");
}

/// Grid maps and rectangles on a lattice: shared edges, diagonal pinches, doors that
/// split and join components (the window method normalizes them).
#[test]
fn soak_rectilinear_environments() {
    run(
        5500,
        11,
        SoakOptions {
            kinds: vec![3, 4],
            max_obstacles: 12,
            ops_per_environment: 100,
            ..Default::default()
        },
    );
}

/// Every obstacle kind, a star-shaped boundary, large overlapping polygons, tiny
/// coordinates (the group method normalizes them).
#[test]
fn soak_general_environments_a() {
    run(
        1200,
        12,
        SoakOptions {
            kinds: vec![0, 1, 2, 5],
            max_obstacles: 6,
            ops_per_environment: 100,
            ..Default::default()
        },
    );
}

/// As `soak_general_environments_a`, other seeds.
#[test]
fn soak_general_environments_b() {
    run(
        1200,
        13,
        SoakOptions {
            kinds: vec![1, 2, 5, 0],
            max_obstacles: 6,
            ops_per_environment: 100,
            ..Default::default()
        },
    );
}

/// A long soak over every random environment kind (`SOAK_OPS` operations, default
/// 20,000; `SOAK_SEED`): `cargo test --release --test update_soak -- --ignored --nocapture`.
#[test]
#[ignore]
fn long_soak() {
    let number = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let ops = number("SOAK_OPS", 20_000) as usize;
    let seed = number("SOAK_SEED", 2024);
    let clock = std::time::Instant::now();
    let report = soak(ops, seed, &SoakOptions::default());
    println!(
        "{ops} ops, seed {seed}, {:.1} s: {report:#?}",
        clock.elapsed().as_secs_f64()
    );
    assert_eq!(report.mismatches, 0, "{:#?}", report.details);
}
