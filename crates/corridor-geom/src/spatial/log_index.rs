//! Which boxes of a set that grows and shrinks meet a query box? Packed trees of
//! geometrically growing size (a log-structured merge of [`PackedTree`]s) with a short
//! unsorted tail and dead marks for removed entries.

use super::boxes::boxes_meet;
use super::packed_tree::PackedTree;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Most entries [`LogIndex`] keeps unsorted before packing them into a tree.
const TAIL: usize = 32;

/// One entry of a [`LogIndex`] level.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Slot<T> {
    /// The entry's data.
    pub data: T,
    /// Whether it was removed (its box stays in the tree until the level is packed again).
    pub dead: bool,
}

/// A packed tree over some entries of a [`LogIndex`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
struct Level<T> {
    tree: PackedTree,
    /// The entries, by the index the tree reports.
    slots: Vec<Slot<T>>,
    /// Number of live entries.
    live: usize,
}

impl<T: Copy> Level<T> {
    fn new(boxes: &[[f64; 4]], data: Vec<T>) -> Self {
        Level {
            tree: PackedTree::new(boxes),
            live: data.len(),
            slots: data
                .into_iter()
                .map(|data| Slot { data, dead: false })
                .collect(),
        }
    }

    /// Appends the live entries (box and data) to `boxes` and `data`.
    fn append_live(&self, boxes: &mut Vec<[f64; 4]>, data: &mut Vec<T>) {
        let leaves = self.tree.level_ends.first().map_or(0, |&n| n as usize);
        for (b, &i) in self.tree.boxes[..leaves].iter().zip(&self.tree.links) {
            let slot = &self.slots[i as usize];
            if !slot.dead {
                boxes.push(*b);
                data.push(slot.data);
            }
        }
    }
}

/// Boxes with data that change by insertions and removals, without an R* tree: a
/// log-structured set of [`PackedTree`]s. New entries go to a short unsorted tail (at
/// most 32, which queries scan); a full tail is packed into a new level, merged with
/// the smaller levels before it while they are less than twice its size, so that every
/// level holds more than twice the live entries of the next one (a logarithmic number of
/// levels, each entry packed a logarithmic number of times). Removal marks entries dead;
/// a level that is mostly dead is packed again without them, an empty one dropped.
///
/// Why it exists: the ECM's cell index and its local updates insert and remove a few
/// boxes at a time into a set bulk-loaded once; rebuilding the one [`PackedTree`] per
/// change would cost the whole set, and an R* tree costs much more per insertion and per
/// query. Here a change costs amortized `O(log n)` packing and the large tree of the
/// build stays as it is.
///
/// ```
/// use corridor_geom::LogIndex;
/// let mut index = LogIndex::packed(vec![[0.0, 0.0, 1.0, 1.0], [4.0, 4.0, 5.0, 5.0]], vec!['a', 'b']);
/// index.insert([0.5, 0.5, 4.5, 4.5], 'c');
/// let mut found: Vec<char> = index.meeting([0.8, 0.8, 0.9, 0.9]).copied().collect();
/// found.sort_unstable();
/// assert_eq!(found, ['a', 'c']);
/// let mut removed = Vec::new();
/// index.remove_meeting([0.8, 0.8, 0.9, 0.9], |&c| c == 'a', |&c| removed.push(c));
/// assert_eq!(removed, ['a']);
/// assert_eq!(index.len(), 2);
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(serialize = "T: Serialize", deserialize = "T: Deserialize<'de>"))
)]
pub struct LogIndex<T> {
    /// The packed levels, largest first.
    levels: Vec<Level<T>>,
    /// Boxes and data not packed yet.
    tail: Vec<([f64; 4], T)>,
}

impl<T> Default for LogIndex<T> {
    fn default() -> Self {
        LogIndex {
            levels: Vec::new(),
            tail: Vec::new(),
        }
    }
}

impl<T: Copy> LogIndex<T> {
    /// The entries `data` with boxes `boxes` (`[min x, min y, max x, max y]`), packed in
    /// one level.
    pub fn packed(boxes: Vec<[f64; 4]>, data: Vec<T>) -> Self {
        debug_assert_eq!(boxes.len(), data.len());
        let mut index = LogIndex::default();
        if !data.is_empty() {
            index.levels.push(Level::new(&boxes, data));
        }
        index
    }

