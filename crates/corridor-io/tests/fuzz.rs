//! No reader panics, whatever it is fed: random bytes, random token soup in the format's
//! own vocabulary, and mutations of real files (byte flips, truncations, insertions,
//! deletions, duplicated and swapped lines). A panic fails the test with the input.

use corridor_io::{
    load_environment, read_geojson, read_json, read_map, read_maze, read_mesh, read_problems,
    read_scenarios, write_json,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    let dir = corridor_testkit::data_dir();
    assert!(
        dir.is_dir(),
        "the shared data folder {} is missing: the fuzz tests mutate real files from there",
        dir.display()
    );
    dir
}

fn real(path: &str) -> Vec<u8> {
    let p = data_dir().join(path);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Runs `read` on `input`, turning a panic into a test failure that shows the input.
/// `read` tells whether the input was accepted.
fn no_panic(reader: &str, input: &str, read: &dyn Fn(&str) -> bool) -> bool {
    match catch_unwind(AssertUnwindSafe(|| read(input))) {
        Ok(accepted) => accepted,
        Err(_) => panic!(
            "{reader} panicked on this input ({} bytes):\n{input:?}",
            input.len()
        ),
    }
}

fn random_bytes(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let n = rng.random_range(0..300);
    (0..n).map(|_| rng.random()).collect()
}

fn token_soup(rng: &mut ChaCha8Rng, vocabulary: &[&str]) -> Vec<u8> {
    let n = rng.random_range(0..80);
    let mut out = String::new();
    for _ in 0..n {
        out.push_str(vocabulary[rng.random_range(0..vocabulary.len())]);
        out.push_str([" ", "\n", "\t", "", ",", "\r\n"][rng.random_range(0..6)]);
    }
    out.into_bytes()
}

fn mutate(rng: &mut ChaCha8Rng, original: &[u8]) -> Vec<u8> {
    let mut v = original.to_vec();
    for _ in 0..rng.random_range(1..4) {
        let len = v.len();
        let at = if len == 0 {
            0
        } else {
            rng.random_range(0..len)
        };
        match rng.random_range(0..10) {
            0 if len > 0 => v[at] = rng.random(),
            7..=9 => {
                // Replace a digit by another: the syntax stays, the geometry changes
                // (this reaches the checks after parsing).
                if let Some(d) = (at..len).find(|&i| v[i].is_ascii_digit()) {
                    v[d] = b'0' + rng.random_range(0..10);
                }
            }
            1 => v.truncate(at),
            2 => {
                let insert: Vec<u8> = (0..rng.random_range(1..8)).map(|_| rng.random()).collect();
                v.splice(at..at, insert);
            }
            3 => {
                let insert = [b"0", b"1", b"-", b".", b"@", b"9", b" ", b"\n", b"e", b"]"]
                    [rng.random_range(0..10)];
                v.splice(at..at, insert.iter().copied());
            }
            4 if len > 0 => {
                let end = (at + rng.random_range(1..20)).min(len);
                v.drain(at..end);
            }
            5 if len > 0 => {
                // Duplicate a stretch (a line, a polygon, an obstacle…).
                let end = (at + rng.random_range(1..60)).min(len);
                let copy = v[at..end].to_vec();
                let to = rng.random_range(0..=v.len());
                v.splice(to..to, copy);
            }
            _ => {
                // Swap two lines.
                let text = String::from_utf8_lossy(&v).to_string();
                let mut lines: Vec<&str> = text.split('\n').collect();
                if lines.len() > 1 {
                    let (a, b) = (
                        rng.random_range(0..lines.len()),
                        rng.random_range(0..lines.len()),
                    );
                    lines.swap(a, b);
                }
                v = lines.join("\n").into_bytes();
            }
        }
    }
    v
}

/// Feeds `cases` random inputs of each kind to `read`.
fn fuzz(
    reader: &str,
    seed: u64,
    samples: &[Vec<u8>],
    vocabulary: &[&str],
    cases: usize,
    read: &dyn Fn(&str) -> bool,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for sample in samples {
        assert!(no_panic(reader, &String::from_utf8_lossy(sample), read));
    }
    let mut accepted = [0usize; 3];
    for k in 0..cases {
        let bytes = match k % 4 {
            0 => random_bytes(&mut rng),
            1 => token_soup(&mut rng, vocabulary),
            _ => {
                let sample = &samples[rng.random_range(0..samples.len())];
                mutate(&mut rng, sample)
            }
        };
        if no_panic(reader, &String::from_utf8_lossy(&bytes), read) {
            accepted[(k % 4).min(2)] += 1;
        }
    }
    println!(
        "{reader}: {cases} inputs; accepted {} random, {} token soups, {} mutations",
        accepted[0], accepted[1], accepted[2]
    );
    // Some mutations (a flipped digit in a coordinate, a line of blanks) keep the file
    // valid: the readers were exercised past the first error.
    assert!(accepted[2] > 0, "{reader}: no mutation was accepted");
}

const CASES: usize = 3000;

#[test]
fn map_reader_never_panics() {
    let samples = vec![
        real("movingai/arena.map"),
        b"type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n@..T\n".to_vec(),
    ];
    let vocabulary = [
        "type", "octile", "height", "width", "map", "3", "4", "0", "65536", "....", ".@.@", "@@@@",
        "T", "W", "x", "-1",
    ];
    fuzz("read_map", 1, &samples, &vocabulary, CASES, &|s| {
        read_map(s)
            .map(|grid| grid.to_environment().validate().unwrap())
            .is_ok()
    });
}

#[test]
fn maze_reader_never_panics() {
    let samples = vec![
        real("anyangle/custom_maze14x11/maze.txt"),
        b"4 3\n0 0 0 0\n0 1 1 0\n1 0 0 1\n".to_vec(),
        b"4 3\n0000\n0110\n1001\n".to_vec(),
    ];
    let vocabulary = [
        "0", "1", "2", "4", "3", "0 1", "1 1 0 1", "0110", "-1", "99999",
    ];
    fuzz("read_maze", 2, &samples, &vocabulary, CASES, &|s| {
        read_maze(s)
            .map(|grid| grid.to_environment().validate().unwrap())
            .is_ok()
    });
}

#[test]
fn scenario_reader_never_panics() {
    let mut scen = real("movingai/arena.map.scen");
    let cut = scen[..3000].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    scen.truncate(cut);
    let samples = vec![scen];
    let vocabulary = [
        "version",
        "1",
        "1.0",
        "0",
        "maps/dao/arena.map",
        "49",
        "12",
        "3.41421",
        "nan",
        "-1",
        "4294967296",
    ];
    fuzz("read_scenarios", 3, &samples, &vocabulary, CASES, &|s| {
        read_scenarios(s).is_ok()
    });
}

#[test]
fn problem_reader_never_panics() {
    let mut csv = real("polyanya/aurora-euclidean.csv");
    let cut = csv[..2000].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    csv.truncate(cut);
    let samples = vec![csv, real("anyangle/custom_maze14x11/problems.csv")];
    let vocabulary = [
        "start_x,start_y,goal_x,goal_y,length",
        "0,0,3,4,5",
        "1.5",
        ",",
        "inf",
        "-0",
        "1e308",
        "start_x",
    ];
    fuzz("read_problems", 4, &samples, &vocabulary, CASES, &|s| {
        read_problems(s).is_ok()
    });
}

#[test]
fn mesh_reader_never_panics() {
    let samples = vec![
        real("polyanya/arena.mesh"),
        real("polyanya/arena-merged.mesh"),
        b"mesh\n2\n4 2\n0 0 2 0 -1\n1.5 0 3 0 1 -1\n1.5 1.5 2 1 -1\n0 1.5 3 -1 1 0\n3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n".to_vec(),
    ];
    let vocabulary = [
        "mesh",
        "2",
        "0",
        "1",
        "3",
        "4",
        "-1",
        "1.5",
        "nan",
        "1e308",
        "-0",
        "4294967295",
    ];
    fuzz(
        "read_mesh",
        5,
        &samples,
        &vocabulary,
        CASES,
        &|s| match read_mesh(s).map(|mesh| mesh.to_environment()) {
            Ok(Ok(env)) => {
                env.validate().unwrap();
                true
            }
            _ => false,
        },
    );
}

#[test]
fn json_reader_never_panics() {
    let grid = read_map(&String::from_utf8(real("movingai/arena.map")).unwrap()).unwrap();
    let samples = vec![
        write_json(&grid.to_environment()).unwrap().into_bytes(),
        br#"{"version": 1, "snap_scale": 100.0, "next_id": 9, "boundary": [[0,0],[9,0],[9,9],[0,9]],
            "obstacles": [{"id": 0, "polygon": [[1,1],[5,1],[5,5],[1,5]], "holes": [[[2,2],[3,2],[3,3]]]},
            {"polyline": [[6,6],[7,7],[8,6]]}, {"id": 3, "point": [8, 8]}]}"#
            .to_vec(),
    ];
    let vocabulary = [
        "{",
        "}",
        "[",
        "]",
        ":",
        "\"version\"",
        "\"boundary\"",
        "\"obstacles\"",
        "\"id\"",
        "\"point\"",
        "\"polygon\"",
        "\"holes\"",
        "\"next_id\"",
        "\"snap_scale\"",
        "1",
        "0",
        "-1",
        "1e400",
        "4294967295",
        "null",
        "[0,0]",
        "[[0,0],[1,0],[1,1]]",
    ];
    fuzz("read_json", 6, &samples, &vocabulary, CASES, &|s| {
        read_json(s)
            .map(|env| {
                // Whatever reads also writes and reads back the same.
                assert_eq!(read_json(&write_json(&env).unwrap()).unwrap(), env);
            })
            .is_ok()
    });
}

