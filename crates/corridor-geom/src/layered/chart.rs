//! Charts: groups of layers, joined by connections, whose ground-plane footprints do not
//! overlap. Inside a chart, ground-plane distance and visibility through the connections
//! are plain 2D distance and visibility in the union of its layers (nothing lies above
//! anything else), so one 2D environment, [`LayeredEnvironment::chart_environment`], has
//! the chart's connections open exactly. Connections between charts stay closed.

use super::{ConnectionId, LayerId, LayeredEnvironment, LayeredError};
use crate::{
    orient_grid, Environment, GridPoint, Obstacle, Orientation, Point, Polygon, Ring, Segment,
    SnapGrid,
};
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay::ShapeType;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::core::solver::Solver;
use i_overlay::float::overlay::{FloatOverlay, OverlayOptions};
use i_overlay::i_float::adapter::FloatPointAdapter;
use i_overlay::i_float::float::rect::FloatRect;

/// Layers whose connections among them ([`Chart::open`]) are open in one 2D environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    /// Its layers, in id order.
    pub layers: Vec<LayerId>,
    /// The connections between its layers that are open in its environment, in id order.
    pub open: Vec<ConnectionId>,
}

/// Shapes as `i_overlay` returns them: each an outer contour and its holes.
type Shapes = Vec<Vec<Vec<[f64; 2]>>>;

impl LayeredEnvironment {
    /// Groups the layers into charts (every layer in exactly one): connections are taken
    /// in id order, and one joins the charts of its layers when it lies on both layers'
    /// outer boundaries (no obstacle edge along it), the layers share one snap grid, no
    /// two layers of the merged chart overlap in the ground plane, no obstacle of one
    /// reaches into another's boundary, and their union is one region. A connection
    /// between two layers already in one chart is open when it passes the same first test.
    ///
    /// ```
    /// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
    /// let rect = |x0, x1| Environment::rectangle(Point::new(x0, 0.0), Point::new(x1, 4.0));
    /// let mut world = LayeredEnvironment::new();
    /// let hall = world.add_layer(Layer::new("hall", rect(0.0, 10.0), HeightPlane::flat(0.0)));
    /// let ramp = world.add_layer(Layer::new("ramp", rect(10.0, 15.0), HeightPlane::new(0.2, 0.0, -2.0)));
    /// world.connect(hall, ramp, Segment::new(Point::new(10.0, 1.0), Point::new(10.0, 3.0))).unwrap();
    /// let charts = world.charts();
    /// assert_eq!(charts.len(), 1);
    /// assert_eq!(charts[0].layers, vec![hall, ramp]);
    /// let env = world.chart_environment(&charts[0]).unwrap();
    /// assert!((env.boundary().area() - 60.0).abs() < 1e-9);
    /// ```
    pub fn charts(&self) -> Vec<Chart> {
        let n = self.layer_count();
        let free: Vec<Option<Shapes>> = (0..n).map(|i| self.free_region(i)).collect();
        let mut sets: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
        let mut owner: Vec<usize> = (0..n).collect();
        let mut open: Vec<Vec<ConnectionId>> = vec![Vec::new(); n];
        for (id, c) in self.connections() {
            if !self.openable(c.layers, c.segment, &free) {
                continue;
            }
            let (a, b) = (owner[c.layers[0].0 as usize], owner[c.layers[1].0 as usize]);
            if a == b {
                open[a].push(id);
                continue;
            }
            let fits = sets[a]
                .iter()
                .all(|&i| sets[b].iter().all(|&j| self.apart(i, j, &free)));
            let merged: Vec<usize> = sets[a].iter().chain(&sets[b]).copied().collect();
            if !fits || self.union_of(&merged, &free).is_none_or(|u| u.len() != 1) {
                continue;
            }
            let (keep, gone) = (a.min(b), a.max(b));
            for &i in &sets[gone] {
                owner[i] = keep;
            }
            let moved = std::mem::take(&mut open[gone]);
            open[keep].extend(moved);
            open[keep].push(id);
            sets[keep] = merged;
            sets[gone].clear();
        }
        sets.into_iter()
            .zip(open)
            .filter(|(s, _)| !s.is_empty())
            .map(|(mut s, mut o)| {
                s.sort_unstable();
                o.sort_unstable();
                Chart {
                    layers: s.into_iter().map(|i| LayerId(i as u32)).collect(),
                    open: o,
                }
            })
            .collect()
    }

