//! What is free, as polygons? The free-space shapes traced along the one-sided walls of
//! normalized [`Walls`](crate::Walls) (see [`crate::Walls::free_space`]).

use crate::{orient_grid, GridPoint, Orientation, PointGroups};
use std::collections::HashMap;

/// Free-space shapes: each shape's first contour is its outer boundary (counter-clockwise),
/// the rest are its holes (clockwise).
pub type Shapes = Vec<Vec<Vec<GridPoint>>>;

/// The faces of the free space bounded by the directed one-sided walls `walls` (free
/// space on their left), in canonical form (see [`canonical_free_space`]).
///
/// Each face boundary is walked with the free space on the left, turning at every vertex
/// into the first outgoing wall clockwise from the wall it arrived on, so regions that
/// touch only at a vertex stay separate. A walk that passes a vertex twice (a hole
/// touching the outer contour, or two obstacles touching at a corner) is split there
/// into simple cycles. Counter-clockwise cycles are outer contours; each clockwise cycle
/// (a hole) goes into the smallest outer contour around the midpoint of its first wall.
/// Straight vertices are dropped. Walls that break the [`crate::Walls`] contract give
/// some shapes, never a panic or an endless loop.
pub(crate) fn trace_free_space(walls: &[(GridPoint, GridPoint)]) -> Shapes {
    let mut shapes = nest(trace_walks(walls).0.into_iter().map(|(_, w)| w).collect());
    shapes.sort_unstable();
    shapes
}

/// The closed walks of the face boundaries (see [`trace_free_space`]), each with the
/// index of its first wall, and whether every wall lies on a closed walk.
pub(crate) fn trace_walks(
    walls: &[(GridPoint, GridPoint)],
) -> (Vec<(usize, Vec<GridPoint>)>, bool) {
    let next = successors(walls, &wall_ends(walls));
    let mut used = vec![false; walls.len()];
    let mut all_closed = true;
    let mut walks: Vec<(usize, Vec<GridPoint>)> = Vec::new();
    for s in 0..walls.len() {
        if used[s] || walls[s].0 == walls[s].1 {
            continue;
        }
        let mut walk = Vec::new();
        let mut e = s;
        let closed = loop {
            used[e] = true;
            walk.push(walls[e].0);
            match next[e] {
                f if f as usize == s => break true,
                NONE => break false,
                f if !used[f as usize] => e = f as usize,
                _ => break false,
            }
        };
        if closed {
            walks.push((s, walk));
        } else {
            all_closed = false;
        }
    }
    (walks, all_closed)
}

/// The first wall of each closed walk of [`trace_walks`], or `None` if some wall lies
/// on no closed walk (or has zero length).
pub(crate) fn walk_starts(
    walls: &[(GridPoint, GridPoint)],
    ends: &PointGroups,
) -> Option<Vec<usize>> {
    let next = successors(walls, ends);
    let mut used = vec![false; walls.len()];
    let mut starts = Vec::new();
    for s in 0..walls.len() {
        if used[s] {
            continue;
        }
        if walls[s].0 == walls[s].1 {
            return None;
        }
        starts.push(s);
        let mut e = s;
        loop {
            used[e] = true;
            match next[e] {
                f if f as usize == s => break,
                f if f != NONE && !used[f as usize] => e = f as usize,
                _ => return None,
            }
        }
    }
    Some(starts)
}

const NONE: u32 = u32::MAX;

/// The ends of the walls grouped by point: item 2k is wall k's start, 2k + 1 its end.
pub(crate) fn wall_ends(walls: &[(GridPoint, GridPoint)]) -> PointGroups {
    PointGroups::new(walls.iter().flat_map(|&(a, b)| [a, b]))
}

/// For each wall, the wall a face walk takes next at its end: the first outgoing wall
/// clockwise from the way back ([`NONE`] at a dead end).
/// `ends` groups the walls' ends: item 2k is wall k's start (leaving), 2k + 1 its end
/// (arriving).
fn successors(walls: &[(GridPoint, GridPoint)], ends: &PointGroups) -> Vec<u32> {
    let n = walls.len();
    let mut next = vec![NONE; n];
    let mut arriving: Vec<u32> = Vec::new();
    let mut leaving: Vec<u32> = Vec::new();
    for g in 0..ends.len() {
        let group = ends.group(g);
        if let &[x, y] = group {
            if (x ^ y) & 1 == 1 {
                let (i, o) = if x & 1 == 1 { (x, y) } else { (y, x) };
                next[i as usize / 2] = o / 2;
                continue;
            }
        }
        arriving.clear();
        leaving.clear();
        for &item in group {
            if item & 1 == 1 {
                arriving.push(item / 2);
            } else {
                leaving.push(item / 2);
            }
        }
        let v = ends.point(g);
        let d = |k: u32| {
            let w = walls[k as usize].1;
            (w.x as i64 - v.x as i64, w.y as i64 - v.y as i64)
        };
        for &i in &arriving {
            let u = walls[i as usize].0;
            // The first clockwise from `v -> u` is the one furthest counter-clockwise.
            let back = (u.x as i64 - v.x as i64, u.y as i64 - v.y as i64);
            next[i as usize] = leaving
                .iter()
                .copied()
                .max_by(|&j, &k| ccw_from(back, d(j), d(k)))
                .unwrap_or(NONE);
        }
    }
    next
}

