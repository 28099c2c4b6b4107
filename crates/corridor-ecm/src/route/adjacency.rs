//! The medial axis as dense arrays by vertex slot (built once per map), with the gates a
//! funnel needs and the pendant trees numbered: what the searches' layout
//! ([`SearchGraph`](super::search_graph::SearchGraph)) is made from.

use super::gate::Gate;
use crate::graph::{Ecm, EdgeId};
use crate::util::slot;
use corridor_geom::Point;

/// The medial axis as dense arrays by vertex slot (built once per map), laid out again
/// for the searches by [`SearchGraph`](super::search_graph::SearchGraph).
#[derive(Debug, Default)]
pub(crate) struct Adjacency {
    /// The map it was built for.
    pub(crate) of: u64,
    /// Links of the vertex in slot `i`: `links[first[i]..first[i + 1]]`, in the order of
    /// [`crate::Vertex::edges`].
    pub(crate) first: Vec<u32>,
    pub(crate) links: Vec<Link>,
    /// The bending points of every edge as gates in the edge's forward direction, each
    /// edge's contiguous, without the gates a funnel does not need (see
    /// [`funnel_gates`]): what the taut-length search pushes when it takes a whole edge
    /// (it reads them from its [`SearchGraph`](super::search_graph::SearchGraph), which keeps them in walking order).
    pub(crate) funnel_gates: Vec<Gate>,
    /// Vertex positions by slot.
    pub(crate) position: Vec<Point>,
    /// Pendant trees (see [`SearchGraph::leads_to_goal`](super::search_graph::SearchGraph::leads_to_goal)): the preorder number of every
    /// vertex slot that hangs off the medial axis's cycles in a tree (0 for a vertex on a
    /// cycle or on a path between cycles, the "core"), and the last preorder number of
    /// its subtree.
    pub(crate) tree_in: Vec<u32>,
    pub(crate) tree_out: Vec<u32>,
    /// The map lineage (see `Ecm::lineage`) `gates_of` belongs to.
    lineage: u64,
    /// Where each edge's gates are in `funnel_gates`, by edge slot: the edge's id (a slot
    /// whose id differs belongs to a removed edge), first index and count. Within one
    /// lineage an edge never changes, so after a patch only the new edges' gates are
    /// computed; the gates of removed edges stay behind until they are half the pool.
    gates_of: Vec<(EdgeId, u32, u32)>,
    /// Length of the pieces the clearance check splits a path segment into (about four
    /// cell pieces across), so that its index queries stay local.
    pub(crate) check_step: f64,
}

/// One edge as seen from one of its end vertices.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Link {
    pub(crate) edge_slot: u32,
    pub(crate) next_slot: u32,
    pub(crate) min_clearance: f64,
    /// Whether the edge leaves the vertex at its start.
    pub(crate) forward: bool,
    /// The edge's gates in [`Adjacency::funnel_gates`]: first index and count.
    pub(crate) funnel_gates: u32,
    pub(crate) funnel_count: u32,
}

