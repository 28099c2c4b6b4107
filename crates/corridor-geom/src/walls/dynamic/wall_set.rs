//! The current walls of a [`WallMap`](super::WallMap) ([`WallSet`]): counted, indexed by
//! their boxes, with the exact free area, kept current under [`WallDelta`]s.

use super::delta::WallDelta;
use super::key::WallKey;
use crate::spatial::{boxed, Boxed, DynamicTree};
use crate::{FxHashMap as HashMap, FxHashSet as HashSet};
use rstar::AABB;

/// A set of walls with an R-tree over them, the exact free area and the largest
/// coordinate, kept current under [`WallDelta`]s.
#[derive(Clone, Debug, Default)]
pub struct WallSet {
    pub(super) tree: DynamicTree<Boxed<WallKey>>,
    pub(super) keys: HashSet<WallKey>,
    pub(super) free_twice: i128,
    /// How many walls have each extent (largest absolute coordinate), and the largest
    /// extent with a wall (0 when there are none).
    extents: HashMap<u32, u32>,
    max_extent: u32,
    pub(super) points: usize,
}

impl WallSet {
    /// The set of these walls.
    pub fn new(keys: impl IntoIterator<Item = WallKey>) -> Self {
        let keys: HashSet<WallKey> = keys.into_iter().collect();
        let mut set = WallSet {
            tree: DynamicTree::bulk_load_with_params(
                keys.iter()
                    .map(|k| {
                        let (a, b) = k.ends();
                        boxed(a, b, *k)
                    })
                    .collect(),
            ),
            ..WallSet::default()
        };
        for k in &keys {
            set.count(*k, 1);
        }
        set.keys = keys;
        set
    }

    pub(super) fn count(&mut self, k: WallKey, sign: i32) {
        self.free_twice += sign as i128 * k.twice_area_share();
        if matches!(k, WallKey::Point(_)) {
            self.points = (self.points as i64 + sign as i64) as usize;
        }
        let e = k.extent();
        let entry = self.extents.entry(e).or_insert(0);
        *entry = (*entry as i64 + sign as i64) as u32;
        if *entry == 0 {
            self.extents.remove(&e);
            if e == self.max_extent {
                self.max_extent = self.extents.keys().copied().max().unwrap_or(0);
            }
        } else if e > self.max_extent {
            self.max_extent = e;
        }
    }

    /// Number of walls (segments and points).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are no walls.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Number of isolated points.
    pub fn point_count(&self) -> usize {
        self.points
    }

    /// Whether the set holds this wall.
    pub fn contains(&self, key: &WallKey) -> bool {
        self.keys.contains(key)
    }

    /// All walls, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = WallKey> + '_ {
        self.keys.iter().copied()
    }

    /// The walls whose bounding boxes meet the box with corners `min` and `max` (grid
    /// coordinates).
    pub fn in_box(&self, min: [i64; 2], max: [i64; 2]) -> impl Iterator<Item = WallKey> + '_ {
        self.tree
            .locate_in_envelope_intersecting(AABB::from_corners(min, max))
            .map(|item| item.data)
    }

    /// Twice the free area enclosed by the one-sided walls (grid units², exact).
    pub fn free_area_twice(&self) -> i128 {
        self.free_twice
    }

    /// The largest absolute coordinate of any wall (0 when there are none).
    pub fn extent(&self) -> u32 {
        self.max_extent
    }

    /// The largest absolute coordinate after `delta` would be applied.
    pub fn extent_after(&self, delta: &WallDelta) -> u32 {
        let mut gone: HashMap<u32, u32> = HashMap::default();
        for k in &delta.removed {
            *gone.entry(k.extent()).or_default() += 1;
        }
        let left = |(e, n): (&u32, &u32)| *n > gone.get(e).copied().unwrap_or(0);
        let kept = if left((
            &self.max_extent,
            &self.extents.get(&self.max_extent).copied().unwrap_or(0),
        )) {
            self.max_extent
        } else {
            self.extents
                .iter()
                .filter(|&(e, n)| left((e, n)))
                .map(|(e, _)| *e)
                .max()
                .unwrap_or(0)
        };
        delta.added.iter().map(|k| k.extent()).fold(kept, u32::max)
    }

    pub(super) fn apply(&mut self, removed: &[WallKey], added: &[WallKey]) {
        for k in removed {
            if self.keys.remove(k) {
                let (a, b) = k.ends();
                self.tree.remove(&boxed(a, b, *k));
                self.count(*k, -1);
            }
        }
        for k in added {
            if self.keys.insert(*k) {
                let (a, b) = k.ends();
                self.tree.insert(boxed(a, b, *k));
                self.count(*k, 1);
            }
        }
    }
}
