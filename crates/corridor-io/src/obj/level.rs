//! What is a 3D level as layers? The assembled result of the pipeline: a
//! [`LayeredEnvironment`] (each layer's free space as a 2D environment with a fitted
//! height plane, the connections between layers) and, per layer, the exact heights of
//! the triangles it is made of.

use super::ground::{contour_area, region_area, GroundGrid, Region};
use super::joints::{
    insert_points, ring_edges, rings_of, shared_runs, snap_rings, stations, Rings,
};
use super::layers::{adjacencies, assign_layers, nodes, Node, GROUND_TOLERANCE};
use super::read::{read_obj, ObjError, TriangleMesh};
use super::walkable::{ground, walkable_pieces, WalkableOptions};
use corridor_geom::{
    Environment, EnvironmentError, HeightField, HeightPatch, HeightPlane, Layer, LayerId,
    LayeredEnvironment, LayeredError, Obstacle, Point, Polygon, Ring, Segment,
};
use std::collections::BTreeMap;

/// Why a level could not be made into layers.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LevelError {
    /// The OBJ file is unreadable.
    #[error(transparent)]
    Obj(#[from] ObjError),
    /// A [`WalkableOptions`] field is out of range (negative, NaN, a slope of 90° or
    /// more, a wall thickness of zero).
    #[error("walkable option {name} = {value} is out of range")]
    BadOption {
        /// The field.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// The level reaches farther from the origin than the layers' snap grid can hold
    /// (about 100 km at 10,000 steps per unit).
    #[error("the level reaches {extent} units from the origin, too far for the snap grid")]
    TooLarge {
        /// The largest ground coordinate (absolute).
        extent: f64,
    },
    /// No triangle has walkable ground.
    #[error("nothing in the level is walkable with these options")]
    NothingWalkable,
    /// A layer's free space is not a valid environment (which should not happen; the
    /// error says why).
    #[error("layer {layer}: {source}")]
    Environment {
        /// The layer.
        layer: usize,
        /// What is wrong.
        source: EnvironmentError,
    },
}

/// The surface of one layer: the triangles (walkable parts of them) it is made of,
/// each with its own height plane, exactly as in the mesh.
#[derive(Clone, Debug)]
pub struct LayerSurface {
    pieces: Vec<(Region, HeightPlane, usize)>,
    area: f64,
    plane_error: f64,
}

/// A level as walkable layers joined by connections, made by [`read_level`] or
/// [`Level::from_mesh`]. Ground-plane point `(x, y)` is the OBJ's `(x, z)`; heights
/// are the OBJ's `y`.
///
/// ```
/// use corridor_io::obj::{read_level, WalkableOptions};
/// // A 4 × 4 floor and, 3 units above its right half, a 2 × 4 balcony.
/// let text = "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nv 2 3 0\nv 4 3 0\nv 4 3 4\nv 2 3 4\n\
///             f 1 4 3 2\nf 5 8 7 6\n";
/// let level = read_level(text, &WalkableOptions::default()).unwrap();
/// assert_eq!(level.layered().layer_count(), 2);
/// // Under the balcony there is 3 units of headroom: the floor stays whole.
/// assert_eq!(level.surfaces()[0].area(), 16.0);
/// assert_eq!(level.surfaces()[1].height_at(corridor_geom::Point::new(3.0, 1.0)), Some(3.0));
/// assert_eq!(level.layered().connections().len(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Level {
    layered: LayeredEnvironment,
    surfaces: Vec<LayerSurface>,
    walkable_triangles: usize,
    rejected: Vec<LayeredError>,
}

/// Reads an OBJ level and splits its walkable ground into layers ([`Level::from_mesh`]).
pub fn read_level(text: &str, options: &WalkableOptions) -> Result<Level, LevelError> {
    Level::from_mesh(&read_obj(text)?, options)
}

