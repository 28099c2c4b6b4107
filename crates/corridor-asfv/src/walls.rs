//! What blocks: the boundary's and obstacles' edges and points, indexed for the builder,
//! and the scanline that tells free from blocked along a horizontal line.

use crate::grid::BucketGrid;
use corridor_geom::{Aabb, Environment, Obstacle, ObstacleId, Point};
use std::collections::HashMap;

/// Who a wall belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Owner {
    Boundary,
    Obstacle(ObstacleId),
}

/// One blocking segment (or, with `a == b`, a point obstacle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Wall {
    pub(crate) a: Point,
    pub(crate) b: Point,
    pub(crate) owner: Owner,
    /// Whether the segment is an edge of a ring that encloses area (the boundary or a
    /// polygon obstacle), so crossing it toggles inside/outside.
    pub(crate) encloses: bool,
}

impl Wall {
    pub(crate) fn aabb(&self) -> Aabb {
        Aabb::new(self.a, self.b)
    }
}

/// All walls, in slots (a removed obstacle frees its slots), with a bucket grid.
#[derive(Clone, Debug)]
pub(crate) struct WallSet {
    slots: Vec<Option<Wall>>,
    free: Vec<u32>,
    by_owner: HashMap<Owner, Vec<u32>>,
    grid: BucketGrid,
}

/// The walls of one obstacle.
pub(crate) fn obstacle_walls(id: ObstacleId, obstacle: &Obstacle) -> Vec<Wall> {
    let owner = Owner::Obstacle(id);
    let seg = |a: Point, b: Point, encloses: bool| Wall {
        a,
        b,
        owner,
        encloses,
    };
    match obstacle {
        Obstacle::Point(p) => vec![seg(*p, *p, false)],
        Obstacle::Polyline(v) => v
            .windows(2)
            .filter(|w| w[0] != w[1])
            .map(|w| seg(w[0], w[1], false))
            .collect(),
        Obstacle::Polygon(poly) => poly
            .edges()
            .filter(|e| e.a != e.b)
            .map(|e| seg(e.a, e.b, true))
            .collect(),
    }
}

impl WallSet {
    /// The walls of `env`: its boundary and every obstacle.
    pub(crate) fn new(env: &Environment, bounds: Aabb, grid_cells: usize) -> Self {
        let mut set = WallSet {
            slots: Vec::new(),
            free: Vec::new(),
            by_owner: HashMap::new(),
            grid: BucketGrid::new(bounds, grid_cells),
        };
        let boundary: Vec<Wall> = env
            .boundary()
            .edges()
            .filter(|e| e.a != e.b)
            .map(|e| Wall {
                a: e.a,
                b: e.b,
                owner: Owner::Boundary,
                encloses: true,
            })
            .collect();
        set.add(Owner::Boundary, boundary);
        for (id, obstacle) in env.obstacles() {
            set.add(Owner::Obstacle(id), obstacle_walls(id, obstacle));
        }
        set
    }

    /// Adds the walls of one owner.
    pub(crate) fn add(&mut self, owner: Owner, walls: Vec<Wall>) {
        let mut ids = Vec::with_capacity(walls.len());
        for w in walls {
            let id = match self.free.pop() {
                Some(id) => {
                    self.slots[id as usize] = Some(w);
                    id
                }
                None => {
                    self.slots.push(Some(w));
                    (self.slots.len() - 1) as u32
                }
            };
            self.grid.insert(id, &w.aabb());
            ids.push(id);
        }
        self.by_owner.entry(owner).or_default().extend(ids);
    }

    /// Removes every wall of `owner`, returning them.
    pub(crate) fn remove_owner(&mut self, owner: Owner) -> Vec<Wall> {
        let ids = self.by_owner.remove(&owner).unwrap_or_default();
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(w) = self.slots[id as usize].take() {
                self.grid.remove(id, &w.aabb());
                self.free.push(id);
                out.push(w);
            }
        }
        out
    }

    /// Calls `visit` on each wall whose box may meet `b`, until it returns `false`.
    pub(crate) fn near_each(
        &self,
        b: &Aabb,
        scratch: &mut Vec<u32>,
        mut visit: impl FnMut(&Wall) -> bool,
    ) {
        self.grid.query(b, scratch);
        for &id in scratch.iter() {
            if let Some(w) = self.slots[id as usize].as_ref() {
                if w.aabb().intersects(b) && !visit(w) {
                    return;
                }
            }
        }
    }

    /// The free intervals of the horizontal line at height `y` between `x_from` and
    /// `x_to`: inside the boundary and inside no polygon obstacle. Crossings use the
    /// half-open rule on y, so a line through a vertex counts it once.
    pub(crate) fn free_intervals(
        &self,
        y: f64,
        x_from: f64,
        x_to: f64,
        scratch: &mut Vec<u32>,
    ) -> Vec<(f64, f64)> {
        // The grid clamps far-left boxes to its first column: every crossing left of
        // x_to is seen.
        let row_box = Aabb::new(Point::new(-1e300, y), Point::new(x_to.max(x_from), y));
        self.grid.query(&row_box, scratch);
        let mut crossings: Vec<(f64, Owner)> = Vec::new();
        for &id in scratch.iter() {
            let Some(w) = self.slots[id as usize].as_ref() else {
                continue;
            };
            if !w.encloses || ((w.a.y <= y) == (w.b.y <= y)) {
                continue;
            }
            let x = w.a.x + (y - w.a.y) * (w.b.x - w.a.x) / (w.b.y - w.a.y);
            if x <= x_to {
                crossings.push((x, w.owner));
            }
        }
        crossings.sort_by(|p, q| p.0.total_cmp(&q.0));
        let mut inside: HashMap<Owner, bool> = HashMap::new();
        let mut blocked = 0i32;
        let mut boundary_in = false;
        let mut out = Vec::new();
        let mut open: Option<f64> = None;
        for (x, owner) in crossings {
            let entry = inside.entry(owner).or_insert(false);
            *entry = !*entry;
            if owner == Owner::Boundary {
                boundary_in = *entry;
            } else {
                blocked += if *entry { 1 } else { -1 };
            }
            let free = boundary_in && blocked == 0;
            match (open, free) {
                (None, true) => open = Some(x),
                (Some(start), false) => {
                    if x > x_from && x > start {
                        out.push((start.max(x_from), x));
                    }
                    open = None;
                }
                _ => {}
            }
        }
        if let Some(start) = open {
            if x_to > start {
                out.push((start.max(x_from), x_to));
            }
        }
        out
    }

    /// The area of the free space (boundary minus the union of polygon obstacles), by a
    /// scanline over the slabs between consecutive vertex heights: within a slab the
    /// free length is linear in y unless edges of overlapping obstacles cross there, so
    /// the midpoint rule is exact except for a second-order error in such slabs.
    pub(crate) fn free_area(&self, bounds: Aabb) -> f64 {
        let mut ys: Vec<f64> = self
            .slots
            .iter()
            .flatten()
            .filter(|w| w.encloses)
            .flat_map(|w| [w.a.y, w.b.y])
            .collect();
        ys.sort_by(f64::total_cmp);
        ys.dedup();
        let mut scratch = Vec::new();
        let mut area = 0.0;
        for w in ys.windows(2) {
            let y = (w[0] + w[1]) / 2.0;
            let length: f64 = self
                .free_intervals(y, f64::NEG_INFINITY, bounds.max.x + 1.0, &mut scratch)
                .iter()
                .map(|(a, b)| b - a)
                .sum();
            area += length * (w[1] - w[0]);
        }
        area
    }
}
