//! What can a point see? Lee's rotational sweep around one point.
//!
//! A ray from the centre turns once around it. Events are the wall vertices in angular
//! order (ties by distance); the status is the set of walls properly crossing the ray,
//! in a balanced ordered set keyed by "nearer to the centre". Because walls never cross,
//! that order is the same for every ray two walls both cross, so it can be decided from
//! the walls alone (no angle, no rounding), and the set's first element is always the
//! nearest crossing. At each event ray:
//!
//! 1. walls ending on the ray leave the status;
//! 2. the vertices on the ray are visited nearest first: a vertex is visible if the
//!    nearest crossing wall lies beyond it and every vertex before it on the ray lets a
//!    straight line pass (one wedge holds both directions: running along a wall or
//!    grazing a corner is fine, crossing a pinch point or entering an obstacle is not);
//! 3. walls starting on the ray enter the status.
//!
//! Walls lying along the ray never enter the status; their endpoints are vertices on the
//! ray and decide by step 2. Everything is exact.
//!
//! **Only the directions that matter.** From a corner, directions into its obstacle
//! see nothing, and for the reduced graph only directions whose whole line stays clear
//! of the corner's obstacle count (tangents). The sweep runs over those ranges only,
//! each starting from the status of its first ray (found by testing every gathered
//! wall), with marks at the range ends.
//!
//! **Culling.** On large maps the sweep around one vertex would look at every wall. It
//! first gathers only the walls of the grid cells meeting a small box around the centre
//! (the *region*). The answer is exact for every vertex whose segment to the centre
//! lies in the region, since such a segment meets only gathered walls; and if every ray
//! of the ranges is blocked inside the region, no other vertex can be visible, so the
//! sweep is done. Otherwise the region grows — only towards the rays and ranges not yet
//! blocked, by triangles reaching twice as far — and the sweep runs again. Whether a
//! blocked range lies in the region is decided by per-direction reach records, by the
//! grown triangles, or else cell by cell. Blocking points are rounded ray–wall
//! intersections, but every region test is padded (and cells cover triangles with a
//! margin), so rounding cannot make the culling unsound short of walls within ~1e-14
//! rad of parallel to a ray. Tests compare the culled sweep with the unculled one on
//! random and on all shared maps of up to 3 000 walls.

mod region;
mod status;

use corridor_geom::free_space::FreeSpace;
use corridor_geom::free_space::{along_ray_cmp, Arrival, Place, Walk};
use corridor_geom::free_space::{
    angle_from_cmp, in_half_open, pseudo_angle, side, wrap4, Dir, Wedge,
};
use corridor_geom::orient;
use corridor_geom::{Orientation, Point};
use status::StatusKey;
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// A direction-only event: an end of a range of directions.
const MARK: u32 = u32::MAX;
/// How much farther the region reaches after each unsettled sweep.
const GROWTH: f64 = 2.0;
/// Pseudo-angles closer than this to a range end are decided exactly (rounding errors
/// are some 1e-16).
const KEY_SLACK: f64 = 1e-9;
/// Angular bins of the region around the centre.
const BINS: usize = 64;

/// The angular bin of direction `v`.
fn bin(v: Point) -> usize {
    let t = v.y.atan2(v.x) + std::f64::consts::PI;
    ((t * (BINS as f64 / std::f64::consts::TAU)).floor() as usize) % BINS
}

#[derive(Clone, Copy, Debug)]
struct Event {
    /// The vertex; for a direction-only event, roughly a point on its ray.
    point: Point,
    dir: Dir,
    vertex: u32,
    /// Rounded sort keys: pseudo-angle and squared distance.
    key: f64,
    dist: f64,
}

/// Who the sweep is centred on.
struct SweepArgs<'w> {
    c: Point,
    place: Place,
    /// The free wedges at the centre (none: free all round).
    wedges: &'w [Wedge],
    tangent_only: bool,
}

/// A direction (or range of directions) in which the sweep was not blocked inside the
/// region it looked at.
#[derive(Clone, Copy, Debug)]
enum Open {
    Ray(Point),
    Between(Point, Point),
}

/// How an event ray ended: its first blocker, if any.
#[derive(Clone, Copy, Debug)]
struct RayRecord {
    /// A point on the ray (rough for a range end).
    dir: Point,
    blocker: Option<Point>,
}

