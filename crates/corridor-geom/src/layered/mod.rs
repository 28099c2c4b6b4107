//! The multi-layered (2.5D) environment a user describes: 2D layers, each an
//! [`Environment`] with a height plane for 3D output, joined by connections, each a
//! segment on the boundary of two layers' free space ([`LayeredEnvironment`]).
//!
//! As in the ECM papers (van Toll, Cook and Geraerts), all distances are measured in the
//! common ground plane (x, y); a path moves from one layer to another only by crossing a
//! connection, and a point sees another across connections. Layers may overlap in the
//! ground plane (two floors of one building); heights only place paths in 3D. What can be
//! wrong is in `error`, the checks in `validate`.

mod chart;
mod error;
mod height;
mod validate;

pub use chart::Chart;
pub use error::LayeredError;
pub use height::{HeightField, HeightFieldError, HeightPatch};

use crate::{Environment, Point, Segment};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use std::fmt;

/// A layer's index in its [`LayeredEnvironment`] (layers are never removed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct LayerId(pub u32);

impl fmt::Display for LayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L{}", self.0)
    }
}

/// A connection's index in its [`LayeredEnvironment`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct ConnectionId(pub u32);

impl fmt::Display for ConnectionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "C{}", self.0)
    }
}

/// The height of a layer: the plane z = a·x + b·y + c (flat floors have a = b = 0;
/// stairs and ramps are sloped). Heights never enter distances, only 3D output.
///
/// ```
/// use corridor_geom::{HeightPlane, Point};
/// let ramp = HeightPlane::new(0.5, 0.0, 1.0);
/// assert_eq!(ramp.height_at(Point::new(2.0, 7.0)), 2.0);
/// assert_eq!(HeightPlane::flat(3.0).height_at(Point::new(9.0, 9.0)), 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct HeightPlane {
    /// Slope in x.
    pub a: f64,
    /// Slope in y.
    pub b: f64,
    /// Height at the origin.
    pub c: f64,
}

impl HeightPlane {
    /// The plane z = a·x + b·y + c.
    pub const fn new(a: f64, b: f64, c: f64) -> Self {
        HeightPlane { a, b, c }
    }

    /// The horizontal plane z = `height`.
    pub const fn flat(height: f64) -> Self {
        HeightPlane::new(0.0, 0.0, height)
    }

    /// The plane through three points (x, y, z) whose ground projections are not
    /// collinear; `None` when they are.
    ///
    /// ```
    /// use corridor_geom::HeightPlane;
    /// use glam::DVec3;
    /// let p = HeightPlane::through(
    ///     DVec3::new(0.0, 0.0, 1.0), DVec3::new(2.0, 0.0, 2.0), DVec3::new(0.0, 1.0, 1.0),
    /// ).unwrap();
    /// assert_eq!(p, HeightPlane::new(0.5, 0.0, 1.0));
    /// ```
    pub fn through(p: glam::DVec3, q: glam::DVec3, r: glam::DVec3) -> Option<Self> {
        let n = (q - p).cross(r - p);
        if n.z == 0.0 || !n.is_finite() {
            return None;
        }
        let (a, b) = (-n.x / n.z, -n.y / n.z);
        Some(HeightPlane::new(a, b, p.z - a * p.x - b * p.y))
    }

    /// The height above the ground point `p`.
    pub fn height_at(&self, p: Point) -> f64 {
        self.a * p.x + self.b * p.y + self.c
    }

    fn is_finite(&self) -> bool {
        self.a.is_finite() && self.b.is_finite() && self.c.is_finite()
    }
}

impl Default for HeightPlane {
    fn default() -> Self {
        HeightPlane::flat(0.0)
    }
}

/// One layer: a 2D environment in ground-plane coordinates and its height plane.
///
/// ```
/// use corridor_geom::{Environment, HeightPlane, Layer, Point};
/// let floor = Layer::new(
///     "ground floor",
///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 10.0)),
///     HeightPlane::flat(0.0),
/// );
/// assert_eq!(floor.point_3d(Point::new(1.0, 2.0)), glam::DVec3::new(1.0, 2.0, 0.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Layer {
    /// A name for messages and pictures ("floor 1", "stairs A").
    pub name: String,
    /// Boundary and obstacles, in ground-plane coordinates.
    pub environment: Environment,
    /// Where the layer is in 3D (for terrain, the plane that fits it best).
    pub height: HeightPlane,
    /// The exact heights patch by patch (a terrain's triangles) where one plane is not
    /// enough; `None` when [`Layer::height`] is exact.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub surface: Option<HeightField>,
}

