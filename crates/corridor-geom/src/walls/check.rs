//! Do the walls keep their promise? The exact check of the [`Walls`] guarantees (no two
//! walls meet away from a shared endpoint, no point on a wall or on another point), run
//! at the end of every normalization and by the ECM's validation.

use super::{WallConflict, Walls};
use crate::spatial::SegmentGrid;
use crate::{orient_grid, GridPoint, Orientation};

impl Walls {
    /// Checks the [`Walls`] guarantees exactly: no zero-length segment, no two segments
    /// meeting except at a shared endpoint of both (so no crossings, overlaps, duplicates
    /// or T-junctions), no point on a segment, no two coinciding points.
    ///
    /// Runs in about linear time for typical walls (a [`SegmentGrid`] finds the candidate
    /// pairs). The first conflict in index order is returned: zero-length segments first,
    /// then segment pairs by (lower, higher) index, then points.
    ///
    /// ```
    /// use corridor_geom::{GridPoint, WallConflict, WallSegment, WallSource, Walls};
    /// let seg = |a: (i32, i32), b: (i32, i32)| WallSegment {
    ///     a: GridPoint::new(a.0, a.1), b: GridPoint::new(b.0, b.1),
    ///     two_sided: true, sources: [WallSource::Boundary].into(),
    /// };
    /// let mut walls = Walls { segments: vec![seg((0, 0), (4, 0)), seg((4, 0), (4, 4))], ..Walls::default() };
    /// assert!(walls.check_disjoint().is_ok());
    /// walls.segments.push(seg((2, -1), (2, 1)));
    /// assert_eq!(walls.check_disjoint(), Err(WallConflict::SegmentsMeet { first: 0, second: 2 }));
    /// ```
    pub fn check_disjoint(&self) -> Result<(), WallConflict> {
        self.check_disjoint_indexed().map(|_| ())
    }

    /// The ends of every wall: the segments, then each point as a zero-length one (the
    /// order of the items of [`SegmentGrid`]s built over walls).
    pub fn wall_ends(&self) -> impl Iterator<Item = (GridPoint, GridPoint)> + '_ {
        self.segments
            .iter()
            .map(|s| (s.a, s.b))
            .chain(self.points.iter().map(|(p, _)| (*p, *p)))
    }

    /// [`Walls::check_disjoint`], also handing back the bucket grid it checked with, for
    /// a caller that queries the walls next (the ECM's validation): entries `0..n` are
    /// the `n` segments, entries `n..` the points (as `(p, p)`), in the order of
    /// [`Walls::segments`] and [`Walls::points`] — the grid
    /// `SegmentGrid::new` builds from [`Walls::wall_ends`].
    pub fn check_disjoint_indexed(&self) -> Result<SegmentGrid, WallConflict> {
        for (i, s) in self.segments.iter().enumerate() {
            if s.a == s.b {
                return Err(WallConflict::ZeroLength { segment: i });
            }
        }
        let n = self.segments.len();
        let ends: Vec<(GridPoint, GridPoint)> = self.wall_ends().collect();
        let mut index = SegmentGrid::new(&ends);
        let mut near = Vec::new();
        // Two segments that share a point share a bucket, so every pair that may conflict
        // is a pair within one bucket: testing those pairs bucket by bucket (a pair listed
        // in several buckets is tested in each) finds the same first pair (by lower, then
        // higher index) as a query per segment, without the queries' bookkeeping.
        let mut first: Option<(usize, usize)> = None;
        for k in 0..index.start.len() - 1 {
            let bucket = &index.items[index.start[k] as usize..index.start[k + 1] as usize];
            // Bucket items are in increasing order, segments before points.
            let segments_here = bucket.partition_point(|&i| (i as usize) < n);
            let bucket = &bucket[..segments_here];
            for (x, &i) in bucket.iter().enumerate() {
                let s = &self.segments[i as usize];
                for &j in &bucket[x + 1..] {
                    let pair = (i as usize, j as usize);
                    if first.is_some_and(|f| f <= pair) {
                        break; // later items only give larger pairs
                    }
                    let t = &self.segments[j as usize];
                    if segments_conflict(s.a, s.b, t.a, t.b) {
                        first = Some(pair);
                    }
                }
            }
        }
        if let Some((first, second)) = first {
            return Err(WallConflict::SegmentsMeet { first, second });
        }
        for (i, (p, _)) in self.points.iter().enumerate() {
            index.meeting(*p, *p, &mut near);
            let on = near
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| j < n && on_segment_grid(*p, self.segments[j].a, self.segments[j].b))
                .min();
            if let Some(segment) = on {
                return Err(WallConflict::PointOnSegment { point: i, segment });
            }
        }
        let mut order: Vec<usize> = (0..self.points.len()).collect();
        order.sort_by_key(|&i| (self.points[i].0, i));
        let mut coincide: Option<(usize, usize)> = None;
        for w in order.windows(2) {
            if self.points[w[0]].0 == self.points[w[1]].0 {
                let pair = (w[0].min(w[1]), w[0].max(w[1]));
                coincide = Some(coincide.map_or(pair, |c| c.min(pair)));
            }
        }
        match coincide {
            Some((first, second)) => Err(WallConflict::PointsCoincide { first, second }),
            None => Ok(index),
        }
    }
}

