//! Choosing the corridor by the length of the taut path itself.
//!
//! A* on medial-axis lengths can prefer a corridor whose taut path is longer than
//! another's. Here the search runs over *routes* (sequences of medial-axis edges), each
//! carried by a label with the incremental funnel (Lee and Preparata) of its corridor.
//! The taut length of what follows a vertex depends on the whole route to it, not only on
//! the vertex, so one label per vertex (Dijkstra's rule) is not exact: an earlier version
//! did that and chose a longer corridor on 16 Moving AI scenarios. Several labels per
//! vertex, ordered by a lower bound on every extension's length and pruned only where a
//! shorter path provably exists, make the search exact at radius 0 (see
//! [`TautSearch::run`]).
//!
//! The search state lives in a reusable [`TautSearch`]: labels in one vector, and the
//! funnel of every label stored as two slices of one shared point pool, all cleared but
//! kept between queries, so that a warmed search allocates nothing (unless a query needs
//! more labels than any before it).

use super::dominance::{dominates, ReachScratch};
use super::funnel::{Funnel, StoredFunnel};
use super::gate::{keeps_for_goal, last_kept, Gate};
use super::search_graph::{SearchGraph, SearchLink};
use crate::graph::{Ecm, EdgeId};
use crate::locate::Retraction;
use crate::util::{point_key, slot, BuildPointHasher};
use corridor_geom::Point;
use std::collections::BinaryHeap;

/// Gates of bending points `from..=to` of `edge` (`to` may be below `from` when
/// walking backwards), in walking order.
fn portals(
    ecm: &Ecm,
    edge: EdgeId,
    forward: bool,
    from: usize,
    to: usize,
) -> impl Iterator<Item = Gate> + '_ {
    let bps = &ecm.edges[edge].bending_points;
    let (lo, hi) = (from.min(to), from.max(to));
    (0..=hi - lo).map(move |j| {
        let b = &bps[if forward { lo + j } else { hi - j }];
        if forward {
            (b.left, b.right, b.position, b.clearance)
        } else {
            (b.right, b.left, b.position, b.clearance)
        }
    })
}

/// How a route found by [`TautSearch::run`] begins and ends; the route itself is in
/// [`TautSearch::route`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct TautRoute {
    pub start: usize,
    pub goal: usize,
}

/// No parent label.
const NONE: u32 = u32::MAX;

/// A label's `to` when it took every portal of its edge.
const WHOLE: u32 = u32::MAX;

/// One search label: a route from a start candidate to `vertex` and the funnel of its
/// corridor. Several labels may sit at one vertex (the taut length of what follows
/// depends on the whole route, not only on the vertex reached).
#[derive(Clone, Copy, Debug)]
struct Label {
    /// The vertex reached, as a [`SearchGraph`] node.
    node: u32,
    /// The label this one extends over `edge` (`NONE`: the first edge, from start
    /// candidate `start` along its edge).
    parent: u32,
    /// The slot of the edge taken ([`SearchGraph::edge_id`]).
    edge: u32,
    forward: bool,
    start: u32,
    /// The portals of `edge` this label took: [`portals`]`(edge, forward, from, to)`;
    /// `to` is [`WHOLE`] when they are all of them.
    from: u32,
    to: u32,
    /// Whether the planner's corridor keeps the last of them (the window at `vertex`)
    /// whatever follows: the goal lies strictly beyond it, or away from it (see
    /// [`keeps_for_goal`]).
    beyond: bool,
    /// The edges walked from `parent`'s vertex before `edge` (see
    /// [`TautSearch::extend`]): `passed[passed.0..passed.1]` of the search.
    passed: (u32, u32),
    /// Lower bound on the length of every route extending this one.
    bound: f64,
    /// The length of every extension whose goal lies beyond none of the portals after
    /// this label's window: the planner trims the corridor back to the last portal of
    /// this route the goal lies beyond and goes straight to the goal from there. NaN when
    /// the goal lies beyond this label's window: then it is the funnel's length to the
    /// goal, computed only when needed.
    trim_len: f64,
    funnel: StoredFunnel,
    /// The label queued before this one at the same window (see
    /// [`TautSearch::window_dominated`]), or `NONE`.
    same_window: u32,
    /// Dropped after it was queued: another label at its window dominates it.
    dead: bool,
}

