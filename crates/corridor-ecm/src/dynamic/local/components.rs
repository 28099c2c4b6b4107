//! How the components are numbered again after a splice, walking only the part of the
//! graph that can have changed ([`update_components`]).

use super::index::UpdateIndex;
use crate::graph::{ComponentId, Ecm, VertexId};
use corridor_geom::{FxHashMap as HashMap, FxHashSet as HashSet, UnionFind};
use std::collections::VecDeque;

/// The component of vertices and edges that are not numbered yet.
pub(super) const UNLABELLED: ComponentId = ComponentId(u32::MAX);

/// One breadth-first search of [`update_components`] (merged into another when they meet).
struct Search {
    queue: VecDeque<VertexId>,
    explored: Vec<VertexId>,
    /// The old component ids seen.
    old: Vec<u32>,
}

/// Numbers the components again after a splice, looking only at the part of the graph
/// that can have changed.
///
/// Every changed component contains a seed (a vertex that lost or gained an edge, or a
/// new vertex). Breadth-first searches start from all seeds at once, one vertex each in
/// turn, and merge when they meet. A search that runs out of vertices has found a whole
/// component; the searches stop when at most one is still running (it holds the rest,
/// usually the large component around the change, which is not walked). So a door that
/// closes off a room costs a walk of the room, an update that splits nothing a walk of a
/// few vertices around the change. Ids stay `0..count`: the running search keeps the id
/// of the largest old component it met (others it met are renumbered to it), finished
/// searches take the remaining old ids or new ones, and ids left over are filled by
/// renumbering the last component.
pub(super) fn update_components(
    ecm: &mut Ecm,
    index: &mut UpdateIndex,
    seeds: &[VertexId],
    affected: HashSet<u32>,
) {
    let mut owner: HashMap<VertexId, usize> = HashMap::default();
    owner.reserve(4 * seeds.len());
    let mut searches: Vec<Search> = Vec::with_capacity(seeds.len());
    let mut sets = UnionFind::default();
    let mut running: Vec<usize> = Vec::with_capacity(seeds.len());
    for &s in seeds {
        if owner.contains_key(&s) {
            continue;
        }
        let i = searches.len();
        owner.insert(s, i);
        let c = ecm.vertices[s].component;
        searches.push(Search {
            queue: VecDeque::from([s]),
            explored: vec![s],
            old: if c == UNLABELLED {
                Vec::new()
            } else {
                vec![c.0]
            },
        });
        sets.push();
        running.push(i);
    }
    let mut finished: Vec<usize> = Vec::new();
    loop {
        running.retain(|&i| sets.find(i as u32) as usize == i);
        if running.is_empty() {
            break;
        }
        if running.len() == 1 && !searches[running[0]].old.is_empty() {
            break;
        }
        let mut k = 0;
        while k < running.len() {
            let i = sets.find(running[k] as u32) as usize;
            if i != running[k] {
                k += 1;
                continue;
            }
            let Some(u) = searches[i].queue.pop_front() else {
                finished.push(i);
                running.swap_remove(k);
                continue;
            };
            for &e in &ecm.vertices[u].edges {
                let edge = &ecm.edges[e];
                for w in [edge.start, edge.end] {
                    match owner.get(&w) {
                        Some(&j) => {
                            let j = sets.find(j as u32) as usize;
                            if j != i {
                                // Merge search j into i.
                                sets.link(j as u32, i as u32);
                                let other = std::mem::replace(
                                    &mut searches[j],
                                    Search {
                                        queue: VecDeque::new(),
                                        explored: Vec::new(),
                                        old: Vec::new(),
                                    },
                                );
                                let s = &mut searches[i];
                                s.queue.extend(other.queue);
                                s.explored.extend(other.explored);
                                s.old.extend(other.old);
                            }
                        }
                        None => {
                            owner.insert(w, i);
                            let s = &mut searches[i];
                            s.queue.push_back(w);
                            s.explored.push(w);
                            let c = ecm.vertices[w].component;
                            if c != UNLABELLED {
                                s.old.push(c.0);
                            }
                        }
                    }
                }
            }
            k += 1;
        }
    }
    // Ids that may be given out again: every old id involved.
    let mut free: Vec<u32> = affected.into_iter().collect();
    for &i in finished.iter().chain(&running) {
        let s = &mut searches[i];
        s.old.sort_unstable();
        s.old.dedup();
        free.extend(s.old.iter().copied());
    }
    free.sort_unstable();
    free.dedup();
    let mut relabelled: Vec<VertexId> = Vec::with_capacity(seeds.len());
    // The search still running keeps the largest old component's id.
    if let Some(&i) = running.first() {
        let s = &searches[i];
        let keep = *s
            .old
            .iter()
            .max_by_key(|c| {
                (
                    index.sizes.get(**c as usize).copied().unwrap_or(0),
                    u32::MAX - **c,
                )
            })
            .unwrap_or(&0);
        free.retain(|c| *c != keep);
        for &v in &s.explored {
            let c = ecm.vertices[v].component;
            if c == UNLABELLED {
                relabel(ecm, index, v, keep, &mut relabelled);
            } else if c.0 != keep {
                flood(ecm, index, v, c, keep, &mut relabelled);
            } else {
                relabelled.push(v);
            }
        }
        if let Some(&v) = s.explored.first() {
            set_representative(index, keep, v);
        }
    }
    // Every finished search is a whole component.
    free.reverse(); // pop the smallest first
    for &i in &finished {
        let id = match free.pop() {
            Some(id) => id,
            None => {
                index.sizes.push(0);
                index.representative.push(None);
                ecm.component_count += 1;
                ecm.component_count - 1
            }
        };
        let explored = std::mem::take(&mut searches[i].explored);
        for &v in &explored {
            relabel(ecm, index, v, id, &mut relabelled);
        }
        if let Some(&v) = explored.first() {
            set_representative(index, id, v);
        }
    }
    // Ids left over: fill them from the top so that ids stay 0..count.
    free.sort_unstable_by(|a, b| b.cmp(a));
    for f in free {
        let last = ecm.component_count - 1;
        if f != last {
            let start = representative(ecm, index, last);
            if let Some(v) = start {
                flood(ecm, index, v, ComponentId(last), f, &mut relabelled);
                set_representative(index, f, v);
            }
        }
        index.sizes.pop();
        index.representative.pop();
        ecm.component_count -= 1;
    }
    // Edges take their start vertex's component.
    for v in relabelled {
        let vertex = &ecm.vertices[v];
        for &e in &vertex.edges {
            ecm.edges[e].component = vertex.component;
        }
    }
}

