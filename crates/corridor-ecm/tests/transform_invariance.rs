//! The ECM does not depend on the exact transform its Voronoi diagram was built under.
//!
//! Recovery rebuilds an input under a rotation, mirror or shift of the integer grid, and
//! a local repair builds a region on its own: the diagram library rounds differently in
//! each case. The medial axis is the same geometry, so the ECM must be the same, down to
//! the number of bending points of every edge (an arc sampled into one piece more, or an
//! apex that falls on a Voronoi vertex kept as a second point, would make a local repair
//! differ from a full rebuild). Lattice inputs are where such ties happen.

use corridor_ecm::{BuildOptions, Ecm, Transform};
use corridor_geom::Environment;
use corridor_testkit::random::{random_environment, ObstacleMix, RandomEnvironmentOptions};

/// Bending points of every edge, keyed by the edge's ends (sorted), in a canonical order.
fn edge_profile(ecm: &Ecm) -> Vec<((i64, i64, i64, i64), usize)> {
    let key = |p: corridor_geom::Point| ((p.x * 1e6).round() as i64, (p.y * 1e6).round() as i64);
    let mut profile: Vec<_> = ecm
        .edges()
        .map(|(_, e)| {
            let a = key(e.bending_points[0].position);
            let b = key(e.bending_points[e.bending_points.len() - 1].position);
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            ((a.0, a.1, b.0, b.1), e.bending_points.len())
        })
        .collect();
    profile.sort_unstable();
    profile
}

fn check(name: &str, env: &Environment) {
    let reference = Ecm::build_with(
        env,
        &BuildOptions {
            recovery: vec![Transform::Identity],
            ..BuildOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{name}: identity build fails: {e}"));
    let expected = edge_profile(&reference);
    for &transform in &Transform::RECOVERY_SEQUENCE[1..] {
        let options = BuildOptions {
            recovery: vec![transform],
            ..BuildOptions::default()
        };
        let ecm = Ecm::build_with(env, &options)
            .unwrap_or_else(|e| panic!("{name}: build under {transform:?} fails: {e}"));
        if let Some(d) = ecm.canonical_diff(&reference, 1e-6) {
            panic!("{name}: under {transform:?}: {d}");
        }
        assert_eq!(
            ecm.cell_index().len(),
            reference.cell_index().len(),
            "{name}: cell index size under {transform:?}"
        );
        let got = edge_profile(&ecm);
        let differing: Vec<_> = got
            .iter()
            .zip(&expected)
            .filter(|(a, b)| a != b)
            .take(3)
            .collect();
        assert!(
            got.len() == expected.len() && differing.is_empty(),
            "{name}: bending points per edge differ under {transform:?}: {differing:?}"
        );
    }
}

#[test]
fn lattice_rectangles_are_sampled_alike_under_every_transform() {
    for seed in 0..40 {
        let env = random_environment(
            seed,
            &RandomEnvironmentOptions {
                obstacles: 25,
                mix: ObstacleMix::RECTANGLES,
                lattice: Some(2.0),
                ..Default::default()
            },
        );
        check(&format!("lattice rectangles seed {seed}"), &env);
    }
}

#[test]
fn grid_maps_are_sampled_alike_under_every_transform() {
    for seed in 0..20 {
        let env = random_environment(seed, &RandomEnvironmentOptions::grid_map(24, 30));
        check(&format!("grid map seed {seed}"), &env);
    }
}

#[test]
fn random_obstacles_are_sampled_alike_under_every_transform() {
    for seed in 0..40 {
        let env = random_environment(
            seed,
            &RandomEnvironmentOptions {
                obstacles: 12,
                ..Default::default()
            },
        );
        check(&format!("random obstacles seed {seed}"), &env);
    }
}
