//! The shortest path through a sequence of portals, keeping a clearance from their ends:
//! the funnel algorithm (string pulling) generalised from points to disks.
//!
//! A corridor is described by portals crossed in order; each portal end is a [`Disk`]
//! that the path must not enter (a disk of radius 0 is a point). With radius 0 this is the
//! classic funnel algorithm and gives the exact Euclidean shortest path inside the sleeve.
//! With radius `r` at obstacle corners it gives the shortest path with clearance `r`
//! (Geraerts, ICRA 2010): straight pieces tangent to the disks and arcs around them.

use crate::{orient, Point};

/// A disk the path must keep out of (radius 0: a point the path may touch).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Disk {
    /// Centre.
    pub center: Point,
    /// Radius (0 or more).
    pub radius: f64,
}

impl Disk {
    /// A disk.
    pub const fn new(center: Point, radius: f64) -> Self {
        Disk { center, radius }
    }

    /// A point (a disk of radius 0).
    pub const fn point(center: Point) -> Self {
        Disk {
            center,
            radius: 0.0,
        }
    }
}

/// A gap the path crosses: `left` lies on the walker's left, `right` on the right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Portal {
    /// The obstacle corner on the left.
    pub left: Disk,
    /// The obstacle corner on the right.
    pub right: Disk,
}

impl Portal {
    /// The same gap seen by a walker going the other way: its sides swap. A corridor
    /// walked from the goal is its portals in reverse order, each one reversed.
    ///
    /// ```
    /// use corridor_geom::funnel::{taut_path, Disk, Portal};
    /// use corridor_geom::Point;
    /// let portals = [Portal { left: Disk::point(Point::new(1.0, 1.0)), right: Disk::point(Point::new(1.0, -1.0)) }];
    /// let back: Vec<Portal> = portals.iter().rev().map(Portal::reversed).collect();
    /// let (s, g) = (Point::new(0.0, 0.0), Point::new(2.0, 0.0));
    /// assert_eq!(taut_path(s, g, &portals).length, taut_path(g, s, &back).length);
    /// ```
    pub const fn reversed(&self) -> Portal {
        Portal {
            left: self.right,
            right: self.left,
        }
    }
}

/// On which side of the path a corner lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CornerSide {
    /// The corner is on the walker's left: the path turns left around it.
    Left,
    /// The corner is on the walker's right.
    Right,
    /// The start or the goal.
    End,
}

impl CornerSide {
    fn sign(self) -> f64 {
        match self {
            CornerSide::Left => 1.0,
            CornerSide::Right => -1.0,
            CornerSide::End => 0.0,
        }
    }
}

/// One corner the taut path wraps around (the start and the goal are corners too).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Corner {
    /// The disk.
    pub disk: Disk,
    /// Its side.
    pub side: CornerSide,
    /// Where the path arrives at the disk (equal to `leave` for points).
    pub arrive: Point,
    /// Where the path leaves the disk.
    pub leave: Point,
}

/// The taut path: corners in order, from the start to the goal.
#[derive(Clone, Debug, PartialEq)]
pub struct TautPath {
    /// Corners, the start first and the goal last.
    pub corners: Vec<Corner>,
    /// Total length: straight pieces plus arcs.
    pub length: f64,
}

impl TautPath {
    /// The path as a polyline. Arcs are replaced by polylines that run *outside* their
    /// disk (tangent to it), never closer than the radius, deviating from the arc by at
    /// most `max_deviation`.
    pub fn polyline(&self, max_deviation: f64) -> Vec<Point> {
        let mut out: Vec<Point> = Vec::with_capacity(self.corners.len() * 2);
        self.polyline_into(max_deviation, &mut out);
        out
    }

    /// [`TautPath::polyline`] into `out` (cleared first), reusing its buffer: a warmed
    /// caller allocates nothing.
    pub fn polyline_into(&self, max_deviation: f64, out: &mut Vec<Point>) {
        out.clear();
        for corner in &self.corners {
            push_distinct(out, corner.arrive);
            if corner.disk.radius > 0.0 && corner.arrive != corner.leave {
                circumscribed_arc(corner, max_deviation, out);
            }
            push_distinct(out, corner.leave);
        }
    }

