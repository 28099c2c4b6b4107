//! Is this ECM right? The always-on checks that stand between the Voronoi library and the
//! user, and the input checks on the walls.
//!
//! Tolerances are in grid steps: a point counts as equidistant, and a wall as "not
//! closer", within [`tolerance`] of the walls' extent (a thousandth of a grid step plus
//! 10⁻¹⁰ of the largest coordinate, which covers `f64` rounding of coordinates up to 2²⁹).

use super::error::{BuildError, FailureKind, ValidationFailure, WallProblem};
use super::extract::segment_ends;
use crate::graph::{signed_area, Ecm};
use crate::util::{at_most, slot};

use corridor_geom::{
    GridPoint, Point, PointGroups, SegmentGrid, SnapGrid, WallConflict, WallSource, Walls,
};

/// Which wall an index entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WallRef {
    /// `walls.segments[i]`.
    Segment(u32),
    /// `walls.points[i]`.
    Point(u32),
}

/// One wall in grid coordinates (`a == b` for an isolated point).
#[derive(Clone, Copy, Debug)]
struct WallEntry {
    a: Point,
    b: Point,
}

impl WallEntry {
    fn distance(&self, q: Point) -> f64 {
        nearest_on_segment(self.a, self.b, q).distance(q)
    }
}

/// A wall box as `[min x, min y, -max x, -max y]`: the four "is the wall beyond this
/// line" tests of the filters are then one comparison of one kind each (negating is
/// exact, so these are the same tests on the same values as on the plain box).
type Corner = [f64; 4];

/// A [`Corner`] in `f32`, each value rounded down: the box it stands for holds the
/// wall's box. The coarse filters compare these with `f32` thresholds, four lanes at a
/// time in half the bytes.
type Corner32 = [f32; 4];

/// The largest `f32` at most `v`.
fn down32(v: f64) -> f32 {
    let f = v as f32;
    if f64::from(f) > v {
        f.next_down()
    } else {
        f
    }
}

/// Whether one of `c[i] > t[i]` holds (false if anything is NaN), where `t` holds `f64`
/// values `v` rounded to the nearest `f32`: then `c[i] > t[i]` implies `c[i] > v[i]`
/// exactly, and by at least a quarter of a unit in the last place of `f32` (`c[i]` is at
/// least the next `f32` above `t[i]`, which is beyond `v[i]` by at least that), far more
/// than the rounding of a `f64` sum `v[i]`, so it implies it for the exact sum too.
/// Written without short-circuiting: one branch instead of four, and the compiler tests
/// the four lanes together.
#[inline]
fn any_above(c: &Corner32, t: &[f32; 4]) -> bool {
    (c[0] > t[0]) | (c[1] > t[1]) | (c[2] > t[2]) | (c[3] > t[3])
}

/// The nearest point of segment `a b` to `q` (a point if `a == b`).
pub(crate) fn nearest_on_segment(a: Point, b: Point, q: Point) -> Point {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return a;
    }
    let t = ((q - a).dot(d) / len2).clamp(0.0, 1.0);
    if t == 0.0 {
        a
    } else if t == 1.0 {
        b
    } else {
        a + d * t
    }
}

/// The walls in grid coordinates with a bucket grid over them (segments first, then the
/// isolated points), for validation's closer-wall queries.
pub(crate) struct WallIndex {
    entries: Vec<WallEntry>,
    /// The box of each entry as a [`Corner`] and a [`Corner32`], apart so that the
    /// filters that reject most walls read only these.
    corners: Vec<(Corner32, Corner)>,
    /// Number of segments: entry `i` is `WallRef::Segment(i)` below it and
    /// `WallRef::Point(i - segments)` from it on.
    segments: usize,
    /// The largest absolute coordinate of the walls (what [`tolerance`] is of), found
    /// while indexing them.
    extent: f64,
    grid: SegmentGrid,
    /// Walls per unit of area of the walls' box (grid units): how many a query box is
    /// expected to meet, to choose between the bucket grid and [`WallIndex::tree`].
    density: f64,
    /// Walls per unit of area met by the last bucket-grid query: walls bunch (a row of
    /// pillars holds all of them on one line), so the mean density can be far below the
    /// density near the bending points being checked.
    observed: f64,
    /// An R-tree of the walls for nearest-wall searches, built on the first disc too
    /// large for the bucket grid (see [`WallIndex::is_large`]); never on the game maps.
    tree: Option<rstar::RTree<TreeWall>>,
}

/// A wall in [`WallIndex::tree`]: its number and ends (grid coordinates).
struct TreeWall {
    id: u32,
    wall: WallEntry,
}

