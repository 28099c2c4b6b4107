//! The decomposition itself: its state, how it is built, and what it reports.

use crate::check::{self, CheckReport, ValidationError};
use crate::grid::BucketGrid;
use crate::region::{Region, RegionId, RegionPortal};
use crate::walls::WallSet;
use crate::{AsfvError, AsfvOptions};
use corridor_geom::{Aabb, Environment, Point, Segment};

/// The most seeds the first lattice may hold (about a gigabyte of regions).
const MAX_FIRST_SEEDS: f64 = 1e7;

/// Cells along the longer side of the bucket grids.
const GRID_CELLS: usize = 256;

/// A slot of the region store: the generation counts the regions it has held.
#[derive(Clone, Debug)]
pub(crate) struct Slot {
    pub(crate) generation: u32,
    pub(crate) region: Option<Region>,
}

/// How much of the free space the regions cover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coverage {
    /// Total area of the regions.
    pub covered_area: f64,
    /// Area of the free space (boundary minus the union of polygon obstacles).
    pub free_area: f64,
}

impl Coverage {
    /// `covered_area / free_area` (1 when there is no free area).
    pub fn fraction(&self) -> f64 {
        if self.free_area > 0.0 {
            self.covered_area / self.free_area
        } else {
            1.0
        }
    }
}

/// An adaptive space-filling volume decomposition of an environment's free space into
/// convex regions, with its connectivity graph, kept valid under obstacle changes.
///
/// Building seeds unit quads on a lattice in the free space and lets every region push
/// its four sides outward step by step until they meet an obstacle or another region.
/// When a side runs into an obstacle edge at an angle, the region adopts that edge's
/// line as a new side (raising its order) and keeps growing along it, so it stays convex
/// and hugs slanted walls. Free space left over is reseeded with a finer lattice until
/// no seed fits (Hale, Youngblood & Dixit 2008).
///
/// Changes are repaired locally (Hale & Youngblood 2009, "DASFV"): an inserted obstacle
/// removes the regions it cuts, a removed obstacle removes the regions that touched it
/// and seeds its old centroid; the neighbours of removed regions grow again, the freed
/// area is reseeded, and only the links of changed regions are recomputed.
///
/// ```
/// use corridor_asfv::{AsfvOptions, Decomposition};
/// use corridor_geom::{Environment, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(40.0, 30.0));
/// env.insert(Obstacle::rectangle(Point::new(10.0, 10.0), Point::new(20.0, 20.0)));
/// let mut d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
/// d.validate().unwrap();
/// assert!(d.coverage().fraction() > 0.999);
///
/// let path = d.path(Point::new(5.0, 15.0), Point::new(35.0, 15.0)).unwrap();
/// assert!(path.length >= 30.0);
///
/// let crate_id = d.insert(Obstacle::rectangle(Point::new(30.0, 2.0), Point::new(33.0, 5.0))).unwrap();
/// d.validate().unwrap();
/// d.remove(crate_id).unwrap();
/// d.validate().unwrap();
/// ```
#[derive(Clone, Debug)]
pub struct Decomposition {
    pub(crate) options: AsfvOptions,
    pub(crate) env: Environment,
    pub(crate) bounds: Aabb,
    pub(crate) walls: WallSet,
    pub(crate) slots: Vec<Slot>,
    pub(crate) free_slots: Vec<u32>,
    pub(crate) region_grid: BucketGrid,
    /// Slots whose polygon changed since the graph was last updated.
    pub(crate) changed: Vec<u32>,
    /// A reusable buffer for grid queries.
    pub(crate) scratch: Vec<u32>,
}

impl Decomposition {
    /// Decomposes the free space of `env`.
    ///
    /// Errors: invalid parameters, an invalid environment (the error names the
    /// obstacle), or an environment so large that the first seed lattice alone would
    /// hold more than ten million seeds.
    pub fn build(env: &Environment, options: &AsfvOptions) -> Result<Self, AsfvError> {
        options.validate()?;
        env.validate()?;
        let bounds = env.bounds();
        let seeds =
            bounds.size().x * bounds.size().y / (options.seed_spacing * options.seed_spacing);
        if seeds > MAX_FIRST_SEEDS {
            return Err(AsfvError::TooLarge {
                seeds,
                spacing: options.seed_spacing,
                limit: MAX_FIRST_SEEDS,
            });
        }
        let mut d = Decomposition {
            options: *options,
            env: env.clone(),
            bounds,
            walls: WallSet::new(env, bounds, GRID_CELLS),
            slots: Vec::new(),
            free_slots: Vec::new(),
            region_grid: BucketGrid::new(bounds, GRID_CELLS),
            changed: Vec::new(),
            scratch: Vec::new(),
        };
        d.fill(bounds, &[], Vec::new());
        d.relink_changed();
        Ok(d)
    }

    /// The parameters it was built with.
    pub fn options(&self) -> &AsfvOptions {
        &self.options
    }

    /// The environment as it is now (with every inserted and removed obstacle).
    pub fn environment(&self) -> &Environment {
        &self.env
    }

    /// Number of regions.
    pub fn region_count(&self) -> usize {
        self.slots.iter().filter(|s| s.region.is_some()).count()
    }

    /// All regions, in slot order.
    pub fn regions(&self) -> impl Iterator<Item = &Region> {
        self.slots.iter().filter_map(|s| s.region.as_ref())
    }

