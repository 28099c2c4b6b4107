//! How the free space is built: the walls of the environment split at vertices, shared
//! pieces cancelled, straight runs merged, and the free wedges at every vertex.

use super::query::properly_cross;
use super::wedge::{angle_cmp, Dir, Wedge};
use super::{point_key, FreeSpace, FreeSpaceError, WallRec};
use crate::spatial::FloatSegmentGrid as SegmentGrid;
use crate::{
    orient, point_on_segment, Aabb, Environment, FxHashMap as HashMap, Obstacle, ObstacleId,
    Orientation, Point, Ring, Segment, WallSource, Walls,
};
use std::cmp::Ordering;

fn lex_cmp(p: Point, q: Point) -> Ordering {
    p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y))
}

struct Interner {
    points: Vec<Point>,
    ids: HashMap<(u64, u64), u32>,
}

impl Interner {
    fn id(&mut self, p: Point) -> u32 {
        let next = self.points.len() as u32;
        *self.ids.entry(point_key(p)).or_insert_with(|| {
            self.points.push(p + Point::ZERO);
            next
        })
    }
}

/// A piece of input boundary between two interned points.
#[derive(Clone, Copy, Debug)]
struct Piece {
    a: u32,
    b: u32,
    two_sided: bool,
    source: Option<ObstacleId>,
}

impl FreeSpace {
    /// The free space of an environment.
    ///
    /// Interior-disjoint obstacles (touching along edges and at corners, as grid cells
    /// do) are merged exactly at their own coordinates ([`FreeSpace::from_disjoint`]).
    /// Obstacles that overlap (or thin walls that cross obstacles) are instead unioned by
    /// [`crate::normalize`]; the walls then lie on the environment's snap grid.
    ///
    /// # Errors
    /// [`FreeSpaceError::Environment`] for invalid input; [`FreeSpaceError::Normalize`] if the
    /// union fails.
    pub fn from_environment(env: &Environment) -> Result<Self, FreeSpaceError> {
        match Self::from_disjoint(env) {
            Err(
                FreeSpaceError::Crossing { .. }
                | FreeSpaceError::Overlap { .. }
                | FreeSpaceError::Inconsistent { .. },
            ) => {
                // Overlapping obstacles: let the geometry kernel union them (on its grid).
                let walls = crate::normalize(env)?;
                Self::from_walls(&walls, env.boundary().clone())
            }
            other => other,
        }
    }

    /// The free space of an environment whose polygon obstacles are interior-disjoint
    /// (they may touch along edges and at corners, and may touch the boundary), merged
    /// exactly: no coordinate is moved or created.
    ///
    /// Polyline obstacles become thin walls (free on both sides); pieces of them lying in
    /// an obstacle or along an obstacle's edge are dropped. Point obstacles are ignored:
    /// they take no area, and a shortest path in the closed free space never needs to
    /// bend at an isolated point.
    ///
    /// # Errors
    /// [`FreeSpaceError::Environment`] for invalid input; [`FreeSpaceError::Crossing`],
    /// [`FreeSpaceError::Overlap`] or [`FreeSpaceError::Inconsistent`] when obstacles overlap.
    pub fn from_disjoint(env: &Environment) -> Result<Self, FreeSpaceError> {
        env.validate()?;
        // Every polygon corner is interned once (one hash look-up), its ring's pieces
        // then join consecutive ids: no copy of the ring, no second look-up per corner.
        let corners = env.boundary().len()
            + env
                .obstacles()
                .map(|(_, o)| match o {
                    Obstacle::Polygon(poly) => poly.rings().map(Ring::len).sum(),
                    Obstacle::Polyline(line) => line.len(),
                    Obstacle::Point(_) => 0,
                })
                .sum::<usize>();
        let mut interner = Interner {
            points: Vec::with_capacity(corners),
            ids: HashMap::default(),
        };
        interner.ids.reserve(corners);
        let mut pieces: Vec<Piece> = Vec::with_capacity(corners);
        let mut ring_ids: Vec<u32> = Vec::new();
        let mut add_ring = |ring: &Ring, ccw: bool, source: Option<ObstacleId>| {
            // Interned in walking order (the numbering does not depend on the input's
            // orientation).
            ring_ids.clear();
            if ring.is_counter_clockwise() == ccw {
                ring_ids.extend(ring.vertices().iter().map(|&p| interner.id(p)));
            } else {
                ring_ids.extend(ring.vertices().iter().rev().map(|&p| interner.id(p)));
            }
            let Some(&first) = ring_ids.first() else {
                return;
            };
            let next = ring_ids[1..].iter().chain(std::iter::once(&first));
            for (&a, &b) in ring_ids.iter().zip(next) {
                if a != b {
                    pieces.push(Piece {
                        a,
                        b,
                        two_sided: false,
                        source,
                    });
                }
            }
        };
        // Free space on the left: the boundary counter-clockwise, obstacle exteriors
        // clockwise, holes in obstacles (free pockets) counter-clockwise.
        add_ring(env.boundary(), true, None);
        for (id, obstacle) in env.obstacles() {
            if let Obstacle::Polygon(poly) = obstacle {
                add_ring(&poly.exterior, false, Some(id));
                for hole in &poly.holes {
                    add_ring(hole, true, Some(id));
                }
            }
        }
        for (id, obstacle) in env.obstacles() {
            if let Obstacle::Polyline(line) = obstacle {
                for w in line.windows(2) {
                    let (a, b) = (interner.id(w[0]), interner.id(w[1]));
                    if a != b {
                        pieces.push(Piece {
                            a,
                            b,
                            two_sided: true,
                            source: Some(id),
                        });
                    }
                }
            }
        }
        Self::from_pieces(interner, pieces, env.boundary().clone())
    }

