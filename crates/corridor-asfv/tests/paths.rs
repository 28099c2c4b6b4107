//! Paths: every segment lies in the free space (checked exactly by brute force over all
//! walls, not by the decomposition), and no path is shorter than the Euclidean optimum
//! that the shared data gives.

mod common;

use corridor_asfv::{AsfvError, AsfvOptions, Decomposition};
use corridor_geom::{Environment, Point};
use corridor_io::scenes::Scene;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn assert_free(env: &Environment, points: &[Point], what: &str) {
    for w in points.windows(2) {
        assert!(
            common::segment_is_free(env, w[0], w[1]),
            "{what}: segment {:?} -> {:?} leaves the free space",
            w[0],
            w[1]
        );
    }
}

#[test]
fn scene_paths_stay_in_free_space() {
    for scene in Scene::ALL {
        let env = scene.build();
        let d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let b = env.bounds();
        let mut found = 0;
        for _ in 0..200 {
            let mut pick = || loop {
                let p = Point::new(
                    rng.random_range(b.min.x..b.max.x),
                    rng.random_range(b.min.y..b.max.y),
                );
                if d.locate(p).is_some() {
                    return p;
                }
            };
            let (s, g) = (pick(), pick());
            match d.path(s, g) {
                Ok(path) => {
                    found += 1;
                    assert_eq!(path.points.first(), Some(&s));
                    assert_eq!(path.points.last(), Some(&g));
                    assert!(path.length >= s.distance(g) - 1e-9);
                    assert_free(&env, &path.points, scene.name());
                }
                Err(AsfvError::NoPath) => {}
                Err(e) => panic!("{}: {e}", scene.name()),
            }
        }
        println!("{:9} {found} of 200 random pairs connected", scene.name());
        assert!(found > 100, "{}", scene.name());
    }
}

#[test]
fn path_errors_are_typed() {
    let env = Scene::Dungeon.build();
    let d = Decomposition::build(&env, &AsfvOptions::default()).unwrap();
    assert!(matches!(
        d.path(Point::new(f64::NAN, 1.0), Point::new(10.0, 10.0)),
        Err(AsfvError::NonFinitePoint { which: "start", .. })
    ));
    assert!(matches!(
        d.path(Point::new(10.0, 10.0), Point::new(-5.0, 10.0)),
        Err(AsfvError::NotCovered { which: "goal", .. })
    ));
    // Inside a rock wall between rooms.
    assert!(matches!(
        d.path(Point::new(20.0, 20.0), Point::new(10.0, 10.0)),
        Err(AsfvError::NotCovered { which: "start", .. })
    ));
    // The sealed room (4, 0) cannot be reached from the middle room.
    assert!(matches!(
        d.path(Point::new(90.0, 10.0), Point::new(43.0, 43.0)),
        Err(AsfvError::NoPath)
    ));
}

/// Path length over optimum on one environment and its problems; checks the segments of
/// every `check_every`-th path by brute force.
fn against_oracle(
    name: &str,
    env: &Environment,
    problems: &[(Point, Point, f64)],
    check_every: usize,
) -> (usize, f64, f64) {
    let d = Decomposition::build(env, &AsfvOptions::default()).unwrap();
    d.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
    let coverage = d.coverage().fraction();
    assert!(coverage >= 0.99, "{name}: coverage {coverage}");
    let (mut solved, mut sum, mut worst) = (0, 0.0, 1.0f64);
    for (i, &(s, g, optimum)) in problems.iter().enumerate() {
        let path = d
            .path(s, g)
            .unwrap_or_else(|e| panic!("{name} problem {i}: {e}"));
        assert!(
            path.length >= optimum * (1.0 - 1e-5) - 1e-5,
            "{name} problem {i}: length {} below the optimum {optimum} (given to 6 digits)",
            path.length
        );
        if i % check_every == 0 {
            assert_free(env, &path.points, name);
        }
        if optimum > 0.0 {
            let ratio = path.length / optimum;
            sum += ratio;
            worst = worst.max(ratio);
            solved += 1;
        }
    }
    (solved, sum, worst)
}

#[test]
fn any_angle_mazes_never_beat_the_optimum() {
    let dir = common::shared_data().join("anyangle");
    let mut mazes: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        // The maze folders only (the data folder also holds the mazes' NOTICE.md).
        .filter(|p| p.is_dir())
        .collect();
    mazes.sort();
    let (mut solved, mut sum, mut worst) = (0, 0.0, 1.0f64);
    for maze in &mazes {
        let env = corridor_io::load_environment(maze).unwrap();
        let problems: Vec<(Point, Point, f64)> =
            corridor_io::load_problems(maze.join("problems.csv"))
                .unwrap()
                .iter()
                .map(|p| (p.start, p.goal, p.length))
                .collect();
        let name = maze.file_name().unwrap().to_string_lossy().to_string();
        let (n, s, w) = against_oracle(&name, &env, &problems, 7);
        solved += n;
        sum += s;
        worst = worst.max(w);
    }
    println!(
        "any-angle: {} mazes, {solved} problems, path/optimum mean {:.4} worst {:.4}",
        mazes.len(),
        sum / solved as f64,
        worst
    );
    assert!(solved > 4000);
}

#[test]
fn aurora_mesh_never_beats_the_optimum() {
    let data = common::shared_data().join("polyanya");
    let env = corridor_io::load_environment(data.join("aurora.mesh")).unwrap();
    let text = std::fs::read_to_string(data.join("aurora-euclidean.csv")).unwrap();
    let problems: Vec<(Point, Point, f64)> = text
        .lines()
        .filter_map(|line| {
            let v: Vec<f64> = line
                .split(',')
                .filter_map(|x| x.trim().parse().ok())
                .collect();
            (v.len() == 5).then(|| (Point::new(v[0], v[1]), Point::new(v[2], v[3]), v[4]))
        })
        .step_by(3)
        .collect();
    let (n, sum, worst) = against_oracle("aurora", &env, &problems, 25);
    println!(
        "aurora: {n} problems (every third), path/optimum mean {:.4} worst {:.4}",
        sum / n as f64,
        worst
    );
    assert!(n > 900);
}