impl Label {
    /// A route reaching `vertex` (and its slot) over the portals `from..=to` of `edge`
    /// taken in direction `forward`, extending `parent` from start candidate `start`. Its
    /// window, bound and funnel are filled in by `add_label`.
    fn along(
        node: u32,
        parent: u32,
        (edge, forward): (u32, bool),
        start: u32,
        (from, to): (u32, u32),
    ) -> Self {
        Label {
            node,
            parent,
            edge,
            forward,
            start,
            from,
            to,
            passed: (0, 0),
            beyond: false,
            bound: 0.0,
            trim_len: 0.0,
            funnel: StoredFunnel::default(),
            same_window: NONE,
            dead: false,
        }
    }
}

/// An entry of the open list: smallest lower bound first, then the deeper label.
#[derive(Debug, PartialEq)]
struct OpenLabel {
    bound: f64,
    apex_length: f64,
    label: u32,
}

impl Eq for OpenLabel {}

impl Ord for OpenLabel {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .bound
            .total_cmp(&self.bound)
            .then(self.apex_length.total_cmp(&other.apex_length))
    }
}

impl PartialOrd for OpenLabel {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// How the best route found so far ends.
#[derive(Clone, Copy, Debug)]
enum Finish {
    /// Start and goal on one edge.
    Direct { start: usize, goal: usize },
    /// Into goal candidate `goal` from label `label`.
    Via {
        label: u32,
        goal: usize,
        forward: bool,
    },
}

/// How a route can go on from a vertex (see [`TautSearch::extend`]).
enum WayOn {
    /// No allowed link and no goal edge: a dead end.
    None,
    /// Exactly one allowed link, and no goal edge starts there.
    One(SearchLink),
    /// Several links, or a goal edge starts there: a label is queued.
    Stop,
}

/// Hard cap on the labels of one search, as a multiple of the map's vertex count: a
/// safety net against pathological label growth (the pruning keeps real searches far
/// below it). When it is reached the best route found so far is returned.
const LABELS_PER_VERTEX: usize = 64;

/// Hard cap on the funnel points the labels of one search store, per label of the cap
/// above: funnels stay a few points long on a consistent map, but a forged map that
/// passes the structural checks can keep routes looping with ever longer funnels, and
/// memory must stay bounded by the map's size there too.
const POINTS_PER_LABEL: usize = 16;

/// Relative slack of the root pruning, so that rounding never prunes an optimal label.
const ROOT_SLACK: f64 = 1e-9;

/// Reusable state of the taut-length search (keep one per thread).
#[derive(Debug, Default)]
pub(crate) struct TautSearch {
    labels: Vec<Label>,
    open: BinaryHeap<OpenLabel>,
    pool: Vec<Point>,
    /// Shortest apex length seen so far for each funnel apex (an obstacle corner), for
    /// root pruning.
    roots: std::collections::HashMap<(u64, u64), f64, BuildPointHasher>,
    /// The last label queued at each (node, edge, direction) whose window the goal lies
    /// beyond: the head of a list through [`Label::same_window`].
    windows: std::collections::HashMap<WindowKey, u32, BuildPointHasher>,
    reach: ReachScratch,
    /// Window dominance: at radius 0 only, where the search is exact.
    window_dominance: bool,
    current: Funnel,
    work: Funnel,
    scratch: Funnel,
    /// The funnel of the last label passed by [`TautSearch::extend`].
    previous: Funnel,
    /// The vertex slots where goal candidates' edges start or end.
    goal_entries: Vec<u32>,
    /// Edges passed by walks ([`TautSearch::extend`]), in walking order per walk.
    passed: Vec<(u32, bool)>,
    /// [`SearchGraph::goal_key`] of every goal candidate's edge.
    goal_keys: Vec<u32>,
    /// The route of the last successful [`TautSearch::run`]: edges with direction, as in
    /// [`crate::CorridorPath::edges`]; empty when start and goal share an edge and the direct
    /// stretch wins.
    pub(crate) route: Vec<(EdgeId, bool)>,
    /// Labels expanded by the last run (for statistics).
    pub(crate) expanded: usize,
    /// The taut length of the route found by the last run.
    pub(crate) length: f64,
    /// Whether the last run hit the label cap (its route may then not be the shortest).
    pub(crate) capped: bool,
}

/// A window: the node reached, the edge it was reached by and the direction.
type WindowKey = (u32, u32, bool);

impl TautSearch {
    /// Labels created by the last run, counting the vertices walks passed.
    pub(crate) fn labels_created(&self) -> usize {
        self.labels.len() + self.passed.len()
    }

