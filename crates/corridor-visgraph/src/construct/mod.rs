//! How is the graph built? The four constructions, and the choice between them.
//!
//! Every construction answers the same question — which pairs of nodes see each other —
//! and gives the same edges; they differ in cost. Each returns a list of [`Edge`]s that
//! the graph stores ([`VisibilityGraph`] knows nothing of how they were found).

mod expansion;
mod naive;
mod pairs;
mod sweep;

use crate::graph::{Construction, Edge, GraphKind, GraphOptions, VisibilityGraph};
use crate::BuildError;
use corridor_geom::free_space::FreeSpace;
use corridor_geom::Environment;

impl VisibilityGraph {
    /// The reduced graph of an environment, by the default construction.
    ///
    /// # Errors
    /// See [`FreeSpace::from_environment`].
    pub fn build(env: &Environment) -> Result<Self, BuildError> {
        Self::with_options(env, GraphOptions::default())
    }

    /// The graph of an environment with the given options.
    ///
    /// # Errors
    /// See [`FreeSpace::from_environment`].
    pub fn with_options(env: &Environment, options: GraphOptions) -> Result<Self, BuildError> {
        Ok(Self::from_free_space(
            FreeSpace::from_environment(env)?,
            options,
        ))
    }

    /// The graph over an already built free space.
    pub fn from_free_space(free: FreeSpace, options: GraphOptions) -> Self {
        let mut graph = VisibilityGraph::without_edges(free, options.kind);
        let adjacency = adjacency(&graph, options);
        graph.store(&adjacency);
        graph
    }
}

impl VisibilityGraph {
    /// The reflex wedges (as for the reduced graph) linked whenever they see each other
    /// along a direction inside both wedges (as for the full graph, not necessarily
    /// tangent): the candidate pairs of the disk's tangent graph
    /// ([`crate::DiskVisibilityGraph`]), whose tangents between two corners need the
    /// segment between the corners to cross no wall.
    pub(crate) fn corner_pairs(free: FreeSpace) -> Self {
        let mut graph = VisibilityGraph::without_edges(free, GraphKind::Reduced);
        graph.kind = GraphKind::Full;
        let adjacency = expansion::adjacency(&graph).unwrap_or_else(|| pairs::adjacency(&graph));
        graph.store(&adjacency);
        graph
    }
}

/// The edges of `graph` (nodes only so far) by the construction `options` ask for.
fn adjacency(graph: &VisibilityGraph, options: GraphOptions) -> Vec<Edge> {
    let construction = match options.construction {
        Construction::Auto if options.no_culling => Construction::Sweep,
        Construction::Auto => Construction::Expansion,
        other => other,
    };
    match construction {
        Construction::Auto | Construction::Sweep => sweep::adjacency(graph, !options.no_culling),
        Construction::Pairs => pairs::adjacency(graph),
        // A free space the triangulation rejects (it cannot come from a valid
        // environment, but it must not panic) is still built, pair by pair.
        Construction::Expansion => {
            expansion::adjacency(graph).unwrap_or_else(|| pairs::adjacency(graph))
        }
        Construction::Naive => naive::adjacency(graph),
    }
}
