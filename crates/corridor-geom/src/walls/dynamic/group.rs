//! The group method: the obstacles interacting with the change, normalized on their
//! own, and the fast path for an isolated convex ring.

use super::check::on_segment;
use super::key::WallKey;
use super::map::{Change, Skip, WallMap};
use super::snapped::GROUP_MARGIN;
use super::snapped::{bbox, boxes_meet, Input, Kind, Snapped, SMALL_OBSTACLE};
use crate::walls::SnappedShape;
use crate::FxHashSet as HashSet;
use crate::{
    orient_grid, segments_intersect_grid, GridPoint, NormalizeError, ObstacleId, Orientation,
};
use rstar::AABB;
use std::collections::{BTreeMap, BTreeSet};

impl WallMap {
    pub(super) fn group(
        &self,
        snapped: &[(ObstacleId, Option<Snapped>)],
    ) -> Result<Option<Change>, GroupError> {
        let edited: HashSet<ObstacleId> = snapped.iter().map(|(id, _)| *id).collect();
        let mut queue: Vec<([i64; 2], [i64; 2])> = Vec::with_capacity(16);
        for (id, new) in snapped {
            for s in [self.obstacles.get(id), new.as_ref()].into_iter().flatten() {
                if s.has_box() {
                    queue.push((s.min, s.max));
                }
            }
        }
        let limit = if self.group_fraction.is_finite() {
            ((self.vertices as f64 * self.group_fraction) as usize).max(64)
        } else {
            usize::MAX
        };
        let mut members: BTreeSet<ObstacleId> = BTreeSet::new();
        let mut boundary_edges: HashSet<usize> = HashSet::default();
        // The boxes of everything in the group: its walls lie in them (see below).
        let mut reach: Vec<([i64; 2], [i64; 2])> = Vec::with_capacity(16);
        reach.extend_from_slice(&queue);
        let mut size = 0usize;
        while let Some((min, max)) = queue.pop() {
            let envelope = AABB::from_corners(
                [min[0] - GROUP_MARGIN, min[1] - GROUP_MARGIN],
                [max[0] + GROUP_MARGIN, max[1] + GROUP_MARGIN],
            );
            for item in self.boxes.locate_in_envelope_intersecting(envelope) {
                let id = item.data;
                if edited.contains(&id) || !members.insert(id) {
                    continue;
                }
                let s = &self.obstacles[&id];
                size += s.vertices;
                if size > limit {
                    return Ok(None);
                }
                queue.push((s.min, s.max));
                reach.push((s.min, s.max));
            }
            for item in self.boundary_tree.locate_in_envelope_intersecting(envelope) {
                let k = item.data;
                let n = self.boundary.len();
                let mut pending = vec![k];
                while let Some(k) = pending.pop() {
                    if !boundary_edges.insert(k) {
                        continue;
                    }
                    let e = self.boundary[k];
                    queue.push(bbox(e.a, e.b));
                    reach.push(bbox(e.a, e.b));
                    // A straight continuation merges with this edge: take it too.
                    for j in [(k + n - 1) % n, (k + 1) % n] {
                        let f = self.boundary[j];
                        if orient_grid(e.a, e.b, f.a) == Orientation::Collinear
                            && orient_grid(e.a, e.b, f.b) == Orientation::Collinear
                        {
                            pending.push(j);
                        }
                    }
                }
            }
        }
        if members.is_empty() && boundary_edges.is_empty() {
            if let Some((removed, added)) = self.isolated_change(snapped) {
                self.check(&removed, &added).map_err(GroupError::Skip)?;
                return Ok(Some((removed, added)));
            }
        }
        // The group as normalization collects it: the boundary, the members and the
        // changed obstacles after the change (a later edit of an id replaces an earlier).
        let mut shapes: BTreeMap<ObstacleId, &SnappedShape> = members
            .iter()
            .filter_map(|id| self.obstacles.get(id).map(|s| (*id, &s.shape)))
            .collect();
        for (id, new) in snapped {
            match new {
                Some(s) => {
                    shapes.insert(*id, &s.shape);
                }
                None => {
                    shapes.remove(id);
                }
            }
        }
        // In id order (the map's), as normalization reads an environment's obstacles.
        let shapes: Vec<(ObstacleId, &SnappedShape)> = shapes.into_iter().collect();
        // A changed obstacle whose edges properly cross an edge of another group member
        // or of the boundary (the hexagon over a building) makes the walls cross, so
        // normalization's overlay-free path for interior-disjoint rings would build its
        // candidate walls, fail its disjointness check and fall back to the overlay:
        // go to the overlay at once. Both routes give the same walls (the fast path only
        // returns when the overlay would split and move nothing), so this choice only
        // saves that failed attempt and a second collection of the input.
        let crossing = self.changed_edges_cross(&members, &boundary_edges, snapped)
            || self.fast_path_doomed(&members, snapped);
        // The group holds the boundary, obstacles of the map and the new obstacles
        // validated by `plan`, and `check` below checks every added wall: normalization
        // need do neither.
        let normalized = crate::walls::normalize_snapped_trusted(
            self.grid,
            &self.boundary_ring,
            &shapes,
            crossing,
        );
        let new_walls = normalized.map_err(|e| match e {
            NormalizeError::Environment(_) | NormalizeError::BoundaryCollapsed { .. } => {
                GroupError::Normalize(e)
            }
            other => GroupError::Skip(format!("the group did not normalize: {other}")),
        })?;
        // The group's walls before the change are read from the current walls instead of
        // normalizing the group again. Every wall lies in the union of the boxes of its
        // sources (crossing points are rounded to grid points inside both edges' boxes,
        // pieces of pieces stay inside those), so the group's walls lie in `reach`, and the
        // walls of everything else lie in boxes farther than `GROUP_MARGIN` from it (else
        // they would be in the group): the current walls whose boxes meet `reach` grown by
        // half that margin are exactly the group's. The group normalization also holds the
        // boundary edges outside the group, with no obstacle near them, so the same before
        // and after the change: they are left out of both sides (and must lie outside
        // `reach`).
        let grow = GROUP_MARGIN / 2;
        let grown: Vec<([i64; 2], [i64; 2])> = reach
            .iter()
            .map(|(lo, hi)| ([lo[0] - grow, lo[1] - grow], [hi[0] + grow, hi[1] + grow]))
            .collect();
        let meets_reach = |k: WallKey| {
            let (lo, hi) = {
                let (a, b) = k.ends();
                bbox(a, b)
            };
            grown.iter().any(|&g| boxes_meet((lo, hi), g))
        };
        let mut old: Vec<WallKey> = Vec::with_capacity(64);
        for (lo, hi) in &grown {
            old.extend(self.walls.in_box(*lo, *hi));
        }
        old.sort_unstable();
        old.dedup();
        let mut new: Vec<WallKey> = Vec::with_capacity(old.len() + 8);
        // (`normalize_snapped_trusted` keeps the sources of these walls only.)
        let boundary_only =
            |sources: &[crate::WallSource]| sources[..] == [crate::WallSource::Boundary];
        for s in &new_walls.segments {
            let k = WallKey::Segment {
                a: s.a,
                b: s.b,
                two_sided: s.two_sided,
            };
            if meets_reach(k) {
                new.push(k);
            } else if s.two_sided || !boundary_only(&s.sources) {
                return Err(GroupError::Skip(format!(
                    "the group's wall {k:?} lies outside the group"
                )));
            }
        }
        for (p, _) in &new_walls.points {
            let k = WallKey::Point(*p);
            if !meets_reach(k) {
                return Err(GroupError::Skip(format!(
                    "the group's wall {k:?} lies outside the group"
                )));
            }
            new.push(k);
        }
        new.sort_unstable();
        new.dedup();
        let (removed, added) = sorted_difference(&old, &new);
        self.check(&removed, &added).map_err(GroupError::Skip)?;
        Ok(Some((removed, added)))
    }

