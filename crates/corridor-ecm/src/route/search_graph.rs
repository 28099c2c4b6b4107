//! The medial axis laid out for the searches: the taut-length search ([`super::taut`])
//! and the planner's A*.
//!
//! The search is bound by cache misses, not arithmetic: a step from one vertex to the
//! next used to read the vertex's link range, its links, the pendant-tree numbers of
//! every neighbour and the next edge's gates, each somewhere else in memory. Here the
//! vertices are renumbered ("nodes") so that the degree-2 vertices of each chain of the
//! core (the medial axis without its pendant trees) follow each other, the chain's
//! edges' gates follow each other in the same order, and a link carries everything the
//! search tests before taking it (clearance, the pendant subtree behind it). A walk
//! along a chain then reads memory in order. Built once per map from the planner's
//! [`Adjacency`].

use super::adjacency::{Adjacency, Link};
use super::gate::Gate;
use crate::graph::{Ecm, EdgeId};
use crate::util::slot;
use corridor_geom::Point;

/// No node (a vertex slot without a vertex).
const NO_NODE: u32 = u32::MAX;

/// Bit of [`SearchLink::count_forward`] that says the edge leaves the node at its start.
const FORWARD: u32 = 1 << 31;

/// One edge as seen from one of its end nodes (32 bytes: two links per cache line).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct SearchLink {
    /// Smallest clearance along the edge (`-inf` for a link to nowhere, never taken).
    pub(crate) min_clearance: f64,
    /// The node at the other end.
    pub(crate) next: u32,
    /// The edge's slot ([`SearchGraph::edge_id`] gives its id).
    pub(crate) edge: u32,
    /// The edge's funnel gates (in its forward direction): `gates[gates..gates + count]`.
    pub(crate) gates: u32,
    /// The gate count, with [`FORWARD`] set when the edge leaves the node at its start.
    count_forward: u32,
    /// The preorder range of the pendant subtree the link leads down into (see
    /// [`SearchGraph::leads_to_goal`]); `(0, 0)` when it does not lead down into one.
    subtree: (u32, u32),
}

impl SearchLink {
    /// Whether the edge leaves the node at its start.
    #[inline]
    pub(crate) fn forward(&self) -> bool {
        self.count_forward & FORWARD != 0
    }

    /// Number of funnel gates of the edge.
    #[inline]
    pub(crate) fn count(&self) -> usize {
        (self.count_forward & !FORWARD) as usize
    }

    /// Whether a route may take this link towards a goal whose edges have the keys
    /// `goal_keys`: not into a pendant subtree that holds none of them.
    #[inline]
    pub(crate) fn leads_to_goal(&self, goal_keys: &[u32]) -> bool {
        let (lo, hi) = self.subtree;
        lo == 0 || goal_keys.iter().any(|&k| lo <= k && k <= hi)
    }
}

/// The search's layout of one map (see the module doc).
#[derive(Debug, Default)]
pub(crate) struct SearchGraph {
    /// The map it was built for.
    of: u64,
    /// The node of every vertex slot ([`NO_NODE`] for an empty slot).
    node_of: Vec<u32>,
    /// Links of node `i`: `links[first[i]..first[i + 1]]`, in the order of
    /// [`crate::Vertex::edges`].
    first: Vec<u32>,
    links: Vec<SearchLink>,
    /// Funnel gates of every edge in its forward direction (the planner's
    /// [`Adjacency::funnel_gates`]), edges in the order chains are walked.
    pub(crate) gates: Vec<Gate>,
    /// Pendant-tree preorder number of every node (0 on the core).
    tree_in: Vec<u32>,
    tree_out: Vec<u32>,
    /// Edge ids by slot.
    edge_ids: Vec<EdgeId>,
    /// Vertex positions by node (the A* heuristic's).
    position: Vec<Point>,
}

