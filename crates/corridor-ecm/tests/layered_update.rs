//! The layered soak: random insertions, removals and moves of obstacles on every layer of
//! `builtin:layers`, gates that close a connection among them, each update compared with
//! a full rebuild of the layers it touched; and, every few hundred updates, layered paths
//! against the independent layered visibility-graph oracle on the changed world.
//!
//! `LAYERED_SOAK_OPS` sets the number of updates of `layered_soak` (default 10,000);
//! `layered_soak_long` (ignored) runs 100,000:
//! `cargo test --release -p corridor-ecm --test layered_update -- --ignored --nocapture`.

use corridor_ecm::{Change, DynamicLayeredEcm, Ecm, LayeredChange, LayeredMap, LayeredPlanner};
use corridor_geom::{
    Aabb, ConnectionId, LayerId, LayeredEnvironment, Obstacle, ObstacleId, Orientation, Point,
};
use corridor_testkit::layered_oracle::{
    in_closed_free_space, random_layer_point, LayeredVisibility,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How far random obstacles (not gates) stay from every connection, so that the model's
/// free sides of the connections, which the oracle reads, stay as they were.
const KEEP_OFF: f64 = 0.5;

/// At most this many obstacles of the soak at once (more would make the oracle slow).
const MAX_OURS: usize = 40;

/// What the soak counted.
#[derive(Debug, Default)]
struct Counts {
    applied: usize,
    rejected: usize,
    gates: usize,
    mismatches: Vec<String>,
    paths: usize,
}

fn overlaps(a: Aabb, b: Aabb, margin: f64) -> bool {
    a.min.x - margin <= b.max.x
        && b.min.x <= a.max.x + margin
        && a.min.y - margin <= b.max.y
        && b.min.y <= a.max.y + margin
}

/// A random obstacle inside the layer's bounds, away from its connections.
fn random_obstacle(
    map: &DynamicLayeredEcm,
    layer: LayerId,
    rng: &mut ChaCha8Rng,
) -> Option<Obstacle> {
    let world = map.world();
    let b = world.layer(layer).ok()?.environment.bounds();
    let c = Point::new(
        rng.random_range(b.min.x..b.max.x),
        rng.random_range(b.min.y..b.max.y),
    );
    let kind = rng.random_range(0..4);
    let mut d = || Point::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
    let o = match kind {
        0 => Obstacle::Point(c),
        1 => Obstacle::segment(c, c + d()),
        2 => {
            let e = d();
            Obstacle::rectangle(c - e.abs(), c + e.abs())
        }
        _ => Obstacle::polygon(vec![c, c + d(), c + d()]),
    };
    let bb = o.aabb()?;
    let inside = bb.min.x > b.min.x + 0.05
        && bb.min.y > b.min.y + 0.05
        && bb.max.x < b.max.x - 0.05
        && bb.max.y < b.max.y - 0.05;
    let clear = world.connections_of(layer).all(|(_, conn)| {
        let s = conn.segment;
        let sb = Aabb {
            min: Point::new(s.a.x.min(s.b.x), s.a.y.min(s.b.y)),
            max: Point::new(s.a.x.max(s.b.x), s.a.y.max(s.b.y)),
        };
        !overlaps(bb, sb, KEEP_OFF)
    });
    (inside && clear).then(|| on_grid(map, layer, &o))
}

/// The obstacle with its points on the layer's snap grid, as the ECM sees it, so that
/// the oracle (which does not snap) works on the same geometry.
fn on_grid(map: &DynamicLayeredEcm, layer: LayerId, o: &Obstacle) -> Obstacle {
    let grid = map.world().layer(layer).unwrap().environment.snap_grid();
    o.mapped(|p| grid.to_point(grid.snap(p).unwrap()))
}

/// A thin gate on one side of a random connection, covering all of it.
fn random_gate(map: &DynamicLayeredEcm, rng: &mut ChaCha8Rng) -> (LayerId, Obstacle, ConnectionId) {
    let world = map.world();
    let (id, c) = world
        .connections()
        .nth(rng.random_range(0..world.connections().len()))
        .unwrap();
    let layer = c.layers[rng.random_range(0..2)];
    let (a, b) = (c.segment.a, c.segment.b);
    let left = (b - a).perp() / a.distance(b);
    let into = match map.entry_side(id, layer).unwrap() {
        Orientation::CounterClockwise => left,
        _ => -left,
    };
    let depth = rng.random_range(0.1..0.6);
    let gate = Obstacle::polygon(vec![a, b, b + into * depth, a + into * depth]);
    (layer, on_grid(map, layer, &gate), id)
}

/// Compares every layer the update touched with a full rebuild.
fn check_layers(map: &DynamicLayeredEcm, layers: &[LayerId], counts: &mut Counts) {
    for &l in layers {
        let layer = map.layer(l).unwrap();
        let rebuilt = Ecm::build(layer.environment()).unwrap();
        if let Some(diff) = layer.ecm().canonical_diff(&rebuilt, 1e-7) {
            counts.mismatches.push(format!(
                "layer {l} after {} updates: {diff}",
                counts.applied
            ));
        }
        if &map.world().layer(l).unwrap().environment != layer.environment() {
            counts
                .mismatches
                .push(format!("layer {l}: the world's environment differs"));
        }
    }
}

/// Random point paths on the current world against the oracle.
fn check_paths(
    map: &DynamicLayeredEcm,
    closed: &[ConnectionId],
    rng: &mut ChaCha8Rng,
    counts: &mut Counts,
) {
    let world = map.world();
    // The oracle's model of a closed connection is its absence: with the gate alone it
    // would still pass at the connection's ends (it joins them across layers), a gap of
    // width zero that a point may not use.
    let mut open = LayeredEnvironment::new();
    for (_, layer) in world.layers() {
        open.add_layer(layer.clone());
    }
    for (id, c) in world.connections() {
        if !closed.contains(&id) {
            open.push_connection_unchecked(*c);
        }
    }
    let oracle = LayeredVisibility::new(&open);
    let planner = LayeredPlanner::new(map, 0.0).unwrap();
    let mut point = || loop {
        let (layer, p) = random_layer_point(world, rng);
        let env = &world.layer(layer).unwrap().environment;
        let ecm = map.layer_ecm(layer).unwrap();
        if in_closed_free_space(env, p) && ecm.clearance(p).is_ok_and(|c| c > 1e-3) {
            return (layer, p);
        }
    };
    for _ in 0..6 {
        let ((from, start), (to, goal)) = (point(), point());
        let full = oracle.shortest_path(from, start, to, goal);
        let want = full.as_ref().map(|w| w.0);
        let result = planner.plan(from, start, to, goal);
        let got = result.as_ref().ok().map(|p| p.length);
        let ok = match (want, got) {
            (Some(w), Some(g)) => g >= w - 1e-5 && g <= w * 1.02 + 1e-9,
            (None, None) => true,
            _ => false,
        };
        counts.paths += 1;
        if !ok {
            counts.mismatches.push(format!(
                "after {} updates, {from} {start} -> {to} {goal}: oracle {full:?}, ECM {:?}, static {:?}",
                counts.applied,
                result.map(|p| (p.length, p.crossings)),
                corridor_ecm::LayeredEcm::build(world).map(|e| LayeredPlanner::new(&e, 0.0).unwrap().plan(from, start, to, goal).map(|p| (p.length, p.crossings)))
            ));
        }
    }
}

fn soak(ops: usize, seed: u64, path_every: usize) -> Counts {
    let world = corridor_io::scenes::layers();
    let mut map = DynamicLayeredEcm::new(&world).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Obstacles the soak inserted: (layer, id, the connection it closes if a gate).
    let mut ours: Vec<(LayerId, ObstacleId, Option<ConnectionId>)> = Vec::new();
    let mut counts = Counts::default();
    let layers = world.layer_count() as u32;
    while counts.applied + counts.rejected < ops {
        let roll = rng.random_range(0..100);
        let mut changes = Vec::new();
        let mut removed = Vec::new();
        let batch = if roll < 5 { 3 } else { 1 };
        for _ in 0..batch {
            let layer = LayerId(rng.random_range(0..layers));
            let pick = rng.random_range(0..100);
            let taken = |i: usize, removed: &[usize]| removed.contains(&i);
            if pick < 5 {
                let (layer, gate, closes) = random_gate(&map, &mut rng);
                changes.push((
                    LayeredChange {
                        layer,
                        change: Change::Insert(gate),
                    },
                    Some(closes),
                ));
            } else if ours.len() < 8 || (pick < 50 && ours.len() < MAX_OURS) {
                if let Some(o) = random_obstacle(&map, layer, &mut rng) {
                    changes.push((
                        LayeredChange {
                            layer,
                            change: Change::Insert(o),
                        },
                        None,
                    ));
                }
            } else {
                let i = rng.random_range(0..ours.len());
                if taken(i, &removed) {
                    continue;
                }
                let (l, id, gate) = ours[i];
                if pick < 75 || gate.is_some() {
                    removed.push(i);
                    changes.push((
                        LayeredChange {
                            layer: l,
                            change: Change::Remove(id),
                        },
                        gate,
                    ));
                } else if let Some(o) = random_obstacle(&map, l, &mut rng) {
                    let change = Change::Move { id, obstacle: o };
                    changes.push((LayeredChange { layer: l, change }, None));
                }
            }
        }
        if changes.is_empty() {
            continue;
        }
        let list: Vec<LayeredChange> = changes.iter().map(|(c, _)| c.clone()).collect();
        let patch = match map.plan_batch(&list) {
            Ok(patch) => patch,
            Err(_) => {
                counts.rejected += 1;
                continue;
            }
        };
        let inserted = map.apply(patch).unwrap();
        counts.applied += 1;
        // Inserted ids come back per layer in the order of that layer's changes.
        let mut new_ids = inserted.into_iter();
        let mut per_layer: Vec<(LayerId, Vec<Option<ConnectionId>>)> = Vec::new();
        for (c, gate) in &changes {
            // The layers come in the order of their first change of any kind.
            let k = match per_layer.iter().position(|(l, _)| *l == c.layer) {
                Some(k) => k,
                None => {
                    per_layer.push((c.layer, Vec::new()));
                    per_layer.len() - 1
                }
            };
            if matches!(c.change, Change::Insert(_)) {
                per_layer[k].1.push(*gate);
            }
        }
        for (layer, gates) in &per_layer {
            for gate in gates {
                let (l, id) = new_ids.next().unwrap();
                assert_eq!(l, *layer);
                ours.push((l, id, *gate));
                counts.gates += gate.is_some() as usize;
            }
        }
        removed.sort_unstable();
        for i in removed.into_iter().rev() {
            ours.swap_remove(i);
        }
        let touched: Vec<LayerId> = per_layer.iter().map(|(l, _)| *l).collect();
        check_layers(&map, &touched, &mut counts);
        if counts.applied % path_every == 0 {
            let closed: Vec<ConnectionId> = ours.iter().filter_map(|o| o.2).collect();
            check_paths(&map, &closed, &mut rng, &mut counts);
        }
    }
    counts
}

fn run(ops: usize, seed: u64, path_every: usize) {
    let clock = std::time::Instant::now();
    let counts = soak(ops, seed, path_every);
    println!(
        "layered soak: {ops} ops, seed {seed}, {:.1} s: {} applied, {} rejected, {} gates, {} paths, {} mismatches",
        clock.elapsed().as_secs_f64(),
        counts.applied,
        counts.rejected,
        counts.gates,
        counts.paths,
        counts.mismatches.len()
    );
    assert!(
        counts.mismatches.is_empty(),
        "{:#?}",
        &counts.mismatches[..counts.mismatches.len().min(10)]
    );
    assert!(counts.applied > ops * 9 / 10, "{counts:?}");
    assert!(counts.gates > ops / 100, "{counts:?}");
}

#[test]
fn layered_soak() {
    let ops = std::env::var("LAYERED_SOAK_OPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    run(ops, 26, 500);
}

#[test]
#[ignore]
fn layered_soak_long() {
    run(100_000, 2026, 2_000);
}
