// SPDX-License-Identifier: MIT OR Apache-2.0

//! Corridor patch (session 28, not in the published crate): the key order of a
//! [`FlatMap`](crate::flat::FlatMap), a sorted sequence of `(rank, node index)` entries
//! kept in chunks of at most [`MAX_CHUNK`] entries, so that an insert or a removal in the
//! middle moves one chunk instead of the whole sequence.
//!
//! A beach line of a game map holds at most about a thousand nodes and stays in one chunk:
//! the searches then compare the same entries as a plain sorted vector. A row of point
//! pillars keeps about one arc per pillar on the beach line and removes arcs from its
//! middle; as one vector that made the sweep quadratic (51 % of its instructions moving
//! memory at 5,000 pillars, docs/BENCHMARKS.md "Hardening").

/// Most entries in a chunk; a fuller chunk is split in halves.
const MAX_CHUNK: usize = 1024;

/// An entry: the node's rank (increasing along the order) and its slot.
pub(crate) type Entry = (u64, usize);

/// A place in the order: before entry `offset` of chunk `chunk` (the end of a chunk is a
/// place too, the same as the start of the next chunk).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Place {
    chunk: usize,
    offset: usize,
}

/// The entries in order, in non-empty chunks (or one empty chunk).
#[derive(Debug, Default)]
pub(crate) struct Order {
    chunks: Vec<Vec<Entry>>,
}

impl Order {
    /// Room for `entries` entries in the first chunk.
    pub(crate) fn reserve(&mut self, entries: usize) {
        if self.chunks.is_empty() {
            self.chunks.push(Vec::with_capacity(entries.min(MAX_CHUNK)));
        }
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    /// The first place whose entry does not satisfy `pred` (which holds for a prefix).
    #[inline]
    pub(crate) fn partition_point(&self, mut pred: impl FnMut(&Entry) -> bool) -> Place {
        let chunk = match self.chunks.len() {
            0 | 1 => 0,
            _ => self
                .chunks
                .partition_point(|c| c.last().is_some_and(&mut pred))
                .min(self.chunks.len() - 1),
        };
        let offset = self
            .chunks
            .get(chunk)
            .map_or(0, |c| c.partition_point(pred));
        Place { chunk, offset }
    }

    /// The place of the entry of rank `rank`, or where it would go.
    #[inline]
    pub(crate) fn place_of_rank(&self, rank: u64) -> Place {
        self.partition_point(|&(r, _)| r < rank)
    }

    /// The place just after `place`'s entry.
    #[inline]
    pub(crate) fn after(place: Place) -> Place {
        Place {
            chunk: place.chunk,
            offset: place.offset + 1,
        }
    }

    /// The entry at `place`.
    #[inline]
    pub(crate) fn get(&self, place: Place) -> Option<Entry> {
        let chunk = self.chunks.get(place.chunk)?;
        match chunk.get(place.offset) {
            Some(&entry) => Some(entry),
            None => self.chunks.get(place.chunk + 1)?.first().copied(),
        }
    }

    /// The entry before `place`.
    #[inline]
    pub(crate) fn before(&self, place: Place) -> Option<Entry> {
        if place.offset > 0 {
            self.chunks.get(place.chunk)?.get(place.offset - 1).copied()
        } else {
            self.chunks[..place.chunk.min(self.chunks.len())]
                .last()?
                .last()
                .copied()
        }
    }

    /// Inserts `entry` at `place`.
    #[inline]
    pub(crate) fn insert(&mut self, place: Place, entry: Entry) {
        if self.chunks.is_empty() {
            self.chunks.push(Vec::new());
        }
        let chunk = &mut self.chunks[place.chunk];
        chunk.insert(place.offset, entry);
        if chunk.len() > MAX_CHUNK {
            let tail = chunk.split_off(chunk.len() / 2);
            self.chunks.insert(place.chunk + 1, tail);
        }
    }

    /// Removes the entry at `place` (an entry's own place, not the end of a chunk).
    #[inline]
    pub(crate) fn remove(&mut self, place: Place) {
        let chunk = &mut self.chunks[place.chunk];
        let _ = chunk.remove(place.offset);
        if chunk.is_empty() {
            let _ = self.chunks.remove(place.chunk);
        } else if chunk.len() < MAX_CHUNK / 4 {
            // Merge a small chunk with the next one when both fit in half a chunk, so
            // that removals do not leave many tiny chunks.
            let next_len = self.chunks.get(place.chunk + 1).map_or(MAX_CHUNK, Vec::len);
            if self.chunks[place.chunk].len() + next_len <= MAX_CHUNK / 2 {
                let next = self.chunks.remove(place.chunk + 1);
                self.chunks[place.chunk].extend(next);
            }
        }
    }

    /// The first entry.
    #[inline]
    pub(crate) fn first(&self) -> Option<Entry> {
        self.chunks.first()?.first().copied()
    }

    /// The last entry.
    #[inline]
    pub(crate) fn last(&self) -> Option<Entry> {
        self.chunks.last()?.last().copied()
    }

    /// Removes every entry.
    pub(crate) fn clear(&mut self) {
        self.chunks.truncate(1);
        if let Some(chunk) = self.chunks.first_mut() {
            chunk.clear();
        }
    }

    /// The entries in order.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &Entry> {
        self.chunks.iter().flatten()
    }

    /// The entries in order, to renumber.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Entry> {
        self.chunks.iter_mut().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_CHUNK, Order};

    #[test]
    fn matches_a_sorted_vector_through_splits_and_merges() {
        let mut order = Order::default();
        let mut reference: Vec<(u64, usize)> = Vec::new();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for step in 0..40 * MAX_CHUNK {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Grow for the first half, then shrink, so chunks split and merge.
            let grow = if step < 20 * MAX_CHUNK { 3 } else { 1 };
            let rank = state % 1_000_000;
            let at = reference.partition_point(|&(r, _)| r < rank);
            let place = order.place_of_rank(rank);
            assert_eq!(order.get(place), reference.get(at).copied());
            assert_eq!(order.before(place), at.checked_sub(1).map(|i| reference[i]));
            let present = reference.get(at).is_some_and(|e| e.0 == rank);
            if present && state % 4 >= grow {
                let _ = reference.remove(at);
                order.remove(place);
            } else if !present && state % 4 < grow {
                reference.insert(at, (rank, step));
                order.insert(place, (rank, step));
            } else if let Some(&(r, _)) = reference.get(at) {
                // Insert just after an existing entry, through `after`.
                let new_rank = r + 1;
                if !reference.iter().any(|e| e.0 == new_rank) {
                    reference.insert(at + 1, (new_rank, step));
                    order.insert(Order::after(place), (new_rank, step));
                }
            }
            if step % 97 == 0 {
                assert_eq!(order.iter().copied().collect::<Vec<_>>(), reference);
                assert_eq!(order.len(), reference.len());
                assert_eq!(order.first(), reference.first().copied());
                assert_eq!(order.last(), reference.last().copied());
                assert!(order.chunks.iter().all(|c| !c.is_empty()));
            }
        }
        assert!(order.chunks.len() > 1 || reference.len() <= MAX_CHUNK);
    }
}
