//! Allocations of a warmed [`Planner`] (issue 7: "queries allocate nothing in the hot path
//! once warmed"), counted by a global allocator that counts on the test's own thread.
//!
//! The searches (retraction, the taut-length search, the A* corridors) and the assembly of
//! the result into a reused [`Path`] allocate nothing once warmed: a query whose searches
//! run to the end without finding a corridor wide enough allocates exactly 0 times. A
//! successful query still calls `corridor_geom::funnel::taut_path` (once for the
//! taut-length search's corridor, once per A* candidate) and `TautPath::polyline`, which
//! build their own vectors; those are the only allocations left, a handful per call,
//! whatever the size of the search.

use corridor_ecm::{Ecm, Path, PathQuery, PlanError, Planner};
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
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

fn aurora() -> (Ecm, Vec<corridor_io::Problem>) {
    let dir = shared().join("polyanya");
    let env = corridor_io::load_environment(dir.join("aurora.mesh")).unwrap();
    let ecm = Ecm::build(&env).unwrap();
    let problems = corridor_io::load_problems(dir.join("aurora-euclidean.csv")).unwrap();
    (ecm, problems.into_iter().step_by(20).collect())
}

#[test]
fn warmed_searches_allocate_nothing() {
    let (ecm, problems) = aurora();
    // Radii just below the clearance of start and goal: the searches run over whatever
    // is wide enough and mostly find no corridor, so no funnel is pulled.
    let queries: Vec<PathQuery> = problems
        .iter()
        .filter_map(|p| {
            let c = ecm
                .clearance(p.start)
                .ok()?
                .min(ecm.clearance(p.goal).ok()?);
            (c > 0.0).then(|| PathQuery::new(p.start, p.goal).with_radius(0.99 * c))
        })
        .collect();
    let mut planner = Planner::new();
    let mut path = Path::empty();
    for q in &queries {
        let _ = planner.plan_into(&ecm, q, &mut path);
    }
    let mut refused = 0;
    for q in &queries {
        let (result, n) = allocations(|| planner.plan_into(&ecm, q, &mut path));
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
fn warmed_queries_allocate_only_inside_the_funnel() {
    let (ecm, problems) = aurora();
    let queries: Vec<PathQuery> = problems
        .iter()
        .map(|p| PathQuery::new(p.start, p.goal))
        .collect();
    for candidates in [0, 4] {
        let mut planner = Planner::new();
        planner.set_candidate_corridors(candidates);
        let mut path = Path::empty();
        for q in &queries {
            planner.plan_into(&ecm, q, &mut path).unwrap();
        }
        let mut counts: Vec<usize> = queries
            .iter()
            .map(|q| allocations(|| planner.plan_into(&ecm, q, &mut path).unwrap()).1)
            .collect();
        counts.sort();
        let (median, max) = (counts[counts.len() / 2], counts[counts.len() - 1]);
        println!(
            "candidates {candidates}: allocations per warmed query median {median}, max {max}"
        );
        // `taut_path` makes 4 vectors (+ their growth) and `polyline` one: at most
        // 1 + candidates funnel calls and one polyline, whatever the search explored.
        let funnel_calls = 1 + candidates;
        assert!(
            max <= 12 * funnel_calls + 2,
            "{max} allocations for {funnel_calls} funnel calls"
        );
    }
}