    /// The free space of normalized [`Walls`] (obstacles already
    /// unioned and clipped, coordinates on the walls' snap grid), inside `boundary`.
    ///
    /// # Errors
    /// Only if the walls break their own guarantees ([`FreeSpaceError::Crossing`] and the
    /// like).
    pub fn from_walls(walls: &Walls, boundary: Ring) -> Result<Self, FreeSpaceError> {
        let mut interner = Interner {
            points: Vec::new(),
            ids: HashMap::default(),
        };
        let mut pieces = Vec::new();
        for w in &walls.segments {
            let (a, b) = (
                interner.id(walls.grid.to_point(w.a)),
                interner.id(walls.grid.to_point(w.b)),
            );
            if a == b {
                continue;
            }
            let source = w.sources.iter().find_map(|s| match s {
                WallSource::Obstacle(id) => Some(*id),
                WallSource::Boundary => None,
            });
            pieces.push(Piece {
                a,
                b,
                two_sided: w.two_sided,
                source,
            });
        }
        Self::from_pieces(interner, pieces, boundary)
    }

    fn from_pieces(
        interner: Interner,
        pieces: Vec<Piece>,
        boundary: Ring,
    ) -> Result<Self, FreeSpaceError> {
        let (points, interner_ids) = (interner.points, interner.ids);
        let (pieces, piece_grid) = split_at_vertices(&points, pieces);

        // Cancel pieces shared by two polygons (or a polygon and the boundary): the
        // one-sided pieces by their undirected key (piece order kept within a key, so the
        // first piece with an owner names the wall), each key's directions summed.
        let key_of = |p: &Piece| (p.a.min(p.b) as u64) << 32 | p.a.max(p.b) as u64;
        let mut keyed: Vec<(u64, u32)> = pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.two_sided)
            .map(|(i, p)| (key_of(p), i as u32))
            .collect();
        keyed.sort_unstable();
        let mut one_sided: Vec<Piece> = Vec::with_capacity(keyed.len());
        let mut net_keys: Vec<u64> = Vec::with_capacity(keyed.len());
        for run in keyed.chunk_by(|x, y| x.0 == y.0) {
            let (mut n, mut source) = (0i32, None);
            for &(_, i) in run {
                let p = pieces[i as usize];
                n += if p.a < p.b { 1 } else { -1 };
                source = source.or(p.source);
            }
            let key = run[0].0;
            net_keys.push(key);
            let (lo, hi) = ((key >> 32) as u32, key as u32);
            match n {
                0 => {}
                1 | -1 => one_sided.push(Piece {
                    a: if n == 1 { lo } else { hi },
                    b: if n == 1 { hi } else { lo },
                    two_sided: false,
                    source,
                }),
                _ => {
                    return Err(FreeSpaceError::Overlap {
                        segment: Segment::new(points[lo as usize], points[hi as usize]),
                    })
                }
            }
        }
        // The walls' order: by their directed ends.
        one_sided.sort_unstable_by_key(|p| (p.a as u64) << 32 | p.b as u64);

