//! Where each piece came from: provenance tags (interned sets of [`super::WallSource`]s)
//! that edges carry through the overlays and that coinciding pieces unite.

use super::{WallSource, WallSources};
use crate::FxHashMap as HashMap;
use i_overlay::i_float::int::point::IntPoint;

// FxHash maps for the tag store: its keys (small sets of sources, pairs of set ids) are
// not chosen by an adversary, and SipHash showed in the profiles of small
// normalizations (the group method of `WallMap`). The maps are only looked up, never
// iterated, so the hasher changes no result.

/// An index into [`TagStore::entries`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tag(pub(super) u32);

#[derive(Clone, Copy, Debug)]
pub(super) struct TagEntry {
    /// Index into [`TagStore::sets`].
    pub(super) set: u32,
    /// For open-edge pieces: the piece's endpoints (so a piece the fill rule cannot see
    /// can still be recovered).
    pub(super) piece: Option<(IntPoint<i32>, IntPoint<i32>)>,
    /// Whether the piece was split or merged into another entry.
    pub(super) consumed: bool,
}

#[derive(Default)]
pub(super) struct TagStore {
    pub(super) sets: Vec<WallSources>,
    /// The ids of the sets of two or more sources.
    set_ids: HashMap<Vec<WallSource>, u32>,
    /// The ids of the sets of one source (most of them: one per obstacle), kept apart so
    /// that interning them allocates nothing.
    single_ids: HashMap<WallSource, u32>,
    unions: HashMap<(u32, u32), u32>,
    pub(super) entries: Vec<TagEntry>,
    /// Entries of open pieces whose open-edge count became even (but not zero) and that
    /// lie on no free-space edge.
    pub(super) hidden: Vec<u32>,
    /// Entries of open pieces whose counts cancelled: the overlay dropped them.
    pub(super) vanished: Vec<u32>,
}

impl TagStore {
    fn intern(&mut self, set: Vec<WallSource>) -> u32 {
        if let [source] = set[..] {
            return self.intern_one(source);
        }
        if let Some(&id) = self.set_ids.get(&set) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.sets.push(set[..].into());
        self.set_ids.insert(set, id);
        id
    }

    /// [`TagStore::intern`] of the set of one source.
    pub(super) fn intern_one(&mut self, source: WallSource) -> u32 {
        let next = self.sets.len() as u32;
        let id = *self.single_ids.entry(source).or_insert(next);
        if id == next {
            self.sets.push([source].into());
        }
        id
    }

    pub(super) fn union(&mut self, a: u32, b: u32) -> u32 {
        if a == b {
            return a;
        }
        let key = (a.min(b), a.max(b));
        if let Some(&id) = self.unions.get(&key) {
            return id;
        }
        let mut set: Vec<WallSource> = self.sets[a as usize]
            .iter()
            .chain(&self.sets[b as usize])
            .copied()
            .collect();
        set.sort();
        set.dedup();
        let id = self.intern(set);
        self.unions.insert(key, id);
        id
    }

    pub(super) fn tag(&mut self, set: u32, piece: Option<(IntPoint<i32>, IntPoint<i32>)>) -> Tag {
        self.entries.push(TagEntry {
            set,
            piece,
            consumed: false,
        });
        Tag(self.entries.len() as u32 - 1)
    }

    pub(super) fn set(&self, tag: Tag) -> u32 {
        self.entries[tag.0 as usize].set
    }
}
