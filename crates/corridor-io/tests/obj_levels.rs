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
            "{name}: {} triangles, {} walkable, {} layers, {} connections, area {:.3}",
            mesh.triangles().len(),
            level.walkable_triangle_count(),
            level.layers().len(),
            level.connections().len(),
            level.area()
        );
        for (i, l) in level.layers().iter().enumerate() {
            let (_, err) = l.fitted_plane();
            eprintln!(
                "  layer {i}: {} pieces, area {:.3}, {} holes, plane error {err:.3}",
                l.triangle_count(),
                l.area(),
                l.environment().obstacles().count()
            );
        }
    }
}
