//! Which end of a path query a message is about: shared by every planner's query errors.

use std::fmt;

/// Which end of a path query.
///
/// ```
/// assert_eq!(corridor_geom::Endpoint::Goal.to_string(), "goal");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// The start.
    Start,
    /// The goal.
    Goal,
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}
