// SPDX-License-Identifier: MIT OR Apache-2.0

//! Corridor patch (not in the published crate): an ordered map with the interface of
//! [`SkipList`](crate::skiplist::SkipList) that boostvoronoi's beach line uses, kept as a
//! sorted array of the nodes plus links between neighbours.
//!
//! A beach line holds tens of nodes on a local diagram and about a thousand on a whole
//! map; at those sizes the skip list's level bookkeeping (a level draw, a search path and
//! rewiring per level for every insert and removal) cost more than the key comparisons
//! it saves. Here a node knows its neighbours (O(1) cursor steps, inserts next to a hint
//! and removals), and the array, ordered by an integer rank per node, gives the binary
//! search of `lower_bound` and the place of a node for inserts and removals (the array is
//! kept in chunks, `order.rs`, so that a long beach line, a row of point pillars,
//! does not move all of it on every insert and removal). Node indices
//! are handed out exactly as the skip list does (a new slot at the end, or the oldest
//! released one first), and inserts with a hint walk from the hint as the skip list does,
//! so callers that keep indices see the same ones.
//!
//! `lower_bound` and inserts without a hint compare the key with other nodes than the skip
//! list did; with a strict weak order (what `std::map` and the skip list require) the
//! answer is the same.

use crate::order::{Order, Place};
use crate::skiplist::Index;
use crate::{CppMapError, IsLessThan};
use std::collections::VecDeque;
use std::fmt::Debug;

/// No neighbour (before the first node or after the last).
const NONE: usize = usize::MAX;

#[derive(Debug)]
struct FlatNode<K, V> {
    kv: Option<(K, V)>,
    prev: usize,
    next: usize,
    rank: u64,
}

/// What a search from a hint already showed about the node after the insert position
/// (as in the skip list's hinted insert).
#[derive(Clone, Copy)]
enum NextKnown {
    /// `key < next` held: `key` is not a duplicate.
    Greater,
    /// `next < key` did not hold: `key` is a duplicate unless `key < next`.
    NotLess,
    /// Neither held: `key` is a duplicate of it.
    Equal,
}

/// An ordered map of unique keys (by `IsLessThan`), addressed by stable node indices.
#[derive(Debug)]
pub struct FlatMap<K, V>
where
    K: Debug + Clone + IsLessThan,
    V: Debug + Clone,
{
    /// Node slots by index; a released slot has no key and value.
    nodes: Vec<FlatNode<K, V>>,
    /// `(rank, node index)` in key order; ranks increase strictly. Chunked (session 28),
    /// so that long beach lines do not move the whole order on every insert and removal.
    order: Order,
    /// Released slots, reused oldest first (as the skip list).
    free_index_pool: VecDeque<usize>,
}

