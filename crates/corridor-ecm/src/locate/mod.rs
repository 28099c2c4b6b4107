//! Where is a point? Building and updating the cell index, point location, nearest
//! obstacle points, clearance and retraction onto the medial axis.
//!
//! # Why location covers the free space
//! The cell pieces (a bending point, the next one, and their nearest obstacle points on
//! one side) tile the free space: the build validates that none is turned over and that
//! their areas add up to the free area. Neighbouring pieces share their common sides with
//! the same end points: a medial-axis chord is one side of the left and of the right
//! piece of its edge, the segment from a bending point to its nearest point is one side
//! of the two consecutive pieces on that side, and at a vertex the edges start at the
//! vertex's position with its nearest points. Location asks each candidate piece (from
//! the R-tree over piece boxes, whose boxes are closed) the half-open crossing question
//! with exact orientation tests (`query::in_polygon`): for a tiling whose shared sides
//! have the same end points this puts every point of the union's inside in exactly one
//! piece, including points on chords, on bending-point segments and at vertices, because
//! a shared side is counted by one neighbour's crossing test and not by the other's, and
//! exact predicates cannot disagree about which (the rounded crossing `x` of the old
//! test could, and lost 18 free cell centres of the shared Moving AI maps on 45°
//! chords). Points that no piece takes by that rule lie on the outer boundary of the
//! union, on a wall; the closed pieces then answer (`query::on_boundary`). The test
//! `tests/locate_exhaustive.rs` checks the claim against brute force on every free cell
//! centre of the shared maps and on random environments of every generator kind.

mod cell_index;
mod query;

pub use query::{NearestObstacle, QueryError, Retraction};
