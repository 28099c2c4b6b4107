// SPDX-License-Identifier:BSL-1.0

//! Corridor patch (session 20): what the sweep writes its result into.
//!
//! C++ Boost.Polygon's `voronoi_builder::construct(OUTPUT*)` is a template on the output
//! type; the port hard-wired [`Diagram`]. [`Output`] is that template parameter:
//! [`Builder::build`](crate::builder::Builder::build) builds a [`Diagram`] exactly as
//! before (the sweep is monomorphized per output type), and
//! [`Builder::build_output`](crate::builder::Builder::build_output) can fill another
//! output instead. [`EdgeList`] is a compact one: per Voronoi edge its two sites, whether
//! it is primary and the start vertex of each half, plus the vertex positions; no cells,
//! no next/prev/rotation links, no colours, no ray links at the end. Its
//! [`finish`](Output::finish_) removes the same degenerate edges as [`Diagram`]'s and
//! merges the same vertices, keeping the sweep's numbering (see [`EdgeList`]).

use crate::InputType;
use crate::circle_event::CircleEvent;
use crate::diagram::{ColorBits, Diagram, EdgeIndex, SourceCategory};
use crate::site_event::SiteEvent;

/// The output of a sweep (the template parameter of C++ Boost's `construct`). Its methods
/// are the sweep's calls; they take the library's internal event types, so only this
/// crate implements it.
pub trait Output: Sized {
    #[doc(hidden)]
    /// An empty output for `input_size` site events.
    fn with_sites_(input_size: usize) -> Self;
    #[doc(hidden)]
    /// The diagram of a single site.
    fn process_single_site_<I: InputType>(&mut self, site: &SiteEvent<I>);
    #[doc(hidden)]
    /// A new bisector of two sites, without vertices; the ids of its two halves.
    fn insert_new_edge_2_<I: InputType>(
        &mut self,
        site1: SiteEvent<I>,
        site2: SiteEvent<I>,
    ) -> (EdgeIndex, EdgeIndex);
    #[doc(hidden)]
    /// A new bisector starting at the vertex of `circle`, where the halves `edge12` and
    /// `edge23` (already inserted) now start as well; the ids of its two halves.
    fn insert_new_edge_5_<I: InputType>(
        &mut self,
        site1: SiteEvent<I>,
        site3: SiteEvent<I>,
        circle: &CircleEvent,
        edge12: EdgeIndex,
        edge23: EdgeIndex,
    ) -> (EdgeIndex, EdgeIndex);
    #[doc(hidden)]
    /// The number of vertices so far.
    fn num_vertices_(&self) -> usize;
    #[doc(hidden)]
    /// Called once after the sweep.
    fn finish_(&mut self);
}

impl Output for Diagram {
    #[inline(always)]
    fn with_sites_(input_size: usize) -> Self {
        Diagram::new(input_size)
    }
    #[inline(always)]
    fn process_single_site_<I: InputType>(&mut self, site: &SiteEvent<I>) {
        Diagram::process_single_site_(self, site)
    }
    #[inline(always)]
    fn insert_new_edge_2_<I: InputType>(
        &mut self,
        site1: SiteEvent<I>,
        site2: SiteEvent<I>,
    ) -> (EdgeIndex, EdgeIndex) {
        Diagram::insert_new_edge_2_(self, site1, site2)
    }
    #[inline(always)]
    fn insert_new_edge_5_<I: InputType>(
        &mut self,
        site1: SiteEvent<I>,
        site3: SiteEvent<I>,
        circle: &CircleEvent,
        edge12: EdgeIndex,
        edge23: EdgeIndex,
    ) -> (EdgeIndex, EdgeIndex) {
        Diagram::insert_new_edge_5_(self, site1, site3, circle, edge12, edge23)
    }
    #[inline(always)]
    fn num_vertices_(&self) -> usize {
        self.num_vertices()
    }
    #[inline(always)]
    fn finish_(&mut self) {
        self.finish()
    }
}

/// No vertex (an infinite half-edge's start).
pub const NO_VERTEX: u32 = u32::MAX;

