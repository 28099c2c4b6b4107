//! Per-query state a planner keeps between queries: generation-stamped marks by slot and
//! the entries of the A* open lists.

use std::cmp::Ordering;

/// Per-slot values valid for one generation: `reset` forgets everything in O(1).
#[derive(Debug, Default)]
pub(crate) struct Marks<T: Copy + Default> {
    stamp: Vec<u32>,
    value: Vec<T>,
    generation: u32,
}

impl<T: Copy + Default> Marks<T> {
    /// Forgets every value; makes room for `slots` slots.
    pub(crate) fn reset(&mut self, slots: usize) {
        if self.stamp.len() < slots {
            self.stamp.resize(slots, 0);
            self.value.resize(slots, T::default());
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        (self.stamp.get(i) == Some(&self.generation)).then(|| &self.value[i])
    }

    #[inline]
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.stamp.get(i) == Some(&self.generation)
    }

    /// Sets the value of slot `i`; returns whether it had one already.
    #[inline]
    pub(crate) fn insert(&mut self, i: usize, v: T) -> bool {
        if i >= self.stamp.len() {
            self.stamp.resize(i + 1, 0);
            self.value.resize(i + 1, T::default());
        }
        let had = self.stamp[i] == self.generation;
        self.stamp[i] = self.generation;
        self.value[i] = v;
        had
    }
}

/// An entry of an A* open list: best estimate first, then the larger cost (deeper) first.
#[derive(Debug, PartialEq)]
pub(crate) struct Open {
    pub(crate) estimate: f64,
    pub(crate) cost: f64,
    /// The vertex, as a [`SearchGraph`](super::search_graph::SearchGraph) node.
    pub(crate) node: u32,
}

impl Eq for Open {}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .estimate
            .total_cmp(&self.estimate)
            .then(self.cost.total_cmp(&other.cost))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
