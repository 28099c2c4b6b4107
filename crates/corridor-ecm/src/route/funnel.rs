//! The incremental funnel (Lee and Preparata) of a route's corridor, as the taut-length
//! search keeps it per label, and the lower bound on the length of its extensions.

use super::gate::{skips_for_start, Gate};
use corridor_geom::{orient, Orientation, Point};

/// The funnel after some portals: the taut path ends at `apex` with length
/// `apex_length`; `left` and `right` are the chains of corners seen from the apex.
#[derive(Clone, Debug, Default)]
pub(crate) struct Funnel {
    pub(crate) apex: Point,
    pub(crate) apex_length: f64,
    /// Whether a portal has been taken: portals the start already lies beyond (or on)
    /// are skipped until the first it lies before, as the planner's corridor does.
    pub(crate) opened: bool,
    pub(crate) left: Vec<Point>,
    pub(crate) right: Vec<Point>,
}

impl Funnel {
    /// Starts afresh at `start`, keeping the buffers.
    pub(crate) fn reset(&mut self, start: Point) {
        self.apex = start;
        self.apex_length = 0.0;
        self.opened = false;
        self.left.clear();
        self.right.clear();
    }

    /// Copies `other` into `self`, keeping the buffers.
    pub(crate) fn copy_from(&mut self, other: &Funnel) {
        self.apex = other.apex;
        self.apex_length = other.apex_length;
        self.opened = other.opened;
        self.left.clear();
        self.left.extend_from_slice(&other.left);
        self.right.clear();
        self.right.extend_from_slice(&other.right);
    }

    /// Loads a funnel stored in `pool`.
    pub(crate) fn load(&mut self, stored: &StoredFunnel, pool: &[Point]) {
        self.apex = stored.apex;
        self.apex_length = stored.apex_length;
        self.opened = stored.opened;
        self.left.clear();
        self.left
            .extend_from_slice(&pool[stored.left.0 as usize..stored.left.1 as usize]);
        self.right.clear();
        self.right
            .extend_from_slice(&pool[stored.right.0 as usize..stored.right.1 as usize]);
    }

    /// Appends the chains to `pool` and returns the handle.
    pub(crate) fn store(&self, pool: &mut Vec<Point>) -> StoredFunnel {
        let a = pool.len() as u32;
        pool.extend_from_slice(&self.left);
        let b = pool.len() as u32;
        pool.extend_from_slice(&self.right);
        let c = pool.len() as u32;
        StoredFunnel {
            apex: self.apex,
            apex_length: self.apex_length,
            opened: self.opened,
            left: (a, b),
            right: (b, c),
        }
    }

    /// Adds a gate's portal, unless no portal has been taken yet and the planner's
    /// corridor drops it for the start (still the apex; see [`skips_for_start`]).
    #[inline(always)]
    pub(crate) fn push_trimmed(&mut self, gate: Gate) {
        if !self.opened {
            if skips_for_start(&gate, self.apex) {
                return;
            }
            self.opened = true;
        }
        self.push(gate.0, gate.1);
    }

    /// Adds the portal `(left, right)` (as seen walking forward).
    pub(crate) fn push(&mut self, left: Point, right: Point) {
        self.push_side(left, true);
        self.push_side(right, false);
    }

    /// Adds one new end point to one side of the funnel (inlined: a call spilled and
    /// restored most registers, a fifth of the function's instructions).
    #[inline(always)]
    pub(crate) fn push_side(&mut self, p: Point, is_left: bool) {
        // A left chain turns counter-clockwise, a right chain clockwise.
        let keeps = if is_left {
            Orientation::CounterClockwise
        } else {
            Orientation::Clockwise
        };
        let crosses = if is_left {
            Orientation::Clockwise
        } else {
            Orientation::CounterClockwise
        };
        let (own, other) = if is_left {
            (&mut self.left, &mut self.right)
        } else {
            (&mut self.right, &mut self.left)
        };
        if own.last() == Some(&p) {
            return;
        }
        // Drop corners of this side that no longer bend the path.
        while let Some(&last) = own.last() {
            let previous = if own.len() >= 2 {
                own[own.len() - 2]
            } else {
                self.apex
            };
            if previous != last && orient(previous, last, p) == keeps {
                break;
            }
            own.pop();
        }
        if own.is_empty() {
            // The new point may swing past the other side: its corners become apexes.
            let mut advanced = 0;
            while advanced < other.len()
                && other[advanced] != self.apex
                && orient(self.apex, other[advanced], p) == crosses
            {
                self.apex_length += self.apex.distance(other[advanced]);
                self.apex = other[advanced];
                advanced += 1;
            }
            other.drain(..advanced);
        }
        if p != self.apex {
            own.push(p);
        }
    }

