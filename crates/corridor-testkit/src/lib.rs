//! What Corridor's tests, benchmarks and measuring examples share, kept out of the
//! published crates' APIs: where the repository's data lives ([`data`]), how to time work
//! on a shared machine ([`timing`]), seeded random environments ([`random`]) and test
//! cases checked by the free space ([`free_space_cases`]), reference algorithms the tests
//! compare with ([`oracles`]) and the soak harness of dynamic updates ([`soak`], also
//! behind the `corridor soak` command) and large worlds for build benchmarks ([`worlds`]). Not published (`publish = false`).

pub mod building;
pub mod corrupt;
pub mod data;
pub mod free_space_cases;
pub mod fuzz;
pub mod hostile;
pub mod layered_oracle;
pub mod layered_visibility_oracle;
pub mod oracles;
pub mod radius_oracle;
pub mod random;
pub mod soak;
pub mod timing;
pub mod visibility_oracle;
pub mod worlds;

pub use data::{data_dir, data_path, movingai_maps};
pub use timing::{median, quantile, thread_cpu_time, timed};
