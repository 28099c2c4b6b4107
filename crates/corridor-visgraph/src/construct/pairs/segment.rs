//! Is the open segment between two vertices free? The segment test of the pair
//! construction: only the walls of the grid cells along the segment (or of the obstacles
//! whose cones hold its direction) are tested, and it stops at the first proper crossing.

use super::cones::ConeView;
use super::obstacles::{Obstacles, WallEnds, NONE};
use corridor_geom::free_space::FreeSpace;
use corridor_geom::free_space::{along_ray_cmp, Arrival, Place, Walk};
use corridor_geom::free_space::{Dir, BOTH};
use corridor_geom::{orient, point_on_segment, Orientation, Point};

/// The sign of `orient(p, q, y)` from `n = q − p` (rounded once per segment) when the
/// rounded determinant `n × (y − p)` decides it (Shewchuk's stage-A bound, pivot `p`),
/// else 0: exactly 0 when `y` is `p` or `q`, otherwise perhaps undecided. No branches.
#[inline(always)]
pub(super) fn quick_side(p: Point, n: Point, y: Point) -> i32 {
    const BOUND: f64 = 3.330_669_073_875_471_6e-16;
    let left = n.x * (y.y - p.y);
    let right = n.y * (y.x - p.x);
    let det = left - right;
    let bound = BOUND * (left.abs() + right.abs());
    (det > bound) as i32 - (-det > bound) as i32
}

/// One segment `p q` between vertices `v` and `x` under test, with what every wall test
/// needs (`n = q − p` rounded once; `lo`, `hi` the segment's bounding box).
pub(super) struct Probe {
    p: Point,
    q: Point,
    n: Point,
    v: u32,
    x: u32,
    lo: Point,
    hi: Point,
}

/// What one wall does to the segment.
pub(super) enum WallVerdict {
    /// It crosses the segment properly: blocked.
    Crosses,
    /// Anything else (vertices of it strictly inside the segment are noted).
    Passes,
}

impl Probe {
    /// Whether `wall` certainly neither crosses the segment nor has a vertex strictly
    /// inside it: its box misses the segment's, or both its ends are strictly on one
    /// side of the line (or at `p` / `q`). Branch-free: most walls are dismissed here,
    /// and which ones is hard to predict.
    #[inline(always)]
    pub(super) fn dismisses(&self, wall: &WallEnds) -> bool {
        let (sa, sb) = (
            quick_side(self.p, self.n, wall.a),
            quick_side(self.p, self.n, wall.b),
        );
        self.dismisses_sided(wall.a, wall.b, wall.ia, wall.ib, sa, sb)
    }

    /// [`Probe::dismisses`] for the wall `a b` (vertices `ia`, `ib`) with its ends'
    /// [`quick_side`]s known.
    #[inline(always)]
    pub(super) fn dismisses_sided(
        &self,
        a: Point,
        b: Point,
        ia: u32,
        ib: u32,
        sa: i32,
        sb: i32,
    ) -> bool {
        let (lo, hi) = (self.lo, self.hi);
        let off_box = (a.x < lo.x) & (b.x < lo.x)
            | (a.x > hi.x) & (b.x > hi.x)
            | (a.y < lo.y) & (b.y < lo.y)
            | (a.y > hi.y) & (b.y > hi.y);
        // A 0 at a wall end that is `p` or `q` is exact; elsewhere it may be.
        let (v, x) = (self.v, self.x);
        let unsure = (sa == 0) & (ia != v) & (ia != x) | (sb == 0) & (ib != v) & (ib != x);
        off_box | !(unsure | (sa * sb < 0))
    }

