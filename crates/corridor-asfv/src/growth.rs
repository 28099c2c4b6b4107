//! How regions are seeded and grown: the ASFV loop of seed, grow, reseed.

use crate::convex::{self, Side};
use crate::decomposition::Decomposition;
use crate::walls::Wall;
use corridor_geom::{orient, Aabb, Orientation, Point};

/// What stopped a growth step.
#[derive(Clone, Copy, Debug)]
enum Blocker {
    Wall(Wall),
    Region(u32),
}

/// The result of trying to move one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// The region grew.
    Grew,
    /// The side does not bound the region at the moment (an adopted line cuts it off).
    Idle,
    /// The side cannot move any more.
    Blocked,
}

impl Decomposition {
    /// Seeds and grows until no seed fits in `area`: `extra_seeds` (snapped centres) are
    /// tried first, `growing` are existing regions that may grow again.
    pub(crate) fn fill(&mut self, area: Aabb, extra_seeds: &[Point], growing: Vec<u32>) {
        let options = self.options;
        let mut active = growing;
        for &c in extra_seeds {
            let mut size = options.seed_size;
            while size >= options.min_region_size {
                let corner = snap(c - Point::splat(size / 2.0), options.min_step);
                if let Some(slot) = self.try_seed(corner, size, false) {
                    active.push(slot);
                    break;
                }
                size /= 2.0;
            }
        }
        self.grow(active);
        let (mut spacing, mut size) = (options.seed_spacing, options.seed_size);
        loop {
            let seeds = self.seed_round(area, spacing, size);
            self.grow(seeds);
            if spacing > size {
                spacing = (spacing / 2.0).max(size);
            } else if size / 2.0 >= options.min_region_size {
                size /= 2.0;
                spacing = size;
            } else {
                break;
            }
        }
    }

    /// Places a seed quad at every lattice point (multiples of `spacing`) in `area`
    /// where a free, uncovered square of side `size` fits.
    fn seed_round(&mut self, area: Aabb, spacing: f64, size: f64) -> Vec<u32> {
        let area = match intersect(area, self.bounds) {
            Some(a) => a,
            None => return Vec::new(),
        };
        let mut seeds = Vec::new();
        let mut scratch = Vec::new();
        let k0 = ((area.min.y - size) / spacing).floor() as i64;
        let k1 = (area.max.y / spacing).ceil() as i64;
        for k in k0..=k1 {
            let y0 = k as f64 * spacing;
            let yc = y0 + size / 2.0;
            if yc <= self.bounds.min.y || yc >= self.bounds.max.y {
                continue;
            }
            let free =
                self.walls
                    .free_intervals(yc, area.min.x - size, area.max.x + size, &mut scratch);
            if free.is_empty() {
                continue;
            }
            let covered = self.covered_intervals(yc, &area, &mut scratch);
            for (lo, hi) in subtract(&free, covered) {
                let j0 = ((lo - size / 2.0) / spacing).floor() as i64;
                let j1 = ((hi - size / 2.0) / spacing).ceil() as i64;
                for j in j0..=j1 {
                    let x0 = j as f64 * spacing;
                    let xc = x0 + size / 2.0;
                    if xc <= lo || xc >= hi || xc < area.min.x - size || xc > area.max.x + size {
                        continue;
                    }
                    if let Some(slot) = self.try_seed(Point::new(x0, y0), size, true) {
                        seeds.push(slot);
                    }
                }
            }
        }
        seeds
    }