/// Splits closed walks (no vertex of any walk inside an edge of another) into simple
/// cycles, drops straight vertices and cycles without area, and puts each clockwise cycle
/// (a hole) into the smallest counter-clockwise cycle (an outer contour) around the
/// midpoint of its first edge; shapes in canonical form, unsorted. A hole that no outer
/// contour holds becomes a shape of its own.
fn nest(walks: Vec<Vec<GridPoint>>) -> Shapes {
    let mut outers: Vec<Vec<GridPoint>> = Vec::new();
    let mut holes: Vec<(Vec<GridPoint>, (i64, i64))> = Vec::new();
    for walk in walks {
        for cycle in simple_cycles(&walk) {
            // The midpoint of the cycle's first edge (doubled): on no other cycle.
            let (a, b) = (cycle[0], cycle[1 % cycle.len()]);
            let mid = (a.x as i64 + b.x as i64, a.y as i64 + b.y as i64);
            let mut contour = simplify_contour(cycle);
            if contour.len() < 3 {
                continue;
            }
            rotate_to_least(&mut contour);
            match twice_signed_area(&contour).signum() {
                1 => outers.push(contour),
                -1 => holes.push((contour, mid)),
                _ => {}
            }
        }
    }
    let mut by_area: Vec<(i128, usize, [i64; 4])> = outers
        .iter()
        .enumerate()
        .map(|(k, c)| (twice_signed_area(c), k, bounds(c)))
        .collect();
    by_area.sort_unstable();
    let mut shapes: Shapes = outers.into_iter().map(|c| vec![c]).collect();
    let mut orphans = Vec::new();
    for (hole, mid) in holes {
        let parent = by_area.iter().find(|&&(_, k, b)| {
            2 * b[0] <= mid.0
                && mid.0 <= 2 * b[2]
                && 2 * b[1] <= mid.1
                && mid.1 <= 2 * b[3]
                && winding_doubled(mid, contour_edges(&shapes[k][0])) != 0
        });
        match parent {
            Some(&(_, k, _)) => shapes[k].push(hole),
            None => orphans.push(vec![hole]),
        }
    }
    for shape in &mut shapes {
        shape[1..].sort_unstable();
    }
    shapes.extend(orphans);
    shapes
}

/// Free-space shapes in canonical form, the form of [`crate::Walls::free_space`]: the
/// edges of each shape are walked again with the free space on the left, turning at
/// every vertex into the first edge clockwise (so regions that touch only at a vertex
/// are separate), the walks are split into simple cycles wherever they pass a vertex
/// more than once (so a hole touching the outer contour, or two holes touching at a
/// corner, are separate contours), straight vertices are dropped, each clockwise cycle
/// (hole) goes into the smallest counter-clockwise cycle (outer contour) of the same
/// shape around it, so that every shape has one outer contour; every contour starts at
/// its least vertex (by `(x, y)`), holes are sorted within a shape and shapes are
/// sorted. Two descriptions of the same free space that differ only in such choices
/// become equal.
///
/// ```
/// use corridor_geom::{canonical_free_space, GridPoint};
/// let g = GridPoint::new;
/// let a = vec![vec![vec![g(1, 0), g(1, 1), g(0, 1), g(0, 0)]]];
/// let b = vec![vec![vec![g(0, 0), g(1, 0), g(1, 1), g(0, 1)]]];
/// assert_eq!(canonical_free_space(a), b);
/// ```
pub fn canonical_free_space(shapes: Shapes) -> Shapes {
    let mut out: Shapes = Vec::new();
    for shape in shapes {
        let mut vertices: Vec<GridPoint> = shape.iter().flatten().copied().collect();
        vertices.sort_unstable();
        vertices.dedup();
        let mut edges = Vec::new();
        for contour in &shape {
            let c = with_touch_points(contour, &vertices);
            edges.extend((0..c.len()).map(|i| (c[i], c[(i + 1) % c.len()])));
        }
        out.extend(nest(
            trace_walks(&edges).0.into_iter().map(|(_, w)| w).collect(),
        ));
    }
    out.sort_unstable();
    out
}

/// The contour with every vertex of `vertices` (sorted) that lies inside one of its edges
/// inserted there, in order along the edge.
fn with_touch_points(contour: &[GridPoint], vertices: &[GridPoint]) -> Vec<GridPoint> {
    let n = contour.len();
    let mut out = Vec::with_capacity(n);
    let mut inside = Vec::new();
    for i in 0..n {
        let (a, b) = (contour[i], contour[(i + 1) % n]);
        out.push(a);
        let (lo, hi) = (a.min(b), a.max(b));
        let first = vertices.partition_point(|&v| v <= lo);
        let last = vertices.partition_point(|&v| v < hi);
        inside.clear();
        inside.extend(
            vertices[first..last.max(first)]
                .iter()
                .copied()
                .filter(|&v| {
                    v.y >= lo.y.min(hi.y)
                        && v.y <= lo.y.max(hi.y)
                        && orient_grid(a, b, v) == Orientation::Collinear
                }),
        );
        if a > b {
            inside.reverse();
        }
        out.extend_from_slice(&inside);
    }
    out
}