    /// The exact test of one wall not [`Probe::dismisses`]ed: a proper crossing, or
    /// its vertices strictly inside the segment pushed to `inside`.
    pub(super) fn examine(&self, wall: &WallEnds, inside: &mut Vec<u32>) -> WallVerdict {
        let (p, q, v, x) = (self.p, self.q, self.v, self.x);
        // Points are interned: a wall end is at `p` exactly when it is vertex `v`. A wall
        // end at `p` or `q` is collinear there (no need to ask).
        let side = |y: Point, id: u32| {
            if id == v || id == x {
                Orientation::Collinear
            } else {
                orient(p, q, y)
            }
        };
        let (a, b) = (wall.a, wall.b);
        let (oa, ob) = (side(a, wall.ia), side(b, wall.ib));
        if opposite(oa, ob) {
            if opposite(orient(a, b, p), orient(a, b, q)) {
                return WallVerdict::Crosses;
            }
            return WallVerdict::Passes;
        }
        for (id, y, o) in [(wall.ia, a, oa), (wall.ib, b, ob)] {
            if o == Orientation::Collinear && id != v && id != x && point_on_segment(y, p, q) {
                inside.push(id);
            }
        }
        WallVerdict::Passes
    }
}

/// Scratch space for segment tests over one free space.
pub(super) struct SegmentTester<'a> {
    fs: &'a FreeSpace,
    /// Per wall.
    walls: Vec<WallEnds>,
    pub(super) obstacles: Obstacles,
    /// CSR: the walls of small obstacle `c` are
    /// `small_walls[small_start[c]..small_start[c + 1]]`.
    small_start: Vec<u32>,
    small_walls: Vec<WallEnds>,
    /// The walls of the other obstacles per grid cell (looked at along the segment
    /// when the cones are used), and every wall per grid cell (when not).
    large_slots: GridSlots,
    all_slots: GridSlots,
    /// The small obstacles' cones from vertex `view_of` (`NONE`: not set yet).
    view: ConeView,
    view_of: u32,
    /// A box holding every segment tested from `view_of` (see
    /// [`SegmentTester::use_cones`]).
    region: (Point, Point),
    /// Whether the free space has thin walls (two-sided ones).
    thin_walls: bool,
    /// Whether to use the cones for the current row of pairs (see
    /// [`SegmentTester::use_cones`]).
    cones: bool,
    wall_mark: Vec<u32>,
    stamp: u32,
    inside: Vec<u32>,
}

impl<'a> SegmentTester<'a> {
    /// Whether the next segment tests (a row of pairs from one vertex) use the small
    /// obstacles' cones from that vertex ([`super::cones`]) or the grid for all walls.
    /// The cones cost a set-up per vertex, O(obstacles); rows with few candidate pairs
    /// walk the grid instead (see [`CONE_ROW`](super::obstacles::CONE_ROW)).
    ///
    /// `region` (lower and upper corner) holds every segment tested until the next call:
    /// obstacles outside it are left out of the cones.
    pub(super) fn use_cones(&mut self, cones: bool, region: (Point, Point)) {
        self.cones = cones;
        self.region = region;
        self.view_of = NONE;
    }

    pub(super) fn new(fs: &'a FreeSpace) -> Self {
        let obstacles = Obstacles::new(fs);
        let walls: Vec<WallEnds> = fs
            .walls
            .iter()
            .enumerate()
            .map(|(id, w)| WallEnds {
                a: fs.points[w.a as usize],
                b: fs.points[w.b as usize],
                ia: w.a,
                ib: w.b,
                id: id as u32,
                obstacle: obstacles.of[w.a as usize],
            })
            .collect();
        let small = obstacles.small;
        // Small obstacles' walls, obstacle after obstacle.
        let mut small_start = vec![0u32; small + 1];
        for w in &walls {
            if (w.obstacle as usize) < small {
                small_start[w.obstacle as usize + 1] += 1;
            }
        }
        for c in 0..small {
            small_start[c + 1] += small_start[c];
        }
        let mut fill = small_start.clone();
        let mut small_walls = walls.clone();
        small_walls.truncate(small_start[small] as usize);
        for w in &walls {
            if (w.obstacle as usize) < small {
                let slot = &mut fill[w.obstacle as usize];
                small_walls[*slot as usize] = *w;
                *slot += 1;
            }
        }
        // Walls of enclosing obstacles are never looked at.
        let enclosing = &obstacles.enclosing;
        let large_slots = GridSlots::new(fs, &walls, |w| {
            w.obstacle as usize >= small && !enclosing[w.obstacle as usize]
        });
        let all_slots = GridSlots::new(fs, &walls, |w| !enclosing[w.obstacle as usize]);
        SegmentTester {
            fs,
            view: ConeView::new(small),
            view_of: NONE,
            walls,
            obstacles,
            small_start,
            small_walls,
            large_slots,
            all_slots,
            cones: true,
            region: (Point::splat(f64::NEG_INFINITY), Point::splat(f64::INFINITY)),
            thin_walls: fs.walls.iter().any(|w| w.two_sided),
            wall_mark: vec![0; fs.walls.len()],
            stamp: 0,
            inside: Vec::new(),
        }
    }