impl Level {
    /// The walkable ground of `mesh` (Y up) as layers whose ground-plane projections do
    /// not overlap, joined by connections; every connection passes the model's exact
    /// check ([`LayeredEnvironment::connect`]).
    pub fn from_mesh(mesh: &TriangleMesh, options: &WalkableOptions) -> Result<Level, LevelError> {
        if let Some((name, value)) = options.out_of_range() {
            return Err(LevelError::BadOption { name, value });
        }
        let feet: Vec<Point> = mesh.vertices().iter().map(|&v| ground(v)).collect();
        let (lo, hi) = feet.iter().fold(
            (Point::splat(f64::MAX), Point::splat(f64::MIN)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        );
        let snap = corridor_geom::SnapGrid::default();
        let grid = GroundGrid::new(lo, hi, 1.0 + options.wall_thickness, snap).ok_or(
            LevelError::TooLarge {
                extent: lo.abs().max(hi.abs()).max_element(),
            },
        )?;
        let pieces = walkable_pieces(mesh, options, &grid);
        let walkable_triangles = pieces.len();
        let nodes = nodes(pieces);
        if nodes.is_empty() {
            return Err(LevelError::NothingWalkable);
        }
        let adjacent = adjacencies(&nodes, options.max_climb);
        let layer_of = assign_layers(&nodes, &adjacent, &grid);
        let count = layer_of.iter().max().map_or(0, |&l| l + 1);
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (n, &l) in layer_of.iter().enumerate() {
            members[l].push(n);
        }
        // A layer whose union falls apart (pieces that touch at a point only) becomes
        // one layer per part.
        let mut parts: Vec<Region> = Vec::new();
        let mut surfaces = Vec::new();
        let mut final_layer = vec![usize::MAX; nodes.len()];
        for group in members {
            let union = grid.union(group.iter().map(|&n| &nodes[n].region));
            let split = simple_parts(union);
            // Each node goes to the part nearest to its corners (the one holding it).
            let owner: Vec<usize> = group
                .iter()
                .map(|&n| {
                    (0..split.len())
                        .min_by(|&a, &b| {
                            distance(&nodes[n], &split[a])
                                .total_cmp(&distance(&nodes[n], &split[b]))
                        })
                        .unwrap_or(0)
                })
                .collect();
            for (k, part) in split.into_iter().enumerate() {
                if region_area(&part) < options.min_layer_area {
                    continue;
                }
                let index = parts.len();
                let mut pieces = Vec::new();
                for (&n, _) in group.iter().zip(&owner).filter(|(_, &o)| o == k) {
                    final_layer[n] = index;
                    pieces.push((nodes[n].region.clone(), nodes[n].plane, nodes[n].triangle));
                }
                surfaces.push(LayerSurface {
                    area: region_area(&part),
                    pieces,
                    plane_error: 0.0,
                });
                parts.push(part);
            }
        }
        let mut by_pair: BTreeMap<[usize; 2], Vec<(Point, Point)>> = BTreeMap::new();
        for a in &adjacent {
            let [la, lb] = a.nodes.map(|n| final_layer[n]);
            if la != lb && la != usize::MAX && lb != usize::MAX {
                by_pair
                    .entry([la.min(lb), la.max(lb)])
                    .or_default()
                    .push(a.segment);
            }
        }
        // Both layers get the same vertices along every connection, then everything
        // is snapped to the layers' grid.
        let mut rings: Vec<Rings> = parts.iter().map(rings_of).collect();
        let mut joints = Vec::new();
        for (pair, segments) in by_pair {
            for segment in merge_collinear(segments) {
                let points = stations(segment, &rings[pair[0]], &rings[pair[1]]);
                for l in pair {
                    insert_points(&mut rings[l], &points);
                }
                joints.push((pair, points));
            }
        }
        let mut layered = LayeredEnvironment::new();
        for (index, (r, surface)) in rings.iter().zip(&mut surfaces).enumerate() {
            // Points inserted for the connections may bend a ring by up to the
            // tolerance; where that makes it invalid, the layer keeps its rings as
            // they were (and its connections are checked, and maybe refused, as such).
            let environment = environment(&snap_rings(r, snap))
                .or_else(|_| environment(&snap_rings(&rings_of(&parts[index]), snap)))
                .map_err(|source| LevelError::Environment {
                    layer: index,
                    source,
                })?;
            let (plane, error) = surface.fitted_plane();
            surface.plane_error = error;
            let mut layer = Layer::new(format!("layer {index}"), environment, plane);
            // Where one plane is not exact, 3D points take the triangles' heights.
            if let Some(field) = surface.height_field().filter(|_| error > 0.0) {
                layer = layer.with_surface(field);
            }
            layered.add_layer(layer);
        }
        let edges: Vec<Vec<(Point, Point)>> = layered
            .layers()
            .map(|(_, layer)| ring_edges(&layer.environment))
            .collect();
        let mut rejected = Vec::new();
        for (pair, points) in joints {
            let (Some(&start), Some(&end)) = (points.first(), points.last()) else {
                continue;
            };
            for (a, b) in shared_runs((start, end), &edges[pair[0]], &edges[pair[1]], snap) {
                let [first, second] = pair.map(|l| LayerId(l as u32));
                if let Err(e) = layered.connect(first, second, Segment::new(a, b)) {
                    rejected.push(e);
                }
            }
        }
        Ok(Level {
            layered,
            surfaces,
            walkable_triangles,
            rejected,
        })
    }

    /// The layers and connections.
    pub fn layered(&self) -> &LayeredEnvironment {
        &self.layered
    }

    /// The layers and connections, without the surfaces.
    pub fn into_layered(self) -> LayeredEnvironment {
        self.layered
    }

    /// Each layer's surface, indexed like the layers ([`LayerId`]`.0`).
    pub fn surfaces(&self) -> &[LayerSurface] {
        &self.surfaces
    }

    /// How many triangles have some walkable ground.
    pub fn walkable_triangle_count(&self) -> usize {
        self.walkable_triangles
    }

    /// Joints between layers that the model's exact check refused (both layers free on
    /// the same side of the segment, or not on a boundary after snapping), with the
    /// reason; they are left out of [`Level::layered`]. Not expected: a level where
    /// this is not empty is worth a look.
    pub fn rejected_connections(&self) -> &[LayeredError] {
        &self.rejected
    }

    /// The total walkable area (ground plane) over all layers.
    pub fn area(&self) -> f64 {
        self.surfaces.iter().map(LayerSurface::area).sum()
    }
}

impl LayerSurface {
    /// The free area in the ground plane (before snapping to the layer's grid).
    pub fn area(&self) -> f64 {
        self.area
    }

