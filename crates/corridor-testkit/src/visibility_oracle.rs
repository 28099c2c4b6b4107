//! The reference the ECM's visibility queries are checked against, written without the
//! ECM: a plain angular sweep over all walls for the visibility polygon, and brute-force
//! segment–wall intersection for line of sight.
//!
//! The sweep sorts every wall end point by its exact angle around the viewpoint; between
//! two consecutive angles no end point interrupts the view, so one ray cast in the middle
//! names the wall seen over the whole interval, and the polygon is that wall's part
//! between the two bounding rays, interval after interval. Ray casts go through a uniform
//! bucket grid of the walls (a plain speed-up: each ray tests every wall of the buckets it
//! crosses).

use corridor_geom::{orient, segments_intersect, Orientation, Point, Segment};

/// The walls of a map, bucketed for ray casts.
#[derive(Clone, Debug)]
pub struct WallSweep {
    walls: Vec<Segment>,
    ends: Vec<Point>,
    lo: Point,
    cell: f64,
    nx: usize,
    ny: usize,
    buckets: Vec<Vec<u32>>,
}

impl WallSweep {
    /// Buckets `walls` (segments of positive length; isolated points do not change a
    /// regularized visibility polygon and are left out).
    pub fn new(walls: Vec<Segment>) -> Self {
        let walls: Vec<Segment> = walls.into_iter().filter(|s| s.a != s.b).collect();
        let mut ends: Vec<Point> = walls.iter().flat_map(|s| [s.a, s.b]).collect();
        ends.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        ends.dedup();
        let (mut lo, mut hi) = (Point::splat(f64::INFINITY), Point::splat(f64::NEG_INFINITY));
        for p in &ends {
            (lo, hi) = (lo.min(*p), hi.max(*p));
        }
        if ends.is_empty() {
            (lo, hi) = (Point::ZERO, Point::ONE);
        }
        let size = (hi - lo).max(Point::splat(1e-9));
        let cell = ((size.x * size.y) / (walls.len().max(1) as f64))
            .sqrt()
            .max(size.x.max(size.y) / 4096.0);
        let nx = ((size.x / cell).ceil() as usize).max(1);
        let ny = ((size.y / cell).ceil() as usize).max(1);
        let mut buckets = vec![Vec::new(); nx * ny];
        for (i, s) in walls.iter().enumerate() {
            let (a, b) = (s.a.min(s.b), s.a.max(s.b));
            let (x0, y0) = (
                clamp_index((a.x - lo.x) / cell, nx),
                clamp_index((a.y - lo.y) / cell, ny),
            );
            let (x1, y1) = (
                clamp_index((b.x - lo.x) / cell, nx),
                clamp_index((b.y - lo.y) / cell, ny),
            );
            for y in y0..=y1 {
                for x in x0..=x1 {
                    buckets[y * nx + x].push(i as u32);
                }
            }
        }
        WallSweep {
            walls,
            ends,
            lo,
            cell,
            nx,
            ny,
            buckets,
        }
    }

    /// The walls.
    pub fn walls(&self) -> &[Segment] {
        &self.walls
    }

    /// Whether `p` lies on a wall (exactly).
    pub fn on_wall(&self, p: Point) -> bool {
        self.walls
            .iter()
            .any(|w| corridor_geom::point_on_segment(p, w.a, w.b))
    }

    /// Whether the closed segment `p q` touches no wall (brute force over all walls).
    pub fn line_of_sight(&self, p: Point, q: Point) -> bool {
        !self
            .walls
            .iter()
            .any(|w| segments_intersect(p, q, w.a, w.b))
    }