    /// An empty path (no corners, length 0): a buffer for [`taut_path_into`].
    pub const fn empty() -> Self {
        TautPath {
            corners: Vec::new(),
            length: 0.0,
        }
    }
}

impl Default for TautPath {
    fn default() -> Self {
        Self::empty()
    }
}

fn push_distinct(out: &mut Vec<Point>, p: Point) {
    if out.last() != Some(&p) {
        out.push(p);
    }
}

/// Angles (radians) below which a turn is rounding noise.
const WRONG_WAY_TOLERANCE: f64 = 1e-9;

/// Signed angle swept around the corner from `arrive` to `leave` (positive = counter-clockwise).
fn swept_angle(corner: &Corner) -> f64 {
    let (a, b) = (
        corner.arrive - corner.disk.center,
        corner.leave - corner.disk.center,
    );
    let mut angle = a.perp_dot(b).atan2(a.dot(b));
    // Collinear corners (nearest points along one straight wall) meet the path at one
    // tangent point; rounding may leave a tiny angle of the wrong sign there, which is no
    // turn at all, not a full turn.
    if angle.abs() < WRONG_WAY_TOLERANCE {
        return 0.0;
    }
    // A corner on the walker's left is wrapped counter-clockwise, one on the right clockwise.
    match corner.side {
        CornerSide::Left if angle < 0.0 => angle += std::f64::consts::TAU,
        CornerSide::Right if angle > 0.0 => angle -= std::f64::consts::TAU,
        _ => {}
    }
    angle
}

fn circumscribed_arc(corner: &Corner, max_deviation: f64, out: &mut Vec<Point>) {
    let r = corner.disk.radius;
    let total = swept_angle(corner);
    // A tangent polygon with step θ deviates from the arc by r (1/cos(θ/2) - 1).
    let tolerance = max_deviation.max(1e-12 * r);
    let max_step = 2.0 * (1.0 / (1.0 + tolerance / r)).acos();
    let steps = ((total.abs() / max_step.max(1e-6)).ceil() as usize).max(1);
    let step = total / steps as f64;
    let radius_out = r / (step / 2.0).cos();
    let start = (corner.arrive - corner.disk.center).to_angle();
    for k in 0..steps {
        let angle = start + step * (k as f64 + 0.5);
        push_distinct(
            out,
            corner.disk.center + Point::from_angle(angle) * radius_out,
        );
    }
}

/// The directed line leaving disk `a` (on side `sa`) and touching disk `b` (on side
/// `sb`): its unit direction and left normal. Disks on the left of the line are touched
/// from its right side. When the disks are too close for such a tangent (a corridor
/// narrower than the clearance, which the caller should have excluded) the centre line
/// is used.
fn tangent(a: &Disk, sa: CornerSide, b: &Disk, sb: CornerSide) -> (Point, Point) {
    let d = b.center - a.center;
    let len = d.length();
    if len == 0.0 {
        return (Point::X, Point::Y);
    }
    let unit = d / len;
    let k = (sb.sign() * b.radius - sa.sign() * a.radius) / len;
    if k.abs() >= 1.0 {
        return (unit, unit.perp());
    }
    let normal = unit * k + unit.perp() * (1.0 - k * k).sqrt();
    let direction = Point::new(normal.y, -normal.x);
    (direction, normal)
}

fn tangent_points(a: &Disk, sa: CornerSide, b: &Disk, sb: CornerSide) -> (Point, Point) {
    let (_, n) = tangent(a, sa, b, sb);
    (
        a.center - n * (sa.sign() * a.radius),
        b.center - n * (sb.sign() * b.radius),
    )
}

/// The shortest path from `start` to `goal` that crosses `portals` in order, keeping out
/// of every portal end's disk.
///
/// ```
/// use corridor_geom::funnel::{taut_path, Disk, Portal};
/// use corridor_geom::Point;
/// // Around the corner of an L-shaped corridor: the path bends at the inner corner (2, 2).
/// let portals = [
///     Portal { left: Disk::point(Point::new(2.0, 2.0)), right: Disk::point(Point::new(3.0, 0.0)) },
///     Portal { left: Disk::point(Point::new(2.0, 2.0)), right: Disk::point(Point::new(4.0, 3.0)) },
/// ];
/// let path = taut_path(Point::new(0.0, 1.0), Point::new(3.0, 5.0), &portals);
/// assert_eq!(path.corners.len(), 3);
/// assert!((path.length - (5f64.sqrt() + 10f64.sqrt())).abs() < 1e-12);
/// ```
pub fn taut_path(start: Point, goal: Point, portals: &[Portal]) -> TautPath {
    let mut path = TautPath::empty();
    taut_path_into(start, goal, portals, &mut path);
    path
}