    /// Best-first search over routes by taut length (see the module doc): exact at radius
    /// 0, i.e. it returns the corridor whose taut path, as the planner computes it, is
    /// shortest among all corridors wide enough for `radius` (measured with point
    /// portals).
    ///
    /// The planner trims the corridor's portals: at the front those the start lies
    /// beyond, at the back those the goal does not lie beyond, in both cases only next to
    /// the point ([`skips_for_start`](super::gate::skips_for_start), [`keeps_for_goal`]); the search measures every
    /// complete route the same way.
    ///
    /// Labels are expanded in order of a lower bound on the length of every route that
    /// extends them ([`Funnel::bound`], through the window at the label's vertex when the
    /// goal lies beyond it, since the trimmed path then crosses that window); the search
    /// stops when that bound reaches the shortest complete route found. Two prunings keep
    /// the label count small without losing the optimum: a route never turns straight
    /// back along the edge it came by, and a label whose funnel apex (an obstacle corner
    /// every extension passes, when the goal lies beyond its window) was reached more
    /// cheaply by another label is dropped, since that cheaper way to the corner followed
    /// by the same continuation is a shorter path (root pruning, as in Polyanya). The
    /// labels on the route of the shortest path are never dropped: their apexes are
    /// reached by shortest paths.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        &mut self,
        ecm: &Ecm,
        graph: &SearchGraph,
        start_point: Point,
        goal_point: Point,
        starts: &[Retraction],
        goals: &[Retraction],
        radius: f64,
    ) -> Option<TautRoute> {
        self.labels.clear();
        self.passed.clear();
        self.open.clear();
        self.pool.clear();
        self.roots.clear();
        self.windows.clear();
        self.window_dominance = radius == 0.0;
        self.route.clear();
        self.expanded = 0;
        self.length = f64::INFINITY;
        self.capped = false;
        let cap = LABELS_PER_VERTEX * ecm.vertices.len().max(64);
        let fits = |edge: EdgeId, lo: usize, hi: usize| {
            ecm.edges[edge].bending_points[lo..=hi]
                .iter()
                .all(|b| b.clearance >= radius)
        };
        let mut best: Option<(f64, Finish)> = None;
        self.goal_entries.clear();
        for g in goals {
            let edge = &ecm.edges[g.edge()];
            self.goal_entries
                .extend([graph.node(slot(edge.start)), graph.node(slot(edge.end))]);
        }
        self.goal_keys.clear();
        self.goal_keys.extend(goals.iter().map(|g| {
            let edge = &ecm.edges[g.edge()];
            graph.goal_key(graph.node(slot(edge.start)), graph.node(slot(edge.end)))
        }));

        // Start and goal on one edge.
        for (i, s) in starts.iter().enumerate() {
            for (j, g) in goals.iter().enumerate() {
                if s.edge() != g.edge() {
                    continue;
                }
                let (ks, kg) = (s.cell.piece as usize, g.cell.piece as usize);
                let forward = (ks, s.t) <= (kg, g.t);
                // Bending points strictly between the two retractions.
                let (lo, hi) = if forward { (ks + 1, kg) } else { (kg + 1, ks) };
                if s.clearance < radius
                    || g.clearance < radius
                    || (lo <= hi && !fits(s.edge(), lo, hi))
                {
                    continue;
                }
                let f = &mut self.work;
                f.reset(start_point);
                if lo <= hi {
                    let (from, to) = if forward { (lo, hi) } else { (hi, lo) };
                    let stretch = || portals(ecm, s.edge(), forward, from, to);
                    if let Some(last) = last_kept(stretch(), goal_point) {
                        for gate in stretch().take(last + 1) {
                            f.push_trimmed(gate);
                        }
                    }
                }
                let length = f.length_to(goal_point);
                if best.as_ref().is_none_or(|b| length < b.0) {
                    self.length = length;
                    best = Some((length, Finish::Direct { start: i, goal: j }));
                }
            }
        }
        for (index, s) in starts.iter().enumerate() {
            let edge = &ecm.edges[s.edge()];
            let last = edge.bending_points.len() - 1;
            let k = s.cell.piece as usize;
            for forward in [true, false] {
                let (from, to, v, u) = if forward {
                    (k + 1, last, edge.end, edge.start)
                } else {
                    (k, 0, edge.start, edge.end)
                };
                if !fits(s.edge(), from.min(to), from.max(to))
                    || s.clearance < radius
                    || !graph.leads_to_goal(
                        graph.node(slot(u)),
                        graph.node(slot(v)),
                        &self.goal_keys,
                    )
                {
                    continue;
                }
                let f = &mut self.work;
                f.reset(start_point);
                for gate in portals(ecm, s.edge(), forward, from, to) {
                    f.push_trimmed(gate);
                }
                let b = &edge.bending_points[to];
                let window = if forward {
                    (b.left, b.right, b.position, b.clearance)
                } else {
                    (b.right, b.left, b.position, b.clearance)
                };
                self.add_label(
                    (ecm, graph),
                    Label::along(
                        graph.node(slot(v)),
                        NONE,
                        (slot(s.edge()) as u32, forward),
                        index as u32,
                        (from as u32, to as u32),
                    ),
                    window,
                    (0.0, start_point.distance(goal_point)),
                    start_point,
                    goal_point,
                );
            }
        }
        while let Some(OpenLabel { bound, label, .. }) = self.open.pop() {
            if best.as_ref().is_some_and(|b| bound >= b.0) {
                break;
            }
            let here = self.labels[label as usize];
            if here.dead {
                continue;
            }
            if self.dominated(here.funnel.apex, here.funnel.apex_length, start_point) {
                if here.beyond {
                    continue;
                }
                if here.trim_len > bound {
                    // Only the extensions that trim back before the window can still be
                    // shortest, and they all have length `trim_len`.
                    self.open.push(OpenLabel {
                        bound: here.trim_len,
                        apex_length: here.funnel.apex_length,
                        label,
                    });
                    continue;
                }
            }
            self.expanded += 1;
            self.current.load(&here.funnel, &self.pool);
            // Finish into a goal edge from here.
            for (j, g) in goals.iter().enumerate() {
                let edge = &ecm.edges[g.edge()];
                let k = g.cell.piece as usize;
                for forward in [true, false] {
                    // `goal_entries` holds the nodes of goal `j`'s edge's start and end.
                    let entry = self.goal_entries[2 * j + usize::from(!forward)];
                    if entry != here.node
                        || (slot(g.edge()) as u32 == here.edge && forward != here.forward)
                    {
                        continue;
                    }
                    let last = edge.bending_points.len() - 1;
                    let (from, to) = if forward { (0, k) } else { (last, k + 1) };
                    if !fits(g.edge(), from.min(to), from.max(to)) || g.clearance < radius {
                        continue;
                    }
                    let stretch = || portals(ecm, g.edge(), forward, from, to);
                    let length = match last_kept(stretch(), goal_point) {
                        Some(last) => {
                            let f = &mut self.work;
                            f.copy_from(&self.current);
                            for gate in stretch().take(last + 1) {
                                f.push_trimmed(gate);
                            }
                            f.length_to(goal_point)
                        }
                        None if here.trim_len.is_nan() => self.current.length_to(goal_point),
                        None => here.trim_len,
                    };
                    if best.as_ref().is_none_or(|b| length < b.0) {
                        self.length = length;
                        best = Some((
                            length,
                            Finish::Via {
                                label,
                                goal: j,
                                forward,
                            },
                        ));
                    }
                }
            }
            if self.labels.len() >= cap || self.pool.len() >= cap * POINTS_PER_LABEL {
                self.capped = true;
                continue;
            }
            if best.as_ref().is_some_and(|b| bound >= b.0) {
                continue;
            }
            for link in graph.links(here.node) {
                if !self.allowed(link, here.edge, radius) {
                    continue;
                }
                self.work.copy_from(&self.current);
                self.extend(
                    ecm,
                    graph,
                    (label, here.start),
                    (bound, here.trim_len),
                    *link,
                    (start_point, goal_point),
                    radius,
                );
            }
        }
        let (length, finish) = best?;
        self.length = length;
        match finish {
            Finish::Direct { start, goal } => Some(TautRoute { start, goal }),
            Finish::Via {
                label,
                goal,
                forward,
            } => {
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
                let start = self.labels[at as usize].start as usize;
                Some(TautRoute { start, goal })
            }
        }
    }

