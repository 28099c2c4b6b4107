//! Which obstacles can a segment from this vertex meet? Each obstacle's cone, binned by
//! angle.
//!
//! Seen from a point `p` outside it, an obstacle (a connected set of walls) lies in its
//! bounding box, and the box in the cone spanned by two of its corners from `p` (an
//! angle below π). A segment leaving `p` strictly outside the cone meets no wall and no
//! vertex of the obstacle. The same holds at a strictly convex corner of the obstacle's
//! own convex hull, with the hull's two sides as the cone. For a segment test
//! from `p` only the obstacles whose cone holds the segment's direction (and whose
//! bounding box meets the segment's) need their walls looked at.
//!
//! [`ConeView`] holds these cones for one apex at a time, sorted into bins of a
//! pseudo-angle: the obstacles to look at for a direction are those of its bin, plus the
//! few without a cone (`p` inside or on their hull). Bins only choose what to look at;
//! what to skip is decided by [`Cone::excludes`], exactly.

use corridor_geom::Point;

/// Relative error bound of a rounded cross product of two rounded differences (as in
/// the pair construction's direction filter).
const CROSS_REL: f64 = 1e-14;

/// Added to every error bound: covers products that fall into the subnormal range.
const CROSS_ABS: f64 = 1e-290;

/// The closed cone of directions `d` with `a × d ≥ 0` and `d × b ≥ 0` (from `a`
/// counter-clockwise to `b`, an angle of at most π; `a`, `b` rounded differences of two
/// vertices). The zero cone excludes nothing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cone {
    a: Point,
    b: Point,
    a_bound: f64,
    b_bound: f64,
}

impl Cone {
    /// Excludes nothing.
    pub const EVERYTHING: Cone = Cone {
        a: Point::ZERO,
        b: Point::ZERO,
        a_bound: 0.0,
        b_bound: 0.0,
    };

    pub fn new(a: Point, b: Point) -> Self {
        let bound = |w: Point| CROSS_REL * (w.x.abs() + w.y.abs());
        Cone {
            a,
            b,
            a_bound: bound(a),
            b_bound: bound(b),
        }
    }

    /// Whether `d` (a rounded difference of two vertices, `dl = |d.x| + |d.y|`) is
    /// certainly outside the cone: one of the two cross products is negative beyond its
    /// rounding error. Never for [`Cone::EVERYTHING`].
    #[inline(always)]
    pub fn excludes(&self, d: Point, dl: f64) -> bool {
        let c1 = self.a.x * d.y - self.a.y * d.x;
        let c2 = d.x * self.b.y - d.y * self.b.x;
        (c1 < -(self.a_bound * dl + CROSS_ABS)) | (c2 < -(self.b_bound * dl + CROSS_ABS))
    }
}

/// The cone of the box `lo`–`hi` seen from `p`, as two directions from `p` to box
/// corners (right, then left, an angle below π), or `None` when `p` is in the closed
/// box. The box's corners are exact (vertex coordinates), so the directions are rounded
/// differences of exact points, as [`Cone`] requires. No arithmetic beyond those
/// differences: which corners span the cone depends only on where `p` lies among the
/// box's sides.
#[inline]
pub(crate) fn box_cone(p: Point, lo: Point, hi: Point) -> Option<(Point, Point)> {
    // Column and row of `p`: 0 left of / below the box, 1 across it, 2 beyond it.
    let col = (p.x >= lo.x) as usize + (p.x > hi.x) as usize;
    let row = (p.y >= lo.y) as usize + (p.y > hi.y) as usize;
    let (l, r, d, u) = (lo.x, hi.x, lo.y, hi.y);
    let (a, b) = match (col, row) {
        (0, 0) => ((r, d), (l, u)),
        (1, 0) => ((r, d), (l, d)),
        (2, 0) => ((r, u), (l, d)),
        (2, 1) => ((r, u), (r, d)),
        (2, 2) => ((l, u), (r, d)),
        (1, 2) => ((l, u), (r, u)),
        (0, 2) => ((l, d), (r, u)),
        (0, 1) => ((l, d), (l, u)),
        _ => return None,
    };
    Some((Point::new(a.0, a.1) - p, Point::new(b.0, b.1) - p))
}

/// How far (in bins) a cone's ends are widened: far more than the rounding error of a
/// pseudo-angle, far less than a bin.
const SLACK: f64 = 1e-6;

