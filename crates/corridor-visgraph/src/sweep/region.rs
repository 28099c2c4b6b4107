//! How far has a culled sweep looked, and is that far enough? The region of grid cells
//! around the centre whose walls were gathered: grown by triangles towards the rays and
//! ranges not yet blocked, and the test whether every blocked range lies inside it.

use super::{bin, IntervalRecord, Open, Sweeper, BINS};
use corridor_geom::Point;

impl Sweeper<'_> {
    pub(super) fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            for marks in [
                &mut self.wall_mark,
                &mut self.vertex_mark,
                &mut self.cell_region,
            ] {
                marks.iter_mut().for_each(|m| *m = 0);
            }
            self.stamp = 1;
        }
        self.stamp
    }

    /// Adds the cells meeting `tri` to the region, gathering the walls stored in them.
    ///
    /// A wall is stored in every cell its bounding box meets, the cell of a point being
    /// found by rounding down; a triangle's cover (grown by the pad) holds the cell of every
    /// point of the triangle found the same way. So when a triangle's cover lies in the
    /// region, every wall meeting the triangle has been gathered.
    pub(super) fn grow(&mut self, tri: [Point; 3], pad: f64) {
        let fs = self.fs;
        let stamp = self.stamp;
        let (region, wall_mark, walls) =
            (&mut self.cell_region, &mut self.wall_mark, &mut self.walls);
        fs.grid.cover_triangle(tri, pad, |cell| {
            if region[cell] != stamp {
                region[cell] = stamp;
                for &w in fs.grid.cell_items(cell) {
                    if wall_mark[w as usize] != stamp {
                        wall_mark[w as usize] = stamp;
                        walls.push(w);
                    }
                }
            }
            true
        });
    }

    pub(super) fn grow_box(&mut self, c: Point, reach: f64, pad: f64) {
        let (lo, hi) = (c - Point::splat(reach), c + Point::splat(reach));
        self.grow([lo, Point::new(hi.x, lo.y), hi], pad);
        self.grow([lo, hi, Point::new(lo.x, hi.y)], pad);
    }

    /// After a checked sweep: whether every ray and every range leaving the centre into
    /// free space is blocked inside the region; the others go to `self.open`.
    ///
    /// Consecutive ranges blocked by the same wall are one triangle, and a ray whose
    /// blocker is the corner of a neighbouring range's triangle is covered by it; this
    /// keeps the (area-proportional) region test cheap.
    pub(super) fn closed(&mut self, c: Point, pad: f64, wrap: bool) -> bool {
        let m = self.intervals.len();
        // Ranges, merged into runs over the same wall.
        let mut k = 0;
        while k < m {
            let first = self.intervals[k];
            let Some((wall, start, mut end)) = first.blocker else {
                self.open.push(Open::Between(first.from, first.to));
                k += 1;
                continue;
            };
            let mut last = k;
            while last + 1 < m {
                let next = self.intervals[last + 1];
                match next.blocker {
                    Some((w, _, e)) if w == wall => {
                        end = e;
                        last += 1;
                    }
                    _ => break,
                }
            }
            if !self.in_region([c, start, end], pad) {
                for r in k..=last {
                    let rec = self.intervals[r];
                    self.open.push(Open::Between(rec.from, rec.to));
                }
            }
            k = last + 1;
        }
        // Rays not on the side of a checked range's triangle.
        for r in 0..self.rays.len() {
            let ray = self.rays[r];
            let dir = ray.dir;
            let Some(b) = ray.blocker else {
                self.open.push(Open::Ray(dir));
                continue;
            };
            let before = (r > 0 || wrap).then(|| self.intervals[(r + m - 1) % m]);
            let after = (r < m).then(|| self.intervals[r]);
            let covered = |rec: Option<IntervalRecord>, at_end: bool| {
                rec.and_then(|rec| rec.blocker)
                    .is_some_and(|(_, s, e)| if at_end { e == b } else { s == b })
            };
            if !(covered(before, true) || covered(after, false) || self.in_region([c, b, b], pad)) {
                self.open.push(Open::Ray(dir));
            }
        }
        self.open.is_empty()
    }

    /// Records that the triangle `c p q` (counter-clockwise, narrower than a half turn)
    /// is in the region: the angular bins wholly inside it are covered out to the
    /// distance of its far side.
    pub(super) fn note_sector(&mut self, c: Point, p: Point, q: Point) {
        let (vp, vq) = (p - c, q - c);
        let inner = vp.perp_dot(vq).abs() / (q - p).length() * (1.0 - 1e-9);
        let (bp, bq) = (bin(vp), bin(vq));
        // Bins strictly between the ones holding the sides (none if they are one bin).
        let between = (bq + BINS - bp) % BINS;
        if between >= BINS / 2 {
            return;
        }
        let id = self.pieces.len() as u32;
        self.pieces.push((p, q));
        for k in 0..=between {
            self.piece_bins[(bp + k) % BINS].push(id);
        }
        for k in 1..between {
            let b = (bp + k) % BINS;
            self.reach[b] = self.reach[b].max(inner);
        }
    }

    /// Whether the triangle (the centre and two points, counter-clockwise from the first
    /// to the second by less than a half turn) lies in the region looked at. First by the
    /// angular bins (within the reach of every bin it meets, with a bin of slack each side
    /// for rounding), otherwise cell by cell.
    pub(super) fn in_region(&self, tri: [Point; 3], pad: f64) -> bool {
        let [c, p, q] = tri;
        if !(p.is_finite() && q.is_finite()) {
            return false;
        }
        let far = p.distance(c).max(q.distance(c)) * (1.0 + 1e-9) + pad;
        let (bp, bq) = (bin(p - c), bin(q - c));
        let span = (bq + BINS - bp) % BINS + 2;
        if span <= BINS / 2 + 3 && (0..=span).all(|k| self.reach[(bp + BINS - 1 + k) % BINS] >= far)
        {
            return true;
        }
        // Inside one grown triangle (whose cells, grown by the pad, are in the region):
        // both far corners inside it suffice, the triangles sharing the centre.
        let inside = |x: Point, (f, g): (Point, Point)| {
            (f - c).perp_dot(x - c) >= 0.0
                && (g - f).perp_dot(x - f) >= 0.0
                && (c - g).perp_dot(x - g) >= 0.0
        };
        for k in 0..3 {
            for &id in &self.piece_bins[(bp + BINS - 1 + k) % BINS] {
                let piece = self.pieces[id as usize];
                if inside(p, piece) && inside(q, piece) {
                    return true;
                }
            }
        }
        self.fs
            .grid
            .cover_triangle(tri, pad, |cell| self.cell_region[cell] == self.stamp)
    }
}