/// The open range of directions from one event ray to the next, and the wall blocking
/// all of it (with its hits on both rays), if any.
#[derive(Clone, Copy, Debug)]
struct IntervalRecord {
    from: Point,
    to: Point,
    blocker: Option<(u32, Point, Point)>,
}

/// A closed range of directions swept in one go, counter-clockwise from `from` to `to`
/// (with rough points on both rays); `None` stands for the full turn.
#[derive(Clone, Copy, Debug)]
struct Arc {
    from: Dir,
    to: Dir,
    from_point: Point,
    to_point: Point,
}

/// The ranges of directions that matter from the centre: its free wedges, or with
/// `tangent_only` the directions whose whole line leaves its (reflex) wedge's obstacle on
/// one side — for a wedge from `S` to `E` the ranges `S … −E` and `−S … E`.
fn arcs(c: Point, wedges: &[Wedge], tangent_only: bool) -> Vec<Option<Arc>> {
    if wedges.is_empty() || wedges.iter().any(|w| w.full) {
        return vec![None];
    }
    let mut out = Vec::new();
    for w in wedges {
        let (s, e) = (Dir::towards(w.start), Dir::towards(w.end));
        let (ms, me) = (c * 2.0 - w.start, c * 2.0 - w.end);
        if !tangent_only {
            out.push(Some(Arc {
                from: s,
                to: e,
                from_point: w.start,
                to_point: w.end,
            }));
        } else if w.is_reflex() {
            out.push(Some(Arc {
                from: s,
                to: e.opposite(),
                from_point: w.start,
                to_point: me,
            }));
            out.push(Some(Arc {
                from: s.opposite(),
                to: e,
                from_point: ms,
                to_point: w.end,
            }));
        }
    }
    out
}

/// Reusable scratch space for sweeps over one [`FreeSpace`].
pub(crate) struct Sweeper<'a> {
    fs: &'a FreeSpace,
    wall_mark: Vec<u32>,
    vertex_mark: Vec<u32>,
    /// Cells of the region looked at.
    cell_region: Vec<u32>,
    stamp: u32,
    walls: Vec<u32>,
    events: Vec<Event>,
    /// The gathered vertices other than the centre (the events of a full turn).
    all: Vec<Event>,
    status: BTreeSet<StatusKey>,
    found: Vec<(u32, Arrival)>,
    open: Vec<Open>,
    rays: Vec<RayRecord>,
    intervals: Vec<IntervalRecord>,
    /// How far the region reaches in each angular bin around the centre.
    reach: Vec<f64>,
    /// The far corners of the triangles (with the centre) grown so far, and which of them
    /// meet each angular bin.
    pieces: Vec<(Point, Point)>,
    piece_bins: Vec<Vec<u32>>,
    /// Half the side of the first box looked at.
    pub initial_reach: f64,
    /// Whether to cull at all (off: every sweep looks at every wall).
    pub cull: bool,
}

/// What a sweep saw.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    /// Visible vertices (the open segment from the centre to them is free), with what a
    /// path to them must agree with side-wise.
    pub vertices: Vec<(u32, Arrival)>,
}

impl<'a> Sweeper<'a> {
    pub fn new(fs: &'a FreeSpace) -> Self {
        let cells = fs.grid.cell_count();
        Sweeper {
            fs,
            wall_mark: vec![0; fs.walls.len()],
            vertex_mark: vec![0; fs.points.len()],
            cell_region: vec![0; cells],
            stamp: 0,
            walls: Vec::new(),
            events: Vec::new(),
            all: Vec::new(),
            status: BTreeSet::new(),
            found: Vec::new(),
            open: Vec::new(),
            rays: Vec::new(),
            intervals: Vec::new(),
            reach: Vec::new(),
            pieces: Vec::new(),
            piece_bins: vec![Vec::new(); BINS],
            initial_reach: 2.0 * fs.grid.cell_size(),
            cull: true,
        }
    }

