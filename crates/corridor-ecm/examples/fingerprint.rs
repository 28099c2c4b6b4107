//! Fingerprints of the ECMs of every map in `data/` and of the built-in scenes: a hash of
//! the exact vertices, edges (bending points with their nearest points, bit for bit), cell
//! index and walls, in the order the build stores them. Two commits that print the same
//! lines built the same ECMs; a refactoring must not change a line.
//!
//! ```sh
//! cargo run --release -p corridor-ecm --example fingerprint > before.txt
//! # ... change the code ...
//! cargo run --release -p corridor-ecm --example fingerprint | diff before.txt -
//! ```

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use corridor_ecm::Ecm;

fn main() {
    let data = corridor_testkit::data_dir();
    let mut files: Vec<PathBuf> = Vec::new();
    for folder in ["movingai", "polyanya"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(data.join(folder))
            .unwrap_or_else(|e| panic!("{folder}: {e}"))
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("map" | "mesh")))
            .collect();
        found.sort();
        files.extend(found);
    }
    let mut inputs: Vec<(String, corridor_geom::Environment)> = files
        .iter()
        .map(|path| {
            let name = path
                .strip_prefix(&data)
                .unwrap_or(path)
                .display()
                .to_string();
            let env = corridor_io::load_environment(path).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, env)
        })
        .collect();
    for scene in corridor_io::scenes::Scene::ALL {
        inputs.push((format!("builtin:{}", scene.name()), scene.build()));
    }
    for (name, env) in &inputs {
        let ecm = Ecm::build(env).unwrap_or_else(|e| panic!("{name}: {e}"));
        let walls = corridor_geom::normalize(env).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut graph = DefaultHasher::new();
        for (id, vertex) in ecm.vertices() {
            format!("{id:?} {vertex:?}").hash(&mut graph);
        }
        for (id, edge) in ecm.edges() {
            format!("{id:?} {edge:?}").hash(&mut graph);
        }
        let mut index = DefaultHasher::new();
        format!("{:?}", ecm.cell_index()).hash(&mut index);
        let mut wall_hash = DefaultHasher::new();
        format!("{walls:?}").hash(&mut wall_hash);
        println!(
            "{name}: {} vertices, {} edges, {} bending points, graph {:016x}, index {:016x}, walls {:016x}",
            ecm.vertex_count(),
            ecm.edge_count(),
            ecm.bending_point_count(),
            graph.finish(),
            index.finish(),
            wall_hash.finish()
        );
    }
}