    /// The region with this id, if it still exists.
    pub fn region(&self, id: RegionId) -> Option<&Region> {
        let slot = self.slots.get(id.index as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        slot.region.as_ref()
    }

    /// The neighbours of a region and the portals to them.
    pub fn neighbours(&self, id: RegionId) -> impl Iterator<Item = (RegionId, Segment)> + '_ {
        self.region(id)
            .into_iter()
            .flat_map(|r| r.neighbours.iter())
            .filter_map(|&(slot, a, b)| Some((self.live(slot)?.id, Segment::new(a, b))))
    }

    /// Every portal (edge of the connectivity graph) once, the smaller region id first.
    pub fn portals(&self) -> Vec<RegionPortal> {
        let mut out = Vec::new();
        for r in self.regions() {
            for &(slot, a, b) in &r.neighbours {
                if let Some(other) = self.live(slot) {
                    if r.id < other.id {
                        out.push(RegionPortal {
                            regions: (r.id, other.id),
                            segment: Segment::new(a, b),
                        });
                    }
                }
            }
        }
        out
    }

    /// The edges of the connectivity graph drawn between region centres (for pictures).
    pub fn graph_segments(&self) -> Vec<Segment> {
        self.portals()
            .iter()
            .filter_map(|p| {
                let (a, b) = (self.region(p.regions.0)?, self.region(p.regions.1)?);
                Some(Segment::new(a.centre(), b.centre()))
            })
            .collect()
    }

    /// The region containing `p` (inside or on its boundary), if any.
    pub fn locate(&self, p: Point) -> Option<RegionId> {
        if !p.is_finite() {
            return None;
        }
        let mut scratch = Vec::new();
        self.region_grid.query(&Aabb::new(p, p), &mut scratch);
        scratch
            .iter()
            .filter_map(|&s| self.live(s))
            .find(|r| r.bbox.contains(p) && r.contains(p))
            .map(|r| r.id)
    }

    /// How much of the free area the regions cover. Computes the free area by a
    /// scanline over all walls, O(n log n) in the number of obstacle vertices.
    pub fn coverage(&self) -> Coverage {
        Coverage {
            covered_area: self.regions().map(Region::area).sum(),
            free_area: self.walls.free_area(self.bounds),
        }
    }

    /// Checks the decomposition with the independent checker ([`crate::check_regions`]):
    /// regions strictly convex, interiors pairwise disjoint, inside the free space, and
    /// the connectivity graph equal to the geometric adjacency of the regions.
    pub fn validate(&self) -> Result<CheckReport, ValidationError> {
        let regions: Vec<(RegionId, Vec<Point>)> =
            self.regions().map(|r| (r.id, r.polygon.clone())).collect();
        let links: Vec<(RegionId, RegionId, Segment)> = self
            .portals()
            .into_iter()
            .map(|p| (p.regions.0, p.regions.1, p.segment))
            .collect();
        check::check_regions(&self.env, &regions, &links)
    }

    /// [`Decomposition::validate`] restricted to the regions whose boxes meet `window`
    /// (for instance [`crate::RepairReport::area`] after a repair): the same rules,
    /// checked where a change could have broken them.
    pub fn validate_within(&self, window: Aabb) -> Result<CheckReport, ValidationError> {
        let regions: Vec<(RegionId, Vec<Point>)> =
            self.regions().map(|r| (r.id, r.polygon.clone())).collect();
        let links: Vec<(RegionId, RegionId, Segment)> = self
            .portals()
            .into_iter()
            .map(|p| (p.regions.0, p.regions.1, p.segment))
            .collect();
        check::check_regions_within(&self.env, &regions, &links, Some(window))
    }

    pub(crate) fn live(&self, slot: u32) -> Option<&Region> {
        self.slots.get(slot as usize)?.region.as_ref()
    }

    pub(crate) fn region_mut(&mut self, slot: u32) -> &mut Region {
        self.slots[slot as usize]
            .region
            .as_mut()
            .expect("slot holds a live region")
    }

    /// Stores a new region with the quad `offsets` and returns its slot.
    pub(crate) fn add_region(&mut self, offsets: [f64; 4], polygon: Vec<Point>) -> u32 {
        let slot = match self.free_slots.pop() {
            Some(s) => s,
            None => {
                self.slots.push(Slot {
                    generation: 0,
                    region: None,
                });
                (self.slots.len() - 1) as u32
            }
        };
        let entry = &mut self.slots[slot as usize];
        entry.generation += 1;
        let bbox = crate::convex::bbox(&polygon);
        entry.region = Some(Region {
            id: RegionId {
                index: slot,
                generation: entry.generation,
            },
            offsets,
            lines: Vec::new(),
            polygon,
            bbox,
            indexed: bbox,
            active: [true; 4],
            neighbours: Vec::new(),
        });
        self.region_grid.insert(slot, &bbox);
        self.changed.push(slot);
        slot
    }

    /// Removes a region and its links; returns its former neighbours.
    pub(crate) fn remove_region(&mut self, slot: u32) -> Vec<u32> {
        let Some(region) = self.slots[slot as usize].region.take() else {
            return Vec::new();
        };
        self.region_grid.remove(slot, &region.indexed);
        self.free_slots.push(slot);
        let mut out = Vec::new();
        for &(n, _, _) in &region.neighbours {
            if let Some(r) = self.slots[n as usize].region.as_mut() {
                r.neighbours.retain(|&(m, _, _)| m != slot);
                out.push(n);
            }
        }
        out
    }
}
