//! When one taut-search label makes another useless at the window both reached: one
//! funnel holds another with the same apex, or, across apexes, one label's reach is no
//! later than the other's at every point of the window.
//!
//! Label `A` dominates label `B` at one window `W` with one apex `a` when `A`'s apex
//! length is no longer and `A`'s funnel holds `B`'s: each of `A`'s chain corners lies in
//! the bump that `B`'s chain on that side cuts off (between the chain and the chord from
//! `a` to the chain's end, which is an end of `W`). Then the region `B`'s corridor
//! leaves open between `a` and `W` lies inside `A`'s, so every point of `W` is reached
//! through `A` no later than through `B`. With the goal beyond `W` every extension
//! crosses `W`, and what follows depends only on the window (the node and the edge it
//! was entered by), so each extension of `B` has one through `A` that is no longer.

use super::funnel::{Funnel, StoredFunnel};
use corridor_geom::{orient, Orientation, Point};

/// Whether the stored label `stored` dominates the label whose funnel is `work`
/// (`stored_wins`), or `work` dominates `stored` (otherwise), at the window `window`
/// (left and right end as walked) that both reached: same apex, a no longer apex length
/// and a funnel that holds the other's; or different apexes and [`reach_no_later`].
pub(crate) fn dominates(
    (pool, stored): (&[Point], &StoredFunnel),
    work: &Funnel,
    window: (Point, Point),
    stored_wins: bool,
    scratch: &mut ReachScratch,
) -> bool {
    let chains = (
        &pool[stored.left.0 as usize..stored.left.1 as usize],
        &pool[stored.right.0 as usize..stored.right.1 as usize],
    );
    if stored.apex == work.apex {
        return if stored_wins {
            stored.apex_length <= work.apex_length
                && holds((pool, stored), (&work.left, &work.right), work.apex)
        } else {
            work.apex_length <= stored.apex_length && holds_stored(work, (pool, stored))
        };
    }
    let stored = Reach {
        apex: stored.apex,
        length: stored.apex_length,
        left: chains.0,
        right: chains.1,
    };
    let work = Reach {
        apex: work.apex,
        length: work.apex_length,
        left: &work.left,
        right: &work.right,
    };
    let (a, b) = if stored_wins {
        (stored, work)
    } else {
        (work, stored)
    };
    reach_no_later(&a, &b, window, scratch)
}

/// Whether the stored funnel `outer` holds the funnel with chains `inner` (both from
/// `apex`): see [`within_bump`].
pub(crate) fn holds(
    (pool, outer): (&[Point], &StoredFunnel),
    inner: (&[Point], &[Point]),
    apex: Point,
) -> bool {
    let left = &pool[outer.left.0 as usize..outer.left.1 as usize];
    let right = &pool[outer.right.0 as usize..outer.right.1 as usize];
    within_bump(left, apex, inner.0, Orientation::Clockwise)
        && within_bump(right, apex, inner.1, Orientation::CounterClockwise)
}

/// Whether the funnel `outer` holds the stored funnel `inner` (see [`holds`]).
pub(crate) fn holds_stored(outer: &Funnel, (pool, inner): (&[Point], &StoredFunnel)) -> bool {
    let left = &pool[inner.left.0 as usize..inner.left.1 as usize];
    let right = &pool[inner.right.0 as usize..inner.right.1 as usize];
    within_bump(&outer.left, outer.apex, left, Orientation::Clockwise)
        && within_bump(
            &outer.right,
            outer.apex,
            right,
            Orientation::CounterClockwise,
        )
}

/// Whether every corner of `outer` (a funnel chain from `apex`) lies in the bump that
/// the chain `inner` from the same apex cuts off: the polygon of `apex` and `inner`'s
/// corners, on whose every edge (the closing chord included) no point lies to the
/// `outside` side, and inside its bounding box (for a bump flattened to a segment).
/// Exact (robust orientation, no arithmetic on the points).
fn within_bump(outer: &[Point], apex: Point, inner: &[Point], outside: Orientation) -> bool {
    let corners = || std::iter::once(apex).chain(inner.iter().copied());
    let (mut lo, mut hi) = (apex, apex);
    for c in corners() {
        lo = Point::new(lo.x.min(c.x), lo.y.min(c.y));
        hi = Point::new(hi.x.max(c.x), hi.y.max(c.y));
    }
    let last = inner.last().copied().unwrap_or(apex);
    outer.iter().all(|&p| {
        p.x >= lo.x
            && p.x <= hi.x
            && p.y >= lo.y
            && p.y <= hi.y
            && orient(last, apex, p) != outside
            && corners()
                .zip(inner.iter().copied())
                .all(|(a, b)| orient(a, b, p) != outside)
    })
}

/// A funnel as the reach it gives on its window: every point `x` of the window is
/// reached by the taut path through the funnel at `length + sp(apex, x)`, `sp` the
/// shortest path inside the funnel (straight from the apex where the apex sees `x`, else
/// round the chain corners on that side).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reach<'a> {
    pub(crate) apex: Point,
    pub(crate) length: f64,
    /// The chains from the apex, the left one ending at the window's left end and the
    /// right one at its right end (a chain is empty when the apex is that end).
    pub(crate) left: &'a [Point],
    pub(crate) right: &'a [Point],
}

