//! The compact saved format (`CRDECM09`): a built ECM in columns, at about a quarter of
//! `CRDECM07`'s size, loaded with no sort and no tree built.
//!
//! What makes it small: ids are not written (the slot maps of a build are dense, so an
//! id is its position); a coordinate that equals a neighbour's (a bending point at its
//! vertex, a nearest point level with its bending point, a corner shared by consecutive
//! bending points) costs two bits, one on the snap grid (an obstacle corner) a varint
//! of grid steps, and only the others a raw `f64` ([`super::columns`]); a clearance,
//! an edge's length and smallest clearance and its component are written only when they
//! are not what the loader derives from the rest, bit for bit; and the cell index is
//! written as its tree's leaf order alone (the boxes and the parents are rebuilt, the
//! Hilbert sort is not redone). Every derivation is checked while saving; a map that
//! does not fit (one changed by updates: ids with gaps, an index with several levels)
//! is saved as `CRDECM07` instead.
//!
//! Payload: the lengths of five sections (`u64` little-endian each), then the sections:
//! the header fields in postcard ([`Meta`]), tag bytes, varints, raw `f64`s and the leaf
//! order (`u32` little-endian each).

use super::check::{checked_links, edge_numbers};
use super::columns::{Columns, Reader};
use super::error::{StoreError, StructureProblem};
use super::frame::{sealed, unsealed, LoadOptions, MAGIC_COMPACT};
use crate::graph::{
    fresh_uid, BendingPoint, BuildStats, CellIndex, ComponentId, Ecm, Edge, EdgeId, NearestPoints,
    Vertex, VertexEdges, VertexId,
};
use corridor_geom::{Point, SnapGrid};
use serde::{Deserialize, Serialize};
use slotmap::{Key, KeyData, SlotMap};

/// Sections in a payload.
const SECTIONS: usize = 5;

/// The fields that are not columns.
#[derive(Serialize, Deserialize)]
struct Meta {
    grid: SnapGrid,
    component_count: u32,
    free_area: f64,
    stats: BuildStats,
    vertices: u64,
    edges: u64,
}

/// The id a dense slot map gives its `i`-th value (slot `i + 1`, version 1).
fn dense_key<K: From<KeyData>>(i: usize) -> K {
    KeyData::from_ffi(1 << 32 | (i as u64).wrapping_add(1)).into()
}

/// Whether a slot map's ids are those of inserting its values in order into an empty one.
fn dense<K: Key + From<KeyData>, V>(map: &SlotMap<K, V>) -> bool {
    map.keys()
        .enumerate()
        .all(|(i, k)| k.data() == dense_key::<K>(i).data())
}

/// The position of a dense id (see [`dense_key`]).
fn position(k: impl Key) -> usize {
    (k.data().as_ffi() as u32 as usize).wrapping_sub(1)
}

/// A vertex's clearance as the loader derives it: the distance to its nearest nearest
/// point (0 without any).
fn vertex_clearance(position: Point, nearest: &[Point]) -> f64 {
    let d = nearest
        .iter()
        .map(|&p| position.distance(p))
        .fold(f64::INFINITY, f64::min);
    if d == f64::INFINITY {
        0.0
    } else {
        d
    }
}

/// A bending point's clearance as the build computes it.
fn point_clearance(position: Point, left: Point, right: Point) -> f64 {
    position.distance(left).min(position.distance(right))
}

/// Tag bits of a vertex, an edge and a bending point beside their coordinates' codes.
const RAW_CLEARANCE: u8 = 16;
const RAW_LENGTH: u8 = 1;
const RAW_MIN_CLEARANCE: u8 = 2;
const RAW_COMPONENT: u8 = 4;
const BP_RAW_CLEARANCE: u16 = 1 << 12;
const BP_LEFT_CORNER: u16 = 1 << 13;
const BP_RIGHT_CORNER: u16 = 1 << 14;
const BP_VORONOI: u16 = 1 << 15;

