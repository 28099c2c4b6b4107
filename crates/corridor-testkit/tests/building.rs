//! The multi-storey building generator: seeded, valid, of the promised size, and its
//! floors joined so that the layered planner's paths between any two floors match the
//! independent layered visibility-graph oracle (on a lightly furnished building, where
//! the oracle is quick).

use corridor_ecm::{LayeredEcm, LayeredPlanner};
use corridor_geom::{LayerId, Point};
use corridor_testkit::building::{building, BuildingOptions};
use corridor_testkit::layered_oracle::{in_closed_free_space, LayeredVisibility};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn the_default_building_is_seeded_valid_and_about_ten_thousand_vertices() {
    let options = BuildingOptions::default();
    let world = building(&options, 7);
    world.validate().unwrap();
    assert_eq!(world.layer_count(), 4 + 2 * 3);
    assert_eq!(world.connections().len(), 12);
    assert!((9_000..11_000).contains(&world.vertex_count()));
    // Every floor has two staircases up (but the top) and two down (but the ground).
    for f in 0..4u32 {
        let stairs = world.connections_of(LayerId(f)).count();
        assert_eq!(stairs, if f == 0 || f == 3 { 2 } else { 4 }, "floor {f}");
    }
    let again = building(&options, 7);
    assert_eq!(
        corridor_io::write_layered_json(&world).unwrap(),
        corridor_io::write_layered_json(&again).unwrap()
    );
    assert_ne!(building(&options, 8).vertex_count(), 0);
}

#[test]
fn paths_between_floors_match_the_layered_oracle() {
    // Three small floors (the planner's set-up grows with the square of the crossing
    // samples per floor), lightly furnished (the oracle with the cube of the vertices).
    let options = BuildingOptions {
        floors: 3,
        width: 80.0,
        depth: 30.0,
        furnished: 0.1,
        ..BuildingOptions::default()
    };
    let world = building(&options, 3);
    let ecm = LayeredEcm::build(&world).unwrap();
    let planner = LayeredPlanner::new(&ecm, 0.0).unwrap();
    let oracle = LayeredVisibility::new(&world);
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    let mut point = |floor: u32| loop {
        let p = Point::new(
            rng.random::<f64>() * options.width,
            rng.random::<f64>() * options.depth,
        );
        let layer = LayerId(floor);
        let env = &world.layer(layer).unwrap().environment;
        if in_closed_free_space(env, p) && ecm.clearance(layer, p).is_ok_and(|c| c > 1e-3) {
            return (layer, p);
        }
    };
    for k in 0..12u32 {
        let ((from, a), (to, b)) = (point(k % 3), point((k + 1 + k / 3) % 3));
        let (want, _) = oracle
            .shortest_path(from, a, to, b)
            .expect("every floor reaches every other");
        let got = planner.plan(from, a, to, b).unwrap();
        assert!(got.length >= want - 1e-6, "{from} {a} -> {to} {b}");
        assert!(
            got.length <= want * 1.005,
            "{from} {a} -> {to} {b}: {} against the oracle's {want}",
            got.length
        );
        let floors_apart = (from.0 as i64 - to.0 as i64).unsigned_abs() as usize;
        // One flight per storey, two connections per flight.
        assert!(got.crossings.len() >= 2 * floors_apart);
    }
}
