//! The built-in scenes are valid, deterministic and as large as documented.

use corridor_io::scenes::Scene;

#[test]
fn scenes_are_valid_and_deterministic() {
    for scene in Scene::ALL {
        let env = scene.build();
        env.validate()
            .unwrap_or_else(|e| panic!("{}: {e}", scene.name()));
        assert_eq!(env, scene.build(), "{} is not deterministic", scene.name());
        assert_eq!(Scene::from_name(scene.name()), Some(scene));
        println!(
            "{}: {} obstacles, {} vertices",
            scene.name(),
            env.obstacles().count(),
            env.vertex_count()
        );
    }
}

#[test]
fn scene_sizes_resemble_the_papers() {
    assert_eq!(Scene::Empty.build().obstacles().count(), 0);
    let military = Scene::Military.build().vertex_count();
    assert!(
        (60..=300).contains(&military),
        "military has {military} vertices"
    );
    let dungeon = Scene::Dungeon.build().vertex_count();
    assert!(
        (300..=1500).contains(&dungeon),
        "dungeon has {dungeon} vertices"
    );
    let city = Scene::City.build().vertex_count();
    assert!((2_000..=6_000).contains(&city), "city has {city} vertices");
}
