//! Updates of a layered map on a small world whose answers are known by hand: a gate
//! that closes a connection, the ECM of every touched layer against a full rebuild, and
//! refused patches.

use super::super::tests::{corridor_world, p};
use super::*;
use crate::{LayeredEcm, LayeredPlanner};

/// Every layer equals a rebuild of its environment, and the world follows the layers.
fn assert_rebuilt(map: &DynamicLayeredEcm) {
    for (id, layer) in map.layers() {
        let rebuilt = Ecm::build(layer.environment()).unwrap();
        assert_eq!(
            layer.ecm().canonical_diff(&rebuilt, 1e-7),
            None,
            "layer {id}"
        );
        assert_eq!(
            &map.world().layer(id).unwrap().environment,
            layer.environment(),
            "layer {id}"
        );
    }
}

#[test]
fn a_gate_closes_a_connection_and_opening_it_restores_the_path() {
    let (w, [g, s, u]) = corridor_world();
    let mut map = DynamicLayeredEcm::new(&w).unwrap();
    let walk = |map: &DynamicLayeredEcm| {
        LayeredPlanner::new(map, 0.0)
            .unwrap()
            .plan(g, p(1.0, 5.0), u, p(20.0, 5.0))
    };
    let before = walk(&map).unwrap().length;
    let static_length = LayeredPlanner::new(&LayeredEcm::build(&w).unwrap(), 0.0)
        .unwrap()
        .plan(g, p(1.0, 5.0), u, p(20.0, 5.0))
        .unwrap()
        .length;
    // The static map opens the connections of its charts (crossed exactly), the dynamic
    // one keeps them closed (crossed on sampled segments, 2η longer at most per crossing).
    assert!(static_length <= before + 1e-9, "{static_length} > {before}");
    let eta = crate::CROSSING_MARGIN_STEPS / w.layer(g).unwrap().environment.snap_grid().scale();
    assert!(
        before - static_length <= 4.0 * eta,
        "{before} vs {static_length}"
    );
    // The gate stands on the stairs, against the upper connection (x = 14), so the
    // model's check of that connection would find no free side on the stairs.
    let gate = map
        .insert(s, Obstacle::rectangle(p(13.8, 4.0), p(14.0, 6.0)))
        .unwrap();
    assert!(w.validate().is_ok());
    assert!(map.world().validate().is_err());
    assert!(matches!(walk(&map), Err(LayeredEcmError::NoPath { .. })));
    // The ground floor still reaches the stairs.
    let planner = LayeredPlanner::new(&map, 0.0).unwrap();
    assert!(planner.plan(g, p(1.0, 5.0), s, p(12.0, 5.0)).is_ok());
    assert_rebuilt(&map);
    // A half gate leaves a 1-wide passage: radius 0.4 passes, 0.6 does not.
    map.move_to(s, gate, Obstacle::rectangle(p(13.8, 5.0), p(14.0, 6.0)))
        .unwrap();
    let passes = |r| {
        LayeredPlanner::new(&map, r)
            .unwrap()
            .plan(g, p(1.0, 5.0), u, p(20.0, 5.0))
            .is_ok()
    };
    assert!(passes(0.4));
    assert!(!passes(0.6));
    assert_eq!(
        map.remove(s, gate).unwrap(),
        Obstacle::rectangle(p(13.8, 5.0), p(14.0, 6.0))
    );
    assert_eq!(walk(&map).unwrap().length, before);
    assert_rebuilt(&map);
    assert_eq!(map.version(), 3);
}

#[test]
fn a_batch_over_two_layers_is_one_version() {
    let (w, [g, _, u]) = corridor_world();
    let mut map = DynamicLayeredEcm::new(&w).unwrap();
    let area = map.free_area();
    let changes = [
        LayeredChange {
            layer: u,
            change: Change::Insert(Obstacle::rectangle(p(18.0, 2.0), p(19.0, 3.0))),
        },
        LayeredChange {
            layer: g,
            change: Change::Insert(Obstacle::rectangle(p(1.0, 1.0), p(2.0, 3.0))),
        },
        LayeredChange {
            layer: u,
            change: Change::Insert(Obstacle::segment(p(16.0, 8.0), p(20.0, 8.0))),
        },
    ];
    let patch = map.plan_batch(&changes).unwrap();
    assert_eq!(patch.reports().count(), 2);
    let ids = map.apply(patch).unwrap();
    assert_eq!(ids.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [u, u, g]);
    assert_eq!(map.version(), 1);
    assert!((area - map.free_area() - 3.0).abs() < 1e-9);
    assert_rebuilt(&map);
}

#[test]
fn refused_updates_name_the_layer_and_leave_the_map_alone() {
    let (w, [g, s, _]) = corridor_world();
    let mut map = DynamicLayeredEcm::new(&w).unwrap();
    let stale = map
        .plan_update(&LayeredChange {
            layer: g,
            change: Change::Insert(Obstacle::Point(p(1.0, 1.0))),
        })
        .unwrap();
    map.insert(g, Obstacle::Point(p(2.0, 2.0))).unwrap();
    assert!(matches!(
        map.apply(stale),
        Err(LayeredEcmError::StalePatch {
            patch: 0,
            current: 1
        })
    ));
    // Outside the stairs' boundary.
    assert!(matches!(
        map.insert(s, Obstacle::Point(p(2.0, 2.0))),
        Err(LayeredEcmError::Update { layer, .. }) if layer == s
    ));
    assert!(matches!(
        map.remove(s, ObstacleId(99)),
        Err(LayeredEcmError::Update { layer, source: UpdateError::UnknownObstacle(_) }) if layer == s
    ));
    assert!(matches!(
        map.insert(LayerId(9), Obstacle::Point(p(2.0, 2.0))),
        Err(LayeredEcmError::Model(LayeredError::UnknownLayer { .. }))
    ));
    assert_eq!(map.version(), 1);
    assert_rebuilt(&map);
}
