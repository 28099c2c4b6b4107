//! The large counts of the visibility checks (the CI test `visibility` runs a sample):
//! on every shared Moving AI map, random free points (cell centres) compared with the test
//! kit's angular sweep over all walls (same corner count after merging collinear
//! corners, area to 1e-9 relative), and random pairs of free points whose line of sight is
//! compared with brute-force segment–wall intersection; both for the ECM walk and for the
//! [`VisibilityIndex`] (triangular expansion).
//!
//! ```sh
//! cargo run --release -p corridor-ecm --example visibility_check -- [POINTS=10000] [PAIRS=1000000] [MAPS...]
//! ```
//! With `SKIP_ECM=1` only the index is checked (the ECM columns show "—"). The checks run
//! on rayon's pool (`RAYON_NUM_THREADS` to limit it); the sample does not depend on it.

use corridor_ecm::{Ecm, VisibilityError, VisibilityIndex};
use corridor_geom::Point;
use corridor_testkit::visibility_oracle::{merge_collinear, polygon_area, WallSweep};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let points: usize = args.get(1).map_or(10_000, |v| v.parse().expect("POINTS"));
    let pairs: usize = args.get(2).map_or(1_000_000, |v| v.parse().expect("PAIRS"));
    let mut maps: Vec<String> = args.iter().skip(3).cloned().collect();
    if maps.is_empty() {
        maps = [
            "arena",
            "den312d",
            "den520d",
            "brc202d",
            "16room_000",
            "Aurora",
            "random512-10-0",
        ]
        .map(String::from)
        .to_vec();
    }
    let skip_ecm = std::env::var("SKIP_ECM").is_ok_and(|v| v == "1");
    let data = corridor_testkit::data_dir().join("movingai");
    println!("| map | points compared | same corners and area (ECM, index) | not located | pairs | line of sight equal (ECM, index) | visible |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for name in &maps {
        let path = data.join(format!("{name}.map"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let grid = corridor_io::read_map(&text).expect("map");
        let env = grid.to_environment();
        let ecm = Ecm::build(&env).expect("ECM");
        let index = VisibilityIndex::build(&env).expect("index");
        let sweep = WallSweep::new(
            corridor_geom::normalize(&env)
                .expect("walls")
                .user_segments()
                .collect(),
        );
        let free: Vec<Point> = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| grid.is_free(x as i64, y as i64))
            .map(|(x, y)| Point::new(x as f64 + 0.5, y as f64 + 0.5))
            .collect();
        // The points and pairs are drawn in the same order as before (same seed, same
        // sample); the checks run in parallel (rayon), each tallying its own outcome.
        let mut rng = ChaCha8Rng::seed_from_u64(2027);
        let views: Vec<Point> = (0..points)
            .map(|_| free[rng.random_range(0..free.len())])
            .collect();
        let tally = |a: [usize; 3], b: [usize; 3]| [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
        let same_as_sweep = |ring: &[Point], truth: &[Point]| {
            let ring = merge_collinear(ring, 1e-9);
            let (a, b) = (polygon_area(&ring), polygon_area(truth));
            (
                ring.len() == truth.len() && (a - b).abs() <= 1e-9 * b.abs(),
                ring.len(),
                a,
            )
        };
        let [compared, same, same_index] = views
            .par_iter()
            .map(|&q| {
                let ours = if skip_ecm {
                    index.visibility_polygon(q)
                } else {
                    ecm.visibility_polygon(q)
                };
                let ours = match ours {
                    Ok(p) => p,
                    Err(VisibilityError::NotInFreeSpace { .. }) => return [0, 0, 0],
                    Err(e) => panic!("{name} {q:?}: {e}"),
                };
                let b = merge_collinear(&sweep.visibility_polygon(q), 1e-9);
                let ab = polygon_area(&b);
                let same_index = match index.visibility_polygon(q) {
                    Ok(p) => {
                        let (ok, n, ac) = same_as_sweep(p.vertices(), &b);
                        if !ok {
                            eprintln!(
                                "{name} {q:?}: index {n} corners area {ac}, sweep {} corners area {ab}",
                                b.len()
                            );
                        }
                        ok
                    }
                    Err(e) => {
                        eprintln!("{name} {q:?}: index {e}");
                        false
                    }
                };
                let (ok, n, aa) = same_as_sweep(ours.vertices(), &b);
                if !ok {
                    eprintln!(
                        "{name} {q:?}: ECM {n} corners area {aa}, sweep {} corners area {ab}",
                        b.len()
                    );
                }
                [1, ok as usize, same_index as usize]
            })
            .reduce(|| [0; 3], tally);
        let unlocated = points - compared;
        let pairs: Vec<(Point, Point)> = (0..pairs)
            .map(|_| {
                let p = free[rng.random_range(0..free.len())];
                (p, free[rng.random_range(0..free.len())])
            })
            .collect();
        let tally4 = |a: [usize; 4], b: [usize; 4]| std::array::from_fn(|i| a[i] + b[i]);
        let [tested, visible, equal, equal_index] = pairs
            .par_iter()
            .map(|&(p, q)| {
                let ours = if skip_ecm {
                    index.line_of_sight(p, q)
                } else {
                    ecm.line_of_sight(p, q)
                };
                let Ok(ours) = ours else {
                    return [0; 4];
                };
                let truth = sweep.line_of_sight_bucketed(p, q);
                let equal_index = match index.line_of_sight(p, q) {
                    Ok(x) if x == truth => true,
                    other => {
                        eprintln!(
                            "{name} line of sight {p:?} → {q:?}: index {other:?}, brute force {truth}"
                        );
                        false
                    }
                };
                if ours != truth {
                    eprintln!("{name} line of sight {p:?} → {q:?}: ECM {ours}, brute force {truth}");
                }
                [1, truth as usize, (ours == truth) as usize, equal_index as usize]
            })
            .reduce(|| [0; 4], tally4);
        let ecm_col = |n: usize| {
            if skip_ecm {
                "—".to_string()
            } else {
                n.to_string()
            }
        };
        println!(
            "| {name} | {compared} | {}, {same_index} | {unlocated} | {tested} | {}, {equal_index} | {visible} |",
            ecm_col(same),
            ecm_col(equal)
        );
    }
}
