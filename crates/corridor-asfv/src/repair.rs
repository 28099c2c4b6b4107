//! How the decomposition follows obstacle changes (DASFV): local removal, reseeding and
//! regrowth, and local relinking.

use crate::convex;
use crate::decomposition::Decomposition;
use crate::walls::{obstacle_walls, Owner, Wall};
use crate::AsfvError;
use corridor_geom::{segments_intersect, Aabb, Obstacle, ObstacleId, Point};

/// What a repair did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RepairReport {
    /// Regions removed.
    pub removed: usize,
    /// Regions created.
    pub created: usize,
    /// Surviving regions that grew into the freed space.
    pub regrown: usize,
    /// A box around everything the repair removed, created or changed (`None` when it
    /// changed nothing).
    pub area: Option<Aabb>,
}

impl Decomposition {
    /// Adds an obstacle and repairs the decomposition around it: the regions it cuts are
    /// removed, their neighbours grow again, and the freed space is reseeded. Returns the
    /// new obstacle's id.
    ///
    /// Errors: the obstacle is invalid (non-finite, self-intersecting, …); then nothing
    /// changes.
    ///
    /// ```
    /// use corridor_asfv::{AsfvOptions, Decomposition};
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(20.0, 20.0));
    /// let mut d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
    /// let id = d.insert(Obstacle::Point(Point::new(5.5, 5.5))).unwrap();
    /// d.validate().unwrap();
    /// assert!(d.environment().obstacle(id).is_some());
    /// ```
    pub fn insert(&mut self, obstacle: Obstacle) -> Result<ObstacleId, AsfvError> {
        self.env.validate_obstacle_geometry(&obstacle)?;
        let id = self.env.insert(obstacle.clone());
        self.insert_with_id(id, &obstacle);
        Ok(id)
    }

    /// [`Decomposition::insert`], also saying what the repair did.
    pub fn insert_with_report(
        &mut self,
        obstacle: Obstacle,
    ) -> Result<(ObstacleId, RepairReport), AsfvError> {
        self.env.validate_obstacle_geometry(&obstacle)?;
        let id = self.env.insert(obstacle.clone());
        let report = self.insert_with_id(id, &obstacle);
        Ok((id, report))
    }

    fn insert_with_id(&mut self, id: ObstacleId, obstacle: &Obstacle) -> RepairReport {
        let walls = obstacle_walls(id, obstacle);
        self.walls.add(Owner::Obstacle(id), walls.clone());
        let Some(bbox) = obstacle.aabb() else {
            return RepairReport::default();
        };
        let mut scratch = Vec::new();
        self.region_grid.query(&bbox, &mut scratch);
        let cut: Vec<u32> = scratch
            .iter()
            .copied()
            .filter(|&s| {
                self.live(s).is_some_and(|r| {
                    r.bbox.intersects(&bbox) && obstacle_cuts(obstacle, &walls, &r.polygon)
                })
            })
            .collect();
        self.replace_regions(&cut, bbox, &[])
    }

    /// Removes an obstacle and repairs the decomposition: the regions that touched it are
    /// removed, a seed goes to its former centroid, their neighbours grow again, and the
    /// freed space is reseeded. Returns the removed obstacle.
    ///
    /// ```
    /// use corridor_asfv::{AsfvOptions, Decomposition};
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(20.0, 20.0));
    /// let id = env.insert(Obstacle::rectangle(Point::new(5.0, 5.0), Point::new(9.0, 9.0)));
    /// let mut d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
    /// let before = d.coverage().covered_area;
    /// d.remove(id).unwrap();
    /// d.validate().unwrap();
    /// assert!(d.coverage().covered_area > before);
    /// ```
    pub fn remove(&mut self, id: ObstacleId) -> Result<Obstacle, AsfvError> {
        self.remove_with_report(id).map(|(o, _)| o)
    }

    /// [`Decomposition::remove`], also saying what the repair did.
    pub fn remove_with_report(
        &mut self,
        id: ObstacleId,
    ) -> Result<(Obstacle, RepairReport), AsfvError> {
        let obstacle = self.env.remove(id).ok_or(AsfvError::UnknownObstacle(id))?;
        let walls = self.walls.remove_owner(Owner::Obstacle(id));
        let Some(bbox) = obstacle.aabb() else {
            return Ok((obstacle, RepairReport::default()));
        };
        let mut scratch = Vec::new();
        self.region_grid.query(&bbox, &mut scratch);
        let touching: Vec<u32> = scratch
            .iter()
            .copied()
            .filter(|&s| {
                self.live(s)
                    .is_some_and(|r| r.bbox.intersects(&bbox) && touches(&walls, &r.polygon))
            })
            .collect();
        // Regions that adopted one of its lines are cut by a wall that is gone: they go
        // too, or they could never grow past it.
        let key = |a: Point, b: Point| (a.x.to_bits(), a.y.to_bits(), b.x.to_bits(), b.y.to_bits());
        let gone: std::collections::HashSet<_> = walls
            .iter()
            .flat_map(|w| [key(w.a, w.b), key(w.b, w.a)])
            .collect();
        let mut touching = touching;
        for (slot, s) in self.slots.iter().enumerate() {
            if let Some(r) = &s.region {
                if r.lines.iter().any(|&(a, b)| gone.contains(&key(a, b))) {
                    touching.push(slot as u32);
                }
            }
        }
        touching.sort_unstable();
        touching.dedup();
        let centre = centroid(&obstacle);
        let report = self.replace_regions(&touching, bbox, &[centre]);
        Ok((obstacle, report))
    }

    /// Moves an obstacle: [`Decomposition::remove`] then an insertion under the
    /// same id. The report adds up both repairs.
    ///
    /// Errors: the new geometry is invalid, or no obstacle has this id; then nothing
    /// changes.
    pub fn move_to(&mut self, id: ObstacleId, to: Obstacle) -> Result<RepairReport, AsfvError> {
        self.env.validate_obstacle_geometry(&to)?;
        let (_, first) = self.remove_with_report(id)?;
        self.env.insert_with_id(id, to.clone());
        let second = self.insert_with_id(id, &to);
        let area = match (first.area, second.area) {
            (Some(a), Some(b)) => Some(a.union(b)),
            (a, b) => a.or(b),
        };
        Ok(RepairReport {
            removed: first.removed + second.removed,
            created: first.created + second.created,
            regrown: first.regrown + second.regrown,
            area,
        })
    }

    /// Removes `slots`, lets their neighbours grow again, reseeds the freed area (plus
    /// `area`) and relinks what changed.
    fn replace_regions(&mut self, slots: &[u32], area: Aabb, seeds: &[Point]) -> RepairReport {
        let mut dirty = area;
        let mut neighbours = Vec::new();
        for &s in slots {
            if let Some(r) = self.live(s) {
                dirty = dirty.union(r.bbox);
            }
            neighbours.extend(self.remove_region(s));
        }
        // Every region near the freed space may grow into it, not just graph neighbours
        // (regions meeting a removed one at a corner count too).
        let mut scratch = Vec::new();
        self.region_grid.query(&dirty, &mut scratch);
        neighbours.extend(
            scratch
                .iter()
                .filter(|&&s| self.live(s).is_some_and(|r| r.bbox.intersects(&dirty))),
        );
        neighbours.sort_unstable();
        neighbours.dedup();
        neighbours.retain(|&n| self.live(n).is_some());
        self.changed.clear();
        self.fill(dirty, seeds, neighbours.clone());
        let mut changed = self.changed.clone();
        changed.sort_unstable();
        changed.dedup();
        let regrown = changed.iter().filter(|s| neighbours.contains(s)).count();
        let created = changed.len() - regrown;
        let mut touched = dirty;
        for &s in &changed {
            if let Some(r) = self.live(s) {
                touched = touched.union(r.bbox);
            }
        }
        self.relink_changed();
        RepairReport {
            removed: slots.len(),
            created,
            regrown,
            area: Some(touched),
        }
    }
}