impl Adjacency {
    pub(crate) fn update(&mut self, ecm: &Ecm) {
        if self.of == ecm.uid {
            return;
        }
        self.of = ecm.uid;
        let n = ecm.vertices.keys().map(slot).max().map_or(0, |m| m + 1);
        self.first.clear();
        self.first.resize(n + 1, 0);
        self.position.clear();
        self.position.resize(n, Point::ZERO);
        for (v, vertex) in &ecm.vertices {
            self.first[slot(v) + 1] = vertex.edges.len() as u32;
            self.position[slot(v)] = vertex.position;
        }
        for i in 0..n {
            self.first[i + 1] += self.first[i];
        }
        self.links.clear();
        self.links.resize(self.first[n] as usize, Link::default());
        self.update_gates(ecm);
        let funnel_gates_of = |e: EdgeId| {
            let (_, at, count) = self.gates_of[slot(e)];
            (at, count)
        };
        for (v, vertex) in &ecm.vertices {
            let at = self.first[slot(v)] as usize;
            for (k, &e) in vertex.edges.iter().enumerate() {
                let edge = &ecm.edges[e];
                // A link to nowhere (never in a valid map) is skipped like the search
                // skipped it.
                let (next, min_clearance) = match edge.opposite(v) {
                    Some(next) => (next, edge.min_clearance),
                    None => (v, f64::NEG_INFINITY),
                };
                self.links[at + k] = Link {
                    edge_slot: slot(e) as u32,
                    next_slot: slot(next) as u32,
                    min_clearance,
                    forward: edge.start == v,
                    funnel_gates: funnel_gates_of(e).0,
                    funnel_count: funnel_gates_of(e).1,
                };
            }
        }
        self.number_pendant_trees();
        let cells = ecm.cells.len().max(1) as f64;
        let (mut lo, mut hi) = (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
        for p in &self.position {
            (lo, hi) = (lo.min(*p), hi.max(*p));
        }
        let area = ((hi.x - lo.x) * (hi.y - lo.y)).max(0.0);
        self.check_step = 4.0 * (area / cells).sqrt();
        if !(self.check_step.is_finite() && self.check_step > 0.0) {
            self.check_step = f64::INFINITY;
        }
    }
}

impl Adjacency {
    /// Brings `funnel_gates` and `gates_of` up to date: within the lineage they were
    /// computed for, only for the edges added since (see `gates_of`).
    fn update_gates(&mut self, ecm: &Ecm) {
        let edge_slots = ecm.edges.keys().map(slot).max().map_or(0, |m| m + 1);
        if self.lineage != ecm.lineage {
            self.lineage = ecm.lineage;
            self.gates_of.clear();
            self.funnel_gates.clear();
        }
        self.gates_of.resize(edge_slots, (EdgeId::default(), 0, 0));
        let live: usize = ecm
            .edges
            .iter()
            .filter(|(e, _)| self.gates_of[slot(*e)].0 == *e)
            .map(|(e, _)| self.gates_of[slot(e)].2 as usize)
            .sum();
        if live < self.funnel_gates.len() / 2 {
            // Mostly gates of removed edges: move the live ones to a fresh pool.
            let old = std::mem::take(&mut self.funnel_gates);
            for (e, _) in &ecm.edges {
                let entry = &mut self.gates_of[slot(e)];
                if entry.0 == e {
                    let (at, count) = (entry.1 as usize, entry.2 as usize);
                    entry.1 = self.funnel_gates.len() as u32;
                    self.funnel_gates.extend_from_slice(&old[at..at + count]);
                }
            }
        }
        let mut gates = Vec::new();
        for (e, edge) in &ecm.edges {
            if self.gates_of[slot(e)].0 == e {
                continue;
            }
            gates.clear();
            gates.extend(
                edge.bending_points
                    .iter()
                    .map(|b| (b.left, b.right, b.position, b.clearance)),
            );
            let at = self.funnel_gates.len() as u32;
            funnel_gates(&gates, &mut self.funnel_gates);
            self.gates_of[slot(e)] = (e, at, self.funnel_gates.len() as u32 - at);
        }
    }

    /// The funnel gates of edge `e` (of the map last given to `update`).
    #[cfg(test)]
    pub(crate) fn gates_of(&self, e: EdgeId) -> &[Gate] {
        let (_, at, count) = self.gates_of[slot(e)];
        &self.funnel_gates[at as usize..(at + count) as usize]
    }

