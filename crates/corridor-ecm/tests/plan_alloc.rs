//! Allocations of a warmed [`Planner`] (issue 7: "queries allocate nothing in the hot path
//! once warmed"), counted by a global allocator that counts on the test's own thread.
//!
//! Once warmed on a map, [`Planner::plan_into`] into a reused [`CorridorPath`] allocates nothing at
//! all: the searches (retraction, the taut-length search, the A* corridors), the funnels
//! (into the planner's reused `TautPath`s) and the polylines (into the path's vectors).
//! A query that needs more room than any before it (a longer corridor, a path with more
//! corners) may still grow a buffer once.

use corridor_ecm::{CorridorPath, Ecm, PathQuery, PlanError, Planner};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    if ON.with(Cell::get) {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
    }
}

// SAFETY: every call forwards to `System` unchanged; the counter only observes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations made on this thread while `f` runs.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    ON.with(|on| on.set(true));
    let out = f();
    ON.with(|on| on.set(false));
    (out, ALLOCATIONS.with(Cell::get) - before)
}

fn shared() -> PathBuf {
    corridor_testkit::data_dir()
}

fn aurora() -> (Ecm, Vec<corridor_io::Problem>) {
    let dir = shared().join("polyanya");
    let env = corridor_io::load_environment(dir.join("aurora.mesh")).unwrap();
    let ecm = Ecm::build(&env).unwrap();
    let problems = corridor_io::load_problems(dir.join("aurora-euclidean.csv")).unwrap();
    (ecm, problems.into_iter().step_by(20).collect())
}

/// Queries between each problem's start and goal with a radius of `fraction` times the
/// smaller of their clearances (`with_preferred` adds a preferred clearance of that
/// clearance), skipping problems whose ends have no clearance.
fn radius_queries(
    ecm: &Ecm,
    problems: &[corridor_io::Problem],
    fraction: f64,
    with_preferred: bool,
) -> Vec<PathQuery> {
    problems
        .iter()
        .filter_map(|p| {
            let c = ecm
                .clearance(p.start)
                .ok()?
                .min(ecm.clearance(p.goal).ok()?);
            let query = PathQuery::new(p.start, p.goal).with_radius(fraction * c);
            (c > 0.0).then(|| {
                if with_preferred {
                    query.with_preferred_clearance(c)
                } else {
                    query
                }
            })
        })
        .collect()
}

/// Plans every query once with `planner` into one path (warming its buffers), then again,
/// and returns each second-pass result with its allocations.
fn warmed_results(
    ecm: &Ecm,
    planner: &mut Planner,
    queries: &[PathQuery],
) -> Vec<(Result<(), PlanError>, usize)> {
    let mut path = CorridorPath::empty();
    for q in queries {
        let _ = planner.plan_into(ecm, q, &mut path);
    }
    queries
        .iter()
        .map(|q| {
            let (result, n) = allocations(|| planner.plan_into(ecm, q, &mut path));
            if result.is_ok() {
                assert!(path.points.len() >= 2, "{q:?}: no path");
            }
            (result, n)
        })
        .collect()
}

#[test]
fn warmed_searches_allocate_nothing() {
    let (ecm, problems) = aurora();
    // Radii just below the clearance of start and goal: the searches run over whatever
    // is wide enough and mostly find no corridor, so no funnel is pulled.
    let queries = radius_queries(&ecm, &problems, 0.99, false);
    let mut refused = 0;
    for (q, (result, n)) in queries
        .iter()
        .zip(warmed_results(&ecm, &mut Planner::new(), &queries))
    {
        if let Err(PlanError::NoCorridor { .. }) = result {
            refused += 1;
            assert_eq!(n, 0, "{q:?}: a warmed search allocated {n} times");
        }
    }
    println!(
        "{refused} of {} queries searched to the end without a corridor, 0 allocations each",
        queries.len()
    );
    assert!(refused >= 20, "only {refused} refused queries");
}

#[test]
fn warmed_queries_allocate_nothing() {
    let (ecm, problems) = aurora();
    let queries: Vec<PathQuery> = problems
        .iter()
        .map(|p| PathQuery::new(p.start, p.goal))
        .collect();
    for candidates in [0, 4] {
        let mut planner = Planner::new();
        planner.set_candidate_corridors(candidates);
        let counts: Vec<usize> = queries
            .iter()
            .zip(warmed_results(&ecm, &mut planner, &queries))
            .map(|(q, (result, n))| {
                assert!(result.is_ok(), "{q:?}: {result:?}");
                n
            })
            .collect();
        let total: usize = counts.iter().sum();
        println!(
            "radius 0, candidates {candidates}: {} warmed queries, {total} allocations",
            queries.len()
        );
        assert_eq!(total, 0, "radius 0, candidates {candidates}: {counts:?}");
    }
}

#[test]
fn warmed_queries_with_a_radius_allocate_nothing() {
    let (ecm, problems) = aurora();
    // Half the clearance of start and goal: most queries find a corridor, so the A*
    // candidates, the disk funnel, its arcs and the indicative route all run.
    let queries = radius_queries(&ecm, &problems, 0.5, true);
    let mut found = 0;
    for (q, (result, n)) in queries
        .iter()
        .zip(warmed_results(&ecm, &mut Planner::new(), &queries))
    {
        if result.is_ok() {
            found += 1;
        }
        assert_eq!(n, 0, "{q:?}: a warmed query allocated {n} times");
    }
    println!(
        "radius > 0: {found} of {} warmed queries found a path, 0 allocations each",
        queries.len()
    );
    assert!(found >= 20, "only {found} queries found a path");
}
