//! Whether the walls a local method produced can join the map: each added wall against
//! the map's walls and the other added ones, exactly.

use super::key::WallKey;
use super::map::{Skip, WallMap};
use crate::FxHashSet as HashSet;
use crate::{orient_grid, segments_intersect_grid, GridPoint, Orientation, PackedTree};
use rstar::{Envelope, AABB};

impl WallMap {
    /// The removed walls exist, the added ones do not (unless removed too), and no added
    /// wall meets another wall away from a shared endpoint.
    pub(super) fn check(&self, removed: &[WallKey], added: &[WallKey]) -> Result<(), Skip> {
        let gone: HashSet<WallKey> = removed.iter().copied().collect();
        for k in removed {
            if !self.walls.contains(k) {
                return Err(format!("a removed wall {k:?} is not in the map"));
            }
        }
        // A few added walls (a moved obstacle) are tested against the walls near all of
        // them, found in one query; many, each against the walls near it.
        let near_all: Option<Vec<(WallKey, AABB<[i64; 2]>)>> = (added.len() <= 16)
            .then(|| {
                let mut it = added.iter().map(|k| k.envelope());
                let first = it.next()?;
                let env = it.fold(first, |e, f| e.merged(&f));
                Some(
                    self.walls
                        .in_box(env.lower(), env.upper())
                        .filter(|w| !gone.contains(w))
                        .map(|w| (w, w.envelope()))
                        .collect(),
                )
            })
            .flatten();
        // Many added walls (a batch of changes): each meets only the added walls a tree of
        // their boxes reports (two walls whose closed boxes miss never conflict); a scan of
        // all later ones made 2,000 squares in one update quadratic.
        let as_box = |e: &AABB<[i64; 2]>| {
            let (lo, hi) = (e.lower(), e.upper());
            [lo[0] as f64, lo[1] as f64, hi[0] as f64, hi[1] as f64]
        };
        let added_tree = (added.len() > 64).then(|| {
            PackedTree::new(
                &added
                    .iter()
                    .map(|k| as_box(&k.envelope()))
                    .collect::<Vec<_>>(),
            )
        });
        for (n, k) in added.iter().enumerate() {
            if matches!(*k, WallKey::Segment { a, b, .. } if a == b) {
                return Err(format!("the added wall {k:?} has zero length"));
            }
            if self.walls.contains(k) && !gone.contains(k) {
                return Err(format!("an added wall {k:?} is already in the map"));
            }
            let env = k.envelope();
            let meets = |w: &WallKey| {
                if conflict(*k, *w) {
                    Err(format!("the added wall {k:?} meets the wall {w:?}"))
                } else {
                    Ok(())
                }
            };
            match &near_all {
                Some(near) => {
                    for (w, e) in near {
                        if e.intersects(&env) {
                            meets(w)?;
                        }
                    }
                }
                None => {
                    for w in self
                        .walls
                        .in_box(env.lower(), env.upper())
                        .filter(|w| !gone.contains(w))
                    {
                        meets(&w)?;
                    }
                }
            }
            match &added_tree {
                Some(tree) => {
                    for i in tree.meeting(as_box(&env)) {
                        if i as usize > n {
                            meets(&added[i as usize])?;
                        }
                    }
                }
                None => {
                    for w in &added[n + 1..] {
                        meets(w)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether `p` lies on the closed segment `a b` (exact).
pub(super) fn on_segment(p: GridPoint, a: GridPoint, b: GridPoint) -> bool {
    orient_grid(a, b, p) == Orientation::Collinear
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

/// Whether two walls meet where the [`Walls`](crate::Walls) guarantees forbid it.
pub(super) fn conflict(k: WallKey, w: WallKey) -> bool {
    if k == w {
        return true;
    }
    match (k, w) {
        (WallKey::Point(p), WallKey::Point(q)) => p == q,
        (WallKey::Point(p), WallKey::Segment { a, b, .. })
        | (WallKey::Segment { a, b, .. }, WallKey::Point(p)) => on_segment(p, a, b),
        (WallKey::Segment { a, b, .. }, WallKey::Segment { a: c, b: d, .. }) => {
            if !segments_intersect_grid(a, b, c, d) {
                return false;
            }
            let (p, q, r) = match (a == c, a == d, b == c, b == d) {
                (true, false, false, false) => (a, b, d),
                (false, true, false, false) => (a, b, c),
                (false, false, true, false) => (b, a, d),
                (false, false, false, true) => (b, a, c),
                _ => return true,
            };
            orient_grid(p, q, r) == Orientation::Collinear
                && (q.x as i64 - p.x as i64) * (r.x as i64 - p.x as i64)
                    + (q.y as i64 - p.y as i64) * (r.y as i64 - p.y as i64)
                    > 0
        }
    }
}
