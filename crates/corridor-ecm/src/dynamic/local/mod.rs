//! The local repair of the ECM after a change of the walls.
//!
//! # Why it is exact
//! Let `C` be the walls (segments and points, as sets of grid points) that the change
//! removed or added. A medial-axis point `q` of clearance `r` is *stable* if every
//! element of `C` is farther than `r` from it. A stable point has the same nearest walls,
//! the same annotation and the same neighbourhood in the old and the new diagram (nothing
//! within its clearance disc changed), so the stable parts of both medial axes coincide,
//! ECM vertices included. An old ECM edge all of whose points are stable is therefore an
//! edge of the new ECM, unchanged; these are the *kept* edges. Every other old edge is
//! *influenced* and removed. The test is conservative (a chord of bending points `a b`
//! is influenced when `C` comes within `ε` of the convex hull of the discs of radius
//! `r_a + deviation` around `a` and `r_b + deviation` around `b`: along a Voronoi arc the
//! clearance is convex in the parameter along the chord, so at most the interpolation of
//! `r_a` and `r_b`, and each arc point is within the sampling deviation of the chord
//! point of the same parameter), so it may remove a stable edge too, which is then
//! found again below.
//!
//! The new ECM is the kept edges plus a set `Y` of new edges. `Y` is taken from the
//! ECM `L` of the new walls that meet a box `B`: a point of `L` whose clearance disc lies
//! inside `B` has no other wall in its disc than the ones `L` was built from, so it is a
//! point of the new medial axis with the same annotation, and a vertex of `L` whose disc
//! lies inside `B` has the same incident edges as in the new ECM. An edge of `L` all of
//! whose chords have their discs (bounded as above) strictly inside `B` is *certified*:
//! it is an edge of the new ECM. `Y` is every certified edge of `L` that is not a kept
//! edge.
//!
//! # Open vertices
//! The local diagram has no frame around its walls (a frame of 4 far walls cost a fifth
//! of the Voronoi step), so some medial-axis edges of `L` are infinite: bisectors of two
//! wall end points on the convex hull of the local walls, on their free side. Extraction
//! does not trace them; it counts them at their finite end vertex, which is *open*, and
//! always makes that vertex a vertex of `L` (with the infinite edges counted, the degree
//! of every vertex is its degree in the diagram of the local walls, so a vertex is never
//! taken for a bending point). Two cases:
//! * an open vertex of degree ≠ 2 is a true vertex of `L`, but its infinite edges are
//!   missing from its list. They are never in `Y`, so check (1) fails at it as a new
//!   vertex (it counts them), and check (2) at an old end vertex does not look at `L`'s
//!   edges at all (only at the `Y` edge ends it gets);
//! * an open vertex of degree 2 is a bending point of the medial axis of the local walls
//!   where the chain through it runs off to infinity: an edge of `L` that ends there is
//!   only a part of an edge of that medial axis, so it is not certified (nor is a cut
//!   piece that ends there). The edge on its other side is infinite, so not certified
//!   either: no `Y` edge ends at such a vertex.
//!
//! Any other infinite medial-axis edge (there is none: in a segment Voronoi diagram an
//! infinite edge between two cells is the bisector of two points on the convex hull of
//! the sites, or the boundary between a segment and its end point) makes extraction
//! fail, and the update tries the next recovery transform. So every edge end that `L`
//! has at a vertex is either in its list or counted as open, and the checks below see
//! every edge of `L` as they would with a frame around the walls. That is all they
//! need: only certified parts of `L` go into the map, and those do not depend on any
//! wall outside their discs.
//!
//! `Y` is complete when (1) every vertex of `Y` that is not an old vertex has all of its
//! `L` edges in `Y`, (2) every old vertex where kept and influenced edges meet (an *end
//! vertex*, stable, so of the same degree in both maps) gets exactly as many `Y` edge
//! ends as it lost influenced ones, and (3) the cells of `Y` minus those of the removed
//! edges cover exactly the change of the free area (a whole missing component has an
//! area of at least half a grid step squared). A missing edge of the new ECM would break
//! (1) or (2) at one of its ends, or (3) if its whole component is missing. When a check
//! fails, `B` is doubled; after a few doublings the update falls back to a full rebuild.
//! The Voronoi diagram of `L` is validated on the edges of `Y` with the predicates of
//! the full build (equidistance, no closer wall, no inverted cell), with the same exact
//! transforms for recovery.
//!
//! # Cut edges
//! An influenced edge is often influenced only near one spot, and rebuilding it whole
//! needs the walls around all of it. So the first attempt rebuilds only its chords near
//! the change and a few stable chords on each side, up to the second Voronoi vertex
//! (extraction flags the bending points that are Voronoi vertices), and keeps the rest
//! of the edge: it is cut at a bending point `P` that is a vertex of the local Voronoi
//! diagram where a local edge passes through with its neighbour on the kept side equal
//! to the old edge's. `P` is then a Voronoi vertex of the new diagram whose disc is
//! stable, so also one of the old diagram: the old bending points on the kept side are
//! the samples of whole stable arcs (the sampling of an arc depends only on its ends and
//! its two sites), those of the new map. The kept
//! part is joined to the certified part of the local edge from `P` on (whole arcs of the
//! new map as well) into one new edge, up to a local vertex or another cut. The old
//! vertex at the kept end stays, and counts in (2) like an end vertex. When a planned
//! cut is not found, or a check fails, the update retries with whole edges.
//!
//! # The files
//! From the top: this one plans the repair ([`plan_patch`]: the influenced edges, cut
//! edges first, then whole edges in a region that doubles); `influence` finds what the
//! change influences; `cuts` plans and finds cuts; `attempt` makes one try, which takes
//! walls (`window`), certifies (`certify`), selects and completes (`select`) and
//! validates (`validate`) the new pieces; `splice` applies the result, renumbering
//! `components`; `context`, `index` and `zone` hold what they all share.

