//! The fast route: rings proven interior-disjoint need no overlay. Their walls are the
//! input edges with shared stretches cancelled, checked by winding numbers.

use super::check::{on_segment_grid, segments_conflict};
use super::input::{gp, supporting_line, Input};
use super::merge::{finish_walls, Checks, Compaction, RawWall};
use super::overlay::strings_overlap;
use super::sources::{Tag, TagStore};
use super::{WallSource, Walls};
use crate::free_space::traced::{bounds, walk_starts, wall_ends};
use crate::radix::sort_index_pairs_below;
use crate::spatial::SegmentGrid;
use crate::{orient_grid, GridPoint, Orientation, PointGroups, SnapGrid};
use i_overlay::i_float::int::point::IntPoint;

/// [`normalize`](crate::normalize) without the overlay, for rings (boundary and polygon
/// obstacles) proven to bound interior-disjoint obstacles inside the boundary, with open
/// pieces (fences, polylines) proven to lie strictly inside the free space, meeting nothing
/// but each other's ends; `None` whenever that is not proven (then the overlay decides).
///
/// 1. Every edge is split where collinear edges overlap it; pieces drawn twice in
///    opposite directions (an obstacle along the boundary, two obstacles sharing an
///    edge) cancel, pieces drawn once are the candidate walls (free space on their
///    left), any other repetition gives up.
/// 2. The walls are finished as on the overlay route and [`Walls::check_disjoint_indexed`]
///    must pass: walls meet only at shared endpoints. A cancelled piece must meet no wall
///    and no other cancelled piece inside it. So nothing crosses: the overlay would
///    neither split nor move anything.
/// 3. The free space is then what the overlay's positive fill rule gives exactly when the
///    winding number of all rings is 1 just left of every wall: the walls are walked face
///    by face with the free space on the left (turning into the first wall clockwise, so
///    the left side stays in one sector at each vertex and has one winding number along
///    a walk), every wall must lie on a closed walk, and the winding number just left of
///    each walk's first wall is counted exactly (a ray to the right, the point pushed off
///    the wall symbolically). Walls with winding 1 on their left and 0 on their right are
///    exactly the edges of {winding > 0}.
/// 4. Open pieces: none may overlap another collinearly (the overlay would split and
///    unite them) or end where a ring piece ends, so with step 2 each meets no one-sided
///    wall and no cancelled piece, and meets other open pieces only at shared ends: the
///    overlay keeps it whole as one two-sided wall when it lies in the free space, which
///    the winding number at its midpoint (1) decides. They go through the same
///    [`finish_walls`] as on the overlay route (collinear chains merged there).
pub(super) fn normalize_disjoint(
    grid: SnapGrid,
    input: Input,
    checks: Checks,
) -> Option<(Walls, SegmentGrid)> {
    let Input {
        mut store,
        boundary,
        polygons,
        points,
        strings,
    } = input;
    // Open pieces overlapping collinearly (or drawn twice) are split and united by the
    // overlay route: not handled here.
    if strings_overlap(&strings) {
        return None;
    }
    let boundary_set = store.intern_one(WallSource::Boundary);
    let (mut raw, cancelled) = disjoint_pieces(&boundary, boundary_set, &polygons, &store)?;
    // The face walks go over these pieces (the same faces as the merged walls), sharing
    // the grouping of their ends with the merge when there are no open pieces.
    let pieces: Vec<(GridPoint, GridPoint)> = raw.iter().map(|w| (w.a, w.b)).collect();
    let ring_ends = wall_ends(&pieces);
    let open_ends;
    let ends = if strings.is_empty() {
        &ring_ends
    } else {
        // The open pieces as the overlay gives them when they meet nothing but each
        // other's ends: each one two-sided wall (the checks below prove that they do).
        let ring_items = 2 * raw.len() as u32;
        raw.extend(strings.iter().map(|e| RawWall::two_sided(e.a, e.b, e.set)));
        open_ends = PointGroups::new(raw.iter().flat_map(|w| [w.a, w.b]));
        // No open piece may end where a ring piece does.
        for g in 0..open_ends.len() {
            let group = open_ends.group(g);
            let rings = group.iter().any(|&i| i < ring_items);
            if rings && group.iter().any(|&i| i >= ring_items) {
                return None;
            }
        }
        &open_ends
    };
    let (segments, points) = finish_walls(raw, ends, points, &mut store, checks);
    let walls = Walls {
        grid,
        segments,
        points,
    };
    let mut index = walls.check_disjoint_indexed().ok()?;
    let n = walls.segments.len();
    let mut near = Vec::new();
    for &(c, d) in &cancelled {
        index.meeting_segment(c, d, &mut near);
        for &j in &near {
            if (j as usize) < n {
                let w = &walls.segments[j as usize];
                if meets_inside(c, d, w.a, w.b)
                    || (w.two_sided && crate::segments_intersect_grid(c, d, w.a, w.b))
                {
                    return None;
                }
            }
        }
    }
    if cancelled.len() > 1 {
        let check = SegmentGrid::new(&cancelled);
        for k in 0..check.start.len() - 1 {
            let bucket = &check.items[check.start[k] as usize..check.start[k + 1] as usize];
            for (x, &i) in bucket.iter().enumerate() {
                let (a, b) = cancelled[i as usize];
                for &j in &bucket[x + 1..] {
                    let (c, d) = cancelled[j as usize];
                    if segments_conflict(a, b, c, d) {
                        return None;
                    }
                }
            }
        }
    }
    // The one-sided walls come first (sorted by kind): the winding numbers count them
    // alone (the index's later items, two-sided walls and points, are skipped).
    let one_sided = walls.segments.partition_point(|w| !w.two_sided);
    let directed: Vec<(GridPoint, GridPoint)> = walls.segments[..one_sided]
        .iter()
        .map(|w| (w.a, w.b))
        .collect();
    let starts = walk_starts(&pieces, &ring_ends)?;
    let bounds = bounds(directed.iter().map(|(a, _)| a));
    for first in starts {
        if winding_left_of(pieces[first], &directed, &mut index, bounds) != 1 {
            return None;
        }
    }
    // Each two-sided wall meets no one-sided wall (the walls meet only at shared ends,
    // and no open piece ends at a ring piece), so it lies in one face of the rings: it is
    // kept by the overlay exactly when that face is free (winding 1; the rings' winding is
    // 0 or 1 everywhere, as every wall has 1 on its left and 0 on its right). Its
    // midpoint must lie strictly inside the walls' box, where the ray is bounded.
    for w in walls.segments[directed.len()..].iter() {
        let (mx, my) = (w.a.x as i64 + w.b.x as i64, w.a.y as i64 + w.b.y as i64);
        let inside =
            2 * bounds[0] < mx && mx < 2 * bounds[2] && 2 * bounds[1] < my && my < 2 * bounds[3];
        if !inside || winding_left_of((w.a, w.b), &directed, &mut index, bounds) != 1 {
            return None;
        }
    }
    Some((walls, index))
}