    /// Whether the open segment between vertices `v` and `x` is free, and if so what a
    /// path along it must agree with side-wise, for each direction (`v → x`, `x → v`).
    /// Equal to [`crate::construct::naive::visibility`] both ways.
    ///
    /// Walls looked at: those of the small obstacles whose cone from `v`
    /// ([`super::cones`]) holds the segment's direction and whose box meets the
    /// segment's, and those of the other obstacles in the grid cells along the segment.
    /// The walls of the obstacle at `x` are skipped when the segment reaches `x` from
    /// strictly outside its obstacle's hull ([`HullCorner::skipped_towards`](super::obstacles::HullCorner::skipped_towards)), and so
    /// are those of a large obstacle at `v`; those of an obstacle enclosing every vertex
    /// ([`Obstacles::encloses_all`]) never.
    ///
    /// `hint` is a wall to try first (the one that blocked the previous segment from
    /// `v`: consecutive candidates often end on one obstacle and are blocked by the same
    /// wall); it is updated to this segment's blocker. Only an exact proper crossing
    /// counts, so the hint changes the speed, never the answer.
    pub(super) fn visibility(
        &mut self,
        v: u32,
        x: u32,
        hint: &mut u32,
    ) -> (Option<Arrival>, Option<Arrival>) {
        let fs = self.fs;
        let (p, q) = (fs.points[v as usize], fs.points[x as usize]);
        let n = q - p;
        let probe = Probe {
            p,
            q,
            n,
            v,
            x,
            lo: Point::new(p.x.min(q.x), p.y.min(q.y)),
            hi: Point::new(p.x.max(q.x), p.y.max(q.y)),
        };
        if let Some(w) = self.walls.get(*hint as usize) {
            if !probe.dismisses(w) {
                if let WallVerdict::Crosses = probe.examine(w, &mut self.inside) {
                    return (None, None);
                }
            }
        }
        self.inside.clear();
        let nl = n.x.abs() + n.y.abs();
        // Rounding is symmetric: the direction back is exactly `-n`. (`NONE - 1` matches
        // no obstacle.)
        let skip_x = self.obstacles.corners[x as usize].skipped_towards(-n, nl);
        if self.cones {
            if self.view_of != v {
                let obstacles = &self.obstacles;
                let region = self.region;
                self.view.set(|c| obstacles.cone_from(v, p, c, region));
                self.view_of = v;
            }
            let (view, inside) = (&self.view, &mut self.inside);
            let (lo, hi) = (probe.lo, probe.hi);
            for &c in view.bin(n).iter().chain(&view.always) {
                let c = c as usize;
                let (olo, ohi) = (self.obstacles.lo[c], self.obstacles.hi[c]);
                let off_box = (ohi.x < lo.x) | (olo.x > hi.x) | (ohi.y < lo.y) | (olo.y > hi.y);
                if off_box | (c as u32 == skip_x) || view.cones[c].excludes(n, nl) {
                    continue;
                }
                let walls = self.small_start[c] as usize..self.small_start[c + 1] as usize;
                for wall in &self.small_walls[walls] {
                    if probe.dismisses(wall) {
                        continue;
                    }
                    if let WallVerdict::Crosses = probe.examine(wall, inside) {
                        *hint = wall.id;
                        return (None, None);
                    }
                }
            }
        }
        // The grid: every obstacle without cones, the large ones with.
        let grid = if self.cones {
            &self.large_slots
        } else {
            &self.all_slots
        };
        let skip_v = self.obstacles.corners[v as usize].skipped_towards(n, nl);
        let walk = grid_walk(
            fs,
            &probe,
            grid,
            skip_v,
            skip_x,
            &mut self.wall_mark,
            &mut self.stamp,
            &mut self.inside,
        );
        if let Err(blocker) = walk {
            *hint = blocker;
            return (None, None);
        }
        if self.inside.is_empty() {
            // Nothing on the way: the arrival depends only on whether the segment is a
            // thin wall, the same both ways (with no thin walls, free on both sides).
            let arrival = if self.thin_walls {
                Walk::new(fs, Place::Vertex(v), Dir::away_from(p)).arrive(Place::Vertex(x))
            } else {
                Arrival {
                    centre_sides: BOTH,
                    end_sides: BOTH,
                    joint: false,
                }
            };
            return (Some(arrival), Some(arrival));
        }
        self.inside.sort_unstable_by(|&u, &w| {
            along_ray_cmp(p, fs.points[u as usize], fs.points[w as usize])
        });
        self.inside.dedup();
        let walk = |from: u32, to: u32, on_the_way: &mut dyn Iterator<Item = u32>| {
            let mut walk = Walk::new(
                fs,
                Place::Vertex(from),
                Dir::away_from(fs.points[from as usize]),
            );
            for u in on_the_way {
                walk.arrive(Place::Vertex(u));
                if !walk.pass(u) {
                    return None;
                }
            }
            Some(walk.arrive(Place::Vertex(to)))
        };
        (
            walk(v, x, &mut self.inside.iter().copied()),
            walk(x, v, &mut self.inside.iter().rev().copied()),
        )
    }
}