    /// One level of a tree already packed over `boxes` and its entries, all live (`slots`
    /// by the index the tree reports): for a caller that gathers the boxes, the slots and
    /// the box of all boxes in one pass (see [`PackedTree::with_extent`]), where
    /// [`LogIndex::packed`] would take a second.
    pub fn from_packed_level(tree: PackedTree, slots: Vec<Slot<T>>) -> Self {
        debug_assert!(slots.iter().all(|s| !s.dead));
        let mut index = LogIndex::default();
        if !slots.is_empty() {
            index.levels.push(Level {
                tree,
                live: slots.len(),
                slots,
            });
        }
        index
    }

    /// Number of live entries.
    pub fn len(&self) -> usize {
        self.levels.iter().map(|l| l.live).sum::<usize>() + self.tail.len()
    }

    /// Whether there is no live entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds an entry.
    pub fn insert(&mut self, b: [f64; 4], data: T) {
        self.tail.push((b, data));
        if self.tail.len() >= TAIL {
            self.flush();
        }
    }

    /// Packs the tail into a level, merged with the smaller levels that are less than
    /// twice its size.
    fn flush(&mut self) {
        let (mut boxes, mut data): (Vec<[f64; 4]>, Vec<T>) = self.tail.drain(..).unzip();
        while let Some(last) = self.levels.last() {
            if last.live >= 2 * data.len() {
                break;
            }
            last.append_live(&mut boxes, &mut data);
            self.levels.pop();
        }
        if !data.is_empty() {
            self.levels.push(Level::new(&boxes, data));
        }
    }

    /// The live entries whose boxes meet `query`, in no particular order.
    pub fn meeting(&self, query: [f64; 4]) -> impl Iterator<Item = &T> + '_ {
        self.levels
            .iter()
            .flat_map(move |level| {
                level.tree.meeting(query).filter_map(move |i| {
                    let slot = &level.slots[i as usize];
                    (!slot.dead).then_some(&slot.data)
                })
            })
            .chain(
                self.tail
                    .iter()
                    .filter(move |(b, _)| boxes_meet(*b, query))
                    .map(|(_, data)| data),
            )
    }

    /// Removes the live entries whose boxes meet `query` and that `doomed` selects,
    /// calling `removed` on each.
    pub fn remove_meeting(
        &mut self,
        query: [f64; 4],
        mut doomed: impl FnMut(&T) -> bool,
        mut removed: impl FnMut(&T),
    ) {
        let mut repack = false;
        for level in &mut self.levels {
            let Level { tree, slots, live } = level;
            for i in tree.meeting(query) {
                let slot = &mut slots[i as usize];
                if !slot.dead && doomed(&slot.data) {
                    slot.dead = true;
                    *live -= 1;
                    removed(&slot.data);
                }
            }
            repack |= *live == 0 || mostly_dead(*live, slots.len());
        }
        self.tail.retain(|(b, data)| {
            let gone = boxes_meet(*b, query) && doomed(data);
            if gone {
                removed(data);
            }
            !gone
        });
        if repack {
            // Levels at most half alive are packed again without their dead entries
            // (paid for by the removals that made them so), empty ones dropped.
            for level in &mut self.levels {
                if level.live > 0 && mostly_dead(level.live, level.slots.len()) {
                    let (mut boxes, mut data) = (Vec::new(), Vec::new());
                    level.append_live(&mut boxes, &mut data);
                    *level = Level::new(&boxes, data);
                }
            }
            self.levels.retain(|l| l.live > 0);
        }
    }
}

