//! Which directions can a node's edges take? The cheap direction filter of the pair
//! construction: signs of two cross products with the node's walls, trusted only beyond
//! their rounding error, and a table look-up.

use crate::graph::GraphKind;
use corridor_geom::free_space::Wedge;
use corridor_geom::Point;

/// Relative error bound of a rounded cross product of two rounded differences (a few
/// units of roundoff, 2⁻⁵² each; generously rounded up).
pub(super) const CROSS_REL: f64 = 1e-14;

/// Added to every error bound: covers products that fall into the subnormal range.
pub(super) const CROSS_ABS: f64 = 1e-290;

/// Which directions a node allows, as signs of two cross products with the wedge's
/// walls (`s`: towards its start, `e`: towards its end, both from the apex).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Mode {
    /// Every direction, free on both sides (a full wedge).
    All,
    /// Inside a wedge of at most π: `s × d ≥ 0` and `d × e ≥ 0`.
    And,
    /// Inside a wedge of more than π: `s × d ≥ 0` or `d × e ≥ 0`.
    Or,
    /// Tangent at a reflex wedge (both `d` and `−d` inside): `(s × d)(d × e) ≤ 0`.
    Tangent,
    /// Not decided here (a vertex with several nodes): always unsure.
    Several,
}

/// [`Allowed::code`]: no node allows the direction.
pub(super) const OUTSIDE: u8 = 1;
/// [`Allowed::code`]: the only node allows it, strictly inside.
pub(super) const INSIDE: u8 = 2;

/// The directions one node allows (see [`Mode`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Allowed {
    s: Point,
    e: Point,
    /// `CROSS_REL · (|s.x| + |s.y|)` and the same for `e`: see [`Allowed::code`].
    s_bound: f64,
    e_bound: f64,
    pub(super) mode: Mode,
}

/// What the direction filter knows about one end of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Filter {
    /// No node there allows the direction.
    Outside,
    /// Perhaps; the exact tests decide.
    Unsure,
    /// The vertex's only node allows it, strictly inside (free on both sides).
    Inside,
}

impl Allowed {
    pub(super) fn new(wedge: &Wedge, kind: GraphKind) -> Self {
        let c = wedge.apex;
        let (s, e) = (wedge.start - c, wedge.end - c);
        let mode = if wedge.full {
            Mode::All
        } else {
            match kind {
                // Reduced-graph nodes are reflex.
                GraphKind::Reduced => Mode::Tangent,
                GraphKind::Full if wedge.is_reflex() => Mode::Or,
                GraphKind::Full => Mode::And,
            }
        };
        let bound = |w: Point| CROSS_REL * (w.x.abs() + w.y.abs());
        Allowed {
            s,
            e,
            s_bound: bound(s),
            e_bound: bound(e),
            mode,
        }
    }

    /// What the node says about direction `d` (a rounded difference of two vertices).
    /// The products' signs are trusted only beyond their rounding error; `Outside` and
    /// `Inside` are exact answers, `Unsure` is everything else.
    #[inline(always)]
    pub(super) fn filter(&self, d: Point) -> Filter {
        let (a1, b1) = (self.s.x * d.y, self.s.y * d.x);
        let (a2, b2) = (d.x * self.e.y, d.y * self.e.x);
        let (c1, c2) = (a1 - b1, a2 - b2);
        let t1 = CROSS_REL * (a1.abs() + b1.abs()) + CROSS_ABS;
        let t2 = CROSS_REL * (a2.abs() + b2.abs()) + CROSS_ABS;
        let (p1, n1, p2, n2) = (c1 > t1, c1 < -t1, c2 > t2, c2 < -t2);
        let (outside, inside) = match self.mode {
            Mode::All => (false, true),
            Mode::And => (n1 | n2, p1 & p2),
            Mode::Or => (n1 & n2, p1 | p2),
            Mode::Tangent => ((p1 & p2) | (n1 & n2), (p1 & n2) | (n1 & p2)),
            Mode::Several => (false, false),
        };
        if outside {
            Filter::Outside
        } else if inside {
            Filter::Inside
        } else {
            Filter::Unsure
        }
    }