#[test]
fn geojson_reader_never_panics() {
    let samples = vec![br#"{"type": "FeatureCollection", "features": [
  {"type": "Feature", "properties": {"role": "boundary"},
   "geometry": {"type": "Polygon", "coordinates": [[[0,0],[10,0],[10,10],[0,10],[0,0]], [[1,1],[2,1],[2,2],[1,1]]]}},
  {"type": "Feature", "properties": {"id": 5},
   "geometry": {"type": "Polygon", "coordinates": [[[2,2],[4,2],[4,4],[2,2]]]}},
  {"type": "Feature", "properties": {},
   "geometry": {"type": "MultiLineString", "coordinates": [[[5,5],[6,6]], [[7,7],[8,8]]]}},
  {"type": "Feature", "properties": {"role": "obstacle"},
   "geometry": {"type": "MultiPolygon", "coordinates": [[[[6,1],[7,1],[7,2],[6,1]]]]}},
  {"type": "Feature", "properties": null,
   "geometry": {"type": "MultiPoint", "coordinates": [[3,8],[4,8]]}}
]}"#
    .to_vec()];
    let vocabulary = [
        "{",
        "}",
        "[",
        "]",
        ":",
        "\"type\"",
        "\"Feature\"",
        "\"FeatureCollection\"",
        "\"features\"",
        "\"geometry\"",
        "\"Point\"",
        "\"Polygon\"",
        "\"coordinates\"",
        "\"properties\"",
        "\"id\"",
        "\"role\"",
        "\"boundary\"",
        "1",
        "0",
        "[0,0]",
        "null",
    ];
    fuzz("read_geojson", 7, &samples, &vocabulary, CASES, &|s| {
        read_geojson(s).map(|env| env.validate().unwrap()).is_ok()
    });
}

