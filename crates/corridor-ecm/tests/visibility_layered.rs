//! Layered line of sight (the ECM walk through connections) against the test kit's
//! independent layered oracle (`LayeredVisibility::sees`: the segment walked through the
//! connections over every wall of each layer, no ECM), on random free points of random
//! layers of `builtin:layers` and of the generated building.
//!
//! The oracle lets a segment touch a wall (it was written for paths) where ours counts a
//! touch as blocked; random points in general position never touch one.

use corridor_ecm::{layered_line_of_sight, LayeredEcm, LayeredSightError};
use corridor_geom::{LayerId, LayeredEnvironment, Point};
use corridor_testkit::building::{building, BuildingOptions};
use corridor_testkit::layered_oracle::{in_closed_free_space, LayeredVisibility};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_point(
    world: &LayeredEnvironment,
    ecm: &LayeredEcm,
    rng: &mut ChaCha8Rng,
) -> (LayerId, Point) {
    loop {
        let layer = LayerId(rng.random_range(0..world.layer_count() as u32));
        let env = &world.layer(layer).unwrap().environment;
        let b = env.bounds();
        let p = Point::new(
            rng.random_range(b.min.x..b.max.x),
            rng.random_range(b.min.y..b.max.y),
        );
        // Free by the oracle's test and by the layer's own ECM (its cell index).
        let ecm_free = ecm.layer(layer).is_ok_and(|e| e.locate_free(p).is_ok());
        if in_closed_free_space(env, p)
            && ecm_free
            && ecm.clearance(layer, p).is_ok_and(|c| c > 1e-6)
        {
            return (layer, p);
        }
    }
}

/// Compares `pairs` random pairs; returns (pairs seen across layers, pairs on two layers).
fn compare(name: &str, world: &LayeredEnvironment, pairs: usize, seed: u64) -> (usize, usize) {
    let ecm = LayeredEcm::build(world).unwrap();
    let oracle = LayeredVisibility::new(world);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut across, mut seen_across, mut seen, mut wrong) = (0, 0, 0, Vec::new());
    for _ in 0..pairs {
        let (from, p) = random_point(world, &ecm, &mut rng);
        let (to, q) = random_point(world, &ecm, &mut rng);
        let ours = layered_line_of_sight(&ecm, from, p, to, q).unwrap();
        let truth = oracle.sees(from, p, to, q);
        if ours != truth {
            wrong.push(format!(
                "{from:?} {p:?} → {to:?} {q:?}: ours {ours}, oracle {truth}"
            ));
        }
        seen += truth as usize;
        if from != to {
            across += 1;
            seen_across += truth as usize;
        }
    }
    println!("{name}: {pairs} pairs, {seen} seen, {seen_across} of {across} across layers seen, {} differ", wrong.len());
    assert!(
        wrong.is_empty(),
        "{name}: {} of {pairs} differ:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
    (seen_across, across)
}

#[test]
fn layered_line_of_sight_matches_the_oracle_on_builtin_layers() {
    let (seen_across, across) =
        compare("builtin:layers", &corridor_io::scenes::layers(), 10_000, 27);
    // The sample crosses connections: the comparison is not only within layers.
    assert!(
        seen_across > 100 && across > 5_000,
        "{seen_across} of {across}"
    );
}

#[test]
fn layered_line_of_sight_matches_the_oracle_on_the_building() {
    let world = building(&BuildingOptions::default(), 27);
    let (seen_across, across) = compare("building", &world, 4_000, 28);
    assert!(
        seen_across > 10 && across > 1_000,
        "{seen_across} of {across}"
    );
}

#[test]
fn layered_line_of_sight_rejects_bad_input() {
    let world = corridor_io::scenes::layers();
    let ecm = LayeredEcm::build(&world).unwrap();
    let free = random_point(&world, &ecm, &mut ChaCha8Rng::seed_from_u64(1));
    let bad_layer = LayerId(99);
    assert!(matches!(
        layered_line_of_sight(&ecm, bad_layer, free.1, free.0, free.1),
        Err(LayeredSightError::Layer(_))
    ));
    assert!(matches!(
        layered_line_of_sight(&ecm, free.0, free.1, free.0, Point::new(f64::NAN, 0.0)),
        Err(LayeredSightError::Point(_))
    ));
    assert!(matches!(
        layered_line_of_sight(&ecm, free.0, Point::new(-1e6, -1e6), free.0, free.1),
        Err(LayeredSightError::Point(_))
    ));
    // A point sees itself.
    assert!(layered_line_of_sight(&ecm, free.0, free.1, free.0, free.1).unwrap());
}