impl<K, V> Default for FlatMap<K, V>
where
    K: Debug + Clone + IsLessThan,
    V: Debug + Clone,
{
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<K, V> FlatMap<K, V>
where
    K: Debug + Clone + IsLessThan,
    V: Debug + Clone,
{
    pub fn new() -> Self {
        FlatMap {
            nodes: Vec::new(),
            order: Order::default(),
            free_index_pool: VecDeque::new(),
        }
    }

    /// Corridor patch (session 18): room for `nodes` nodes without reallocation.
    pub fn reserve(&mut self, nodes: usize) {
        self.nodes.reserve(nodes);
        self.order.reserve(nodes);
    }

    /// The number of slots in use, counted as the skip list counts them.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.nodes.len().saturating_sub(self.free_index_pool.len())
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline(always)]
    fn key_(&self, index: usize) -> Option<&K> {
        self.nodes.get(index)?.kv.as_ref().map(|(k, _)| k)
    }

    /// Whether node `index` (in use) is less than `key`.
    #[inline(always)]
    fn node_less_(&self, index: usize, key: &K) -> bool {
        self.key_(index).is_some_and(|k| k.is_less_than(key))
    }

    /// Whether `key` is less than node `index` (in use).
    #[inline(always)]
    fn key_less_(&self, key: &K, index: usize) -> bool {
        self.key_(index).is_some_and(|k| key.is_less_than(k))
    }

    /// The place of node `index` in `order`.
    #[inline(always)]
    fn position_(&self, index: usize) -> Place {
        self.order.place_of_rank(self.nodes[index].rank)
    }

    /// The place in `order` of the first node not less than `key`.
    #[inline(always)]
    fn lower_bound_position_(&self, key: &K) -> Place {
        self.order
            .partition_point(|&(_, index)| self.node_less_(index, key))
    }

    /// A slot for a new node: the oldest released one, or a new one at the end.
    #[inline(always)]
    fn next_free_index_(&mut self) -> usize {
        self.free_index_pool.pop_front().unwrap_or(self.nodes.len())
    }

    /// Spreads the ranks evenly when two neighbours have no rank left between them.
    fn renumber_(&mut self) {
        let step = u64::MAX / (self.order.len() as u64 + 2);
        let Self { order, nodes, .. } = self;
        for (i, entry) in order.iter_mut().enumerate() {
            let rank = step * (i as u64 + 1);
            entry.0 = rank;
            nodes[entry.1].rank = rank;
        }
    }

    /// Stores `(key, value)` in slot `index` and links it at place `p` of `order`.
    #[inline]
    fn link_at_(&mut self, p: Place, index: usize, key: K, value: V) {
        let bounds = |order: &Order| {
            let low = order.before(p).map_or(0, |e| e.0);
            let high = order.get(p).map_or(u64::MAX, |e| e.0);
            (low, high)
        };
        let (mut low, mut high) = bounds(&self.order);
        if high - low < 2 {
            self.renumber_();
            (low, high) = bounds(&self.order);
        }
        let rank = low + (high - low) / 2;
        let prev = self.order.before(p).map_or(NONE, |e| e.1);
        let next = self.order.get(p).map_or(NONE, |e| e.1);
        let node = FlatNode {
            kv: Some((key, value)),
            prev,
            next,
            rank,
        };
        if index == self.nodes.len() {
            self.nodes.push(node);
        } else {
            self.nodes[index] = node;
        }
        if prev != NONE {
            self.nodes[prev].next = index;
        }
        if next != NONE {
            self.nodes[next].prev = index;
        }
        self.order.insert(p, (rank, index));
    }

    /// Inserts `(key, value)` unless an equal key is present; the index of the node with
    /// that key.
    #[inline]
    pub fn insert(&mut self, key: K, value: V) -> Result<Index, CppMapError> {
        let p = self.lower_bound_position_(&key);
        if let Some((_, next)) = self.order.get(p) {
            // `next < key` is false (it is the lower bound), so only `key < next` is left.
            if !self.key_less_(&key, next) {
                return Ok(Index(next));
            }
        }
        let index = self.next_free_index_();
        self.link_at_(p, index, key, value);
        Ok(Index(index))
    }

    /// Inserts `(key, value)` next to `hint` when that is its place, walking from the hint
    /// otherwise (the skip list's hinted insert, one comparison at a time).
    #[inline]
    pub fn insert_with_hint(
        &mut self,
        key: K,
        value: V,
        hint: Index,
    ) -> Result<Index, CppMapError> {
        if self.is_empty() {
            return self.insert(key, value);
        }
        let Some((pos, next_known)) = self.hinted_position_(&key, hint.0) else {
            return self.insert(key, value);
        };
        if pos == NONE {
            return self.insert(key, value);
        }
        // As in the skip list, the slot is taken before the duplicate check (a duplicate
        // leaves a released slot unused).
        let index = self.next_free_index_();
        let next = self.nodes[pos].next;
        let duplicate = next != NONE
            && match next_known {
                NextKnown::Greater => false,
                NextKnown::NotLess => !self.key_less_(&key, next),
                NextKnown::Equal => true,
            };
        if duplicate {
            return Ok(Index(next));
        }
        let p = Order::after(self.position_(pos));
        self.link_at_(p, index, key, value);
        Ok(Index(index))
    }

    /// The node after which `key` goes (`NONE`: before the first), searched from `hint`,
    /// and what the search showed about the node after it; `None` when the hint is not a
    /// node, or when it equals `key` and is the first node (the skip list then searches
    /// from the start).
    #[inline]
    fn hinted_position_(&self, key: &K, hint: usize) -> Option<(usize, NextKnown)> {
        let hint_k = self.key_(hint)?;
        if key.is_less_than(hint_k) {
            // `hint < key` cannot hold as well: the order is asymmetric.
            let (mut current, mut known) = (hint, NextKnown::Greater);
            loop {
                let prev = self.nodes[current].prev;
                if prev == NONE || self.node_less_(prev, key) {
                    return Some((prev, known));
                }
                (current, known) = (prev, NextKnown::NotLess);
            }
        } else if hint_k.is_less_than(key) {
            let mut current = hint;
            loop {
                let next = self.nodes[current].next;
                if next == NONE || !self.node_less_(next, key) {
                    return Some((current, NextKnown::NotLess));
                }
                current = next;
            }
        } else {
            let prev = self.nodes[hint].prev;
            (prev != NONE).then_some((prev, NextKnown::Equal))
        }
    }

    /// The first node whose key is not less than `key` (C++ `std::map::lower_bound`).
    #[inline]
    pub fn lower_bound(&self, key: &K) -> Option<Index> {
        self.order
            .get(self.lower_bound_position_(key))
            .map(|(_, index)| Index(index))
    }

    /// The key and value of the node equal to `search_key`.
    #[inline]
    pub fn get_kv(&self, search_key: &K) -> Option<(&K, &V)> {
        let Index(index) = self.lower_bound(search_key)?;
        let (k, v) = self.nodes[index].kv.as_ref()?;
        (!search_key.is_less_than(k)).then_some((k, v))
    }

    #[inline(always)]
    pub fn get_at(&self, index: Index) -> Option<(&K, &V)> {
        self.nodes.get(index.0)?.kv.as_ref().map(|(k, v)| (k, v))
    }

    #[inline(always)]
    pub fn get_k_at(&self, index: Index) -> Option<&K> {
        self.key_(index.0)
    }

    #[inline(always)]
    pub fn get_v_at(&self, index: Index) -> Option<&V> {
        self.nodes.get(index.0)?.kv.as_ref().map(|(_, v)| v)
    }

    #[inline(always)]
    pub fn next_pos(&self, current: Option<Index>) -> Option<Index> {
        let next = self.nodes.get(current?.0)?.next;
        (next != NONE).then_some(Index(next))
    }

    #[inline(always)]
    pub fn prev_pos(&self, current: Option<Index>) -> Option<Index> {
        let prev = self.nodes.get(current?.0)?.prev;
        (prev != NONE).then_some(Index(prev))
    }

    /// Whether `index` names a slot (as the skip list's test).
    #[inline]
    pub fn is_pos_valid(&self, index: Option<Index>) -> bool {
        index.is_some_and(|Index(i)| i < self.nodes.len())
    }

    #[inline(always)]
    pub fn first(&self) -> Option<Index> {
        self.order.first().map(|(_, index)| Index(index))
    }

    #[inline(always)]
    pub fn last(&self) -> Option<Index> {
        self.order.last().map(|(_, index)| Index(index))
    }

    #[inline(always)]
    pub fn is_at_first(&self, pos: Option<Index>) -> bool {
        pos == self.first()
    }

    #[inline(always)]
    pub fn is_at_last(&self, pos: Option<Index>) -> bool {
        pos == self.last()
    }

    /// Replaces the key of a node; only for a key that compares equal to the old one.
    pub fn change_key_of_node(&mut self, index: Index, new_key: K) -> Result<Index, CppMapError> {
        match self.nodes.get_mut(index.0).and_then(|n| n.kv.as_mut()) {
            Some(kv) => {
                kv.0 = new_key;
                Ok(index)
            }
            None => Err(CppMapError::InvalidIndex),
        }
    }

    /// Removes the node at the cursor and returns its key and value; the cursor moves to
    /// the previous node if there is one, else to the next.
    #[inline]
    pub fn remove_by_index(&mut self, cursor_index: &mut Option<Index>) -> Option<(K, V)> {
        let index = self.unlink_(cursor_index)?;
        self.nodes[index].kv.take()
    }

    /// Corridor patch (session 18): [`FlatMap::remove_by_index`] without moving the key and
    /// value out (they are dropped in place); whether there was a node at the cursor.
    #[inline]
    pub fn remove_at(&mut self, cursor_index: &mut Option<Index>) -> bool {
        match self.unlink_(cursor_index) {
            Some(index) => {
                self.nodes[index].kv = None;
                true
            }
            None => false,
        }
    }

    /// Unlinks the node at the cursor (which moves as in `remove_by_index`) and releases its
    /// slot; the slot, whose key and value the caller takes or drops.
    #[inline]
    fn unlink_(&mut self, cursor_index: &mut Option<Index>) -> Option<usize> {
        let index = (*cursor_index)?.0;
        let node = self.nodes.get(index).filter(|node| node.kv.is_some())?;
        let (prev, next) = (node.prev, node.next);
        *cursor_index = if prev != NONE {
            Some(Index(prev))
        } else {
            (next != NONE).then_some(Index(next))
        };
        let p = self.position_(index);
        self.order.remove(p);
        if prev != NONE {
            self.nodes[prev].next = next;
        }
        if next != NONE {
            self.nodes[next].prev = prev;
        }
        let node = &mut self.nodes[index];
        (node.prev, node.next) = (NONE, NONE);
        self.free_index_pool.push_back(index);
        Some(index)
    }

    /// Removes every node; their slots are released in key order (as the skip list).
    pub fn clear(&mut self) {
        for &(_, index) in self.order.iter() {
            let node = &mut self.nodes[index];
            node.kv = None;
            (node.prev, node.next) = (NONE, NONE);
            self.free_index_pool.push_back(index);
        }
        self.order.clear();
    }

    /// The keys and values in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> {
        self.order
            .iter()
            .filter_map(|&(_, index)| self.nodes[index].kv.as_ref().map(|(k, v)| (k, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::FlatMap;

    #[test]
    fn keeps_keys_in_order_through_inserts_and_removals() {
        let mut map = FlatMap::<i64, i64>::new();
        let mut reference = std::collections::BTreeMap::new();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for step in 0..4000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let key = (state % 200) as i64;
            if state.is_multiple_of(3) && !reference.is_empty() {
                let cursor = map.lower_bound(&key).or(map.last());
                let removed = map.remove_by_index(&mut cursor.clone());
                let (k, _) = removed.expect("a node");
                assert!(reference.remove(&k).is_some());
            } else {
                let hint = map
                    .lower_bound(&((state >> 8) as i64 % 200))
                    .or(map.first());
                let index = match hint {
                    Some(hint) if step % 2 == 0 => map.insert_with_hint(key, step, hint),
                    _ => map.insert(key, step),
                }
                .expect("insert");
                let _ = reference.entry(key).or_insert(step);
                assert_eq!(map.get_k_at(index), Some(&key));
            }
            let in_order: Vec<_> = map.iter().map(|(k, v)| (*k, *v)).collect();
            let expected: Vec<_> = reference.iter().map(|(k, v)| (*k, *v)).collect();
            assert_eq!(in_order, expected);
            let mut walked = Vec::new();
            let mut cursor = map.first();
            while let Some(index) = cursor {
                walked.push(*map.get_k_at(index).expect("key"));
                cursor = map.next_pos(cursor);
            }
            assert_eq!(walked, reference.keys().copied().collect::<Vec<_>>());
        }
    }
}