    /// How many pieces of triangles the layer is made of.
    pub fn triangle_count(&self) -> usize {
        self.pieces.len()
    }

    /// The mesh triangles the layer is made of.
    pub fn triangles(&self) -> impl Iterator<Item = usize> + '_ {
        self.pieces.iter().map(|p| p.2)
    }

    /// The largest height difference, at a triangle corner, between the layer's
    /// fitted plane (the model's [`Layer::height`]) and the mesh: zero for a flat floor
    /// or a straight ramp, what one plane per layer loses on terrain.
    pub fn plane_error(&self) -> f64 {
        self.plane_error
    }

    /// The height of the layer over ground point `p`: that of the triangle under it,
    /// exactly as in the mesh; `None` when `p` is not on the layer (farther than a
    /// tolerance from every piece).
    pub fn height_at(&self, p: Point) -> Option<f64> {
        let mut best: Option<(f64, f64)> = None;
        for (region, plane, _) in &self.pieces {
            let d = region_distance(region, p);
            if d <= GROUND_TOLERANCE * 10.0 && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, plane.height_at(p)));
                if d == 0.0 {
                    break;
                }
            }
        }
        best.map(|b| b.1)
    }

    /// The pieces as a [`HeightField`]: each piece's contours on its triangle's plane
    /// (`None` if a coordinate is not finite).
    pub fn height_field(&self) -> Option<HeightField> {
        let patches = self
            .pieces
            .iter()
            .map(|(region, plane, _)| HeightPatch {
                rings: region
                    .iter()
                    .flatten()
                    .map(|c| c.iter().map(|q| Point::new(q[0], q[1])).collect())
                    .collect(),
                plane: *plane,
            })
            .filter(|p| p.rings.iter().all(|r| r.len() >= 3) && !p.rings.is_empty())
            .collect();
        HeightField::new(patches).ok()
    }

    /// The least-squares plane through the pieces' corners (weighted by area) and the
    /// largest height error it makes at a corner.
    fn fitted_plane(&self) -> (HeightPlane, f64) {
        let mut samples: Vec<(Point, f64, f64)> = Vec::new();
        for (region, plane, _) in &self.pieces {
            let w = region_area(region).max(0.0);
            for c in region.iter().flatten().flatten() {
                let p = Point::new(c[0], c[1]);
                samples.push((p, plane.height_at(p), w));
            }
        }
        let total: f64 = samples
            .iter()
            .map(|s| s.2)
            .sum::<f64>()
            .max(f64::MIN_POSITIVE);
        let centre = samples.iter().map(|s| s.0 * s.2).sum::<Point>() / total;
        let mean = samples.iter().map(|s| s.1 * s.2).sum::<f64>() / total;
        // Normal equations of z - mean = a (x - cx) + b (y - cy), centred so that they
        // stay well conditioned far from the origin.
        let (mut sxx, mut sxy, mut syy, mut sxz, mut syz) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(p, z, w) in &samples {
            let (d, e) = (p - centre, z - mean);
            sxx += w * d.x * d.x;
            sxy += w * d.x * d.y;
            syy += w * d.y * d.y;
            sxz += w * d.x * e;
            syz += w * d.y * e;
        }
        let det = sxx * syy - sxy * sxy;
        let (a, b) = if det > 1e-12 * (sxx * syy).max(f64::MIN_POSITIVE) {
            ((sxz * syy - syz * sxy) / det, (syz * sxx - sxz * sxy) / det)
        } else {
            (0.0, 0.0)
        };
        let fit = HeightPlane::new(a, b, mean - a * centre.x - b * centre.y);
        let error = samples
            .iter()
            .map(|&(p, z, _)| (fit.height_at(p) - z).abs())
            .fold(0.0, f64::max);
        (fit, error)
    }
}

