//! Polyanya navigation meshes, file format version 2 (Cui, Harabor, Grastien 2017).

use crate::text::{excerpt, Token, Tokens};
use corridor_geom::{
    orient, Aabb, Environment, EnvironmentError, Obstacle, Orientation, Point, Polygon, Ring,
};
use std::collections::HashMap;

/// A vertex of a [`Mesh`].
#[derive(Clone, Debug, PartialEq)]
pub struct MeshVertex {
    /// Position.
    pub position: Point,
    /// The polygons around the vertex as the file lists them (counter-clockwise from
    /// an arbitrary start); `None` stands for outside the mesh or an obstacle.
    pub polygons: Vec<Option<usize>>,
}

/// A convex polygon of a [`Mesh`].
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPolygon {
    /// Vertex indices, counter-clockwise.
    pub vertices: Vec<usize>,
    /// `neighbours[i]` is the polygon across the edge from `vertices[i - 1]` to
    /// `vertices[i]` (wrapping: edge 0 runs from the last vertex to the first), or
    /// `None` where the edge is a wall (format version 2 convention).
    pub neighbours: Vec<Option<usize>>,
}

/// A navigation mesh: convex polygons whose union is the walkable area.
///
/// Built only by [`read_mesh`], which checks that every index is in range, that every
/// polygon is counter-clockwise and convex, and that neighbours agree (if polygon `p`
/// says `q` lies across edge `a → b`, then `q` has the edge `b → a` and says `p`).
///
/// ```
/// let text = "mesh\n2\n4 2\n0 0 2 0 -1\n1.5 0 3 0 1 -1\n1.5 1.5 2 1 -1\n0 1.5 3 -1 1 0\n\
///             3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";
/// let mesh = corridor_io::read_mesh(text).unwrap();
/// assert_eq!(mesh.polygons().len(), 2);
/// assert_eq!(mesh.area(), 2.25);
/// let env = mesh.to_environment().unwrap();
/// assert_eq!(env.boundary().area(), 2.25);
/// assert_eq!(env.obstacles().count(), 0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    vertices: Vec<MeshVertex>,
    polygons: Vec<MeshPolygon>,
}