    /// [`WallSweep::line_of_sight`] testing only the walls of the buckets within one
    /// bucket of those the segment crosses (the same exact test on every wall that can
    /// touch it; for the large counts).
    pub fn line_of_sight_bucketed(&self, p: Point, q: Point) -> bool {
        let cell_of = |x: Point| {
            let r = (x - self.lo) / self.cell;
            (r.x.floor() as i64, r.y.floor() as i64)
        };
        let ((x0, y0), (x1, y1)) = (cell_of(p), cell_of(q));
        let mut tested = std::collections::HashSet::new();
        let steps = (x1 - x0).abs().max((y1 - y0).abs()).max(1) * 2;
        for k in 0..=steps {
            let t = k as f64 / steps as f64;
            let (cx, cy) = cell_of(p + (q - p) * t);
            for y in cy - 1..=cy + 1 {
                for x in cx - 1..=cx + 1 {
                    if x < 0 || y < 0 || x as usize >= self.nx || y as usize >= self.ny {
                        continue;
                    }
                    for &i in &self.buckets[y as usize * self.nx + x as usize] {
                        let w = self.walls[i as usize];
                        if tested.insert(i) && segments_intersect(p, q, w.a, w.b) {
                            return false;
                        }
                    }
                }
            }
        }
        // Points outside the bucketed box: fall back to every wall.
        if [x0, x1].iter().any(|&x| x < 0 || x as usize >= self.nx)
            || [y0, y1].iter().any(|&y| y < 0 || y as usize >= self.ny)
        {
            return self.line_of_sight(p, q);
        }
        true
    }

    /// The visibility polygon of `q` (closure of the seen region) as its corners,
    /// counter-clockwise, with collinear corners merged (see [`merge_collinear`]).
    pub fn visibility_polygon(&self, q: Point) -> Vec<Point> {
        // Distinct directions of the end points, sorted by exact angle.
        let mut dirs: Vec<Point> = self.ends.iter().filter(|&&e| e != q).copied().collect();
        dirs.sort_by(|&a, &b| angle_cmp(q, a, b));
        let mut groups: Vec<Vec<Point>> = Vec::new();
        for d in dirs {
            match groups.last_mut() {
                Some(g) if angle_cmp(q, g[0], d) == std::cmp::Ordering::Equal => g.push(d),
                _ => groups.push(vec![d]),
            }
        }
        let m = groups.len();
        let mut ring: Vec<Point> = Vec::with_capacity(2 * m);
        for i in 0..m {
            let (g0, g1) = (&groups[i], &groups[(i + 1) % m]);
            let (e0, e1) = ((g0[0] - q).normalize(), (g1[0] - q).normalize());
            let mid = if m == 1 {
                -e0
            } else {
                match orient(q, g0[0], g1[0]) {
                    Orientation::CounterClockwise => e0 + e1,
                    Orientation::Collinear => e0.perp(),
                    Orientation::Clockwise => -(e0 + e1),
                }
            };
            let Some(w) = self.first_hit(q, mid) else {
                continue;
            };
            let wall = self.walls[w];
            ring.push(hit_along(q, g0, wall));
            ring.push(hit_along(q, g1, wall));
        }
        merge_collinear(&ring, 0.0)
    }

    /// The first wall the ray from `q` in direction `d` meets (strictly ahead).
    fn first_hit(&self, q: Point, d: Point) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        let test = |i: u32, best: &mut Option<(f64, usize)>| {
            let w = self.walls[i as usize];
            let e = w.b - w.a;
            let denom = d.perp_dot(e);
            if denom == 0.0 {
                return;
            }
            let t = (w.a - q).perp_dot(e) / denom;
            let s = (w.a - q).perp_dot(d) / denom;
            if t > 0.0 && (0.0..=1.0).contains(&s) && best.is_none_or(|(bt, _)| t < bt) {
                *best = Some((t, i as usize));
            }
        };
        // Walk the buckets along the ray (Amanatides–Woo).
        let rel = (q - self.lo) / self.cell;
        let (mut x, mut y) = (rel.x.floor() as i64, rel.y.floor() as i64);
        let (sx, sy) = (
            if d.x > 0.0 { 1 } else { -1 },
            if d.y > 0.0 { 1 } else { -1 },
        );
        let next = |r: f64, i: i64, s: i64, dv: f64| {
            if dv == 0.0 {
                f64::INFINITY
            } else {
                ((i + (s > 0) as i64) as f64 - r) / dv
            }
        };
        let (mut tx, mut ty) = (next(rel.x, x, sx, d.x), next(rel.y, y, sy, d.y));
        let (dtx, dty) = (
            if d.x == 0.0 {
                f64::INFINITY
            } else {
                1.0 / d.x.abs()
            },
            if d.y == 0.0 {
                f64::INFINITY
            } else {
                1.0 / d.y.abs()
            },
        );
        let inside =
            |x: i64, y: i64| x >= 0 && y >= 0 && (x as usize) < self.nx && (y as usize) < self.ny;
        // A ray from outside the grid: test everything.
        if !inside(x, y) {
            for i in 0..self.walls.len() {
                test(i as u32, &mut best);
            }
            return best.map(|b| b.1);
        }
        while inside(x, y) {
            for &i in &self.buckets[y as usize * self.nx + x as usize] {
                test(i, &mut best);
            }
            let leave = tx.min(ty) * self.cell;
            if best.is_some_and(|(t, _)| t <= leave) {
                break;
            }
            if tx < ty {
                x += sx;
                tx += dtx;
            } else {
                y += sy;
                ty += dty;
            }
        }
        best.map(|b| b.1)
    }
}