/// One Voronoi edge of an [`EdgeList`]: its two halves (half 0 is the edge the sweep
/// created first, as in [`Diagram`], whose half-edges `2i` and `2i + 1` are twins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgePair {
    /// Per half, the input index of the site whose cell it bounds.
    source: [u32; 2],
    /// Per half, its start vertex ([`NO_VERTEX`] for none).
    vertex0: [u32; 2],
    /// Per half, the site's [`SourceCategory`] (bits 0-1); bit 2: the edge is primary.
    kind: [u8; 2],
}

const PRIMARY: u8 = 4;

impl EdgePair {
    /// The input index of the site on `half`'s side (as [`Cell::source_index`]).
    ///
    /// [`Cell::source_index`]: crate::diagram::Cell::source_index
    #[inline(always)]
    pub fn source_index(&self, half: usize) -> usize {
        self.source[half] as usize
    }

    /// The category of the site on `half`'s side (as [`Cell::source_category`]).
    ///
    /// [`Cell::source_category`]: crate::diagram::Cell::source_category
    #[inline(always)]
    pub fn source_category(&self, half: usize) -> SourceCategory {
        match self.kind[half] & 3 {
            0 => SourceCategory::SinglePoint,
            1 => SourceCategory::SegmentStart,
            2 => SourceCategory::SegmentEnd,
            _ => SourceCategory::Segment,
        }
    }

    /// Whether the edge is primary (as [`Edge::is_primary`]).
    ///
    /// [`Edge::is_primary`]: crate::diagram::Edge::is_primary
    #[inline(always)]
    pub fn is_primary(&self) -> bool {
        self.kind[0] & PRIMARY != 0
    }

    /// The start vertex of `half` (an index into [`EdgeList::vertices`]), or `None` for an
    /// infinite half.
    #[inline(always)]
    pub fn vertex0(&self, half: usize) -> Option<usize> {
        let v = self.vertex0[half];
        (v != NO_VERTEX).then_some(v as usize)
    }
}

/// Bits 0-1 of [`EdgePair::kind`]: `Cell::source_category`'s decoding of a site's flags.
#[inline(always)]
fn category_bits(sc: ColorBits) -> u8 {
    match ColorBits(sc.0 & ColorBits::RESERVED__MASK.0) {
        ColorBits::SINGLE_POINT__BIT => 0,
        ColorBits::SEGMENT_START_POINT__BIT => 1,
        ColorBits::SEGMENT_END_POINT__BIT => 2,
        _ => 3,
    }
}

/// A compact output of the sweep: the Voronoi edges (one [`EdgePair`] each) and vertex
/// positions, in the order of the finished [`Diagram`] of the same input.
///
/// Finishing does what [`Diagram`]'s `finish` does to edges and vertices: every edge
/// whose two vertices are equal under the same predicate (`vertex_equality_predicate_eq`,
/// 128 ulps per coordinate), tested in edge order on the current vertices, is removed and
/// its twin's start vertex merged into its own (`Diagram` moves the edges around the
/// twin's vertex to it; here a union-find), and the other edges keep their order. No
/// cells, incident edges, next/prev links or ray links.
///
/// The vertices keep the sweep's numbering: [`EdgeList::start`] gives a half's start
/// vertex with merges applied, and vertices that start no edge (merged away, or left
/// behind when the sweep moved a half's start) stay in [`EdgeList::vertices`] unused.
/// Taken in order, the used ones are `Diagram`'s vertices in its order (its compaction;
/// [`EdgeList::compacted`] renumbers them so). Readers that index arrays by vertex and
/// visit vertices in order (as Corridor's extraction does) get the same result either
/// way, without a renumbering pass over every edge.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EdgeList {
    pairs: Vec<EdgePair>,
    vertices: Vec<[f64; 2]>,
    /// How many degenerate edges finishing removed.
    removed: usize,
    /// Per sweep vertex, the vertex it was merged into (itself if none), or empty when
    /// finishing merged none.
    merged: Vec<u32>,
}

impl EdgeList {
    /// The Voronoi edges.
    #[inline(always)]
    pub fn pairs(&self) -> &[EdgePair] {
        &self.pairs
    }

