//! Every shared map (Moving AI grids and Polyanya meshes): valid by the independent
//! checker, coverage of the free area reported and at least 99 %, regions per point.

mod common;

use corridor_asfv::{AsfvOptions, Decomposition};
use std::time::Instant;

#[test]
fn every_shared_map_is_valid_and_covered() {
    let data = common::shared_data();
    let mut files = corridor_testkit::movingai_maps();
    for mesh in [
        "arena.mesh",
        "arena-merged.mesh",
        "aurora.mesh",
        "aurora-merged.mesh",
    ] {
        files.push(data.join("polyanya").join(mesh));
    }
    assert!(files.len() >= 14);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let env = corridor_io::load_environment(&path).unwrap();
        let t = Instant::now();
        let d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
        let built = t.elapsed();
        let report = d.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let coverage = d.coverage();
        println!(
            "{name:20} {:6} obstacle vertices, {:6} regions, {:6} links, max {} per point, \
             coverage {:.4}%, build {:?}",
            env.vertex_count(),
            report.regions,
            report.links,
            report.max_regions_at_point,
            100.0 * coverage.fraction(),
            built
        );
        assert!(
            coverage.fraction() >= 0.99,
            "{name}: {}",
            coverage.fraction()
        );
        assert!(
            coverage.fraction() <= 1.0 + 1e-9,
            "{name}: {}",
            coverage.fraction()
        );
        assert!(report.max_regions_at_point <= 4, "{name}");
    }
}