/// Walls per grid cell, in the grid's order: cell `i`'s are
/// `slots[start[i]..start[i + 1]]`.
pub(super) struct GridSlots {
    start: Vec<u32>,
    slots: Vec<WallEnds>,
}

impl GridSlots {
    /// The walls that `keep` keeps, in the grid cells of `fs` that hold them.
    pub(super) fn new(
        fs: &FreeSpace,
        walls: &[WallEnds],
        keep: impl Fn(&WallEnds) -> bool,
    ) -> Self {
        let mut start = vec![0u32];
        let mut slots = Vec::new();
        for cell in 0..fs.grid.cell_count() {
            slots.extend(
                fs.grid
                    .cell_items(cell)
                    .iter()
                    .map(|&w| walls[w as usize])
                    .filter(&keep),
            );
            start.push(slots.len() as u32);
        }
        if slots.is_empty() {
            start.clear();
        }
        GridSlots { start, slots }
    }
}

/// The walls of `grid` in the cells along the probe's segment (padded) through
/// [`Probe::dismisses`] and [`Probe::examine`], each once (`wall_mark`, `stamp`),
/// skipping the obstacles `skip_v` and `skip_x`. `Err` with the first wall found to
/// cross the segment.
#[allow(clippy::too_many_arguments)]
pub(super) fn grid_walk(
    fs: &FreeSpace,
    probe: &Probe,
    grid: &GridSlots,
    skip_v: u32,
    skip_x: u32,
    wall_mark: &mut [u32],
    stamp: &mut u32,
    inside: &mut Vec<u32>,
) -> Result<(), u32> {
    if grid.slots.is_empty() {
        return Ok(());
    }
    *stamp = stamp.wrapping_add(1);
    if *stamp == 0 {
        wall_mark.iter_mut().for_each(|m| *m = 0);
        *stamp = 1;
    }
    let stamp = *stamp;
    let (p, q) = (probe.p, probe.q);
    let scale = p.abs().max_element().max(q.abs().max_element()) + fs.bounds().size().max_element();
    let pad = 2e-9 * scale + 2e-6 * fs.grid.cell_size();
    let mut blocker = u32::MAX;
    let free = fs.grid.cover_segment(p, q, pad, |cell| {
        let cell_slots = &grid.slots[grid.start[cell] as usize..grid.start[cell + 1] as usize];
        for wall in cell_slots {
            if (wall.obstacle == skip_v) | (wall.obstacle == skip_x) || probe.dismisses(wall) {
                // Dismissals are the same in every cell.
                continue;
            }
            // Looked at in an earlier cell of this segment already?
            let mark = &mut wall_mark[wall.id as usize];
            if *mark == stamp {
                continue;
            }
            *mark = stamp;
            if let WallVerdict::Crosses = probe.examine(wall, inside) {
                blocker = wall.id;
                return false;
            }
        }
        true
    });
    if free {
        Ok(())
    } else {
        Err(blocker)
    }
}

