//! The layered JSON format: round trips (the built-in scene, an OBJ level with
//! per-triangle heights) give back equal environments, and every kind of bad input
//! gets its typed error with the right line, never a panic.

use corridor_geom::{HeightPlane, LayerId, Point};
use corridor_io::obj::{read_level, WalkableOptions};
use corridor_io::{read_layered_json, write_layered_json, LayeredJsonError};

#[test]
fn builtin_layers_round_trip() {
    let world = corridor_io::scenes::layers();
    let text = write_layered_json(&world).unwrap();
    assert_eq!(read_layered_json(&text).unwrap(), world);
    // Written again, the text is the same.
    assert_eq!(
        write_layered_json(&read_layered_json(&text).unwrap()).unwrap(),
        text
    );
}

#[test]
fn obj_level_with_surfaces_round_trips() {
    let path = corridor_testkit::data_dir()
        .join("recast")
        .join("undulating.obj");
    let text = corridor_io::read_text(&path).unwrap();
    let level = read_level(&text, &WalkableOptions::default()).unwrap();
    let world = level.layered();
    assert!(world.layers().any(|(_, l)| l.surface.is_some()));
    let json = write_layered_json(world).unwrap();
    let back = read_layered_json(&json).unwrap();
    assert_eq!(&back, world);
    // Heights come back bit for bit, from the surfaces.
    for (id, layer) in world.layers() {
        let b = back.layer(id).unwrap();
        let p = layer.environment.boundary().vertices()[0];
        assert_eq!(b.height_at(p).to_bits(), layer.height_at(p).to_bits());
    }
}

fn two_rooms() -> String {
    r#"{
  "format": "corridor-layered",
  "version": 1,
  "layers": [
    {"name": "hall", "height": {"a": 0, "b": 0, "c": 0},
     "environment": {"version": 1, "boundary": [[0, 0], [10, 0], [10, 4], [0, 4]]}},
    {"name": "ramp", "height": {"a": 0.2, "b": 0, "c": -2},
     "surface": {"patches": [{"rings": [[[10, 0], [15, 0], [15, 4], [10, 4]]], "plane": {"a": 0.2, "b": 0, "c": -2}}]},
     "environment": {"version": 1, "boundary": [[10, 0], [15, 0], [15, 4], [10, 4]]}}
  ],
  "connections": [
    {"layers": [0, 1], "segment": [[10, 1], [10, 3]]}
  ]
}"#
    .to_string()
}

#[test]
fn a_small_document_reads_with_its_heights() {
    let world = read_layered_json(&two_rooms()).unwrap();
    assert_eq!(world.layer_count(), 2);
    let ramp = world.layer(LayerId(1)).unwrap();
    assert_eq!(ramp.name, "ramp");
    assert_eq!(ramp.height, HeightPlane::new(0.2, 0.0, -2.0));
    assert_eq!(ramp.height_at(Point::new(12.5, 2.0)), 0.5);
    assert_eq!(world.connections().len(), 1);
}

#[test]
fn bad_documents_get_typed_errors_with_their_line() {
    let good = two_rooms();
    let cases: Vec<(String, &str, usize)> = vec![
        (
            good.replace(
                "\"version\": 1,\n  \"layers\"",
                "\"version\": 2,\n  \"layers\"",
            ),
            "version",
            3,
        ),
        (good.replace("corridor-layered", "corridor"), "format", 2),
        (
            good.replace("\"name\": \"hall\", ", "\"nom\": \"hall\", "),
            "unknown field",
            5,
        ),
        (
            good.replace("[[10, 1], [10, 3]]", "[[5, 1], [5, 3]]"),
            "connection 0",
            12,
        ),
        (
            good.replace("\"layers\": [0, 1]", "\"layers\": [0, 7]"),
            "connection 0",
            12,
        ),
        (
            good.replace(
                "[[10, 0], [15, 0], [15, 4], [10, 4]]], \"plane\"",
                "[[10, 0], [15, 0]]], \"plane\"",
            ),
            "surface",
            8,
        ),
        (
            good.replace("[10, 4], [0, 4]]}}", "[10, 4], [10, 4], [0, 4]]}}"),
            "layer 0",
            6,
        ),
        (good[..good.len() / 2].to_string(), "ended too early", 0),
    ];
    for (text, what, line) in cases {
        let err = read_layered_json(&text).unwrap_err();
        let message = err.to_string();
        assert!(message.contains(what), "{what}: {message}");
        if line > 0 {
            assert!(
                message.contains(&format!("line {line},")),
                "{what}: {message}"
            );
        }
        match what {
            "version" | "format" => assert!(matches!(err, LayeredJsonError::Unsupported { .. })),
            "connection 0" => assert!(matches!(err, LayeredJsonError::Connection { .. })),
            "surface" => assert!(matches!(err, LayeredJsonError::Height { .. })),
            "layer 0" => assert!(matches!(err, LayeredJsonError::Environment { .. })),
            _ => assert!(matches!(err, LayeredJsonError::Shape { .. })),
        }
    }
    // No prefix of a document panics the reader.
    for end in 0..good.len() {
        if good.is_char_boundary(end) {
            assert!(read_layered_json(&good[..end]).is_err());
        }
    }
}

#[test]
fn unwritable_heights_are_refused() {
    let mut world = corridor_io::scenes::layers();
    world.layer_mut(LayerId(2)).unwrap().height = HeightPlane::new(f64::NAN, 0.0, 0.0);
    let err = write_layered_json(&world).unwrap_err();
    assert!(
        matches!(err, LayeredJsonError::Unwritable { layer: 2, .. }),
        "{err}"
    );
}

#[test]
fn layered_maps_are_found_by_name_and_content() {
    assert!(corridor_io::is_layered_map("builtin:layers"));
    let dir = std::env::temp_dir().join(format!("corridor-layered-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let layered = dir.join("two.json");
    std::fs::write(&layered, two_rooms()).unwrap();
    let flat = dir.join("flat.json");
    std::fs::write(
        &flat,
        r#"{"version": 1, "boundary": [[0, 0], [1, 0], [1, 1]]}"#,
    )
    .unwrap();
    assert!(corridor_io::is_layered_map(layered.to_str().unwrap()));
    assert!(!corridor_io::is_layered_map(flat.to_str().unwrap()));
    assert_eq!(
        corridor_io::load_layered(layered.to_str().unwrap())
            .unwrap()
            .layer_count(),
        2
    );
    let err = corridor_io::load_layered(flat.to_str().unwrap()).unwrap_err();
    assert!(
        matches!(err, corridor_io::LayeredLoadError::NotLayered { .. }),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
