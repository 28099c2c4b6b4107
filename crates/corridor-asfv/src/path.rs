//! How to get from A to B: A* over the connectivity graph, then the shortest path
//! through the chosen portals (the funnel algorithm, with exact turn tests).

use crate::decomposition::Decomposition;
use crate::region::RegionId;
use crate::AsfvError;
use corridor_geom::{orient, Orientation, Point};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A path through the decomposition.
#[derive(Clone, Debug, PartialEq)]
pub struct AsfvPath {
    /// The polyline from start to goal; interior points are region vertices (corners of
    /// obstacles the path bends around).
    pub points: Vec<Point>,
    /// Its length.
    pub length: f64,
    /// The regions it passes through, start region first.
    pub regions: Vec<RegionId>,
}

/// A directed crossing: (region left, region entered), in slots.
type State = (u32, u32);

/// A search state: the region `to` entered from `from` (`u32::MAX` for the start
/// region, `to == u32::MAX` for "arrived at the goal").
#[derive(PartialEq)]
struct Entry {
    f: f64,
    from: u32,
    to: u32,
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then(other.from.cmp(&self.from))
            .then(other.to.cmp(&self.to))
    }
}

impl Decomposition {
    /// A short path from `start` to `goal` through the free space.
    ///
    /// A* runs over regions; each region is entered at the point of its portal that is
    /// best for a straight line towards the goal, so the search prefers corridors that
    /// point the right way. The funnel algorithm then pulls the string taut through the
    /// chosen portals, so the result is the shortest path within that corridor (not
    /// necessarily the shortest path overall).
    ///
    /// Errors: a non-finite point, a point in no region, or no connection.
    ///
    /// ```
    /// use corridor_asfv::{AsfvOptions, Decomposition};
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(30.0, 20.0));
    /// env.insert(Obstacle::rectangle(Point::new(10.0, 0.0), Point::new(12.0, 15.0)));
    /// let d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
    /// let path = d.path(Point::new(5.0, 5.0), Point::new(20.0, 5.0)).unwrap();
    /// // Over the wall: never shorter than the way round its two top corners.
    /// let shortest = Point::new(5.0, 5.0).distance(Point::new(10.0, 15.0))
    ///     + 2.0
    ///     + Point::new(12.0, 15.0).distance(Point::new(20.0, 5.0));
    /// assert!(path.length >= shortest - 1e-9 && path.length < 1.1 * shortest);
    /// assert!(path.points.iter().all(|p| p.y <= 15.0 + 1e-9 || p.x < 10.0 || p.x > 12.0));
    /// ```
    pub fn path(&self, start: Point, goal: Point) -> Result<AsfvPath, AsfvError> {
        for (which, p) in [("start", start), ("goal", goal)] {
            if !p.is_finite() {
                return Err(AsfvError::NonFinitePoint {
                    which,
                    x: p.x,
                    y: p.y,
                });
            }
        }
        let first = self.locate(start).ok_or(AsfvError::NotCovered {
            which: "start",
            point: start,
        })?;
        let last = self.locate(goal).ok_or(AsfvError::NotCovered {
            which: "goal",
            point: goal,
        })?;
        let mut chain = self.corridor(first.index, last.index, start, goal)?;
        // A start (or goal) on a portal lies in two regions: begin in the last region of
        // the corridor that holds it (end in the first that holds the goal), or the
        // funnel would open at a straight angle and bend for nothing.
        let holds = |slot: u32, p: Point| self.live(slot).is_some_and(|r| r.contains(p));
        if let Some(k) = chain.iter().rposition(|&s| holds(s, start)) {
            chain.drain(..k);
        }
        if let Some(m) = chain.iter().position(|&s| holds(s, goal)) {
            chain.truncate(m + 1);
        }
        // Portals as (left, right) seen when walking from one region into the next.
        let mut portals = vec![(start, start)];
        for w in chain.windows(2) {
            let (from, to) = (w[0], w[1]);
            let r = self.live(from).ok_or(AsfvError::NoPath)?;
            let &(_, a, b) = r
                .neighbours
                .iter()
                .find(|&&(m, _, _)| m == to)
                .ok_or(AsfvError::NoPath)?;
            // The region is counter-clockwise: if a → b runs along it, b is on the left.
            if orient(a, b, r.centre()) == Orientation::CounterClockwise {
                portals.push((b, a));
            } else {
                portals.push((a, b));
            }
        }
        portals.push((goal, goal));
        let points = funnel(&portals);
        let length = points.windows(2).map(|w| w[0].distance(w[1])).sum();
        Ok(AsfvPath {
            points,
            length,
            regions: chain
                .iter()
                .filter_map(|&s| self.live(s).map(|r| r.id))
                .collect(),
        })
    }
}