/// The ECM in `CRDECM09`, or `None` if it is not as a build leaves it (ids with gaps, a
/// cell index changed by updates).
pub(super) fn encode(ecm: &Ecm) -> Option<Vec<u8>> {
    if !dense(&ecm.vertices) || !dense(&ecm.edges) {
        return None;
    }
    let order = ecm.cells.leaf_order(&ecm.edges)?;
    let scale = ecm.grid.scale();
    let mut c = Columns::default();
    let mut previous = (Point::ZERO, 0i64);
    for v in ecm.vertices.values() {
        let p = v.position;
        let mut tag = c.coordinate(p.x, previous.0.x, previous.0.x, scale);
        tag |= c.coordinate(p.y, previous.0.y, previous.0.y, scale) << 2;
        let raw =
            v.clearance.to_bits() != vertex_clearance(p, &v.nearest_obstacle_points).to_bits();
        c.tag(tag | if raw { RAW_CLEARANCE } else { 0 });
        if raw {
            c.float(v.clearance);
        }
        c.int(v.nearest_obstacle_points.len() as u64);
        let mut last = p;
        for &q in &v.nearest_obstacle_points {
            let t = c.coordinate(q.x, p.x, last.x, scale);
            let t = t | c.coordinate(q.y, p.y, last.y, scale) << 2;
            c.tag(t);
            last = q;
        }
        c.int(v.edges.len() as u64);
        for &e in &v.edges {
            c.int(position(e) as u64);
        }
        let component = i64::from(v.component.0);
        c.signed(component - previous.1);
        previous = (p, component);
    }
    let mut previous_start = 0i64;
    for e in ecm.edges.values() {
        let (start, end) = (ecm.vertices.get(e.start)?, ecm.vertices.get(e.end)?);
        let (s, t) = (position(e.start) as i64, position(e.end) as i64);
        c.signed(s - previous_start);
        c.signed(t - s);
        previous_start = s;
        let bps = &e.bending_points;
        c.int(bps.len() as u64);
        let (length, min_clearance) = BendingPoint::length_and_min_clearance(bps);
        let raw_length = length.to_bits() != e.length.to_bits();
        let raw_min = min_clearance.to_bits() != e.min_clearance.to_bits();
        let raw_component = e.component != start.component;
        let flags = [
            (raw_length, RAW_LENGTH),
            (raw_min, RAW_MIN_CLEARANCE),
            (raw_component, RAW_COMPONENT),
        ];
        c.tag(flags.iter().filter(|f| f.0).map(|f| f.1).sum());
        if raw_length {
            c.float(e.length);
        }
        if raw_min {
            c.float(e.min_clearance);
        }
        if raw_component {
            c.int(u64::from(e.component.0));
        }
        let mut prev = &bps[0];
        for (k, b) in bps.iter().enumerate() {
            let r0 = match k {
                0 => start.position,
                k if k + 1 == bps.len() => end.position,
                _ => prev.position,
            };
            let r1 = if k == 0 {
                start.position
            } else {
                prev.position
            };
            let p = b.position;
            let mut tag = u16::from(c.coordinate(p.x, r0.x, r1.x, scale));
            tag |= u16::from(c.coordinate(p.y, r0.y, r1.y, scale)) << 2;
            let (l1, q1) = if k == 0 {
                (p, p)
            } else {
                (prev.left, prev.right)
            };
            tag |= u16::from(c.coordinate(b.left.x, p.x, l1.x, scale)) << 4;
            tag |= u16::from(c.coordinate(b.left.y, p.y, l1.y, scale)) << 6;
            tag |= u16::from(c.coordinate(b.right.x, p.x, q1.x, scale)) << 8;
            tag |= u16::from(c.coordinate(b.right.y, p.y, q1.y, scale)) << 10;
            if b.clearance.to_bits() != point_clearance(p, b.left, b.right).to_bits() {
                tag |= BP_RAW_CLEARANCE;
                c.float(b.clearance);
            }
            let bits = [
                (b.left_is_corner, BP_LEFT_CORNER),
                (b.right_is_corner, BP_RIGHT_CORNER),
                (b.is_voronoi_vertex, BP_VORONOI),
            ];
            tag |= bits.iter().filter(|f| f.0).map(|f| f.1).sum::<u16>();
            c.tags.extend_from_slice(&tag.to_le_bytes());
            prev = b;
        }
    }
    let meta = Meta {
        grid: ecm.grid,
        component_count: ecm.component_count,
        free_area: ecm.free_area,
        stats: ecm.stats.clone(),
        vertices: ecm.vertices.len() as u64,
        edges: ecm.edges.len() as u64,
    };
    let meta = postcard::to_allocvec(&meta).ok()?;
    let order: Vec<u8> = order.iter().flat_map(|o| o.to_le_bytes()).collect();
    let sections = [&meta[..], &c.tags, &c.ints, &c.floats, &order];
    let mut out = unsealed(MAGIC_COMPACT);
    out.reserve(8 * SECTIONS + sections.iter().map(|s| s.len()).sum::<usize>());
    for s in sections {
        out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    }
    for s in sections {
        out.extend_from_slice(s);
    }
    Some(sealed(out, MAGIC_COMPACT))
}

