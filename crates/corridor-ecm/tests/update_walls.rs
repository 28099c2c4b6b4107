//! Local re-normalization ([`corridor_geom::WallMap`]): after every random insertion,
//! removal and move, the walls kept by the map must be exactly the walls of a full
//! normalization.

use corridor_geom::{
    normalize, Environment, NormalizeScope, Obstacle, ObstacleEdit, ObstacleId, Point, WallKey,
    WallMap,
};
use corridor_testkit::random::{
    random_environment, random_obstacle, BoundaryShape, ObstacleMix, RandomEnvironmentOptions,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashSet};

/// Runs random changes through a [`WallMap`] and compares with full normalizations;
/// returns how often each scope was used.
fn soak(
    mut env: Environment,
    ops: usize,
    seed: u64,
    mut draw: impl FnMut(&mut ChaCha8Rng, &Environment) -> Obstacle,
    step: f64,
    group_fraction: f64,
    name: &str,
) -> BTreeMap<String, usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (map, _) = WallMap::new(&env).unwrap();
    let mut map = map.with_group_fraction(group_fraction);
    let mut scopes: BTreeMap<String, usize> = BTreeMap::new();
    for k in 0..ops {
        let ids: Vec<ObstacleId> = env.obstacles().map(|(id, _)| id).collect();
        let roll: f64 = rng.random();
        let (id, new) = if ids.is_empty() || roll < 0.45 {
            (env.next_id(), Some(draw(&mut rng, &env)))
        } else if roll < 0.7 {
            (ids[rng.random_range(0..ids.len())], None)
        } else {
            let id = ids[rng.random_range(0..ids.len())];
            let d = Point::new(rng.random_range(-step..step), rng.random_range(-step..step));
            (id, Some(env.obstacle(id).unwrap().translated(d)))
        };
        let edit = ObstacleEdit {
            id,
            obstacle: new.as_ref(),
        };
        let delta = match map.plan(&env, &[edit]) {
            Ok(d) => d,
            Err(_) => continue,
        };
        let scope = format!("{:?}", delta.scope());
        if delta.scope() == NormalizeScope::Global {
            let note = delta.note().unwrap_or("").to_string();
            let short: String = note.chars().take(90).collect();
            *scopes.entry(format!("global: {short}")).or_default() += 1;
        }
        *scopes.entry(scope).or_default() += 1;
        map.apply(delta);
        match new {
            Some(o) => {
                env.insert_with_id(id, o);
            }
            None => {
                env.remove(id);
            }
        }
        let full: HashSet<WallKey> = WallKey::all(&normalize(&env).unwrap()).collect();
        let mine: HashSet<WallKey> = map.walls().iter().collect();
        if full != mine {
            let missing: Vec<_> = full.difference(&mine).take(4).collect();
            let extra: Vec<_> = mine.difference(&full).take(4).collect();
            panic!("{name} step {k}: walls differ (missing {missing:?}, extra {extra:?})");
        }
        let twice = normalize(&env).unwrap().free_area_twice_grid();
        assert_eq!(
            map.walls().free_area_twice(),
            twice,
            "{name} step {k}: free area"
        );
    }
    scopes
}

#[test]
fn random_environments_keep_their_walls() {
    let configs = [
        RandomEnvironmentOptions {
            obstacles: 15,
            ..Default::default()
        },
        RandomEnvironmentOptions {
            obstacles: 10,
            boundary: BoundaryShape::Star,
            ..Default::default()
        },
        RandomEnvironmentOptions {
            obstacles: 12,
            mix: ObstacleMix::POLYGONS,
            max_radius: 0.25,
            ..Default::default()
        },
        RandomEnvironmentOptions::grid_map(24, 40),
        RandomEnvironmentOptions {
            lattice: Some(2.0),
            mix: ObstacleMix::RECTANGLES,
            ..Default::default()
        },
    ];
    let mut total: BTreeMap<String, usize> = BTreeMap::new();
    for (k, options) in configs.iter().enumerate() {
        for seed in 0..3u64 {
            let env = random_environment(seed * 7 + k as u64, options);
            let step = if options.lattice.is_some() {
                1.0
            } else {
                options.size * 0.05
            };
            let o = *options;
            let s = soak(
                env,
                200,
                seed + 10 * k as u64,
                move |rng, _| random_obstacle(rng.random(), &o),
                step,
                if seed == 0 { 1.0 / 3.0 } else { f64::INFINITY },
                &format!("config {k} seed {seed}"),
            );
            for (key, n) in s {
                *total.entry(key).or_default() += n;
            }
        }
    }
    println!("{total:#?}");
}