/// [`taut_path`] into `path`, reusing its corner buffer: once that buffer has grown, the
/// funnel allocates nothing (the planner's hot path, issue 7).
pub fn taut_path_into(start: Point, goal: Point, portals: &[Portal], path: &mut TautPath) {
    taut_path_within(start, goal, portals, f64::INFINITY, path);
}

/// Relative slack of [`taut_path_within`]'s bound over `limit`, far above the rounding
/// of the sums it compares.
const LIMIT_SLACK: f64 = 1e-9;

/// [`taut_path_into`], given up as soon as the path is certain to be longer than `limit`
/// (a planner comparing corridors needs no more of a longer one): returns whether it ran
/// to the end. When it gives up, `path.length` is infinite and `path.corners` holds only
/// the apexes found so far.
///
/// The apexes the funnel finds are final, so the pieces between them plus the straight
/// distance from the last one's disk to the goal never exceed the length of the path.
pub fn taut_path_within(
    start: Point,
    goal: Point,
    portals: &[Portal],
    limit: f64,
    path: &mut TautPath,
) -> bool {
    let end = |p: Point| (Disk::point(p), CornerSide::End);
    // Portal ends as (disk, side); the goal closes the sequence as a degenerate portal.
    let count = portals.len() + 1;
    let left_at = |i: usize| match portals.get(i) {
        Some(p) => (p.left, CornerSide::Left),
        None => end(goal),
    };
    let right_at = |i: usize| match portals.get(i) {
        Some(p) => (p.right, CornerSide::Right),
        None => end(goal),
    };
    let lefts_between =
        |from: usize, to: usize| portals[from..to].iter().map(|p| (p.left, CornerSide::Left));
    let rights_between = |from: usize, to: usize| {
        portals[from..to]
            .iter()
            .map(|p| (p.right, CornerSide::Right))
    };

    // The apexes, in order, are the corners (their tangent points are set by `finish`).
    let apexes = &mut path.corners;
    apexes.clear();
    let push_apex = |apexes: &mut Vec<Corner>, (disk, side): (Disk, CornerSide)| {
        apexes.push(Corner {
            disk,
            side,
            arrive: disk.center,
            leave: disk.center,
        })
    };
    push_apex(apexes, end(start));
    let (mut apex, mut apex_index) = (end(start), 0usize);
    let (mut left, mut left_index) = (apex, 0usize);
    let (mut right, mut right_index) = (apex, 0usize);
    let same = |a: &(Disk, CornerSide), b: &(Disk, CornerSide)| a.0 == b.0 && a.1 == b.1;
    let dir = |from: &(Disk, CornerSide), to: &(Disk, CornerSide)| {
        tangent(&from.0, from.1, &to.0, to.1).0
    };
    let mut i = apex_index;
    // The pieces between the first `measured` apexes sum to `prefix`.
    let (mut measured, mut prefix) = (1usize, 0.0);
    while i < count {
        if limit.is_finite() && apexes.len() > measured {
            for k in measured..apexes.len() {
                let (a, b) = (&apexes[k - 1], &apexes[k]);
                let (leave, arrive) = tangent_points(&a.disk, a.side, &b.disk, b.side);
                prefix += leave.distance(arrive);
            }
            measured = apexes.len();
            let last = &apexes[measured - 1].disk;
            let rest = (last.center.distance(goal) - last.radius).max(0.0);
            if prefix + rest > limit * (1.0 + LIMIT_SLACK) {
                path.length = f64::INFINITY;
                return false;
            }
        }
        let (new_left, new_right) = (left_at(i), right_at(i));
        // Tighten the right side of the funnel.
        let right_dir = dir(&apex, &right);
        let candidate = dir(&apex, &new_right);
        if same(&apex, &right) || right_dir.perp_dot(candidate) >= 0.0 {
            let left_dir = dir(&apex, &left);
            if same(&apex, &right) || same(&apex, &left) || left_dir.perp_dot(candidate) < 0.0 {
                right = new_right;
                right_index = i;
            } else if new_right.1 == CornerSide::End
                && seen_before(&apex, &new_right, lefts_between(left_index, i))
            {
                // The goal lies angularly beyond the left side but nearer: it is reached
                // straight.
                right = new_right;
                right_index = i;
            } else if passed_first(&apex, &new_right, &left) {
                // The new right disk blocks the way to the left side (nearly touching
                // disks): the path wraps it first.
                apex = new_right;
                apex_index = i;
                push_apex(apexes, apex);
                (left, left_index, right, right_index) = (apex, apex_index, apex, apex_index);
                i = crossed_before(apexes, portals, apex_index + 1);
                continue;
            } else {
                // The right side crosses the left: the left corner becomes the apex.
                apex = left;
                apex_index = left_index;
                push_apex(apexes, apex);
                right = apex;
                right_index = apex_index;
                i = crossed_before(apexes, portals, apex_index + 1);
                continue;
            }
        }
        // Tighten the left side.
        let left_dir = dir(&apex, &left);
        let candidate = dir(&apex, &new_left);
        if same(&apex, &left) || left_dir.perp_dot(candidate) <= 0.0 {
            let right_dir = dir(&apex, &right);
            if same(&apex, &left)
                || same(&apex, &right)
                || right_dir.perp_dot(candidate) > 0.0
                || (new_left.1 == CornerSide::End
                    && seen_before(&apex, &new_left, rights_between(right_index, i)))
            {
                left = new_left;
                left_index = i;
            } else if passed_first(&apex, &new_left, &right) {
                apex = new_left;
                apex_index = i;
                push_apex(apexes, apex);
                (left, left_index, right, right_index) = (apex, apex_index, apex, apex_index);
                i = crossed_before(apexes, portals, apex_index + 1);
                continue;
            } else {
                apex = right;
                apex_index = right_index;
                push_apex(apexes, apex);
                left = apex;
                left_index = apex_index;
                i = crossed_before(apexes, portals, apex_index + 1);
                continue;
            }
        }
        // A side taken while the funnel was closed (just after an apex) is not checked
        // against the other side. With disks the two may already cross as seen from
        // the apex, when the apex is close to one of them: the path then passes the
        // nearer one first, which becomes the apex.
        if !same(&apex, &left) && !same(&apex, &right) {
            let (left_dir, right_dir) = (dir(&apex, &left), dir(&apex, &right));
            if right_dir.perp_dot(left_dir) < 0.0 {
                let reach = |side: &(Disk, CornerSide)| {
                    let (from, to) = tangent_points(&apex.0, apex.1, &side.0, side.1);
                    from.distance_squared(to)
                };
                // A side whose disk blocks the straight piece to the other is passed
                // first; nearness decides otherwise.
                let left_first = if passed_first(&apex, &left, &right) {
                    true
                } else if passed_first(&apex, &right, &left) {
                    false
                } else {
                    reach(&left) <= reach(&right)
                };
                let (near, near_index) = if left_first {
                    (left, left_index)
                } else {
                    (right, right_index)
                };
                apex = near;
                apex_index = near_index;
                push_apex(apexes, apex);
                (left, left_index, right, right_index) = (apex, apex_index, apex, apex_index);
                i = crossed_before(apexes, portals, apex_index + 1);
                continue;
            }
        }
        i += 1;
    }
    let last = apexes.last().map(|c| (c.disk, c.side));
    if last.is_none_or(|last| !same(&last, &end(goal))) {
        push_apex(apexes, end(goal));
    }
    path.length = finish(apexes);
    true
}

