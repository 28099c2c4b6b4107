//! Layered visibility polygons (the ECM walk through connections) against the test kit's
//! independent angular sweep (`LayeredSweep`: every wall of every layer, rays walked
//! through connections, no ECM): the area seen on each layer, on random free points of
//! random layers of `builtin:layers` and of the generated building.
//!
//! Points are drawn as in `visibility_layered.rs`: free by the ECM's (snapped) rule and
//! more than a grid step from its walls.

use corridor_ecm::{
    layered_visibility, layered_visibility_within, LayeredEcm, LayeredSightError, RegionEdge,
    ViewLimits,
};
use corridor_geom::{orient, LayerId, LayeredEnvironment, Orientation, Point};
use corridor_testkit::building::{building, BuildingOptions};
use corridor_testkit::layered_oracle::random_clear_layer_point as random_point;
use corridor_testkit::layered_visibility_oracle::LayeredSweep;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::f64::consts::TAU;

/// Random limits for a view of a map `size` across: a range (from a tenth to the whole
/// size), a cone (any direction, an opening up to the whole turn), or both.
fn random_limits(rng: &mut ChaCha8Rng, size: f64) -> ViewLimits {
    let range = rng.random_range(0.1..1.0) * size;
    let a = rng.random_range(0.0..TAU);
    let (direction, opening) = (Point::new(a.cos(), a.sin()), rng.random_range(0.05..TAU));
    match rng.random_range(0..3) {
        0 => ViewLimits::new().with_range(range),
        1 => ViewLimits::new().with_cone(direction, opening),
        _ => ViewLimits::new()
            .with_range(range)
            .with_cone(direction, opening),
    }
}

/// Compares `points` random viewpoints (on rayon's pool), with random limits when
/// `limited`; returns how many see into another layer.
fn compare(
    name: &str,
    world: &LayeredEnvironment,
    points: usize,
    seed: u64,
    limited: bool,
) -> usize {
    let ecm = LayeredEcm::build(world).unwrap();
    let sweep = LayeredSweep::new(world);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let size = world
        .layers()
        .map(|(_, l)| l.environment.bounds().size().max_element())
        .fold(0.0, f64::max);
    let sample: Vec<_> = (0..points)
        .map(|_| {
            let (from, q) = random_point(world, &ecm, &mut rng);
            let limits = limited.then(|| random_limits(&mut rng, size));
            (from, q, limits)
        })
        .collect();
    let results: Vec<(bool, f64, Vec<String>)> = sample
        .par_iter()
        .map(|&(from, q, limits)| {
            let (view, truth) = match limits {
                Some(limits) => (
                    layered_visibility_within(&ecm, from, q, &limits).unwrap(),
                    sweep.areas_within(from, q, limits.range(), limits.cone()),
                ),
                None => (
                    layered_visibility(&ecm, from, q).unwrap(),
                    sweep.areas(from, q),
                ),
            };
            let total: f64 = truth.iter().sum();
            let (mut worst, mut wrong) = (0.0f64, Vec::new());
            for (i, &t) in truth.iter().enumerate() {
                let ours = view.area_on(LayerId(i as u32));
                worst = worst.max((ours - t).abs() / t.max(total));
                if (ours - t).abs() > 1e-9 * t.max(1e-6 * total) {
                    wrong.push(format!(
                        "{from:?} {q:?} {limits:?}: layer {i}: ours {ours}, oracle {t}"
                    ));
                }
            }
            for region in view.regions() {
                assert_eq!(region.vertices().len(), region.kinds().len());
                assert!(region.area() > 0.0, "{from:?} {q:?}: {region:?}");
                // (One corner only for a whole range circle.)
                for (a, b, _) in region.edges().filter(|_| region.vertices().len() > 1) {
                    assert_ne!(a, b, "{from:?} {q:?}: {region:?}");
                }
            }
            // The viewpoint's own region comes first; its walls face the viewpoint.
            let own = &view.regions()[0];
            assert_eq!(own.layer(), from);
            assert_eq!(own.circle().map(|c| c.1), limits.and_then(|l| l.range()));
            assert!(own.edges().all(|(a, b, k)| k != RegionEdge::Wall
                || orient(a, b, q) == Orientation::CounterClockwise));
            let across = truth
                .iter()
                .enumerate()
                .any(|(i, &t)| i != from.0 as usize && t > 0.0);
            (across, worst, wrong)
        })
        .collect();
    let across = results.iter().filter(|r| r.0).count();
    let worst = results.iter().map(|r| r.1).fold(0.0, f64::max);
    let wrong: Vec<&String> = results.iter().flat_map(|r| &r.2).collect();
    println!(
        "{name}: {points} points, {across} see into another layer, worst relative area error {worst:.1e}, {} differ",
        wrong.len()
    );
    assert!(
        wrong.is_empty(),
        "{name}: {} differ:\n{:?}",
        wrong.len(),
        &wrong[..wrong.len().min(20)]
    );
    across
}

/// The sample size, or `LAYERED_VIEW_POINTS` for a longer run.
fn count(default: usize) -> usize {
    std::env::var("LAYERED_VIEW_POINTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

#[test]
fn layered_visibility_matches_the_sweep_on_builtin_layers() {
    let world = corridor_io::scenes::layers();
    let across = compare("builtin:layers", &world, count(400), 27, false);
    assert!(across > 40, "{across}");
}

#[test]
fn layered_visibility_matches_the_sweep_on_the_building() {
    let world = building(&BuildingOptions::default(), 27);
    let n = count(24);
    let across = compare("building", &world, n, 28, false);
    assert!(across >= n / 4, "{across}");
}

/// Range and cone: the regions cut to them against the sweep cut to them (its own
/// directions at the cone's sides and where walls cross the range circle).
#[test]
fn limited_layered_visibility_matches_the_clipped_sweep_on_builtin_layers() {
    let world = corridor_io::scenes::layers();
    let across = compare("builtin:layers, limited", &world, count(400), 29, true);
    assert!(across > 20, "{across}");
}

#[test]
fn limited_layered_visibility_matches_the_clipped_sweep_on_the_building() {
    let world = building(&BuildingOptions::default(), 27);
    let n = count(24);
    let across = compare("building, limited", &world, n, 30, true);
    assert!(across >= n / 8, "{across}");
}

#[test]
fn layered_visibility_rejects_bad_input() {
    let world = corridor_io::scenes::layers();
    let ecm = LayeredEcm::build(&world).unwrap();
    let (layer, p) = random_point(&world, &ecm, &mut ChaCha8Rng::seed_from_u64(1));
    assert!(matches!(
        layered_visibility(&ecm, LayerId(99), p),
        Err(LayeredSightError::Layer(_))
    ));
    assert!(matches!(
        layered_visibility(&ecm, layer, Point::new(f64::NAN, 0.0)),
        Err(LayeredSightError::Point(_))
    ));
    assert!(matches!(
        layered_visibility(&ecm, layer, Point::new(-1e6, -1e6)),
        Err(LayeredSightError::Point(_))
    ));
    for limits in [
        ViewLimits::new().with_range(0.0),
        ViewLimits::new().with_cone(Point::new(1.0, 0.0), 7.0),
    ] {
        assert!(matches!(
            layered_visibility_within(&ecm, layer, p, &limits),
            Err(LayeredSightError::Point(_))
        ));
    }
    let view = layered_visibility(&ecm, layer, p).unwrap();
    assert_eq!(view.origin(), (layer, p));
    assert!(view.regions()[0].kinds().contains(&RegionEdge::Wall));
}