impl rstar::RTreeObject for TreeWall {
    type Envelope = rstar::AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        rstar::AABB::from_corners(
            [self.wall.a.x, self.wall.a.y],
            [self.wall.b.x, self.wall.b.y],
        )
    }
}

impl rstar::PointDistance for TreeWall {
    /// The square of [`WallEntry::distance`]: the same computed distance the bucket-grid
    /// check compares.
    fn distance_2(&self, p: &[f64; 2]) -> f64 {
        let d = self.wall.distance(Point::new(p[0], p[1]));
        d * d
    }
}

/// Walls a query box may be expected to meet before the closer-wall check asks the
/// R-tree for the nearest walls instead of scanning the box's walls.
const LARGE_QUERY: f64 = 256.0;
/// [`LARGE_QUERY`] for the density the last bucket query met.
const OBSERVED_LARGE_QUERY: f64 = 16384.0;

fn gp(p: GridPoint) -> Point {
    Point::new(p.x as f64, p.y as f64)
}

impl WallIndex {
    /// Indexes the walls, with `grid` the bucket grid over them that
    /// [`Walls::check_disjoint_indexed`] built (segments, then points).
    pub(crate) fn new(walls: &Walls, grid: SegmentGrid) -> Self {
        debug_assert_eq!(grid.len(), walls.segments.len() + walls.points.len());
        let n = grid.len();
        let (mut entries, mut corners) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut largest = 0;
        for (a, b) in walls.wall_ends() {
            largest = largest.max(
                (a.x.unsigned_abs().max(a.y.unsigned_abs()))
                    .max(b.x.unsigned_abs().max(b.y.unsigned_abs())),
            );
            let (a, b) = (gp(a), gp(b));
            let c = [a.x.min(b.x), a.y.min(b.y), -a.x.max(b.x), -a.y.max(b.y)];
            entries.push(WallEntry { a, b });
            // Below 2²⁴ (every shared map) the nearest `f32` is the value itself: one
            // conversion of the four and one check, [`down32`] lane by lane otherwise.
            let near = c.map(|v| v as f32);
            let exact = (f64::from(near[0]) == c[0])
                & (f64::from(near[1]) == c[1])
                & (f64::from(near[2]) == c[2])
                & (f64::from(near[3]) == c[3]);
            corners.push((if exact { near } else { c.map(down32) }, c));
        }
        let bounds = corners.iter().fold([f64::INFINITY; 4], |b, (_, c)| {
            [
                b[0].min(c[0]),
                b[1].min(c[1]),
                b[2].min(c[2]),
                b[3].min(c[3]),
            ]
        });
        let area = ((-bounds[2] - bounds[0]).max(1.0)) * ((-bounds[3] - bounds[1]).max(1.0));
        WallIndex {
            density: n as f64 / area,
            entries,
            corners,
            segments: walls.segments.len(),
            extent: largest as f64,
            grid,
            observed: 0.0,
            tree: None,
        }
    }

    /// Whether a query box is expected to meet more than [`LARGE_QUERY`] walls (by the
    /// walls' mean density; or more than [`OBSERVED_LARGE_QUERY`] by the density the last
    /// bucket query met): then scanning its walls for each bending point would make
    /// validation quadratic (a row of pillars facing open space, whose discs reach far
    /// along the row), and [`WallIndex::closer_by_tree`] answers instead.
    fn is_large(&self, lo: [f64; 2], hi: [f64; 2]) -> bool {
        let area = (hi[0] - lo[0]) * (hi[1] - lo[1]);
        // The density met by the last bucket query is trusted only for a much larger
        // query: near walls it overstates what a slightly larger disc meets (on Aurora,
        // trusting it as the mean density doubled the validation time).
        area * self.density > LARGE_QUERY || area * self.observed > OBSERVED_LARGE_QUERY
    }