/// How far node `n`'s corners are from `part` at most (zero when it lies inside).
fn distance(n: &Node, part: &Region) -> f64 {
    n.region
        .iter()
        .flatten()
        .flatten()
        .map(|c| region_distance(part, Point::new(c[0], c[1])))
        .fold(0.0, f64::max)
}

/// Distance from `p` to a region (zero inside).
pub(crate) fn region_distance(region: &Region, p: Point) -> f64 {
    let mut winding = 0i32;
    let mut nearest = f64::MAX;
    for (a, b) in super::layers::edges(region) {
        nearest = nearest.min(corridor_geom::Segment::new(a, b).distance(p));
        if a.y <= p.y {
            if b.y > p.y && (b - a).perp_dot(p - a) > 0.0 {
                winding += 1;
            }
        } else if b.y <= p.y && (b - a).perp_dot(p - a) < 0.0 {
            winding -= 1;
        }
    }
    if winding != 0 {
        0.0
    } else {
        nearest
    }
}

/// The parts of a union as shapes whose contours are simple: a contour that passes
/// twice through a point is split there into loops; loops around walkable ground
/// (counter-clockwise) are outer contours, the others holes, each given to the
/// smallest outer contour around it.
/// `ring` without cracks: where two triangles do not quite meet (one was cut, and its
/// edge rounded, the other not), the union of a layer has a sliver a grid step or two
/// wide going into the free space, which would stand as a wall across a floor that the
/// mesh shows open. A needle, a vertex where the ring turns back on itself within
/// `width`, goes, repeatedly, until the crack is closed up.
fn without_cracks(mut ring: Vec<[f64; 2]>, width: f64) -> Vec<[f64; 2]> {
    let at = |ring: &[[f64; 2]], k: usize| Point::new(ring[k][0], ring[k][1]);
    let (mut k, mut unchanged) = (0, 0);
    while ring.len() > 3 && unchanged < ring.len() {
        let n = ring.len();
        let v = at(&ring, k);
        let (da, db) = (at(&ring, (k + n - 1) % n) - v, at(&ring, (k + 1) % n) - v);
        let far = da.length().max(db.length());
        let needle =
            da.length() == 0.0 || (da.dot(db) > 0.0 && da.perp_dot(db).abs() <= width * far);
        if needle {
            ring.remove(k);
            // The vertex before may have become a needle in turn.
            k = if k == 0 { ring.len() - 1 } else { k - 1 };
            unchanged = 0;
        } else {
            k = (k + 1) % n;
            unchanged += 1;
        }
    }
    ring
}

fn simple_parts(union: Region) -> Vec<Region> {
    let mut outers: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut holes: Vec<Vec<[f64; 2]>> = Vec::new();
    for contour in union.into_iter().flatten() {
        for ring in split_pinches(without_cracks(contour, 2.0 * GROUND_TOLERANCE)) {
            if ring.len() < 3 {
                continue;
            }
            if contour_area(&ring) > 0.0 {
                outers.push(ring);
            } else {
                holes.push(ring);
            }
        }
    }
    outers.sort_by(|a, b| contour_area(a).total_cmp(&contour_area(b)));
    let mut parts: Vec<Vec<Vec<[f64; 2]>>> = outers.into_iter().map(|o| vec![o]).collect();
    for hole in holes {
        let mids: Vec<Point> = (0..hole.len())
            .map(|k| {
                let (p, q) = (hole[k], hole[(k + 1) % hole.len()]);
                Point::new(p[0] + q[0], p[1] + q[1]) * 0.5
            })
            .collect();
        let owner = parts.iter().position(|part| {
            let outer = vec![vec![part[0].clone()]];
            mids.iter()
                .all(|&m| region_distance(&outer, m) <= GROUND_TOLERANCE)
        });
        if let Some(k) = owner {
            parts[k].push(hole);
        }
    }
    parts.into_iter().map(|shape| vec![shape]).collect()
}

