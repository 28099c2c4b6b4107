//! What can be wrong with a layered environment ([`LayeredError`]), naming the layer and
//! the connection.

use super::{ConnectionId, LayerId};
use crate::EnvironmentError;

/// What is wrong with a [`LayeredEnvironment`](super::LayeredEnvironment). Every variant
/// names the layer or the connection.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LayeredError {
    /// A connection or query names a layer that does not exist.
    #[error("no layer {layer} (the environment has {count} layers)")]
    UnknownLayer {
        /// The layer asked for.
        layer: LayerId,
        /// How many layers exist.
        count: usize,
    },
    /// No connection with this id.
    #[error("no connection {0}")]
    UnknownConnection(ConnectionId),
    /// A layer's own 2D environment is invalid.
    #[error("layer {layer}: {source}")]
    Layer {
        /// The layer.
        layer: LayerId,
        /// What is wrong with its environment.
        source: EnvironmentError,
    },
    /// A layer's height plane has a NaN or infinite coefficient.
    #[error("layer {layer}: height plane z = {a}x + {b}y + {c} is not finite")]
    NonFiniteHeight {
        /// The layer.
        layer: LayerId,
        /// Slope in x.
        a: f64,
        /// Slope in y.
        b: f64,
        /// Height at the origin.
        c: f64,
    },
    /// A connection joins a layer to itself.
    #[error("connection {connection} joins layer {layer} to itself")]
    SameLayer {
        /// The connection.
        connection: ConnectionId,
        /// The layer named twice.
        layer: LayerId,
    },
    /// A connection endpoint is NaN or infinite.
    #[error("connection {connection}: endpoint ({x}, {y}) is not finite")]
    NonFiniteConnection {
        /// The connection.
        connection: ConnectionId,
        /// x as given.
        x: f64,
        /// y as given.
        y: f64,
    },
    /// A connection's endpoints fall on the same grid point (or it cannot be snapped).
    #[error("connection {connection} is degenerate: its endpoints snap to one grid point or off the grid")]
    DegenerateConnection {
        /// The connection.
        connection: ConnectionId,
    },
    /// A connection does not lie on the boundary of a layer's free space: some part of it
    /// is not covered by the layer's boundary or obstacle edges.
    #[error("connection {connection} does not lie on the free-space boundary of layer {layer}")]
    NotOnBoundary {
        /// The connection.
        connection: ConnectionId,
        /// The layer whose boundary it leaves.
        layer: LayerId,
    },
    /// A connection lies on a layer's boundary, but the layer's free space is on neither
    /// side of it (it runs between two obstacles) or on both (along a thin wall), so the
    /// layer has no one side to enter from.
    #[error("connection {connection}: layer {layer} is free on {free_sides} sides of it, it must be free on exactly one")]
    NoEntrySide {
        /// The connection.
        connection: ConnectionId,
        /// The layer.
        layer: LayerId,
        /// 0 or 2.
        free_sides: u8,
    },
    /// Both layers are free on the same side of a connection: in the ground plane, walking
    /// through it would not leave the first layer's free space.
    #[error("connection {connection}: layers {first} and {second} are free on the same side of it, they must lie on opposite sides")]
    SameSide {
        /// The connection.
        connection: ConnectionId,
        /// One layer.
        first: LayerId,
        /// The other.
        second: LayerId,
    },
    /// The layers of a chart do not form one region in the ground plane (a chart made by
    /// hand, not by [`LayeredEnvironment::charts`](super::LayeredEnvironment::charts)).
    #[error("the chart of layer {layer} is not one region in the ground plane")]
    ChartNotOneRegion {
        /// The chart's first layer.
        layer: LayerId,
    },
}