/// What is wrong with a mesh file, or with turning a mesh into an environment.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// The file ended too early.
    #[error("line {line}: the file ended before {expected}")]
    Truncated {
        /// The last line of the file.
        line: usize,
        /// What was still missing.
        expected: String,
    },
    /// The file does not start with `mesh`.
    #[error("line {line}, column {column}: expected `mesh`, found `{found}`")]
    BadHeader {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// What was found.
        found: String,
    },
    /// A format version other than 2.
    #[error("line {line}, column {column}: unsupported mesh version `{found}`, only 2 is known")]
    UnsupportedVersion {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// The version found.
        found: String,
    },
    /// A token that is not a number of the expected kind.
    #[error("line {line}, column {column}: expected {expected}, found `{found}`")]
    BadNumber {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// An index outside its array.
    #[error("line {line}, column {column}: {kind} index {index} is out of range (there are {count}; -1 means none{only})", only = if *kind == "vertex" { ", which vertices may not use" } else { "" })]
    IndexOutOfRange {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// `vertex` or `polygon`.
        kind: &'static str,
        /// The index found.
        index: i64,
        /// Number of vertices or polygons.
        count: usize,
    },
    /// A polygon with fewer than 3 vertices.
    #[error("line {line}: polygon {polygon} has {count} vertices, at least 3 are needed")]
    TooFewVertices {
        /// Line where the polygon starts.
        line: usize,
        /// Polygon index.
        polygon: usize,
        /// Its vertex count.
        count: usize,
    },
    /// A polygon edge of zero length (the same vertex twice in a row, or two vertices at
    /// the same position).
    #[error("line {line}: polygon {polygon} has a zero-length edge at vertex {vertex}")]
    DegenerateEdge {
        /// Line where the polygon starts.
        line: usize,
        /// Polygon index.
        polygon: usize,
        /// The vertex index.
        vertex: usize,
    },
    /// A polygon that is clockwise or has no area.
    #[error("line {line}: polygon {polygon} is not counter-clockwise (signed area {signed_area})")]
    NotCounterClockwise {
        /// Line where the polygon starts.
        line: usize,
        /// Polygon index.
        polygon: usize,
        /// Its signed area.
        signed_area: f64,
    },
    /// A polygon that turns right somewhere or winds around more than once.
    #[error("line {line}: polygon {polygon} is not convex at vertex {vertex}")]
    NotConvex {
        /// Line where the polygon starts.
        line: usize,
        /// Polygon index.
        polygon: usize,
        /// The vertex index.
        vertex: usize,
    },
    /// Two polygons with the same directed edge (they overlap).
    #[error("line {line}: polygon {polygon} repeats the edge {from} → {to} of polygon {other}")]
    DuplicateEdge {
        /// Line where the polygon starts.
        line: usize,
        /// Polygon index.
        polygon: usize,
        /// The polygon that has the edge already.
        other: usize,
        /// Edge start vertex.
        from: usize,
        /// Edge end vertex.
        to: usize,
    },
    /// Neighbours that do not agree.
    #[error("line {line}: polygon {polygon}, edge {from} → {to}: neighbour {neighbour} does not match the polygon on the other side ({other})", neighbour = show(*neighbour), other = show(*other_side))]
    InconsistentNeighbour {
        /// Line where the polygon starts.
        line: usize,
        /// Polygon index.
        polygon: usize,
        /// Edge start vertex.
        from: usize,
        /// Edge end vertex.
        to: usize,
        /// The neighbour the polygon names.
        neighbour: Option<usize>,
        /// The polygon that really has the edge `to → from`, if any.
        other_side: Option<usize>,
    },
    /// Tokens after the last polygon.
    #[error("line {line}, column {column}: unexpected data after the last polygon: `{found}`")]
    TrailingData {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// What was found.
        found: String,
    },
    /// The mesh has no walkable area to make a boundary of.
    #[error("the mesh has no polygons, so there is no boundary")]
    NoBoundary,
    /// The wall rings do not nest as walkable and blocked areas must (an obstacle ring
    /// outside every walkable region, or two walkable rings directly nested).
    #[error("the wall ring through ({x}, {y}) does not nest properly")]
    BadNesting {
        /// A vertex of the ring.
        x: f64,
        /// Its y.
        y: f64,
    },
    /// The walls could not be chained into rings (a vertex where walls end).
    #[error("the walls cannot be chained into rings at vertex {vertex}")]
    OpenWall {
        /// The vertex.
        vertex: usize,
    },
    /// The environment made from the mesh is invalid.
    #[error("the environment made from the mesh is invalid: {0}")]
    Environment(#[from] EnvironmentError),
}

/// When the walkable area consists of several separate regions, the boundary is their
/// bounding box grown by this fraction of its larger side on every side.
const MARGIN_FRACTION: f64 = 0.01;

fn show(p: Option<usize>) -> String {
    p.map_or_else(|| "-1".into(), |p| p.to_string())
}

/// Reads a Polyanya mesh, format version 2 (`mesh`, `2`, `V P`, then `V` vertices
/// `x y n p₁ … pₙ` and `P` polygons `n v₁ … vₙ p₁ … pₙ`). Whitespace of any kind
/// separates numbers; line breaks carry no meaning (errors still give lines).
///
/// Checks: every count and index is a number in range (`-1` for "no polygon"),
/// coordinates are finite, polygons have at least 3 vertices, no zero-length edges,
/// counter-clockwise, convex (collinear vertices allowed), no two polygons share a
/// directed edge, and neighbour lists agree on both sides of every edge.
///
/// ```
/// let err = corridor_io::read_mesh("mesh\n2\n1 0\n0 0 1 7\n").unwrap_err();
/// assert!(matches!(err, corridor_io::MeshError::IndexOutOfRange { line: 4, index: 7, .. }));
/// ```
pub fn read_mesh(text: &str) -> Result<Mesh, MeshError> {
    let mut parser = Parser {
        tokens: Tokens::new(text),
        last_line: crate::text::last_line(text),
    };
    let t = parser.next(&|| "the header `mesh`".into())?;
    if t.text != "mesh" {
        return Err(MeshError::BadHeader {
            line: t.line,
            column: t.column,
            found: excerpt(t.text),
        });
    }
    let t = parser.next(&|| "the version".into())?;
    if t.text != "2" {
        return Err(MeshError::UnsupportedVersion {
            line: t.line,
            column: t.column,
            found: excerpt(t.text),
        });
    }
    let vertex_count = parser.count(&|| "the vertex count V".into())?;
    let polygon_count = parser.count(&|| "the polygon count P".into())?;
    // Never trust a count for an allocation: each vertex takes at least 3 tokens (6
    // bytes), each polygon at least 7 (14 bytes).
    let mut vertices = Vec::with_capacity(vertex_count.min(parser.tokens.remaining_bytes() / 6));
    for v in 0..vertex_count {
        let what = || format!("vertex {v} of {vertex_count}");
        let x = parser.coordinate(&what)?;
        let y = parser.coordinate(&what)?;
        let n = parser.count(&what)?;
        let mut polygons = Vec::new();
        for _ in 0..n {
            polygons.push(parser.index(&what, "polygon", polygon_count, true)?);
        }
        vertices.push(MeshVertex {
            position: Point::new(x, y),
            polygons,
        });
    }
    let mut polygons = Vec::with_capacity(polygon_count.min(parser.tokens.remaining_bytes() / 14));
    let mut lines = Vec::with_capacity(polygons.capacity());
    for p in 0..polygon_count {
        let what = || format!("polygon {p} of {polygon_count}");
        let n = parser.count(&what)?;
        lines.push(parser.tokens.line());
        let mut vs = Vec::new();
        for _ in 0..n {
            let i = parser.index(&what, "vertex", vertex_count, false)?;
            vs.push(i.unwrap_or(0));
        }
        let mut ns = Vec::new();
        for _ in 0..n {
            ns.push(parser.index(&what, "polygon", polygon_count, true)?);
        }
        polygons.push(MeshPolygon {
            vertices: vs,
            neighbours: ns,
        });
    }
    if let Some(t) = parser.tokens.next() {
        return Err(MeshError::TrailingData {
            line: t.line,
            column: t.column,
            found: excerpt(t.text),
        });
    }
    let mesh = Mesh { vertices, polygons };
    mesh.check(&lines)?;
    Ok(mesh)
}

struct Parser<'a> {
    tokens: Tokens<'a>,
    last_line: usize,
}