impl Decomposition {
    /// The regions from `s0` to `s1` (slots) that A* finds when its states are portals
    /// crossed in a direction: a region can be entered through any of its portals, each
    /// at the point best placed on the way to the goal, so the search compares corridors
    /// rather than committing to the first way into a region.
    fn corridor(&self, s0: u32, s1: u32, start: Point, goal: Point) -> Result<Vec<u32>, AsfvError> {
        use std::collections::HashMap;
        const NONE: u32 = u32::MAX;
        // (from, to) -> (g, entry point, parent state)
        let mut best: HashMap<State, (f64, Point, State)> = HashMap::new();
        let mut closed: std::collections::HashSet<State> = Default::default();
        let mut heap = BinaryHeap::new();
        best.insert((NONE, s0), (0.0, start, (NONE, NONE)));
        heap.push(Entry {
            f: start.distance(goal),
            from: NONE,
            to: s0,
        });
        let mut arrived: Option<State> = None;
        let mut arrival_cost = f64::INFINITY;
        while let Some(Entry { f, from, to }) = heap.pop() {
            if f >= arrival_cost {
                break;
            }
            if !closed.insert((from, to)) {
                continue;
            }
            let Some(&(g, p, _)) = best.get(&(from, to)) else {
                continue;
            };
            if to == s1 {
                let total = g + p.distance(goal);
                if total < arrival_cost {
                    arrival_cost = total;
                    arrived = Some((from, to));
                }
                continue;
            }
            let Some(r) = self.live(to) else { continue };
            for &(next, a, b) in &r.neighbours {
                if next == from || closed.contains(&(to, next)) {
                    continue;
                }
                let q = entry_point(p, goal, a, b);
                let cost = g + p.distance(q);
                if best.get(&(to, next)).is_none_or(|&(old, _, _)| cost < old) {
                    best.insert((to, next), (cost, q, (from, to)));
                    heap.push(Entry {
                        f: cost + q.distance(goal),
                        from: to,
                        to: next,
                    });
                }
            }
        }
        let mut state = arrived.ok_or(AsfvError::NoPath)?;
        let mut chain = vec![state.1];
        while state.0 != NONE {
            state = best.get(&state).ok_or(AsfvError::NoPath)?.2;
            chain.push(state.1);
        }
        chain.reverse();
        Ok(chain)
    }
}

/// The point of portal `a b` best placed for the straight line from `p` to `goal`: where
/// that line crosses the portal, or else the nearer endpoint by `|p q| + |q goal|`.
fn entry_point(p: Point, goal: Point, a: Point, b: Point) -> Point {
    let (r, s) = (goal - p, b - a);
    let denom = r.perp_dot(s);
    if denom != 0.0 {
        let t = (a - p).perp_dot(s) / denom;
        let u = (a - p).perp_dot(r) / denom;
        if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
            return a + s * u;
        }
    }
    let cost = |q: Point| p.distance(q) + q.distance(goal);
    if cost(a) <= cost(b) {
        a
    } else {
        b
    }
}

/// The simple stupid funnel algorithm (Mononen) with exact turn tests: the shortest path
/// through a sequence of portals `(left, right)`, the first and last being the start
/// and goal as zero-width portals.
fn funnel(portals: &[(Point, Point)]) -> Vec<Point> {
    use Orientation::{Clockwise, CounterClockwise};
    let Some(&(start, _)) = portals.first() else {
        return Vec::new();
    };
    let mut points = vec![start];
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut left_i, mut right_i) = (0usize, 0usize);
    let mut i = 1;
    while i < portals.len() {
        let (l, r) = portals[i];
        if orient(apex, right, r) != Clockwise {
            if apex == right || orient(apex, left, r) == Clockwise {
                right = r;
                right_i = i;
            } else {
                points.push(left);
                apex = left;
                right = apex;
                right_i = left_i;
                i = left_i + 1;
                continue;
            }
        }
        if orient(apex, left, l) != CounterClockwise {
            if apex == left || orient(apex, right, l) == CounterClockwise {
                left = l;
                left_i = i;
            } else {
                points.push(right);
                apex = right;
                left = apex;
                left_i = right_i;
                i = right_i + 1;
                continue;
            }
        }
        i += 1;
    }
    if let Some(&(goal, _)) = portals.last() {
        points.push(goal);
    }
    points.dedup();
    points
}
