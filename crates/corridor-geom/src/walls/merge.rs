//! The last steps of both routes: straight chains of walls merged into single segments
//! (sources united), the walls sorted into their canonical order, point obstacles placed.

use super::check::on_segment_grid;
use super::sources::TagStore;
use super::{WallSegment, WallSource, WallSources};
use crate::radix::sort_index_pairs_below;
use crate::spatial::SegmentGrid;
use crate::UnionFind;
use crate::{orient_grid, GridPoint, Orientation, PointGroups};

/// Which of its own checks `normalize_overlay` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Checks {
    /// Validates the environment first and checks the walls before returning them.
    Full,
    /// Neither (see
    /// [`normalize_snapped_trusted`](super::route::normalize_snapped_trusted)); no index of
    /// the walls is returned from the overlay route, and segments keep their sources only
    /// when these are the boundary alone.
    Trusted,
}

/// The last steps of both routes: straight chains merged, walls sorted, points placed.
/// With [`Checks::Trusted`] a segment's sources are only kept when they are the
/// boundary alone (all the group method asks of them: a wall outside the group must be
/// one); other segments get none.
pub(super) fn finish_walls(
    raw: Vec<RawWall>,
    ends: &PointGroups,
    points: Vec<(GridPoint, u32)>,
    store: &mut TagStore,
    checks: Checks,
) -> (Vec<WallSegment>, Vec<(GridPoint, Vec<WallSource>)>) {
    let merged = merge_collinear_walls(raw, ends, store);
    // `from_slice` copies (the sources are `Copy`); `clone` goes through the generic
    // iterator collection, about 60 instructions a wall.
    let sources = |set: u32| -> WallSources {
        let set = &store.sets[set as usize];
        match checks {
            Checks::Full => WallSources::from_slice(set),
            Checks::Trusted if set[..] == [WallSource::Boundary] => WallSources::from_slice(set),
            Checks::Trusted => WallSources::default(),
        }
    };
    let mut segments: Vec<WallSegment> = sorted_walls(&merged)
        .map(|w| WallSegment {
            a: w.a,
            b: w.b,
            two_sided: w.two_sided,
            sources: sources(w.set),
        })
        .collect();
    segments.dedup_by(|s, t| s.a == t.a && s.b == t.b && s.two_sided == t.two_sided);
    let points = place_points(points, &segments, store);
    (segments, points)
}

#[derive(Clone, Copy, Debug)]
pub(super) struct RawWall {
    pub(super) a: GridPoint,
    pub(super) b: GridPoint,
    pub(super) two_sided: bool,
    pub(super) set: u32,
}

impl RawWall {
    pub(super) fn two_sided(a: GridPoint, b: GridPoint, set: u32) -> Self {
        RawWall {
            a: a.min(b),
            b: a.max(b),
            two_sided: true,
            set,
        }
    }
}