    /// The x-intervals where regions cross the line at height `y` within `area`
    /// (rounded, for pruning only: every seed is checked exactly).
    fn covered_intervals(&self, y: f64, area: &Aabb, scratch: &mut Vec<u32>) -> Vec<(f64, f64)> {
        let row = Aabb::new(Point::new(area.min.x, y), Point::new(area.max.x, y));
        self.region_grid.query(&row, scratch);
        let mut out = Vec::new();
        for &slot in scratch.iter() {
            let Some(r) = self.live(slot) else { continue };
            if !(r.bbox.min.y <= y && y <= r.bbox.max.y) {
                continue;
            }
            let n = r.polygon.len();
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for i in 0..n {
                let (a, b) = (r.polygon[i], r.polygon[(i + 1) % n]);
                if (a.y <= y && y <= b.y) || (b.y <= y && y <= a.y) {
                    let x = if a.y == b.y {
                        lo = lo.min(a.x.min(b.x));
                        a.x.max(b.x)
                    } else {
                        a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
                    };
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
            }
            if lo <= hi {
                out.push((lo, hi));
            }
        }
        out
    }

    /// Adds the square `[corner, corner + size]` as a region if it is free and meets no
    /// region's interior.
    fn try_seed(&mut self, corner: Point, size: f64, centre_is_free: bool) -> Option<u32> {
        let max = corner + Point::splat(size);
        let offsets = [max.x, max.y, corner.x, corner.y];
        let (poly, _) = convex::clip_box(offsets, &[])?;
        let centre = corner + Point::splat(size / 2.0);
        if !self.bounds.contains(corner) || !self.bounds.contains(max) {
            return None;
        }
        let bbox = Aabb::new(corner, max);
        if !self.collisions(u32::MAX, &poly, &bbox, true).is_empty() {
            return None;
        }
        // The square meets no wall, so it is all free or all blocked: ask its centre.
        if !centre_is_free {
            let mut scratch = Vec::new();
            let free = self
                .walls
                .free_intervals(centre.y, centre.x, centre.x, &mut scratch);
            if free.is_empty() {
                return None;
            }
        }
        Some(self.add_region(offsets, poly))
    }

    /// Everything whose interior-crossing makes `poly` invalid, among the walls and
    /// regions near `query` (other than the region in `slot`).
    fn collisions(
        &mut self,
        slot: u32,
        poly: &[Point],
        query: &Aabb,
        first_only: bool,
    ) -> Vec<Blocker> {
        let mut out = Vec::new();
        let mut scratch = std::mem::take(&mut self.scratch);
        self.collisions_with(slot, poly, query, first_only, &mut scratch, &mut out);
        self.scratch = scratch;
        out
    }

    fn collisions_with(
        &self,
        slot: u32,
        poly: &[Point],
        query: &Aabb,
        first_only: bool,
        scratch: &mut Vec<u32>,
        out: &mut Vec<Blocker>,
    ) -> bool {
        self.walls.near_each(query, scratch, |w| {
            let hit = if w.a == w.b {
                convex::point_strictly_inside(poly, w.a)
            } else {
                convex::segment_meets_interior(poly, w.a, w.b)
            };
            if hit {
                out.push(Blocker::Wall(*w));
            }
            !(hit && first_only)
        });
        if first_only && !out.is_empty() {
            return true;
        }
        self.region_grid.query(query, scratch);
        for &other in scratch.iter() {
            if other == slot {
                continue;
            }
            let Some(r) = self.live(other) else { continue };
            if r.bbox.intersects(query) && convex::interiors_overlap(poly, &r.polygon) {
                out.push(Blocker::Region(other));
                if first_only {
                    return true;
                }
            }
        }
        !out.is_empty()
    }

    /// Grows the regions in `active` (round-robin, one step per side per round, so that
    /// neighbours compete fairly) until none can grow.
    pub(crate) fn grow(&mut self, mut active: Vec<u32>) {
        active.sort_unstable();
        active.dedup();
        for &slot in &active {
            if let Some(r) = self.slots[slot as usize].region.as_mut() {
                r.active = [true; 4];
            }
        }
        while !active.is_empty() {
            let mut next = Vec::with_capacity(active.len());
            for &slot in &active {
                if self.live(slot).is_none() {
                    continue;
                }
                let mut progressed = false;
                for side in Side::ALL {
                    if !self.region_mut(slot).active[side as usize] {
                        continue;
                    }
                    match self.try_grow(slot, side) {
                        Step::Grew => progressed = true,
                        Step::Idle => {}
                        Step::Blocked => self.region_mut(slot).active[side as usize] = false,
                    }
                }
                if progressed {
                    next.push(slot);
                } else {
                    self.region_mut(slot).active = [false; 4];
                }
            }
            active = next;
        }
    }

    /// Tries to move one side of a region outward by the growth step, halving the step
    /// when it collides, and adopting a slanted obstacle line when that is what blocks.
    fn try_grow(&mut self, slot: u32, side: Side) -> Step {
        let options = self.options;
        let Some(region) = self.live(slot) else {
            return Step::Blocked;
        };
        let (old_offsets, old_lines, old_poly) =
            (region.offsets, region.lines.clone(), region.polygon.clone());
        let sign = side.sign();
        let old = old_offsets[side as usize];
        let limit = match side {
            Side::Right => self.bounds.max.x,
            Side::Top => self.bounds.max.y,
            Side::Left => self.bounds.min.x,
            Side::Bottom => self.bounds.min.y,
        };
        let mut step = options.growth_step;
        loop {
            let mut new = old + sign * step;
            if sign * (new - limit) > 0.0 {
                new = limit;
            }
            if sign * (new - old) <= 0.0 {
                return Step::Blocked;
            }
            let mut offsets = old_offsets;
            offsets[side as usize] = new;
            let Some((poly, reflex)) = convex::clip_box(offsets, &old_lines) else {
                return Step::Blocked;
            };
            if poly == old_poly {
                return Step::Idle;
            }
            let query = sweep_box(&poly, side, old, new, reflex);
            let blockers = self.collisions(slot, &poly, &query, false);
            if blockers.is_empty() {
                self.commit(slot, offsets, old_lines, poly);
                return Step::Grew;
            }
            // Adopt the lines of slanted walls that block, when they leave the region
            // as it is intact: the side then keeps growing along them.
            let adoptable = self.adoptable_lines(&blockers, &old_poly, &old_lines, side);
            if !adoptable.is_empty() {
                let mut lines = old_lines.clone();
                lines.extend(adoptable);
                if let Some((poly2, _)) = convex::clip_box(offsets, &lines) {
                    // A new line may move vertices outside the swept slab by a
                    // rounding error: check the whole polygon.
                    let query2 = convex::bbox(&poly2);
                    if poly2 != old_poly
                        && convex::area(&poly2) > convex::area(&old_poly)
                        && self.collisions(slot, &poly2, &query2, true).is_empty()
                    {
                        self.commit(slot, offsets, lines, poly2);
                        return Step::Grew;
                    }
                }
            }
            let touching = blockers.iter().all(|b| self.touches_side(b, side, old));
            if step <= options.min_step || (touching && std::env::var("ASFV_T").is_ok()) {
                return Step::Blocked;
            }
            step = (step / 2.0).max(options.min_step);
        }
    }

    /// Whether a blocker reaches back to the side's current position (then no smaller
    /// step can get past it).
    fn touches_side(&self, blocker: &Blocker, side: Side, old: f64) -> bool {
        let sign = side.sign();
        let behind = |p: Point| sign * (side.coordinate(p) - old) <= 0.0;
        match blocker {
            Blocker::Wall(w) => behind(w.a) || behind(w.b),
            Blocker::Region(s) => self
                .live(*s)
                .is_some_and(|r| r.polygon.iter().any(|&p| behind(p))),
        }
    }

    /// The lines of blocking walls that a region may adopt: slanted relative to the
    /// growing side, not cutting the current polygon, not adopted yet.
    fn adoptable_lines(
        &self,
        blockers: &[Blocker],
        poly: &[Point],
        lines: &[(Point, Point)],
        side: Side,
    ) -> Vec<(Point, Point)> {
        let mut out: Vec<(Point, Point)> = Vec::new();
        for b in blockers {
            let Blocker::Wall(w) = b else {
                continue;
            };
            if w.a == w.b {
                continue;
            }
            let parallel = match side {
                Side::Right | Side::Left => w.a.x == w.b.x,
                Side::Top | Side::Bottom => w.a.y == w.b.y,
            };
            if parallel {
                continue;
            }
            let keeps = |a: Point, b: Point| {
                poly.iter()
                    .all(|&p| orient(a, b, p) != Orientation::Clockwise)
            };
            let line = if keeps(w.a, w.b) {
                (w.a, w.b)
            } else if keeps(w.b, w.a) {
                (w.b, w.a)
            } else {
                continue;
            };
            let same = |l: &(Point, Point)| {
                orient(l.0, l.1, line.0) == Orientation::Collinear
                    && orient(l.0, l.1, line.1) == Orientation::Collinear
            };
            if lines.iter().any(same) || out.iter().any(same) {
                continue;
            }
            if lines.len() + out.len() >= self.options.max_adopted_walls {
                break;
            }
            out.push(line);
        }
        out
    }

    fn commit(
        &mut self,
        slot: u32,
        offsets: [f64; 4],
        lines: Vec<(Point, Point)>,
        poly: Vec<Point>,
    ) {
        let bbox = convex::bbox(&poly);
        let (old_indexed, new_indexed) = {
            let r = self.region_mut(slot);
            let old = r.indexed;
            r.offsets = offsets;
            r.lines = lines;
            r.polygon = poly;
            r.bbox = bbox;
            r.indexed = old.union(bbox);
            (old, r.indexed)
        };
        if new_indexed != old_indexed {
            self.region_grid.extend(slot, &old_indexed, &new_indexed);
        }
        self.changed.push(slot);
    }
}

/// The box of the part of `poly` swept by moving `side` from `old` to `new` (the whole
/// box when cleaning the polygon may have changed it elsewhere).
fn sweep_box(poly: &[Point], side: Side, old: f64, new: f64, whole: bool) -> Aabb {
    let b = convex::bbox(poly);
    if whole {
        return b;
    }
    let (lo, hi) = (old.min(new), old.max(new));
    match side {
        Side::Right | Side::Left => Aabb::new(Point::new(lo, b.min.y), Point::new(hi, b.max.y)),
        Side::Top | Side::Bottom => Aabb::new(Point::new(b.min.x, lo), Point::new(b.max.x, hi)),
    }
}

/// The parts of the intervals `free` outside the closed intervals `covered` (as open
/// intervals: a seed centre must lie strictly inside one).
fn subtract(free: &[(f64, f64)], mut covered: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    covered.sort_by(|p, q| p.0.total_cmp(&q.0));
    let mut out = Vec::new();
    let mut k = 0;
    for &(lo, hi) in free {
        let mut start = lo;
        while k < covered.len() && covered[k].1 < start {
            k += 1;
        }
        let mut j = k;
        while j < covered.len() && covered[j].0 < hi {
            if covered[j].0 > start {
                out.push((start, covered[j].0));
            }
            start = start.max(covered[j].1);
            j += 1;
        }
        if start < hi {
            out.push((start, hi));
        }
    }
    out
}

fn intersect(a: Aabb, b: Aabb) -> Option<Aabb> {
    let min = a.min.max(b.min);
    let max = a.max.min(b.max);
    (min.x <= max.x && min.y <= max.y).then(|| Aabb::new(min, max))
}

/// `p` rounded to the lattice of `pitch`.
pub(crate) fn snap(p: Point, pitch: f64) -> Point {
    Point::new((p.x / pitch).round() * pitch, (p.y / pitch).round() * pitch)
}
