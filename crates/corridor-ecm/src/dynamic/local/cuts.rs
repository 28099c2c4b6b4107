//! Cut edges: an influenced old edge is often influenced only near one spot, so the first
//! attempt rebuilds only its chords near the change and keeps the rest, cut at a Voronoi
//! vertex on its stable part. Planning the cuts ([`plan_cuts`], [`Mode`]), finding them
//! on the local ECM ([`find_cuts`]) and the kept parts of cut edges ([`kept_part`]).

use super::context::Context;
use super::zone::Zone;
use crate::graph::{BendingPoint, Ecm, EdgeId, VertexId};
use corridor_geom::Point;
use corridor_geom::{FxHashMap as HashMap, FxHashSet as HashSet};

/// How an attempt rebuilds the influenced edges: whole, or cut at Voronoi vertices on
/// their stable parts (then only the chords near the change are rebuilt).
pub(super) struct Mode {
    /// Old vertices that stay (they keep an edge or a cut part of one), with the number
    /// of influenced edge ends they lose.
    pub(super) end_vertices: HashMap<VertexId, usize>,
    /// Old vertices that go (every edge they had is removed).
    pub(super) remove_vertices: Vec<VertexId>,
    /// The cuts to find (`None`: whole edges).
    pub(super) cuts: Option<Cuts>,
}

impl Mode {
    /// The mode for the old vertices at the ends of influenced edges (`lost`: vertex,
    /// influenced edge ends it loses, whether it keeps another edge): those `anchored`
    /// stay as end vertices, the others are removed.
    pub(super) fn new(
        lost: &[(VertexId, usize, bool)],
        anchored: &dyn Fn(VertexId, bool) -> bool,
        cuts: Option<Cuts>,
    ) -> Mode {
        let mut mode = Mode {
            end_vertices: HashMap::default(),
            remove_vertices: Vec::new(),
            cuts,
        };
        for &(v, n, keeps_edge) in lost {
            if anchored(v, keeps_edge) {
                mode.end_vertices.insert(v, n);
            } else {
                mode.remove_vertices.push(v);
            }
        }
        mode
    }
}

/// The cuts an attempt with cut edges looks for, the old vertices at their kept ends,
/// and the zones whose walls it takes.
pub(super) struct CutPlan {
    pub(super) cuts: Cuts,
    pub(super) cut_vertices: HashSet<VertexId>,
    pub(super) zones: Vec<Zone>,
}

/// How many bending points outside the influenced chords are searched for a
/// Voronoi vertex to cut an edge at (farther, the edge is rebuilt to its vertex).
const MAX_CUT_SEARCH: usize = 24;