/// Whether the path from `apex` passes `first` before `other`, where the funnel's two
/// sides cross: `first`'s disk blocks the straight piece from the apex to `other` and
/// `other`'s disk does not block the piece to `first`. Nearly touching disks (a gap
/// barely wider than the clearance: a 1-wide door at radius 0.5) have almost the same
/// tangents from the apex, and the rule for points (the side crossed becomes the apex)
/// then wrapped the wrong disk, almost all the way round.
fn passed_first(
    apex: &(Disk, CornerSide),
    first: &(Disk, CornerSide),
    other: &(Disk, CornerSide),
) -> bool {
    first.1 != CornerSide::End && blocks(apex, first, other) && !blocks(apex, other, first)
}

/// Whether `disk` blocks the straight piece from `apex` to `to` (enters it).
fn blocks(apex: &(Disk, CornerSide), disk: &(Disk, CornerSide), to: &(Disk, CornerSide)) -> bool {
    if disk.0.radius <= 0.0 || disk.0 == to.0 {
        return false;
    }
    let (from, end) = tangent_points(&apex.0, apex.1, &to.0, to.1);
    crate::Segment::new(from, end).distance(disk.0.center) < disk.0.radius
}

/// The first portal from `next` on that the piece into the newest apex (from the one
/// before it) has not crossed already.
///
/// With points an apex is a portal end, so the path reaches it before any later portal.
/// A disk is reached at its tangent point, which may lie beyond a later portal whose
/// end on the same side is near the disk (a point `r` out from a wall next to a corner
/// at radius `r`): the piece into the disk crosses that portal's gap on its way, and
/// taking the portal again from the apex would send the path back to it.
fn crossed_before(apexes: &[Corner], portals: &[Portal], mut next: usize) -> usize {
    let [.., before, apex] = apexes else {
        return next;
    };
    if apex.disk.radius <= 0.0 {
        return next;
    }
    let (from, to) = tangent_points(&before.disk, before.side, &apex.disk, apex.side);
    let piece = crate::Segment::new(from, to);
    while let Some(p) = portals.get(next) {
        let (a, b) = (p.left.center, p.right.center);
        let chord = crate::Segment::new(a, b);
        let (da, db) = (piece.distance(a), piece.distance(b));
        let crosses = orient(from, to, a) != orient(from, to, b)
            && orient(a, b, from) != orient(a, b, to)
            && da >= p.left.radius
            && db >= p.right.radius
            && chord.distance(from) > 0.0;
        if !crosses {
            break;
        }
        next += 1;
    }
    next
}

