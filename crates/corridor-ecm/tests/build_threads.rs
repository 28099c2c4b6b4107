//! The build runs its independent stages side by side on the current rayon pool: the ECM
//! must not depend on the thread count. Every shared map, the built-in scenes and random
//! environments are built on pools of 1, 2 and 3 threads; the saved bytes (deterministic,
//! every vertex, edge, bending point and the cell index) and the canonical form must be
//! the same, and the same as a build outside any pool.

mod common;

use corridor_ecm::Ecm;
use corridor_geom::Environment;
use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};
use corridor_testkit::worlds::{city, random_grid_map, CityOptions};

fn build_on(threads: usize, env: &Environment) -> Ecm {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| Ecm::build(env).unwrap())
}

fn assert_same_for_any_thread_count(name: &str, env: &Environment) {
    let one = build_on(1, env);
    let bytes = one.to_bytes();
    for threads in [2, 3] {
        let other = build_on(threads, env);
        assert!(
            other.to_bytes() == bytes,
            "{name}: {threads} threads saved other bytes than 1"
        );
        assert_eq!(
            other.canonical_diff(&one, 0.0),
            None,
            "{name}: {threads} threads"
        );
    }
    assert!(
        Ecm::build(env).unwrap().to_bytes() == bytes,
        "{name}: global pool"
    );
}

#[test]
fn shared_maps_build_alike_on_any_thread_count() {
    let dir = common::shared_data().join("movingai");
    let maps = corridor_testkit::movingai_maps();
    assert!(maps.len() >= 10, "{} maps in {}", maps.len(), dir.display());
    for map in maps {
        let env = corridor_io::load_environment(&map).unwrap();
        assert_same_for_any_thread_count(&map.display().to_string(), &env);
    }
}

#[test]
fn scenes_and_random_worlds_build_alike_on_any_thread_count() {
    for name in ["military", "dungeon", "city"] {
        let env = corridor_io::scenes::Scene::from_name(name).unwrap().build();
        assert_same_for_any_thread_count(name, &env);
    }
    for seed in 0..6 {
        let options = if seed % 2 == 0 {
            RandomEnvironmentOptions::grid_map(40, 150)
        } else {
            RandomEnvironmentOptions {
                obstacles: 60,
                ..Default::default()
            }
        };
        let env = random_environment(seed, &options);
        assert_same_for_any_thread_count(&format!("random {seed}"), &env);
    }
    let grid = corridor_io::read_map_environment(&random_grid_map(96, 64, 0.1, 30));
    assert_same_for_any_thread_count("random grid 96x64", &grid.unwrap());
    let options = CityOptions {
        blocks: 12,
        ..CityOptions::default()
    };
    assert_same_for_any_thread_count("city 12x12", &city(&options, 30));
}
