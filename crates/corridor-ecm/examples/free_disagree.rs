//! Points free by the test kit's `in_closed_free_space` but not by the layer's ECM (and
//! the reverse), on the generated building: per layer, counts and the independent truth.
//!
//! `cargo run --release -p corridor-ecm --example free_disagree -- [POINTS] [SEED] [building|layers]`

use corridor_ecm::LayeredEcm;
use corridor_geom::{point_on_segment, LayerId, Obstacle, Point, Segment, SnapGrid};
use corridor_testkit::building::{building, BuildingOptions};
use corridor_testkit::layered_oracle::{in_closed_free_space, in_snapped_free_space};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn seg_dist(p: Point, s: Segment) -> f64 {
    let d = s.b - s.a;
    let l2 = d.length_squared();
    let t = if l2 > 0.0 {
        ((p - s.a).dot(d) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (s.a + d * t)).length()
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20000);
    let seed: u64 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(27);
    let which = std::env::args().nth(3).unwrap_or_else(|| "building".into());
    let world = if which == "layers" {
        corridor_io::scenes::layers()
    } else {
        building(&BuildingOptions::default(), seed)
    };
    let ecm = LayeredEcm::build(&world).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed + 1);
    for l in 0..world.layer_count() as u32 {
        let layer = LayerId(l);
        let env = &world.layer(layer).unwrap().environment;
        let lecm = ecm.layer(layer).unwrap();
        let b = env.bounds();
        let (mut oracle_only, mut ecm_only, mut both) = (0, 0, 0);
        let mut snapped_differs = 0;
        let mut shown = 0;
        for _ in 0..n {
            let p = Point::new(
                rng.random_range(b.min.x..b.max.x),
                rng.random_range(b.min.y..b.max.y),
            );
            let o = in_closed_free_space(env, p);
            let e = lecm.locate_free(p).is_ok();
            let snapped = in_snapped_free_space(env, SnapGrid::default(), p);
            snapped_differs += (snapped != e) as usize;
            match (o, e) {
                (true, true) => both += 1,
                (true, false) => oracle_only += 1,
                (false, true) => ecm_only += 1,
                _ => {}
            }
            if o != e && shown < 6 {
                shown += 1;
                // Independent truth: nearest wall, obstacles holding p (winding), polyline hits.
                let mut dmin = f64::INFINITY;
                let mut holding = Vec::new();
                let mut wn = Vec::new();
                for e in env.boundary().edges() {
                    dmin = dmin.min(seg_dist(p, e));
                }
                for (id, ob) in env.obstacles() {
                    match ob {
                        Obstacle::Polygon(poly) => {
                            for e in poly.edges() {
                                dmin = dmin.min(seg_dist(p, e));
                            }
                            let w = poly.exterior.winding_number(p);
                            if w != 0 {
                                holding.push(format!("{id:?}"));
                                wn.push(w);
                            }
                        }
                        Obstacle::Polyline(v) => {
                            for w in v.windows(2) {
                                let s = Segment::new(w[0], w[1]);
                                dmin = dmin.min(seg_dist(p, s));
                                if point_on_segment(p, s.a, s.b) {
                                    holding.push(format!("on polyline {id:?}"));
                                }
                            }
                        }
                        Obstacle::Point(q) => dmin = dmin.min((p - *q).length()),
                    }
                }
                let on_conn = world
                    .connections()
                    .any(|(_, c)| c.layers.contains(&layer) && seg_dist(p, c.segment) < 1e-9);
                println!(
                    "  layer {l} {p:?}: oracle {o} snapped {snapped} ecm {e}, nearest wall {dmin:.3e}, inside {holding:?} winding {wn:?}, on connection {on_conn}, in boundary {}, clearance {:?}",
                    env.boundary().contains_or_touches(p),
                    lecm.clearance(p).ok(),
                );
            }
        }
        println!(
            "layer {l} ({}): {n} points, {both} free by both, {oracle_only} oracle only, {ecm_only} ecm only; {snapped_differs} differ from the snapped oracle",
            world.layer(layer).unwrap().name
        );
    }
}
