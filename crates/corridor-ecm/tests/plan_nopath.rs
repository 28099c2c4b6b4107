//! "No path" answers for a radius checked independently of the ECM, on the Moving AI maps:
//! a fine raster of the configuration space (each cell classified from the distance of
//! its centre to the walls, with the half cell diagonal as the margin either way) and
//! flood fills through it.
//!
//! A raster cell is *free* when its centre is at least `radius + diag/2` from every wall
//! (then every point of the closed cell keeps the radius), *blocked* when its centre is
//! closer than `radius - diag/2` (then no point of the closed cell does), and *unknown*
//! otherwise. A path that keeps the radius never enters a blocked cell, and passing from
//! one cell to another (through an edge or a corner) it stays inside non-blocked cells that
//! are 4-connected; so when start and goal are not 4-connected through free and unknown
//! cells there is no path (the answer is *confirmed*). Conversely, 4-connected free cells
//! give a real path from centre to centre; so when start and goal are connected through
//! free cells alone the "no path" answer is wrong (*contradicted*). Walls cannot be crossed
//! through non-blocked cells, so the interiors of large obstacles (far from every wall, and
//! hence "free") stay separated from the free space.
//!
//! The raster covers a window around start and goal with `cells_per_unit` cells per map
//! unit (a quarter of the radius or finer), and everything outside the window counts as
//! free and connected (optimistic); the window grows until the answer is decided or the
//! raster would get too large. Then a window around the start alone, and one around the
//! goal alone, may still show that end's component closing off without the other end.

mod common;

use corridor_ecm::{Ecm, PathQuery, PlanError, Planner};
use corridor_geom::{normalize, Point, Segment};
use corridor_io::Scenario;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::f64::consts::SQRT_2;

const RADII: [f64; 4] = [0.25, 0.5, 1.0, 2.0];
/// No-path answers checked per map and radius.
const CHECKS_PER_RADIUS: usize = 10;
/// Scenario pairs and random pairs planned per map and radius.
const SCENARIOS_PER_RADIUS: usize = 30;
const RANDOM_PER_RADIUS: usize = 200;
/// Random far pairs tried per map and radius (kept when in different components).
const FAR_PER_RADIUS: usize = 400;
/// Planned paths checked per map and radius (the converse sanity check).
const PATHS_PER_RADIUS: usize = 2;
/// Largest raster (cells) a check may use before it gives up as undecided.
const MAX_CELLS: usize = 12_000_000;
/// Tolerance for "blocked": a centre must be closer than `radius - diag/2 - SLACK`.
const SLACK: f64 = 1e-6;

/// Walls bucketed by unit squares, for bounded distance queries.
struct WallGrid {
    walls: Vec<Segment>,
    origin: (i64, i64),
    size: (i64, i64),
    buckets: Vec<Vec<u32>>,
}