/// Whether the segments `a b` and `c d` share a point inside `a b` (not at its ends).
fn meets_inside(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
    if !crate::segments_intersect_grid(a, b, c, d) {
        return false;
    }
    let collinear = orient_grid(a, b, c) == Orientation::Collinear
        && orient_grid(a, b, d) == Orientation::Collinear;
    if collinear {
        // Overlapping along a stretch, or touching at one point (an end of `a b`).
        let t = |p: GridPoint| {
            (b.x as i64 - a.x as i64) * (p.x as i64 - a.x as i64)
                + (b.y as i64 - a.y as i64) * (p.y as i64 - a.y as i64)
        };
        let (lo, hi) = (t(c).min(t(d)), t(c).max(t(d)));
        let len = t(b);
        return lo.max(0) < hi.min(len);
    }
    // One common point: inside `a b` unless it is `a` or `b`.
    !on_segment_grid(a, c, d) && !on_segment_grid(b, c, d)
}

/// The candidate walls of [`normalize_disjoint`] (unmerged, free space on their left)
/// and the cancelled pieces, or `None` when some stretch is drawn more than once in one
/// direction or more than twice.
#[allow(clippy::type_complexity)]
fn disjoint_pieces(
    boundary: &[IntPoint<i32>],
    boundary_set: u32,
    polygons: &[(Vec<IntPoint<i32>>, Tag)],
    store: &TagStore,
) -> Option<(Vec<RawWall>, Vec<(GridPoint, GridPoint)>)> {
    // (line key, position of the lower end, of the higher end, forward, set, ends)
    type Keyed = (
        (i64, i64, i128),
        i128,
        i128,
        bool,
        u32,
        GridPoint,
        GridPoint,
    );
    let mut edges: Vec<Keyed> =
        Vec::with_capacity(boundary.len() + polygons.iter().map(|(r, _)| r.len()).sum::<usize>());
    let mut add = |ring: &[IntPoint<i32>], set: u32| {
        let n = ring.len();
        for i in 0..n {
            let (a, b) = (gp(ring[i]), gp(ring[(i + 1) % n]));
            if a == b {
                continue;
            }
            let (line, ta, tb) = supporting_line(a, b);
            let forward = ta < tb;
            let (lo, hi) = if forward { (a, b) } else { (b, a) };
            edges.push((line, ta.min(tb), ta.max(tb), forward, set, lo, hi));
        }
    };
    add(boundary, boundary_set);
    for (ring, tag) in polygons {
        add(ring, store.set(*tag));
    }
    // Sorted by line, then position. Axis-parallel edges (all of them on grid maps) get
    // one packed key: axis, offset and lower position, the coordinates compacted
    // (horizontal: offset y, position x; vertical: offset -x, which is max x - x
    // compacted, position y).
    let compact = Compaction::new(edges.iter().flat_map(|e| [e.5, e.6]));
    let bits = compact.bits;
    let pack = |e: &Keyed| -> Option<u64> {
        let lo = e.5;
        match e.0 {
            (1, 0, _) => Some(compact.y(lo.y) << bits | compact.x(lo.x)),
            (0, 1, _) => Some(1 << (2 * bits) | compact.x_down(lo.x) << bits | compact.y(lo.y)),
            _ => None,
        }
    };
    let packed: Option<Vec<(u64, u32)>> = (2 * bits < 64)
        .then(|| {
            edges
                .iter()
                .enumerate()
                .map(|(i, e)| pack(e).map(|k| (k, i as u32)))
                .collect()
        })
        .flatten();
    // (line, edge) in that order, equal lines for the edges of one line; the edges are
    // read through it (not moved: each is about 100 bytes).
    let order: Vec<(u64, u32)> = match packed {
        Some(mut keys) => {
            sort_index_pairs_below(&mut keys, 2 * bits + 1);
            // Ties (same line and lower end) by the higher end, as the full key would.
            for run in keys.chunk_by_mut(|x, y| x.0 == y.0) {
                if run.len() > 1 {
                    run.sort_unstable_by_key(|&(_, i)| edges[i as usize].2);
                }
            }
            // The line: axis and offset.
            for key in &mut keys {
                key.0 >>= bits;
            }
            keys
        }
        None => {
            edges.sort_unstable_by_key(|x| (x.0, x.1, x.2));
            let mut line = 0;
            (0..edges.len())
                .map(|i| {
                    if i > 0 && edges[i].0 != edges[i - 1].0 {
                        line += 1;
                    }
                    (line, i as u32)
                })
                .collect()
        }
    };
    let mut kept: Vec<RawWall> = Vec::with_capacity(edges.len());
    let mut cancelled: Vec<(GridPoint, GridPoint)> = Vec::new();
    let wall = |lo: GridPoint, hi: GridPoint, forward: bool, set: u32| {
        let (a, b) = if forward { (lo, hi) } else { (hi, lo) };
        RawWall {
            a,
            b,
            two_sided: false,
            set,
        }
    };
    let mut i = 0;
    while i < order.len() {
        // A run of edges on one line that overlap one another (transitively).
        let e = &edges[order[i].1 as usize];
        let mut j = i + 1;
        let mut reach = e.2;
        while j < order.len() && order[j].0 == order[i].0 {
            let f = &edges[order[j].1 as usize];
            if f.1 >= reach {
                break;
            }
            reach = reach.max(f.2);
            j += 1;
        }
        if j == i + 1 {
            kept.push(wall(e.5, e.6, e.3, e.4));
            i = j;
            continue;
        }
        let run: Vec<Keyed> = order[i..j]
            .iter()
            .map(|&(_, k)| edges[k as usize])
            .collect();
        i = j;
        // Elementary stretches between consecutive ends, each covered once (kept) or
        // twice in opposite directions (cancelled).
        let mut breaks: Vec<(i128, GridPoint)> =
            run.iter().flat_map(|e| [(e.1, e.5), (e.2, e.6)]).collect();
        breaks.sort_unstable_by_key(|b| b.0);
        breaks.dedup_by_key(|b| b.0);
        for w in breaks.windows(2) {
            let ((t0, p0), (t1, p1)) = (w[0], w[1]);
            let mut cover = run.iter().filter(|e| e.1 <= t0 && t1 <= e.2);
            match (cover.next(), cover.next(), cover.next()) {
                (Some(e), None, _) => kept.push(wall(p0, p1, e.3, e.4)),
                (Some(e), Some(f), None) if e.3 != f.3 => cancelled.push((p0, p1)),
                (None, _, _) => {}
                _ => return None,
            }
        }
    }
    Some((kept, cancelled))
}