    /// The vertices visible from `centre` (whose open segment to the centre is free;
    /// the wedge tests at both ends are the caller's), and whether `target` is.
    ///
    /// The sweep first looks at the walls near the centre, and grows the region it looks
    /// at only in the directions not yet blocked inside it (see the module doc).
    ///
    /// With `tangent_only`, only the directions along which the line through the centre
    /// is tangent to its obstacle matter (the reduced graph's edges); the region grows
    /// only to settle those, and vertices in other directions may be missing.
    pub fn visible_from(
        &mut self,
        centre: Point,
        centre_place: Place,
        centre_wedges: &[Wedge],
        tangent_only: bool,
        seen: &mut Seen,
    ) {
        let args = SweepArgs {
            c: centre,
            place: centre_place,
            wedges: centre_wedges,
            tangent_only,
        };
        let fs = self.fs;
        let stamp = self.next_stamp();
        self.walls.clear();
        if !self.cull {
            for w in 0..fs.walls.len() {
                self.wall_mark[w] = stamp;
                self.walls.push(w as u32);
            }
            self.sweep(&args, false, seen);
            return;
        }
        let scale = centre.abs().max_element() + fs.bounds().size().max_element();
        let pad = 1e-9 * scale + 1e-6 * fs.grid.cell_size();
        let mut reach = self.initial_reach.max(f64::MIN_POSITIVE);
        let limit = 4.0 * scale + 4.0 * fs.grid.cell_size();
        self.grow_box(centre, reach, 2.0 * pad);
        // The box holds the disk of radius `reach`.
        self.reach.clear();
        self.reach.resize(BINS, reach);
        self.pieces.clear();
        self.piece_bins.iter_mut().for_each(Vec::clear);
        loop {
            let everything = self.walls.len() == fs.walls.len();
            let check = !everything;
            if self.sweep(&args, check, seen) || everything {
                return;
            }
            reach *= GROWTH;
            if reach > limit {
                // Cannot happen for a bounded free space; stay safe regardless.
                for w in 0..fs.walls.len() {
                    if self.wall_mark[w] != stamp {
                        self.wall_mark[w] = stamp;
                        self.walls.push(w as u32);
                    }
                }
                continue;
            }
            let open = std::mem::take(&mut self.open);
            for o in &open {
                match *o {
                    Open::Ray(u) => {
                        let far = centre + (u - centre).normalize_or_zero() * reach * 1.5;
                        self.grow([centre, far, far], 2.0 * pad);
                    }
                    Open::Between(u, v) => {
                        let du = (u - centre).normalize_or_zero();
                        let dv = (v - centre).normalize_or_zero();
                        if du.perp_dot(dv) > 0.0 && du.dot(dv) > 0.5 {
                            // Narrower than 60°: the triangle reaching 1.5 × reach covers
                            // the sector out to `reach`.
                            let (fu, fv) = (centre + du * reach * 1.5, centre + dv * reach * 1.5);
                            self.grow([centre, fu, fv], 2.0 * pad);
                            self.note_sector(centre, fu, fv);
                        } else {
                            self.grow_box(centre, reach, 2.0 * pad);
                            for r in &mut self.reach {
                                *r = r.max(reach);
                            }
                        }
                    }
                }
            }
            self.open = open;
        }
    }

    /// One sweep over the gathered walls. With `check`, also records in `self.open` the
    /// directions not blocked inside the region, and returns whether there were none
    /// (only then is the answer complete).
    fn sweep(&mut self, args: &SweepArgs<'_>, check: bool, seen: &mut Seen) -> bool {
        let c = args.c;
        let fs = self.fs;
        let stamp = self.stamp;
        self.all.clear();
        self.found.clear();
        self.open.clear();
        for &w in &self.walls {
            let rec = fs.walls[w as usize];
            for v in [rec.a, rec.b] {
                if self.vertex_mark[v as usize] != stamp {
                    self.vertex_mark[v as usize] = stamp;
                    let p = fs.points[v as usize];
                    if p != c {
                        self.all.push(Event {
                            point: p,
                            dir: Dir::towards(p),
                            vertex: v,
                            key: 0.0,
                            dist: 0.0,
                        });
                    }
                }
            }
        }
        // The marks must not survive into the next round's collection.
        for e in &self.all {
            self.vertex_mark[e.vertex as usize] = stamp.wrapping_sub(1);
        }
        if let Some(v) = fs.vertex_at(c) {
            self.vertex_mark[v] = stamp.wrapping_sub(1);
        }
        if self.all.is_empty() {
            seen.vertices.clear();
            if check {
                // Nothing near at all: look farther all round.
                self.open.push(Open::Between(c, c));
                return false;
            }
            return true;
        }
        let scale = c.abs().max_element() + fs.bounds().size().max_element();
        let pad = 1e-9 * scale + 1e-6 * fs.grid.cell_size();
        for arc in arcs(c, args.wedges, args.tangent_only) {
            self.sweep_range(args, arc, check, pad);
        }
        if check && !self.open.is_empty() {
            return false;
        }
        self.found.sort_unstable_by_key(|f| f.0);
        self.found.dedup_by_key(|f| f.0);
        std::mem::swap(&mut seen.vertices, &mut self.found);
        true
    }