/// Rotates a simple contour to start at its least vertex.
fn rotate_to_least(c: &mut [GridPoint]) {
    if let Some(k) = (0..c.len()).min_by_key(|&k| c[k]) {
        c.rotate_left(k);
    }
}

/// Splits a closed walk into simple cycles at its repeated vertices (each piece runs
/// from one visit of a vertex to the next).
fn simple_cycles(walk: &[GridPoint]) -> Vec<Vec<GridPoint>> {
    let mut sorted = walk.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).all(|w| w[0] != w[1]) {
        return vec![walk.to_vec()];
    }
    let mut seen: HashMap<GridPoint, usize> = HashMap::new();
    let mut cycles = Vec::new();
    let mut stack: Vec<GridPoint> = Vec::with_capacity(walk.len());
    for &v in walk {
        if let Some(&at) = seen.get(&v) {
            let cycle = stack.split_off(at);
            for w in &cycle {
                seen.remove(w);
            }
            cycles.push(cycle);
        }
        seen.insert(v, stack.len());
        stack.push(v);
    }
    if !stack.is_empty() {
        cycles.push(stack);
    }
    cycles
}

/// Compares directions `d` and `e` by their counter-clockwise angle from `r`, in
/// `[0, 2π)` (exact).
fn ccw_from(r: (i64, i64), d: (i64, i64), e: (i64, i64)) -> std::cmp::Ordering {
    let cross =
        |a: (i64, i64), b: (i64, i64)| a.0 as i128 * b.1 as i128 - a.1 as i128 * b.0 as i128;
    let dot = |a: (i64, i64), b: (i64, i64)| a.0 as i128 * b.0 as i128 + a.1 as i128 * b.1 as i128;
    // Half 0: angle in [0, π); half 1: [π, 2π).
    let half = |a: (i64, i64)| {
        let c = cross(r, a);
        u8::from(!(c > 0 || (c == 0 && dot(r, a) > 0)))
    };
    half(d)
        .cmp(&half(e))
        .then_with(|| 0.cmp(&cross(d, e).signum()))
}

/// `[min x, min y, max x, max y]` of some grid points (a contour, the wall starts).
pub(crate) fn bounds<'a>(points: impl IntoIterator<Item = &'a GridPoint>) -> [i64; 4] {
    points.into_iter().fold(
        [i64::MAX, i64::MAX, i64::MIN, i64::MIN],
        |[x0, y0, x1, y1], p| {
            let (x, y) = (p.x as i64, p.y as i64);
            [x0.min(x), y0.min(y), x1.max(x), y1.max(y)]
        },
    )
}

/// Winding number of directed edges (a closed contour, or the one-sided walls) around
/// the point with doubled coordinates `p2`, which must not lie on them (exact).
pub(crate) fn winding_doubled(
    p2: (i64, i64),
    edges: impl IntoIterator<Item = (GridPoint, GridPoint)>,
) -> i32 {
    let (px, py) = (p2.0 as i128, p2.1 as i128);
    let mut winding = 0;
    for (a, b) in edges {
        let (ax, ay) = (2 * a.x as i128, 2 * a.y as i128);
        let (bx, by) = (2 * b.x as i128, 2 * b.y as i128);
        let side = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
        if ay <= py {
            if by > py && side > 0 {
                winding += 1;
            }
        } else if by <= py && side < 0 {
            winding -= 1;
        }
    }
    winding
}

/// The directed edges of a closed contour.
fn contour_edges(contour: &[GridPoint]) -> impl Iterator<Item = (GridPoint, GridPoint)> + '_ {
    let n = contour.len();
    (0..n).map(move |i| (contour[i], contour[(i + 1) % n]))
}

/// Twice the signed area of a closed contour (positive when counter-clockwise), exact.
pub(crate) fn twice_signed_area(contour: &[GridPoint]) -> i128 {
    let n = contour.len();
    let mut sum: i128 = 0;
    for i in 0..n {
        let (p, q) = (contour[i], contour[(i + 1) % n]);
        sum += p.x as i128 * q.y as i128 - q.x as i128 * p.y as i128;
    }
    sum
}

/// Drops vertices where a contour runs straight on (they carry no shape).
pub(crate) fn simplify_contour(contour: Vec<GridPoint>) -> Vec<GridPoint> {
    let n = contour.len();
    if n < 3 {
        return contour;
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (u, v, w) = (contour[(i + n - 1) % n], contour[i], contour[(i + 1) % n]);
        let straight = orient_grid(u, v, w) == Orientation::Collinear
            && (v.x as i64 - u.x as i64) * (w.x as i64 - v.x as i64)
                + (v.y as i64 - u.y as i64) * (w.y as i64 - v.y as i64)
                > 0;
        if !straight {
            out.push(v);
        }
    }
    out
}