/// One piece of a reach on the window `left + t (right − left)`: for `t` in `lo..=hi`
/// the taut path comes straight from `corner`, reached at `length`.
#[derive(Clone, Copy, Debug)]
struct Piece {
    lo: f64,
    hi: f64,
    corner: Point,
    length: f64,
}

/// Reusable buffers for [`reach_no_later`] (keep one per search).
#[derive(Debug, Default)]
pub(crate) struct ReachScratch {
    a: Vec<Piece>,
    b: Vec<Piece>,
}

/// How far (in window parameter) a computed break between two pieces may lie from the
/// true one: pieces are widened by this much (see [`reach_no_later`]).
const BREAK_SLACK: f64 = 1e-9;

/// Relative rounding slack of the comparison: a reach counts as no later where it is
/// later by at most this fraction of the lengths compared.
const TIE_SLACK: f64 = 1e-12;

/// The pieces of `reach` on the window `(wl, wr)`, in window order, each widened by
/// [`BREAK_SLACK`]; false when the breaks are not in order (a funnel this reasoning does
/// not cover: then nothing is claimed).
///
/// Walking the left chain `l1, l2, …, lm = wl` from the apex, corner `li` sees the
/// window between the rays `l(i−1) → li` and `li → l(i+1)` extended (`l0` the apex), the
/// apex sees it between the rays to `l1` and to `r1`, and the right chain likewise; the
/// window ends themselves are reached by the last pieces.
fn pieces(reach: &Reach, (wl, wr): (Point, Point), out: &mut Vec<Piece>) -> bool {
    out.clear();
    let w = wr - wl;
    // The window parameter where the line through p and q meets the window's line.
    let hit = |p: Point, q: Point| {
        let d = q - p;
        let t = d.perp_dot(p - wl) / d.perp_dot(w);
        if t.is_nan() {
            0.5
        } else {
            t
        }
    };
    // Left corners, deepest first (their breaks are found walking from the apex).
    let mut length = reach.length;
    let mut at = reach.apex;
    for (k, &c) in reach.left.iter().enumerate() {
        length += at.distance(c);
        if let Some(&next) = reach.left.get(k + 1) {
            out.push(Piece {
                lo: hit(c, next),
                hi: hit(at, c),
                corner: c,
                length,
            });
        }
        at = c;
    }
    out.reverse();
    out.push(Piece {
        lo: reach.left.first().map_or(0.0, |&l| hit(reach.apex, l)),
        hi: reach.right.first().map_or(1.0, |&r| hit(reach.apex, r)),
        corner: reach.apex,
        length: reach.length,
    });
    let (mut length, mut at) = (reach.length, reach.apex);
    for (k, &c) in reach.right.iter().enumerate() {
        length += at.distance(c);
        if let Some(&next) = reach.right.get(k + 1) {
            out.push(Piece {
                lo: hit(at, c),
                hi: hit(c, next),
                corner: c,
                length,
            });
        }
        at = c;
    }
    // Breaks in order (up to the slack), then clamped to the window and widened.
    let mut previous = 0.0;
    for p in out.iter_mut() {
        if p.lo < previous - BREAK_SLACK || p.hi < p.lo - BREAK_SLACK {
            return false;
        }
        previous = p.hi;
        p.lo = (p.lo.clamp(0.0, 1.0) - BREAK_SLACK).max(0.0);
        p.hi = (p.hi.clamp(0.0, 1.0) + BREAK_SLACK).min(1.0);
    }
    previous <= 1.0 + BREAK_SLACK
}