mod attempt;
mod certify;
mod components;
mod context;
mod cuts;
mod index;
mod influence;
mod select;
mod splice;
mod validate;
mod window;
mod zone;

pub(crate) use index::UpdateIndex;
pub(crate) use splice::{apply_splice, Splice};

use crate::build::tolerance;
use crate::graph::Ecm;
use crate::UpdateOptions;
use attempt::attempt;
use context::{Context, Step};
use corridor_geom::{WallDelta, WallSet};
use cuts::{plan_cuts, CutPlan, Mode};
use influence::{influence, Influence};
use std::cell::Cell;
use std::time::Duration;
use zone::{bounding_box, Zone};

/// Why the local repair gave up (the update then rebuilds the whole ECM).
#[derive(Clone, Debug)]
pub(crate) struct Fallback {
    /// Why (empty when local repair is off).
    pub(super) reason: String,
    /// How often the region was doubled before.
    pub(super) widenings: usize,
    /// Time spent building local Voronoi diagrams before.
    pub(super) voronoi_time: Duration,
}

/// Plans the local repair of `ecm` (with its `index`, built from `walls`) for the change
/// `delta` of the walls: the splice that replaces the influenced part of the ECM, or why
/// the update must rebuild the whole ECM instead.
pub(crate) fn plan_patch(
    ecm: &Ecm,
    index: &UpdateIndex,
    walls: &WallSet,
    options: &UpdateOptions,
    delta: &WallDelta,
) -> Result<Splice, Fallback> {
    let grid = ecm.grid;
    let deviation = options.build.max_arc_deviation;
    let extent = walls.extent().max(walls.extent_after(delta));
    let tol_grid = tolerance(extent as f64);
    let tol = tol_grid / grid.scale();
    let eps = 4.0 * tol;
    let Influence {
        influenced,
        hits,
        change_zones,
        lost,
    } = influence(ecm, index, delta, deviation, eps);
    let margin = 2.0 * deviation + 4.0 / grid.scale();
    // Cut edges: only the chords near the change and a few stable ones around them are
    // rebuilt (see `cuts`).
    let CutPlan {
        cuts,
        cut_vertices,
        zones: cut_zones,
    } = plan_cuts(ecm, &hits, &change_zones, deviation, tol, margin);
    let cut = (!cuts.planned.is_empty()).then(|| {
        let region = bounding_box(&cut_zones);
        let mode = Mode::new(
            &lost,
            &|v, keeps_edge| keeps_edge || cut_vertices.contains(&v),
            Some(cuts),
        );
        (mode, cut_zones, region)
    });

    let ctx = Context {
        ecm,
        index,
        walls,
        delta,
        removed: delta.removed().iter().copied().collect(),
        influenced,
        options: &options.build,
        deviation,
        tol,
        tol_grid,
        total_walls: walls.len() + delta.added().len() - delta.removed().len(),
        max_local_fraction: options.max_local_fraction,
        old_twice: walls.free_area_twice(),
        new_twice: delta.free_area_twice(),
        voronoi_time: Cell::new(Duration::ZERO),
        local_walls: Cell::new(0),
    };
    let done = |mut splice: Splice, widenings: usize, cut: bool| {
        splice.widenings = widenings;
        splice.cut = cut;
        splice.voronoi_time = ctx.voronoi_time.get();
        splice.local_walls = ctx.local_walls.get();
        splice
    };
    // First the cut edges; when they cannot be proven (no cut found on some side, or a
    // check failed), the whole edges.
    if let Some((mode, zones, region)) = &cut {
        if let Step::Done(splice) = attempt(&ctx, mode, zones, *region) {
            return Ok(done(splice, 0, true));
        }
    }
    // Whole edges: every chord of every influenced edge is rebuilt.
    let mut zones = change_zones;
    zones.reserve(
        ctx.influenced
            .iter()
            .map(|&id| ecm.edges[id].bending_points.len() - 1)
            .sum(),
    );
    for &id in &ctx.influenced {
        for w in ecm.edges[id].bending_points.windows(2) {
            zones.push(Zone::chord(&w[0], &w[1], deviation));
        }
    }
    for z in &mut zones {
        *z = z.expanded(margin);
    }
    let whole = Mode::new(&lost, &|_, keeps_edge| keeps_edge, None);
    let mut region = bounding_box(&zones);
    let mut last = String::new();
    for widenings in 0..=options.max_widenings {
        // The first attempt takes the walls near the influenced edges (the union of the
        // capsules of their chords); wider ones the walls in a box around everything.
        let step = if widenings == 0 {
            attempt(&ctx, &whole, &zones, region)
        } else {
            attempt(&ctx, &whole, &[Zone::Box(region)], region)
        };
        match step {
            Step::Done(splice) => return Ok(done(splice, widenings, false)),
            Step::Fail(reason) => {
                return Err(Fallback {
                    reason,
                    widenings,
                    voronoi_time: ctx.voronoi_time.get(),
                })
            }
            Step::Widen(reason) => {
                last = reason;
                let size = region.max - region.min;
                region = region.expanded(0.5 * size.x.max(size.y));
            }
        }
    }
    Err(Fallback {
        reason: format!("still unproven after widening: {last}"),
        widenings: options.max_widenings,
        voronoi_time: ctx.voronoi_time.get(),
    })
}