    /// The 2D environment of a chart: the union of its layers' free spaces (its outer
    /// contour the boundary, its holes polygon obstacles), the thin obstacles (polylines,
    /// points) of its layers, and as thin walls the parts of free-space edges two layers
    /// share that no open connection covers. A one-layer chart is its layer's environment.
    pub fn chart_environment(&self, chart: &Chart) -> Result<Environment, LayeredError> {
        let first = chart.layers.first().copied().unwrap_or(LayerId(0));
        let base = &self.layer(first)?.environment;
        if chart.layers.len() == 1 {
            return Ok(base.clone());
        }
        let members: Vec<usize> = chart.layers.iter().map(|l| l.0 as usize).collect();
        let free: Vec<Option<Shapes>> = (0..self.layer_count())
            .map(|i| members.contains(&i).then(|| self.free_region(i)).flatten())
            .collect();
        let not_one = LayeredError::ChartNotOneRegion { layer: first };
        let union = self.union_of(&members, &free).ok_or(not_one.clone())?;
        let [shape] = union.as_slice() else {
            return Err(not_one);
        };
        let ring =
            |c: &Vec<[f64; 2]>| Ring::new(c.iter().map(|p| Point::new(p[0], p[1])).collect());
        let mut env = Environment::new(ring(&shape[0])).with_snap_grid(base.snap_grid());
        for hole in &shape[1..] {
            env.insert(Obstacle::Polygon(Polygon::simple(ring(hole))));
        }
        for &i in &members {
            for (_, o) in self.layers[i].environment.obstacles() {
                if !matches!(o, Obstacle::Polygon(_)) {
                    env.insert(o.clone());
                }
            }
        }
        let opened: Vec<Segment> = chart
            .open
            .iter()
            .filter_map(|id| self.connection(*id).ok().map(|c| c.segment))
            .collect();
        for (k, &i) in members.iter().enumerate() {
            for &j in &members[k + 1..] {
                for wall in shared_walls(base.snap_grid(), &free[i], &free[j], &opened) {
                    env.insert(Obstacle::segment(wall.a, wall.b));
                }
            }
        }
        Ok(env)
    }

    /// The free space of layer `i` as overlay shapes: its boundary minus its polygon
    /// obstacles (`None` when an obstacle has holes, or the overlay cannot run: the layer
    /// then stays alone in its chart).
    fn free_region(&self, i: usize) -> Option<Shapes> {
        let env = &self.layers[i].environment;
        let mut cuts = Vec::new();
        for (_, o) in env.obstacles() {
            if let Obstacle::Polygon(p) = o {
                if !p.holes.is_empty() {
                    return None;
                }
                cuts.push(contour(&p.exterior));
            }
        }
        self.overlay(&[contour(env.boundary())], &cuts, OverlayRule::Difference)
    }

    /// Whether a connection can be opened by a union: on both layers' free-space
    /// contours, along no thin obstacle, both layers on one snap grid.
    fn openable(&self, layers: [LayerId; 2], segment: Segment, free: &[Option<Shapes>]) -> bool {
        let envs = layers.map(|l| self.layer(l).map(|l| &l.environment));
        let [Ok(one), Ok(two)] = envs else {
            return false;
        };
        one.snap_grid() == two.snap_grid()
            && layers.iter().zip([one, two]).all(|(l, env)| {
                let Some(shapes) = &free[l.0 as usize] else {
                    return false;
                };
                let grid = env.snap_grid();
                let (Ok(a), Ok(b)) = (grid.snap(segment.a), grid.snap(segment.b)) else {
                    return false;
                };
                let thin = env.obstacles().filter_map(|(_, o)| match o {
                    Obstacle::Polyline(v) => Some(v.windows(2).map(|w| Segment::new(w[0], w[1]))),
                    _ => None,
                });
                super::validate::covered_by(shape_edges(shapes), grid, a, b)
                    && !super::validate::overlaps_any(thin.flatten(), grid, a, b)
            })
    }