/// Whether `a` reaches every point of the window `(wl, wr)` no later than `b` does
/// (both funnels of labels at that window, with different apexes): then `b` is
/// dominated at the window, as in the module doc, since with the goal beyond the window
/// every extension's path crosses it at some `x` and goes on from there the same way
/// whichever label it extends, so extending `a` instead is no longer.
///
/// Exactness. Write `f(x)` for a funnel's reach at `x` and number the corners of its
/// pieces along its chains from the apex. For the corner `c` of the piece holding `x`
/// and any corner `c'` nearer the apex on the same chain (or the apex),
/// `h(c') + |c' − x| ≤ f(x) ≤ h(c'') + |c'' − x|` for any corner `c''` farther along
/// (triangle inequality along the chain; `h` the length at a corner). So with every
/// piece widened by [`BREAK_SLACK`] (which covers the rounding of the breaks), for every
/// `x` some widened piece of `a` holding `x` is `≥ f_a(x)` (its own) and some widened
/// piece of `b` holding `x` is `≤ f_b(x)` (its own), and it suffices that every piece of
/// `a` is no later than every piece of `b` where their widened intervals overlap. Each
/// such test compares `h_b + |c_b − x| − h_a − |c_a − x|` with 0 on an interval of the
/// window's line: with `x = wl + t w`, `|c − x| = √(|w|² (t − t_c)² + d_c²)` (`t_c` the
/// foot of `c`, `d_c` its distance to the line), whose difference has a vanishing
/// derivative only where `(t − t_b) d_a = ±(t − t_a) d_b` (square the condition
/// `(t − t_b)/|c_b − x| = (t − t_a)/|c_a − x|`), and kinks only at `t_a`, `t_b` when a
/// corner lies on the line; so its minimum is at one of those points or an end of the
/// interval, and those are all evaluated. The comparison allows [`TIE_SLACK`] of
/// rounding: many routes tie exactly (straight lines through lattice corners).
pub(crate) fn reach_no_later(
    a: &Reach,
    b: &Reach,
    window: (Point, Point),
    scratch: &mut ReachScratch,
) -> bool {
    let ends = |r: &Reach, chain: &[Point]| {
        let mut at = r.apex;
        let mut length = r.length;
        for &c in chain {
            length += at.distance(c);
            at = c;
        }
        length
    };
    // The window's ends first: cheap, and they reject most pairs.
    let slack = |x: f64, y: f64| TIE_SLACK * (x.abs() + y.abs());
    for (fa, fb) in [
        (ends(a, a.left), ends(b, b.left)),
        (ends(a, a.right), ends(b, b.right)),
    ] {
        if fa > fb + slack(fa, fb) {
            return false;
        }
    }
    if !pieces(a, window, &mut scratch.a) || !pieces(b, window, &mut scratch.b) {
        return false;
    }
    let (wl, w) = (window.0, window.1 - window.0);
    let (l2, l) = (w.length_squared(), w.length());
    if l2 == 0.0 {
        return false;
    }
    let foot = |c: Point| ((c - wl).dot(w) / l2, w.perp_dot(c - wl).abs() / l);
    for pa in &scratch.a {
        let (ta, da) = foot(pa.corner);
        for pb in &scratch.b {
            let (lo, hi) = (pa.lo.max(pb.lo), pa.hi.min(pb.hi));
            if lo > hi {
                continue;
            }
            let (tb, db) = foot(pb.corner);
            let candidates = [
                lo,
                hi,
                ta,
                tb,
                (tb * da - ta * db) / (da - db),
                (tb * da + ta * db) / (da + db),
            ];
            for t in candidates {
                if !(lo..=hi).contains(&t) {
                    continue;
                }
                let x = wl + w * t;
                let fa = pa.length + pa.corner.distance(x);
                let fb = pb.length + pb.corner.distance(x);
                if fa > fb + slack(fa, fb) {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The funnel from `start` through `portals` walking north (left = west), ending at
    /// the window from (−1, top) to (1, top).
    fn funnel(start: Point, portals: &[(f64, f64, f64)], top: f64) -> Funnel {
        let mut f = Funnel::default();
        f.reset(start);
        for &(y, l, r) in portals {
            f.push(Point::new(l, y), Point::new(r, y));
        }
        f.push(Point::new(-1.0, top), Point::new(1.0, top));
        f
    }

    fn reach(f: &Funnel) -> Reach<'_> {
        Reach {
            apex: f.apex,
            length: f.apex_length,
            left: &f.left,
            right: &f.right,
        }
    }

    /// Against the funnel's own taut length to points of the window (`length_to`, an
    /// independent computation): whenever `reach_no_later` answers yes, no sampled
    /// point is reached later; and it does answer yes wherever the sampled reach is
    /// clearly earlier everywhere (so the test is not passed by always saying no).
    #[test]
    fn reach_no_later_agrees_with_sampled_taut_lengths() {
        let mut rng = ChaCha8Rng::seed_from_u64(28);
        let mut scratch = ReachScratch::default();
        let (mut yes, mut clear) = (0, 0);
        for _ in 0..4000 {
            let n = rng.random_range(0..5);
            let top = n as f64 + 1.0;
            let make = |rng: &mut ChaCha8Rng| {
                let start = Point::new(rng.random_range(-4.0..4.0), rng.random_range(-4.0..-0.5));
                let portals: Vec<_> = (0..n)
                    .map(|i| {
                        let y = i as f64 + rng.random_range(0.2..0.8);
                        (y, rng.random_range(-3.0..-0.1), rng.random_range(0.1..3.0))
                    })
                    .collect();
                funnel(start, &portals, top)
            };
            let (a, b) = (make(&mut rng), make(&mut rng));
            if a.apex == b.apex {
                continue;
            }
            let window = (Point::new(-1.0, top), Point::new(1.0, top));
            let said = reach_no_later(&reach(&a), &reach(&b), window, &mut scratch);
            let gaps: Vec<f64> = (0..=400)
                .map(|k| {
                    let x = Point::new(-1.0 + k as f64 / 200.0, top);
                    b.length_to(x) - a.length_to(x)
                })
                .collect();
            let least = gaps.iter().copied().fold(f64::INFINITY, f64::min);
            if said {
                yes += 1;
                assert!(least >= -1e-9, "claimed no later, but later by {}", -least);
            }
            if least > 1e-6 {
                clear += 1;
                assert!(said, "earlier everywhere by {least}, not recognised");
            }
        }
        assert!(yes > 100 && clear > 100, "{yes} yes, {clear} clear");
    }
}
