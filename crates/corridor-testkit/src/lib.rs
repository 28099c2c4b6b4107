//! What Corridor's tests, benchmarks and measuring examples share, kept out of the
//! published crates: where the repository's data lives ([`data`]) and how to time work on
//! a shared machine ([`timing`]). Not published (`publish = false`); used only as a
//! dev-dependency.

pub mod data;
pub mod oracles;
pub mod random;
pub mod timing;

pub use data::{data_dir, data_path};
pub use timing::{median, quantile, thread_cpu_time, timed};
