//! The ECM's visibility queries beside CGAL's triangular expansion, on the same walls and
//! points (run by `bench/cgal-visibility/run.sh`, which builds the CGAL side).
//!
//! ```sh
//! visibility_bench prepare MAP PREFIX [NQ=1000] [SEED=27]  # PREFIX.segs, PREFIX.queries
//! visibility_bench measure MAP PREFIX [REPS=3]             # PREFIX.{ours,ecm}.csv; line of sight
//! visibility_bench compare NAME PREFIX                     # a table row from both CSVs
//! visibility_bench sight MAP                               # the index's line of sight only
//! visibility_bench ecm-polygons MAP                        # the ECM walk's polygons only
//! ```
//! "ours" is the [`VisibilityIndex`] (triangular expansion on a constrained triangulation
//! of the walls), "ecm" the ECM cell walk, timed alternately point by point.
//! Query points are random free cell centres; times are thread CPU time per query, the
//! smallest of REPS runs, including the point location (line of sight: monotonic clock
//! per query, and thread CPU time over the whole batch). Vertex counts are taken after
//! dropping corners exactly collinear with their neighbours, as the CGAL side does.

use corridor_ecm::{Ecm, VisibilityIndex, VisibilityPolygon};
use corridor_geom::Point;
use corridor_testkit::visibility_oracle::{merge_collinear, polygon_area};
use corridor_testkit::{median, thread_cpu_time};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

fn free_centres(map: &Path) -> (corridor_io::CellGrid, Vec<Point>) {
    let text = std::fs::read_to_string(map).unwrap_or_else(|e| panic!("{}: {e}", map.display()));
    let grid = corridor_io::read_map(&text).unwrap_or_else(|e| panic!("{}: {e}", map.display()));
    let free = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_free(x as i64, y as i64))
        .map(|(x, y)| Point::new(x as f64 + 0.5, y as f64 + 0.5))
        .collect();
    (grid, free)
}