    /// Whether layers `i` and `j` may share a chart: their free spaces do not overlap
    /// and no thin obstacle of one reaches inside the other's boundary.
    fn apart(&self, i: usize, j: usize, free: &[Option<Shapes>]) -> bool {
        let (Some(fi), Some(fj)) = (&free[i], &free[j]) else {
            return false;
        };
        let (bi, bj) = (
            self.layers[i].environment.boundary(),
            self.layers[j].environment.boundary(),
        );
        let (Some(box_i), Some(box_j)) = (bi.aabb(), bj.aabb()) else {
            return false;
        };
        if !box_i.intersects(&box_j) {
            return true;
        }
        let area = self
            .overlay(&contours(fi), &contours(fj), OverlayRule::Intersect)
            .map_or(f64::INFINITY, |shapes| {
                shapes.iter().flatten().map(|c| contour_area(c)).sum()
            });
        if area > 0.0 {
            return false;
        }
        let intrudes = |env: &Environment, other: &Ring| {
            env.obstacles().any(|(_, o)| match o {
                Obstacle::Polygon(_) => false,
                _ => obstacle_edges(o).any(|e| {
                    [e.a, e.b, (e.a + e.b) * 0.5]
                        .iter()
                        .any(|p| other.contains(*p))
                }),
            })
        };
        !intrudes(&self.layers[i].environment, bj) && !intrudes(&self.layers[j].environment, bi)
    }

    /// The union of the free spaces of some layers (`None`: one has none, or the
    /// overlay cannot run).
    fn union_of(&self, members: &[usize], free: &[Option<Shapes>]) -> Option<Shapes> {
        let mut all = Vec::new();
        for &i in members {
            all.extend(contours(free[i].as_ref()?));
        }
        self.overlay(&all, &[], OverlayRule::Subject)
    }

    /// `i_overlay` on the layers' snap grid (exact for grid points), every contour
    /// counter-clockwise unless it is a hole of an overlay result.
    fn overlay(
        &self,
        subject: &[Vec<[f64; 2]>],
        clip: &[Vec<[f64; 2]>],
        rule: OverlayRule,
    ) -> Option<Shapes> {
        let grid = self.layers.first()?.environment.snap_grid();
        let points = subject.iter().chain(clip).flatten();
        let reach = points.fold(1.0f64, |m, p| m.max(p[0].abs()).max(p[1].abs())) + 1.0;
        let rect = FloatRect::new(-reach, reach, -reach, reach).ok()?;
        let adapter: FloatPointAdapter<[f64; 2], i32> =
            FloatPointAdapter::try_with_scale_and_coordinate_bits(rect, grid.scale(), 29).ok()?;
        let mut options = OverlayOptions::ogc();
        options.clean_result = true;
        let mut overlay = FloatOverlay::new_custom(adapter, options, Solver::default(), 16);
        for c in subject {
            overlay = overlay.unsafe_add_contour(c, ShapeType::Subject);
        }
        for c in clip {
            overlay = overlay.unsafe_add_contour(c, ShapeType::Clip);
        }
        Some(overlay.overlay(rule, FillRule::NonZero))
    }
}

/// A ring as an overlay contour, counter-clockwise (so that overlapping rings add up
/// under the non-zero rule).
fn contour(r: &Ring) -> Vec<[f64; 2]> {
    let ccw = if r.is_counter_clockwise() {
        r.clone()
    } else {
        r.reversed()
    };
    ccw.vertices().iter().map(|p| [p.x, p.y]).collect()
}

/// Every contour of some shapes, as they are (outer contours and holes).
fn contours(shapes: &Shapes) -> Vec<Vec<[f64; 2]>> {
    shapes.iter().flatten().cloned().collect()
}

/// Every edge of every contour of some shapes.
fn shape_edges(shapes: &Shapes) -> impl Iterator<Item = Segment> + '_ {
    shapes.iter().flatten().flat_map(|c| {
        let n = c.len();
        (0..n).map(move |k| {
            let (p, q) = (c[k], c[(k + 1) % n]);
            Segment::new(Point::new(p[0], p[1]), Point::new(q[0], q[1]))
        })
    })
}

