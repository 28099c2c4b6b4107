//! The planner's per-map caches carried across patches of a [`DynamicEcm`] equal
//! freshly built ones.

use super::super::adjacency::Adjacency;
use super::super::search_graph::SearchGraph;
use super::Planner;
use crate::util::slot;
use crate::{DynamicEcm, Ecm, PathQuery};
use corridor_geom::{Obstacle, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Asserts that `carried` (updated patch by patch) equals a fresh build for `ecm`.
fn assert_fresh(ecm: &Ecm, carried: &Adjacency, graph: &SearchGraph) {
    let mut fresh = Adjacency::default();
    fresh.update(ecm);
    assert_eq!(carried.first, fresh.first);
    assert_eq!(carried.position, fresh.position);
    assert_eq!(carried.tree_in, fresh.tree_in);
    assert_eq!(carried.tree_out, fresh.tree_out);
    assert_eq!(carried.check_step, fresh.check_step);
    assert_eq!(carried.links.len(), fresh.links.len());
    for (a, b) in carried.links.iter().zip(&fresh.links) {
        assert_eq!(
            (a.edge_slot, a.next_slot, a.forward, a.funnel_count),
            (b.edge_slot, b.next_slot, b.forward, b.funnel_count)
        );
        assert_eq!(a.min_clearance.to_bits(), b.min_clearance.to_bits());
        let gates = |adj: &Adjacency, l: &super::super::adjacency::Link| {
            let at = l.funnel_gates as usize;
            adj.funnel_gates[at..at + l.funnel_count as usize].to_vec()
        };
        assert_eq!(gates(carried, a), gates(&fresh, b));
    }
    for (e, _) in ecm.edges() {
        assert_eq!(carried.gates_of(e), fresh.gates_of(e));
    }
    let mut fresh_graph = SearchGraph::default();
    fresh_graph.update(ecm, &fresh);
    assert!(graph.same_layout(&fresh_graph), "search graph differs");
}

#[test]
fn caches_carried_across_patches_equal_fresh_ones() {
    let mut map = DynamicEcm::new(corridor_io::scenes::city()).expect("ECM");
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let mut planner = Planner::new();
    let wide = |map: &DynamicEcm, min: f64| -> Vec<(Point, f64)> {
        map.ecm()
            .vertices()
            .filter(|(_, v)| v.clearance >= min)
            .map(|(_, v)| (v.position, v.clearance))
            .collect()
    };
    let mut inserted = Vec::new();
    let (mut carried_costs, mut checked_costs) = (0, 0);
    for step in 0..30 {
        if step % 3 == 2 && !inserted.is_empty() {
            let k = rng.random_range(0..inserted.len());
            map.remove(inserted.swap_remove(k)).expect("remove");
        } else {
            let places = wide(&map, 2.0);
            let (c, clearance) = places[rng.random_range(0..places.len())];
            let h = 0.25 * clearance;
            let square = Obstacle::rectangle(c - Point::splat(h), c + Point::splat(h));
            inserted.push(map.insert(square).expect("insert"));
        }
        let ecm = map.ecm();
        // Costs the planner kept from earlier versions must be this version's.
        for (e, _) in ecm.edges() {
            let i = slot(e);
            if let Some(&(of, cost)) = planner.edge_cost.get(i) {
                if of == e {
                    let mut fresh = Planner::new();
                    let expected = fresh.compute_edge_cost(ecm, e, i);
                    assert_eq!(cost.to_bits(), expected.to_bits(), "edge cost of {e:?}");
                    carried_costs += 1;
                }
            }
            checked_costs += 1;
        }
        // Queries with a radius fill the edge costs and bring the caches up to date.
        let places = wide(&map, 1.0);
        for _ in 0..3 {
            let a = places[rng.random_range(0..places.len())].0;
            let b = places[rng.random_range(0..places.len())].0;
            let _ = planner.plan(ecm, &PathQuery::new(a, b).with_radius(0.3));
        }
        assert_fresh(ecm, &planner.adjacency, &planner.search_graph);
    }
    assert!(
        carried_costs > checked_costs / 10,
        "few costs carried: {carried_costs} of {checked_costs}"
    );
}