fn set_representative(index: &mut UpdateIndex, c: u32, v: VertexId) {
    if let Some(slot) = index.representative.get_mut(c as usize) {
        *slot = Some(v);
    }
}

/// A vertex of component `c` (a scan of all vertices when the remembered one is stale).
fn representative(ecm: &Ecm, index: &UpdateIndex, c: u32) -> Option<VertexId> {
    let remembered = index.representative.get(c as usize).copied().flatten();
    if let Some(v) = remembered {
        if ecm.vertices.get(v).is_some_and(|x| x.component.0 == c) {
            return Some(v);
        }
    }
    ecm.vertices
        .iter()
        .find(|(_, x)| x.component.0 == c)
        .map(|(id, _)| id)
}

fn relabel(ecm: &mut Ecm, index: &mut UpdateIndex, v: VertexId, to: u32, out: &mut Vec<VertexId>) {
    let vertex = &mut ecm.vertices[v];
    let from = vertex.component;
    if from.0 == to {
        out.push(v);
        return;
    }
    if from != UNLABELLED {
        if let Some(n) = index.sizes.get_mut(from.0 as usize) {
            *n = n.saturating_sub(1);
        }
    }
    vertex.component = ComponentId(to);
    if let Some(n) = index.sizes.get_mut(to as usize) {
        *n += 1;
    }
    out.push(v);
}

/// Renumbers the vertices of component `from` reachable from `start` through vertices of
/// `from` to `to`.
fn flood(
    ecm: &mut Ecm,
    index: &mut UpdateIndex,
    start: VertexId,
    from: ComponentId,
    to: u32,
    out: &mut Vec<VertexId>,
) {
    if ecm.vertices[start].component != from {
        return;
    }
    relabel(ecm, index, start, to, out);
    let mut stack = vec![start];
    while let Some(u) = stack.pop() {
        for k in 0..ecm.vertices[u].edges.len() {
            let e = ecm.vertices[u].edges[k];
            let edge = &ecm.edges[e];
            for w in [edge.start, edge.end] {
                if ecm.vertices[w].component == from {
                    relabel(ecm, index, w, to, out);
                    stack.push(w);
                }
            }
        }
    }
}