    /// The change of an empty group: one changed obstacle with no other obstacle and no
    /// boundary edge near it before or after the change (nothing within [`GROUP_MARGIN`]
    /// of its boxes), each of its shapes a strictly convex ring (or none). `None` when
    /// that is not the case (the group is normalized).
    ///
    /// The group's normalization would be the boundary and this one ring. Nothing comes
    /// near the ring (the premise of the group method: an edge is only split where the
    /// box of another edge meets it), so its edges are split nowhere and it is either all
    /// in the free space (inside the boundary: a vertex is tested exactly) or all
    /// outside it. Inside, the free-space edges along it are its edges directed with the
    /// free space on their left, which the clockwise input ring already is (obstacle
    /// exteriors are clockwise), and the straight chains through vertices that no other
    /// wall touches are merged: each wall is a maximal straight run of the ring, from one
    /// corner (a strict turn) to the next. The boundary's walls far from the ring are the
    /// same before and after. So the walls removed are the old ring's runs, the walls
    /// added the new ring's, and runs that are the same in both cancel (the unit test
    /// `isolated_rings_match_normalization` compares with `normalize`).
    pub(super) fn isolated_change(
        &self,
        snapped: &[(ObstacleId, Option<Snapped>)],
    ) -> Option<(Vec<WallKey>, Vec<WallKey>)> {
        let [(id, new)] = snapped else {
            return None;
        };
        let runs = |s: Option<&Snapped>| -> Option<Vec<WallKey>> {
            let Some(s) = s else {
                return Some(Vec::new());
            };
            let walls = convex_ring_walls(&s.inputs)?;
            let inside = self.inside_boundary(s.inputs[0].a);
            Some(if inside { walls } else { Vec::new() })
        };
        let mut old = runs(self.obstacles.get(id))?;
        let mut new = runs(new.as_ref())?;
        old.sort_unstable();
        new.sort_unstable();
        Some(sorted_difference(&old, &new))
    }