impl Layer {
    /// A layer named `name`.
    pub fn new(name: impl Into<String>, environment: Environment, height: HeightPlane) -> Self {
        Layer {
            name: name.into(),
            environment,
            height,
            surface: None,
        }
    }

    /// The layer with exact heights from `surface` (its plane stays for what needs one).
    ///
    /// ```
    /// use corridor_geom::{Environment, HeightField, HeightPatch, HeightPlane, Layer, Point};
    /// use glam::DVec3;
    /// let v = |x, y, z| DVec3::new(x, y, z);
    /// let hill = HeightField::new(vec![
    ///     HeightPatch::triangle([v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(2.0, 2.0, 2.0)]).unwrap(),
    ///     HeightPatch::triangle([v(0.0, 0.0, 0.0), v(2.0, 2.0, 2.0), v(0.0, 2.0, 0.0)]).unwrap(),
    /// ]).unwrap();
    /// let square = Environment::rectangle(Point::new(0.0, 0.0), Point::new(2.0, 2.0));
    /// let layer = Layer::new("hill", square, HeightPlane::flat(0.5)).with_surface(hill);
    /// assert_eq!(layer.height_at(Point::new(1.5, 0.5)), 0.5);
    /// assert_eq!(layer.height_at(Point::new(0.5, 1.5)), 0.5);
    /// assert_eq!(layer.height_at(Point::new(1.0, 1.0)), 1.0);
    /// ```
    pub fn with_surface(mut self, surface: HeightField) -> Self {
        self.surface = Some(surface);
        self
    }

    /// The height of the layer over the ground point `p`: from its surface where it has
    /// one, else from its plane.
    pub fn height_at(&self, p: Point) -> f64 {
        self.surface
            .as_ref()
            .and_then(|s| s.height_at(p))
            .unwrap_or_else(|| self.height.height_at(p))
    }

    /// The 3D point above the ground point `p` on this layer ([`Layer::height_at`]).
    pub fn point_3d(&self, p: Point) -> glam::DVec3 {
        glam::DVec3::new(p.x, p.y, self.height_at(p))
    }
}

/// A connection: a ground-plane segment on the free-space boundary of two layers, through
/// which one walks (and sees) from one layer into the other.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Connection {
    /// The two layers it joins.
    pub layers: [LayerId; 2],
    /// Where it is, in the ground plane.
    pub segment: Segment,
}

impl Connection {
    /// The layer on the other side from `layer`, if the connection touches `layer`.
    ///
    /// ```
    /// use corridor_geom::{Connection, LayerId, Point, Segment};
    /// let c = Connection {
    ///     layers: [LayerId(0), LayerId(2)],
    ///     segment: Segment::new(Point::new(0.0, 0.0), Point::new(0.0, 1.0)),
    /// };
    /// assert_eq!(c.other(LayerId(2)), Some(LayerId(0)));
    /// assert_eq!(c.other(LayerId(1)), None);
    /// ```
    pub fn other(&self, layer: LayerId) -> Option<LayerId> {
        match self.layers {
            [a, b] if a == layer => Some(b),
            [a, b] if b == layer => Some(a),
            _ => None,
        }
    }
}

