//! Which walls are near a point? The wall index that validation asks: every wall in a
//! bucket grid (and, for discs expected to meet many walls, an R-tree searched for the
//! disc), with the exact distances that decide whether a wall is closer than an ECM
//! vertex's nearest obstacles.

use corridor_geom::{GridMarks, GridPoint, PackedTree, Point, SegmentGrid, WallSource, Walls};
use std::sync::OnceLock;

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
    /// The largest absolute coordinate of the walls (what [`super::tolerance`] is of), found
    /// while indexing them.
    pub(super) extent: f64,
    grid: SegmentGrid,
    /// Walls per unit of area of the walls' box (grid units): how many a query box is
    /// expected to meet, to choose between the bucket grid and [`WallIndex::tree`].
    density: f64,
    /// A packed R-tree of the walls for the disc searches, built on the first disc too
    /// large for the bucket grid (see [`WallIndex::is_large`]; never on the game maps),
    /// and the walls kept out of it for their length (see [`long_walls`]), checked one by
    /// one before the tree search. Built once for all threads.
    tree: OnceLock<DiscTree>,
}

/// The R-tree of [`WallIndex::closer_by_tree`]: a [`PackedTree`] of the walls' boxes but
/// the long ones, the wall of each of its entries, and the long walls. One Hilbert sort
/// to build and a walk without a stack: an `rstar` tree's bulk load and generic walk took
/// 3.2 times the instructions on the 5k pillar row (261 M against 80 M in 3 builds).
struct DiscTree {
    tree: PackedTree,
    /// The wall number of each tree entry.
    walls: Vec<u32>,
    long: Vec<u32>,
}