fn problem(what: &str) -> StoreError {
    StructureProblem(what.into()).into()
}

/// A `CRDECM09` payload, checked as a `CRDECM07` one is.
pub(super) fn decode(payload: &[u8], options: &LoadOptions) -> Result<Ecm, StoreError> {
    let ended = || StoreError::Decode(postcard::Error::DeserializeUnexpectedEnd);
    let (lengths, mut rest) = payload
        .split_first_chunk::<{ 8 * SECTIONS }>()
        .ok_or_else(ended)?;
    let mut sections = [&[][..]; SECTIONS];
    for (i, section) in sections.iter_mut().enumerate() {
        let len = u64::from_le_bytes(lengths[8 * i..8 * i + 8].try_into().unwrap_or_default());
        let len = usize::try_from(len).map_err(|_| ended())?;
        (*section, rest) = rest.split_at_checked(len).ok_or_else(ended)?;
    }
    if !rest.is_empty() {
        return Err(StoreError::TrailingBytes {
            extra: rest.len() as u64,
        });
    }
    let [meta, tags, ints, floats, order] = sections;
    let meta: Meta = super::frame::decode_all(meta)?;
    let scale = meta.grid.scale();
    let mut r = Reader::new(tags, ints, floats);
    // Every vertex and edge takes at least one tag byte: a forged count reserves no more
    // than the payload can fill.
    let count = |n: u64, r: &Reader| {
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= r.left())
            .ok_or_else(|| problem("more vertices or edges than the payload holds"))
    };
    // Straight into the slot maps, which hand out the dense ids in order (checked).
    let mut vertices: SlotMap<VertexId, Vertex> =
        SlotMap::with_capacity_and_key(count(meta.vertices, &r)?);
    let mut previous = (Point::ZERO, 0i64);
    for i in 0..meta.vertices {
        let tag = r.tag()?;
        let x = r.coordinate(tag, previous.0.x, previous.0.x, scale)?;
        let p = Point::new(
            x,
            r.coordinate(tag >> 2, previous.0.y, previous.0.y, scale)?,
        );
        let raw_clearance = if tag & RAW_CLEARANCE != 0 {
            Some(r.float()?)
        } else {
            None
        };
        let mut nearest = NearestPoints::new();
        let mut last = p;
        for _ in 0..r.int()? {
            let t = r.tag()?;
            let x = r.coordinate(t, p.x, last.x, scale)?;
            last = Point::new(x, r.coordinate(t >> 2, p.y, last.y, scale)?);
            nearest.push(last);
        }
        let mut edges = VertexEdges::new();
        for _ in 0..r.int()? {
            edges.push(dense_key::<EdgeId>(r.index()?));
        }
        let component = previous.1.wrapping_add(r.signed()?);
        let component =
            u32::try_from(component).map_err(|_| problem("a component id out of range"))?;
        let id = vertices.insert(Vertex {
            position: p,
            clearance: raw_clearance.unwrap_or_else(|| vertex_clearance(p, &nearest)),
            nearest_obstacle_points: nearest,
            edges,
            component: ComponentId(component),
        });
        if id != dense_key(i as usize) {
            return Err(problem("the slot maps do not hand out the saved ids"));
        }
        previous = (p, i64::from(component));
    }
    let mut edges: SlotMap<EdgeId, Edge> = SlotMap::with_capacity_and_key(count(meta.edges, &r)?);
    let mut previous_start = 0i64;
    for i in 0..meta.edges {
        let s = previous_start.wrapping_add(r.signed()?);
        let t = s.wrapping_add(r.signed()?);
        previous_start = s;
        let vertex = |i: i64| {
            usize::try_from(i)
                .ok()
                .and_then(|i| Some((i, vertices.get(dense_key(i))?)))
                .ok_or_else(|| problem("an edge names a missing vertex"))
        };
        let ((s, start), (t, end)) = (vertex(s)?, vertex(t)?);
        let n = r.index()?;
        if n > r.left() {
            return Err(problem("more bending points than the payload holds"));
        }
        let flags = r.tag()?;
        let length = (flags & RAW_LENGTH != 0).then(|| r.float()).transpose()?;
        let min_clearance = (flags & RAW_MIN_CLEARANCE != 0)
            .then(|| r.float())
            .transpose()?;
        let component = if flags & RAW_COMPONENT != 0 {
            let c = u32::try_from(r.int()?).map_err(|_| problem("a component id out of range"))?;
            ComponentId(c)
        } else {
            start.component
        };
        let (sp, ep) = (start.position, end.position);
        let mut bps: Vec<BendingPoint> = Vec::with_capacity(n);
        // The previous bending point's position and nearest points (the references).
        let (mut pp, mut pl, mut pr) = (sp, sp, sp);
        for k in 0..n {
            let tag = r.tag_pair()?;
            let (r0, r1) = match k {
                0 => (sp, sp),
                k if k + 1 == n => (ep, pp),
                _ => (pp, pp),
            };
            let code = |shift: u16| (tag >> shift) as u8;
            let x = r.coordinate(code(0), r0.x, r1.x, scale)?;
            let p = Point::new(x, r.coordinate(code(2), r0.y, r1.y, scale)?);
            let (l1, q1) = if k == 0 { (p, p) } else { (pl, pr) };
            let lx = r.coordinate(code(4), p.x, l1.x, scale)?;
            let left = Point::new(lx, r.coordinate(code(6), p.y, l1.y, scale)?);
            let qx = r.coordinate(code(8), p.x, q1.x, scale)?;
            let right = Point::new(qx, r.coordinate(code(10), p.y, q1.y, scale)?);
            let clearance = if tag & BP_RAW_CLEARANCE != 0 {
                r.float()?
            } else {
                point_clearance(p, left, right)
            };
            bps.push(BendingPoint {
                position: p,
                left,
                right,
                clearance,
                left_is_corner: tag & BP_LEFT_CORNER != 0,
                right_is_corner: tag & BP_RIGHT_CORNER != 0,
                is_voronoi_vertex: tag & BP_VORONOI != 0,
            });
            (pp, pl, pr) = (p, left, right);
        }
        let derived = BendingPoint::length_and_min_clearance(&bps);
        let edge = Edge {
            start: dense_key(s),
            end: dense_key(t),
            bending_points: bps,
            length: length.unwrap_or(derived.0),
            min_clearance: min_clearance.unwrap_or(derived.1),
            component,
        };
        // The numbers now, while the points are in the cache (the links after all edges).
        edge_numbers(dense_key(i as usize), &edge, derived)?;
        let id = edges.insert(edge);
        if id != dense_key(i as usize) {
            return Err(problem("the slot maps do not hand out the saved ids"));
        }
    }
    if r.left() != 0 {
        return Err(StoreError::TrailingBytes {
            extra: r.left() as u64,
        });
    }
    if order.len() % 4 != 0 {
        return Err(problem("the cell index's order is not a list of u32"));
    }
    let order = order
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let cells = CellIndex::with_leaf_order(&edges, order)
        .ok_or_else(|| problem("the cell index's order is not one of its entries"))?;
    let ecm = Ecm {
        grid: meta.grid,
        vertices,
        edges,
        component_count: meta.component_count,
        free_area: meta.free_area,
        stats: meta.stats,
        cells,
        uid: fresh_uid(),
        lineage: fresh_uid(),
    };
    checked_links(ecm, options)
}
