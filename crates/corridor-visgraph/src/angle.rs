//! Shim: exact directions and wedges moved to [`corridor_geom::free_space`] (issue 23);
//! removed after the merge.

pub(crate) use corridor_geom::free_space::{
    angle_from_cmp, flip, in_half_open, pseudo_angle, side, wrap4, Dir, BOTH,
};
pub use corridor_geom::Wedge;
