//! What a [`DynamicEcm`](crate::DynamicEcm) has done over its life ([`UpdateStats`]).

/// Counters over the life of a [`DynamicEcm`](crate::DynamicEcm).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UpdateStats {
    /// Patches applied.
    pub patches: usize,
    /// Patches that replaced a local region.
    pub local: usize,
    /// Patches that rebuilt the whole ECM.
    pub full_rebuilds: usize,
    /// Patches that rebuilt the whole ECM although local repair was on.
    pub fallbacks: usize,
    /// Patches that changed no wall.
    pub unchanged: usize,
    /// Doublings of local regions over all patches.
    pub widenings: usize,
}