    /// Whether a route that reached vertex slot `from` over `came_by` may go on over
    /// `link`: not when it is too narrow, goes straight back the way the route came, or
    /// leads into a pendant tree without the goal (a dead end).
    #[inline]
    fn allowed(&self, link: &SearchLink, came_by: u32, radius: f64) -> bool {
        link.min_clearance >= radius && link.edge != came_by && link.leads_to_goal(&self.goal_keys)
    }

    /// Extends label `parent` (of start candidate `start`, with the given (bound, trim
    /// length), its funnel in `self.current` and copied into `self.work`) over `link`.
    ///
    /// Where the route can go on in only one way (the vertex reached has one allowed
    /// link besides the one it came by and no goal edge starts there), it walks on
    /// without queueing a label at each such vertex: a label there would be expanded
    /// into exactly that one extension. The walk stops (and queues a label through
    /// [`TautSearch::add_label`]) wherever that label would not be a plain pass-through:
    /// a branch or goal vertex, a window the goal may not lie beyond, or an apex reached
    /// more cheaply by another label (then the walk is dropped, as `add_label` would drop
    /// it). The edges passed are recorded with the label for the route, and the apexes
    /// passed for root pruning; instead of the full bound the walk checks the cheaper
    /// `apex length + |apex − goal|` (every extension passes the apex) against the best
    /// route found.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &mut self,
        ecm: &Ecm,
        graph: &SearchGraph,
        (parent, start): (u32, u32),
        mut parent_bound: (f64, f64),
        mut link: SearchLink,
        (start_point, goal_point): (Point, Point),
        radius: f64,
    ) {
        let first_passed = self.passed.len() as u32;
        // Whether `self.previous` (not `self.current`) holds the funnel of the vertex
        // passed last (`self.current` holds `parent`'s).
        let mut walked = false;
        // The apex last checked for root pruning (and recorded) on this walk.
        let mut checked = None;
        loop {
            let window = graph.window(&link);
            if walked && !keeps_for_goal(&window, goal_point) {
                // `add_label` measures a label the goal may not lie beyond with its
                // parent's funnel.
                self.previous.copy_from(&self.work);
            }
            for gate in graph.link_gates(&link) {
                self.work.push_trimmed(gate);
            }
            let mut label = Label::along(
                link.next,
                parent,
                (link.edge, link.forward()),
                start,
                (0, WHOLE),
            );
            label.passed = (first_passed, self.passed.len() as u32);
            let (apex, apex_length) = (self.work.apex, self.work.apex_length);
            let cheap_bound = apex_length + apex.distance(goal_point);
            let next = match self.sole_way_on(graph, &link, radius) {
                // A dead end: no extension and no goal edge from there.
                WayOn::None => return,
                WayOn::One(next)
                    if keeps_for_goal(&window, goal_point)
                        && self.open.peek().is_none_or(|o| cheap_bound <= o.bound)
                        && (checked == Some(apex)
                            || !self.dominated(apex, apex_length, start_point)) =>
                {
                    Some(next)
                }
                _ => None,
            };
            let Some(next) = next else {
                if walked {
                    std::mem::swap(&mut self.current, &mut self.previous);
                }
                self.add_label(
                    (ecm, graph),
                    label,
                    window,
                    parent_bound,
                    start_point,
                    goal_point,
                );
                if walked {
                    std::mem::swap(&mut self.current, &mut self.previous);
                }
                return;
            };
            let bound = parent_bound.0.max(cheap_bound);
            if bound >= self.length {
                return;
            }
            if apex != start_point && checked != Some(apex) {
                let g = self.roots.entry(point_key(apex)).or_insert(apex_length);
                *g = g.min(apex_length);
            }
            checked = Some(apex);
            self.passed.push((link.edge, link.forward()));
            parent_bound = (bound, f64::NAN);
            walked = true;
            link = next;
        }
    }

    /// How a route that reached `link.next` over `link` can go on.
    fn sole_way_on(&self, graph: &SearchGraph, link: &SearchLink, radius: f64) -> WayOn {
        if self.goal_entries.contains(&link.next) {
            return WayOn::Stop;
        }
        let mut found = WayOn::None;
        for next in graph.links(link.next) {
            if self.allowed(next, link.edge, radius) {
                if matches!(found, WayOn::One(_)) {
                    return WayOn::Stop;
                }
                found = WayOn::One(*next);
            }
        }
        found
    }

    /// Whether a funnel apex was reached more cheaply by another label (the start never
    /// is: it is reached at length 0).
    fn dominated(&self, apex: Point, apex_length: f64, start_point: Point) -> bool {
        apex != start_point
            && self
                .roots
                .get(&point_key(apex))
                .is_some_and(|&g| apex_length > g * (1.0 + ROOT_SLACK))
    }

    /// Whether an ancestor of `label` with the same funnel apex reached the same window
    /// (the same node over the same edge in the same direction): the route has gone round
    /// a loop that left the apex where it was, as round a point obstacle, where every
    /// turn ties with the last and root pruning, which drops only strictly longer
    /// labels, would let the search go round for ever.
    ///
    /// Such a label is dominated by that ancestor `A` when the goal lies beyond its
    /// window `W` (so every extension crosses `W` last after the loop): a path through
    /// the label's corridor to a point `x` of `W` crosses `W` first at some `y`, so it is
    /// at least `f_A(y) + |y − x|`, which is at least `f_A(x)` since `A`'s corridor
    /// holds the straight piece of `W` from `y` to `x`; and both labels have the same
    /// continuations (they depend only on the node and the edge it was entered by).
    /// Only ancestors with the same apex are looked at (the walk up stops at the first
    /// other apex), which keeps the check short: an apex never comes back on a route.
    fn repeats_window(&self, label: &Label, apex: Point, start_point: Point) -> bool {
        if apex == start_point {
            return false;
        }
        let mut at = label.parent;
        while at != NONE {
            let a = &self.labels[at as usize];
            if a.funnel.apex != apex {
                return false;
            }
            if a.node == label.node && a.edge == label.edge && a.forward == label.forward {
                return true;
            }
            at = a.parent;
        }
        false
    }

    /// Completes `label` (reached over the portals `label.from..=label.to` of its edge,
    /// the last being `window`, with its funnel in `self.work` and its parent's in
    /// `self.current`), bounds it and queues it, unless it is pruned.
    ///
    /// `parent` is the parent's (bound, trim length); for a first edge (0, |start − goal|).
    ///
    /// Extensions of the label either keep its window (the planner's corridor keeps
    /// every portal up to the last one the goal lies beyond, so all that end with such a
    /// portal after the window) or are trimmed back before it and have length
    /// `trim_len`. The first kind crosses the window and passes the funnel's apex: its
    /// length is at least [`Funnel::bound`] and, if another label reached the apex more
    /// cheaply, it is never shortest (root pruning). With the goal beyond the window
    /// there is only the first kind.
    #[allow(clippy::too_many_arguments)]
    fn add_label(
        &mut self,
        (ecm, graph): (&Ecm, &SearchGraph),
        mut label: Label,
        window: Gate,
        parent: (f64, f64),
        start_point: Point,
        goal_point: Point,
    ) {
        let (apex, apex_length) = (self.work.apex, self.work.apex_length);
        label.beyond = keeps_for_goal(&window, goal_point);
        label.trim_len = if label.beyond {
            // Only needed for the rare extension that trims back to this window: NaN
            // says "the funnel's length to the goal", computed when needed.
            f64::NAN
        } else {
            let edge = graph.edge_id(label.edge);
            let (from, to) = if label.to != WHOLE {
                (label.from as usize, label.to as usize)
            } else {
                let last = ecm.edges[edge].bending_points.len() - 1;
                if label.forward {
                    (0, last)
                } else {
                    (last, 0)
                }
            };
            let stretch = || portals(ecm, edge, label.forward, from, to);
            match last_kept(stretch(), goal_point) {
                Some(last) => {
                    if label.parent == NONE {
                        self.scratch.reset(start_point);
                    } else {
                        self.scratch.copy_from(&self.current);
                    }
                    for gate in stretch().take(last + 1) {
                        self.scratch.push_trimmed(gate);
                    }
                    self.scratch.length_to(goal_point)
                }
                None if parent.1.is_nan() => self.current.length_to(goal_point),
                None => parent.1,
            }
        };
        // The window bounds the path only if it was taken (the start lies before it).
        let through_window = if self.work.opened {
            self.work.bound(Some((window.0, window.1)), goal_point)
        } else {
            start_point.distance(goal_point)
        };
        let dominated = self.dominated(apex, apex_length, start_point);
        if label.beyond && !dominated && self.repeats_window(&label, apex, start_point) {
            // A loop back to a window already crossed with the same apex: never shorter.
            return;
        }
        label.bound = parent.0.max(match (label.beyond, dominated) {
            (true, true) => return,
            (true, false) => through_window,
            (false, true) => label.trim_len,
            (false, false) => through_window.min(label.trim_len),
        });
        if label.bound >= self.length {
            // No extension can beat the best route found.
            return;
        }
        let index = self.labels.len() as u32;
        if self.window_dominance && label.beyond && self.work.opened {
            let key = (label.node, label.edge, label.forward);
            let head = self.windows.get(&key).copied().unwrap_or(NONE);
            if self.window_dominated(head, (window.0, window.1)) {
                return;
            }
            label.same_window = head;
            self.windows.insert(key, index);
        }
        if apex != start_point && !dominated {
            let g = self.roots.entry(point_key(apex)).or_insert(apex_length);
            *g = g.min(apex_length);
        }
        label.funnel = self.work.store(&mut self.pool);
        self.open.push(OpenLabel {
            bound: label.bound,
            apex_length,
            label: index,
        });
        self.labels.push(label);
    }

    /// Whether the funnel in `self.work` is dominated by a live label at the same window
    /// (the list from `head`); those it dominates die. See [`dominance`](super::dominance).
    fn window_dominated(&mut self, head: u32, window: (Point, Point)) -> bool {
        for stored_wins in [true, false] {
            let mut at = head;
            while at != NONE {
                let other = self.labels[at as usize];
                let (pool, work) = ((&self.pool[..], &other.funnel), &self.work);
                if !other.dead && dominates(pool, work, window, stored_wins, &mut self.reach) {
                    if stored_wins {
                        return true;
                    }
                    self.labels[at as usize].dead = true;
                }
                at = other.same_window;
            }
        }
        false
    }
}