/// Whether `p` lies on the closed segment `a b` (exact).
pub(super) fn on_segment_grid(p: GridPoint, a: GridPoint, b: GridPoint) -> bool {
    orient_grid(a, b, p) == Orientation::Collinear
        && p.x >= a.x.min(b.x)
        && p.x <= a.x.max(b.x)
        && p.y >= a.y.min(b.y)
        && p.y <= a.y.max(b.y)
}

/// Whether two non-degenerate segments share any point other than one common endpoint.
pub(super) fn segments_conflict(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
    // Segments whose boxes are apart cannot meet: most pairs from a shared bucket end
    // here, for four comparisons instead of four 128-bit orientation tests.
    if a.x.max(b.x) < c.x.min(d.x)
        || c.x.max(d.x) < a.x.min(b.x)
        || a.y.max(b.y) < c.y.min(d.y)
        || c.y.max(d.y) < a.y.min(b.y)
    {
        return false;
    }
    // A horizontal and a vertical segment whose boxes meet (most pairs on grid maps) meet
    // in exactly one point, (x of the vertical, y of the horizontal): a conflict unless it
    // is a common endpoint (what the tests below conclude, through an orientation test
    // for a common endpoint and the intersection test otherwise).
    let kind = |p: GridPoint, q: GridPoint| u8::from(p.y == q.y) | u8::from(p.x == q.x) << 1;
    if let (1, 2) | (2, 1) = (kind(a, b), kind(c, d)) {
        return !(a == c || a == d || b == c || b == d);
    }
    // Two segments with one common endpoint `p` always meet there: they meet elsewhere
    // only if they fold onto each other, which one orientation test decides (on grid
    // maps most pairs met here are neighbours along a ring). The general intersection
    // test is left for pairs without a common endpoint.
    let (p, q, r) = match (a == c, a == d, b == c, b == d) {
        (true, false, false, false) => (a, b, d),
        (false, true, false, false) => (a, b, c),
        (false, false, true, false) => (b, a, d),
        (false, false, false, true) => (b, a, c),
        (false, false, false, false) => return crate::segments_intersect_grid(a, b, c, d),
        _ => return true, // the same segment twice
    };
    orient_grid(p, q, r) == Orientation::Collinear
        && (q.x as i64 - p.x as i64) * (r.x as i64 - p.x as i64)
            + (q.y as i64 - p.y as i64) * (r.y as i64 - p.y as i64)
            > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SnapGrid;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `segments_conflict` before the shortcut for a horizontal and a vertical segment.
    fn segments_conflict_before(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
        if a.x.max(b.x) < c.x.min(d.x)
            || c.x.max(d.x) < a.x.min(b.x)
            || a.y.max(b.y) < c.y.min(d.y)
            || c.y.max(d.y) < a.y.min(b.y)
        {
            return false;
        }
        let (p, q, r) = match (a == c, a == d, b == c, b == d) {
            (true, false, false, false) => (a, b, d),
            (false, true, false, false) => (a, b, c),
            (false, false, true, false) => (b, a, d),
            (false, false, false, true) => (b, a, c),
            (false, false, false, false) => return crate::segments_intersect_grid(a, b, c, d),
            _ => return true,
        };
        orient_grid(p, q, r) == Orientation::Collinear
            && (q.x as i64 - p.x as i64) * (r.x as i64 - p.x as i64)
                + (q.y as i64 - p.y as i64) * (r.y as i64 - p.y as i64)
                > 0
    }

    /// The same answers as before the horizontal/vertical shortcut on pairs of non-empty
    /// segments on a small lattice (mostly axis-parallel: common ends, T-junctions,
    /// crossings, overlaps, the same segment twice), near the coordinate limits too.
    #[test]
    fn segments_conflict_matches_before() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut shortcut = 0;
        for round in 0..200_000 {
            let base = [
                0,
                SnapGrid::MAX_GRID_COORDINATE - 4,
                -SnapGrid::MAX_GRID_COORDINATE,
            ][round % 3];
            let point = |rng: &mut ChaCha8Rng| {
                GridPoint::new(base + rng.random_range(0..5), base + rng.random_range(0..5))
            };
            let segment = |rng: &mut ChaCha8Rng| loop {
                let a = point(rng);
                let mut b = point(rng);
                match rng.random_range(0..5) {
                    0 | 1 => b.x = a.x,
                    2 | 3 => b.y = a.y,
                    _ => {}
                }
                if a != b {
                    return if rng.random_bool(0.5) { (a, b) } else { (b, a) };
                }
            };
            let ((a, b), (c, d)) = (segment(&mut rng), segment(&mut rng));
            let (c, d) = if round % 7 == 0 { (a, b) } else { (c, d) };
            shortcut += usize::from((a.x == b.x) != (c.x == d.x) && (a.y == b.y) != (c.y == d.y));
            assert_eq!(
                segments_conflict(a, b, c, d),
                segments_conflict_before(a, b, c, d),
                "{a:?} {b:?} {c:?} {d:?}"
            );
        }
        assert!(shortcut > 20_000, "{shortcut}");
    }
}
