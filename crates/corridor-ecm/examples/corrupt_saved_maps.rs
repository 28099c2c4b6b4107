//! Counts what the loader does with damaged and forged saved maps (the full-size run of
//! the `corruption` test): arena, den520d and the builtin scenes, N corruptions (default
//! 100,000) of which a quarter are forgeries with a matching checksum; every successful
//! load is queried (paths, look-ups). Prints panics, plain loads (must be 0: a damaged file
//! never loads), forged loads, and the largest ratio of bytes allocated while loading to
//! the file's size.
//!
//! `cargo run --release -p corridor-ecm --example corrupt_saved_maps -- [N] [SEED]`

use corridor_ecm::{Ecm, LoadOptions, PathQuery};
use corridor_geom::{Environment, Point};
use corridor_testkit::corrupt::{corrupt, forge};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the bytes requested while loading (the sum of all allocations: an upper bound
/// of the peak).
struct Counting;
static ALLOCATED: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new_size, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args.get(1).map_or(Ok(100_000), |s| s.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(25), |s| s.parse())?;
    let mut maps: Vec<(String, Ecm)> = Vec::new();
    for name in ["arena", "den520d"] {
        let path = corridor_testkit::data_path(format!("movingai/{name}.map"));
        let env: Environment = corridor_io::load_environment(&path)?;
        maps.push((name.into(), Ecm::build(&env)?));
    }
    for scene in corridor_io::scenes::Scene::ALL {
        maps.push((scene.name().into(), Ecm::build(&scene.build())?));
    }
    let saved: Vec<Vec<u8>> = maps.iter().map(|(_, e)| e.to_bytes()).collect();
    let probes: Vec<Vec<Point>> = maps
        .iter()
        .map(|(_, e)| {
            e.vertices()
                .step_by(11)
                .take(4)
                .map(|(_, v)| v.position)
                .collect()
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut panics, mut plain_loaded, mut forged, mut forged_loaded) = (0, 0, 0, 0);
    // Bytes allocated per load over the file's size, for files of at least 64 KiB (below
    // that a load's fixed allocations dominate), and the most any load allocated.
    let (mut worst_ratio, mut most): (f64, usize) = (0.0, 0);
    let started = std::time::Instant::now();
    for i in 0..runs {
        let m = rng.random_range(0..maps.len());
        let forgery = i % 4 == 3;
        let (bytes, _) = if forgery {
            forged += 1;
            forge(&mut rng, &saved[m])
        } else {
            corrupt(&mut rng, &saved[m])
        };
        let options = LoadOptions {
            full_validation: i % 2 == 0,
            ..LoadOptions::default()
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let before = ALLOCATED.load(Ordering::Relaxed);
            let result = Ecm::from_bytes_with(&bytes, &options);
            let used = ALLOCATED.load(Ordering::Relaxed) - before;
            if let Ok(ecm) = &result {
                for w in probes[m].windows(2) {
                    let _ = ecm.plan(&PathQuery::new(w[0], w[1]));
                    let _ = ecm.locate(w[0]);
                }
            }
            (result.map(|e| e.to_bytes() == saved[m]), used)
        }));
        match outcome {
            Err(_) => panics += 1,
            Ok((result, used)) => {
                most = most.max(used);
                if bytes.len() >= 1 << 16 {
                    worst_ratio = worst_ratio.max(used as f64 / bytes.len() as f64);
                }
                match result {
                    Ok(_) if forgery => forged_loaded += 1,
                    Ok(_) => plain_loaded += 1,
                    Err(_) => {}
                }
            }
        }
    }
    println!(
        "{runs} corruptions (seed {seed}) of {} saved maps in {:.1} s: {panics} panics, \
         {plain_loaded} damaged files loaded (silently different), {forged_loaded} of \
         {forged} forgeries loaded (checksum matched, structure consistent); bytes \
         allocated per load at most {worst_ratio:.1}× the file size (files of 64 KiB or \
         more), at most {most} bytes in all (largest file {} bytes)",
        maps.len(),
        started.elapsed().as_secs_f64(),
        saved.iter().map(Vec::len).max().unwrap_or(0)
    );
    Ok(())
}