/// Plans the cuts of the influenced edges (`hits`: their first and last influenced
/// chords): on each side of the influenced chords, up to the second Voronoi vertex
/// (bending points flagged by extraction), the chords are rebuilt and the rest of the
/// edge is kept. The zones are the changed walls' and the rebuilt chords', grown by
/// `margin`.
pub(super) fn plan_cuts(
    ecm: &Ecm,
    hits: &HashMap<EdgeId, (usize, usize)>,
    change_zones: &[Zone],
    deviation: f64,
    tol: f64,
    margin: f64,
) -> CutPlan {
    let match_tol = 8.0 * tol;
    let mut cuts = Cuts {
        by_x: Vec::new(),
        cell: 2.0 * match_tol,
        lo: Point::splat(f64::INFINITY),
        hi: Point::splat(f64::NEG_INFINITY),
        planned: Vec::new(),
    };
    // The rebuilt bending points `from..=to` of each influenced edge, in order.
    let mut spans: Vec<(EdgeId, usize, usize)> = Vec::with_capacity(hits.len());
    let mut cut_vertices: HashSet<VertexId> = HashSet::default();
    for (&id, &(first, last)) in hits {
        let e = &ecm.edges[id];
        let bps = &e.bending_points;
        let n = bps.len();
        let vertex = |k: &usize| bps[*k].is_voronoi_vertex;
        // Prefix: candidates `k` in `from + 1 ..= first`, chords `from..` rebuilt. The
        // rebuilt chords reach the second Voronoi vertex outside the change, so that the
        // arc beyond the first one (the cut) is whole in the local diagram: the zone of the
        // chord ending there holds that vertex's disc, hence its three sites. (No chord
        // beyond it: that only took more walls; the cut's neighbour test and the
        // certification decide anyway.)
        let mut from = 0;
        let mut likely = (1..=first).rev().take(MAX_CUT_SEARCH).filter(vertex);
        if let (Some(_), Some(k2)) = (likely.next(), likely.next()) {
            from = k2;
            cuts.planned.push((id, End::Start));
            cut_vertices.insert(e.start);
            cuts.add(id, End::Start, bps, from + 1..=first);
        }
        // Suffix: candidates `k` in `last + 1 ..= to - 1`, chords `..to` rebuilt.
        let mut to = n - 1;
        let mut likely = (last + 1..=n - 2).take(MAX_CUT_SEARCH).filter(vertex);
        if let (Some(_), Some(k2)) = (likely.next(), likely.next()) {
            to = k2;
            cuts.planned.push((id, End::End));
            cut_vertices.insert(e.end);
            cuts.add(id, End::End, bps, last + 1..=to - 1);
        }
        spans.push((id, from, to));
    }
    let mut cut_zones =
        Vec::with_capacity(change_zones.len() + spans.iter().map(|s| s.2 - s.1).sum::<usize>());
    cut_zones.extend_from_slice(change_zones);
    for &(id, from, to) in &spans {
        for w in ecm.edges[id].bending_points[from..=to].windows(2) {
            cut_zones.push(Zone::chord(&w[0], &w[1], deviation));
        }
    }
    cuts.by_x.sort_unstable_by(|a, b| a.0.x.total_cmp(&b.0.x));
    for (q, _) in &cuts.by_x {
        cuts.lo = Point::new(f64::min(cuts.lo.x, q.x), f64::min(cuts.lo.y, q.y));
        cuts.hi = Point::new(f64::max(cuts.hi.x, q.x), f64::max(cuts.hi.y, q.y));
    }
    for z in &mut cut_zones {
        *z = z.expanded(margin);
    }
    CutPlan {
        cuts,
        cut_vertices,
        zones: cut_zones,
    }
}

/// Which end of an influenced old edge keeps its bending points up to a cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum End {
    /// The edge keeps its bending points `0..=k` (from its start vertex).
    Start,
    /// The edge keeps its bending points `k..` (to its end vertex).
    End,
}

/// A bending point of an influenced old edge where the edge may be cut: every chord on
/// its kept side is stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Candidate {
    pub(super) edge: EdgeId,
    pub(super) k: usize,
    pub(super) end: End,
}

/// The cut points an attempt looks for, by position.
pub(super) struct Cuts {
    /// Candidates with their positions, sorted by `x` once all are added (a few dozen:
    /// a binary search finds the ones within `cell`).
    by_x: Vec<(Point, Candidate)>,
    cell: f64,
    /// The smallest and largest coordinates of the candidates (NaN left out).
    lo: Point,
    hi: Point,
    /// Every cut end that must be found (its vertex counts on getting the edge back).
    pub(super) planned: Vec<(EdgeId, End)>,
}

impl Cuts {
    /// Every candidate within `cell` of `p` (and none farther than `cell` on an axis).
    fn near(&self, p: Point) -> impl Iterator<Item = &Candidate> + '_ {
        let cell = self.cell;
        // A candidate `q` passes the tests below only if `q.x >= p.x - cell`,
        // `q.x <= p.x + cell` and `|q.y - p.y| <= cell` as computed; rounding is monotone
        // (and `p.y - q.y` is `-(q.y - p.y)`), so then `lo` and `hi` pass these tests too.
        // When they fail, no candidate is near (most bending points of a local diagram).
        let maybe = p.x - cell <= self.hi.x
            && p.x + cell >= self.lo.x
            && self.lo.y - p.y <= cell
            && p.y - self.hi.y <= cell;
        let from = if maybe {
            self.by_x.partition_point(|(q, _)| q.x < p.x - cell)
        } else {
            self.by_x.len()
        };
        self.by_x[from..]
            .iter()
            .take_while(move |(q, _)| q.x <= p.x + cell)
            .filter(move |(q, _)| (q.y - p.y).abs() <= cell)
            .map(|(_, c)| c)
    }

    /// Adds the bending points `ks` of an edge as candidates for a cut keeping `end`.
    fn add(
        &mut self,
        edge: EdgeId,
        end: End,
        bps: &[BendingPoint],
        ks: std::ops::RangeInclusive<usize>,
    ) {
        for k in ks {
            self.by_x
                .push((bps[k].position, Candidate { edge, k, end }));
        }
    }
}