    /// Length of the taut path from the start to `target` (which lies beyond every
    /// portal): what pushing `target` on the left and summing the chain would give,
    /// computed without changing (or copying) the funnel.
    pub(crate) fn length_to(&self, target: Point) -> f64 {
        let own = &self.left;
        let mut kept = own.len();
        if own.last() == Some(&target) {
            let mut length = self.apex_length;
            let mut at = self.apex;
            for &p in own {
                length += at.distance(p);
                at = p;
            }
            return length;
        }
        while kept > 0 {
            let last = own[kept - 1];
            let previous = if kept >= 2 { own[kept - 2] } else { self.apex };
            if previous != last && orient(previous, last, target) == Orientation::CounterClockwise {
                break;
            }
            kept -= 1;
        }
        let (mut apex, mut length) = (self.apex, self.apex_length);
        if kept == 0 {
            for &corner in &self.right {
                if corner == apex || orient(apex, corner, target) != Orientation::Clockwise {
                    break;
                }
                length += apex.distance(corner);
                apex = corner;
            }
        }
        let mut at = apex;
        for &p in &own[..kept] {
            length += at.distance(p);
            at = p;
        }
        if target != apex {
            length += at.distance(target);
        }
        length
    }
}

/// A funnel kept in the shared pool: its chains are `pool[left.0..left.1]` and
/// `pool[right.0..right.1]`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StoredFunnel {
    pub(crate) apex: Point,
    pub(crate) apex_length: f64,
    pub(crate) opened: bool,
    pub(crate) left: (u32, u32),
    pub(crate) right: (u32, u32),
}

/// Shortest length of a path from `c` to `t` through some point of the segment `a`–`b`.
///
/// With `t` on the far side of the segment's line (or on it) that is `|c − t|` when the
/// straight piece crosses the segment, else the way over the nearer end; with `t` on the
/// same side the path reflects off the line, so `t` is mirrored first. In degenerate
/// cases (a point segment, everything on one line) it answers a value no larger than the
/// true minimum, which keeps it a lower bound.
fn via_segment(c: Point, a: Point, b: Point, t: Point) -> f64 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return c.distance(a) + a.distance(t);
    }
    let sc = d.perp_dot(c - a);
    let mut st = d.perp_dot(t - a);
    let mut target = t;
    if sc * st > 0.0 {
        // Same side: mirror t across the line.
        target = t - d.perp() * (2.0 * st / len2);
        st = -st;
    }
    if sc == st {
        // Both on the line.
        return c.distance(t);
    }
    let s = sc / (sc - st);
    let x = c + (target - c) * s;
    let u = (x - a).dot(d) / len2;
    if (0.0..=1.0).contains(&u) {
        c.distance(target)
    } else {
        (c.distance(a) + a.distance(t)).min(c.distance(b) + b.distance(t))
    }
}

impl Funnel {
    /// A lower bound on the length of every path from the start through the portals so
    /// far that then crosses the last portal `window` and ends at `target`.
    ///
    /// Each point x of the window is reached by the taut path through one funnel corner
    /// c (the apex or a chain corner), at length `length(c) + |c − x|`; so every such
    /// path is at least `min over c of length(c) + min over x of (|c − x| + |x − t|)`.
    pub(crate) fn bound(&self, window: Option<(Point, Point)>, target: Point) -> f64 {
        let Some((a, b)) = window else {
            return self.apex_length + self.apex.distance(target);
        };
        let mut best = self.apex_length + via_segment(self.apex, a, b, target);
        for chain in [&self.left, &self.right] {
            let (mut at, mut length) = (self.apex, self.apex_length);
            for &c in chain.iter() {
                length += at.distance(c);
                at = c;
                if length >= best {
                    break;
                }
                best = best.min(length + via_segment(c, a, b, target));
            }
        }
        best
    }
}