impl WallGrid {
    fn new(walls: Vec<Segment>) -> WallGrid {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for w in &walls {
            for p in [w.a, w.b] {
                (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
            }
        }
        let origin = (x0.floor() as i64, y0.floor() as i64);
        let size = (
            x1.ceil() as i64 - origin.0 + 1,
            y1.ceil() as i64 - origin.1 + 1,
        );
        let mut buckets = vec![Vec::new(); (size.0 * size.1) as usize];
        for (i, w) in walls.iter().enumerate() {
            let (bx0, by0) = (
                w.a.x.min(w.b.x).floor() as i64,
                w.a.y.min(w.b.y).floor() as i64,
            );
            let (bx1, by1) = (
                w.a.x.max(w.b.x).floor() as i64,
                w.a.y.max(w.b.y).floor() as i64,
            );
            for by in by0..=by1 {
                for bx in bx0..=bx1 {
                    let (cx, cy) = (bx - origin.0, by - origin.1);
                    if cx >= 0 && cy >= 0 && cx < size.0 && cy < size.1 {
                        buckets[(cy * size.0 + cx) as usize].push(i as u32);
                    }
                }
            }
        }
        WallGrid {
            walls,
            origin,
            size,
            buckets,
        }
    }

    /// The map's extent in whole units: `(x0, y0, x1, y1)`.
    fn bounds(&self) -> (i64, i64, i64, i64) {
        (
            self.origin.0,
            self.origin.1,
            self.origin.0 + self.size.0 - 1,
            self.origin.1 + self.size.1 - 1,
        )
    }

    /// The distance from `p` to the nearest wall if it is below `reach`, otherwise some
    /// value at least `reach` (possibly infinite).
    fn distance_within(&self, p: Point, reach: f64) -> f64 {
        let bx0 = ((p.x - reach).floor() as i64 - self.origin.0).max(0);
        let by0 = ((p.y - reach).floor() as i64 - self.origin.1).max(0);
        let bx1 = ((p.x + reach).floor() as i64 - self.origin.0).min(self.size.0 - 1);
        let by1 = ((p.y + reach).floor() as i64 - self.origin.1).min(self.size.1 - 1);
        let mut best = f64::INFINITY;
        for by in by0..=by1 {
            for bx in bx0..=bx1 {
                for &i in &self.buckets[(by * self.size.0 + bx) as usize] {
                    best = best.min(self.walls[i as usize].distance(p));
                }
            }
        }
        best
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Free,
    Unknown,
    Blocked,
}

/// A window `[x0, x1] × [y0, y1]` (whole units) of the configuration space for one radius.
struct Raster {
    k: i64,
    x0: i64,
    y0: i64,
    w: usize,
    h: usize,
    cells: Vec<Cell>,
    /// Whether the window stops short of the map on the left, right, bottom, top.
    open: [bool; 4],
}

fn classify(grid: &WallGrid, centre: Point, radius: f64, half_diag: f64) -> Cell {
    let d = grid.distance_within(centre, radius + half_diag);
    if d >= radius + half_diag {
        Cell::Free
    } else if d < radius - half_diag - SLACK {
        Cell::Blocked
    } else {
        Cell::Unknown
    }
}

impl Raster {
    fn new(grid: &WallGrid, radius: f64, k: i64, window: (i64, i64, i64, i64)) -> Raster {
        let (x0, y0, x1, y1) = window;
        let b = grid.bounds();
        let (w, h) = (((x1 - x0) * k) as usize, ((y1 - y0) * k) as usize);
        let mut cells = vec![Cell::Unknown; w * h];
        let step = 1.0 / k as f64;
        let fine_half_diag = step * SQRT_2 / 2.0;
        // Unit blocks first: a block whose centre decides it decides all its cells alike.
        for by in y0..y1 {
            for bx in x0..x1 {
                let centre = Point::new(bx as f64 + 0.5, by as f64 + 0.5);
                let block = classify(grid, centre, radius, SQRT_2 / 2.0);
                for j in 0..k {
                    for i in 0..k {
                        let cell = if block == Cell::Unknown {
                            let c = Point::new(
                                bx as f64 + (i as f64 + 0.5) * step,
                                by as f64 + (j as f64 + 0.5) * step,
                            );
                            classify(grid, c, radius, fine_half_diag)
                        } else {
                            block
                        };
                        let (cx, cy) = ((bx - x0) * k + i, (by - y0) * k + j);
                        cells[cy as usize * w + cx as usize] = cell;
                    }
                }
            }
        }
        Raster {
            k,
            x0,
            y0,
            w,
            h,
            cells,
            open: [x0 > b.0, x1 < b.2, y0 > b.1, y1 < b.3],
        }
    }

    fn cell_of(&self, p: Point) -> usize {
        let cx = (((p.x - self.x0 as f64) * self.k as f64).floor() as usize).min(self.w - 1);
        let cy = (((p.y - self.y0 as f64) * self.k as f64).floor() as usize).min(self.h - 1);
        cy * self.w + cx
    }

    /// Flood fill from `from` through free cells (and unknown ones when `optimistic`):
    /// whether it reaches `to`, and whether it reaches an open side of the window.
    fn flood(
        &self,
        from: usize,
        to: usize,
        optimistic: bool,
        seen: &mut Vec<bool>,
    ) -> (bool, bool) {
        let passable = |c: usize| match self.cells[c] {
            Cell::Free => true,
            Cell::Unknown => optimistic,
            Cell::Blocked => false,
        };
        if !passable(from) {
            return (false, false);
        }
        seen.clear();
        seen.resize(self.cells.len(), false);
        let mut queue = VecDeque::from([from]);
        seen[from] = true;
        let (mut reached, mut outside) = (false, false);
        while let Some(c) = queue.pop_front() {
            if c == to {
                reached = true;
            }
            let (x, y) = (c % self.w, c / self.w);
            outside |= (x == 0 && self.open[0])
                || (x + 1 == self.w && self.open[1])
                || (y == 0 && self.open[2])
                || (y + 1 == self.h && self.open[3]);
            let mut visit = |n: usize| {
                if !seen[n] && passable(n) {
                    seen[n] = true;
                    queue.push_back(n);
                }
            };
            if x > 0 {
                visit(c - 1);
            }
            if x + 1 < self.w {
                visit(c + 1);
            }
            if y > 0 {
                visit(c - self.w);
            }
            if y + 1 < self.h {
                visit(c + self.w);
            }
        }
        (reached, outside)
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Confirmed,
    Contradicted,
    Undecided,
}

/// Cells per unit for a radius: a quarter of the radius or finer.
fn cells_per_unit(radius: f64) -> i64 {
    (4.0 / radius).ceil() as i64
}

/// The window around `points` with `margin` units, clipped to the map.
fn window(grid: &WallGrid, points: &[Point], margin: f64) -> (i64, i64, i64, i64) {
    let b = grid.bounds();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in points {
        (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
    }
    (
        ((x0 - margin).floor() as i64).max(b.0),
        ((y0 - margin).floor() as i64).max(b.1),
        ((x1 + margin).ceil() as i64).min(b.2),
        ((y1 + margin).ceil() as i64).min(b.3),
    )
}

fn cells_in(w: (i64, i64, i64, i64), k: i64) -> usize {
    ((w.2 - w.0) * k * (w.3 - w.1) * k) as usize
}

/// Checks a "no path" answer for `radius` between `start` and `goal`.
fn check_no_path(grid: &WallGrid, start: Point, goal: Point, radius: f64) -> Verdict {
    let k = cells_per_unit(radius);
    let mut margin = 4.0 + 4.0 * radius;
    let mut seen = Vec::new();
    loop {
        let win = window(grid, &[start, goal], margin);
        if cells_in(win, k) > MAX_CELLS {
            break;
        }
        let raster = Raster::new(grid, radius, k, win);
        let (s, g) = (raster.cell_of(start), raster.cell_of(goal));
        assert_ne!(
            raster.cells[s],
            Cell::Blocked,
            "start {start} keeps the radius {radius} but its cell is blocked"
        );
        let (connected, start_out) = raster.flood(s, g, true, &mut seen);
        if !connected {
            let (_, goal_out) = raster.flood(g, s, true, &mut seen);
            if !(start_out && goal_out) {
                return Verdict::Confirmed;
            }
        } else if raster.cells[s] == Cell::Free
            && raster.cells[g] == Cell::Free
            && raster.flood(s, g, false, &mut seen).0
        {
            return Verdict::Contradicted;
        }
        if raster.open.iter().all(|o| !o) {
            break;
        }
        margin *= 3.0;
    }
    // Far apart: the component of one end may still close off nearby.
    if closed_off(grid, start, goal, radius) || closed_off(grid, goal, start, radius) {
        Verdict::Confirmed
    } else {
        Verdict::Undecided
    }
}

/// Whether the optimistic component of `p` closes inside a window around `p` alone
/// (grown as needed) without containing `other`: then `p` cannot reach `other`.
fn closed_off(grid: &WallGrid, p: Point, other: Point, radius: f64) -> bool {
    let k = cells_per_unit(radius);
    let mut margin = 4.0 + 4.0 * radius;
    let mut seen = Vec::new();
    loop {
        let win = window(grid, &[p], margin);
        if cells_in(win, k) > MAX_CELLS {
            return false;
        }
        let raster = Raster::new(grid, radius, k, win);
        let inside = |q: Point| {
            q.x >= win.0 as f64 && q.y >= win.1 as f64 && q.x <= win.2 as f64 && q.y <= win.3 as f64
        };
        let target = if inside(other) {
            raster.cell_of(other)
        } else {
            usize::MAX
        };
        let (reached, outside) = raster.flood(raster.cell_of(p), target, true, &mut seen);
        if !outside {
            return !reached;
        }
        if raster.open.iter().all(|o| !o) {
            return false;
        }
        margin *= 3.0;
    }
}

/// Sanity: a planned path's start and goal are connected in the optimistic raster of a
/// window around the path (`None` when that raster would be too large).
fn path_connected(grid: &WallGrid, points: &[Point], radius: f64) -> Option<bool> {
    let k = cells_per_unit(radius);
    let win = window(grid, points, 1.0);
    if cells_in(win, k) > MAX_CELLS {
        return None;
    }
    let raster = Raster::new(grid, radius, k, win);
    let (s, g) = (
        raster.cell_of(points[0]),
        raster.cell_of(*points.last().unwrap()),
    );
    Some(raster.flood(s, g, true, &mut Vec::new()).0)
}

/// `count` items spread evenly over `items`.
fn spread<T: Clone>(items: &[T], count: usize) -> Vec<T> {
    if items.len() <= count {
        return items.to_vec();
    }
    (0..count)
        .map(|i| items[i * items.len() / count].clone())
        .collect()
}

#[test]
fn no_path_answers_agree_with_a_raster_flood_fill() {
    let dir = common::shared_data().join("movingai");
    let mut maps: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".map"))
        .collect();
    maps.sort();
    assert_eq!(maps.len(), 10, "{maps:?}");
    let mut rng = ChaCha8Rng::seed_from_u64(2016);
    let (mut confirmed, mut contradicted, mut undecided) = (0usize, 0usize, 0usize);
    let (mut answers, mut no_corridor, mut different) = (0usize, 0usize, 0usize);
    let mut queries_planned = 0usize;
    let (mut paths_checked, mut paths_skipped) = (0usize, 0usize);
    let mut failures = Vec::new();
    for name in &maps {
        let env = corridor_io::load_environment(dir.join(name)).unwrap();
        let grid = WallGrid::new(normalize(&env).unwrap().user_segments().collect());
        let ecm = Ecm::build(&env).unwrap();
        let scenarios = corridor_io::load_scenarios(dir.join(format!("{name}.scen"))).unwrap();
        let b = grid.bounds();
        let mut planner = Planner::new();
        let mut line = format!("{name}:");
        for radius in RADII {
            // Candidate queries: scenario pairs of the shorter kind (the planner's search
            // grows with the distance) and random pairs of points that keep the radius, up
            // to 30 apart; planned until enough "no path" answers are found.
            let short: Vec<&Scenario> = scenarios
                .iter()
                .filter(|s| s.optimal_length <= 150.0)
                .collect();
            let mut queries: Vec<(Point, Point)> = spread(&short, SCENARIOS_PER_RADIUS)
                .into_iter()
                .map(|s| (s.start_point(), s.goal_point()))
                .collect();
            let mut random_point = |near: Option<Point>| loop {
                let p = match near {
                    Some(c) => {
                        c + Point::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0))
                    }
                    None => Point::new(
                        rng.random_range(b.0 as f64..b.2 as f64),
                        rng.random_range(b.1 as f64..b.3 as f64),
                    ),
                };
                if grid.distance_within(p, radius) >= radius {
                    return p;
                }
            };
            for _ in 0..RANDOM_PER_RADIUS {
                let start = random_point(None);
                queries.push((start, random_point(Some(start))));
            }
            // Far pairs only where start and goal lie in different components (cheap to
            // answer; long searches in one component would make the test slow).
            let component = |p: Point| {
                ecm.retract(p)
                    .ok()
                    .map(|r| ecm.edge(r.edge()).unwrap().component)
            };
            for _ in 0..FAR_PER_RADIUS {
                let (start, goal) = (random_point(None), random_point(None));
                if let (Some(a), Some(b)) = (component(start), component(goal)) {
                    if a != b {
                        queries.push((start, goal));
                    }
                }
            }
            queries.shuffle(&mut rng);
            let (mut refused, mut planned) = (Vec::new(), Vec::new());
            let mut asked = 0;
            for (start, goal) in queries {
                if refused.len() >= 2 * CHECKS_PER_RADIUS {
                    break;
                }
                asked += 1;
                let query = PathQuery::new(start, goal).with_radius(radius);
                match planner.plan(&ecm, &query) {
                    Ok(path) => planned.push(path.points),
                    Err(PlanError::NoCorridor { .. }) => {
                        no_corridor += 1;
                        refused.push(query);
                    }
                    Err(PlanError::DifferentComponents) => {
                        different += 1;
                        refused.push(query);
                    }
                    Err(_) => {}
                }
            }
            queries_planned += asked;
            answers += refused.len();
            let (mut c, mut x, mut u) = (0, 0, 0);
            for query in spread(&refused, CHECKS_PER_RADIUS) {
                match check_no_path(&grid, query.start, query.goal, radius) {
                    Verdict::Confirmed => c += 1,
                    Verdict::Undecided => u += 1,
                    Verdict::Contradicted => {
                        x += 1;
                        failures.push(format!(
                            "{name} r={radius}: {query:?} answered {:?}, but the raster connects start and goal through conservatively free cells",
                            planner.plan(&ecm, &query).err()
                        ));
                    }
                }
            }
            (confirmed, contradicted, undecided) = (confirmed + c, contradicted + x, undecided + u);
            // The converse on short paths, whose window raster stays small.
            planned.sort_by_key(|p| p.len());
            let mut checked = 0;
            for points in spread(&planned[..planned.len() / 2], PATHS_PER_RADIUS) {
                match path_connected(&grid, &points, radius) {
                    Some(true) => checked += 1,
                    Some(false) => failures.push(format!(
                        "{name} r={radius}: planned path {:?} -> {:?} but start and goal are not connected even in the optimistic raster",
                        points[0],
                        points.last().unwrap()
                    )),
                    None => paths_skipped += 1,
                }
            }
            paths_checked += checked;
            line += &format!(
                "  r={radius}: {asked} planned, {} no-path answers, {c} confirmed, {x} contradicted, {u} undecided, {checked} paths;",
                refused.len()
            );
        }
        println!("{line}");
    }
    println!(
        "{queries_planned} queries planned, no-path answers: {answers} ({no_corridor} no corridor, {different} different components); \
         checked {}: {confirmed} confirmed, {contradicted} contradicted, {undecided} undecided; \
         {paths_checked} planned paths connected in the optimistic raster ({paths_skipped} too large to check)",
        confirmed + contradicted + undecided
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        confirmed >= 50,
        "only {confirmed} no-path answers confirmed ({undecided} undecided)"
    );
    assert!(paths_checked >= 40, "only {paths_checked} paths checked");
}
