//! Comparing two ECMs up to ids, numbering, edge direction and rounding: what "equal to a
//! full rebuild" means in the tests of the dynamic updates.

use crate::graph::{BendingPoint, Ecm, Edge};
use corridor_geom::Point;
use rstar::primitives::GeomWithData;
use rstar::RTree;
use std::collections::HashMap;

/// An edge in canonical direction: bending points (near-duplicates removed) running from
/// the lexicographically smaller end to the larger one, with left and right swapped when
/// the edge was reversed.
struct CanonicalEdge {
    points: Vec<BendingPoint>,
    component: u32,
}

fn lex_less(a: Point, b: Point) -> bool {
    (a.x, a.y) < (b.x, b.y)
}

fn reversed(points: &[BendingPoint]) -> Vec<BendingPoint> {
    points.iter().rev().map(BendingPoint::flipped).collect()
}

/// The bending points without interior points that lie within `tolerance` of the
/// previous kept one (the ends are always kept), so that a sample which one build puts
/// a rounding error away from a Voronoi vertex and the other drops does not count as a
/// difference.
fn thinned(points: &[BendingPoint], tolerance: f64) -> Vec<BendingPoint> {
    let n = points.len();
    let mut out: Vec<BendingPoint> = Vec::with_capacity(n);
    for (k, b) in points.iter().enumerate() {
        let near = out
            .last()
            .is_some_and(|p: &BendingPoint| p.position.distance(b.position) <= tolerance);
        if near && k + 1 < n {
            continue;
        }
        if near && out.len() > 1 {
            out.pop();
        }
        out.push(*b);
    }
    out
}

fn canonical(edge: &Edge, tolerance: f64) -> CanonicalEdge {
    let bps = &edge.bending_points;
    let first = bps[0].position;
    let last = bps[bps.len() - 1].position;
    let points = if lex_less(last, first) {
        reversed(bps)
    } else {
        bps.clone()
    };
    CanonicalEdge {
        points: thinned(&points, tolerance),
        component: edge.component.0,
    }
}

fn close(a: Point, b: Point, tolerance: f64) -> bool {
    (a - b).abs().max_element() <= tolerance
}

fn fmt_point(p: Point) -> String {
    format!("({:.9}, {:.9})", p.x, p.y)
}

/// Why two bending-point sequences differ, or `None` if they agree within `tolerance`.
fn sequence_diff(a: &[BendingPoint], b: &[BendingPoint], tolerance: f64) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("{} against {} bending points", a.len(), b.len()));
    }
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        let what = if !close(x.position, y.position, tolerance) {
            "position"
        } else if !close(x.left, y.left, tolerance) {
            "left nearest point"
        } else if !close(x.right, y.right, tolerance) {
            "right nearest point"
        } else if (x.clearance - y.clearance).abs() > tolerance {
            "clearance"
        } else if x.is_voronoi_vertex != y.is_voronoi_vertex {
            "Voronoi vertex flag"
        } else {
            continue;
        };
        return Some(format!(
            "bending point {k} differs in its {what}: {} (clearance {}) against {} (clearance {})",
            fmt_point(x.position),
            x.clearance,
            fmt_point(y.position),
            y.clearance
        ));
    }
    None
}

/// Whether the edge sequences agree in either direction (a loop, or an edge whose ends
/// coincide within the tolerance, has no canonical direction).
fn edges_match(a: &CanonicalEdge, b: &CanonicalEdge, tolerance: f64) -> Option<String> {
    let forward = sequence_diff(&a.points, &b.points, tolerance)?;
    let n = a.points.len();
    if close(a.points[0].position, a.points[n - 1].position, tolerance) {
        let back = reversed(&b.points);
        sequence_diff(&a.points, &back, tolerance)?;
    }
    Some(forward)
}

type Keyed = GeomWithData<[f64; 2], usize>;

/// A one-to-one map between the components of two ECMs, built up as vertices and edges
/// are matched.
#[derive(Default)]
struct ComponentMap {
    forward: HashMap<u32, u32>,
    backward: HashMap<u32, u32>,
}