/// Number of pseudo-angle bins for `obstacles` cones: about one per obstacle, at least
/// 16, at most 256, a power of two.
pub(crate) fn bin_count(obstacles: usize) -> usize {
    obstacles.next_power_of_two().clamp(16, 256)
}

/// How [`ConeView::set`] is to look at one obstacle.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Seen {
    /// Never: no segment of this view can meet it.
    Never,
    /// For every direction (no cone: the apex is in the obstacle's hull or box).
    Always,
    /// For the directions of the cone from the first direction to the second
    /// (see [`Cone`]).
    Within(Point, Point),
}

/// Obstacles' cones from one apex, binned by pseudo-angle (see the module doc).
#[derive(Debug)]
pub(crate) struct ConeView {
    /// Per obstacle, its cone from the apex ([`Cone::EVERYTHING`] when it has none).
    pub cones: Vec<Cone>,
    bins: usize,
    scale: f64,
    /// CSR: the obstacles whose cone (grown by one bin each way) meets bin `i`.
    start: Vec<u32>,
    items: Vec<u32>,
    /// Obstacles without a cone: looked at for every direction.
    pub always: Vec<u32>,
    /// Per obstacle with a cone: its first bin and number of bins.
    span: Vec<(u32, u32)>,
    /// Scratch: the next free slot of each bin while filling.
    next: Vec<u32>,
}

impl ConeView {
    pub fn new(obstacles: usize) -> Self {
        let bins = bin_count(obstacles);
        ConeView {
            cones: vec![Cone::EVERYTHING; obstacles],
            bins,
            scale: bins as f64 / 4.0,
            start: vec![0; bins + 1],
            items: Vec::new(),
            always: Vec::new(),
            span: vec![(0, 0); obstacles],
            next: Vec::with_capacity(bins),
        }
    }

    /// The bin of direction `d` (non-zero): a pseudo-angle in `[0, 4]` growing
    /// counter-clockwise from straight down, monotone in the true angle up to rounding
    /// (far below a bin; cones are grown by a bin each way).
    #[inline(always)]
    pub fn bin_of(&self, d: Point) -> usize {
        ((self.angle(d) * self.scale) as i32 as usize).min(self.bins - 1)
    }

    #[inline(always)]
    fn angle(&self, d: Point) -> f64 {
        let t = d.y / (d.x.abs() + d.y.abs());
        if d.x >= 0.0 {
            1.0 + t
        } else {
            3.0 - t
        }
    }

    /// Sets the view: `cone(c)` says how to look at obstacle `c` (see [`Seen`]).
    pub fn set(&mut self, mut cone: impl FnMut(usize) -> Seen) {
        let bins = self.bins;
        self.always.clear();
        self.start.iter_mut().for_each(|s| *s = 0);
        for c in 0..self.cones.len() {
            let (a, b) = match cone(c) {
                Seen::Never => {
                    self.span[c] = (0, 0);
                    continue;
                }
                Seen::Always => {
                    self.cones[c] = Cone::EVERYTHING;
                    self.span[c] = (0, 0);
                    self.always.push(c as u32);
                    continue;
                }
                Seen::Within(a, b) => (a, b),
            };
            self.cones[c] = Cone::new(a, b);
            // The bins of the cone's ends, widened by far more than the pseudo-angles'
            // rounding error (a few units of 10⁻¹⁶), so that every direction in the
            // cone falls between them; the pseudo-angle wraps at 4 = 0, so a cone
            // reaching just below 0 takes the last bin too, one just beyond 4 the first.
            let (from, to) = (
                self.angle(a) * self.scale - SLACK,
                self.angle(b) * self.scale + SLACK,
            );
            let below = (from < 0.0) as usize;
            let beyond = (to >= bins as f64) as usize;
            // (Through `i32`: a cheaper conversion than to `usize`; both are far below 2³¹.)
            let first = (from.max(0.0) as i32 as usize).min(bins - 1);
            let last = (to as i32 as usize).min(bins - 1);
            // Counter-clockwise from `first` to `last` (`bins` is a power of two).
            let mask = bins - 1;
            let len = ((last + bins - first) & mask) + 1 + below + beyond;
            let first = (first + bins - below) & mask;
            if len >= bins {
                self.span[c] = (0, 0);
                self.always.push(c as u32);
                continue;
            }
            self.span[c] = (first as u32, len as u32);
            let wrap = (first + len).saturating_sub(bins);
            self.start[first + 1..first + len - wrap + 1]
                .iter_mut()
                .for_each(|s| *s += 1);
            self.start[1..wrap + 1].iter_mut().for_each(|s| *s += 1);
        }
        for i in 0..bins {
            self.start[i + 1] += self.start[i];
        }
        self.items.resize(self.start[bins] as usize, 0);
        self.next.clear();
        self.next.extend_from_slice(&self.start[..bins]);
        for (c, &(first, len)) in self.span.iter().enumerate() {
            let (first, len) = (first as usize, len as usize);
            let wrap = (first + len).saturating_sub(bins);
            let (head, tail) = self.next.split_at_mut(first);
            for slot in tail[..len - wrap].iter_mut().chain(&mut head[..wrap]) {
                self.items[*slot as usize] = c as u32;
                *slot += 1;
            }
        }
    }

