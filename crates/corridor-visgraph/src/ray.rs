//! Shim: how a straight path passes the walls moved to [`corridor_geom::free_space`]
//! (issue 23); removed after the merge.

pub(crate) use corridor_geom::free_space::{along_ray_cmp, Arrival, Place, Walk};