        // Thin walls: drop duplicates, pieces along polygon edges and pieces inside
        // obstacles.
        let thin: Vec<Piece> = pieces.iter().filter(|p| p.two_sided).copied().collect();
        let mut thin_seen: HashMap<u64, ()> = HashMap::default();
        let thin: Vec<Piece> = if thin.is_empty() {
            // No thin walls (the usual polygon input): no probe grid to build.
            thin
        } else {
            let probe = Probe::new(&points, &one_sided);
            thin.into_iter()
                .filter(|p| {
                    let key = key_of(p);
                    if net_keys.binary_search(&key).is_ok() || thin_seen.insert(key, ()).is_some() {
                        return false;
                    }
                    let mid = (points[p.a as usize] + points[p.b as usize]) * 0.5;
                    probe.winding(mid) == 1
                })
                .collect()
        };

        let walls = merge_straight_runs(&points, one_sided, thin);
        // When nothing was split, cancelled or joined (and there are no thin walls), the
        // walls are the pieces in another order (sorted by their ends): the pieces' grid,
        // renumbered, is the walls' grid.
        let unchanged = walls.len() == pieces.len() && pieces.iter().all(|p| !p.two_sided);
        let grid = piece_grid.filter(|_| unchanged).and_then(|mut grid| {
            let wall_of: Vec<u32> = pieces
                .iter()
                .map(|p| {
                    let at = walls.binary_search_by_key(&(p.a, p.b), |w| (w.a, w.b));
                    at.map_or(u32::MAX, |k| k as u32)
                })
                .collect();
            if wall_of.contains(&u32::MAX) {
                return None;
            }
            grid.renumber(&wall_of);
            Some(grid)
        });

        // Renumber the points still in use.
        let mut new_id = vec![u32::MAX; points.len()];
        let mut kept: Vec<Point> = Vec::with_capacity(points.len());
        let mut walls: Vec<WallRec> = walls;
        for w in &mut walls {
            for v in [&mut w.a, &mut w.b] {
                if new_id[*v as usize] == u32::MAX {
                    new_id[*v as usize] = kept.len() as u32;
                    kept.push(points[*v as usize]);
                }
                *v = new_id[*v as usize];
            }
        }
        let points = kept;
        // The interner's map, renumbered in place (no point hashed a second time).
        let mut point_ids = interner_ids;
        point_ids.retain(|_, id| {
            *id = new_id[*id as usize];
            *id != u32::MAX
        });
        let segs: Vec<(Point, Point)> = walls
            .iter()
            .map(|w| (points[w.a as usize], points[w.b as usize]))
            .collect();
        let grid = grid.unwrap_or_else(|| SegmentGrid::new(&segs));

        // Walls must not cross (they may only meet at shared endpoints). Each pair once,
        // the first wall's least crossing one reported; `mark` drops a wall met again in
        // another cell.
        let mut mark = vec![u32::MAX; segs.len()];
        for (i, &(a, b)) in segs.iter().enumerate() {
            let mut crossing = u32::MAX;
            grid.for_each_in_box(&Aabb::new(a, b), |j| {
                let seen = &mut mark[j as usize];
                if j as usize > i && *seen != i as u32 {
                    *seen = i as u32;
                    let (c, d) = segs[j as usize];
                    if j < crossing && properly_cross(a, b, c, d) {
                        crossing = j;
                    }
                }
            });
            if let Some(&(c, d)) = segs.get(crossing as usize) {
                return Err(FreeSpaceError::Crossing {
                    first: Segment::new(a, b),
                    second: Segment::new(c, d),
                });
            }
        }

        let mut incident_start = vec![0u32; points.len() + 1];
        for w in &walls {
            incident_start[w.a as usize + 1] += 1;
            incident_start[w.b as usize + 1] += 1;
        }
        for i in 0..points.len() {
            incident_start[i + 1] += incident_start[i];
        }
        let mut fill = incident_start.clone();
        let mut incident = vec![0u32; 2 * walls.len()];
        for (i, w) in walls.iter().enumerate() {
            for v in [w.a, w.b] {
                incident[fill[v as usize] as usize] = i as u32;
                fill[v as usize] += 1;
            }
        }