    /// The vertex positions `[x, y]`, by the sweep's numbering (see [`EdgeList`]).
    #[inline(always)]
    pub fn vertices(&self) -> &[[f64; 2]] {
        &self.vertices
    }

    /// The start vertex of `pair`'s `half` after the merges of finishing (an index into
    /// [`EdgeList::vertices`]), or `None` for an infinite half.
    #[inline(always)]
    pub fn start(&self, pair: &EdgePair, half: usize) -> Option<usize> {
        let v = pair.vertex0(half)?;
        Some(if self.merged.is_empty() {
            v
        } else {
            self.merged[v] as usize
        })
    }

    /// The same edges with the vertices numbered as the finished [`Diagram`] numbers them:
    /// merges applied, the vertices that start no edge dropped, the others in order from 0.
    pub fn compacted(&self) -> EdgeList {
        let mut out = self.clone();
        let merged = std::mem::take(&mut out.merged);
        out.renumber(&merged);
        out
    }

    /// How many degenerate (zero-length) edges finishing removed (0 for
    /// [`from_diagram`](Self::from_diagram)).
    pub fn removed_degenerate(&self) -> usize {
        self.removed
    }

    /// The same data read from a finished [`Diagram`] (whose half-edges `2i`, `2i + 1` are
    /// twins): to compare the two outputs.
    pub fn from_diagram(diagram: &Diagram) -> Self {
        let edges = diagram.edges();
        let cells = diagram.cells();
        let half = |e: usize| {
            let edge = &edges[e];
            // (A finished diagram gives every edge a cell; without one, an invalid site.)
            let (source, category) = match edge.cell().ok().and_then(|c| cells.get(c.usize())) {
                Some(cell) => (
                    cell.source_index().u32(),
                    category_bits(cell.internal_color()),
                ),
                None => (u32::MAX, 3),
            };
            let kind = category | if edge.is_primary() { PRIMARY } else { 0 };
            let v = edge.vertex0().map_or(NO_VERTEX, |v| v.usize() as u32);
            (source, v, kind)
        };
        let pairs = (0..edges.len() / 2)
            .map(|i| {
                debug_assert_eq!(edges[2 * i].twin().ok().map(|t| t.usize()), Some(2 * i + 1));
                let (a, b) = (half(2 * i), half(2 * i + 1));
                EdgePair {
                    source: [a.0, b.0],
                    vertex0: [a.1, b.1],
                    kind: [a.2, b.2],
                }
            })
            .collect();
        EdgeList {
            pairs,
            vertices: diagram.vertices().iter().map(|v| [v.x(), v.y()]).collect(),
            removed: 0,
            merged: Vec::new(),
        }
    }

    /// Start vertices replaced by their representatives in `merged` (as in the field of
    /// that name: flat, or empty when no vertex merged), then the vertices that
    /// start no edge dropped, the others keeping their order and renumbered from 0
    /// (`Diagram`'s compaction).
    fn renumber(&mut self, merged: &[u32]) {
        let find = |v: u32| {
            if merged.is_empty() {
                v
            } else {
                merged[v as usize]
            }
        };
        let mut id = vec![NO_VERTEX; self.vertices.len()];
        for p in &mut self.pairs {
            for v in &mut p.vertex0 {
                if *v != NO_VERTEX {
                    *v = find(*v);
                    id[*v as usize] = 0;
                }
            }
        }
        let mut n = 0u32;
        for v in 0..id.len() {
            if id[v] != NO_VERTEX {
                id[v] = n;
                self.vertices[n as usize] = self.vertices[v];
                n += 1;
            }
        }
        self.vertices.truncate(n as usize);
        for p in &mut self.pairs {
            for v in &mut p.vertex0 {
                if *v != NO_VERTEX {
                    *v = id[*v as usize];
                }
            }
        }
    }

    #[inline(always)]
    fn set_vertex0(&mut self, edge: EdgeIndex, v: u32) {
        let e = edge.0 as usize;
        self.pairs[e >> 1].vertex0[e & 1] = v;
    }

