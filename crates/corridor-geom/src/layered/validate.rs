//! Is a layered environment usable? Every layer valid with a finite height plane, and every
//! connection a proper segment on both layers' free-space boundary, with the two layers'
//! free space on opposite sides of it (decided exactly on the layers' snap grid).

use super::{Connection, ConnectionId, LayerId, LayeredEnvironment, LayeredError};
use crate::{orient_grid, Environment, GridPoint, Obstacle, Orientation, Point, Segment, SnapGrid};

impl LayeredEnvironment {
    /// Checks every layer and every connection; the first problem found is returned.
    pub fn validate(&self) -> Result<(), LayeredError> {
        for (id, layer) in self.layers() {
            layer
                .environment
                .validate()
                .map_err(|source| LayeredError::Layer { layer: id, source })?;
            if !layer.height.is_finite() {
                let h = layer.height;
                return Err(LayeredError::NonFiniteHeight {
                    layer: id,
                    a: h.a,
                    b: h.b,
                    c: h.c,
                });
            }
        }
        for (id, connection) in self.connections() {
            self.check_connection(id, connection)?;
        }
        Ok(())
    }

    /// The side of connection `id` (seen from its segment's `a` towards `b`) where `layer`
    /// is free: [`Orientation::CounterClockwise`] for the left, `Clockwise` for the right.
    ///
    /// ```
    /// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Orientation, Point, Segment};
    /// let mut world = LayeredEnvironment::new();
    /// let west = world.add_layer(Layer::new("west",
    ///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(1.0, 1.0)), HeightPlane::flat(0.0)));
    /// let east = world.add_layer(Layer::new("east",
    ///     Environment::rectangle(Point::new(1.0, 0.0), Point::new(2.0, 1.0)), HeightPlane::flat(0.0)));
    /// let c = world.connect(west, east, Segment::new(Point::new(1.0, 0.0), Point::new(1.0, 1.0))).unwrap();
    /// assert_eq!(world.free_side(c, west).unwrap(), Orientation::CounterClockwise);
    /// assert_eq!(world.free_side(c, east).unwrap(), Orientation::Clockwise);
    /// ```
    pub fn free_side(&self, id: ConnectionId, layer: LayerId) -> Result<Orientation, LayeredError> {
        let connection = self.connection(id)?;
        if !connection.layers.contains(&layer) {
            return Err(LayeredError::UnknownLayer {
                layer,
                count: self.layer_count(),
            });
        }
        self.side_on(id, connection, layer)
    }

    pub(super) fn check_connection(
        &self,
        id: ConnectionId,
        connection: &Connection,
    ) -> Result<(), LayeredError> {
        let [first, second] = connection.layers;
        for layer in [first, second] {
            self.layer(layer)?;
        }
        if first == second {
            return Err(LayeredError::SameLayer {
                connection: id,
                layer: first,
            });
        }
        for p in [connection.segment.a, connection.segment.b] {
            if !p.is_finite() {
                return Err(LayeredError::NonFiniteConnection {
                    connection: id,
                    x: p.x,
                    y: p.y,
                });
            }
        }
        let one = self.side_on(id, connection, first)?;
        let two = self.side_on(id, connection, second)?;
        if one == two {
            return Err(LayeredError::SameSide {
                connection: id,
                first,
                second,
            });
        }
        Ok(())
    }