impl SearchGraph {
    /// Rebuilds the layout if `ecm` changed; `adjacency` must be up to date for it.
    pub(crate) fn update(&mut self, ecm: &Ecm, adjacency: &Adjacency) {
        if self.of == ecm.uid {
            return;
        }
        self.of = ecm.uid;
        let slots = adjacency.first.len() - 1;
        let links_of = |v: usize| {
            &adjacency.links[adjacency.first[v] as usize..adjacency.first[v + 1] as usize]
        };
        let on_core = |v: usize| adjacency.tree_in[v] == 0;
        let core_degree = |v: usize| {
            links_of(v)
                .iter()
                .filter(|l| on_core(l.next_slot as usize))
                .count()
        };
        let mut occupied = vec![false; slots];
        for (v, _) in &ecm.vertices {
            occupied[slot(v)] = true;
        }

        // Number the nodes: core chains in walking order, then the pendant trees in
        // preorder; place each edge's gates when its chain is walked.
        self.node_of.clear();
        self.node_of.resize(slots, NO_NODE);
        let edge_slots = ecm.edges.keys().map(slot).max().map_or(0, |m| m + 1);
        let mut gates_at = vec![u32::MAX; edge_slots];
        let mut order: Vec<usize> = Vec::with_capacity(slots);
        self.gates.clear();
        // Appends a link's edge's gates unless they are placed already.
        let place_edge = |link: &Link, gates: &mut Vec<Gate>, gates_at: &mut [u32]| {
            let e = link.edge_slot as usize;
            if gates_at[e] == u32::MAX {
                gates_at[e] = gates.len() as u32;
                let from = link.funnel_gates as usize;
                gates.extend_from_slice(
                    &adjacency.funnel_gates[from..from + link.funnel_count as usize],
                );
            }
        };
        let mut queue: Vec<usize> = Vec::new();
        let mut queued = vec![false; slots];
        let branch = |v: usize| occupied[v] && on_core(v) && core_degree(v) != 2;
        let rest = |v: usize| occupied[v] && on_core(v);
        for pass in 0..2 {
            for root in 0..slots {
                let starts_here = if pass == 0 { branch(root) } else { rest(root) };
                if !starts_here || queued[root] || self.node_of[root] != NO_NODE {
                    continue;
                }
                queued[root] = true;
                queue.push(root);
                // Breadth first over the chains' ends, so that nearby chains stay close.
                let mut head = 0;
                while head < queue.len() {
                    let b = queue[head];
                    head += 1;
                    if self.node_of[b] == NO_NODE {
                        self.node_of[b] = order.len() as u32;
                        order.push(b);
                    }
                    for link in links_of(b) {
                        if !on_core(link.next_slot as usize) {
                            continue;
                        }
                        place_edge(link, &mut self.gates, &mut gates_at);
                        let (mut came_by, mut w) = (link.edge_slot, link.next_slot as usize);
                        // Along the chain while its vertices have two core links.
                        while core_degree(w) == 2 && self.node_of[w] == NO_NODE {
                            self.node_of[w] = order.len() as u32;
                            order.push(w);
                            let Some(on) = links_of(w)
                                .iter()
                                .find(|l| on_core(l.next_slot as usize) && l.edge_slot != came_by)
                            else {
                                break;
                            };
                            place_edge(on, &mut self.gates, &mut gates_at);
                            (came_by, w) = (on.edge_slot, on.next_slot as usize);
                        }
                        if self.node_of[w] == NO_NODE && !queued[w] {
                            queued[w] = true;
                            queue.push(w);
                        }
                    }
                }
                queue.clear();
            }
        }
        let mut pendant: Vec<usize> = (0..slots).filter(|&v| occupied[v] && !on_core(v)).collect();
        pendant.sort_unstable_by_key(|&v| adjacency.tree_in[v]);
        for v in pendant {
            self.node_of[v] = order.len() as u32;
            order.push(v);
        }

        // Links by node, with the pendant subtree behind each.
        let n = order.len();
        self.first.clear();
        self.first.push(0);
        self.links.clear();
        self.tree_in.clear();
        self.tree_out.clear();
        self.position.clear();
        self.position
            .extend(order.iter().map(|&v| adjacency.position[v]));
        for &v in &order {
            for link in links_of(v) {
                place_edge(link, &mut self.gates, &mut gates_at);
                let to = link.next_slot as usize;
                let t = adjacency.tree_in[to];
                let subtree = if t > adjacency.tree_in[v] {
                    (t, adjacency.tree_out[to])
                } else {
                    (0, 0)
                };
                self.links.push(SearchLink {
                    min_clearance: link.min_clearance,
                    next: self.node_of[to],
                    edge: link.edge_slot,
                    gates: gates_at[link.edge_slot as usize],
                    count_forward: link.funnel_count | if link.forward { FORWARD } else { 0 },
                    subtree,
                });
            }
            self.first.push(self.links.len() as u32);
            self.tree_in.push(adjacency.tree_in[v]);
            self.tree_out.push(adjacency.tree_out[v]);
        }
        debug_assert_eq!(self.first.len(), n + 1);
        self.edge_ids.clear();
        self.edge_ids.resize(edge_slots, EdgeId::default());
        for (e, _) in &ecm.edges {
            self.edge_ids[slot(e)] = e;
        }
    }