    /// Steps 1 and 3 of an event ray (the events `range`): the gathered walls at its
    /// vertices that lie behind the ray (clockwise from it) leave the status, or with
    /// `enter` those ahead of it (counter-clockwise) enter. Walls along the ray do neither.
    fn update_status(&mut self, c: Point, range: std::ops::Range<usize>, enter: bool) {
        let fs = self.fs;
        let turn = if enter {
            Orientation::CounterClockwise
        } else {
            Orientation::Clockwise
        };
        for k in range {
            let v = self.events[k].vertex;
            if v == MARK {
                continue;
            }
            let x = self.events[k].point;
            for &w in fs.incident_walls(v) {
                if self.wall_mark[w as usize] != self.stamp {
                    continue;
                }
                let rec = fs.walls[w as usize];
                let y = fs.points[if rec.a == v { rec.b } else { rec.a } as usize];
                if orient(c, x, y) != turn {
                    continue;
                }
                // Keys run counter-clockwise around the centre: from the wall's end
                // first reached to the one reached later.
                if enter {
                    self.status.insert(StatusKey {
                        a: x,
                        b: y,
                        centre: c,
                        id: w,
                    });
                } else {
                    self.status.remove(&StatusKey {
                        a: y,
                        b: x,
                        centre: c,
                        id: w,
                    });
                }
            }
        }
    }