    /// Whether `p`, a grid point on no boundary edge, lies inside the boundary.
    fn inside_boundary(&self, p: GridPoint) -> bool {
        inside_rings(&self.boundary, p) == Some(true)
    }

    /// Whether normalization's fast path for interior-disjoint rings is sure to fail for
    /// this group even though no changed edge properly crosses another (then the group
    /// goes to the overlay at once; both routes give the same walls, so this only
    /// chooses the cost). Measured on the city's 200 moves, the fast path failed for 19
    /// of 20 groups of three or more members (buildings that touch or overlap one
    /// another), so those go to the overlay. For two members, it fails when they meet.
    /// For any group, it fails when a changed obstacle and a member overlap: a vertex of
    /// one lies strictly inside the other (the hexagon inside a building, where no edges
    /// meet but the winding number is 2).
    fn fast_path_doomed(
        &self,
        members: &BTreeSet<ObstacleId>,
        snapped: &[(ObstacleId, Option<Snapped>)],
    ) -> bool {
        if members.len() >= 3 {
            return true;
        }
        let member = |id: &ObstacleId| self.obstacles.get(id);
        if let [m, n] = members.iter().filter_map(member).collect::<Vec<_>>()[..] {
            let meet = m.inputs.iter().any(|i| {
                let (lo, hi) = bbox(i.a, i.b);
                n.inputs.iter().any(|j| {
                    boxes_meet((lo, hi), bbox(j.a, j.b))
                        && segments_intersect_grid(i.a, i.b, j.a, j.b)
                })
            });
            if meet {
                return true;
            }
        }
        let inside = |s: &Snapped, p: GridPoint| {
            p.x as i64 > s.min[0]
                && (p.x as i64) < s.max[0]
                && p.y as i64 > s.min[1]
                && (p.y as i64) < s.max[1]
                && s.inputs.iter().all(|i| i.kind == Kind::Ring)
                && inside_rings(&s.inputs, p) == Some(true)
        };
        for (_, new) in snapped {
            let Some(s) = new else { continue };
            for m in members.iter().filter_map(member) {
                let (Some(a), Some(b)) = (s.inputs.first(), m.inputs.first()) else {
                    continue;
                };
                if inside(m, a.a) || inside(s, b.a) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether an edge of a changed obstacle (after the change) crosses an edge of a
    /// group member, of the boundary part in the group, or of another changed obstacle
    /// at a point inside both (a proper crossing: the four orientations are strict).
    fn changed_edges_cross(
        &self,
        members: &BTreeSet<ObstacleId>,
        boundary_edges: &HashSet<usize>,
        snapped: &[(ObstacleId, Option<Snapped>)],
    ) -> bool {
        let proper = |a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint| {
            let opposite = |x: Orientation, y: Orientation| {
                matches!(
                    (x, y),
                    (Orientation::Clockwise, Orientation::CounterClockwise)
                        | (Orientation::CounterClockwise, Orientation::Clockwise)
                )
            };
            opposite(orient_grid(a, b, c), orient_grid(a, b, d))
                && opposite(orient_grid(c, d, a), orient_grid(c, d, b))
        };
        fn edges_of(
            s: &Snapped,
        ) -> impl Iterator<Item = (GridPoint, GridPoint, Option<ObstacleId>)> + '_ {
            s.inputs
                .iter()
                .filter(|i| i.kind != Kind::Point)
                .map(|i| (i.a, i.b, i.owner))
        }
        let mut others: Vec<(GridPoint, GridPoint, Option<ObstacleId>)> = Vec::with_capacity(
            members
                .iter()
                .filter_map(|id| self.obstacles.get(id))
                .map(|s| s.inputs.len())
                .sum::<usize>()
                + boundary_edges.len(),
        );
        for id in members {
            if let Some(s) = self.obstacles.get(id) {
                others.extend(edges_of(s));
            }
        }
        others.extend(boundary_edges.iter().map(|&k| {
            let e = self.boundary[k];
            (e.a, e.b, None)
        }));
        let mut changed: Vec<(GridPoint, GridPoint, Option<ObstacleId>)> = Vec::with_capacity(
            snapped
                .iter()
                .filter_map(|(_, new)| new.as_ref())
                .map(|s| s.inputs.len())
                .sum(),
        );
        for (_, new) in snapped {
            if let Some(s) = new {
                changed.extend(edges_of(s));
            }
        }
        for (n, &(a, b, owner)) in changed.iter().enumerate() {
            let (lo, hi) = bbox(a, b);
            let against = others.iter().chain(changed[n + 1..].iter());
            for &(c, d, other) in against {
                if other == owner && other.is_some() {
                    continue;
                }
                if boxes_meet((lo, hi), bbox(c, d)) && proper(a, b, c, d) {
                    return true;
                }
            }
        }
        false
    }
}

pub(super) enum GroupError {
    Skip(Skip),
    Normalize(NormalizeError),
}

/// The keys of `old` not in `new` and those of `new` not in `old` (both sorted, without
/// repeats; so are the results).
fn sorted_difference(old: &[WallKey], new: &[WallKey]) -> Change {
    let (mut removed, mut added) = (Vec::with_capacity(old.len()), Vec::with_capacity(new.len()));
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                removed.push(*a);
                i += 1;
            }
            (Some(a), None) => {
                removed.push(*a);
                i += 1;
            }
            (_, Some(b)) => {
                added.push(*b);
                j += 1;
            }
            (None, None) => break,
        }
    }
    (removed, added)
}