impl ComponentMap {
    fn link(&mut self, a: u32, b: u32) -> bool {
        let f = *self.forward.entry(a).or_insert(b);
        let g = *self.backward.entry(b).or_insert(a);
        f == b && g == a
    }
}

impl Ecm {
    /// Compares this ECM with `other` up to ids, the numbering of components, the
    /// direction of edges and rounding: returns `None` if they are the same map within
    /// `tolerance` (user units, for every position, nearest obstacle point and clearance),
    /// or a description of the first difference found.
    ///
    /// Two ECMs are the same when they have the same number of vertices, edges and
    /// components, the same free area, vertices pairwise at the same position with the
    /// same degree and clearance (the free areas may differ by `tolerance · √area`), edges pairwise with the same bending points (each with
    /// the same nearest point on each side; an edge may run the other way, with left and
    /// right swapped), and the components correspond one to one. Interior bending points
    /// closer than `tolerance` to their predecessor are ignored, so a sample that one
    /// build places at a Voronoi vertex and the other a rounding error away does not count.
    ///
    /// ```
    /// use corridor_ecm::Ecm;
    /// use corridor_geom::{Environment, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 4.0), Point::new(6.0, 6.0)));
    /// let a = Ecm::build(&env)?;
    /// let b = Ecm::build(&env)?;
    /// assert_eq!(a.canonical_diff(&b, 1e-9), None);
    /// env.insert(Obstacle::Point(Point::new(2.0, 2.0)));
    /// let c = Ecm::build(&env)?;
    /// assert!(a.canonical_diff(&c, 1e-9).is_some());
    /// # Ok::<(), corridor_ecm::BuildError>(())
    /// ```
    pub fn canonical_diff(&self, other: &Ecm, tolerance: f64) -> Option<String> {
        let tolerance = tolerance.max(0.0);
        if self.vertex_count() != other.vertex_count() {
            return Some(format!(
                "{} against {} vertices",
                self.vertex_count(),
                other.vertex_count()
            ));
        }
        if self.edge_count() != other.edge_count() {
            return Some(format!(
                "{} against {} edges",
                self.edge_count(),
                other.edge_count()
            ));
        }
        if self.component_count() != other.component_count() {
            return Some(format!(
                "{} against {} components",
                self.component_count(),
                other.component_count()
            ));
        }
        let area = self.free_area().abs().max(1.0);
        let area_tolerance = 1e-9 * area + tolerance * area.sqrt();
        if (self.free_area() - other.free_area()).abs() > area_tolerance {
            return Some(format!(
                "free area {} against {}",
                self.free_area(),
                other.free_area()
            ));
        }
        let mut components = ComponentMap::default();

        // Vertices: same position, degree and clearance.
        let theirs: Vec<_> = other.vertices().map(|(_, v)| v).collect();
        let tree: RTree<Keyed> = RTree::bulk_load(
            theirs
                .iter()
                .enumerate()
                .map(|(i, v)| Keyed::new([v.position.x, v.position.y], i))
                .collect(),
        );
        let mut used = vec![false; theirs.len()];
        for (_, v) in self.vertices() {
            let p = [v.position.x, v.position.y];
            let envelope = rstar::AABB::from_corners(
                [p[0] - tolerance, p[1] - tolerance],
                [p[0] + tolerance, p[1] + tolerance],
            );
            let found = tree
                .locate_in_envelope(envelope)
                .map(|e| e.data)
                .filter(|&i| !used[i])
                .find(|&i| {
                    let w = theirs[i];
                    w.degree() == v.degree() && (w.clearance - v.clearance).abs() <= tolerance
                });
            let Some(i) = found else {
                return Some(format!(
                    "vertex at {} (degree {}, clearance {}) has no counterpart",
                    fmt_point(v.position),
                    v.degree(),
                    v.clearance
                ));
            };
            // Several vertices may share a position (corner branches): the components
            // are matched through the edges, which are unique.
            used[i] = true;
        }

        // Edges: keyed by their canonical start, matched by their whole sequence.
        let theirs: Vec<CanonicalEdge> = other
            .edges()
            .map(|(_, e)| canonical(e, tolerance))
            .collect();
        let tree: RTree<Keyed> = RTree::bulk_load(
            theirs
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let p = e.points[0].position;
                    Keyed::new([p.x, p.y], i)
                })
                .collect(),
        );
        let mut used = vec![false; theirs.len()];
        for (_, edge) in self.edges() {
            let mine = canonical(edge, tolerance);
            let n = mine.points.len();
            let (s, t) = (mine.points[0].position, mine.points[n - 1].position);
            // Search around both ends: ends that are equal within the tolerance may be
            // ordered differently in the other map.
            let mut nearest_miss: Option<String> = None;
            let mut found = None;
            'search: for q in [s, t] {
                let envelope = rstar::AABB::from_corners(
                    [q.x - tolerance, q.y - tolerance],
                    [q.x + tolerance, q.y + tolerance],
                );
                for e in tree.locate_in_envelope(envelope) {
                    let i = e.data;
                    if used[i] {
                        continue;
                    }
                    let m = theirs[i].points.len();
                    let (u, w) = (
                        theirs[i].points[0].position,
                        theirs[i].points[m - 1].position,
                    );
                    let ends_forward = close(s, u, tolerance) && close(t, w, tolerance);
                    let ends_backward = close(s, w, tolerance) && close(t, u, tolerance);
                    if !ends_forward && !ends_backward {
                        continue;
                    }
                    let diff = if ends_forward {
                        edges_match(&mine, &theirs[i], tolerance)
                    } else {
                        let back = CanonicalEdge {
                            points: reversed(&theirs[i].points),
                            component: theirs[i].component,
                        };
                        edges_match(&mine, &back, tolerance)
                    };
                    match diff {
                        None => {
                            found = Some(i);
                            break 'search;
                        }
                        Some(d) => {
                            nearest_miss.get_or_insert(d);
                        }
                    }
                }
            }
            let Some(i) = found else {
                return Some(format!(
                    "edge from {} to {} ({} bending points, min clearance {}) has no counterpart{}",
                    fmt_point(s),
                    fmt_point(t),
                    n,
                    edge.min_clearance,
                    nearest_miss
                        .map(|d| format!("; the edge with the same ends differs: {d}"))
                        .unwrap_or_default()
                ));
            };
            used[i] = true;
            if !components.link(mine.component, theirs[i].component) {
                return Some(format!(
                    "edge from {} to {} lies in components that do not correspond",
                    fmt_point(s),
                    fmt_point(t)
                ));
            }
        }
        None
    }
}