fn read_points(path: &str) -> Vec<Point> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let mut it = l.split_whitespace().map(|v| v.parse::<f64>().ok());
            Some(Point::new(it.next()??, it.next()??))
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: visibility_bench prepare MAP PREFIX [NQ] [SEED] | measure MAP PREFIX [REPS] | compare NAME PREFIX";
    match args.get(1).map(String::as_str) {
        Some("prepare") if args.len() >= 4 => {
            let (grid, free) = free_centres(Path::new(&args[2]));
            let nq: usize = args.get(4).map_or(1000, |v| v.parse().expect("NQ"));
            let seed: u64 = args.get(5).map_or(27, |v| v.parse().expect("SEED"));
            let walls = corridor_geom::normalize(&grid.to_environment()).expect("walls");
            let segs: Vec<_> = walls.user_segments().collect();
            let mut out = format!("{}\n", segs.len());
            for s in &segs {
                writeln!(out, "{} {} {} {}", s.a.x, s.a.y, s.b.x, s.b.y).unwrap();
            }
            std::fs::write(format!("{}.segs", args[3]), out).expect("write segs");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut out = format!("{nq}\n");
            for _ in 0..nq {
                let p = free[rng.random_range(0..free.len())];
                writeln!(out, "{} {}", p.x, p.y).unwrap();
            }
            std::fs::write(format!("{}.queries", args[3]), out).expect("write queries");
        }
        Some("measure") if args.len() >= 4 => {
            let (grid, free) = free_centres(Path::new(&args[2]));
            let reps: usize = args.get(4).map_or(3, |v| v.parse().expect("REPS"));
            let env = grid.to_environment();
            let ecm = Ecm::build(&env).expect("ECM");
            let t0 = thread_cpu_time();
            let index = VisibilityIndex::build(&env).expect("index");
            let build_ms = (thread_cpu_time() - t0).as_secs_f64() * 1e3;
            let points = read_points(&format!("{}.queries", args[3]));
            // Index and ECM walk alternate per point (REPS runs each, smallest kept).
            let mut out = String::from("qid,vertices,area,cpu_us\n");
            let mut out_ecm = out.clone();
            let mut skipped = 0;
            let row =
                |out: &mut String, i: usize, r: Result<VisibilityPolygon, _>, best: f64| match r {
                    Ok(poly) => {
                        let poly: VisibilityPolygon = poly;
                        let merged = merge_collinear(poly.vertices(), 0.0);
                        writeln!(out, "{i},{},{},{best}", merged.len(), polygon_area(&merged))
                            .unwrap();
                        false
                    }
                    Err(_) => {
                        writeln!(out, "{i},0,0,0").unwrap();
                        true
                    }
                };
            for (i, &q) in points.iter().enumerate() {
                let (mut best, mut best_ecm) = (f64::INFINITY, f64::INFINITY);
                let (mut result, mut result_ecm) = (None, None);
                for _ in 0..reps {
                    let t0 = thread_cpu_time();
                    let r = index.visibility_polygon(q);
                    let t1 = thread_cpu_time();
                    let r_ecm = ecm.visibility_polygon(q);
                    let t2 = thread_cpu_time();
                    best = best.min((t1 - t0).as_secs_f64() * 1e6);
                    best_ecm = best_ecm.min((t2 - t1).as_secs_f64() * 1e6);
                    result = Some(r);
                    result_ecm = Some(r_ecm);
                }
                skipped += row(&mut out, i, result.expect("one run"), best) as usize;
                row(&mut out_ecm, i, result_ecm.expect("one run"), best_ecm);
            }
            std::fs::write(format!("{}.ours.csv", args[3]), out).expect("write csv");
            std::fs::write(format!("{}.ecm.csv", args[3]), out_ecm).expect("write csv");
            // Line of sight between random free cell centres (locate included), index and
            // ECM walk alternating.
            let mut rng = ChaCha8Rng::seed_from_u64(28);
            let pairs: Vec<(Point, Point)> = (0..20_000)
                .map(|_| {
                    (
                        free[rng.random_range(0..free.len())],
                        free[rng.random_range(0..free.len())],
                    )
                })
                .collect();
            // Per query, the monotonic clock (vDSO, tens of ns a read; the thread CPU clock
            // is a system call of about 1 µs, more than the query): the median shrugs off
            // the queries that other processes interrupt. Each implementation in its own
            // pass (alternating per query, each evicted the other's data from the cache).
            let (mut seen, mut differ) = (0, 0);
            let answers: Vec<_> = pairs
                .iter()
                .map(|&(p, q)| index.line_of_sight(p, q))
                .collect();
            for (&(p, q), r) in pairs.iter().zip(&answers) {
                seen += matches!(r, Ok(true)) as usize;
                differ += (*r != ecm.line_of_sight(p, q)) as usize;
            }
            let per_query = |f: &dyn Fn(Point, Point) -> bool| -> Vec<f64> {
                pairs
                    .iter()
                    .map(|&(p, q)| {
                        let t0 = Instant::now();
                        std::hint::black_box(f(p, q));
                        t0.elapsed().as_secs_f64() * 1e6
                    })
                    .collect()
            };
            let times = per_query(&|p, q| index.line_of_sight(p, q) == Ok(true));
            let times_ecm = per_query(&|p, q| ecm.line_of_sight(p, q) == Ok(true));
            // The same pairs in one timed batch each (no clock read per query): the mean.
            let batch = |f: &dyn Fn(Point, Point) -> bool| {
                let t0 = thread_cpu_time();
                let n = pairs.iter().filter(|&&(p, q)| f(p, q)).count();
                std::hint::black_box(n);
                (thread_cpu_time() - t0).as_secs_f64() * 1e6 / pairs.len() as f64
            };
            // What reading the clock twice costs (in every per-query figure).
            let clock: Vec<f64> = (0..pairs.len())
                .map(|_| {
                    let t0 = Instant::now();
                    let t1 = Instant::now();
                    (t1 - t0).as_secs_f64() * 1e6
                })
                .collect();
            let mean_index = batch(&|p, q| index.line_of_sight(p, q) == Ok(true));
            // Point location alone (no candidates).
            let mean_locate = batch(&|p, _| index.visible_points(p, &[]).is_ok());
            let mean_ecm = batch(&|p, q| ecm.line_of_sight(p, q) == Ok(true));
            println!(
                "LOS pairs={} visible={seen} index_median_us={:.2} ecm_median_us={:.2} index_batch_mean_us={mean_index:.2} index_locate_mean_us={mean_locate:.2} ecm_batch_mean_us={mean_ecm:.2} clock_median_us={:.2} index_vs_ecm_differ={differ} index_build_ms={build_ms:.1} triangles={} polygon_skipped={skipped}",
                pairs.len(),
                median(&times),
                median(&times_ecm),
                median(&clock),
                index.triangle_count(),
            );
        }
        Some("sight") if args.len() >= 3 => {
            // Only the index's line of sight on the measure step's pairs, for callgrind.
            let (grid, free) = free_centres(Path::new(&args[2]));
            let index = VisibilityIndex::build(&grid.to_environment()).expect("index");
            let mut rng = ChaCha8Rng::seed_from_u64(28);
            let seen = (0..20_000)
                .filter(|_| {
                    let p = free[rng.random_range(0..free.len())];
                    let q = free[rng.random_range(0..free.len())];
                    index.line_of_sight(p, q) == Ok(true)
                })
                .count();
            println!("visible {seen}");
        }
        Some("ecm-polygons") if args.len() >= 3 => {
            // Only the ECM walk's polygons on 200 random free cell centres, for callgrind.
            let (grid, free) = free_centres(Path::new(&args[2]));
            let ecm = Ecm::build(&grid.to_environment()).expect("ECM");
            let mut rng = ChaCha8Rng::seed_from_u64(27);
            let corners: usize = (0..200)
                .map(|_| {
                    let q = free[rng.random_range(0..free.len())];
                    ecm.visibility_polygon(q).map_or(0, |p| p.len())
                })
                .sum();
            println!("corners {corners}");
        }
        Some("compare") if args.len() >= 4 => {
            let read = |path: String| -> Vec<(usize, f64, f64)> {
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                text.lines()
                    .skip(1)
                    .map(|l| {
                        let v: Vec<&str> = l.split(',').collect();
                        (
                            v[1].parse().unwrap(),
                            v[2].parse().unwrap(),
                            v[3].parse().unwrap(),
                        )
                    })
                    .collect()
            };
            let ours = read(format!("{}.ours.csv", args[3]));
            let ecm = read(format!("{}.ecm.csv", args[3]));
            let cgal = read(format!("{}.cgal.csv", args[3]));
            let (mut same_n, mut same_area, mut both) = ([0, 0], [0, 0], 0);
            let (mut t_ours, mut t_ecm, mut t_cgal) = (Vec::new(), Vec::new(), Vec::new());
            for ((a, e), b) in ours.iter().zip(&ecm).zip(&cgal) {
                if a.0 == 0 || e.0 == 0 || b.0 == 0 {
                    continue;
                }
                both += 1;
                for (k, x) in [a, e].into_iter().enumerate() {
                    same_n[k] += (x.0 == b.0) as usize;
                    same_area[k] += ((x.1 - b.1).abs() <= 1e-9 * b.1.abs()) as usize;
                }
                t_ours.push(a.2);
                t_ecm.push(e.2);
                t_cgal.push(b.2);
            }
            let (mo, me, mc) = (median(&t_ours), median(&t_ecm), median(&t_cgal));
            println!(
                "| {} | {both} | {mo:.1} | {me:.1} | {mc:.1} | {:.2} | {:.2} | {}/{both}, {}/{both} | {}/{both}, {}/{both} |",
                args[2],
                mo / mc,
                me / mc,
                same_n[0],
                same_n[1],
                same_area[0],
                same_area[1],
            );
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