/// Whether `p` lies inside the closed rings `edges` by the even-odd rule (crossings of a
/// ray to the right, exact); `None` when `p` lies on one of the edges.
fn inside_rings(edges: &[Input], p: GridPoint) -> Option<bool> {
    let mut inside = false;
    for e in edges {
        let (a, b) = (e.a, e.b);
        let side = orient_grid(a, b, p);
        if side == Orientation::Collinear && on_segment(p, a, b) {
            return None;
        }
        if (a.y > p.y) != (b.y > p.y) {
            // Upward, the ray crosses when `p` is left of the edge; downward, right.
            let upward = b.y > a.y;
            if (upward && side == Orientation::CounterClockwise)
                || (!upward && side == Orientation::Clockwise)
            {
                inside = !inside;
            }
        }
    }
    Some(inside)
}

/// The walls of a ring (clockwise input edges, as [`push_ring`](super::snapped::push_ring) gives them) that is a
/// strictly convex polygon once straight vertices are dropped, when nothing else is near
/// it: its maximal straight runs, directed as the ring. `None` for anything else (open
/// edges or points, more than one ring, a counter-clockwise or reflex turn, a spike,
/// a repeated vertex, fewer than three corners).
pub(super) fn convex_ring_walls(inputs: &[Input]) -> Option<Vec<WallKey>> {
    let n = inputs.len();
    if !(3..=4 * SMALL_OBSTACLE).contains(&n) {
        return None;
    }
    for (k, i) in inputs.iter().enumerate() {
        if i.kind != Kind::Ring || i.b != inputs[(k + 1) % n].a {
            return None;
        }
    }
    let v = |k: usize| inputs[k % n].a;
    let mut corners: Vec<GridPoint> = Vec::with_capacity(n);
    for k in 0..n {
        let (p, q, r) = (v(k + n - 1), v(k), v(k + 1));
        match orient_grid(p, q, r) {
            Orientation::Clockwise => corners.push(q),
            Orientation::CounterClockwise => return None,
            Orientation::Collinear => {
                let dot = (q.x as i64 - p.x as i64) * (r.x as i64 - q.x as i64)
                    + (q.y as i64 - p.y as i64) * (r.y as i64 - q.y as i64);
                if dot <= 0 {
                    return None;
                }
            }
        }
    }
    let m = corners.len();
    if m < 3 {
        return None;
    }
    // Every corner strictly right of every edge between two other corners: a strictly
    // convex polygon, traversed once, clockwise (so simple, and the straight vertices
    // dropped lie on its edges).
    for j in 0..m {
        let (a, b) = (corners[j], corners[(j + 1) % m]);
        for (k, &c) in corners.iter().enumerate() {
            if k != j && k != (j + 1) % m && orient_grid(a, b, c) != Orientation::Clockwise {
                return None;
            }
        }
    }
    Some(
        (0..m)
            .map(|j| WallKey::Segment {
                a: corners[j],
                b: corners[(j + 1) % m],
                two_sided: false,
            })
            .collect(),
    )
}
