//! The readers on the hardening issue's inputs (small sizes; the full sizes and their
//! times are the example `read_many`): many obstacles read in one pass with the right
//! positions, and files that never end or are too large refused with a clear error.

use corridor_io::{
    read_geojson, read_json, read_obstacles, read_text_bounded, GeoJsonError, JsonError, LoadError,
};
use corridor_testkit::hostile::{squares_geojson, squares_json};

#[test]
fn many_squares_read_with_their_positions() {
    let n = 5_000;
    let env = read_json(&squares_json(n)).unwrap();
    assert_eq!(env.obstacles().count(), n);
    let env = read_geojson(&squares_geojson(n)).unwrap();
    assert_eq!(env.obstacles().count(), n);
    // Obstacle i is on line i + 5 of the native text (one a line after four header lines).
    let text = squares_json(n);
    let list_start = text.find("[\n    {").unwrap();
    let records = read_obstacles(&text[list_start..text.rfind(']').unwrap() + 1]).unwrap();
    assert_eq!(records.len(), n);
    for (i, r) in records.iter().enumerate().step_by(97) {
        assert_eq!((r.line, r.column), (i + 2, 5), "obstacle {i}");
    }
}

#[test]
fn an_error_late_in_a_long_file_names_its_line() {
    let n = 3_000;
    // The last square made a bow tie (invalid), and a duplicate id near the end.
    let text = squares_json(n);
    let last = text.rfind("{\"polygon\"").unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let line_of_last = text[..last].matches('\n').count() + 1;
    let swapped =
        lines[line_of_last - 1].replacen("\"polygon\": [[", "\"polygon\": [[9999, 9999], [", 1);
    lines[line_of_last - 1] = &swapped;
    let err = read_json(&lines.join("\n")).unwrap_err();
    assert!(
        matches!(err, JsonError::Invalid { line, .. } if line == line_of_last),
        "{err}"
    );
    let text = squares_geojson(n);
    let bad = text.replacen("\"properties\": null", "\"properties\": {\"role\": 7}", n);
    let err = read_geojson(&bad).unwrap_err();
    // The first feature after the boundary (line 2) is the first with a bad role.
    assert!(
        matches!(err, GeoJsonError::UnknownRole { line: 3, .. }),
        "{err}"
    );
}

#[test]
fn endless_and_oversized_inputs_are_refused() {
    #[cfg(unix)]
    {
        let err = read_text_bounded("/dev/zero".as_ref(), u64::MAX).unwrap_err();
        assert!(matches!(err, LoadError::NotAFile { .. }), "{err}");
        assert!(err.to_string().contains("not a regular file"));
        // Through a link with a format's name, as the endless `.map` was.
        let link =
            std::env::temp_dir().join(format!("corridor-endless-{}.map", std::process::id()));
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = corridor_io::load_environment(&link).unwrap_err();
        std::fs::remove_file(&link).unwrap();
        assert!(matches!(err, LoadError::NotAFile { .. }), "{err}");
    }
    let path = std::env::temp_dir().join(format!("corridor-large-{}.json", std::process::id()));
    std::fs::write(&path, squares_json(100)).unwrap();
    let err = read_text_bounded(&path, 1000).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(
        matches!(err, LoadError::TooLarge { limit: 1000, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("input limit of 1000 bytes"));
}
