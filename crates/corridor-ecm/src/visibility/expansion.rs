//! The visibility queries on a [`VisibilityIndex`]: the polygon by triangular expansion
//! (angular windows bounded by rays through triangle corners, pushed across the sides that
//! are not walls and narrowed by exact orientation tests, emitted in angular order by a
//! depth-first walk), and line of sight by walking the triangles the segment crosses.

use super::index::{Place, VisibilityIndex, BLOCKED};
use super::polygon::{assemble, ray_hit, Seen};
use super::{VisibilityError, VisibilityPolygon};
use corridor_geom::{orient, point_on_segment, Orientation, Point};

const CCW: Orientation = Orientation::CounterClockwise;
const CW: Orientation = Orientation::Clockwise;
const COL: Orientation = Orientation::Collinear;

/// Work left on the walk's stack, popped in angular order.
enum Step {
    Seen(Seen),
    /// Enter `face` through its side `entry`, looking between the rays to `r`
    /// (clockwise bound) and `l` (counter-clockwise bound).
    Enter {
        face: u32,
        entry: u8,
        r: Point,
        l: Point,
    },
}

#[inline]
fn next3(j: usize) -> usize {
    if j == 2 {
        0
    } else {
        j + 1
    }
}

impl VisibilityIndex {
    /// The visibility polygon of the free point `q`, as [`crate::Ecm::visibility_polygon`]
    /// answers it (the closure of the region seen, walls and windows).
    ///
    /// ```
    /// # use corridor_ecm::VisibilityIndex;
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 3.0));
    /// let index = VisibilityIndex::build(&env).unwrap();
    /// let seen = index.visibility_polygon(Point::new(1.0, 1.0)).unwrap();
    /// assert_eq!(seen.len(), 4);
    /// assert!((seen.area() - 12.0).abs() < 1e-12);
    /// assert!(index.visibility_polygon(Point::new(5.0, 1.0)).is_err());
    /// ```
    ///
    /// # Errors
    /// As [`crate::Ecm::visibility_polygon`].
    pub fn visibility_polygon(&self, q: Point) -> Result<VisibilityPolygon, VisibilityError> {
        let mut stack: Vec<Step> = Vec::with_capacity(32);
        match self.place(q)? {
            Place::Face(f) => {
                for j in (0..3).rev() {
                    self.start_side(f, j, &mut stack);
                }
            }
            Place::Side(f, j) => {
                // `q` on a side between two free faces: the other two sides of each.
                let n = self.faces[f as usize].across[j];
                let (g, k) = (n >> 2, (n & 3) as usize);
                for (face, side) in [(g, next3(next3(k))), (g, next3(k))] {
                    self.start_side(face, side, &mut stack);
                }
                for (face, side) in [(f, next3(next3(j))), (f, next3(j))] {
                    self.start_side(face, side, &mut stack);
                }
            }
        }
        let mut seen: Vec<Seen> = Vec::with_capacity(32);
        while let Some(step) = stack.pop() {
            match step {
                Step::Seen(s) => seen.push(s),
                Step::Enter { face, entry, r, l } => {
                    let f = face as usize;
                    let c = &self.faces[f].corners;
                    // The side after the entry is pushed last, to come off first.
                    for j in [next3(next3(entry as usize)), next3(entry as usize)] {
                        let (u, v) = (c[j], c[next3(j)]);
                        if orient(q, u, v) != CCW {
                            continue;
                        }
                        let lo = if orient(q, r, u) != CW { u } else { r };
                        let hi = if orient(q, v, l) != CW { v } else { l };
                        if orient(q, lo, hi) != CCW {
                            continue;
                        }
                        if self.faces[f].wall[j] {
                            stack.push(Step::Seen(Seen {
                                a: if lo == u { u } else { ray_hit(q, lo, u, v) },
                                b: if hi == v { v } else { ray_hit(q, hi, u, v) },
                                a_junction: false,
                                b_junction: false,
                            }));
                        } else if self.faces[f].across[j] != BLOCKED {
                            let n = self.faces[f].across[j];
                            stack.push(Step::Enter {
                                face: n >> 2,
                                entry: (n & 3) as u8,
                                r: lo,
                                l: hi,
                            });
                        }
                    }
                }
            }
        }
        Ok(assemble(q, &seen))
    }

    /// Pushes the work for side `j` of a face around the viewpoint (the whole side is in
    /// view).
    fn start_side(&self, f: u32, j: usize, stack: &mut Vec<Step>) {
        let f = f as usize;
        let (u, v) = (self.faces[f].corners[j], self.faces[f].corners[next3(j)]);
        if self.faces[f].wall[j] {
            stack.push(Step::Seen(Seen {
                a: u,
                b: v,
                a_junction: false,
                b_junction: false,
            }));
        } else if self.faces[f].across[j] != BLOCKED {
            let n = self.faces[f].across[j];
            stack.push(Step::Enter {
                face: n >> 2,
                entry: (n & 3) as u8,
                r: u,
                l: v,
            });
        }
    }

    /// Whether the free points `p` and `q` see each other (the closed segment touches no
    /// wall), as [`crate::Ecm::line_of_sight`] answers it.
    ///
    /// ```
    /// # use corridor_ecm::VisibilityIndex;
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 3.0));
    /// let index = VisibilityIndex::build(&env).unwrap();
    /// assert!(index.line_of_sight(Point::new(0.5, 0.5), Point::new(3.5, 2.5)).unwrap());
    /// assert!(!index.line_of_sight(Point::new(0.5, 0.5), Point::new(4.0, 2.5)).unwrap());
    /// ```
    ///
    /// # Errors
    /// As [`crate::Ecm::line_of_sight`]: for `p`; a `q` outside the free space is simply
    /// not seen.
    pub fn line_of_sight(&self, p: Point, q: Point) -> Result<bool, VisibilityError> {
        if !q.is_finite() {
            return Err(VisibilityError::NotFinite { point: q });
        }
        let place = self.place(p)?;
        Ok(self.sight(p, q, &place))
    }

    /// For each candidate, whether `q` sees it (one point location for all; candidates
    /// outside the free space, or not finite, are not seen).
    ///
    /// ```
    /// # use corridor_ecm::VisibilityIndex;
    /// # use corridor_geom::{Environment, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(4.0, 3.0));
    /// let index = VisibilityIndex::build(&env).unwrap();
    /// let seen = index.visible_points(Point::new(1.0, 1.0), &[Point::new(3.0, 2.0), Point::new(9.0, 9.0)]).unwrap();
    /// assert_eq!(seen, vec![true, false]);
    /// ```
    ///
    /// # Errors
    /// As [`VisibilityIndex::line_of_sight`].
    pub fn visible_points(
        &self,
        q: Point,
        candidates: &[Point],
    ) -> Result<Vec<bool>, VisibilityError> {
        let place = self.place(q)?;
        Ok(candidates
            .iter()
            .map(|&c| c.is_finite() && self.sight(q, c, &place))
            .collect())
    }

    /// The walk of [`VisibilityIndex::line_of_sight`] from the free point `p` at `place`.
    /// Every corner is a wall point, so touching one blocks the view.
    fn sight(&self, p: Point, q: Point, place: &Place) -> bool {
        if p == q {
            return true;
        }
        let (mut f, mut entry) = match *place {
            Place::Face(f) => (f as usize, None),
            Place::Side(f, j) => {
                let f = f as usize;
                let (u, v) = (self.faces[f].corners[j], self.faces[f].corners[next3(j)]);
                match orient(u, v, q) {
                    CCW => (f, Some(j)),
                    CW => {
                        let n = self.faces[f].across[j];
                        ((n >> 2) as usize, Some((n & 3) as usize))
                    }
                    // Along the side: seen unless the segment reaches a corner.
                    COL => return point_on_segment(q, u, v) && q != u && q != v,
                }
            }
        };
        // Which side of the segment's line each corner lies on; across a side, its two
        // corners' signs carry over and only the far corner is tested.
        let c = &self.faces[f].corners;
        let mut o = [orient(p, q, c[0]), orient(p, q, c[1]), orient(p, q, c[2])];
        loop {
            let c = &self.faces[f].corners;
            let mut exit = None;
            for j in 0..3 {
                if o[j] == COL && point_on_segment(c[j], p, q) {
                    return false;
                }
                if Some(j) != entry && o[j] == CW && o[next3(j)] == CCW {
                    exit = Some(j);
                }
            }
            let holds_q = match exit {
                Some(j) => orient(c[j], c[next3(j)], q) != CW,
                None => (0..3).all(|j| orient(c[j], c[next3(j)], q) != CW),
            };
            if holds_q {
                // `q` in the closed face: seen unless it lies on a wall side (it is no
                // corner, or the segment would have touched one).
                return !(0..3)
                    .any(|j| self.faces[f].wall[j] && point_on_segment(q, c[j], c[next3(j)]));
            }
            let Some(j) = exit else {
                return false;
            };
            let n = self.faces[f].across[j];
            if self.faces[f].wall[j] || n == BLOCKED {
                return false;
            }
            let k = (n & 3) as usize;
            f = (n >> 2) as usize;
            entry = Some(k);
            // The side's corners swap ends: its start (clockwise of the line) is the new
            // side's end.
            let far = next3(next3(k));
            o[k] = CCW;
            o[next3(k)] = CW;
            o[far] = orient(p, q, self.faces[f].corners[far]);
        }
    }
}