impl<T> LogIndex<T> {
    /// Whether the index is one that insertions and removals can make: each level's tree
    /// of [`PackedTree::check_shape`]'s shape over exactly its slots, its live count
    /// right, the tail shorter than a flush and its boxes free of NaN. For an index read
    /// from untrusted bytes: after this, no query indexes out of range. Returns what is
    /// wrong.
    ///
    /// ```
    /// use corridor_geom::LogIndex;
    /// let mut index = LogIndex::packed(vec![[0.0, 0.0, 1.0, 1.0]], vec![7]);
    /// index.insert([2.0, 2.0, 3.0, 3.0], 8);
    /// assert!(index.check().is_ok());
    /// let entries: Vec<i32> = index.live_entries().map(|(_, &d)| d).collect();
    /// assert_eq!(entries, [7, 8]);
    /// ```
    pub fn check(&self) -> Result<(), &'static str> {
        for level in &self.levels {
            level.tree.check_shape()?;
            let leaves = level.tree.level_ends.first().map_or(0, |&n| n as usize);
            if level.slots.len() != leaves {
                return Err("log index: a level's slots and tree differ in number");
            }
            if level.slots.iter().filter(|s| !s.dead).count() != level.live {
                return Err("log index: a level's live count is wrong");
            }
        }
        if self.tail.len() >= TAIL {
            return Err("log index: the tail is longer than a flush");
        }
        if self.tail.iter().any(|(b, _)| b.iter().any(|v| v.is_nan())) {
            return Err("log index: a tail box is NaN");
        }
        Ok(())
    }

    /// The live entries with their boxes: the levels' (in tree order), then the tail's.
    pub fn live_entries(&self) -> impl Iterator<Item = ([f64; 4], &T)> + '_ {
        self.levels
            .iter()
            .flat_map(|level| {
                level.tree.leaves().filter_map(move |(b, i)| {
                    let slot = level.slots.get(i as usize)?;
                    (!slot.dead).then_some((b, &slot.data))
                })
            })
            .chain(self.tail.iter().map(|(b, data)| (*b, data)))
    }
}

/// Whether a level of `slots` entries with `live` alive is to be packed again: at most
/// half alive (and more than a tail's worth dead).
#[inline]
fn mostly_dead(live: usize, slots: usize) -> bool {
    2 * live + TAIL < slots
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn log_index_reports_exactly_the_live_boxes_meeting_a_query() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let random_box = |rng: &mut ChaCha8Rng| {
            let (x, y) = (
                rng.random_range(-100.0..100.0),
                rng.random_range(-100.0..100.0),
            );
            let (w, h) = (rng.random::<f64>() * 10.0, rng.random::<f64>() * 10.0);
            [x, y, x + w, y + h]
        };
        // Start from a packed level (as a build does) and from nothing.
        for start in [0, 500] {
            let boxes: Vec<[f64; 4]> = (0..start).map(|_| random_box(&mut rng)).collect();
            let mut live: Vec<([f64; 4], u32)> = boxes.iter().copied().zip(0..).collect();
            let mut index = LogIndex::packed(boxes, (0..start as u32).collect());
            let mut next = start as u32;
            for step in 0..6000 {
                // Grow for a while, then shrink, then grow again.
                let remove = match step {
                    0..2000 => rng.random_bool(0.3),
                    2000..4000 => rng.random_bool(0.8),
                    _ => rng.random_bool(0.4),
                };
                if remove && !live.is_empty() {
                    let q = random_box(&mut rng);
                    let picked: Vec<u32> = live
                        .iter()
                        .filter(|(b, id)| boxes_meet(*b, q) && id % 3 != 0)
                        .map(|(_, id)| *id)
                        .collect();
                    let mut removed = Vec::new();
                    index.remove_meeting(q, |id| id % 3 != 0, |id| removed.push(*id));
                    removed.sort_unstable();
                    let mut expected = picked.clone();
                    expected.sort_unstable();
                    assert_eq!(removed, expected, "step {step}");
                    live.retain(|(_, id)| !picked.contains(id));
                } else {
                    let b = random_box(&mut rng);
                    index.insert(b, next);
                    live.push((b, next));
                    next += 1;
                }
                assert_eq!(index.len(), live.len());
                // Levels more than double in size, so there are few of them.
                let bound = 2 + (live.len().max(1) as f64).log2() as usize;
                assert!(index.levels.len() <= bound, "{} levels", index.levels.len());
                if step % 20 == 0 {
                    let q = random_box(&mut rng);
                    let mut found: Vec<u32> = index.meeting(q).copied().collect();
                    found.sort_unstable();
                    let mut expected: Vec<u32> = live
                        .iter()
                        .filter(|(b, _)| boxes_meet(*b, q))
                        .map(|(_, id)| *id)
                        .collect();
                    expected.sort_unstable();
                    assert_eq!(found, expected, "step {step}");
                }
            }
        }
    }
}
