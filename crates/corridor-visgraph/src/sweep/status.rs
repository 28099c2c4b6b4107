//! Which wall does a ray from the centre meet first? The order of the sweep's status:
//! walls that never cross are ordered by distance from the centre along any ray crossing
//! both, decided from the walls alone (exact, no angle).

use corridor_geom::free_space::side;
use corridor_geom::Point;
use std::cmp::Ordering;

/// A wall in the status, ordered by distance from the centre along any ray crossing it.
#[derive(Clone, Copy, Debug)]
pub(super) struct StatusKey {
    pub(super) a: Point,
    pub(super) b: Point,
    pub(super) centre: Point,
    pub(super) id: u32,
}

/// Whether segment `e` lies in the closed half-plane of `f`'s line holding `c`.
fn on_centre_side(e: (Point, Point), f: (Point, Point), c: Point) -> Option<bool> {
    let sc = side(f.0, f.1, c);
    let (sa, sb) = (side(f.0, f.1, e.0), side(f.0, f.1, e.1));
    if sa == 0 && sb == 0 {
        return None;
    }
    if (sa == sc || sa == 0) && (sb == sc || sb == 0) {
        Some(true)
    } else if (sa == -sc || sa == 0) && (sb == -sc || sb == 0) {
        Some(false)
    } else {
        None
    }
}

impl StatusKey {
    /// Whether `self` is nearer to the centre than `other` on the rays both cross.
    fn nearer(&self, other: &StatusKey) -> Ordering {
        let (e, f) = ((self.a, self.b), (other.a, other.b));
        if let Some(near) = on_centre_side(e, f, self.centre) {
            return if near {
                Ordering::Less
            } else {
                Ordering::Greater
            };
        }
        if let Some(near) = on_centre_side(f, e, self.centre) {
            return if near {
                Ordering::Greater
            } else {
                Ordering::Less
            };
        }
        // Impossible for walls that do not cross; stay a total order regardless.
        self.id.cmp(&other.id)
    }
}

impl PartialEq for StatusKey {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for StatusKey {}
impl PartialOrd for StatusKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for StatusKey {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.id == other.id {
            Ordering::Equal
        } else {
            self.nearer(other)
        }
    }
}