fn clamp_index(v: f64, n: usize) -> usize {
    (v.floor().max(0.0) as usize).min(n - 1)
}

/// Compares the angles of `a - q` and `b - q` counter-clockwise from +x, exactly.
fn angle_cmp(q: Point, a: Point, b: Point) -> std::cmp::Ordering {
    let half = |p: Point| {
        let d = p - q;
        if d.y > 0.0 || (d.y == 0.0 && d.x > 0.0) {
            0
        } else {
            1
        }
    };
    half(a).cmp(&half(b)).then_with(|| match orient(q, a, b) {
        Orientation::CounterClockwise => std::cmp::Ordering::Less,
        Orientation::Clockwise => std::cmp::Ordering::Greater,
        Orientation::Collinear => std::cmp::Ordering::Equal,
    })
}

/// Where the ray from `q` through the end points `group` (one direction) meets `wall`: an
/// end point of the wall itself when it is one of them, else the lines' intersection.
fn hit_along(q: Point, group: &[Point], wall: Segment) -> Point {
    for &e in group {
        if e == wall.a || e == wall.b {
            return e;
        }
    }
    let d = group[0] - q;
    let e = wall.b - wall.a;
    let denom = d.perp_dot(e);
    let s = if denom == 0.0 {
        0.0
    } else {
        (wall.a - q).perp_dot(d) / denom
    };
    wall.a + e * s
}

/// Drops repeated corners and corners on the line through their neighbours (within
/// `tolerance` times the scale of the three points; 0 for an exact test), until none is
/// left. Both sides of a comparison go through it.
pub fn merge_collinear(ring: &[Point], tolerance: f64) -> Vec<Point> {
    let scale = ring
        .iter()
        .fold(0.0f64, |m, p| m.max(p.x.abs()).max(p.y.abs()))
        .max(1.0);
    let same = |a: Point, b: Point| (b - a).length() <= tolerance * scale;
    let flat = |a: Point, b: Point, c: Point| {
        if tolerance == 0.0 {
            orient(a, b, c) == Orientation::Collinear
        } else {
            let cross = (b - a).perp_dot(c - b);
            cross.abs() <= tolerance * scale * ((b - a).length() + (c - b).length()).max(1e-300)
        }
    };
    // One pass with a stack, then the wrap-around.
    let mut out: Vec<Point> = Vec::with_capacity(ring.len());
    for &p in ring {
        if out.last().is_some_and(|&t| same(t, p)) {
            continue;
        }
        while out.len() >= 2 && flat(out[out.len() - 2], out[out.len() - 1], p) {
            out.pop();
        }
        out.push(p);
    }
    loop {
        let n = out.len();
        if n < 3 {
            return out;
        }
        if same(out[n - 1], out[0]) || flat(out[n - 2], out[n - 1], out[0]) {
            out.pop();
        } else if flat(out[n - 1], out[0], out[1]) {
            out.remove(0);
        } else {
            return out;
        }
    }
}

/// The area of a polygon (shoelace; positive counter-clockwise).
pub fn polygon_area(ring: &[Point]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| ring[i].perp_dot(ring[(i + 1) % n]))
        .sum::<f64>()
        * 0.5
}
