//! Many threads query one `&Ecm` at once: each thread with its own `Planner` gets exactly
//! the answers a single thread gets (points, lengths, corridors and errors alike).

mod common;

use corridor_ecm::{CorridorPath, Ecm, PathQuery, PlanError, Planner};

/// `Ecm` can be shared between threads (checked at compile time).
const _: fn() = || {
    fn shareable<T: Send + Sync>() {}
    shareable::<Ecm>();
};

const THREADS: usize = 4;
const QUERIES: usize = 2_000;
const RADII: [f64; 5] = [0.0, 0.25, 0.5, 1.0, 2.0];

fn describe(result: &Result<CorridorPath, PlanError>) -> String {
    match result {
        Ok(path) => format!(
            "path of {} points, length {:?}",
            path.points.len(),
            path.length
        ),
        Err(e) => format!("error {e}"),
    }
}

#[test]
fn threads_sharing_one_ecm_get_the_single_threaded_answers() {
    let dir = common::shared_data().join("movingai");
    let env = corridor_io::load_environment(dir.join("Aurora.map")).unwrap();
    let ecm = Ecm::build(&env).unwrap();
    let scenarios = corridor_io::load_scenarios(dir.join("Aurora.map.scen")).unwrap();
    // Short scenarios (the first buckets), both ways, for every radius: queries on the
    // whole map that stay quick enough for a test.
    let pairs: Vec<_> = scenarios
        .iter()
        .filter(|s| s.bucket <= 20)
        .flat_map(|s| {
            [
                (s.start_point(), s.goal_point()),
                (s.goal_point(), s.start_point()),
            ]
        })
        .collect();
    let queries: Vec<PathQuery> = RADII
        .iter()
        .flat_map(|&r| {
            pairs
                .iter()
                .map(move |&(a, b)| PathQuery::new(a, b).with_radius(r))
        })
        .take(QUERIES)
        .collect();
    assert_eq!(queries.len(), QUERIES);

    let mut planner = Planner::new();
    let expected: Vec<Result<CorridorPath, PlanError>> =
        queries.iter().map(|q| planner.plan(&ecm, q)).collect();
    let solved = expected.iter().filter(|r| r.is_ok()).count();
    assert!(solved > QUERIES / 2, "only {solved} of {QUERIES} solved");

    // Each thread starts at a different offset, so that its planner's buffers hold another
    // query's state when it meets each query.
    let ecm = &ecm;
    let results: Vec<Vec<Result<CorridorPath, PlanError>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let queries = &queries;
                scope.spawn(move || {
                    let mut planner = Planner::new();
                    let offset = t * QUERIES / THREADS;
                    let mut out: Vec<Option<Result<CorridorPath, PlanError>>> = vec![None; QUERIES];
                    for i in (0..QUERIES).map(|i| (i + offset) % QUERIES) {
                        out[i] = Some(planner.plan(ecm, &queries[i]));
                    }
                    out.into_iter().map(Option::unwrap).collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });

    let mut mismatches = Vec::new();
    for (t, got) in results.iter().enumerate() {
        for (i, (a, b)) in expected.iter().zip(got).enumerate() {
            if a != b {
                mismatches.push(format!(
                    "thread {t}, query {i} {:?}: single-threaded {}, threaded {}",
                    queries[i],
                    describe(a),
                    describe(b)
                ));
            }
        }
    }
    println!(
        "{THREADS} threads × {QUERIES} queries on Aurora.map ({solved} solved): {} mismatches",
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(20)].join("\n")
    );
}