    /// The free side of `layer` at the connection, after checking that the connection lies
    /// on the layer's boundary and the layer is free on exactly one side.
    fn side_on(
        &self,
        id: ConnectionId,
        connection: &Connection,
        layer: LayerId,
    ) -> Result<Orientation, LayeredError> {
        let env = &self.layer(layer)?.environment;
        let grid = env.snap_grid();
        let degenerate = LayeredError::DegenerateConnection { connection: id };
        let a = grid
            .snap(connection.segment.a)
            .map_err(|_| degenerate.clone())?;
        let b = grid
            .snap(connection.segment.b)
            .map_err(|_| degenerate.clone())?;
        if a == b {
            return Err(degenerate);
        }
        if !covered_by_edges(env, grid, a, b) {
            return Err(LayeredError::NotOnBoundary {
                connection: id,
                layer,
            });
        }
        // Probe one grid step off the middle on each side, at every quarter of the
        // segment, so that a vertex of the layer's boundary at the middle does not fool
        // the test.
        let (pa, pb) = (grid.to_point(a), grid.to_point(b));
        let along = pb - pa;
        let normal = along.perp() / along.length() / grid.scale();
        let sides = [1.0, -1.0].map(|sign| {
            [0.25, 0.5, 0.75]
                .iter()
                .all(|t| is_free(env, pa + along * *t + normal * sign))
        });
        match sides {
            [true, false] => Ok(Orientation::CounterClockwise),
            [false, true] => Ok(Orientation::Clockwise),
            [left, right] => Err(LayeredError::NoEntrySide {
                connection: id,
                layer,
                free_sides: left as u8 + right as u8,
            }),
        }
    }
}

/// Whether the grid segment `a`–`b` is covered by collinear edges of the boundary and the
/// obstacles (exact: orientation on grid points, projections in i128).
fn covered_by_edges(env: &Environment, grid: SnapGrid, a: GridPoint, b: GridPoint) -> bool {
    let obstacles = env.obstacles().flat_map(|(_, o)| -> Vec<Segment> {
        match o {
            Obstacle::Point(_) => Vec::new(),
            Obstacle::Polyline(v) => v.windows(2).map(|w| Segment::new(w[0], w[1])).collect(),
            Obstacle::Polygon(poly) => poly.edges().collect(),
        }
    });
    covered_by(env.boundary().edges().chain(obstacles), grid, a, b)
}

/// The intervals of the grid segment `a`–`b` (as projections on it, in i128, from 0 to
/// its squared length) that collinear `edges` cover, sorted; with the squared length.
fn collinear_intervals(
    edges: impl Iterator<Item = Segment>,
    grid: SnapGrid,
    a: GridPoint,
    b: GridPoint,
) -> (Vec<(i128, i128)>, i128) {
    let (dx, dy) = ((b.x - a.x) as i128, (b.y - a.y) as i128);
    let project = |p: GridPoint| (p.x - a.x) as i128 * dx + (p.y - a.y) as i128 * dy;
    let mut intervals = Vec::new();
    for e in edges {
        let (Ok(p), Ok(q)) = (grid.snap(e.a), grid.snap(e.b)) else {
            continue;
        };
        if orient_grid(a, b, p) == Orientation::Collinear
            && orient_grid(a, b, q) == Orientation::Collinear
        {
            let (s, t) = (project(p), project(q));
            intervals.push((s.min(t), s.max(t)));
        }
    }
    intervals.sort_unstable();
    (intervals, dx * dx + dy * dy)
}

/// Whether collinear `edges` cover the grid segment `a`–`b` (exact).
pub(super) fn covered_by(
    edges: impl Iterator<Item = Segment>,
    grid: SnapGrid,
    a: GridPoint,
    b: GridPoint,
) -> bool {
    let (intervals, length2) = collinear_intervals(edges, grid, a, b);
    let mut reached = 0i128;
    for (s, t) in intervals {
        if s > reached {
            break;
        }
        reached = reached.max(t);
    }
    reached >= length2
}

/// Whether some of `edges` runs along a part of positive length of the grid segment
/// `a`–`b` (exact).
pub(super) fn overlaps_any(
    edges: impl Iterator<Item = Segment>,
    grid: SnapGrid,
    a: GridPoint,
    b: GridPoint,
) -> bool {
    let (intervals, length2) = collinear_intervals(edges, grid, a, b);
    intervals.iter().any(|&(s, t)| s.max(0) < t.min(length2))
}

/// Whether `p` is in the layer's free space: inside the boundary, in no polygon obstacle
/// and on no polyline or point obstacle.
fn is_free(env: &Environment, p: Point) -> bool {
    env.boundary().contains(p)
        && !env.obstacles().any(|(_, o)| match o {
            Obstacle::Point(q) => *q == p,
            Obstacle::Polyline(v) => v.windows(2).any(|w| crate::point_on_segment(p, w[0], w[1])),
            Obstacle::Polygon(poly) => poly.contains_or_touches(p),
        })
}