/// Walls a query box may be expected to meet before the closer-wall check asks the
/// R-tree for the nearest walls instead of scanning the box's walls.
const LARGE_QUERY: f64 = 256.0;
/// Bucket entries a query box may list before [`WallIndex::is_large`] calls it large
/// whatever the densities say: walls on a line (a row of pillars) are far denser near it
/// than the mean, and a disc box that reaches along the row listed up to a thousand of
/// them at 5,000 pillars, for every run of bending points (two thirds of the row's
/// validation instructions once the tree search was cheap).
const LARGE_LISTING: usize = 512;
/// Walls a query box must be expected to meet (by the mean density) before its bucket
/// listing is counted for [`LARGE_LISTING`]: counting costs a step per row of buckets,
/// 2.6 % of the instructions of den520d and Aurora when every disc was counted.
const LISTING_WORTH: f64 = 16.0;
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
            tree: OnceLock::new(),
        }
    }

    /// Whether a query box is expected to meet more than [`LARGE_QUERY`] walls (by the
    /// walls' mean density; or more than [`OBSERVED_LARGE_QUERY`] by the density the last
    /// bucket query into `last` met): then scanning its walls for each bending point would make
    /// validation quadratic (a row of pillars facing open space, whose discs reach far
    /// along the row), and [`WallIndex::closer_by_tree`] answers instead.
    pub(super) fn is_large(&self, last: &Candidates, lo: [f64; 2], hi: [f64; 2]) -> bool {
        let area = (hi[0] - lo[0]) * (hi[1] - lo[1]);
        // The density met by the last bucket query is trusted only for a much larger
        // query: near walls it overstates what a slightly larger disc meets (on Aurora,
        // trusting it as the mean density doubled the validation time).
        let expected = area * self.density;
        expected > LARGE_QUERY
            || area * last.observed > OBSERVED_LARGE_QUERY
            || (expected > LISTING_WORTH
                && self
                    .grid
                    .listed_in_box(grid_corner(lo, down), grid_corner(hi, up))
                    > LARGE_LISTING)
    }

    /// The answer of [`closer_among`] over all walls (a wall strictly closer than
    /// `radius` to `q`, if any) from the R-tree: a depth-first search that opens only
    /// the nodes whose boxes come within `radius` grown by the margin of
    /// [`closer_among`]'s box filter (10⁻¹² of the coordinates and radius, thousands of
    /// units in the last place, far beyond the rounding of a box's distance), and stops
    /// at the first wall closer than `radius`. It asks whether the disc is empty, not
    /// which wall is nearest: a nearest-first search kept a heap of the nodes around a
    /// point far above a row of pillars, which are all nearly as far as the radius, and
    /// took 5–10 µs per bending point there (the pillar rows' validation was 3× their
    /// Voronoi time). The same computed distances are compared as by [`closer_among`],
    /// so the check passes or fails alike; on failure it may name another of the closer
    /// walls.
    pub(super) fn closer_by_tree(&self, q: Point, radius: f64) -> Option<(WallRef, f64)> {
        let margin = 1e-12 * (self.extent + q.x.abs() + q.y.abs() + radius.abs());
        let entries = &self.entries;
        let DiscTree { tree, walls, long } = self.tree.get_or_init(|| {
            let long = long_walls(entries);
            let mut walls = Vec::with_capacity(entries.len() - long.len());
            let mut boxes = Vec::with_capacity(entries.len() - long.len());
            let mut next_long = long.iter().peekable();
            for (i, (_, c)) in self.corners.iter().enumerate() {
                if next_long.next_if_eq(&&(i as u32)).is_none() {
                    walls.push(i as u32);
                    boxes.push([c[0], c[1], -c[2], -c[3]]);
                }
            }
            DiscTree {
                tree: PackedTree::new(&boxes),
                walls,
                long,
            }
        });
        let closer = |id: u32| {
            let d = entries[id as usize].distance(q);
            (d < radius).then_some((id, d))
        };
        let stop_2 = (radius + margin) * (radius + margin);
        // A box (`[min x, min y, max x, max y]`) is opened when its distance from `q` is
        // at most `radius + margin`; a NaN point or radius makes `stop_2` NaN, and then
        // nothing is opened.
        let near = |b: &[f64; 4]| {
            let dx = (b[0] - q.x).max(q.x - b[2]).max(0.0);
            let dy = (b[1] - q.y).max(q.y - b[3]).max(0.0);
            dx * dx + dy * dy <= stop_2
        };
        let found = long.iter().find_map(|&id| closer(id)).or_else(|| {
            tree.boxes_where(near)
                .find_map(|entry| closer(walls[entry as usize]))
        });
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
    pub(super) fn nearest(&self, q: Point) -> Option<(WallRef, f64)> {
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
    pub(super) fn walls_meeting(&self, lo: [f64; 2], hi: [f64; 2], out: &mut Candidates) {
        // A wall box misses the query box if `min x > hi x`, `min y > hi y`, `-max x >
        // -lo x` or `-max y > -lo y`; [`any_above`] on the rounded values implies one
        // of these (false if anything is NaN, so that nothing is dropped on NaN).
        let t = [hi[0], hi[1], -lo[0], -lo[1]].map(|v| v as f32);
        let corners = &self.corners;
        out.items.clear();
        let area = (hi[0] - lo[0]) * (hi[1] - lo[1]);
        // The box test comes before the bucket grid's "already seen" mark: about half
        // the walls listed are dropped by it, and then cost no mark.
        let items = &mut out.items;
        self.grid.for_each_meeting_box_marked(
            &mut out.marks,
            grid_corner(lo, down),
            grid_corner(hi, up),
            |i| !any_above(&corners[i as usize].0, &t),
            |i| {
                let c = &corners[i as usize];
                items.push(Candidate {
                    corner32: c.0,
                    id: i,
                    corner: c.1,
                });
            },
        );
        if area > 0.0 {
            out.observed = out.items.len() as f64 / area;
        }
    }
}

/// The walls near a run of bending points, with their boxes copied out beside their
/// numbers so that the per-point scan reads one record after the other (no look-up
/// through the wall number, one push per wall). A box is kept as `[min x, min y,
/// -max x, -max y]`, so that all four "at least `radius` away" tests are one comparison
/// of the same kind each. One per thread (or per validation chunk, see
/// [`Candidates::forget_density`]), with the bucket grid's marks for its queries.
#[derive(Default)]
pub(super) struct Candidates {
    items: Vec<Candidate>,
    /// Walls per unit of area met by the last bucket-grid query: walls bunch (a row of
    /// pillars holds all of them on one line), so the mean density can be far below the
    /// density near the bending points being checked.
    observed: f64,
    /// What the current bucket-grid query has already listed.
    marks: GridMarks,
}

/// One candidate wall: its box rounded (see [`Corner32`]), its number, and its box.
struct Candidate {
    corner32: Corner32,
    id: u32,
    corner: Corner,
}

impl Candidates {
    /// Starts afresh as if no query had been made (the density observed by the last
    /// query steers [`WallIndex::is_large`], so that each validation chunk decides alike
    /// whichever thread checked what before).
    pub(super) fn forget_density(&mut self) {
        self.observed = 0.0;
    }
}

/// A wall among `candidates` strictly closer than `radius` to `q`, if any (the first in
/// their order). Any wall closer than `radius` to `q` must be among the candidates (their
/// query box must contain the box of the disc of that radius around `q`). `extent` is
/// the walls' largest absolute coordinate; it sizes the rounding margin of the
/// box-distance test.
pub(super) fn closer_among(
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

/// `floor` by truncation and a correction (`f64::floor` is a library call without
/// SSE4.1): the same values, saturated alike (`as` saturates; past ±2⁵² every `f64` is an
/// integer, converted exactly); NaN goes to `i64::MIN`.
fn down(v: f64) -> i64 {
    if v.is_nan() {
        return i64::MIN;
    }
    let t = v as i64;
    if (t as f64) > v {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// `ceil` as [`down`] is `floor`; NaN goes to `i64::MAX`.
fn up(v: f64) -> i64 {
    if v.is_nan() {
        return i64::MAX;
    }
    let t = v as i64;
    if (t as f64) < v {
        t.saturating_add(1)
    } else {
        t
    }
}

/// A query corner rounded to the integer grid by `round` ([`down`] or [`up`]), so that a
/// NaN corner makes the query the whole plane.
fn grid_corner(p: [f64; 2], round: fn(f64) -> i64) -> [i64; 2] {
    [round(p[0]), round(p[1])]
}

/// The box of the disc of radius `r` around `q`, grown by `margin`.
pub(super) fn disc_box(q: Point, r: f64, margin: f64) -> ([f64; 2], [f64; 2]) {
    let r = r + margin;
    ([q.x - r, q.y - r], [q.x + r, q.y + r])
}

pub(super) fn sources_of(walls: &Walls, wall: WallRef) -> Vec<WallSource> {
    match wall {
        WallRef::Segment(i) => walls.segments[i as usize].sources.to_vec(),
        WallRef::Point(i) => walls.points[i as usize].1.clone(),
    }
}

/// Most walls [`long_walls`] keeps out of the R-tree.
const MOST_LONG_WALLS: usize = 32;

/// The walls (in order) whose box is at least an eighth of the walls' box along an axis,
/// if there are at most [`MOST_LONG_WALLS`] of them; none otherwise. A long wall's box
/// covers much of the map, so every node above it in the R-tree does too and is opened
/// by every disc search: the outer walls of a map with a row of pillars across open
/// space made each search open the nodes of walls far along the row (4,500 instructions
/// per bending point). Checked one by one instead, they cost a distance each.
fn long_walls(entries: &[WallEntry]) -> Vec<u32> {
    let span = |w: &WallEntry| [(w.a.x - w.b.x).abs(), (w.a.y - w.b.y).abs()];
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for w in entries {
        for p in [w.a, w.b] {
            lo = [lo[0].min(p.x), lo[1].min(p.y)];
            hi = [hi[0].max(p.x), hi[1].max(p.y)];
        }
    }
    let limit = [(hi[0] - lo[0]) / 8.0, (hi[1] - lo[1]) / 8.0];
    let long: Vec<u32> = (0..entries.len() as u32)
        .filter(|&i| {
            let s = span(&entries[i as usize]);
            s[0] >= limit[0] || s[1] >= limit[1]
        })
        .take(MOST_LONG_WALLS + 1)
        .collect();
    if long.len() > MOST_LONG_WALLS {
        Vec::new()
    } else {
        long
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use corridor_geom::{SnapGrid, WallSegment};
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
            let index = WallIndex::new(&walls, SegmentGrid::new(&ends));
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
                    // The R-tree's disc search finds a closer wall exactly when the
                    // scan does (it may name another one).
                    let by_tree = index.closer_by_tree(q, radius);
                    assert_eq!(
                        by_tree.is_some(),
                        plain.is_some(),
                        "q {q:?}, radius {radius}"
                    );
                    assert!(by_tree.is_none_or(|(_, d)| d < radius));
                }
            }
        }
    }
}