#[test]
fn load_environment_never_panics_on_random_files() {
    let dir = std::env::temp_dir().join(format!("corridor-io-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("maze")).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let sources = [
        ("x.json", real("movingai/arena.map")),
        (
            "x.geojson",
            b"{\"type\": \"FeatureCollection\", \"features\": []}".to_vec(),
        ),
        ("x.map", real("movingai/arena.map")),
        ("x.mesh", real("polyanya/arena.mesh")),
        ("maze/maze.txt", real("anyangle/custom_maze14x11/maze.txt")),
        ("x.unknown", b"hello".to_vec()),
    ];
    for k in 0..400 {
        let (name, sample) = &sources[k % sources.len()];
        let bytes = if k % 2 == 0 {
            random_bytes(&mut rng)
        } else {
            mutate(&mut rng, sample)
        };
        let path = dir.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let target = if name.starts_with("maze/") {
            dir.join("maze")
        } else {
            path
        };
        if catch_unwind(|| load_environment(&target)).is_err() {
            panic!("load_environment panicked on {name} with bytes {bytes:?}");
        }
    }
    // Not there at all, and not UTF-8.
    assert!(load_environment(dir.join("missing.map")).is_err());
    std::fs::write(dir.join("bad.map"), b"type octile\n\xff\xfe").unwrap();
    let err = load_environment(dir.join("bad.map")).unwrap_err();
    assert!(
        matches!(
            err,
            corridor_io::LoadError::Utf8 {
                line: 2,
                column: 1,
                ..
            }
        ),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
