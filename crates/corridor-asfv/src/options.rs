//! The knobs of the decomposition and their defaults.

use crate::AsfvError;

/// Options of [`crate::Decomposition::build`] and of every later repair.
///
/// Lengths are in user units. The defaults suit environments measured in metres or in grid
/// cells (Moving AI maps): seeds are unit quads on an 8-unit lattice, edges move one unit
/// per step and halve their step down to 1/64 unit when they bump into something.
///
/// Why powers of two: positions are seed corners plus sums of steps, so with dyadic
/// values every growing edge sits exactly on a 1/64 lattice. Two regions growing towards
/// each other then meet exactly (no sliver gap), which is what makes them neighbours in
/// the connectivity graph. Other values work, but neighbours may end up a rounding error
/// apart and so not be connected.
///
/// ```
/// use corridor_asfv::AsfvOptions;
/// let options = AsfvOptions { seed_spacing: 4.0, ..AsfvOptions::default() };
/// options.validate().unwrap();
/// assert!(AsfvOptions { growth_step: -1.0, ..options }.validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AsfvOptions {
    /// Pitch of the first seed lattice (default 8). Later rounds halve it down to
    /// `seed_size`, so large open areas get few, large regions.
    pub seed_spacing: f64,
    /// Side of a seed quad (default 1). A free square of this size anywhere on the
    /// lattice becomes a region.
    pub seed_size: f64,
    /// How far a growing edge moves per step (default 1).
    pub growth_step: f64,
    /// The smallest step an edge tries before it stops (default 1/64); also the lattice
    /// that repair seeds (such as an old obstacle's centroid) are snapped to.
    pub min_step: f64,
    /// The smallest seed (default 1/4): when no seed of `seed_size` fits any more, seeds
    /// halve down to this size to fill narrow leftovers. Set it equal to `seed_size` for
    /// fewer, larger regions.
    pub min_region_size: f64,
    /// The most obstacle lines one region may adopt (default 8): each adopted line is an
    /// extra edge, so a region has at most `4 + max_adopted_walls` vertices.
    pub max_adopted_walls: usize,
}

impl Default for AsfvOptions {
    fn default() -> Self {
        AsfvOptions {
            seed_spacing: 8.0,
            seed_size: 1.0,
            growth_step: 1.0,
            min_step: 1.0 / 64.0,
            min_region_size: 0.25,
            max_adopted_walls: 8,
        }
    }
}

impl AsfvOptions {
    /// Checks that every length is positive and finite and that they are ordered
    /// `min_step <= growth_step`, `min_region_size <= seed_size <= seed_spacing`.
    pub fn validate(&self) -> Result<(), AsfvError> {
        let lengths = [
            ("seed_spacing", self.seed_spacing),
            ("seed_size", self.seed_size),
            ("growth_step", self.growth_step),
            ("min_step", self.min_step),
            ("min_region_size", self.min_region_size),
        ];
        for (name, value) in lengths {
            if !(value.is_finite() && value > 0.0) {
                return Err(AsfvError::InvalidParameter {
                    name,
                    value,
                    reason: "must be a positive finite number",
                });
            }
        }
        let ordered = [
            ("min_step", self.min_step, self.growth_step, "growth_step"),
            (
                "min_region_size",
                self.min_region_size,
                self.seed_size,
                "seed_size",
            ),
            (
                "seed_size",
                self.seed_size,
                self.seed_spacing,
                "seed_spacing",
            ),
        ];
        for (name, value, limit, _limit_name) in ordered {
            if value > limit {
                return Err(AsfvError::InvalidParameter {
                    name,
                    value,
                    reason: match name {
                        "min_step" => "must not exceed growth_step",
                        "min_region_size" => "must not exceed seed_size",
                        _ => "must not exceed seed_spacing",
                    },
                });
            }
        }
        Ok(())
    }
}