/// A cut found on a local edge: the candidate it matches, the index of the bending
/// point, and on which side of it (`+1`: higher indices) the rebuilt part lies.
#[derive(Clone, Copy, Debug)]
pub(super) struct FoundCut {
    pub(super) cand: Candidate,
    pub(super) at: usize,
    pub(super) dir: i8,
}

/// The cuts of the old edges found on the local ECM, by local edge, and how many.
///
/// A candidate bending point `P` of an old edge is a cut when a local edge passes through
/// it, `P` is a vertex of the local Voronoi diagram, and the local edge's neighbour on
/// one side is the old edge's neighbour on the kept side. `P` is stable (the chords on its
/// kept side are), so it is a Voronoi vertex of the old diagram too, and the old bending
/// points on the kept side (samples of whole stable arcs) are those of the new map.
/// Where an old edge has several, the one nearest the change is taken.
pub(super) fn find_cuts(
    ctx: &Context<'_>,
    cuts: &Cuts,
    l: &Ecm,
) -> (HashMap<EdgeId, Vec<FoundCut>>, usize) {
    let tol = 8.0 * ctx.tol;
    let mut best: HashMap<(EdgeId, End), (EdgeId, FoundCut)> = HashMap::default();
    for (lid, e) in l.edges() {
        let bps = &e.bending_points;
        let n = bps.len();
        for at in 1..n.saturating_sub(1) {
            let p = bps[at].position;
            for c in cuts.near(p) {
                let old = &ctx.ecm.edges[c.edge].bending_points;
                if !close(old[c.k].position, p, tol) {
                    continue;
                }
                let outside = match c.end {
                    End::Start => old[c.k - 1].position,
                    End::End => old[c.k + 1].position,
                };
                let dir = match (
                    close(bps[at - 1].position, outside, tol),
                    close(bps[at + 1].position, outside, tol),
                ) {
                    (true, false) => 1,
                    (false, true) => -1,
                    _ => continue,
                };
                if !bps[at].is_voronoi_vertex {
                    continue;
                }
                let f = FoundCut { cand: *c, at, dir };
                let entry = best.entry((c.edge, c.end)).or_insert((lid, f));
                let inner = match c.end {
                    End::Start => f.cand.k > entry.1.cand.k,
                    End::End => f.cand.k < entry.1.cand.k,
                };
                if inner {
                    *entry = (lid, f);
                }
            }
        }
    }
    let count = best.len();
    let mut by_edge: HashMap<EdgeId, Vec<FoundCut>> = HashMap::default();
    for (_, (lid, f)) in best {
        by_edge.entry(lid).or_default().push(f);
    }
    for cs in by_edge.values_mut() {
        cs.sort_unstable_by_key(|c| c.at);
    }
    (by_edge, count)
}

fn close(a: Point, b: Point, tol: f64) -> bool {
    (a - b).abs().max_element() <= tol
}

/// The kept part of a cut old edge, in the direction of travel towards the cut (`head`)
/// or away from it, without the cut point; and the old vertex at its far end.
pub(super) fn kept_part(
    ecm: &Ecm,
    c: &FoundCut,
    head: bool,
    out: &mut Vec<BendingPoint>,
) -> VertexId {
    let e = &ecm.edges[c.cand.edge];
    let bps = &e.bending_points;
    let k = c.cand.k;
    match (c.cand.end, head) {
        (End::Start, true) => out.extend_from_slice(&bps[..k]),
        (End::Start, false) => out.extend(bps[..k].iter().rev().map(BendingPoint::flipped)),
        (End::End, true) => out.extend(bps[k + 1..].iter().rev().map(BendingPoint::flipped)),
        (End::End, false) => out.extend_from_slice(&bps[k + 1..]),
    }
    match c.cand.end {
        End::Start => e.start,
        End::End => e.end,
    }
}