    /// The answer of [`closer_among`] over all walls (a wall strictly closer than
    /// `radius` to `q`, if any) by a nearest-first search in an R-tree. Walls come in
    /// increasing order of their computed distance (nodes by their boxes' distance, a
    /// lower bound up to rounding); the search stops past `radius` grown by the margin
    /// of [`closer_among`]'s box filter (10⁻¹² of the coordinates and radius, thousands
    /// of units in the last place, far beyond that rounding), so no closer wall is missed
    /// and the walls just beyond the radius are not all visited (a point far above a row
    /// of pillars is nearly as far from hundreds of them). The
    /// same computed distances are compared as by [`closer_among`], so the check passes
    /// or fails alike; on failure it may name another of the closer walls.
    fn closer_by_tree(&mut self, q: Point, radius: f64) -> Option<(WallRef, f64)> {
        let margin = 1e-12 * (self.extent + q.x.abs() + q.y.abs() + radius.abs());
        let entries = &self.entries;
        let tree = self.tree.get_or_insert_with(|| {
            rstar::RTree::bulk_load(
                entries
                    .iter()
                    .enumerate()
                    .map(|(i, &wall)| TreeWall { id: i as u32, wall })
                    .collect(),
            )
        });
        let stop = radius + margin;
        let mut found = None;
        for (w, d2) in tree.nearest_neighbor_iter_with_distance_2([q.x, q.y]) {
            // Not `d2 > stop²` alone: a NaN distance must end the search too.
            if !at_most(d2, stop * stop) {
                break;
            }
            let d = w.wall.distance(q);
            if d < radius {
                found = Some((w.id, d));
                break;
            }
        }
        found.map(|(id, d)| (self.wall(id), d))
    }

    fn wall(&self, i: u32) -> WallRef {
        match (i as usize).checked_sub(self.segments) {
            None => WallRef::Segment(i),
            Some(p) => WallRef::Point(p as u32),
        }
    }