/// Whether two edges have the same bending points within `tolerance` (in either
/// direction), ignoring near-duplicate interior samples as [`Ecm::canonical_diff`] does.
pub(crate) fn same_geometry(a: &Edge, b: &Edge, tolerance: f64) -> bool {
    // Cheap test first: the ends must match, in one direction or the other.
    let (pa, pb) = (&a.bending_points, &b.bending_points);
    let (a0, a1) = (pa[0].position, pa[pa.len() - 1].position);
    let (b0, b1) = (pb[0].position, pb[pb.len() - 1].position);
    let forward = close(a0, b0, tolerance) && close(a1, b1, tolerance);
    let backward = close(a0, b1, tolerance) && close(a1, b0, tolerance);
    if !forward && !backward {
        return false;
    }
    let (a, b) = (canonical(a, tolerance), canonical(b, tolerance));
    sequence_equal(&a.points, &b.points, tolerance)
        || sequence_equal(&a.points, &reversed(&b.points), tolerance)
}

/// Whether two bending-point sequences agree within `tolerance` (as [`sequence_diff`],
/// without describing the difference).
fn sequence_equal(a: &[BendingPoint], b: &[BendingPoint], tolerance: f64) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            close(x.position, y.position, tolerance)
                && close(x.left, y.left, tolerance)
                && close(x.right, y.right, tolerance)
                && (x.clearance - y.clearance).abs() <= tolerance
        })
}
