//! Full builds from environments: seeded random environments of every obstacle kind
//! (points, segments, polylines, convex, concave, with holes, overlapping, touching and
//! crossing the boundary, on a lattice with diagonal pinches) and the shared maps loaded
//! by `corridor_io`, each checked independently against its normalized walls.
mod common;
use common::*;
use corridor_ecm::Ecm;
use corridor_geom::normalize;
use corridor_testkit::random::{
    random_environment, BoundaryShape, ObstacleMix, RandomEnvironmentOptions,
};

fn check_env(env: &corridor_geom::Environment, what: &str) -> Ecm {
    let ecm = Ecm::build(env).unwrap_or_else(|e| panic!("{what}: {e}"));
    let walls = normalize(env).unwrap();
    check_ecm(&ecm, &walls, free_area_of(&walls));
    ecm
}

#[test]
fn random_environments_of_every_kind() {
    let mixes = [
        ObstacleMix::ALL,
        ObstacleMix::POLYGONS,
        ObstacleMix::RECTANGLES,
    ];
    for seed in 0..120u64 {
        let options = RandomEnvironmentOptions {
            obstacles: 1 + (seed as usize % 25),
            size: [1.0, 100.0, 20_000.0][seed as usize % 3],
            boundary: if seed % 4 == 3 {
                BoundaryShape::Star
            } else {
                BoundaryShape::Square
            },
            mix: mixes[(seed / 3) as usize % 3],
            lattice: (seed % 5 == 4).then_some([0.1, 5.0, 1000.0][seed as usize % 3]),
            ..RandomEnvironmentOptions::default()
        };
        let env = random_environment(seed, &options);
        let ecm = check_env(&env, &format!("seed {seed}"));
        assert!(ecm.component_count() >= 1);
        // One ECM component per free-space shape. Polylines take no area, so where they
        // close loops they cut a shape into several components: only more, never fewer.
        let shapes = normalize(&env).unwrap().free_space().len();
        if options.mix == ObstacleMix::ALL {
            assert!(ecm.component_count() >= shapes, "seed {seed}");
        } else {
            assert_eq!(ecm.component_count(), shapes, "seed {seed}");
        }
    }
}

#[test]
fn shared_maps_through_corridor_io() {
    for name in ["arena.map", "den312d.map", "AR0011SR.map"] {
        let path = shared_data().join("movingai").join(name);
        let env = corridor_io::load_environment(&path).unwrap_or_else(|e| panic!("{e}"));
        let ecm = check_env(&env, name);
        let (w, h, blocked) = read_movingai(&path);
        let (count, _) = grid_components(w, h, &blocked);
        assert_eq!(ecm.component_count(), count, "{name}");
        let s = ecm.stats();
        println!(
            "{name}: normalize {:?}, voronoi {:?}, extraction {:?}, validation {:?}, index {:?}",
            s.normalize, s.voronoi, s.extraction, s.validation, s.index
        );
    }
}

/// Every shared map and mesh: the free-space shapes derived from the walls
/// (`Walls::free_space`) equal the shapes `i_overlay` builds, up to the canonical form,
/// and the exact free area from the walls equals the sum over the contours.
#[test]
fn shared_maps_free_space_equals_the_overlay_shapes() {
    let mut files: Vec<_> = ["movingai", "polyanya"]
        .iter()
        .flat_map(|d| std::fs::read_dir(shared_data().join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("map" | "mesh")))
        .collect();
    files.sort();
    assert!(files.len() >= 14);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let env = corridor_io::load_environment(&path).unwrap();
        let walls = normalize(&env).unwrap();
        let (reference_walls, reference) =
            corridor_geom::normalize_with_overlay_shapes(&env).unwrap();
        assert_eq!(walls, reference_walls, "{name}: walls");
        let derived = walls.free_space();
        assert_eq!(derived, reference, "{name}: free-space shapes");
        let area: i128 = derived
            .iter()
            .flatten()
            .map(|c| {
                (0..c.len())
                    .map(|i| {
                        let (a, b) = (c[i], c[(i + 1) % c.len()]);
                        a.x as i128 * b.y as i128 - b.x as i128 * a.y as i128
                    })
                    .sum::<i128>()
            })
            .sum();
        assert_eq!(walls.free_area_twice_grid(), area, "{name}: free area");
        println!(
            "{name}: {} shapes, {} holes",
            derived.len(),
            derived.iter().map(|s| s.len() - 1).sum::<usize>()
        );
    }
}

/// Phase timings of every shared map (a measurement, not a check; run with
/// `cargo test --release -p corridor-ecm --test environments -- --ignored --nocapture`).
#[test]
#[ignore]
fn phase_timings_of_shared_maps() {
    let maps = corridor_testkit::movingai_maps();
    for path in maps {
        let env = corridor_io::load_environment(&path).unwrap();
        let ecm = Ecm::build(&env).unwrap();
        let s = ecm.stats();
        let bytes = ecm.to_bytes();
        let t = std::time::Instant::now();
        let loaded = Ecm::from_bytes(&bytes).unwrap();
        let load = t.elapsed();
        assert_eq!(loaded.edge_count(), ecm.edge_count());
        println!(
            "{}: {} segments, {} vertices, {} edges, {} bending points, {} components, {} recoveries | normalize {:.1} ms, voronoi {:.1} ms, extraction {:.1} ms, validation {:.1} ms, index {:.1} ms, total {:.1} ms | load {:.1} ms ({:.0}× faster), {} KiB",
            path.file_name().unwrap().to_string_lossy(), s.input_segments, s.vertices, s.edges, s.bending_points, s.components, s.recoveries,
            ms(s.normalize), ms(s.voronoi), ms(s.extraction), ms(s.validation), ms(s.index), ms(s.total()),
            ms(load), s.total().as_secs_f64() / load.as_secs_f64(), bytes.len() / 1024
        );
    }
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
