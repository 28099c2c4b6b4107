//! One try of the local repair ([`attempt`]): take the new walls near the influenced
//! edges, build their Voronoi diagram (with the build's recovery transforms), find the
//! cuts, certify and validate the new pieces and check that they complete the map.

use super::certify::{Certifier, Local, OpenVertices};
use super::context::{Context, Step};
use super::cuts::{find_cuts, Mode};
use super::select::{pieces_of, select};
use super::validate::{valid, LocalWall};
use super::window::Nearby;
use super::zone::Zone;
use crate::build::finalize;
use crate::build::{extract_open, voronoi};
use crate::graph::BendingPoint;
use corridor_geom::FxHashMap as HashMap;
use corridor_geom::{Aabb, GridPoint, Point, WallKey, WallSegment, Walls};
use std::time::Instant;

/// One try of the local repair with the walls that meet `zones` (user units; `region`
/// is their bounding box).
pub(super) fn attempt(ctx: &Context<'_>, mode: &Mode, zones: &[Zone], region: Aabb) -> Step {
    let grid = ctx.ecm.grid;
    let scale = grid.scale();
    let lo = [
        (region.min.x * scale).floor(),
        (region.min.y * scale).floor(),
    ];
    let hi = [(region.max.x * scale).ceil(), (region.max.y * scale).ceil()];
    let near = Nearby::collect(ctx, zones, region);
    let keys: Vec<WallKey> = near.taken().collect();
    if keys.len() as f64 > ctx.max_local_fraction * ctx.total_walls as f64 && ctx.total_walls > 64 {
        return Step::Fail("the region covers most of the walls".into());
    }
    // The local walls, and a box around them and the region that bounds the work of the
    // certification.
    let mut local = Walls {
        grid,
        ..Walls::default()
    };
    let (mut fmin, mut fmax) = ([lo[0] as i64, lo[1] as i64], [hi[0] as i64, hi[1] as i64]);
    for k in &keys {
        let (a, b) = k.ends();
        for p in [a, b] {
            fmin = [fmin[0].min(p.x as i64), fmin[1].min(p.y as i64)];
            fmax = [fmax[0].max(p.x as i64), fmax[1].max(p.y as i64)];
        }
        match *k {
            WallKey::Segment { a, b, two_sided } => local.segments.push(WallSegment {
                a,
                b,
                two_sided,
                sources: Default::default(),
            }),
            WallKey::Point(p) => local.points.push((p, Vec::new())),
        }
    }
    let pad = 16.max((fmax[0] - fmin[0]).max(fmax[1] - fmin[1]) / 16);
    let limit = i32::MAX as i64 - 64;
    let (x0, y0) = ((fmin[0] - pad).max(-limit), (fmin[1] - pad).max(-limit));
    let (x1, y1) = ((fmax[0] + pad).min(limit), (fmax[1] + pad).min(limit));
    if keys.is_empty() {
        // No walls: a frame on the box, so that the diagram has a site (nothing inside
        // can be certified, as before the frame was dropped).
        let corners = [
            GridPoint::new(x0 as i32, y0 as i32),
            GridPoint::new(x1 as i32, y0 as i32),
            GridPoint::new(x1 as i32, y1 as i32),
            GridPoint::new(x0 as i32, y1 as i32),
        ];
        for i in 0..4 {
            local.segments.push(WallSegment {
                a: corners[i],
                b: corners[(i + 1) % 4],
                two_sided: false,
                sources: Default::default(),
            });
        }
    }
    let local_walls: Vec<LocalWall> = keys.iter().map(|k| LocalWall::new(*k)).collect();
    let deviation_grid = grid.to_grid_length(ctx.deviation);
    // Only chords inside `inner` are certified (the box where the frame of the local
    // diagram used to be, less a grid step): farther out they are outside the region, and
    // each would query the walls far away.
    let inner = Aabb {
        min: Point::new(x0 as f64 + 1.0, y0 as f64 + 1.0) / scale,
        max: Point::new(x1 as f64 - 1.0, y1 as f64 - 1.0) / scale,
    };
    let certifier = Certifier::new(ctx, &near, zones, region, inner);
    for &transform in &ctx.options.recovery {
        let Some(transformed) = transform.apply_walls(&local) else {
            continue;
        };
        let clock = Instant::now();
        ctx.local_walls
            .set(transformed.segments.len() + transformed.points.len());
        let diagram = voronoi(&transformed);
        ctx.voronoi_time
            .set(ctx.voronoi_time.get() + clock.elapsed());
        let Ok(diagram) = diagram else {
            continue;
        };
        let Ok((raw, open)) = extract_open(&transformed, diagram, deviation_grid) else {
            continue;
        };
        let l = finalize(raw, transform, &local);
        let open = OpenVertices::new(&l, &open);
        let certify = |bps: &[BendingPoint]| certifier.certify(bps);
        let found = match &mode.cuts {
            Some(cuts) => {
                let (found, count) = find_cuts(ctx, cuts, &l);
                if count < cuts.planned.len() {
                    return Step::Widen("an influenced edge has no cut in the region".into());
                }
                found
            }
            None => HashMap::default(),
        };
        let local_ecm = Local {
            ecm: &l,
            open: &open,
            certify: &certify,
        };
        let pieces = match pieces_of(ctx, &local_ecm, &found) {
            Ok(pieces) => pieces,
            Err(reason) => return Step::Widen(reason),
        };
        // Only the new pieces are validated: the other certified edges are dropped (they
        // equal kept old edges), so a diagram is only as good as the pieces taken from it.
        if !valid(&l, &pieces, &local_walls, ctx.tol_grid) {
            continue;
        }
        return select(ctx, mode, &local_ecm, &found, pieces);
    }
    Step::Fail("no local diagram passed validation".into())
}
