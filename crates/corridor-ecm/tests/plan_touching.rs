//! Touching is fitting: a disk of radius `r` fits wherever the clearance is at least `r`
//! (up to [`corridor_ecm::FIT_TOLERANCE_STEPS`] grid steps). At `r = 0.25` and
//! `r = 0.5` every octile path of a Moving AI scenario is feasible (the cell centres of
//! a 1-wide corridor have clearance exactly 0.5), so the planner must solve every
//! scenario with a path no longer than the octile optimum (the `.scen` lengths are
//! rounded: 1e-3 relative), keeping its radius from every wall (brute force over the
//! walls). Every `STEP`-th scenario of every shared map; the full run is
//! `cargo run --release -p corridor-cli -- scen MAP MAP.scen --radius R` (figures in
//! docs/BENCHMARKS.md).
//!
//! The corridor's disk path used to fall back to the pulled medial route when the
//! start sat on a dropped portal's chord (brc202d (103, 155) → (117, 253) at r = 0.5
//! was 4 % longer, ost003d up to 42 %); since the planner puts dropped end portals back
//! (session 24) the whole subset is within the rounding (~10 s in release). At most
//! 14 scenarios outside it are not yet, all at r = 0.5: den520d (100, 157) → (164, 39)
//! and up to 13 on random512-10-0 (see docs/BENCHMARKS.md).
//!
//! Before the rule, 16room_000 at r = 0.5 returned 1,714 of 1,860 paths longer than the
//! optimum (the disk funnel wrapped the wrong one of two corner disks that touch in a
//! 1-wide door, and the path fell back to the medial route), and Aurora refused one.

use corridor_ecm::{Ecm, PathQuery, Planner, FIT_TOLERANCE_STEPS};
use corridor_geom::{normalize, Segment};

/// Every how many scenarios one is planned.
const STEP: usize = 23;

#[test]
fn every_shared_scenario_subset_is_as_short_as_the_octile_optimum() {
    check_subset(1.0 + 1e-3);
}

/// Plans the subset; every path must exist, keep its radius (brute force) and be at most
/// `max_ratio` times the octile optimum.
fn check_subset(max_ratio: f64) {
    let maps = corridor_testkit::movingai_maps();
    assert_eq!(maps.len(), 10);
    let mut failures = Vec::new();
    let mut planned = 0;
    for map in &maps {
        let env = corridor_io::load_environment(map).unwrap();
        let walls = normalize(&env).unwrap();
        let slack = FIT_TOLERANCE_STEPS / walls.grid.scale();
        let segments: Vec<Segment> = walls.user_segments().collect();
        let tree = rstar::RTree::bulk_load(
            segments
                .iter()
                .map(|s| rstar::primitives::Line::new([s.a.x, s.a.y], [s.b.x, s.b.y]))
                .collect::<Vec<_>>(),
        );
        let ecm = Ecm::build(&env).unwrap();
        let mut scen = map.clone().into_os_string();
        scen.push(".scen");
        let scenarios = corridor_io::load_scenarios(&scen).unwrap();
        let mut planner = Planner::new();
        let name = map.file_name().unwrap().to_string_lossy();
        for s in scenarios.iter().step_by(STEP) {
            for r in [0.25, 0.5] {
                planned += 1;
                let query = PathQuery::new(s.start_point(), s.goal_point()).with_radius(r);
                let path = match planner.plan(&ecm, &query) {
                    Ok(p) => p,
                    Err(e) => {
                        failures.push(format!("{name} {:?}->{:?} r={r}: {e}", s.start, s.goal));
                        continue;
                    }
                };
                if path.length > s.optimal_length * max_ratio {
                    failures.push(format!(
                        "{name} {:?}->{:?} r={r}: {} > optimum {}",
                        s.start, s.goal, path.length, s.optimal_length
                    ));
                }
                // Brute-force clearance: the walls within reach of each piece.
                for w in path.points.windows(2) {
                    let piece = Segment::new(w[0], w[1]);
                    let (lo, hi) = (w[0].min(w[1]), w[0].max(w[1]));
                    let reach = rstar::AABB::from_corners(
                        [lo.x - r - 1.0, lo.y - r - 1.0],
                        [hi.x + r + 1.0, hi.y + r + 1.0],
                    );
                    for line in tree.locate_in_envelope_intersecting(reach) {
                        let wall = Segment::new(line.from.into(), line.to.into());
                        let d = piece.distance_to_segment(&wall);
                        if d < r - 2.0 * slack {
                            failures.push(format!(
                                "{name} {:?}->{:?} r={r}: piece {:?} is {d} from a wall",
                                s.start, s.goal, w
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(planned > 1000, "{planned}");
    assert!(
        failures.is_empty(),
        "{} of {planned}: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}