    #[inline(always)]
    fn push_pair<I: InputType>(&mut self, site1: &SiteEvent<I>, site2: &SiteEvent<I>) -> EdgeIndex {
        let primary = if SiteEvent::is_primary_edge(site1, site2) {
            PRIMARY
        } else {
            0
        };
        let first = EdgeIndex(2 * self.pairs.len() as u32);
        self.pairs.push(EdgePair {
            source: [site1.initial_index(), site2.initial_index()],
            vertex0: [NO_VERTEX; 2],
            kind: [
                category_bits(site1.source_category()) | primary,
                category_bits(site2.source_category()) | primary,
            ],
        });
        first
    }
}

/// `Vertex::vertex_equality_predicate_eq`.
#[inline(always)]
fn same_vertex(a: [f64; 2], b: [f64; 2]) -> bool {
    use crate::utils::ctypes::ulp_comparison;
    use std::cmp::Ordering;
    let ulp = 128;
    ulp_comparison(a[0], b[0], ulp) == Ordering::Equal
        && ulp_comparison(a[1], b[1], ulp) == Ordering::Equal
}

impl Output for EdgeList {
    fn with_sites_(input_size: usize) -> Self {
        // What `Diagram::new` reserves: 2n vertices, 6n half-edges.
        EdgeList {
            pairs: Vec::with_capacity(3 * input_size),
            vertices: Vec::with_capacity(2 * input_size),
            removed: 0,
            merged: Vec::new(),
        }
    }

    #[inline(always)]
    fn process_single_site_<I: InputType>(&mut self, _site: &SiteEvent<I>) {}

    #[inline(always)]
    fn insert_new_edge_2_<I: InputType>(
        &mut self,
        site1: SiteEvent<I>,
        site2: SiteEvent<I>,
    ) -> (EdgeIndex, EdgeIndex) {
        let e = self.push_pair(&site1, &site2);
        (e, EdgeIndex(e.0 + 1))
    }

    #[inline(always)]
    fn insert_new_edge_5_<I: InputType>(
        &mut self,
        site1: SiteEvent<I>,
        site3: SiteEvent<I>,
        circle: &CircleEvent,
        edge12: EdgeIndex,
        edge23: EdgeIndex,
    ) -> (EdgeIndex, EdgeIndex) {
        let e = self.push_pair(&site1, &site3);
        let v = self.vertices.len() as u32;
        self.vertices.push([circle.x(), circle.y()]);
        self.set_vertex0(edge12, v);
        self.set_vertex0(edge23, v);
        // The new edge's second half starts at the new vertex.
        self.pairs[(e.0 >> 1) as usize].vertex0[1] = v;
        (e, EdgeIndex(e.0 + 1))
    }

    #[inline(always)]
    fn num_vertices_(&self) -> usize {
        self.vertices.len()
    }

    fn finish_(&mut self) {
        // Degenerate edges, in edge order, on the current (merged) vertices. Until the
        // first one, nothing moves and no vertex is merged.
        let pairs = &mut self.pairs;
        let vertices = &self.vertices;
        let degenerate = |p: &EdgePair| {
            p.vertex0[0] != NO_VERTEX
                && p.vertex0[1] != NO_VERTEX
                && same_vertex(
                    vertices[p.vertex0[0] as usize],
                    vertices[p.vertex0[1] as usize],
                )
        };
        let Some(first) = pairs.iter().position(degenerate) else {
            return;
        };
        let mut parent: Vec<u32> = (0..vertices.len() as u32).collect();
        let find = |parent: &[u32], mut v: u32| {
            while parent[v as usize] != v {
                v = parent[v as usize];
            }
            v
        };
        let mut write = first;
        for read in first..pairs.len() {
            let p = pairs[read];
            if p.vertex0[0] != NO_VERTEX && p.vertex0[1] != NO_VERTEX {
                let (a, b) = (find(&parent, p.vertex0[0]), find(&parent, p.vertex0[1]));
                if same_vertex(vertices[a as usize], vertices[b as usize]) {
                    parent[b as usize] = a;
                    continue;
                }
            }
            pairs[write] = p;
            write += 1;
        }
        self.removed = pairs.len() - write;
        pairs.truncate(write);
        // Each vertex's final representative, so that `start` reads it in one step.
        for v in 0..parent.len() {
            parent[v] = find(&parent, v as u32);
        }
        self.merged = parent;
    }
}