    /// Numbers the pendant trees of the medial axis: peels degree-1 vertices until only
    /// the core is left (the vertices on cycles and on paths between them; in a
    /// component without cycles, one vertex), then numbers the peeled vertices in
    /// preorder from the core, so that the subtree behind a link into a peeled vertex
    /// `w` is the preorder range `tree_in[w]..=tree_out[w]`.
    fn number_pendant_trees(&mut self) {
        let n = self.position.len();
        let mut degree: Vec<u32> = (0..n).map(|i| self.first[i + 1] - self.first[i]).collect();
        let mut peeled = vec![false; n];
        let mut stack: Vec<usize> = (0..n).filter(|&i| degree[i] == 1).collect();
        while let Some(v) = stack.pop() {
            if peeled[v] || degree[v] != 1 {
                continue;
            }
            peeled[v] = true;
            degree[v] = 0;
            for link in &self.links[self.first[v] as usize..self.first[v + 1] as usize] {
                let w = link.next_slot as usize;
                if w != v && !peeled[w] {
                    degree[w] -= 1;
                    if degree[w] == 1 {
                        stack.push(w);
                    }
                }
            }
        }
        // A component that is a tree is peeled completely but for its last vertex, whose
        // degree dropped to 0: it stays in the core as the tree's root.
        self.tree_in.clear();
        self.tree_in.resize(n, 0);
        self.tree_out.clear();
        self.tree_out.resize(n, 0);
        let mut next = 1u32;
        // Depth-first walk: (vertex slot, parent slot, index of the next link to try).
        let mut walk: Vec<(usize, usize, usize)> = Vec::new();
        for root in 0..n {
            if peeled[root] {
                continue;
            }
            walk.push((root, usize::MAX, self.first[root] as usize));
            while let Some(&mut (v, parent, ref mut k)) = walk.last_mut() {
                if *k == self.first[v + 1] as usize {
                    self.tree_out[v] = next - 1;
                    walk.pop();
                    continue;
                }
                let w = self.links[*k].next_slot as usize;
                *k += 1;
                if w != parent && w != v && peeled[w] && self.tree_in[w] == 0 {
                    self.tree_in[w] = next;
                    next += 1;
                    walk.push((w, v, self.first[w] as usize));
                }
            }
        }
    }
}

/// Appends the gates of one edge (in its forward order) that a funnel needs: all but
/// those whose both end points lie on the straight segments between the neighbouring
/// kept gate's and the next gate's (to a relative 1e-12). Between two kept gates the
/// corridor is then a quadrilateral with straight sides, which a path crossing both
/// portals crosses every portal between them, so the funnel (the taut path) is the same
/// up to rounding; the first and last gate (the windows) are always kept. Degree-2
/// parabolic pieces (a corner against a straight wall) and straight pieces lose all
/// their inner gates.
fn funnel_gates(gates: &[Gate], out: &mut Vec<Gate>) {
    let between = |a: Point, p: Point, b: Point| {
        let d = b - a;
        let len2 = d.length_squared();
        if len2 == 0.0 {
            return p == a;
        }
        let along = (p - a).dot(d);
        d.perp_dot(p - a).abs() <= 1e-12 * len2 && (0.0..=len2).contains(&along)
    };
    let Some((&first, rest)) = gates.split_first() else {
        return;
    };
    out.push(first);
    let mut kept = first;
    for (j, &g) in rest.iter().enumerate() {
        let Some(&next) = rest.get(j + 1) else {
            out.push(g);
            break;
        };
        if between(kept.0, g.0, next.0) && between(kept.1, g.1, next.1) {
            continue;
        }
        out.push(g);
        kept = g;
    }
}

#[cfg(test)]
mod tests {
    use super::super::search_graph::SearchGraph;
    use super::*;
    use crate::Ecm;
    fn gate(l: (f64, f64), r: (f64, f64)) -> Gate {
        (Point::new(l.0, l.1), Point::new(r.0, r.1), Point::ZERO, 1.0)
    }

    #[test]
    fn funnel_gates_drop_only_gates_implied_by_straight_sides() {
        // A corner (left, fixed) against a straight wall (right): the inner gates go.
        let fan: Vec<Gate> = (0..5).map(|i| gate((0.0, 1.0), (i as f64, -1.0))).collect();
        let mut out = Vec::new();
        funnel_gates(&fan, &mut out);
        assert_eq!(out, vec![fan[0], fan[4]]);
        // A bend in the right side keeps the gate at the bend.
        let bent = vec![
            gate((0.0, 1.0), (0.0, -1.0)),
            gate((0.0, 1.0), (1.0, -1.0)),
            gate((0.0, 1.0), (2.0, -1.5)),
        ];
        out.clear();
        funnel_gates(&bent, &mut out);
        assert_eq!(out, bent);
        // One gate stays one gate.
        out.clear();
        funnel_gates(&bent[..1], &mut out);
        assert_eq!(out, bent[..1].to_vec());
    }

    #[test]
    fn pendant_trees_are_dead_ends_unless_they_hold_the_goal() {
        // A 10 × 10 room around a 2 × 2 block: the medial axis is a cycle round the block
        // with a pendant branch into every convex corner.
        let mut env =
            corridor_geom::Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
        env.insert(corridor_geom::Obstacle::rectangle(
            Point::new(4.0, 4.0),
            Point::new(6.0, 6.0),
        ));
        let ecm = Ecm::build(&env).expect("ECM");
        let mut adjacency = Adjacency::default();
        adjacency.update(&ecm);
        let mut graph = SearchGraph::default();
        graph.update(&ecm, &adjacency);
        let mut into_trees = 0;
        for (v, _) in ecm.vertices() {
            let from = graph.node(slot(v));
            for link in graph.links(from) {
                let to = link.next;
                assert_eq!(graph.leads_to_goal(from, to, &[]), link.leads_to_goal(&[]));
                if link.leads_to_goal(&[]) {
                    continue;
                }
                into_trees += 1;
                // The far side is a tree: the goal key of any edge in it opens it.
                let key = graph.goal_key(from, to);
                assert!(graph.leads_to_goal(from, to, &[key]));
                assert!(link.leads_to_goal(&[key]));
                let e = graph.edge_id(link.edge);
                assert!(ecm.edge(e).is_some_and(|e| e.start == v || e.end == v));
            }
        }
        assert!(into_trees >= 4, "the corner branches are pendant trees");
    }
}