impl<'a> Parser<'a> {
    /// The next token; `expected` names what was due when the file ends (it is only
    /// formatted then).
    fn next(&mut self, expected: &dyn Fn() -> String) -> Result<Token<'a>, MeshError> {
        self.tokens.next().ok_or_else(|| MeshError::Truncated {
            line: self.last_line,
            expected: expected(),
        })
    }

    fn bad(t: Token<'_>, expected: &'static str) -> MeshError {
        MeshError::BadNumber {
            line: t.line,
            column: t.column,
            expected,
            found: excerpt(t.text),
        }
    }

    fn count(&mut self, what: &dyn Fn() -> String) -> Result<usize, MeshError> {
        let t = self.next(what)?;
        t.text
            .parse::<u32>()
            .map(|n| n as usize)
            .map_err(|_| Self::bad(t, "a count (a non-negative integer)"))
    }

    fn coordinate(&mut self, what: &dyn Fn() -> String) -> Result<f64, MeshError> {
        let t = self.next(what)?;
        match t.text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(Self::bad(t, "a finite coordinate")),
        }
    }

    fn index(
        &mut self,
        what: &dyn Fn() -> String,
        kind: &'static str,
        count: usize,
        allow_none: bool,
    ) -> Result<Option<usize>, MeshError> {
        let t = self.next(what)?;
        let i: i64 = t
            .text
            .parse()
            .map_err(|_| Self::bad(t, "an index (an integer)"))?;
        if allow_none && i == -1 {
            return Ok(None);
        }
        if i < 0 || i as u64 >= count as u64 {
            return Err(MeshError::IndexOutOfRange {
                line: t.line,
                column: t.column,
                kind,
                index: i,
                count,
            });
        }
        Ok(Some(i as usize))
    }
}