    /// The wall nearest to `q` (grid coordinates) and its distance, by looking at every
    /// wall: only used to name the walls near a failure.
    fn nearest(&self, q: Point) -> Option<(WallRef, f64)> {
        (0..self.entries.len() as u32)
            .map(|i| (self.wall(i), self.entries[i as usize].distance(q)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
    }

    /// Replaces `out` with every wall that passes through the box from `lo` to `hi`, each
    /// once, in bucket order (and some that only pass near it). The query to the bucket
    /// grid is rounded outwards to the integer grid (a NaN corner makes it the whole
    /// plane), and the grid lists a wall under every bucket it passes through, so every
    /// wall with a point in the box is met; the buckets also list walls that only pass
    /// near the box (about half of them on the shared maps), which are dropped by their
    /// boxes as they are met. No wall whose box meets the box is dropped once met.
    fn walls_meeting(&mut self, lo: [f64; 2], hi: [f64; 2], out: &mut Candidates) {
        // `floor` and `ceil` by truncation and a correction (`f64::floor` is a library
        // call without SSE4.1): the same values, saturated alike (`as` saturates; past
        // ±2⁵² every `f64` is an integer, converted exactly).
        let down = |v: f64| {
            if v.is_nan() {
                i64::MIN
            } else {
                let t = v as i64;
                if (t as f64) > v {
                    t.saturating_sub(1)
                } else {
                    t
                }
            }
        };
        let up = |v: f64| {
            if v.is_nan() {
                i64::MAX
            } else {
                let t = v as i64;
                if (t as f64) < v {
                    t.saturating_add(1)
                } else {
                    t
                }
            }
        };
        // A wall box misses the query box if `min x > hi x`, `min y > hi y`, `-max x >
        // -lo x` or `-max y > -lo y`; [`any_above`] on the rounded values implies one
        // of these (false if anything is NaN, so that nothing is dropped on NaN).
        let t = [hi[0], hi[1], -lo[0], -lo[1]].map(|v| v as f32);
        let corners = &self.corners;
        out.clear();
        let area = (hi[0] - lo[0]) * (hi[1] - lo[1]);
        // The box test comes before the bucket grid's "already seen" mark: about half
        // the walls listed are dropped by it, and then cost no mark.
        self.grid.for_each_meeting_box_where(
            [down(lo[0]), down(lo[1])],
            [up(hi[0]), up(hi[1])],
            |i| !any_above(&corners[i as usize].0, &t),
            |i| out.push(i, &corners[i as usize]),
        );
        if area > 0.0 {
            self.observed = out.items.len() as f64 / area;
        }
    }
}

/// The walls near a run of bending points, with their boxes copied out beside their
/// numbers so that the per-point scan reads one record after the other (no look-up
/// through the wall number, one push per wall). A box is kept as `[min x, min y,
/// -max x, -max y]`, so that all four "at least `radius` away" tests are one comparison
/// of the same kind each.
#[derive(Default)]
struct Candidates {
    items: Vec<Candidate>,
}

/// One candidate wall: its box rounded (see [`Corner32`]), its number, and its box.
struct Candidate {
    corner32: Corner32,
    id: u32,
    corner: Corner,
}

impl Candidates {
    fn clear(&mut self) {
        self.items.clear();
    }

    fn push(&mut self, id: u32, corners: &(Corner32, Corner)) {
        self.items.push(Candidate {
            corner32: corners.0,
            id,
            corner: corners.1,
        });
    }
}

/// A wall among `candidates` strictly closer than `radius` to `q`, if any (the first in
/// their order). Any wall closer than `radius` to `q` must be among the candidates (their
/// query box must contain the box of the disc of that radius around `q`). `extent` is
/// the walls' largest absolute coordinate; it sizes the rounding margin of the
/// box-distance test.
fn closer_among(
    index: &WallIndex,
    candidates: &Candidates,
    q: Point,
    radius: f64,
    extent: f64,
) -> Option<(WallRef, f64)> {
    // A wall whose box is at least `radius` away along one axis cannot be closer: the
    // computed distance is never below the computed gap along an axis (the nearest point
    // is rounded inside the wall's box, and `sqrt(x * x) == |x|` in IEEE arithmetic), and
    // the computed gap is at least `radius` when the exact one is (rounding is monotone
    // and `radius` is a `f64`), so skipping it changes no answer. Most candidates go
    // here, for four `f32` comparisons instead of a projection and a square root: `min x
    // > q.x + radius`, `min y > q.y + radius`, `-max x > radius - q.x`, `-max y > radius
    // - q.y` by [`any_above`], which holds only when the exact test does; the thresholds
    // are computed once per point instead of a subtraction per wall.
    let t = [q.x + radius, q.y + radius, radius - q.x, radius - q.y].map(|v| v as f32);
    let corner = [q.x, q.y, -q.x, -q.y];
    // Second filter: the squared distance from `q` to the exact box against `(radius +
    // margin)²`. The wall is never nearer than its box, so a wall this rejects is
    // exactly at least `radius + margin` away minus the rounding of the test; its
    // computed distance is at least that minus the rounding of the projection. Both
    // roundings are a few units in the last place of the coordinates (at most `extent`
    // and `|q|`) and of the radius, and the margin is 10⁻¹² of their sum (thousands of
    // units in the last place), so no wall the distance test below would report is
    // skipped: the answer is the same, with a square root and a projection saved for the
    // walls that only share a corner of the disc's box (on grid maps, the walls at the
    // nearest corners: on Aurora all of the 7.7 distances per bending point measured
    // before this filter).
    let margin = 1e-12 * (extent + q.x.abs() + q.y.abs() + radius.abs());
    let reach = radius + margin;
    let reach2 = reach * reach;
    // False when `reach2` is NaN, so that nothing is skipped then. The larger of two
    // values by one comparison (one `maxsd`, where `f64::max` adds a NaN fix-up): the
    // same value as `f64::max` when neither is NaN. A gap is NaN only when `q` is, and
    // then `reach2` is NaN too; the gaps are finite whenever `q` is.
    let larger = |a: f64, b: f64| if a > b { a } else { b };
    let box_beyond = |b: &Corner| -> bool {
        let dx = larger(larger(b[0] - corner[0], b[2] - corner[2]), 0.0);
        let dy = larger(larger(b[1] - corner[1], b[3] - corner[3]), 0.0);
        dx * dx + dy * dy >= reach2
    };
    candidates.items.iter().find_map(|c| {
        if any_above(&c.corner32, &t) || box_beyond(&c.corner) {
            return None;
        }
        let i = c.id as usize;
        let d = index.entries[i].distance(q);
        (d < radius).then(|| (index.wall(c.id), d))
    })
}

/// The box of the disc of radius `r` around `q`, grown by `margin`.
fn disc_box(q: Point, r: f64, margin: f64) -> ([f64; 2], [f64; 2]) {
    let r = r + margin;
    ([q.x - r, q.y - r], [q.x + r, q.y + r])
}

fn sources_of(walls: &Walls, wall: WallRef) -> Vec<WallSource> {
    match wall {
        WallRef::Segment(i) => walls.segments[i as usize].sources.to_vec(),
        WallRef::Point(i) => walls.points[i as usize].1.clone(),
    }
}

/// The validation tolerance in grid steps for walls whose largest absolute coordinate is
/// `extent`.
pub(crate) fn tolerance(extent: f64) -> f64 {
    1e-3 + 1e-10 * extent
}

/// The largest absolute coordinate of the walls, as [`WallIndex::new`] finds it (kept
/// for the tests, which compare the two).
#[cfg(test)]
fn extent(walls: &Walls) -> f64 {
    let seg = walls
        .segments
        .iter()
        .flat_map(|s| [s.a, s.b])
        .chain(walls.points.iter().map(|(p, _)| *p))
        .map(|p| p.x.unsigned_abs().max(p.y.unsigned_abs()))
        .max()
        .unwrap_or(0);
    seg as f64
}

/// The free area enclosed by the one-sided walls (grid units², exact): by Green's theorem
/// the one-sided walls, free space on their left, are the positively oriented boundary of
/// the free space.
pub(crate) fn free_area_twice(walls: &Walls) -> i128 {
    walls
        .segments
        .iter()
        .filter(|s| !s.two_sided)
        .map(|s| s.a.x as i128 * s.b.y as i128 - s.b.x as i128 * s.a.y as i128)
        .sum()
}

/// How far the caller has already checked the [`Walls`] contract.
#[derive(Debug)]
pub(crate) enum WallsChecked {
    /// Nothing is known: walls from a caller of [`crate::Ecm::from_walls`].
    No,
    /// [`Walls::check_disjoint_indexed`] passed on exactly these walls (as inside
    /// [`corridor_geom::normalize_indexed`]) and built this grid, so no segments cross,
    /// overlap or touch away from shared end points and no point lies on a wall or
    /// another point.
    Disjoint(SegmentGrid),
}

/// Checks the [`Walls`] contract and returns the wall index for validation and the
/// segment ends grouped by point (for extraction).
///
/// The disjointness part is [`Walls::check_disjoint`] (exact, through a bucket grid),
/// skipped when `checked` says it already passed: [`crate::Ecm::build`] gets its walls
/// from `normalize`, which has just run it, and repeating it was a fifth of the
/// validation time on the shared maps. Range, length and orientation are always checked.
pub(crate) fn check_walls(
    walls: &Walls,
    checked: WallsChecked,
) -> Result<(WallIndex, PointGroups), BuildError> {
    if walls.segments.is_empty() && walls.points.is_empty() {
        // Nothing bounds anything: the obstacles covered the map (an unenclosed free
        // space has walls, which the Voronoi extraction finds open).
        return Err(BuildError::EmptyFreeSpace);
    }
    let max = SnapGrid::MAX_GRID_COORDINATE;
    let in_range = |p: GridPoint| p.x.abs() <= max && p.y.abs() <= max;
    let invalid = |sources: &[WallSource], problem| BuildError::InvalidWalls {
        sources: sources.to_vec(),
        problem,
    };
    for s in &walls.segments {
        for p in [s.a, s.b] {
            if !in_range(p) {
                return Err(invalid(&s.sources, WallProblem::OutOfRange { at: p }));
            }
        }
        if s.a == s.b {
            return Err(invalid(&s.sources, WallProblem::ZeroLength { at: s.a }));
        }
    }
    for (p, sources) in &walls.points {
        if !in_range(*p) {
            return Err(invalid(sources, WallProblem::OutOfRange { at: *p }));
        }
    }
    let grid = match checked {
        WallsChecked::Disjoint(grid) => grid,
        WallsChecked::No => match walls.check_disjoint_indexed() {
            Ok(grid) => grid,
            Err(WallConflict::ZeroLength { segment }) => {
                let s = &walls.segments[segment];
                return Err(invalid(&s.sources, WallProblem::ZeroLength { at: s.a }));
            }
            Err(WallConflict::SegmentsMeet { first, second }) => {
                let (s, t) = (&walls.segments[first], &walls.segments[second]);
                return Err(invalid(
                    &s.sources,
                    WallProblem::Crossing {
                        at: s.a,
                        other: t.sources.to_vec(),
                    },
                ));
            }
            Err(
                WallConflict::PointOnSegment { point, .. }
                | WallConflict::PointsCoincide { second: point, .. },
            ) => {
                let (p, sources) = &walls.points[point];
                return Err(invalid(sources, WallProblem::PointOnWall { at: *p }));
            }
        },
    };
    let ends = segment_ends(walls);
    check_orientation(walls, &ends)?;
    Ok((WallIndex::new(walls, grid), ends))
}

/// At every grid point, the one-sided walls around it must alternate between leaving and
/// arriving, so that each wedge between them is consistently free or blocked.
///
/// Most grid points are the ends of exactly two walls, where alternating just means one
/// leaves and one arrives; only the points with more ends are sorted by angle. When
/// several points are bad, the smallest (by `GridPoint` order) is reported.
fn check_orientation(walls: &Walls, ends: &PointGroups) -> Result<(), BuildError> {
    // (point, leaving?, segment) of the one-sided walls ending at one point.
    let mut group: Vec<(GridPoint, bool, u32)> = Vec::new();
    let mut around: Vec<(GridPoint, bool, u32)> = Vec::new();
    let angle = |&(p, leaving, i): &(GridPoint, bool, u32)| {
        let s = &walls.segments[i as usize];
        let other = if leaving { s.b } else { s.a };
        ((other.y - p.y) as f64).atan2((other.x - p.x) as f64)
    };
    let mut worst: Option<(GridPoint, u32)> = None;
    for g in 0..ends.len() {
        let p = ends.point(g);
        if worst.is_some_and(|(q, _)| q < p) {
            continue;
        }
        // Item `2i` is segment i's end `a`, where it leaves.
        let one_sided = |end: u32| {
            let i = end / 2;
            (!walls.segments[i as usize].two_sided).then_some((p, end.is_multiple_of(2), i))
        };
        // The one-sided ends are counted first (and the leaving ones among them): two of
        // them alternate when exactly one leaves, and the list is made only when more
        // than two must be sorted or a bad point must be named.
        let (mut n, mut leaving) = (0usize, 0usize);
        for &end in ends.group(g) {
            if let Some((_, leaves, _)) = one_sided(end) {
                n += 1;
                leaving += usize::from(leaves);
            }
        }
        let fill = |group: &mut Vec<(GridPoint, bool, u32)>| {
            group.clear();
            group.extend(ends.group(g).iter().filter_map(|&end| one_sided(end)));
        };
        let bad = match n {
            0 => false,
            2 => leaving != 1,
            _ if n % 2 == 1 => true,
            _ => {
                fill(&mut group);
                around.clear();
                around.extend_from_slice(&group);
                around.sort_by(|x, y| angle(x).total_cmp(&angle(y)));
                (0..n).any(|k| around[k].1 == around[(k + 1) % n].1)
            }
        };
        if bad {
            fill(&mut group);
            // Name the first wall counter-clockwise from the positive x axis.
            let first = group
                .iter()
                .min_by(|x, y| angle(x).total_cmp(&angle(y)).then(x.2.cmp(&y.2)))
                .map_or(0, |e| e.2);
            worst = Some((p, first));
        }
    }
    match worst {
        None => Ok(()),
        Some((at, first)) => Err(BuildError::InvalidWalls {
            sources: walls.segments[first as usize].sources.to_vec(),
            problem: WallProblem::Orientation { at },
        }),
    }
}

/// Runs every check on a finished ECM against the walls it was built from; `free_twice` is
/// their [`free_area_twice`] (computed once by the caller).
pub(crate) fn validate(
    ecm: &Ecm,
    walls: &Walls,
    free_twice: i128,
    index: &mut WallIndex,
) -> Result<(), ValidationFailure> {
    let scale = ecm.grid.scale();
    let extent = index.extent;
    let tol = tolerance(extent);
    let g = |p: Point| p * scale;
    let fail = |kind, at: Point, sources| ValidationFailure {
        kind,
        position: at,
        sources,
    };
    let nearest_sources = |index: &WallIndex, p: Point| {
        index
            .nearest(g(p))
            .map(|(w, _)| sources_of(walls, w))
            .unwrap_or_default()
    };
    let mut cells = 0.0;
    let area_scale = scale * scale;
    let smaller = |a: f64, b: f64| if a < b { a } else { b };
    let larger = |a: f64, b: f64| if a > b { a } else { b };
    // The closer-wall check gathers the walls near a run of consecutive bending points
    // with one bucket-grid query (their discs' boxes together, kept at most twice the
    // largest single box so the candidate list stays short) instead of one per point.
    let mut candidates = Candidates::default();
    // A query box grown by a grid step, so that rounding cannot leave out a wall whose
    // distance is just under the radius.
    let margin = 1.0 + tol;
    // Each bending point in grid coordinates with its distances to its two nearest
    // points, computed once per point (a run used to compute them again for the points
    // it grew over; the same operations, so the same values).
    let mut measured: Vec<(Point, f64, f64)> = Vec::new();
    // By vertex slot: a point there (grid coordinates) and a radius within which the
    // closer-wall check found no wall around it.
    let mut at_vertex: Vec<(Point, f64)> = Vec::new();
    let same_point =
        |p: Point, q: Point| p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits();
    for (_, edge) in ecm.edges() {
        let bps = &edge.bending_points;
        measured.clear();
        measured.extend(bps.iter().map(|b| {
            let q = g(b.position);
            (q, q.distance(g(b.left)), q.distance(g(b.right)))
        }));
        // The bending points before `covered_to`, from the one that started the current
        // run, have their discs inside the box of the current `candidates`.
        let mut covered_to = 0;
        for (k, (bp, &(q, dl, dr))) in bps.iter().zip(&measured).enumerate() {
            // Written so that a NaN coordinate fails too.
            if !at_most((dl - dr).abs(), tol) {
                let mut sources = nearest_sources(index, bp.left);
                sources.extend(nearest_sources(index, bp.right));
                return Err(fail(
                    FailureKind::NotEquidistant {
                        left: dl,
                        right: dr,
                    },
                    bp.position,
                    sources,
                ));
            }
            // Neither is NaN here: the minimum by one comparison.
            let clearance = smaller(dl, dr);
            if clearance > tol {
                // An end of the edge is at a vertex, which the other edges there also
                // end at. If one of them has already passed this check at the same
                // point (bit for bit) with a radius at least this one, this point
                // passes too, with the same answer `closer_among` would give: that
                // check saw every wall that could be closer than its radius (its query
                // box held the disc's box) and found none whose computed distance was
                // below it, and the same point gives the same computed distances. The
                // vertex's slot (the low half of its key) only says where to look; the
                // point itself is compared. On the shared maps about 60 % of the edge
                // ends are skipped this way (den520d: 1,475 of 2,444).
                let end = if k == 0 {
                    Some(edge.start)
                } else if k + 1 == bps.len() {
                    Some(edge.end)
                } else {
                    None
                };
                let slot = end.map(slot);
                let radius = clearance - tol;
                if let Some(slot) = slot {
                    if let Some(&(p, r)) = at_vertex.get(slot) {
                        if same_point(p, q) && radius <= r {
                            continue;
                        }
                    }
                }
                let (disc_lo, disc_hi) = disc_box(q, clearance, margin);
                let large = index.is_large(disc_lo, disc_hi);
                if !large && k >= covered_to {
                    // Grow a run from `k` while the union box stays small.
                    let (mut lo, mut hi) = (disc_lo, disc_hi);
                    let mut largest = (hi[0] - lo[0]) * (hi[1] - lo[1]);
                    covered_to = k + 1;
                    for &(p, pl, pr) in &measured[k + 1..] {
                        // Minima and maxima by one comparison each (no NaN fix-ups). A
                        // NaN coordinate makes the union box NaN, which ends the run; a
                        // NaN distance may leave that point's own disc out of the box,
                        // which is harmless: the point fails equidistance before its
                        // closer-wall check, and the points after it are never reached.
                        // Without NaN these are the values of `f64::min` and `f64::max`
                        // (up to the sign of a zero, which nothing here can tell).
                        let c = smaller(pl, pr);
                        let (l, h) = disc_box(p, larger(c, 0.0), margin);
                        if index.is_large(l, h) {
                            break;
                        }
                        let nlo = [smaller(lo[0], l[0]), smaller(lo[1], l[1])];
                        let nhi = [larger(hi[0], h[0]), larger(hi[1], h[1])];
                        let big = larger((h[0] - l[0]) * (h[1] - l[1]), largest);
                        if !at_most((nhi[0] - nlo[0]) * (nhi[1] - nlo[1]), 2.0 * big) {
                            break;
                        }
                        (lo, hi, largest) = (nlo, nhi, big);
                        covered_to += 1;
                    }
                    // Walls whose boxes miss the run's box are dropped once for the
                    // run instead of once per bending point. No wall meeting a disc's
                    // box is dropped, so the answers are the same.
                    index.walls_meeting(lo, hi, &mut candidates);
                }
                let closer = if large {
                    index.closer_by_tree(q, radius)
                } else {
                    closer_among(index, &candidates, q, radius, extent)
                };
                if let Some((wall, distance)) = closer {
                    return Err(fail(
                        FailureKind::CloserWall {
                            clearance,
                            distance,
                        },
                        bp.position,
                        sources_of(walls, wall),
                    ));
                }
                if let Some(slot) = slot {
                    if slot >= at_vertex.len() {
                        at_vertex.resize(slot + 1, (Point::new(f64::NAN, f64::NAN), 0.0));
                    }
                    let kept = &mut at_vertex[slot];
                    if !same_point(kept.0, q) || radius > kept.1 {
                        *kept = (q, radius);
                    }
                }
            }
        }
        for side in [crate::Side::Left, crate::Side::Right] {
            for w in bps.windows(2) {
                // The piece `a, b, b.left, a.left` (left) or `a, a.right, b.right, b`
                // (right) as in `cell_piece`, without allocating: repeated points add
                // exact zeros to the fan from the first point, so the area is the same.
                let (a, b) = (&w[0], &w[1]);
                let piece = match side {
                    crate::Side::Left => [a.position, b.position, b.left, a.left],
                    crate::Side::Right => [a.position, a.right, b.right, b.position],
                };
                let area = signed_area(&piece) * area_scale;
                // A piece may be flat; it must not be turned over by more than rounding.
                if area < 0.0 {
                    let size = piece
                        .iter()
                        .map(|p| g(*p).distance(g(piece[0])))
                        .fold(0.0, f64::max);
                    if area < -tol * size.max(1.0) {
                        return Err(fail(
                            FailureKind::InvertedCell { area },
                            piece[0],
                            nearest_sources(index, piece[0]),
                        ));
                    }
                }
                cells += area;
            }
        }
    }
    for (id, v) in ecm.vertices() {
        let d = v.degree();
        // Degree 2 only for the single vertex of a closed loop: one edge, both ends here.
        let lone_loop = d == 2
            && v.edges[0] == v.edges[1]
            && ecm
                .edge(v.edges[0])
                .is_some_and(|e| e.start == id && e.end == id);
        if d == 0 || (d == 2 && !lone_loop) {
            return Err(fail(
                FailureKind::Degree { degree: d },
                v.position,
                nearest_sources(index, v.position),
            ));
        }
    }
    let free = free_twice as f64 * 0.5;
    if !at_most((cells - free).abs(), 1e-9 * free.abs().max(1.0) + tol) {
        return Err(fail(
            FailureKind::AreaMismatch { cells, free },
            Point::ZERO,
            Vec::new(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::WallSegment;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The filtered scan of `closer_among` reports exactly the first wall (in candidate
    /// order) that the plain distance test reports, also for radii at or next to the
    /// distance of a wall and for walls whose box is near while the wall is not
    /// (diagonals).
    #[test]
    fn closer_among_agrees_with_the_plain_scan() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        for round in 0..200 {
            let span = if round % 2 == 0 { 40 } else { 400_000_000 };
            let point = |rng: &mut ChaCha8Rng| {
                GridPoint::new(
                    rng.random_range(-span..=span),
                    rng.random_range(-span..=span),
                )
            };
            let segments: Vec<WallSegment> = (0..12)
                .filter_map(|_| {
                    let (a, b) = (point(&mut rng), point(&mut rng));
                    (a != b).then(|| WallSegment {
                        a,
                        b,
                        two_sided: true,
                        sources: [WallSource::Boundary].into(),
                    })
                })
                .collect();
            let walls = Walls {
                grid: SnapGrid::new(1.0).unwrap(),
                segments,
                ..Walls::default()
            };
            let ends: Vec<_> = walls.wall_ends().collect();
            let mut index = WallIndex::new(&walls, SegmentGrid::new(&ends));
            let extent = extent(&walls);
            assert_eq!(index.extent, extent);
            let mut candidates = Candidates::default();
            for _ in 0..200 {
                let q = Point::new(
                    rng.random_range(-1.2..1.2) * span as f64,
                    rng.random_range(-1.2..1.2) * span as f64,
                );
                let distances: Vec<f64> = index.entries.iter().map(|e| e.distance(q)).collect();
                let pick = distances[rng.random_range(0..distances.len())];
                for radius in [
                    pick,
                    pick.next_up(),
                    pick.next_down(),
                    pick * (1.0 + 1e-13),
                    rng.random_range(0.0..1.5) * span as f64,
                ] {
                    let (lo, hi) = disc_box(q, radius, 1.0);
                    index.walls_meeting(lo, hi, &mut candidates);
                    // Every wall that comes into the disc of the query box is a candidate
                    // (the bucket grid lists a segment under the buckets it passes, so a
                    // wall whose box meets the query box but which passes outside it may
                    // be left out; the closer-wall check needs only the walls in the disc).
                    for (i, &d) in distances.iter().enumerate() {
                        assert!(
                            d >= radius + 1.0
                                || candidates.items.iter().any(|k| k.id as usize == i),
                            "wall {i} at {d} missing, q {q:?}, radius {radius}"
                        );
                    }
                    let plain = candidates.items.iter().find_map(|c| {
                        let d = distances[c.id as usize];
                        (d < radius).then_some((c.id, d))
                    });
                    let filtered = closer_among(&index, &candidates, q, radius, extent).map(
                        |(w, d)| match w {
                            WallRef::Segment(i) | WallRef::Point(i) => (i, d),
                        },
                    );
                    assert_eq!(filtered, plain, "q {q:?}, radius {radius}");
                }
            }
        }
    }
}