    /// The obstacles with a cone to look at for direction `d`.
    #[inline(always)]
    pub fn bin(&self, d: Point) -> &[u32] {
        let i = self.bin_of(d);
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn box_cones_hold_the_box() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for round in 0..5_000 {
            // Small integer coordinates: flat boxes and points on the box's lines.
            let (x0, x1) = (rng.random_range(0..5), rng.random_range(0..5));
            let (y0, y1) = (rng.random_range(0..5), rng.random_range(0..5));
            let lo = Point::new(x0.min(x1) as f64, y0.min(y1) as f64);
            let hi = Point::new(x0.max(x1) as f64, y0.max(y1) as f64);
            let p = Point::new(
                rng.random_range(-2..7) as f64,
                rng.random_range(-2..7) as f64,
            );
            let in_box = lo.x <= p.x && p.x <= hi.x && lo.y <= p.y && p.y <= hi.y;
            match box_cone(p, lo, hi) {
                None => assert!(in_box, "round {round}"),
                Some((a, b)) => {
                    assert!(!in_box, "round {round}");
                    // An angle below π, counter-clockwise from `a` to `b`.
                    let cross = |u: Point, w: Point| u.x * w.y - u.y * w.x;
                    assert!(cross(a, b) >= 0.0 && a.x * b.x + a.y * b.y > -a.length() * b.length());
                    let view = {
                        let mut view = ConeView::new(1);
                        view.set(|_| Seen::Within(a, b));
                        view
                    };
                    for y in [lo, hi, Point::new(lo.x, hi.y), Point::new(hi.x, lo.y)] {
                        let d = y - p;
                        assert!(
                            cross(a, d) >= 0.0 && cross(d, b) >= 0.0,
                            "round {round}: {y}"
                        );
                        assert!(!Cone::new(a, b).excludes(d, d.x.abs() + d.y.abs()));
                        assert!(view.always.contains(&0) || view.bin(d).contains(&0));
                    }
                }
            }
        }
    }

    #[test]
    fn bins_hold_every_direction_of_the_cone() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut view = ConeView::new(7);
        for _ in 0..500 {
            let cones: Vec<Option<(Point, Point)>> = (0..7)
                .map(|_| {
                    let a = Point::new(
                        rng.random_range(-5..6) as f64,
                        rng.random_range(-5..6) as f64,
                    );
                    // Counter-clockwise from `a` by less than π.
                    let b = Point::new(
                        rng.random_range(-5..6) as f64,
                        rng.random_range(-5..6) as f64,
                    );
                    let cross = a.x * b.y - a.y * b.x;
                    (a != Point::ZERO && b != Point::ZERO && cross > 0.0).then_some((a, b))
                })
                .collect();
            view.set(|c| match cones[c] {
                Some((a, b)) => Seen::Within(a, b),
                None => Seen::Always,
            });
            for _ in 0..50 {
                let d = Point::new(
                    rng.random_range(-7..8) as f64,
                    rng.random_range(-7..8) as f64,
                );
                if d == Point::ZERO {
                    continue;
                }
                for (c, cone) in cones.iter().enumerate() {
                    let in_cone = match cone {
                        None => true,
                        Some((a, b)) => {
                            a.x * d.y - a.y * d.x >= 0.0 && d.x * b.y - d.y * b.x >= 0.0
                        }
                    };
                    if in_cone {
                        assert!(
                            view.bin(d).contains(&(c as u32)) || view.always.contains(&(c as u32)),
                            "{d} in cone {cone:?} not found"
                        );
                    }
                }
            }
        }
    }
}
