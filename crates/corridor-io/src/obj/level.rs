//! What is a 3D level as layers? The assembled result of the pipeline: each layer's
//! free space as a 2D [`Environment`] with its heights, and the connections between
//! layers.

use super::ground::{contour_area, region_area, GroundGrid, Region};
use super::layers::{adjacencies, assign_layers, nodes, Node, GROUND_TOLERANCE};
use super::read::{read_obj, ObjError, TriangleMesh};
use super::walkable::{ground, walkable_pieces, HeightPlane, WalkableOptions};
use corridor_geom::{Environment, EnvironmentError, Obstacle, Point, Polygon, Ring};
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

/// One walkable layer: a connected region of the ground plane whose points have one
/// height each.
#[derive(Clone, Debug)]
pub struct Layer {
    environment: Environment,
    pieces: Vec<(Region, HeightPlane, usize)>,
    area: f64,
}

/// A segment of the ground plane where two layers meet: on both layers' boundaries,
/// with heights within a step of each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Connection {
    /// The two layers, lower index first.
    pub layers: [usize; 2],
    /// The segment's ends.
    pub segment: (Point, Point),
}

/// A level as walkable layers and connections, made by [`read_level`] or
/// [`Level::from_mesh`].
///
/// ```
/// use corridor_io::obj::{read_level, WalkableOptions};
/// // A 4 × 4 floor and, 3 units above its right half, a 2 × 4 balcony.
/// let text = "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nv 2 3 0\nv 4 3 0\nv 4 3 4\nv 2 3 4\n\
///             f 1 4 3 2\nf 5 8 7 6\n";
/// let level = read_level(text, &WalkableOptions::default()).unwrap();
/// assert_eq!(level.layers().len(), 2);
/// // Under the balcony there is 3 units of headroom: the floor stays whole.
/// assert_eq!(level.layers()[0].area(), 16.0);
/// assert_eq!(level.layers()[1].height_at(corridor_geom::Point::new(3.0, 1.0)), Some(3.0));
/// assert!(level.connections().is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct Level {
    layers: Vec<Layer>,
    connections: Vec<Connection>,
    walkable_triangles: usize,
}

/// Reads an OBJ level and splits its walkable ground into layers ([`Level::from_mesh`]).
pub fn read_level(text: &str, options: &WalkableOptions) -> Result<Level, LevelError> {
    Level::from_mesh(&read_obj(text)?, options)
}

