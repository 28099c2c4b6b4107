//! The labels of the taut search at each window, each owning the interval of the window
//! where it was strictly earlier than those before it (Polyanya's search nodes are such
//! intervals, one per root), and the dominance among them.
//!
//! Why intervals are exact (radius 0, the goal beyond the window, so every extension
//! crosses it and goes on from the crossing the same way whichever label it extends):
//! write `E(x)` for the least reach at window point `x` among the live labels that own
//! `x`. A new label owns the smallest interval holding every point where it is strictly
//! earlier than `E` (see [`envelope`](super::envelope)), and its funnel is narrowed to
//! it (the interval pushed as one more portal: the reach on the interval is unchanged,
//! and extensions may only cross there). A label dies only when a label that owns its
//! whole interval is no later there. So `E` never rises, and at every point it is no
//! later than the reach any label ever created had there. A shortest path crosses the
//! window at some `x`; the label owning `x` with `E(x)` reaches `x` no later, and its
//! extension over the path's next edges holds the rest of the path. Narrowed funnels
//! measure real paths (bent, at worst, at an interval's end), so no route is measured
//! shorter than its taut path.

use super::dominance::{dominates, pieces_no_later, Piece, Reach, ReachScratch};
use super::envelope::{
    clipped_pieces, no_later_parts, uncovered_hull, widened_pieces, Interval, WHOLE_WINDOW,
};
use super::funnel::{Funnel, StoredFunnel};
use crate::util::BuildPointHasher;
use corridor_geom::Point;
use std::collections::HashMap;

/// A window: the node reached, the edge it was reached by and the direction.
pub(crate) type WindowKey = (u32, u32, bool);

/// No entry.
pub(crate) const NO_ENTRY: u32 = u32::MAX;

/// A label at a window.
#[derive(Clone, Copy, Debug)]
struct Entry {
    funnel: StoredFunnel,
    interval: Interval,
    /// The entry before this one at the same window, or [`NO_ENTRY`].
    next: u32,
    /// Another label owning its whole interval is no later there.
    dead: bool,
}

/// The labels at every window (clear per search; keep one per search state).
#[derive(Debug, Default)]
pub(crate) struct WindowLists {
    heads: HashMap<WindowKey, u32, BuildPointHasher>,
    entries: Vec<Entry>,
    reach: ReachScratch,
    new: Vec<Piece>,
    old: Vec<Piece>,
    covered: Vec<Interval>,
}

fn reach_of<'a>(pool: &'a [Point], f: &StoredFunnel) -> Reach<'a> {
    Reach {
        apex: f.apex,
        length: f.apex_length,
        left: &pool[f.left.0 as usize..f.left.1 as usize],
        right: &pool[f.right.0 as usize..f.right.1 as usize],
    }
}

fn work_reach(work: &Funnel) -> Reach<'_> {
    Reach {
        apex: work.apex,
        length: work.apex_length,
        left: &work.left,
        right: &work.right,
    }
}

impl WindowLists {
    pub(crate) fn clear(&mut self) {
        self.heads.clear();
        self.entries.clear();
    }

    /// Whether the label of `entry` died after it was queued.
    pub(crate) fn dead(&self, entry: u32) -> bool {
        entry != NO_ENTRY && self.entries[entry as usize].dead
    }

    /// The interval of `window` (left and right end as walked) that the label whose
    /// funnel is `work` would own at window `key`: `None` when the labels there are no
    /// later anywhere on it. A live label owning the whole window that dominates it
    /// pairwise ([`dominates`]: cheap, and it also covers a funnel holding another with
    /// one apex) drops it first.
    pub(crate) fn admit(
        &mut self,
        key: WindowKey,
        window: (Point, Point),
        work: &Funnel,
        pool: &[Point],
    ) -> Option<Interval> {
        let head = self.heads.get(&key).copied().unwrap_or(NO_ENTRY);
        let mut at = head;
        while at != NO_ENTRY {
            let e = self.entries[at as usize];
            if !e.dead
                && e.interval == WHOLE_WINDOW
                && dominates((pool, &e.funnel), work, window, true, &mut self.reach)
            {
                return None;
            }
            at = e.next;
        }
        if head == NO_ENTRY
            || !clipped_pieces(&work_reach(work), window, WHOLE_WINDOW, &mut self.new)
        {
            return Some(WHOLE_WINDOW);
        }
        self.covered.clear();
        let mut at = head;
        while at != NO_ENTRY {
            let e = self.entries[at as usize];
            if !e.dead
                && clipped_pieces(
                    &reach_of(pool, &e.funnel),
                    window,
                    e.interval,
                    &mut self.old,
                )
            {
                no_later_parts(&self.new, &self.old, window, &mut self.covered);
            }
            at = e.next;
        }
        uncovered_hull(&mut self.covered)
    }

    /// Records the label whose funnel (narrowed to `interval`, as [`Self::admit`]
    /// answered) is `work`, stored as `funnel`, at window `key`, and kills the live
    /// labels there whose interval lies in `interval` and which it is no later than
    /// on it. Returns the new entry.
    pub(crate) fn insert(
        &mut self,
        key: WindowKey,
        window: (Point, Point),
        (work, funnel): (&Funnel, StoredFunnel),
        interval: Interval,
        pool: &[Point],
    ) -> u32 {
        let head = self.heads.get(&key).copied().unwrap_or(NO_ENTRY);
        let mut have_pieces = None;
        let mut at = head;
        while at != NO_ENTRY {
            let e = self.entries[at as usize];
            let this = at as usize;
            at = e.next;
            if e.dead || e.interval.0 < interval.0 || e.interval.1 > interval.1 {
                continue;
            }
            let kills = if e.interval == WHOLE_WINDOW && interval == WHOLE_WINDOW {
                dominates((pool, &e.funnel), work, window, false, &mut self.reach)
            } else {
                let mine = *have_pieces.get_or_insert_with(|| {
                    widened_pieces(&work_reach(work), window, interval, &mut self.new)
                });
                mine && widened_pieces(
                    &reach_of(pool, &e.funnel),
                    window,
                    e.interval,
                    &mut self.old,
                ) && pieces_no_later(&self.new, &self.old, window)
            };
            if kills {
                self.entries[this].dead = true;
            }
        }
        let index = self.entries.len() as u32;
        self.entries.push(Entry {
            funnel,
            interval,
            next: head,
            dead: false,
        });
        self.heads.insert(key, index);
        index
    }
}
