//! Path planning against data nobody here wrote: the any-angle mazes (Euclidean optima)
//! and the Aurora mesh problems, plus brute-force clearance checks for several radii.

use corridor_ecm::{Ecm, PathQuery, PlanError, Planner};
use corridor_geom::{normalize, Point, Segment};
use std::path::PathBuf;

fn shared() -> PathBuf {
    let dir = corridor_testkit::data_dir();
    assert!(dir.is_dir(), "shared data missing at {}", dir.display());
    dir
}

struct Summary {
    ratios: Vec<f64>,
    failures: Vec<String>,
}

impl Summary {
    fn report(&mut self, name: &str) -> (f64, f64, f64, f64) {
        self.ratios.sort_by(f64::total_cmp);
        let n = self.ratios.len();
        let mean = self.ratios.iter().sum::<f64>() / n as f64;
        let (p99, max, min) = (
            self.ratios[(n * 99) / 100],
            self.ratios[n - 1],
            self.ratios[0],
        );
        println!("{name}: {n} solved, {} failed; length / optimum mean {mean:.5} p99 {p99:.5} max {max:.5} min {min:.8}", self.failures.len());
        (mean, p99, max, min)
    }
}

fn run(
    ecm: &Ecm,
    problems: &[corridor_io::Problem],
    label: &str,
    summary: &mut Summary,
    planner: &mut Planner,
) {
    for p in problems {
        match planner.plan(ecm, &PathQuery::new(p.start, p.goal)) {
            Ok(path) => {
                // Stated optima have 6–8 significant digits.
                let ratio = if p.length > 0.0 {
                    path.length / p.length
                } else {
                    1.0 + path.length
                };
                summary.ratios.push(ratio);
            }
            Err(e) => summary
                .failures
                .push(format!("{label} {} -> {}: {e}", p.start, p.goal)),
        }
    }
}

#[test]
fn anyangle_mazes_are_all_solved_near_the_optimum() {
    let root = shared().join("anyangle");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir()) // not NOTICE.md
        .collect();
    dirs.sort();
    let mut summary = Summary {
        ratios: Vec::new(),
        failures: Vec::new(),
    };
    let mut planner = Planner::new();
    for dir in &dirs {
        let env = corridor_io::load_environment(dir.join("maze.txt")).unwrap();
        let ecm = Ecm::build(&env).unwrap();
        let problems = corridor_io::load_problems(dir.join("problems.csv")).unwrap();
        run(
            &ecm,
            &problems,
            &dir.display().to_string(),
            &mut summary,
            &mut planner,
        );
    }
    assert!(
        summary.failures.is_empty(),
        "unsolved: {:#?}",
        summary.failures
    );
    assert_eq!(summary.ratios.len(), 4_102);
    let (mean, p99, _, min) = summary.report("any-angle");
    assert!(min >= 1.0 - 1e-6, "a path shorter than the optimum: {min}");
    assert!(mean <= 1.01, "mean {mean}");
    assert!(p99 <= 1.05, "p99 {p99}");
}

#[test]
fn aurora_mesh_problems_are_all_solved_near_the_optimum() {
    let dir = shared().join("polyanya");
    let env = corridor_io::load_environment(dir.join("aurora.mesh")).unwrap();
    let ecm = Ecm::build(&env).unwrap();
    let problems = corridor_io::load_problems(dir.join("aurora-euclidean.csv")).unwrap();
    let mut summary = Summary {
        ratios: Vec::new(),
        failures: Vec::new(),
    };
    run(&ecm, &problems, "aurora", &mut summary, &mut Planner::new());
    assert!(
        summary.failures.is_empty(),
        "unsolved: {:#?}",
        &summary.failures[..summary.failures.len().min(10)]
    );
    assert_eq!(summary.ratios.len(), 2_990);
    let (mean, p99, _, min) = summary.report("aurora");
    assert!(mean <= 1.01, "mean {mean}");
    assert!(p99 <= 1.05, "p99 {p99}");
    // The CSV states lengths to 6 significant digits: rounding hides up to 5e-6 relative.
    assert!(min >= 1.0 - 5e-6, "a path shorter than the optimum: {min}");
}

/// Every path for radius r keeps at least r from every wall, checked by brute force
/// against the walls (not through the ECM); refusals are checked to be plausible.
#[test]
fn paths_keep_their_radius_from_every_wall() {
    let maps = ["den312d.map", "arena.map", "AR0011SR.map"];
    for name in maps {
        let env = corridor_io::load_environment(shared().join("movingai").join(name)).unwrap();
        let walls: Vec<Segment> = normalize(&env).unwrap().user_segments().collect();
        let ecm = Ecm::build(&env).unwrap();
        let scenarios =
            corridor_io::load_scenarios(shared().join("movingai").join(format!("{name}.scen")))
                .unwrap();
        let mut planner = Planner::new();
        let (mut planned, mut refused) = (0, 0);
        for radius in [0.25, 0.5, 1.0, 2.0] {
            for s in scenarios.iter().step_by(25) {
                let query = PathQuery::new(s.start_point(), s.goal_point()).with_radius(radius);
                match planner.plan(&ecm, &query) {
                    Ok(path) => {
                        planned += 1;
                        for w in path.points.windows(2) {
                            let piece = Segment::new(w[0], w[1]);
                            for wall in &walls {
                                let d = piece.distance_to_segment(wall);
                                assert!(d >= radius - 1e-6, "{name} r={radius} {query:?}: piece {piece:?} is {d} from wall {wall:?}");
                            }
                        }
                    }
                    Err(PlanError::StartTooClose { clearance, .. })
                    | Err(PlanError::GoalTooClose { clearance, .. }) => {
                        assert!(clearance < radius);
                        refused += 1;
                    }
                    Err(PlanError::NoCorridor { .. }) => refused += 1,
                    Err(e) => panic!("{name} r={radius}: unexpected {e}"),
                }
            }
        }
        println!("{name}: {planned} paths checked, {refused} refused");
        assert!(planned > 0);
    }
}

#[test]
fn typed_errors_for_bad_queries() {
    let env = corridor_io::scenes::Scene::Military.build();
    let ecm = Ecm::build(&env).unwrap();
    let inside_building = Point::new(40.0, 40.0);
    let free = Point::new(10.0, 10.0);
    assert!(matches!(
        ecm.plan(&PathQuery::new(inside_building, free)),
        Err(PlanError::Start(_))
    ));
    assert!(matches!(
        ecm.plan(&PathQuery::new(free, inside_building)),
        Err(PlanError::Goal(_))
    ));
    assert!(matches!(
        ecm.plan(&PathQuery::new(Point::new(f64::NAN, 1.0), free)),
        Err(PlanError::Start(_))
    ));
    assert!(matches!(
        ecm.plan(&PathQuery::new(free, Point::new(190.0, 190.0)).with_radius(-1.0)),
        Err(PlanError::InvalidRadius { .. })
    ));
    assert!(matches!(
        ecm.plan(&PathQuery::new(Point::new(1.0, 1.0), free).with_radius(2.0)),
        Err(PlanError::StartTooClose { .. })
    ));
    assert!(matches!(
        ecm.plan(&PathQuery::new(free, Point::new(190.0, 190.0)).with_radius(500.0)),
        Err(PlanError::StartTooClose { .. }) | Err(PlanError::NoCorridor { .. })
    ));
    let message = ecm
        .plan(&PathQuery::new(inside_building, free))
        .unwrap_err()
        .to_string();
    assert!(message.contains("start"), "{message}");
}