/// Merges chains of collinear walls of the same kind through vertices that no other wall
/// touches, uniting their sources; the result does not depend on the input order.
///
/// `ends` groups the walls' ends: wall k's ends `a` and `b` are items 2k and 2k + 1.
fn merge_collinear_walls(
    walls: Vec<RawWall>,
    ends: &PointGroups,
    store: &mut TagStore,
) -> Vec<RawWall> {
    let n = walls.len();
    let mut chains_of = UnionFind::new(n);
    // joint[2k] / joint[2k + 1]: wall k's end `a` / `b` is merged away.
    let mut joint: Vec<bool> = vec![false; 2 * n];
    // Unions made: the chains are the `n - merged` roots.
    let mut merged = 0;
    let mut any_joint = false;
    // The merges do not depend on the order of the points: the union keeps the lowest
    // wall as the root whatever the order.
    for g in 0..ends.len() {
        if let &[s, t] = ends.group(g) {
            let v = ends.point(g);
            let (s, t) = (s as usize / 2, t as usize / 2);
            if s != t && mergeable(&walls[s], &walls[t], v) {
                any_joint = true;
                joint[2 * s + usize::from(walls[s].b == v)] = true;
                joint[2 * t + usize::from(walls[t].b == v)] = true;
                if chains_of.union(s as u32, t as u32) {
                    merged += 1;
                }
            }
        }
    }
    if !any_joint {
        // Every wall is a chain of its own, with its ends and its set (the union of a set
        // with itself is the set): what the chains below would give, without them (most
        // grid maps have no straight joint at all).
        let mut walls = walls;
        for w in walls.iter_mut().filter(|w| w.two_sided) {
            *w = RawWall::two_sided(w.a, w.b, w.set);
        }
        return walls;
    }
    // Each chain: its two free ends (the start of a one-sided chain is an `a` end) and the
    // union of its members' sources. Chains are visited in order of their lowest member.
    struct Chain {
        start: Option<GridPoint>,
        end: Option<GridPoint>,
        set: u32,
        two_sided: bool,
    }
    let mut chain_of: Vec<u32> = vec![u32::MAX; n];
    let mut chains: Vec<Chain> = Vec::with_capacity(n - merged);
    for k in 0..n {
        let root = chains_of.find(k as u32) as usize;
        if chain_of[root] == u32::MAX {
            chain_of[root] = chains.len() as u32;
            chains.push(Chain {
                start: None,
                end: None,
                set: walls[k].set,
                two_sided: walls[k].two_sided,
            });
        }
        let chain = &mut chains[chain_of[root] as usize];
        chain.set = store.union(chain.set, walls[k].set);
        if !joint[2 * k] {
            chain.start = Some(walls[k].a);
        }
        if !joint[2 * k + 1] {
            chain.end = Some(walls[k].b);
        }
    }
    chains
        .into_iter()
        .filter_map(|c| {
            let (a, b) = (c.start?, c.end?);
            Some(if c.two_sided {
                RawWall::two_sided(a, b, c.set)
            } else {
                RawWall {
                    a,
                    b,
                    two_sided: false,
                    set: c.set,
                }
            })
        })
        .collect()
}

/// The walls sorted by `(two_sided, a, b)`, equal ones in their given order (as a stable
/// sort would leave them).
///
/// Sorting (packed key, index) pairs is about twice as fast as moving the walls through
/// a stable sort with a tuple key, and a key of kind and start (ties broken by the end
/// afterwards) is cheaper to compare than one of all three. The starts are
/// [`Compaction`]-packed, so the radix sort needs as many digits as the walls' extent
/// takes (four on grid maps instead of six); an extent too wide to pack (not from
/// snapping) takes the plain sort.
fn sorted_walls(walls: &[RawWall]) -> impl Iterator<Item = &RawWall> + '_ {
    let compact = Compaction::new(walls.iter().map(|w| w.a));
    let bits = compact.bits;
    let mut order: Vec<(u64, u32)> = Vec::with_capacity(walls.len());
    if 2 * bits < 64 {
        // (kind, a) packed, the kind only when some wall is two-sided; walls with the same
        // start (a few, at pinched corners) are put in order of their `b` afterwards.
        let kinds = walls.iter().any(|w| w.two_sided);
        order.extend(walls.iter().enumerate().map(|(i, w)| {
            let a = compact.x(w.a.x) << bits | compact.y(w.a.y);
            (u64::from(w.two_sided) << (2 * bits) | a, i as u32)
        }));
        sort_index_pairs_below(&mut order, 2 * bits + u32::from(kinds));
        for run in order.chunk_by_mut(|x, y| x.0 == y.0) {
            if run.len() > 1 {
                run.sort_unstable_by_key(|&(_, i)| (walls[i as usize].b, i));
            }
        }
    } else {
        order.extend((0..walls.len() as u32).map(|i| (0, i)));
        order.sort_by_key(|&(_, i)| {
            let w = &walls[i as usize];
            (w.two_sided, w.a, w.b)
        });
    }
    order.into_iter().map(move |(_, i)| &walls[i as usize])
}

/// Grid coordinates as small non-negative integers in the same order, for packed sort
/// keys: `(c - min) >> shift` along each axis, where every coordinate's difference from
/// its axis's minimum is a multiple of 2^`shift` (grid maps: of the snap scale's power
/// of two), so the map is exact and strictly increasing; values fit in `bits` bits.
#[derive(Clone, Copy, Debug)]
pub(super) struct Compaction {
    pub(super) min: [i64; 2],
    max_x: i64,
    pub(super) shift: u32,
    pub(super) bits: u32,
}