        let mut space = FreeSpace {
            points,
            point_ids,
            walls,
            grid,
            incident_start,
            incident,
            wedge_start: Vec::new(),
            wedges: Vec::new(),
            wedge_apex: Vec::new(),
            boundary,
        };
        space.compute_wedges()?;
        Ok(space)
    }

    fn compute_wedges(&mut self) -> Result<(), FreeSpaceError> {
        // (direction point, is_incoming)
        let mut around: Vec<(Point, bool)> = Vec::new();
        self.wedge_start = Vec::with_capacity(self.points.len() + 1);
        // About one wedge per vertex (more only where obstacles touch at a point).
        self.wedges = Vec::with_capacity(self.points.len());
        self.wedge_apex = Vec::with_capacity(self.points.len());
        self.wedge_start.push(0);
        for v in 0..self.points.len() {
            let apex = self.points[v];
            around.clear();
            for &wi in self.incident_walls(v as u32) {
                let w = self.walls[wi as usize];
                let (other, outgoing) = if w.a == v as u32 {
                    (self.points[w.b as usize], true)
                } else {
                    (self.points[w.a as usize], false)
                };
                if w.two_sided {
                    around.push((other, true));
                    around.push((other, false));
                } else {
                    around.push((other, !outgoing));
                }
            }
            // Counter-clockwise; on a tie (a thin wall) the incoming side first.
            around.sort_by(|x, y| {
                angle_cmp(apex, Dir::towards(x.0), Dir::towards(y.0)).then(y.1.cmp(&x.1))
            });
            let n = around.len();
            let first_out = around.iter().position(|x| !x.1);
            let Some(first_out) = first_out else {
                return Err(FreeSpaceError::Inconsistent { point: apex });
            };
            for k in 0..n {
                let i = (first_out + k) % n;
                let expect_incoming = k % 2 == 1;
                if around[i].1 != expect_incoming || n % 2 == 1 {
                    return Err(FreeSpaceError::Inconsistent { point: apex });
                }
                if !expect_incoming {
                    let start = around[i].0;
                    let end = around[(i + 1) % n].0;
                    self.wedges.push(Wedge {
                        apex,
                        start,
                        end,
                        full: start == end,
                    });
                    self.wedge_apex.push(v as u32);
                }
            }
            self.wedge_start.push(self.wedges.len() as u32);
        }
        Ok(())
    }
}

/// Splits every piece at the input vertices lying in its interior (T-junctions), so that
/// afterwards pieces meet only at endpoints and overlapping pieces coincide exactly.
///
/// Also returns the grid of the pieces when none was split.
fn split_at_vertices(points: &[Point], pieces: Vec<Piece>) -> (Vec<Piece>, Option<SegmentGrid>) {
    let segs: Vec<(Point, Point)> = pieces
        .iter()
        .map(|p| (points[p.a as usize], points[p.b as usize]))
        .collect();
    let grid = SegmentGrid::new(&segs);
    let mut splits: Vec<(u32, u32)> = Vec::new();
    for (v, &x) in points.iter().enumerate() {
        grid.for_each_in_box(&Aabb::new(x, x), |i| {
            let p = pieces[i as usize];
            if p.a != v as u32 && p.b != v as u32 {
                let (a, b) = segs[i as usize];
                if point_on_segment(x, a, b) {
                    splits.push((i, v as u32));
                }
            }
        });
    }
    if splits.is_empty() {
        return (pieces, Some(grid));
    }
    splits.sort_unstable();
    splits.dedup();
    let mut out = Vec::with_capacity(pieces.len() + splits.len());
    let mut k = 0;
    for (i, p) in pieces.iter().enumerate() {
        let start = k;
        while k < splits.len() && splits[k].0 == i as u32 {
            k += 1;
        }
        if start == k {
            out.push(*p);
            continue;
        }
        let (a, b) = segs[i];
        let mut inner: Vec<u32> = splits[start..k].iter().map(|s| s.1).collect();
        let forward = lex_cmp(a, b) == Ordering::Less;
        inner.sort_by(|&u, &v| {
            let o = lex_cmp(points[u as usize], points[v as usize]);
            if forward {
                o
            } else {
                o.reverse()
            }
        });
        let mut prev = p.a;
        for v in inner.into_iter().chain(std::iter::once(p.b)) {
            out.push(Piece {
                a: prev,
                b: v,
                ..*p
            });
            prev = v;
        }
    }
    (out, None)
}