/// The winding number of the directed closed walls `walls` (indexed by `index`, which
/// may also hold points after them) at a point just left of the midpoint of `a b`, a
/// stretch of one of the walls
/// (exact: the point is pushed off the wall symbolically). The ray goes to the nearest
/// side of `bounds` (`[min x, min y, max x, max y]` of the walls): the count is the same
/// in every direction, and a short ray meets fewer walls.
///
/// Inlined at both calls: on rings-only inputs (grid maps) the walk starts' call is hot,
/// and a second call site would otherwise keep it out of line.
#[inline(always)]
fn winding_left_of(
    (a, b): (GridPoint, GridPoint),
    walls: &[(GridPoint, GridPoint)],
    index: &mut SegmentGrid,
    bounds: [i64; 4],
) -> i32 {
    // Doubled coordinates: the midpoint is `a + b`.
    let (mx, my) = (a.x as i64 + b.x as i64, a.y as i64 + b.y as i64);
    let (fx, cx) = (mx.div_euclid(2), (mx + 1).div_euclid(2));
    let (fy, cy) = (my.div_euclid(2), (my + 1).div_euclid(2));
    // The nearest side; `rot` turns the ray's direction into +x (rotations keep the
    // winding number).
    let reach = [
        2 * bounds[2] - mx,
        2 * bounds[3] - my,
        mx - 2 * bounds[0],
        my - 2 * bounds[1],
    ];
    let k = (0..4).min_by_key(|&k| reach[k]).unwrap_or(0);
    // The rotation as a matrix of 0 and ±1 (exact, and no branch per wall): k = 0 is
    // (x, y), 1 is (y, -x), 2 is (-x, -y), 3 is (-y, x).
    let [u, v] = match k {
        0 => [(1, 0), (0, 1)],
        1 => [(0, 1), (-1, 0)],
        2 => [(-1, 0), (0, -1)],
        _ => [(0, -1), (1, 0)],
    };
    let rot = |x: i64, y: i64| (u.0 * x + u.1 * y, v.0 * x + v.1 * y);
    let (lo, hi) = match k {
        0 => ([fx, fy], [bounds[2], cy]),
        1 => ([fx, fy], [cx, bounds[3]]),
        2 => ([bounds[0], fy], [cx, cy]),
        _ => ([fx, bounds[1]], [cx, cy]),
    };
    let (mx, my) = rot(mx, my);
    let (ra, rb) = (rot(a.x as i64, a.y as i64), rot(b.x as i64, b.y as i64));
    // The left normal of `e`: the point is (mx, my) + ε n.
    let n = (-(rb.1 - ra.1), rb.0 - ra.0);
    // Whether a y (doubled) is at most the point's: `y < my || (y == my && n.1 >= 0)`,
    // one comparison on integers.
    let top = if n.1 >= 0 { my } else { my - 1 };
    let below = |y: i64| y <= top;
    // Only a wall with one end below the ray's line and one above can change the count
    // (both branches below need that), and points never do: the others are dropped in
    // the bucket walk, before its seen-mark, with no list of them (most walls along the
    // ray run beside it). The count is a sum, so the order is free.
    let straddles = |j: u32| {
        walls.get(j as usize).is_some_and(|&(c, d)| {
            let y = |p: GridPoint| 2 * (v.0 * p.x as i64 + v.1 * p.y as i64);
            below(y(c)) != below(y(d))
        })
    };
    let mut winding = 0;
    index.for_each_meeting_box_where(lo, hi, straddles, |j| {
        let (c, d) = walls[j as usize];
        let (cx, cy) = rot(2 * c.x as i64, 2 * c.y as i64);
        let (dx, dy) = rot(2 * d.x as i64, 2 * d.y as i64);
        let side = || {
            let s = (dx - cx) as i128 * (my - cy) as i128 - (dy - cy) as i128 * (mx - cx) as i128;
            if s != 0 {
                s.signum()
            } else {
                ((dx - cx) as i128 * n.1 as i128 - (dy - cy) as i128 * n.0 as i128).signum()
            }
        };
        if below(cy) {
            if side() > 0 {
                winding += 1;
            }
        } else if side() < 0 {
            winding -= 1;
        }
    });
    winding
}