pub(super) fn opposite(x: Orientation, y: Orientation) -> bool {
    use Orientation::*;
    matches!(
        (x, y),
        (Clockwise, CounterClockwise) | (CounterClockwise, Clockwise)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::construct::naive;
    use corridor_geom::{Environment, Obstacle};

    fn p(x: i32, y: i32) -> Point {
        Point::new(x as f64, y as f64)
    }

    /// Every ordered pair of vertices through [`SegmentTester::visibility`] (with the
    /// blocker hint carried along as in the pair loop) against [`naive::visibility`]
    /// both ways.
    fn segment_tests_equal_naive(env: &Environment) -> usize {
        let fs = FreeSpace::from_environment(env).unwrap();
        let mut tester = SegmentTester::new(&fs);
        let n = fs.points.len() as u32;
        let mut free = 0;
        // Rows alternately by the obstacles' cones and by the grid alone; each row in
        // two halves (targets before and after `v`), each with the box of its
        // segments as the cones' region.
        for v in 0..n {
            let mut hint = u32::MAX;
            for x in (0..n).filter(|&x| x != v) {
                if x == 0 || x == v + 1 || (v == 0 && x == 1) {
                    let half = if x < v { 0..v } else { v + 1..n };
                    let pv = fs.points[v as usize];
                    let (lo, hi) =
                        half.map(|y| fs.points[y as usize])
                            .fold((pv, pv), |(lo, hi), q| {
                                (
                                    Point::new(lo.x.min(q.x), lo.y.min(q.y)),
                                    Point::new(hi.x.max(q.x), hi.y.max(q.y)),
                                )
                            });
                    tester.use_cones(v % 2 == 0, (lo, hi));
                }
                let (there, back) = tester.visibility(v, x, &mut hint);
                let (pv, px) = (fs.points[v as usize], fs.points[x as usize]);
                assert_eq!(there, naive::visibility(&fs, v, x), "{pv} → {px}");
                assert_eq!(back, naive::visibility(&fs, x, v), "{px} → {pv}");
                free += there.is_some() as usize;
            }
        }
        free
    }

    /// A U-shaped obstacle (a pocket open to the top), an L with a reflex corner, a
    /// triangle and a thin wall, all on integer coordinates so that many vertex pairs
    /// are collinear with other vertices and walls.
    fn pocket_environment() -> Environment {
        let mut env = Environment::rectangle(p(-2, -2), p(14, 12));
        env.insert(Obstacle::polygon(vec![
            p(2, 2),
            p(8, 2),
            p(8, 8),
            p(6, 8),
            p(6, 4),
            p(4, 4),
            p(4, 8),
            p(2, 8),
        ]));
        env.insert(Obstacle::polygon(vec![
            p(9, 1),
            p(11, 1),
            p(11, 2),
            p(10, 2),
            p(10, 5),
            p(9, 5),
        ]));
        env.insert(Obstacle::polygon(vec![p(10, 8), p(12, 8), p(11, 10)]));
        env.insert(Obstacle::Polyline(vec![p(0, 10), p(4, 10), p(6, 11)]));
        env
    }

    #[test]
    fn segment_test_equals_naive_around_concave_obstacles() {
        let env = pocket_environment();
        let fs = FreeSpace::from_environment(&env).unwrap();
        let id = |q: Point| fs.vertex_at(q).unwrap() as u32;
        let seen = |a: Point, b: Point| naive::visibility(&fs, id(a), id(b)).is_some();
        // The configurations this environment is for, as the oracle sees them.
        // Across the pocket's mouth and down into it: free.
        assert!(seen(p(4, 8), p(6, 8)));
        assert!(seen(p(4, 8), p(6, 4)));
        // Into the pocket through its mouth, down to its inner corner: free; on through
        // the pocket's inner wall: blocked.
        assert!(seen(p(4, 10), p(6, 4)));
        assert!(!seen(p(4, 10), p(9, 1)));
        // Along the top walls of both arms and across the mouth, through two corners.
        assert!(seen(p(2, 8), p(8, 8)));
        // Along the wall ending at the L's reflex corner (10, 2): free; on past that
        // corner (through it, into the L's upright) to the U's corner (8, 2): blocked.
        assert!(seen(p(11, 2), p(10, 2)));
        assert!(!seen(p(11, 2), p(8, 2)));
        // Grazing the L's corner (10, 5) from the triangle: free up to it, blocked past
        // it (the line goes on through the L to the U's corner (8, 2)).
        assert!(seen(p(12, 8), p(10, 5)));
        assert!(!seen(p(12, 8), p(8, 2)));
        let free = segment_tests_equal_naive(&env);
        assert!(free > 0);
    }

    /// The degenerate random environments of the integration tests (integer grid,
    /// touching cells, pinches, thin walls), with every row tested both by the cones and
    /// by the grid, and with more, smaller obstacles than the pair loop's rows reach
    /// the cones with.
    #[test]
    fn segment_test_equals_naive_on_degenerate_environments() {
        use rand::{Rng, SeedableRng};
        let mut free = 0;
        for seed in 0..150u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let (w, h) = (rng.random_range(3..8), rng.random_range(3..8));
            let mut env = Environment::rectangle(p(0, 0), p(w, h));
            for y in 0..h {
                for x in 0..w {
                    if !rng.random_bool(0.35) {
                        continue;
                    }
                    let (a, b, c, d) = (p(x, y), p(x + 1, y), p(x + 1, y + 1), p(x, y + 1));
                    env.insert(Obstacle::polygon(match rng.random_range(0..6) {
                        0 | 1 => vec![a, b, c, d],
                        2 => vec![a, b, c],
                        3 => vec![a, c, d],
                        4 => vec![a, b, d],
                        _ => vec![b, c, d],
                    }));
                }
            }
            // Thin walls along grid lines and diagonals (dropped where they would cross
            // an obstacle, as the integration tests' generator does).
            for _ in 0..rng.random_range(0..3) {
                let (x, y) = (rng.random_range(0..w), rng.random_range(0..h));
                let wall = vec![p(x, y), p(x + 1, y + rng.random_range(0..2))];
                let mut with = env.clone();
                with.insert(Obstacle::Polyline(wall));
                if FreeSpace::from_disjoint(&with).is_ok() {
                    env = with;
                }
            }
            free += segment_tests_equal_naive(&env);
        }
        assert!(free > 0);
    }

    /// Scattered convex and star-shaped polygons in general position (the pyvisgraph
    /// comparison's inputs, smaller), rows both ways as above.
    #[test]
    fn segment_test_equals_naive_on_scattered_polygons() {
        use corridor_testkit::random::{random_concave_polygon, random_convex_polygon};
        use rand::{Rng, SeedableRng};
        for seed in 0..6u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut env = Environment::rectangle(p(-10, -10), p(60, 60));
            for y in 0..5 {
                for x in 0..5 {
                    let centre = Point::new(10.0 * x as f64 + 5.0, 10.0 * y as f64 + 5.0);
                    let radius = 1.5 + 2.5 * rng.random::<f64>();
                    let ring = if seed % 2 == 0 {
                        let corners = rng.random_range(3..=8);
                        random_convex_polygon(&mut rng, centre, radius, corners)
                    } else {
                        let corners = rng.random_range(5..=10);
                        random_concave_polygon(&mut rng, centre, radius, corners)
                    };
                    env.insert(Obstacle::Polygon(corridor_geom::Polygon::simple(ring)));
                }
            }
            assert!(segment_tests_equal_naive(&env) > 0);
        }
    }

    /// Which obstacles count as enclosing every vertex: the plain rectangle boundary, a
    /// convex boundary, not an L-shaped one, not one an obstacle touches (a vertex on
    /// its side); and the segment tests stay equal to the oracle.
    #[test]
    fn enclosing_boundaries() {
        use corridor_geom::Ring;
        let inner = || Obstacle::polygon(vec![p(3, 3), p(5, 3), p(4, 5)]);
        let enclosing = |env: &Environment| {
            let fs = FreeSpace::from_environment(env).unwrap();
            let obstacles = Obstacles::new(&fs);
            segment_tests_equal_naive(env);
            let boundary = obstacles.of[fs.vertex_at(env.boundary().vertices()[0]).unwrap()];
            obstacles.enclosing[boundary as usize]
        };
        let mut rectangle = Environment::rectangle(p(0, 0), p(10, 8));
        rectangle.insert(inner());
        assert!(enclosing(&rectangle));
        let mut hexagon = Environment::new(Ring::new(vec![
            p(2, 0),
            p(8, 0),
            p(10, 4),
            p(8, 8),
            p(2, 8),
            p(0, 4),
        ]));
        hexagon.insert(inner());
        assert!(enclosing(&hexagon));
        let mut l_shape = Environment::new(Ring::new(vec![
            p(0, 0),
            p(10, 0),
            p(10, 4),
            p(6, 4),
            p(6, 8),
            p(0, 8),
        ]));
        l_shape.insert(Obstacle::polygon(vec![p(1, 1), p(3, 1), p(2, 3)]));
        l_shape.insert(Obstacle::polygon(vec![p(7, 1), p(9, 1), p(8, 3)]));
        assert!(!enclosing(&l_shape));
        let mut touched = Environment::rectangle(p(0, 0), p(10, 8));
        touched.insert(Obstacle::polygon(vec![p(0, 3), p(4, 3), p(2, 5)]));
        touched.insert(inner());
        assert!(!enclosing(&touched));
    }

    #[test]
    fn segment_test_equals_naive_on_star_shaped_obstacles() {
        // Star-shaped (concave) polygons whose spikes reach past one another's
        // reflex corners, with several points on common lines.
        let mut env = Environment::rectangle(p(0, 0), p(20, 20));
        for (cx, cy) in [(5, 5), (14, 6), (6, 14), (15, 15)] {
            let ring: Vec<Point> = [
                (0, -4),
                (1, -1),
                (4, 0),
                (1, 1),
                (0, 4),
                (-1, 1),
                (-4, 0),
                (-1, -1),
            ]
            .iter()
            .map(|&(dx, dy)| p(cx + dx, cy + dy))
            .collect();
            env.insert(Obstacle::polygon(ring));
        }
        assert!(segment_tests_equal_naive(&env) > 0);
    }
}