impl Compaction {
    pub(super) fn new(points: impl Iterator<Item = GridPoint> + Clone) -> Self {
        let (mut lo, mut hi) = ([i64::MAX; 2], [i64::MIN; 2]);
        for p in points.clone() {
            lo = [lo[0].min(p.x as i64), lo[1].min(p.y as i64)];
            hi = [hi[0].max(p.x as i64), hi[1].max(p.y as i64)];
        }
        if lo[0] > hi[0] {
            return Compaction {
                min: [0; 2],
                max_x: 0,
                shift: 0,
                bits: 0,
            };
        }
        let mut any = 0u64;
        for p in points {
            any |= (p.x as i64 - lo[0]) as u64 | (p.y as i64 - lo[1]) as u64;
        }
        let shift = if any == 0 { 0 } else { any.trailing_zeros() };
        let range = ((hi[0] - lo[0]).max(hi[1] - lo[1]) as u64) >> shift;
        Compaction {
            min: lo,
            max_x: hi[0],
            shift,
            bits: 64 - range.leading_zeros(),
        }
    }

    /// `x` compacted (one of the points given).
    pub(super) fn x(&self, x: i32) -> u64 {
        ((x as i64 - self.min[0]) as u64) >> self.shift
    }

    /// `y` compacted.
    pub(super) fn y(&self, y: i32) -> u64 {
        ((y as i64 - self.min[1]) as u64) >> self.shift
    }

    /// `-x` compacted: decreasing in `x`.
    pub(super) fn x_down(&self, x: i32) -> u64 {
        ((self.max_x - x as i64) as u64) >> self.shift
    }
}

/// Whether walls `s` and `t`, the only two at vertex `v`, continue each other straight.
fn mergeable(s: &RawWall, t: &RawWall, v: GridPoint) -> bool {
    if s.two_sided != t.two_sided {
        return false;
    }
    let far = |w: &RawWall| if w.a == v { w.b } else { w.a };
    let (p, q) = (far(s), far(t));
    if orient_grid(p, v, q) != Orientation::Collinear {
        return false;
    }
    let dot = (v.x as i64 - p.x as i64) * (q.x as i64 - v.x as i64)
        + (v.y as i64 - p.y as i64) * (q.y as i64 - v.y as i64);
    if dot <= 0 {
        return false;
    }
    // Two-sided walls are stored `a < b`, so along a straight chain one ends where the
    // next starts, as one-sided walls do (free space stays on the same side).
    (s.b == v && t.a == v) || (s.a == v && t.b == v)
}

/// Keeps the points that lie strictly inside the free space and on no wall; coinciding
/// points are merged with their sources united.
fn place_points(
    mut points: Vec<(GridPoint, u32)>,
    segments: &[WallSegment],
    store: &mut TagStore,
) -> Vec<(GridPoint, Vec<WallSource>)> {
    if points.is_empty() {
        return Vec::new();
    }
    points.sort_unstable();
    let mut unique: Vec<(GridPoint, u32)> = Vec::with_capacity(points.len());
    for (p, set) in points {
        match unique.last_mut() {
            Some((q, s)) if *q == p => *s = store.union(*s, set),
            _ => unique.push((p, set)),
        }
    }
    let ends: Vec<(GridPoint, GridPoint)> = segments.iter().map(|s| (s.a, s.b)).collect();
    let mut index = SegmentGrid::new(&ends);
    let mut near = Vec::new();
    let max_x = segments
        .iter()
        .map(|s| s.a.x.max(s.b.x))
        .max()
        .unwrap_or(i32::MIN);
    let mut out = Vec::new();
    for (p, set) in unique {
        if p.x >= max_x {
            continue; // nothing to its right: outside the free space or on its edge
        }
        index.meeting(p, p, &mut near);
        if near
            .iter()
            .any(|&j| on_segment_grid(p, segments[j as usize].a, segments[j as usize].b))
        {
            continue;
        }
        // Every wall the ray from `p` to the right crosses meets the box of that ray (it
        // crosses at most at `max_x`); each is listed once.
        let mut winding = 0;
        index.meeting(p, GridPoint::new(max_x, p.y), &mut near);
        for &j in &near {
            let s = &segments[j as usize];
            if s.two_sided {
                continue;
            }
            if s.a.y <= p.y {
                if s.b.y > p.y && orient_grid(s.a, s.b, p) == Orientation::CounterClockwise {
                    winding += 1;
                }
            } else if s.b.y <= p.y && orient_grid(s.a, s.b, p) == Orientation::Clockwise {
                winding -= 1;
            }
        }
        if winding == 1 {
            out.push((p, store.sets[set as usize].to_vec()));
        }
    }
    out
}
