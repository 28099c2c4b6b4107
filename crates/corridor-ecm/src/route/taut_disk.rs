//! The taut-length search with a radius: which corridor holds the shortest path of a
//! disk of radius r, found exactly.
//!
//! At r > 0 the planner hands [`TautSearch::run`] a [`Measure`]: every complete route
//! whose point-portal length beats the best so far is measured by it (the planner's disk
//! funnel: portals shrunk by r at their wall ends, corners as discs of radius r), and the
//! best route and the stop use those lengths. This replaces the planner's penalised A*
//! candidate corridors (issue 24). Why the result is the shortest disk path over all
//! routes the search may take:
//!
//! * **The bounds are admissible for disks.** The centre of a disk path through a
//!   corridor stays in the corridor's sleeve (it crosses the same portals, trimmed at
//!   start and goal alike, each shrunk by r), so its length is at least the point taut
//!   path, the shortest path in that sleeve, which every bound of a label on that route
//!   is below ([`checked`] asserts it in debug builds).
//! * **The stop.** The search ends when neither queue holds a label whose bound is below
//!   the shortest disk length measured; every route not completed extends such a label.
//! * **No label is dropped by root pruning.** Root pruning (a label whose apex another
//!   label reached by a shorter point path) is not safe for disks: the disk path of the
//!   shorter prefix may turn more and be the longer one, and how much longer depends on
//!   the continuation. So at r > 0 such a label is only *deferred*: it waits, with its
//!   admissible bound, in a second queue that is served once the open queue holds
//!   nothing below the best disk length. A deferred label taken back is expanded like any
//!   other (its children may be deferred again). Deferring changes the order, never the
//!   set of routes examined below the final best length, so it costs no exactness; it
//!   pays where the point-pruned labels' bounds already reach the best disk length.
//! * **The other prunings hold for disks.** Edges with a bending point of clearance
//!   below r cannot be crossed by the disk; window dominance is off at r > 0; a route
//!   that turns straight back along its edge, or comes back to a window it crossed with
//!   the same apex ([`TautSearch::repeats_window`]), is never shortest for a disk either:
//!   the portal shrunk by r is free for the disk's centre (every point of a portal is as
//!   far from the walls as from the portal's wall end), so the loop between two
//!   crossings of it can be cut short along it.
//!
//! Taking deferred labels back is bounded ([`DEFER_BUDGET_FACTOR`]): past the budget the
//! search stops as at its label cap, says so (`capped`), and the planner compares its A*
//! candidate corridors as before; the result is then no longer proved shortest.
//!
//! The disk funnel's trimming at start and goal is the planner's own, so the measured
//! length is that of the path the planner returns for that route (the final clearance
//! check may still put end portals back, as for every route before).

use super::{OpenLabel, TautSearch, NONE};
use crate::graph::EdgeId;
use crate::locate::Retraction;
use crate::route::search_graph::SearchGraph;

/// Expansions allowed in all once deferred labels are taken back: this many times those
/// before, plus [`DEFER_BUDGET_MIN`]. Point bounds are loose for disks (the disk path is
/// longer by about r times its turning), so taking back every deferred label below the
/// best disk length can mean expanding the whole subtree root pruning would have cut;
/// beyond the budget the search reports itself capped.
const DEFER_BUDGET_FACTOR: usize = 2;
const DEFER_BUDGET_MIN: usize = 64;

/// The length of a complete route for [`TautSearch::run`]: (start candidate, goal
/// candidate, the route's edges with direction) → length.
pub(crate) type Measure<'a> = dyn FnMut(usize, usize, &[(EdgeId, bool)]) -> f64 + 'a;

/// A route's disk length, given its point-portal length: the disk path is never shorter
/// (the admissibility the search's stop relies on), up to rounding.
pub(super) fn checked(point: f64, disk: f64) -> f64 {
    debug_assert!(
        disk >= point - 1e-9 * point.max(1.0),
        "disk length {disk} below the point length {point}"
    );
    disk
}

impl TautSearch {
    /// The next label to expand: from the open queue while it holds one below the best
    /// length, else a deferred one below it (taken back), else none.
    pub(super) fn next_open(&mut self) -> Option<OpenLabel> {
        let below = |q: &std::collections::BinaryHeap<OpenLabel>, best: f64| {
            q.peek().is_some_and(|o| o.bound < best)
        };
        if below(&self.open, self.length) || !below(&self.deferred, self.length) {
            return self.open.pop();
        }
        if self.defer_budget == 0 {
            self.defer_budget = DEFER_BUDGET_FACTOR * self.expanded + DEFER_BUDGET_MIN;
        }
        if self.expanded >= self.defer_budget {
            // Too many routes between the point bounds and the disk length: give up
            // exactness here as at the label cap (the planner then compares its A*
            // candidate corridors, as it always did before).
            self.capped = true;
            return None;
        }
        let next = self.deferred.pop()?;
        self.labels[next.label as usize].reinstated = true;
        Some(next)
    }

    /// Puts the route of `label` finished into goal candidate `goal` (entered `forward`)
    /// into `self.route`; returns its start candidate.
    pub(super) fn fill_route(
        &mut self,
        graph: &SearchGraph,
        goals: &[Retraction],
        (label, goal, forward): (u32, usize, bool),
    ) -> usize {
        self.route.clear();
        self.route.push((goals[goal].edge(), forward));
        let mut at = label;
        loop {
            let l = self.labels[at as usize];
            self.route.push((graph.edge_id(l.edge), l.forward));
            self.route.extend(
                self.passed[l.passed.0 as usize..l.passed.1 as usize]
                    .iter()
                    .rev()
                    .map(|&(e, forward)| (graph.edge_id(e), forward)),
            );
            if l.parent == NONE {
                break;
            }
            at = l.parent;
        }
        self.route.reverse();
        self.labels[at as usize].start as usize
    }
}
