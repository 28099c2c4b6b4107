//! What both binaries of the comparison share: the Aurora problems and the `EVERY`
//! argument that thins them.

use std::path::PathBuf;

/// `data/polyanya` in the repository.
pub fn polyanya_dir() -> PathBuf {
    corridor_testkit::data_dir().join("polyanya")
}

/// `EVERY`, the first command-line argument: use every n-th problem (default 1).
pub fn every() -> usize {
    std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// Every `every`-th Aurora problem.
pub fn aurora_problems(every: usize) -> Vec<corridor_io::Problem> {
    let problems = corridor_io::load_problems(polyanya_dir().join("aurora-euclidean.csv"))
        .expect("the Aurora problems load");
    problems.into_iter().step_by(every.max(1)).collect()
}
