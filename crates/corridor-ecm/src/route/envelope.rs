//! The part of a window where a new label is strictly earlier than every label already
//! there: the complement of where the lower envelope of their reaches is no later, as
//! Polyanya's search nodes split an edge into intervals, one per root.
//!
//! A window is parametrised `left + t (right − left)`, `t` in `0..=1`; a label owns an
//! [`Interval`] of it and its reach (see [`Reach`]) counts only there.

use super::dominance::{critical, pieces, tie_slack, Piece, Reach, BREAK_SLACK};
use corridor_geom::Point;

/// The part `lo..=hi` of its window that a label owns.
pub(crate) type Interval = (f64, f64);

/// The whole window.
pub(crate) const WHOLE_WINDOW: Interval = (0.0, 1.0);

/// Uncovered stretches narrower than this (in window parameter) count as covered: there
/// the new label is earlier by less than the reaches' slope times this, which is within
/// the comparisons' rounding slack (and bisection noise at a tie would otherwise keep
/// labels for slivers).
const GAP: f64 = 1e-12;

/// Bisection stops when the bracket is this narrow (in window parameter).
const ROOT_WIDTH: f64 = 1e-13;

/// The pieces of `reach` on `window`, clipped to `interval`; false as [`pieces`].
pub(crate) fn clipped_pieces(
    reach: &Reach,
    window: (Point, Point),
    interval: Interval,
    out: &mut Vec<Piece>,
) -> bool {
    if !pieces(reach, window, out) {
        return false;
    }
    out.retain_mut(|p| {
        p.lo = p.lo.max(interval.0);
        p.hi = p.hi.min(interval.1);
        p.lo <= p.hi
    });
    true
}

/// [`clipped_pieces`], each then widened by [`BREAK_SLACK`] within `interval`: what
/// [`pieces_no_later`](super::dominance::pieces_no_later) needs to be sound.
pub(crate) fn widened_pieces(
    reach: &Reach,
    window: (Point, Point),
    interval: Interval,
    out: &mut Vec<Piece>,
) -> bool {
    if !clipped_pieces(reach, window, interval, out) {
        return false;
    }
    for p in out.iter_mut() {
        p.lo = (p.lo - BREAK_SLACK).max(interval.0);
        p.hi = (p.hi + BREAK_SLACK).min(interval.1);
    }
    true
}

/// Appends to `out` the parts of the window where the pieces `o` (a label already at the
/// window) are no later than the pieces `n` (the new label), up to the comparisons'
/// rounding slack. Per pair of overlapping pieces the difference of the reaches is
/// monotone between consecutive [`critical`] points, so each stretch between them is
/// covered entirely, not at all, or up to one crossing found by bisection; the part
/// appended there is the one whose end was evaluated as covered (never more).
pub(crate) fn no_later_parts(
    n: &[Piece],
    o: &[Piece],
    window: (Point, Point),
    out: &mut Vec<Interval>,
) {
    let (wl, w) = (window.0, window.1 - window.0);
    let covers = |pn: &Piece, po: &Piece, t: f64| {
        let x = wl + w * t;
        let (fn_, fo) = (pn.at(x), po.at(x));
        fo <= fn_ + tie_slack(fn_, fo)
    };
    for pn in n {
        for po in o {
            let (lo, hi) = (pn.lo.max(po.lo), pn.hi.min(po.hi));
            if lo > hi {
                continue;
            }
            let mut ts = critical(pn, po, window, (lo, hi));
            for t in &mut ts {
                if !(lo..=hi).contains(t) {
                    *t = lo;
                }
            }
            ts.sort_by(f64::total_cmp);
            let mut at = (ts[0], covers(pn, po, ts[0]));
            if lo == hi {
                if at.1 {
                    out.push((lo, hi));
                }
                continue;
            }
            for &t in &ts[1..] {
                if t == at.0 {
                    continue;
                }
                let next = (t, covers(pn, po, t));
                match (at.1, next.1) {
                    (true, true) => out.push((at.0, t)),
                    (false, false) => {}
                    (first, _) => {
                        // One crossing: keep `a` covered and `b` not.
                        let (mut a, mut b) = if first { (at.0, t) } else { (t, at.0) };
                        while (b - a).abs() > ROOT_WIDTH {
                            let m = 0.5 * (a + b);
                            if covers(pn, po, m) {
                                a = m;
                            } else {
                                b = m;
                            }
                        }
                        out.push(if first { (at.0, a) } else { (a, t) });
                    }
                }
                at = next;
            }
        }
    }
}

/// The smallest interval holding every part of the window that `covered` leaves
/// uncovered, widened by [`BREAK_SLACK`] (which absorbs the rounding of the pieces'
/// breaks); `None` when `covered` covers the whole window. Sorts `covered`.
pub(crate) fn uncovered_hull(covered: &mut [Interval]) -> Option<Interval> {
    covered.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut reach, mut first, mut last) = (0.0f64, None, 0.0);
    for &(lo, hi) in covered.iter() {
        if lo > reach + GAP {
            first.get_or_insert(reach);
            last = lo;
        }
        reach = reach.max(hi);
    }
    if reach < 1.0 - GAP {
        first.get_or_insert(reach);
        last = 1.0;
    }
    let first = first?;
    Some((
        (first - BREAK_SLACK).max(0.0),
        (last + BREAK_SLACK).min(1.0),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hull_spans_every_gap() {
        assert_eq!(uncovered_hull(&mut []), Some(WHOLE_WINDOW));
        assert_eq!(uncovered_hull(&mut [(0.0, 0.6), (0.5, 1.0)]), None);
        let (lo, hi) = uncovered_hull(&mut [(0.5, 1.0), (0.0, 0.2), (0.3, 0.4)]).unwrap();
        assert!((lo - 0.2).abs() < 1e-8 && (hi - 0.5).abs() < 1e-8);
        let (lo, hi) = uncovered_hull(&mut [(0.0, 0.7)]).unwrap();
        assert!((lo - 0.7).abs() < 1e-8 && hi == 1.0);
    }
}