/// Axis-parallel crates and doors on Moving AI maps (the window method).
#[test]
fn grid_maps_keep_their_walls() {
    let dir = corridor_testkit::data_dir().join("movingai");
    let mut total: BTreeMap<String, usize> = BTreeMap::new();
    for name in ["arena.map", "den312d.map"] {
        let env = corridor_io::load_environment(dir.join(name)).unwrap();
        let b = env.bounds();
        let s = soak(
            env,
            300,
            3,
            move |rng, _| {
                let c = Point::new(
                    rng.random_range(b.min.x..b.max.x),
                    rng.random_range(b.min.y..b.max.y),
                );
                let h = Point::new(rng.random_range(0.2..3.0), rng.random_range(0.2..3.0));
                if rng.random_bool(0.2) {
                    Obstacle::segment(c, c + Point::new(h.x, 0.0))
                } else if rng.random_bool(0.1) {
                    Obstacle::Point(c)
                } else {
                    Obstacle::rectangle(c - h, c + h)
                }
            },
            1.5,
            1.0 / 3.0,
            name,
        );
        println!("{name}: {s:?}");
        for (key, n) in s {
            *total.entry(key).or_default() += n;
        }
    }
    assert!(total.get("Window").copied().unwrap_or(0) > 300, "{total:?}");
}

/// Degenerate rectilinear changes on a small grid map: a rectangle thinner than a grid
/// step (it collapses into a wall), rectangles touching others only at a corner, sharing
/// an edge with a wall, a point on a wall and one in free space, a segment along a wall
/// and one crossing several; each inserted, moved and removed again.
#[test]
fn degenerate_rectilinear_changes() {
    let env = random_environment(5, &RandomEnvironmentOptions::grid_map(16, 30));
    let p = Point::new;
    let shapes = vec![
        Obstacle::rectangle(p(3.0, 2.0), p(3.00002, 9.0)),
        Obstacle::rectangle(p(4.0, 4.0), p(5.0, 5.0)),
        Obstacle::rectangle(p(5.0, 5.0), p(6.0, 6.0)),
        Obstacle::rectangle(p(0.0, 0.0), p(16.0, 1.0)),
        Obstacle::rectangle(p(-2.0, 7.0), p(2.0, 8.0)),
        Obstacle::Point(p(4.0, 4.0)),
        Obstacle::Point(p(7.5, 7.5)),
        Obstacle::segment(p(2.0, 3.0), p(9.0, 3.0)),
        Obstacle::segment(p(8.0, 0.0), p(8.0, 16.0)),
        Obstacle::segment(p(0.0, 12.0), p(16.0, 12.0)),
        Obstacle::Polyline(vec![p(1.0, 1.0), p(1.0, 5.0), p(6.0, 5.0), p(6.0, 1.0)]),
    ];
    let (mut map, _) = WallMap::new(&env).unwrap();
    let mut env = env;
    let mut scopes: BTreeMap<String, usize> = BTreeMap::new();
    let mut step =
        |map: &mut WallMap, env: &mut Environment, id: ObstacleId, o: Option<Obstacle>| {
            let delta = map
                .plan(
                    env,
                    &[ObstacleEdit {
                        id,
                        obstacle: o.as_ref(),
                    }],
                )
                .unwrap();
            *scopes.entry(format!("{:?}", delta.scope())).or_default() += 1;
            map.apply(delta);
            match o {
                Some(o) => {
                    env.insert_with_id(id, o);
                }
                None => {
                    env.remove(id);
                }
            }
            let full: HashSet<WallKey> = WallKey::all(&normalize(env).unwrap()).collect();
            let mine: HashSet<WallKey> = map.walls().iter().collect();
            assert_eq!(full, mine, "after {id:?}");
        };
    let mut ids = Vec::new();
    for o in &shapes {
        let id = env.next_id();
        step(&mut map, &mut env, id, Some(o.clone()));
        ids.push(id);
    }
    for (id, o) in ids.iter().zip(&shapes) {
        step(
            &mut map,
            &mut env,
            *id,
            Some(o.translated(Point::new(0.5, 1.0))),
        );
    }
    for id in ids.iter().rev() {
        step(&mut map, &mut env, *id, None);
    }
    println!("{scopes:?}");
    assert!(
        scopes.get("Window").copied().unwrap_or(0) > 20,
        "{scopes:?}"
    );
}
