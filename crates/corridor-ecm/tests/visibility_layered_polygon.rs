//! Layered visibility polygons (the ECM walk through connections) against the test kit's
//! independent angular sweep (`LayeredSweep`: every wall of every layer, rays walked
//! through connections, no ECM): the area seen on each layer, on random free points of
//! random layers of `builtin:layers` and of the generated building.
//!
//! Points are drawn as in `visibility_layered.rs`: free by the ECM's (snapped) rule and
//! more than a grid step from its walls.

use corridor_ecm::{layered_visibility, LayeredEcm, LayeredSightError, RegionEdge};
use corridor_geom::{orient, LayerId, LayeredEnvironment, Orientation, Point, SnapGrid};
use corridor_testkit::building::{building, BuildingOptions};
use corridor_testkit::layered_oracle::{in_snapped_free_space, random_layer_point};
use corridor_testkit::layered_visibility_oracle::LayeredSweep;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

const GRID_STEP: f64 = 1.0 / SnapGrid::DEFAULT_SCALE;

fn random_point(
    world: &LayeredEnvironment,
    ecm: &LayeredEcm,
    rng: &mut ChaCha8Rng,
) -> (LayerId, Point) {
    loop {
        let (layer, p) = random_layer_point(world, rng);
        let env = &world.layer(layer).unwrap().environment;
        if in_snapped_free_space(env, SnapGrid::default(), p)
            && ecm.clearance(layer, p).is_ok_and(|c| c > GRID_STEP)
        {
            return (layer, p);
        }
    }
}

/// Compares `points` random viewpoints (on rayon's pool); returns how many see into
/// another layer.
fn compare(name: &str, world: &LayeredEnvironment, points: usize, seed: u64) -> usize {
    let ecm = LayeredEcm::build(world).unwrap();
    let sweep = LayeredSweep::new(world);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let sample: Vec<_> = (0..points)
        .map(|_| random_point(world, &ecm, &mut rng))
        .collect();
    let results: Vec<(bool, f64, Vec<String>)> = sample
        .par_iter()
        .map(|&(from, q)| {
            let view = layered_visibility(&ecm, from, q).unwrap();
            let truth = sweep.areas(from, q);
            let total: f64 = truth.iter().sum();
            let (mut worst, mut wrong) = (0.0f64, Vec::new());
            for (i, &t) in truth.iter().enumerate() {
                let ours = view.area_on(LayerId(i as u32));
                worst = worst.max((ours - t).abs() / t.max(total));
                if (ours - t).abs() > 1e-9 * t.max(1e-6 * total) {
                    wrong.push(format!(
                        "{from:?} {q:?}: layer {i}: ours {ours}, oracle {t}"
                    ));
                }
            }
            for region in view.regions() {
                assert_eq!(region.vertices().len(), region.kinds().len());
                assert!(region.area() > 0.0, "{from:?} {q:?}: {region:?}");
                for (a, b, _) in region.edges() {
                    assert_ne!(a, b, "{from:?} {q:?}: {region:?}");
                }
            }
            // The viewpoint's own region comes first; its walls face the viewpoint.
            let own = &view.regions()[0];
            assert_eq!(own.layer(), from);
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
    let across = compare(
        "builtin:layers",
        &corridor_io::scenes::layers(),
        count(400),
        27,
    );
    assert!(across > 40, "{across}");
}

#[test]
fn layered_visibility_matches_the_sweep_on_the_building() {
    let world = building(&BuildingOptions::default(), 27);
    let n = count(24);
    let across = compare("building", &world, n, 28);
    assert!(across >= n / 4, "{across}");
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
    let view = layered_visibility(&ecm, layer, p).unwrap();
    assert_eq!(view.origin(), (layer, p));
    assert!(view.regions()[0].kinds().contains(&RegionEdge::Wall));
}