/// Joins walls through vertices where a straight run simply continues (one wall in, one
/// out, collinear, nothing else there): fewer walls, same free space.
fn merge_straight_runs(points: &[Point], one_sided: Vec<Piece>, thin: Vec<Piece>) -> Vec<WallRec> {
    let n = points.len();
    let mut out_deg = vec![0u32; n];
    let mut in_deg = vec![0u32; n];
    let mut thin_deg = vec![0u32; n];
    let mut out_edge = vec![u32::MAX; n];
    let mut in_edge = vec![u32::MAX; n];
    for (i, p) in one_sided.iter().enumerate() {
        out_deg[p.a as usize] += 1;
        in_deg[p.b as usize] += 1;
        out_edge[p.a as usize] = i as u32;
        in_edge[p.b as usize] = i as u32;
    }
    let mut thin_nb: Vec<[u32; 2]> = vec![[u32::MAX; 2]; n];
    let mut thin_pieces: Vec<[u32; 2]> = vec![[u32::MAX; 2]; n];
    for (i, p) in thin.iter().enumerate() {
        for (v, w) in [(p.a, p.b), (p.b, p.a)] {
            let d = thin_deg[v as usize] as usize;
            if d < 2 {
                thin_nb[v as usize][d] = w;
                thin_pieces[v as usize][d] = i as u32;
            }
            thin_deg[v as usize] += 1;
        }
    }
    let straight = |a: u32, v: u32, b: u32| {
        orient(points[a as usize], points[v as usize], points[b as usize]) == Orientation::Collinear
    };
    // One-sided runs.
    let removable_one = |v: u32| {
        let vi = v as usize;
        out_deg[vi] == 1
            && in_deg[vi] == 1
            && thin_deg[vi] == 0
            && straight(
                one_sided[in_edge[vi] as usize].a,
                v,
                one_sided[out_edge[vi] as usize].b,
            )
    };
    let mut walls = Vec::with_capacity(one_sided.len() + thin.len());
    let mut used = vec![false; one_sided.len()];
    for i in 0..one_sided.len() {
        let p = one_sided[i];
        if used[i] || removable_one(p.a) {
            continue;
        }
        used[i] = true;
        let mut cur = p.b;
        while removable_one(cur) {
            let next = out_edge[cur as usize] as usize;
            if used[next] {
                break;
            }
            used[next] = true;
            cur = one_sided[next].b;
        }
        walls.push(WallRec {
            a: p.a,
            b: cur,
            two_sided: false,
            source: p.source,
        });
    }
    // Whatever is left forms closed straight loops, which cannot happen for valid input;
    // keep such pieces unmerged rather than lose them.
    for (i, p) in one_sided.iter().enumerate() {
        if !used[i] {
            walls.push(WallRec {
                a: p.a,
                b: p.b,
                two_sided: false,
                source: p.source,
            });
        }
    }
    // Thin runs.
    let removable_thin = |v: u32| {
        let vi = v as usize;
        thin_deg[vi] == 2
            && out_deg[vi] == 0
            && in_deg[vi] == 0
            && straight(thin_nb[vi][0], v, thin_nb[vi][1])
    };
    let mut used = vec![false; thin.len()];
    for i in 0..thin.len() {
        let p = thin[i];
        if used[i] {
            continue;
        }
        // Start only from an end that is not removable.
        let start = if !removable_thin(p.a) {
            p.a
        } else if !removable_thin(p.b) {
            p.b
        } else {
            continue;
        };
        used[i] = true;
        let (mut prev, mut cur) = (start, if start == p.a { p.b } else { p.a });
        while removable_thin(cur) {
            let vi = cur as usize;
            let k = if thin_nb[vi][0] == prev { 1 } else { 0 };
            let next = thin_pieces[vi][k] as usize;
            if used[next] {
                break;
            }
            used[next] = true;
            prev = cur;
            cur = thin_nb[vi][k];
        }
        walls.push(WallRec {
            a: start,
            b: cur,
            two_sided: true,
            source: p.source,
        });
    }
    for (i, p) in thin.iter().enumerate() {
        if !used[i] {
            walls.push(WallRec {
                a: p.a,
                b: p.b,
                two_sided: true,
                source: p.source,
            });
        }
    }
    walls
}

/// Winding numbers of one-sided pieces before the final index exists.
struct Probe<'a> {
    points: &'a [Point],
    pieces: &'a [Piece],
    grid: SegmentGrid,
}

impl<'a> Probe<'a> {
    fn new(points: &'a [Point], pieces: &'a [Piece]) -> Self {
        let segs: Vec<(Point, Point)> = pieces
            .iter()
            .map(|p| (points[p.a as usize], points[p.b as usize]))
            .collect();
        Probe {
            points,
            pieces,
            grid: SegmentGrid::new(&segs),
        }
    }

    fn winding(&self, p: Point) -> i32 {
        let mut ids = Vec::new();
        self.grid.for_each_right_of(p, |i| ids.push(i));
        ids.sort_unstable();
        ids.dedup();
        let mut winding = 0;
        for i in ids {
            let piece = self.pieces[i as usize];
            let (a, b) = (self.points[piece.a as usize], self.points[piece.b as usize]);
            if a.y <= p.y {
                if b.y > p.y && orient(a, b, p) == Orientation::CounterClockwise {
                    winding += 1;
                }
            } else if b.y <= p.y && orient(a, b, p) == Orientation::Clockwise {
                winding -= 1;
            }
        }
        winding
    }
}
