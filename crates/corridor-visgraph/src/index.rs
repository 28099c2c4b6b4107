//! Shim: the bucket grid of the free space's walls moved to corridor-geom
//! ([`corridor_geom::FloatSegmentGrid`], issue 23); removed after the merge.