/// A multi-layered environment: layers and the connections between them.
///
/// [`LayeredEnvironment::connect`] checks a connection against the layers as they are;
/// [`LayeredEnvironment::validate`] checks everything again (after the layers were edited).
///
/// ```
/// use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
/// let mut world = LayeredEnvironment::new();
/// let hall = world.add_layer(Layer::new(
///     "hall",
///     Environment::rectangle(Point::new(0.0, 0.0), Point::new(10.0, 4.0)),
///     HeightPlane::flat(0.0),
/// ));
/// // A ramp east of the hall, rising 1 unit over its 5 units of length.
/// let ramp = world.add_layer(Layer::new(
///     "ramp",
///     Environment::rectangle(Point::new(10.0, 0.0), Point::new(15.0, 4.0)),
///     HeightPlane::new(0.2, 0.0, -2.0),
/// ));
/// let door = Segment::new(Point::new(10.0, 1.0), Point::new(10.0, 3.0));
/// let c = world.connect(hall, ramp, door).unwrap();
/// assert_eq!(world.connection(c).unwrap().layers, [hall, ramp]);
/// world.validate().unwrap();
/// // A segment inside the hall is on nobody's boundary.
/// let inside = Segment::new(Point::new(5.0, 1.0), Point::new(5.0, 3.0));
/// assert!(world.connect(hall, ramp, inside).is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct LayeredEnvironment {
    layers: Vec<Layer>,
    connections: Vec<Connection>,
}

impl LayeredEnvironment {
    /// An environment with no layers.
    pub fn new() -> Self {
        LayeredEnvironment::default()
    }

    /// Adds a layer and returns its id (the next index).
    pub fn add_layer(&mut self, layer: Layer) -> LayerId {
        self.layers.push(layer);
        LayerId(self.layers.len() as u32 - 1)
    }

    /// Joins layers `first` and `second` by `segment`, after checking that it is a proper
    /// segment on both layers' free-space boundary with their free sides opposite.
    pub fn connect(
        &mut self,
        first: LayerId,
        second: LayerId,
        segment: Segment,
    ) -> Result<ConnectionId, LayeredError> {
        let id = ConnectionId(self.connections.len() as u32);
        let connection = Connection {
            layers: [first, second],
            segment,
        };
        self.check_connection(id, &connection)?;
        self.connections.push(connection);
        Ok(id)
    }

    /// Adds a connection without checking it (for readers; [`Self::validate`] checks it).
    pub fn push_connection_unchecked(&mut self, connection: Connection) -> ConnectionId {
        self.connections.push(connection);
        ConnectionId(self.connections.len() as u32 - 1)
    }

    /// All layers, in id order.
    pub fn layers(&self) -> impl ExactSizeIterator<Item = (LayerId, &Layer)> {
        self.layers
            .iter()
            .enumerate()
            .map(|(i, l)| (LayerId(i as u32), l))
    }

    /// Number of layers.
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// The layer with this id, or [`LayeredError::UnknownLayer`].
    pub fn layer(&self, id: LayerId) -> Result<&Layer, LayeredError> {
        self.layers
            .get(id.0 as usize)
            .ok_or(LayeredError::UnknownLayer {
                layer: id,
                count: self.layers.len(),
            })
    }

    /// The layer with this id, to edit its obstacles. Edits may break connections:
    /// [`Self::validate`] tells.
    pub fn layer_mut(&mut self, id: LayerId) -> Result<&mut Layer, LayeredError> {
        let count = self.layers.len();
        self.layers
            .get_mut(id.0 as usize)
            .ok_or(LayeredError::UnknownLayer { layer: id, count })
    }

    /// All connections, in id order.
    pub fn connections(&self) -> impl ExactSizeIterator<Item = (ConnectionId, &Connection)> {
        self.connections
            .iter()
            .enumerate()
            .map(|(i, c)| (ConnectionId(i as u32), c))
    }

    /// The connection with this id.
    pub fn connection(&self, id: ConnectionId) -> Result<&Connection, LayeredError> {
        self.connections
            .get(id.0 as usize)
            .ok_or(LayeredError::UnknownConnection(id))
    }

    /// The connections that touch `layer`.
    pub fn connections_of(
        &self,
        layer: LayerId,
    ) -> impl Iterator<Item = (ConnectionId, &Connection)> + '_ {
        self.connections()
            .filter(move |(_, c)| c.layers.contains(&layer))
    }

    /// The 3D point above the ground point `p` on `layer`.
    pub fn point_3d(&self, layer: LayerId, p: Point) -> Result<glam::DVec3, LayeredError> {
        Ok(self.layer(layer)?.point_3d(p))
    }

    /// Total number of obstacle vertices over all layers.
    pub fn vertex_count(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.environment.vertex_count())
            .sum()
    }
}

#[cfg(test)]
mod tests;
