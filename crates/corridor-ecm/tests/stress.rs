//! Stress: many random small inputs (3 to 8 two-sided segments in a box, small and large
//! coordinates); every returned ECM is checked independently by brute force, and none may
//! be invalid. Runs on two threads.
mod common;
use common::*;
use corridor_ecm::{BuildError, BuildOptions, Ecm};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Number of inputs (`CORRIDOR_STRESS_INPUTS` overrides it for longer runs).
fn inputs() -> u64 {
    std::env::var("CORRIDOR_STRESS_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}
const THREADS: u64 = 2;

#[test]
fn hundred_thousand_random_small_inputs() {
    let started = std::time::Instant::now();
    let inputs = inputs();
    let results: Vec<(u64, u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                scope.spawn(move || {
                    let (mut built, mut recoveries, mut refused) = (0, 0, 0);
                    for i in (t..inputs).step_by(THREADS as usize) {
                        let mut rng = ChaCha8Rng::seed_from_u64(i);
                        let count = rng.random_range(3..=8);
                        let range = [1_000, 1_000_000, 200_000_000][(i % 3) as usize];
                        let segs = random_segments(&mut rng, count, range);
                        let walls = walls_in_box_with_margin(&[], &segs, 0.2);
                        // Arcs sampled to a hundredth of the coordinate range (walls are
                        // on a grid of scale 1, so user units are grid steps).
                        let options = BuildOptions {
                            max_arc_deviation: range as f64 * 1e-2,
                            ..BuildOptions::default()
                        };
                        match Ecm::from_walls_with(&walls, &options) {
                            Ok(ecm) => {
                                check_ecm(&ecm, &walls, free_area_of(&walls));
                                built += 1;
                                recoveries += ecm.stats().recoveries as u64;
                            }
                            // Refusing is allowed (never seen so far); returning a wrong ECM is not.
                            Err(e @ BuildError::Unrecoverable { .. }) => {
                                eprintln!("input {i}: {e}");
                                refused += 1;
                            }
                            Err(e) => panic!("input {i}: {e}"),
                        }
                    }
                    (built, recoveries, refused)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let built: u64 = results.iter().map(|r| r.0).sum();
    let recoveries: u64 = results.iter().map(|r| r.1).sum();
    let refused: u64 = results.iter().map(|r| r.2).sum();
    println!(
        "{inputs} inputs in {:?}: {built} valid ECMs, {recoveries} recoveries, {refused} refused",
        started.elapsed()
    );
    assert_eq!(built + refused, inputs);
    assert_eq!(refused, 0);
}
