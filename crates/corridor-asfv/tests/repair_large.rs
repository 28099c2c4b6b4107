//! Repair on large grid maps: valid after every change, and (run with `--ignored`) the
//! repair time against a full rebuild for obstacles of several sizes.

mod common;

use corridor_asfv::{AsfvOptions, Decomposition};
use corridor_geom::{Obstacle, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// Inserts and then removes `count` square obstacles of side `size` at random free
/// places; returns the mean insertion and removal times.
fn insert_then_remove(
    d: &mut Decomposition,
    rng: &mut ChaCha8Rng,
    size: f64,
    count: usize,
    validate: bool,
) -> (Duration, Duration) {
    let b = d.environment().bounds();
    let (mut t_in, mut t_out) = (Duration::ZERO, Duration::ZERO);
    let mut ids = Vec::new();
    while ids.len() < count {
        let c = Point::new(
            rng.random_range(b.min.x..b.max.x - size),
            rng.random_range(b.min.y..b.max.y - size),
        );
        if d.locate(c).is_none() {
            continue;
        }
        let t = Instant::now();
        let (id, report) = d
            .insert_with_report(Obstacle::rectangle(c, c + Point::splat(size)))
            .unwrap();
        t_in += t.elapsed();
        if validate {
            if let Some(area) = report.area {
                d.validate_within(area.expanded(1.0)).unwrap();
            }
        }
        ids.push(id);
    }
    for id in ids {
        let t = Instant::now();
        let (_, report) = d.remove_with_report(id).unwrap();
        t_out += t.elapsed();
        if validate {
            if let Some(area) = report.area {
                d.validate_within(area.expanded(1.0)).unwrap();
            }
        }
    }
    (t_in / count as u32, t_out / count as u32)
}

#[test]
fn repairs_on_a_large_map_stay_valid() {
    let env =
        corridor_io::load_environment(common::shared_data().join("movingai/Aurora.map")).unwrap();
    let params = AsfvOptions::default();
    let mut d = Decomposition::build(&env, &params).unwrap();
    let before = d.coverage().fraction();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for size in [1.0, 4.0, 16.0] {
        insert_then_remove(&mut d, &mut rng, size, 8, true);
    }
    d.validate().unwrap();
    let after = d.coverage().fraction();
    assert!((after - before).abs() < 0.01, "{before} -> {after}");
}

#[test]
#[ignore = "benchmark: prints repair time against full rebuild"]
fn repair_against_rebuild_on_large_maps() {
    for map in ["Aurora.map", "random512-10-0.map", "den520d.map"] {
        let env = corridor_io::load_environment(common::shared_data().join("movingai").join(map))
            .unwrap();
        let params = AsfvOptions::default();
        let t = Instant::now();
        let mut d = Decomposition::build(&env, &params).unwrap();
        let rebuild = t.elapsed();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for size in [1.0, 4.0, 16.0] {
            let (t_in, t_out) = insert_then_remove(&mut d, &mut rng, size, 20, false);
            println!(
                "{map:20} size {size:4}: insert {:?} ({:.1}% of rebuild), remove {:?} ({:.1}%), full rebuild {:?}",
                t_in,
                100.0 * t_in.as_secs_f64() / rebuild.as_secs_f64(),
                t_out,
                100.0 * t_out.as_secs_f64() / rebuild.as_secs_f64(),
                rebuild
            );
        }
        d.validate().unwrap();
    }
}