    /// Whether `other` is the same layout (for any map).
    #[cfg(test)]
    pub(crate) fn same_layout(&self, other: &SearchGraph) -> bool {
        self.node_of == other.node_of
            && self.first == other.first
            && self.links == other.links
            && self.gates == other.gates
            && self.tree_in == other.tree_in
            && self.tree_out == other.tree_out
            && self.edge_ids == other.edge_ids
            && self.position == other.position
    }

    /// The node of a vertex slot.
    #[inline]
    pub(crate) fn node(&self, vertex_slot: usize) -> u32 {
        self.node_of[vertex_slot]
    }

    /// The number of nodes.
    #[inline]
    pub(crate) fn node_count(&self) -> usize {
        self.position.len()
    }

    /// The position of a node's vertex.
    #[inline]
    pub(crate) fn position(&self, node: u32) -> Point {
        self.position[node as usize]
    }

    /// The links of a node.
    #[inline]
    pub(crate) fn links(&self, node: u32) -> &[SearchLink] {
        let i = node as usize;
        &self.links[self.first[i] as usize..self.first[i + 1] as usize]
    }

    /// The id of the edge in a slot.
    #[inline]
    pub(crate) fn edge_id(&self, edge_slot: u32) -> EdgeId {
        self.edge_ids[edge_slot as usize]
    }

    /// The gates of a link's edge in walking order (away from the link's node).
    #[inline]
    pub(crate) fn link_gates<'a>(&'a self, link: &SearchLink) -> impl Iterator<Item = Gate> + 'a {
        let gates = &self.gates[link.gates as usize..link.gates as usize + link.count()];
        let forward = link.forward();
        let n = gates.len();
        (0..n).map(move |j| {
            if forward {
                gates[j]
            } else {
                let g = gates[n - 1 - j];
                (g.1, g.0, g.2, g.3)
            }
        })
    }

    /// The last gate of a link's edge in walking order (the window at its far node).
    #[inline]
    pub(crate) fn window(&self, link: &SearchLink) -> Gate {
        if link.forward() {
            self.gates[link.gates as usize + link.count() - 1]
        } else {
            let g = self.gates[link.gates as usize];
            (g.1, g.0, g.2, g.3)
        }
    }

    /// Whether a route may go on from node `from` to its neighbour `to` towards a goal
    /// whose edges have the keys `goal_keys` ([`SearchGraph::goal_key`]): not when `to`
    /// is the root of a pendant subtree that holds none of them, since a route that never
    /// turns straight back can only end at a leaf there.
    pub(crate) fn leads_to_goal(&self, from: u32, to: u32, goal_keys: &[u32]) -> bool {
        let t = self.tree_in[to as usize];
        t <= self.tree_in[from as usize] || {
            let end = self.tree_out[to as usize];
            goal_keys.iter().any(|&k| t <= k && k <= end)
        }
    }

    /// The key of an edge between nodes `a` and `b` for [`SearchGraph::leads_to_goal`]:
    /// the preorder number of its deeper end (0 on the core).
    pub(crate) fn goal_key(&self, a: u32, b: u32) -> u32 {
        self.tree_in[a as usize].max(self.tree_in[b as usize])
    }
}