/// A closed contour split into loops that visit no point twice.
fn split_pinches(contour: Vec<[f64; 2]>) -> Vec<Vec<[f64; 2]>> {
    split_pinches_by(contour, |p| [p[0].to_bits(), p[1].to_bits()])
}

/// A closed contour split into loops in which no two points have the same key.
fn split_pinches_by<P: Copy>(contour: Vec<P>, key: impl Fn(&P) -> [u64; 2]) -> Vec<Vec<P>> {
    let mut loops = Vec::new();
    let mut stack: Vec<P> = Vec::new();
    let mut at: std::collections::HashMap<[u64; 2], usize> = std::collections::HashMap::new();
    for p in contour {
        if let Some(&i) = at.get(&key(&p)) {
            let cycle = stack.split_off(i);
            for q in &cycle {
                at.remove(&key(q));
            }
            loops.push(cycle);
        }
        at.insert(key(&p), stack.len());
        stack.push(p);
    }
    loops.push(stack);
    loops
}

/// The environment of one layer: its outer ring is the boundary, the other rings
/// (holes of the free space) are polygon obstacles.
fn environment(rings: &[Vec<Point>]) -> Result<Environment, EnvironmentError> {
    let area = |r: &Vec<Point>| Ring::new(r.clone()).signed_area();
    // Snapping may make a ring pass twice through a grid point: split it there. The
    // outer ring keeps its largest loop (any other is a sliver that snapping cut off).
    let key = |p: &Point| [p.x.to_bits(), p.y.to_bits()];
    let loops = |r: &Vec<Point>| split_pinches_by(r.clone(), key);
    let outer = loops(&rings[0])
        .into_iter()
        .max_by(|a, b| area(a).total_cmp(&area(b)))
        .unwrap_or_default();
    let mut env = Environment::new(Ring::new(outer));
    for hole in rings[1..].iter().flat_map(loops) {
        if hole.len() >= 3 && area(&hole) != 0.0 {
            let ring = Ring::new(hole);
            let ring = if ring.signed_area() < 0.0 {
                ring.reversed()
            } else {
                ring
            };
            env.insert(Obstacle::Polygon(Polygon::simple(ring)));
        }
    }
    env.validate()?;
    Ok(env)
}

/// Joins segments that continue each other on one line.
fn merge_collinear(mut segments: Vec<(Point, Point)>) -> Vec<(Point, Point)> {
    let mut merged = true;
    while merged {
        merged = false;
        'outer: for i in 0..segments.len() {
            for j in i + 1..segments.len() {
                let (a, b) = (segments[i], segments[j]);
                let whole = [a.0, a.1, b.0, b.1];
                let (p, q) = farthest_pair(&whole);
                let on_line = whole
                    .iter()
                    .all(|&x| corridor_geom::Segment::new(p, q).distance(x) <= GROUND_TOLERANCE);
                let touching = [a.0, a.1].iter().any(|&x| {
                    [b.0, b.1]
                        .iter()
                        .any(|&y| x.distance(y) <= GROUND_TOLERANCE)
                });
                if on_line && touching {
                    segments[i] = (p, q);
                    segments.swap_remove(j);
                    merged = true;
                    break 'outer;
                }
            }
        }
    }
    segments
}

fn farthest_pair(points: &[Point; 4]) -> (Point, Point) {
    let mut best = (points[0], points[1]);
    for i in 0..4 {
        for j in i + 1..4 {
            if points[i].distance(points[j]) > best.0.distance(best.1) {
                best = (points[i], points[j]);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::without_cracks;

    #[test]
    fn a_crack_closes_and_a_thin_wall_stays() {
        // A 4 × 4 square whose right side has a crack one grid step (1e-4) wide at its
        // mouth running 2 units in, to a point.
        let cracked = vec![
            [0.0, 0.0],
            [4.0, 0.0],
            [4.0, 2.0],
            [2.0, 2.00005],
            [4.0, 2.0001],
            [4.0, 4.0],
            [0.0, 4.0],
        ];
        let closed = without_cracks(cracked, 4e-4);
        assert_eq!(closed.len(), 6);
        assert!(!closed.contains(&[2.0, 2.00005]));
        // A notch 0.01 wide (a wall strip's width) is kept.
        let notched = vec![
            [0.0, 0.0],
            [4.0, 0.0],
            [4.0, 2.0],
            [2.0, 2.0],
            [2.0, 2.01],
            [4.0, 2.01],
            [4.0, 4.0],
            [0.0, 4.0],
        ];
        assert_eq!(without_cracks(notched.clone(), 4e-4), notched);
    }
}