/// Whether an obstacle meets the open interior of a convex region.
fn obstacle_cuts(obstacle: &Obstacle, walls: &[Wall], poly: &[Point]) -> bool {
    let crosses = walls.iter().any(|w| {
        if w.a == w.b {
            convex::point_strictly_inside(poly, w.a)
        } else {
            convex::segment_meets_interior(poly, w.a, w.b)
        }
    });
    crosses || matches!(obstacle, Obstacle::Polygon(p) if p.contains(convex::centre(poly)))
}

/// Whether any wall touches the closed region.
fn touches(walls: &[Wall], poly: &[Point]) -> bool {
    let n = poly.len();
    walls.iter().any(|w| {
        convex::point_inside_or_on(poly, w.a)
            || convex::point_inside_or_on(poly, w.b)
            || (0..n).any(|i| segments_intersect(w.a, w.b, poly[i], poly[(i + 1) % n]))
    })
}

/// The centroid of an obstacle (area centroid for polygons, vertex average otherwise).
fn centroid(obstacle: &Obstacle) -> Point {
    match obstacle {
        Obstacle::Point(p) => *p,
        Obstacle::Polyline(v) => v.iter().copied().sum::<Point>() / v.len().max(1) as f64,
        Obstacle::Polygon(poly) => {
            let v = poly.exterior.vertices();
            let (mut a, mut c) = (0.0, Point::ZERO);
            for i in 0..v.len() {
                let (p, q) = (v[i], v[(i + 1) % v.len()]);
                let cross = p.perp_dot(q);
                a += cross;
                c += (p + q) * cross;
            }
            if a.abs() > 0.0 {
                c / (3.0 * a)
            } else {
                v.iter().copied().sum::<Point>() / v.len().max(1) as f64
            }
        }
    }
}