impl Mesh {
    /// The vertices.
    pub fn vertices(&self) -> &[MeshVertex] {
        &self.vertices
    }

    /// The polygons.
    pub fn polygons(&self) -> &[MeshPolygon] {
        &self.polygons
    }

    /// The corners of polygon `p`, counter-clockwise.
    ///
    /// # Panics
    /// When `p` is not a polygon index.
    pub fn polygon_points(&self, p: usize) -> Vec<Point> {
        self.polygons[p]
            .vertices
            .iter()
            .map(|&v| self.vertices[v].position)
            .collect()
    }

    /// Area of polygon `p`.
    ///
    /// # Panics
    /// When `p` is not a polygon index.
    pub fn polygon_area(&self, p: usize) -> f64 {
        Ring::new(self.polygon_points(p)).area()
    }

    /// Total walkable area: the sum of the polygon areas.
    pub fn area(&self) -> f64 {
        (0..self.polygons.len()).map(|p| self.polygon_area(p)).sum()
    }

    /// The walls: every polygon edge without a neighbour, directed so that the walkable
    /// side is on the left, as `(from, to)` vertex indices.
    pub fn boundary_edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for poly in &self.polygons {
            let n = poly.vertices.len();
            for k in 0..n {
                if poly.neighbours[k].is_none() {
                    out.push((poly.vertices[(k + n - 1) % n], poly.vertices[k]));
                }
            }
        }
        out
    }

    fn check(&self, lines: &[usize]) -> Result<(), MeshError> {
        let mut edges: HashMap<(usize, usize), (usize, Option<usize>)> = HashMap::new();
        for (p, poly) in self.polygons.iter().enumerate() {
            let line = lines[p];
            let n = poly.vertices.len();
            if n < 3 {
                return Err(MeshError::TooFewVertices {
                    line,
                    polygon: p,
                    count: n,
                });
            }
            let pts = self.polygon_points(p);
            for k in 0..n {
                if pts[k] == pts[(k + 1) % n] {
                    return Err(MeshError::DegenerateEdge {
                        line,
                        polygon: p,
                        vertex: poly.vertices[k],
                    });
                }
            }
            let signed_area = Ring::new(pts.clone()).signed_area();
            if signed_area.is_nan() || signed_area <= 0.0 {
                return Err(MeshError::NotCounterClockwise {
                    line,
                    polygon: p,
                    signed_area,
                });
            }
            let mut turning = 0.0;
            for k in 0..n {
                let (a, b, c) = (pts[(k + n - 1) % n], pts[k], pts[(k + 1) % n]);
                if orient(a, b, c) == Orientation::Clockwise {
                    return Err(MeshError::NotConvex {
                        line,
                        polygon: p,
                        vertex: poly.vertices[k],
                    });
                }
                let (u, w) = (b - a, c - b);
                turning += u.perp_dot(w).atan2(u.dot(w));
            }
            // A convex polygon turns once around (2π); one that winds twice turns 4π.
            if turning > 3.0 * std::f64::consts::PI {
                return Err(MeshError::NotConvex {
                    line,
                    polygon: p,
                    vertex: poly.vertices[0],
                });
            }
            for k in 0..n {
                let key = (poly.vertices[(k + n - 1) % n], poly.vertices[k]);
                if let Some(&(other, _)) = edges.get(&key) {
                    return Err(MeshError::DuplicateEdge {
                        line,
                        polygon: p,
                        other,
                        from: key.0,
                        to: key.1,
                    });
                }
                edges.insert(key, (p, poly.neighbours[k]));
            }
        }
        for (p, poly) in self.polygons.iter().enumerate() {
            let n = poly.vertices.len();
            for k in 0..n {
                let (from, to) = (poly.vertices[(k + n - 1) % n], poly.vertices[k]);
                let reverse = edges.get(&(to, from));
                let neighbour = poly.neighbours[k];
                let agrees = match (neighbour, reverse) {
                    (None, None) => true,
                    (Some(q), Some(&(owner, back))) => owner == q && back == Some(p),
                    _ => false,
                };
                if !agrees {
                    return Err(MeshError::InconsistentNeighbour {
                        line: lines[p],
                        polygon: p,
                        from,
                        to,
                        neighbour,
                        other_side: reverse.map(|r| r.0),
                    });
                }
            }
        }
        Ok(())
    }

    /// The environment whose walls are the mesh's walls (edges without a neighbour).
    ///
    /// The walls are chained into rings (at a vertex where several walls meet, each
    /// walkable wedge gets its own pass, and a ring that would visit a vertex twice is
    /// split there, so every ring is simple). Rings with the walkable area inside are
    /// region outlines, rings with it outside are obstacle outlines.
    ///
    /// * When the walkable area is one region (the usual case), its outer ring (the
    ///   largest) is the boundary.
    /// * When it consists of several regions side by side (as `aurora.mesh` does: a game
    ///   map with closed-off areas), the boundary is the bounding box of all of them grown
    ///   by 1 % of its larger side, and the first obstacle (id 0) is that box with the
    ///   regions cut out as holes.
    ///
    /// Every other obstacle is the area inside an obstacle outline, with the walkable
    /// islands directly inside it as holes. Obstacles get ids in the order their first
    /// wall appears in the file. The free area of the result equals [`Mesh::area`] (up to
    /// rounding), and the environment is validated.
    pub fn to_environment(&self) -> Result<Environment, MeshError> {
        let rings = self.wall_rings()?;
        if rings.is_empty() {
            return Err(MeshError::NoBoundary);
        }
        let areas: Vec<f64> = rings.iter().map(|r| r.signed_area()).collect();
        let boxes: Vec<Aabb> = rings
            .iter()
            .map(|r| r.aabb().unwrap_or(Aabb::new(Point::ZERO, Point::ZERO)))
            .collect();
        let mut order: Vec<usize> = (0..rings.len()).collect();
        order.sort_by(|&a, &b| areas[b].abs().total_cmp(&areas[a].abs()).then(a.cmp(&b)));
        // Parent of each ring: the smallest ring around it (rings never cross, so the
        // midpoint of one edge decides).
        let mut parent: Vec<Option<usize>> = vec![None; rings.len()];
        for (k, &r) in order.iter().enumerate().skip(1) {
            let v = rings[r].vertices();
            let probe = (v[0] + v[1]) * 0.5;
            parent[r] = order[..k]
                .iter()
                .rev()
                .copied()
                .find(|&s| boxes[s].contains(probe) && rings[s].contains(probe));
        }
        let roots: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&r| parent[r].is_none())
            .collect();
        if let Some(&r) = roots.iter().find(|&&r| areas[r] <= 0.0) {
            let v = rings[r].vertices()[0];
            return Err(MeshError::BadNesting { x: v.x, y: v.y });
        }
        // One walkable region: its outer ring is the boundary. Several side by side: the
        // boundary is their bounding box grown by MARGIN_FRACTION of its larger side,
        // and one obstacle fills the box around them (the regions are its holes).
        let mut obstacle_of: HashMap<usize, Polygon> = HashMap::new();
        let mut env = if let [outer] = roots[..] {
            Environment::new(rings[outer].clone())
        } else {
            let b = roots
                .iter()
                .map(|&r| boxes[r])
                .reduce(Aabb::union)
                .ok_or(MeshError::NoBoundary)?;
            let b = b.expanded(b.size().x.max(b.size().y) * MARGIN_FRACTION);
            let frame = Ring::new(b.corners().to_vec());
            let holes = roots.iter().map(|&r| rings[r].reversed()).collect();
            obstacle_of.insert(usize::MAX, Polygon::new(frame.clone(), holes));
            Environment::new(frame)
        };
        let mut holes: Vec<(usize, usize)> = Vec::new();
        for r in 0..rings.len() {
            let Some(p) = parent[r] else { continue };
            match (areas[r] < 0.0, areas[p] > 0.0) {
                (true, true) => {
                    obstacle_of.insert(r, Polygon::simple(rings[r].reversed()));
                }
                (false, false) => holes.push((r, p)),
                _ => {
                    // Not reachable for rings that do not cross; report rather than guess.
                    let v = rings[r].vertices()[0];
                    return Err(MeshError::BadNesting { x: v.x, y: v.y });
                }
            }
        }
        for (r, p) in holes {
            if let Some(poly) = obstacle_of.get_mut(&p) {
                poly.holes.push(rings[r].reversed());
            }
        }
        if let Some(frame) = obstacle_of.remove(&usize::MAX) {
            env.insert(Obstacle::Polygon(frame));
        }
        for r in 0..rings.len() {
            if let Some(poly) = obstacle_of.remove(&r) {
                env.insert(Obstacle::Polygon(poly));
            }
        }
        env.validate()?;
        Ok(env)
    }

    /// The walls chained into simple rings (walkable side on the left), in the order
    /// their first edge appears.
    fn wall_rings(&self) -> Result<Vec<Ring>, MeshError> {
        let walls = self.boundary_edges();
        let mut outgoing: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, &(from, _)) in walls.iter().enumerate() {
            outgoing.entry(from).or_default().push(i);
        }
        let pos = |v: usize| self.vertices[v].position;
        let successor = |e: usize| -> Result<usize, MeshError> {
            let (from, to) = walls[e];
            let candidates = outgoing
                .get(&to)
                .ok_or(MeshError::OpenWall { vertex: to })?;
            if candidates.len() == 1 {
                return Ok(candidates[0]);
            }
            let (centre, back) = (pos(to), pos(from));
            let key = |c: usize| wedge_class(centre, back, pos(walls[c].1));
            let mut best = candidates[0];
            for &c in &candidates[1..] {
                let (kc, kb) = (key(c), key(best));
                let earlier = kc < kb
                    || (kc == kb
                        && orient(centre, pos(walls[best].1), pos(walls[c].1))
                            == Orientation::Clockwise);
                if earlier {
                    best = c;
                }
            }
            Ok(best)
        };
        let mut used = vec![false; walls.len()];
        let mut rings = Vec::new();
        let mut stack_pos: HashMap<usize, usize> = HashMap::new();
        for start in 0..walls.len() {
            if used[start] {
                continue;
            }
            let mut walk = Vec::new();
            let mut e = start;
            while !used[e] {
                used[e] = true;
                walk.push(e);
                e = successor(e)?;
            }
            if e != start {
                return Err(MeshError::OpenWall { vertex: walls[e].0 });
            }
            let mut stack: Vec<usize> = Vec::new();
            stack_pos.clear();
            let mut emit = |cycle: &[usize]| {
                rings.push(Ring::new(cycle.iter().map(|&c| pos(walls[c].0)).collect()));
            };
            for e in walk {
                let v = walls[e].0;
                if let Some(&at) = stack_pos.get(&v) {
                    let cycle: Vec<usize> = stack.drain(at..).collect();
                    for &c in &cycle {
                        stack_pos.remove(&walls[c].0);
                    }
                    emit(&cycle);
                }
                stack_pos.insert(v, stack.len());
                stack.push(e);
            }
            emit(&stack);
        }
        Ok(rings)
    }
}

/// Sorting key for the wall leaving `centre` towards `target`, by clockwise angle from
/// the direction towards `back`: 0 for (0, π), 1 for π, 2 for (π, 2π), 3 for 2π.
fn wedge_class(centre: Point, back: Point, target: Point) -> u8 {
    match orient(centre, back, target) {
        Orientation::Clockwise => 0,
        Orientation::CounterClockwise => 2,
        Orientation::Collinear if (target - centre).dot(back - centre) < 0.0 => 1,
        Orientation::Collinear => 3,
    }
}