    /// [`Allowed::filter`] as bits, [`OUTSIDE`], [`INSIDE`] or 0 (unsure), without
    /// branches, for the pair loop: `d` a rounded difference of two vertices and `dl`
    /// its `|d.x| + |d.y|` (shared by both ends of a pair). The error bounds are
    /// `CROSS_REL · (|w.x| + |w.y|) · dl`, at least the per-product bounds of
    /// [`Allowed::filter`] (`|w.x d.y| + |w.y d.x|` is at most that product), so every
    /// `OUTSIDE` or `INSIDE` here is one there too.
    #[inline(always)]
    pub(super) fn code(&self, d: Point, dl: f64) -> u8 {
        let c1 = self.s.x * d.y - self.s.y * d.x;
        let c2 = d.x * self.e.y - d.y * self.e.x;
        let t1 = self.s_bound * dl + CROSS_ABS;
        let t2 = self.e_bound * dl + CROSS_ABS;
        let signs = ((c1 > t1) as usize) << 3
            | ((c1 < -t1) as usize) << 2
            | ((c2 > t2) as usize) << 1
            | (c2 < -t2) as usize;
        CODES[(self.mode as usize) << 4 | signs]
    }
}

impl Allowed {
    /// [`Allowed::code`] for the directions from this node's apex `p` to each of
    /// `targets`, appended to `out`. Tangent nodes (every node of the reduced graph) get
    /// a loop of their own, without the table.
    pub(super) fn codes_towards(&self, p: Point, targets: &[Point], out: &mut Vec<u8>) {
        // One loop per mode, each without the table (as in `CODES`; in each mode the
        // two answers are exclusive).
        match self.mode {
            Mode::Tangent => self.codes_with(p, targets, out, |p1, n1, p2, n2| {
                ((p1 & p2 | n1 & n2) * OUTSIDE) | ((p1 & n2 | n1 & p2) * INSIDE)
            }),
            Mode::Or => self.codes_with(p, targets, out, |p1, n1, p2, n2| {
                ((n1 & n2) * OUTSIDE) | ((p1 | p2) * INSIDE)
            }),
            Mode::And => self.codes_with(p, targets, out, |p1, n1, p2, n2| {
                ((n1 | n2) * OUTSIDE) | ((p1 & p2) * INSIDE)
            }),
            Mode::All | Mode::Several => out.extend(targets.iter().map(|&q| {
                let d = q - p;
                self.code(d, d.x.abs() + d.y.abs())
            })),
        }
    }

    /// [`Allowed::codes_towards`] for one mode: `answer` maps the sign bits (`c1 > 0`,
    /// `c1 < 0`, `c2 > 0`, `c2 < 0`, each beyond its error bound) to the code.
    #[inline(always)]
    pub(super) fn codes_with(
        &self,
        p: Point,
        targets: &[Point],
        out: &mut Vec<u8>,
        answer: impl Fn(u8, u8, u8, u8) -> u8,
    ) {
        let (s, e) = (self.s, self.e);
        let (sb, eb) = (self.s_bound, self.e_bound);
        out.extend(targets.iter().map(|&q| {
            let d = q - p;
            let dl = d.x.abs() + d.y.abs();
            let c1 = s.x * d.y - s.y * d.x;
            let c2 = d.x * e.y - d.y * e.x;
            let (t1, t2) = (sb * dl + CROSS_ABS, eb * dl + CROSS_ABS);
            let (p1, n1) = ((c1 > t1) as u8, (c1 < -t1) as u8);
            let (p2, n2) = ((c2 > t2) as u8, (c2 < -t2) as u8);
            answer(p1, n1, p2, n2)
        }));
    }
}

/// [`Allowed::code`]'s answers per mode (in [`Mode`]'s order) and sign bits
/// (`c1 > 0, c1 < 0, c2 > 0, c2 < 0`, high to low), by [`Allowed::filter`]'s rules.
pub(super) const CODES: [u8; 80] = {
    let mut table = [0u8; 80];
    let mut i = 0;
    while i < 80 {
        let (m, b) = (i >> 4, i & 15);
        let (p1, n1, p2, n2) = (b & 8 != 0, b & 4 != 0, b & 2 != 0, b & 1 != 0);
        let (outside, inside) = match m {
            0 => (false, true),
            1 => (n1 | n2, p1 & p2),
            2 => (n1 & n2, p1 | p2),
            3 => ((p1 & p2) | (n1 & n2), (p1 & n2) | (n1 & p2)),
            _ => (false, false),
        };
        table[i] = if outside {
            OUTSIDE
        } else if inside {
            INSIDE
        } else {
            0
        };
        i += 1;
    }
    table
};
