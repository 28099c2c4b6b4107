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

/// A visibility polygon cut to a range and a cone, as the oracle computes it: corners with
/// whether the edge leaving each runs along the range circle, and the area.
#[derive(Clone, Debug, PartialEq)]
pub struct LimitedPolygon {
    /// Corners, counter-clockwise, each with `true` when the edge leaving it is an arc.
    pub corners: Vec<(Point, bool)>,
    /// The area (triangles to the viewpoint, plus circular sectors under the arcs).
    pub area: f64,
}

/// Cuts the visibility polygon `ring` of `q` (counter-clockwise, star-shaped around `q`)
/// to the disk of radius `range` and the cone of `opening` radians around `direction`,
/// edge by edge: each edge is split where it crosses the cone's sides and the circle, and
/// each part is judged by its midpoint (hidden outside the cone; kept within the disk;
/// replaced by its radial projection onto the circle, an arc, beyond it). Written apart
/// from the library's cut, which walks the corners by angle.
pub fn limit_polygon(
    q: Point,
    ring: &[Point],
    range: Option<f64>,
    cone: Option<(Point, f64)>,
) -> LimitedPolygon {
    let cone = cone.filter(|&(_, opening)| opening < std::f64::consts::TAU);
    let in_cone = |p: Point| match cone {
        None => true,
        Some((dir, opening)) => {
            let d = p - q;
            let t = (d.y.atan2(d.x) - dir.y.atan2(dir.x) + std::f64::consts::PI)
                .rem_euclid(std::f64::consts::TAU)
                - std::f64::consts::PI;
            t.abs() <= opening / 2.0
        }
    };
    let in_disk = |p: Point| range.is_none_or(|r| (p - q).length() <= r);
    let project = |p: Point| match range {
        Some(r) => q + (p - q).normalize() * r,
        None => p,
    };
    let sides: Vec<Point> = match cone {
        None => Vec::new(),
        Some((dir, opening)) => {
            let c = dir.y.atan2(dir.x);
            [c - opening / 2.0, c + opening / 2.0]
                .iter()
                .map(|a| Point::new(a.cos(), a.sin()))
                .collect()
        }
    };
    // (start, end, kind): 0 hidden, 1 straight, 2 arc.
    let mut pieces: Vec<(Point, Point, u8)> = Vec::new();
    let n = ring.len();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let d = b - a;
        let mut ts = vec![0.0, 1.0];
        for &u in &sides {
            let den = d.perp_dot(u);
            if den != 0.0 {
                let t = (q - a).perp_dot(u) / den;
                let s = (q - a).perp_dot(d) / den;
                if t > 0.0 && t < 1.0 && s > 0.0 {
                    ts.push(t);
                }
            }
        }
        if let Some(r) = range {
            let f = a - q;
            let (aa, bb, cc) = (d.dot(d), f.dot(d), f.dot(f) - r * r);
            let disc = bb * bb - aa * cc;
            if aa > 0.0 && disc > 0.0 {
                for t in [(-bb - disc.sqrt()) / aa, (-bb + disc.sqrt()) / aa] {
                    if t > 0.0 && t < 1.0 {
                        ts.push(t);
                    }
                }
            }
        }
        ts.sort_by(f64::total_cmp);
        for w in ts.windows(2) {
            if w[0] >= w[1] {
                continue;
            }
            let (s, e) = (a + d * w[0], a + d * w[1]);
            let mid = a + d * ((w[0] + w[1]) / 2.0);
            let kind = if !in_cone(mid) {
                0
            } else if in_disk(mid) {
                1
            } else {
                2
            };
            pieces.push((s, e, kind));
        }
    }
    let m = pieces.len();
    let mut corners = Vec::new();
    let mut area = 0.0;
    for i in 0..m {
        let (s, e, kind) = pieces[i];
        match kind {
            0 => {
                let (_, pe, pk) = pieces[(i + m - 1) % m];
                if pk != 0 {
                    let end = if pk == 2 { project(pe) } else { pe };
                    corners.push((end, false));
                    corners.push((q, false));
                }
            }
            1 => {
                corners.push((s, false));
                area += 0.5 * (s - q).perp_dot(e - q);
            }
            _ => {
                corners.push((project(s), true));
                let r = range.unwrap_or(0.0);
                // A part of one edge turns less than a half turn around `q` (none, for
                // a window): the signed angle, never a wrap-around.
                let (u, v) = (s - q, e - q);
                area += 0.5 * r * r * u.perp_dot(v).atan2(u.dot(v));
            }
        }
    }
    LimitedPolygon { corners, area }
}

/// [`merge_collinear`] for limited polygons: drops repeated corners (the later one says
/// which edge leaves), corners between two arcs, and corners between two straight edges
/// on one line (within `tolerance`, as there), until none is left.
pub fn merge_limited(ring: &[(Point, bool)], tolerance: f64) -> Vec<(Point, bool)> {
    let scale = ring
        .iter()
        .fold(0.0f64, |m, p| m.max(p.0.x.abs()).max(p.0.y.abs()))
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
    let mut out: Vec<(Point, bool)> = ring.to_vec();
    loop {
        let n = out.len();
        if n < 2 {
            return out;
        }
        let drop = (0..n).find(|&i| {
            let (p, c, nx) = (out[(i + n - 1) % n], out[i], out[(i + 1) % n]);
            same(c.0, nx.0) || (p.1 && c.1) || (n > 3 && !p.1 && !c.1 && flat(p.0, c.0, nx.0))
        });
        match drop {
            Some(i) => {
                out.remove(i);
            }
            None => return out,
        }
    }
}
