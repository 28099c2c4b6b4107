//! The build runs its independent stages side by side on the current rayon pool: the ECM
//! must not depend on the thread count. Every shared map, the built-in scenes and random
//! environments are built on pools of 1, 2 and 3 threads; the saved bytes (deterministic,
//! every vertex, edge, bending point and the cell index) and the canonical form must be
//! the same, and the same as a build outside any pool.

mod common;

use corridor_ecm::{BuildOptions, Ecm};
use corridor_geom::Environment;
use corridor_testkit::random::{random_environment, RandomEnvironmentOptions};
use corridor_testkit::worlds::{city, random_grid_map, CityOptions};

/// The built-in scenes and six random environments (grid maps and free obstacles, in
/// turn), named.
fn scenes_and_random_worlds() -> Vec<(String, Environment)> {
    let scenes = ["military", "dungeon", "city"].map(|name| {
        let env = corridor_io::scenes::Scene::from_name(name).unwrap().build();
        (name.to_owned(), env)
    });
    let random = (0..6).map(|seed| {
        let options = if seed % 2 == 0 {
            RandomEnvironmentOptions::grid_map(40, 150)
        } else {
            RandomEnvironmentOptions {
                obstacles: 60,
                ..Default::default()
            }
        };
        (format!("random {seed}"), random_environment(seed, &options))
    });
    scenes.into_iter().chain(random).collect()
}

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
    for (name, env) in scenes_and_random_worlds() {
        assert_same_for_any_thread_count(&name, &env);
    }
    let grid = corridor_io::read_map_environment(&random_grid_map(96, 64, 0.1, 30));
    assert_same_for_any_thread_count("random grid 96x64", &grid.unwrap());
    let options = CityOptions {
        blocks: 12,
        ..CityOptions::default()
    };
    assert_same_for_any_thread_count("city 12x12", &city(&options, 30));
}

fn build_tiled_on(threads: usize, tiles: usize, env: &Environment) -> Ecm {
    let options = BuildOptions {
        tiles,
        ..BuildOptions::default()
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| Ecm::build_with(env, &options).unwrap())
}

/// Builds `env` from each count of strips in `tile_counts` on 1 and 2 threads: the same
/// ECM as the sequential build; returns how many of the builds were stitched rather than
/// fallen back.
fn assert_tiled_same(name: &str, env: &Environment, tile_counts: &[usize]) -> usize {
    let sequential = build_on(1, env);
    let mut stitched = 0;
    for &tiles in tile_counts {
        let one = build_tiled_on(1, tiles, env);
        assert_eq!(
            one.canonical_diff(&sequential, 0.0),
            None,
            "{name}: {tiles} tiles"
        );
        let two = build_tiled_on(2, tiles, env);
        assert!(
            two.to_bytes() == one.to_bytes(),
            "{name}: {tiles} tiles, 2 threads saved other bytes than 1"
        );
        eprintln!("{name}: {tiles} tiles -> {}", one.stats().tiles);
        stitched += usize::from(one.stats().tiles == tiles);
    }
    stitched
}

#[test]
fn stitched_strips_equal_the_sequential_build() {
    let maps = corridor_testkit::movingai_maps();
    assert!(maps.len() >= 10);
    let mut stitched = 0;
    for map in &maps {
        let env = corridor_io::load_environment(map).unwrap();
        stitched += assert_tiled_same(&map.display().to_string(), &env, &[2]);
    }
    for (name, env) in scenes_and_random_worlds() {
        assert_tiled_same(&name, &env, &[2]);
    }
    // Grids and cities have short edges: every strip seam is certified.
    let grid = corridor_io::read_map_environment(&random_grid_map(160, 120, 0.1, 30)).unwrap();
    assert_eq!(assert_tiled_same("random grid 160x120", &grid, &[2, 3]), 2);
    let options = CityOptions {
        blocks: 12,
        ..CityOptions::default()
    };
    assert_eq!(
        assert_tiled_same("city 12x12", &city(&options, 30), &[2, 3]),
        2
    );
    eprintln!(
        "{stitched} of {} shared-map builds stitched",
        2 * maps.len()
    );
}
