//! The saved format's size and load time against a build (issue 30): for each map, the
//! bytes per bending point of `Ecm::to_bytes` (`CRDECM09`) and of the older `CRDECM07`
//! (the ECM's postcard form behind the same 20-byte header), and the median of
//! `RUNS` builds and loads (of both versions) run alternately in one process, on one thread (a one-thread
//! pool, timed by the thread's CPU time so that the other processes on the machine count
//! less). Every load is checked to give the saved
//! ECM bit for bit (its full postcard form, cell index included, equal to the built one's).
//!
//! ```sh
//! cargo run --release -p corridor-ecm --example saved_format            # the 10 maps
//! cargo run --release -p corridor-ecm --example saved_format -- 3 /tmp/r2048.map /tmp/city.json
//! ```

use corridor_ecm::Ecm;
use corridor_testkit::thread_cpu_time;
use std::path::PathBuf;
use std::time::Duration;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(5);
    let mut files: Vec<PathBuf> = args.iter().skip(1).map(PathBuf::from).collect();
    if files.is_empty() {
        let data = corridor_testkit::data_dir().join("movingai");
        let mut found: Vec<PathBuf> = std::fs::read_dir(&data)
            .expect("data/movingai")
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "map"))
            .collect();
        found.sort();
        files = found;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    pool.install(|| measure(&files, runs));
}

fn measure(files: &[PathBuf], runs: usize) {
    println!("| map | bending points | CRDECM07 B/bp | CRDECM09 B/bp | build (median) | CRDECM07 load | CRDECM09 load | build / load (07) | build / load (09) |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for path in files {
        let path = path.as_path();
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let env = corridor_io::load_environment(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ecm = Ecm::build(&env).unwrap_or_else(|e| panic!("{name}: {e}"));
        drop(env);
        let bytes = ecm.to_bytes();
        let reference = postcard::to_allocvec(&ecm).expect("the ECM serializes");
        let old_bytes = [
            b"CRDECM07".as_slice(),
            &(reference.len() as u64).to_le_bytes(),
            &crc32fast::hash(&reference).to_le_bytes(),
            &reference,
        ]
        .concat();
        let old = old_bytes.len();
        let mut old_loads = Vec::new();
        let (mut builds, mut loads) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let env = corridor_io::load_environment(path).expect("read before");
            let started = thread_cpu_time();
            let built = Ecm::build(&env).expect("built before");
            builds.push(thread_cpu_time() - started);
            drop((built, env));
            let started = thread_cpu_time();
            let loaded = Ecm::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            loads.push(thread_cpu_time() - started);
            assert!(
                postcard::to_allocvec(&loaded).expect("serializes") == reference,
                "{name}: the loaded ECM is not the saved one"
            );
            drop(loaded);
            let started = thread_cpu_time();
            let loaded = Ecm::from_bytes(&old_bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            old_loads.push(thread_cpu_time() - started);
            drop(loaded);
        }
        let bps = ecm.bending_point_count() as f64;
        let (build, load, old_load) = (median(builds), median(loads), median(old_loads));
        let (b, l, o) = (
            build.as_secs_f64(),
            load.as_secs_f64(),
            old_load.as_secs_f64(),
        );
        println!(
            "| {name} | {} | {:.1} | {:.1} | {b:.3} s | {o:.4} s | {l:.4} s | {:.0}× | {:.0}× |",
            ecm.bending_point_count(),
            old as f64 / bps,
            bytes.len() as f64 / bps,
            b / o,
            b / l,
        );
    }
}
