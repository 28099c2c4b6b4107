//! Timing for benchmarks and measuring examples: per-thread
//! CPU time (steadier than the wall clock on a shared machine) and order statistics.

use std::time::Duration;

/// CPU time consumed by the calling thread (`CLOCK_THREAD_CPUTIME_ID`; zero if the clock
/// cannot be read).
///
/// ```
/// let start = corridor_testkit::thread_cpu_time();
/// let spent = corridor_testkit::thread_cpu_time() - start;
/// assert!(spent.as_secs() < 1);
/// ```
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant Linux knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Runs `f` and returns its result with the CPU time it took (ms).
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = thread_cpu_time();
    let out = f();
    (out, (thread_cpu_time() - start).as_secs_f64() * 1e3)
}

/// The `q`-quantile (nearest rank) of `values`; NaN when empty.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// The median of `values` (the mean of the middle two for an even count); NaN when empty.
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
    }
}
