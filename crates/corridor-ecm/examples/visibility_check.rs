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
//! With `SKIP_ECM=1` only the index is checked (the ECM columns show "—").

use corridor_ecm::{Ecm, VisibilityError, VisibilityIndex};
use corridor_geom::Point;
use corridor_testkit::visibility_oracle::{merge_collinear, polygon_area, WallSweep};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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
        let mut rng = ChaCha8Rng::seed_from_u64(2027);
        let (mut same, mut same_index, mut compared, mut unlocated) = (0usize, 0, 0usize, 0usize);
        for _ in 0..points {
            let q = free[rng.random_range(0..free.len())];
            let ours = match if skip_ecm {
                index.visibility_polygon(q)
            } else {
                ecm.visibility_polygon(q)
            } {
                Ok(p) => p,
                Err(VisibilityError::NotInFreeSpace { .. }) => {
                    unlocated += 1;
                    continue;
                }
                Err(e) => panic!("{name} {q:?}: {e}"),
            };
            compared += 1;
            let a = merge_collinear(ours.vertices(), 1e-9);
            let b = merge_collinear(&sweep.visibility_polygon(q), 1e-9);
            match index.visibility_polygon(q) {
                Ok(p) => {
                    let c = merge_collinear(p.vertices(), 1e-9);
                    let (ac, ab) = (polygon_area(&c), polygon_area(&b));
                    if c.len() == b.len() && (ac - ab).abs() <= 1e-9 * ab.abs() {
                        same_index += 1;
                    } else {
                        eprintln!(
                            "{name} {q:?}: index {} corners area {ac}, sweep {} corners area {ab}",
                            c.len(),
                            b.len()
                        );
                    }
                }
                Err(e) => eprintln!("{name} {q:?}: index {e}"),
            }
            let (aa, ab) = (polygon_area(&a), polygon_area(&b));
            if a.len() == b.len() && (aa - ab).abs() <= 1e-9 * ab.abs() {
                same += 1;
            } else {
                eprintln!(
                    "{name} {q:?}: ECM {} corners area {aa}, sweep {} corners area {ab}",
                    a.len(),
                    b.len()
                );
            }
        }
        let (mut equal, mut equal_index, mut tested, mut visible) = (0usize, 0, 0usize, 0usize);
        for _ in 0..pairs {
            let p = free[rng.random_range(0..free.len())];
            let q = free[rng.random_range(0..free.len())];
            let ours = if skip_ecm {
                index.line_of_sight(p, q)
            } else {
                ecm.line_of_sight(p, q)
            };
            let Ok(ours) = ours else {
                continue;
            };
            tested += 1;
            let truth = sweep.line_of_sight_bucketed(p, q);
            visible += truth as usize;
            match index.line_of_sight(p, q) {
                Ok(x) if x == truth => equal_index += 1,
                other => eprintln!(
                    "{name} line of sight {p:?} → {q:?}: index {other:?}, brute force {truth}"
                ),
            }
            if ours == truth {
                equal += 1;
            } else {
                eprintln!("{name} line of sight {p:?} → {q:?}: ECM {ours}, brute force {truth}");
            }
        }
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
