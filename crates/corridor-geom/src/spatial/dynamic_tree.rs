//! Which of a changing set of boxes meet this box? An R-tree ([`DynamicTree`]) tuned for
//! frequent insertions and removals.

use super::segment_grid::corner;
use crate::GridPoint;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{RStarInsertionStrategy, RTree, RTreeParams};

/// A box on the grid with what it holds.
pub(crate) type Boxed<T> = GeomWithData<Rectangle<[i64; 2]>, T>;

/// R-tree parameters for trees that change with every update (here and in the ECM's
/// update indices): the nodes of the default parameters, without the R* forced
/// reinsertion (which made an insertion cost several thousand instructions; splits alone
/// keep the trees good enough for box queries).
#[derive(Clone, Copy, Debug, Default)]
pub struct DynamicTreeOptions;

impl RTreeParams for DynamicTreeOptions {
    const MIN_SIZE: usize = 3;
    const MAX_SIZE: usize = 6;
    const REINSERTION_COUNT: usize = 0;
    type DefaultInsertionStrategy = RStarInsertionStrategy;
}

/// An R-tree that changes with every update.
pub type DynamicTree<T> = RTree<T, DynamicTreeOptions>;

/// The box of the segment `a b` holding `data`.
pub(crate) fn boxed<T>(a: GridPoint, b: GridPoint, data: T) -> Boxed<T> {
    Boxed::new(Rectangle::from_corners(corner(a), corner(b)), data)
}