/// The parts of free-space edges of two layers that lie on each other (a wall between
/// two floors of a chart) minus the open connections, all on the snap grid.
fn shared_walls(
    grid: SnapGrid,
    fi: &Option<Shapes>,
    fj: &Option<Shapes>,
    opened: &[Segment],
) -> Vec<Segment> {
    let (Some(fi), Some(fj)) = (fi, fj) else {
        return Vec::new();
    };
    let snap = |s: Segment| Some((grid.snap(s.a).ok()?, grid.snap(s.b).ok()?));
    let cuts: Vec<GridSegment> = opened.iter().filter_map(|s| snap(*s)).collect();
    let ej: Vec<GridSegment> = shape_edges(fj).filter_map(snap).collect();
    let mut out = Vec::new();
    for e in shape_edges(fi).filter_map(snap) {
        for f in &ej {
            if let Some(common) = collinear_overlap(e, *f) {
                out.extend(
                    cut_out(common, &cuts)
                        .into_iter()
                        .map(|(a, b)| Segment::new(grid.to_point(a), grid.to_point(b))),
                );
            }
        }
    }
    out
}

/// Every edge of an obstacle (a point is a zero-length edge).
fn obstacle_edges(o: &Obstacle) -> Box<dyn Iterator<Item = Segment> + '_> {
    match o {
        Obstacle::Point(p) => Box::new(std::iter::once(Segment::new(*p, *p))),
        Obstacle::Polyline(v) => Box::new(v.windows(2).map(|w| Segment::new(w[0], w[1]))),
        Obstacle::Polygon(p) => Box::new(p.edges()),
    }
}

/// A segment between grid points.
type GridSegment = (GridPoint, GridPoint);

/// The common part of two grid segments on one line, when it has positive length; its
/// ends are ends of `e` or `f` (exact: orientation on grid points, projections in i128).
fn collinear_overlap(e: GridSegment, f: GridSegment) -> Option<GridSegment> {
    if e.0 == e.1
        || orient_grid(e.0, e.1, f.0) != Orientation::Collinear
        || orient_grid(e.0, e.1, f.1) != Orientation::Collinear
    {
        return None;
    }
    let at = along(e);
    let (f0, f1) = if at(f.0) <= at(f.1) {
        (f.0, f.1)
    } else {
        (f.1, f.0)
    };
    let lo = if at(f0) > 0 { f0 } else { e.0 };
    let hi = if at(f1) < at(e.1) { f1 } else { e.1 };
    (at(lo) < at(hi)).then_some((lo, hi))
}

/// The projection of a grid point on the direction of `e`, from `e`'s start (exact).
fn along(e: GridSegment) -> impl Fn(GridPoint) -> i128 {
    let (dx, dy) = ((e.1.x - e.0.x) as i128, (e.1.y - e.0.y) as i128);
    move |p: GridPoint| (p.x - e.0.x) as i128 * dx + (p.y - e.0.y) as i128 * dy
}

/// The parts of `s` that no segment of `cuts` lying on its line covers.
fn cut_out(s: GridSegment, cuts: &[GridSegment]) -> Vec<GridSegment> {
    let at = along(s);
    let mut covered: Vec<GridSegment> = cuts
        .iter()
        .filter_map(|c| collinear_overlap(s, *c))
        .map(|c| if at(c.0) <= at(c.1) { c } else { (c.1, c.0) })
        .collect();
    covered.sort_by_key(|c| at(c.0));
    let mut out = Vec::new();
    let mut from = s.0;
    for (lo, hi) in covered {
        if at(lo) > at(from) {
            out.push((from, lo));
        }
        if at(hi) > at(from) {
            from = hi;
        }
    }
    if at(s.1) > at(from) {
        out.push((from, s.1));
    }
    out
}

/// Signed area of a contour (positive when counter-clockwise).
fn contour_area(c: &[[f64; 2]]) -> f64 {
    let n = c.len();
    (0..n)
        .map(|k| {
            let (p, q) = (c[k], c[(k + 1) % n]);
            p[0] * q[1] - q[0] * p[1]
        })
        .sum::<f64>()
        * 0.5
}
