//! Does a reader survive whatever it is fed? A seeded mutation fuzzer on the stable
//! toolchain (cargo-fuzz needs nightly's sanitizers and is not on the project's
//! machines): inputs grow from a corpus of real files by byte flips, interesting bytes,
//! insertions, deletions, duplicated and swapped ranges, splices of two corpus entries
//! and tokens of the format's vocabulary; every input that panics is kept with its
//! number, so that a finding can be replayed and made a regression test.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a fuzz run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuzzReport {
    /// Inputs run.
    pub inputs: u64,
    /// Inputs the target accepted (returned `true`).
    pub accepted: u64,
    /// Inputs that panicked (the first few kept in `panicking`).
    pub panics: u64,
    /// The first panicking inputs, with their number in the run.
    pub panicking: Vec<(u64, Vec<u8>)>,
}

/// One mutation of `input`, drawing from `corpus` (for splices) and `tokens` (the
/// format's vocabulary: keywords, punctuation, numbers).
///
/// ```
/// use corridor_testkit::fuzz::mutate;
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let corpus = vec![b"{\"version\": 1}".to_vec()];
/// let changed = (0..50).filter(|_| mutate(&mut rng, &corpus[0], &corpus, &["null"]) != corpus[0]).count();
/// assert!(changed > 40);
/// ```
pub fn mutate(
    rng: &mut impl RngCore,
    input: &[u8],
    corpus: &[Vec<u8>],
    tokens: &[&str],
) -> Vec<u8> {
    const INTERESTING: [&[u8]; 14] = [
        b"0",
        b"-1",
        b"1e308",
        b"-1e308",
        b"NaN",
        b"inf",
        b"4294967295",
        b"18446744073709551616",
        b"\"",
        b"[",
        b"]",
        b"{",
        b"}",
        b"\n",
    ];
    let mut v = input.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let n = v.len();
        let at = if n == 0 { 0 } else { rng.random_range(0..=n) };
        match rng.random_range(0..10) {
            0 if n > 0 => {
                let i = rng.random_range(0..n);
                v[i] ^= 1 << rng.random_range(0..8);
            }
            1 if n > 0 => {
                let i = rng.random_range(0..n);
                v[i] = [0, 0xff, b'0', b'9', b'-', b'.', b',', b' ', 0x80][rng.random_range(0..9)];
            }
            2 => {
                let s = INTERESTING[rng.random_range(0..INTERESTING.len())];
                v.splice(at..at, s.iter().copied());
            }
            3 if !tokens.is_empty() => {
                let t = tokens[rng.random_range(0..tokens.len())];
                v.splice(at..at, t.bytes());
            }
            4 if n > 0 => {
                let len = rng.random_range(1..=n.min(64));
                let start = rng.random_range(0..=n - len);
                v.drain(start..start + len);
            }
            5 if n > 0 => {
                // Duplicate a range somewhere else.
                let len = rng.random_range(1..=n.min(256));
                let start = rng.random_range(0..=n - len);
                let piece: Vec<u8> = v[start..start + len].to_vec();
                v.splice(at..at, piece);
            }
            6 if n > 1 => {
                // Swap two bytes' ranges of one byte each, far apart.
                let (i, j) = (rng.random_range(0..n), rng.random_range(0..n));
                v.swap(i, j);
            }
            7 if !corpus.is_empty() => {
                // Splice: this input's head with another's tail.
                let other = &corpus[rng.random_range(0..corpus.len())];
                let cut = rng.random_range(0..=other.len());
                v.truncate(at);
                v.extend_from_slice(&other[cut..]);
            }
            8 if n > 0 => v.truncate(rng.random_range(0..n)),
            _ => {
                let len = rng.random_range(1..=8);
                v.splice(at..at, (0..len).map(|_| rng.random::<u8>()));
            }
        }
    }
    v
}

/// Runs `target` on `inputs` mutated inputs grown from `corpus` with seed `seed`: each
/// input is a mutation of a corpus entry or (a third of the time) of an earlier
/// accepted input, so that the run reaches past the first checks. A panic is counted
/// and kept, not propagated. `target` tells whether it accepted the input.
///
/// ```
/// use corridor_testkit::fuzz::run;
/// let corpus = vec![b"12".to_vec()];
/// let report = run(&corpus, &[], 1000, 7, |b| std::str::from_utf8(b).is_ok_and(|s| s.parse::<u8>().is_ok()));
/// assert_eq!((report.inputs, report.panics), (1000, 0));
/// assert!(report.accepted > 0);
/// ```
pub fn run(
    corpus: &[Vec<u8>],
    tokens: &[&str],
    inputs: u64,
    seed: u64,
    target: impl Fn(&[u8]) -> bool,
) -> FuzzReport {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut report = FuzzReport::default();
    // Accepted inputs to grow from (a bounded pool, replaced at random).
    let mut pool: Vec<Vec<u8>> = Vec::new();
    let empty = [Vec::new()];
    let corpus = if corpus.is_empty() {
        &empty[..]
    } else {
        corpus
    };
    for i in 0..inputs {
        let base = if !pool.is_empty() && rng.random_bool(1.0 / 3.0) {
            &pool[rng.random_range(0..pool.len())]
        } else {
            &corpus[rng.random_range(0..corpus.len())]
        };
        let input = mutate(&mut rng, base, corpus, tokens);
        report.inputs += 1;
        match catch_unwind(AssertUnwindSafe(|| target(&input))) {
            Ok(true) => {
                report.accepted += 1;
                if input.len() <= 1 << 20 {
                    if pool.len() < 256 {
                        pool.push(input);
                    } else {
                        let k = rng.random_range(0..pool.len());
                        pool[k] = input;
                    }
                }
            }
            Ok(false) => {}
            Err(_) => {
                report.panics += 1;
                if report.panicking.len() < 5 {
                    report.panicking.push((i, input));
                }
            }
        }
    }
    report
}