impl Level {
    /// The walkable ground of `mesh` (Y up; the ground plane is `(x, z)`, see
    /// [`WalkableOptions`]) as layers whose ground-plane projections do not overlap,
    /// joined by connections.
    pub fn from_mesh(mesh: &TriangleMesh, options: &WalkableOptions) -> Result<Level, LevelError> {
        if let Some((name, value)) = options.out_of_range() {
            return Err(LevelError::BadOption { name, value });
        }
        let feet: Vec<Point> = mesh.vertices().iter().map(|&v| ground(v)).collect();
        let (lo, hi) = feet.iter().fold(
            (Point::splat(f64::MAX), Point::splat(f64::MIN)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        );
        let grid = GroundGrid::new(lo, hi, 1.0 + options.wall_thickness);
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
        let mut layers = Vec::new();
        let mut final_layer = vec![usize::MAX; nodes.len()];
        for group in members {
            let union = grid.union(group.iter().map(|&n| &nodes[n].region));
            let parts = simple_parts(union);
            let single = parts.len() == 1;
            for part in parts {
                let index = layers.len();
                let mut pieces = Vec::new();
                for &n in &group {
                    if final_layer[n] == usize::MAX && (single || inside(&nodes[n], &part)) {
                        final_layer[n] = index;
                        pieces.push((nodes[n].region.clone(), nodes[n].plane, nodes[n].triangle));
                    }
                }
                let environment = environment(&part).map_err(|source| LevelError::Environment {
                    layer: index,
                    source,
                })?;
                layers.push(Layer {
                    environment,
                    area: region_area(&part),
                    pieces,
                });
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
        let connections = by_pair
            .into_iter()
            .flat_map(|(layers, segments)| {
                merge_collinear(segments)
                    .into_iter()
                    .map(move |segment| Connection { layers, segment })
            })
            .collect();
        Ok(Level {
            layers,
            connections,
            walkable_triangles,
        })
    }

    /// The layers.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The connections between layers.
    pub fn connections(&self) -> &[Connection] {
        &self.connections
    }

    /// How many triangles have some walkable ground.
    pub fn walkable_triangle_count(&self) -> usize {
        self.walkable_triangles
    }

    /// The total walkable area (ground plane) over all layers.
    pub fn area(&self) -> f64 {
        self.layers.iter().map(Layer::area).sum()
    }
}

impl Layer {
    /// The layer's free space: its boundary, and its holes as obstacles.
    pub fn environment(&self) -> &Environment {
        &self.environment
    }

    /// The free area in the ground plane.
    pub fn area(&self) -> f64 {
        self.area
    }

    /// How many triangles (pieces of triangles) the layer is made of.
    pub fn triangle_count(&self) -> usize {
        self.pieces.len()
    }

    /// The mesh triangles the layer is made of.
    pub fn triangles(&self) -> impl Iterator<Item = usize> + '_ {
        self.pieces.iter().map(|p| p.2)
    }

    /// The height of the layer over ground point `p`: that of the triangle under it
    /// (heights are kept per triangle, exactly as the mesh has them); `None` when `p`
    /// is not on the layer (farther than a tolerance from every piece).
    pub fn height_at(&self, p: Point) -> Option<f64> {
        let mut best: Option<(f64, f64)> = None;
        for (region, plane, _) in &self.pieces {
            let d = region_distance(region, p);
            if d <= GROUND_TOLERANCE * 10.0 && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, plane.height(p)));
                if d == 0.0 {
                    break;
                }
            }
        }
        best.map(|b| b.1)
    }

    /// The least-squares plane through the layer's triangle corners, weighted by area,
    /// and the largest height error it makes at a corner: what a model with one plane
    /// per layer loses (zero for a flat floor or a straight ramp).
    pub fn fitted_plane(&self) -> (HeightPlane, f64) {
        let mut samples: Vec<(Point, f64, f64)> = Vec::new();
        for (region, plane, _) in &self.pieces {
            let w = region_area(region).max(0.0);
            for c in region.iter().flatten().flatten() {
                let p = Point::new(c[0], c[1]);
                samples.push((p, plane.height(p), w));
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
        let fit = HeightPlane {
            a,
            b,
            c: mean - a * centre.x - b * centre.y,
        };
        let error = samples
            .iter()
            .map(|&(p, z, _)| (fit.height(p) - z).abs())
            .fold(0.0, f64::max);
        (fit, error)
    }
}

/// Whether node `n` lies in `part` (a shape of its layer's union): all its corners
/// do, within the tolerance (where parts touch at a point, only one holds them all).
fn inside(n: &Node, part: &Region) -> bool {
    n.region
        .iter()
        .flatten()
        .flatten()
        .all(|c| region_distance(part, Point::new(c[0], c[1])) <= GROUND_TOLERANCE)
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
fn simple_parts(union: Region) -> Vec<Region> {
    let mut outers: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut holes: Vec<Vec<[f64; 2]>> = Vec::new();
    for contour in union.into_iter().flatten() {
        for ring in split_pinches(contour) {
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
    let mut loops = Vec::new();
    let mut stack: Vec<[f64; 2]> = Vec::new();
    for p in contour {
        if let Some(at) = stack.iter().position(|&q| q == p) {
            loops.push(stack.split_off(at));
        }
        stack.push(p);
    }
    loops.push(stack);
    loops
}

/// The environment of one shape: its outer contour is the boundary, its holes are
/// polygon obstacles.
fn environment(part: &Region) -> Result<Environment, EnvironmentError> {
    let ring = |c: &Vec<[f64; 2]>| Ring::new(c.iter().map(|p| Point::new(p[0], p[1])).collect());
    let shape = &part[0];
    let mut env = Environment::new(ring(&shape[0]));
    for hole in &shape[1..] {
        env.insert(Obstacle::Polygon(Polygon::simple(ring(hole).reversed())));
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