    /// The sweep over one range of directions (the full turn for `None`).
    fn sweep_range(&mut self, args: &SweepArgs<'_>, arc: Option<Arc>, check: bool, pad: f64) {
        let c = args.c;
        let fs = self.fs;
        self.events.clear();
        self.status.clear();
        self.rays.clear();
        self.intervals.clear();

        // Events in the range (with marks at its ends), sorted by a rounded pseudo-angle
        // from its start first (cheap), then repaired by an insertion pass with the exact
        // order (rounding only ever swaps near neighbours).
        let (base, base_point) = match arc {
            None => (Dir::towards(c + Point::X), c + Point::X),
            Some(a) => (a.from, a.from_point),
        };
        let base_key = pseudo_angle(base_point - c);
        match arc {
            None => self.events.extend_from_slice(&self.all),
            Some(a) => {
                for mark in [(a.from, a.from_point), (a.to, a.to_point)] {
                    self.events.push(Event {
                        point: mark.1,
                        dir: mark.0,
                        vertex: MARK,
                        key: 0.0,
                        dist: 0.0,
                    });
                }
                // Rounded keys settle all but the events near the range's ends.
                let end_key = wrap4(pseudo_angle(a.to_point - c) - base_key);
                let inside = |e: &Event| {
                    let k = wrap4(pseudo_angle(e.point - c) - base_key);
                    if k > KEY_SLACK && k < end_key - KEY_SLACK {
                        true
                    } else if k > end_key + KEY_SLACK && k < 4.0 - KEY_SLACK {
                        false
                    } else {
                        angle_from_cmp(c, a.from, e.dir, a.to) != Ordering::Greater
                    }
                };
                self.events
                    .extend(self.all.iter().filter(|e| inside(e)).copied());
            }
        }
        for e in &mut self.events {
            let v = e.point - c;
            e.key = wrap4(pseudo_angle(v) - base_key);
            e.dist = if e.vertex == MARK {
                -1.0
            } else {
                v.length_squared()
            };
        }
        let exact = |x: &Event, y: &Event| {
            angle_from_cmp(c, base, x.dir, y.dir).then_with(|| {
                match (x.vertex == MARK, y.vertex == MARK) {
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                    (false, false) => along_ray_cmp(c, x.point, y.point),
                }
            })
        };
        self.events
            .sort_unstable_by(|x, y| x.key.total_cmp(&y.key).then(x.dist.total_cmp(&y.dist)));
        for i in 1..self.events.len() {
            let mut j = i;
            while j > 0 && exact(&self.events[j - 1], &self.events[j]) == Ordering::Greater {
                self.events.swap(j - 1, j);
                j -= 1;
            }
        }

        // Walls crossing the ray just before the start.
        for &w in &self.walls {
            let (mut a, mut b) = fs.wall_points(w);
            match orient(c, a, b) {
                Orientation::Collinear => continue,
                Orientation::Clockwise => std::mem::swap(&mut a, &mut b),
                Orientation::CounterClockwise => {}
            }
            // Rounded keys settle walls clearly away from the start ray.
            let (ka, kb) = (
                wrap4(pseudo_angle(a - c) - base_key),
                wrap4(pseudo_angle(b - c) - base_key),
            );
            let clear = |k: f64| k > KEY_SLACK && k < 4.0 - KEY_SLACK;
            let crosses = if clear(ka) && clear(kb) {
                kb < ka
            } else {
                in_half_open(c, Dir::towards(a), Dir::towards(b), base)
            };
            if crosses {
                self.status.insert(StatusKey {
                    a,
                    b,
                    centre: c,
                    id: w,
                });
            }
        }

        let n = self.events.len();
        let mut i = 0;
        while i < n {
            let dir_point = self.events[i].point;
            let dir = self.events[i].dir;
            let mut j = i + 1;
            while j < n && angle_from_cmp(c, base, dir, self.events[j].dir) == Ordering::Equal {
                j += 1;
            }
            // 1. Walls ending on this ray leave.
            self.update_status(c, i..j, false);
            // 2. Visit the vertices on the ray, nearest first.
            let nearest = self.status.first().copied();
            let mut blocker: Option<Point> = None;
            let mut walk = Walk::new(fs, args.place, Dir::away_from(c));
            for k in i..j {
                let Event {
                    point: x,
                    vertex: v,
                    ..
                } = self.events[k];
                if v == MARK {
                    continue;
                }
                let before_crossing = nearest.is_none_or(|e| {
                    let sc = side(e.a, e.b, c);
                    let sx = side(e.a, e.b, x);
                    sx == sc || sx == 0
                });
                if !before_crossing {
                    break;
                }
                self.found.push((v, walk.arrive(Place::Vertex(v))));
                if !walk.pass(v) {
                    blocker = Some(x);
                    break;
                }
            }
            if check {
                let blocker = blocker.or_else(|| nearest.map(|e| hit(c, dir_point, e.a, e.b)));
                self.rays.push(RayRecord {
                    dir: dir_point,
                    blocker,
                });
            }
            // 3. Walls starting on this ray enter.
            self.update_status(c, i..j, true);
            // The open range up to the next ray must be blocked inside the region too
            // (a range sweep ends at its last ray; a full turn wraps round).
            if check && (j < n || arc.is_none()) {
                let next_point = self.events[if j < n { j } else { 0 }].point;
                self.intervals.push(IntervalRecord {
                    from: dir_point,
                    to: next_point,
                    blocker: self.status.first().map(|e| {
                        (
                            e.id,
                            hit(c, dir_point, e.a, e.b),
                            hit(c, next_point, e.a, e.b),
                        )
                    }),
                });
            }
            i = j;
        }
        if check {
            self.closed(c, pad, arc.is_none());
        }
    }
}

/// Where the ray from `c` through `through` meets the line of `a b` (rounded; an endpoint
/// on the ray is returned exactly).
fn hit(c: Point, through: Point, a: Point, b: Point) -> Point {
    for p in [a, b] {
        if orient(c, through, p) == Orientation::Collinear {
            return p;
        }
    }
    let d = through - c;
    let e = b - a;
    let denom = d.perp_dot(e);
    let t = (a - c).perp_dot(e) / denom;
    c + d * t
}
