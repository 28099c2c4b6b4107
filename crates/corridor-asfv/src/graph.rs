//! Which regions are neighbours: the connectivity graph, kept up to date by relinking
//! only the regions that changed.

use crate::convex;
use crate::decomposition::Decomposition;
use corridor_geom::{orient, Aabb, Orientation, Point};

impl Decomposition {
    /// The longest part of the shared boundary piece `a b` that no wall lies along: two
    /// regions on either side of a fence touch, but the fence is no way through.
    fn open_part(&self, a: Point, b: Point) -> Option<(Point, Point)> {
        let mut scratch = Vec::new();
        let mut along = Vec::new();
        self.walls.near_each(&Aabb::new(a, b), &mut scratch, |w| {
            if w.a != w.b
                && orient(a, b, w.a) == Orientation::Collinear
                && orient(a, b, w.b) == Orientation::Collinear
            {
                along.push((w.a, w.b));
            }
            true
        });
        if along.is_empty() {
            return Some((a, b));
        }
        convex::longest_uncovered(a, b, &along)
    }

    /// Recomputes the links of every region whose polygon changed since the last call
    /// (new regions and regions that grew), and nothing else.
    pub(crate) fn relink_changed(&mut self) {
        let mut changed = std::mem::take(&mut self.changed);
        changed.sort_unstable();
        changed.dedup();
        // Drop the old links of changed regions.
        for &slot in &changed {
            let Some(r) = self.slots[slot as usize].region.as_mut() else {
                continue;
            };
            let old = std::mem::take(&mut r.neighbours);
            for (n, _, _) in old {
                if let Some(other) = self.slots[n as usize].region.as_mut() {
                    other.neighbours.retain(|&(m, _, _)| m != slot);
                }
            }
        }
        let mut scratch = Vec::new();
        for &slot in &changed {
            let Some(r) = self.live(slot) else { continue };
            let bbox = r.bbox;
            self.region_grid.query(&bbox, &mut scratch);
            let mut found = Vec::new();
            for &other in scratch.iter() {
                if other == slot {
                    continue;
                }
                let Some(o) = self.live(other) else { continue };
                if !o.bbox.intersects(&bbox) || r.neighbours.iter().any(|&(m, _, _)| m == other) {
                    continue;
                }
                if let Some((a, b)) = convex::shared_edge(&r.polygon, &o.polygon) {
                    if let Some((a, b)) = self.open_part(a, b) {
                        found.push((other, a, b));
                    }
                }
            }
            for (other, a, b) in found {
                let r = self.region_mut(slot);
                if r.neighbours.iter().any(|&(m, _, _)| m == other) {
                    continue;
                }
                r.neighbours.push((other, a, b));
                self.region_mut(other).neighbours.push((slot, a, b));
            }
        }
    }
}