/// Whether `candidate` (the goal), although it lies angularly beyond the funnel's other
/// side as seen from `apex`, is reached first by a straight piece that keeps every end of that
/// side from the funnel's side end up to the candidate's portal (`side`) on its proper
/// side and out of its disk.
///
/// Point portals never do this, but a disk casts an angular shadow: the goal may sit beside the clearance disk of a corner farther on,
/// angularly behind the disk's tangent but not blocked by it. The ends after the disk
/// on the same side stand for the walls that leave that corner; if the piece passed one
/// of them on the wrong side, the candidate would be behind those walls.
fn seen_before(
    apex: &(Disk, CornerSide),
    candidate: &(Disk, CornerSide),
    mut side: impl Iterator<Item = (Disk, CornerSide)>,
) -> bool {
    let (from, to) = tangent_points(&apex.0, apex.1, &candidate.0, candidate.1);
    let piece = crate::Segment::new(from, to);
    let direction = to - from;
    side.all(|(disk, s)| {
        let across = direction.perp_dot(disk.center - from) * s.sign();
        across > 0.0 && piece.distance(disk.center) >= disk.radius
    })
}

/// Sets the tangent points of the corners (apexes whose `arrive` and `leave` are their
/// centres) and returns the path's length.
fn finish(corners: &mut [Corner]) -> f64 {
    for k in 0..corners.len().saturating_sub(1) {
        let (a, b) = (corners[k], corners[k + 1]);
        let (leave, arrive) = tangent_points(&a.disk, a.side, &b.disk, b.side);
        corners[k].leave = leave;
        corners[k + 1].arrive = arrive;
    }
    let mut length = 0.0;
    for k in 0..corners.len() {
        if k > 0 {
            length += corners[k - 1].leave.distance(corners[k].arrive);
        }
        if corners[k].disk.radius > 0.0 && corners[k].side != CornerSide::End {
            length += corners[k].disk.radius * swept_angle(&corners[k]).abs();
        }
    }
    length
}
