//! A stable least-significant-digit radix sort of items by packed integer keys, for the
//! large sorts of the ECM build (normalization's packed wall keys, the cell index's
//! Hilbert keys, environment validation's edge order): about half the instructions of a
//! comparison sort on the shared maps; and integer keys in the order of floats. For a few
//! items (a vertex's edge ends, one bucket of keys), [`insertion_sort`].

/// One digit of a key: `bits` bits (at most [`MAX_DIGIT_BITS`]) from bit `shift` up (bits
/// past 63 read as 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digit {
    /// The digit's lowest bit.
    pub shift: u32,
    /// Its width in bits.
    pub bits: u32,
}

impl Digit {
    /// The digit of `bits` bits from bit `shift` up.
    pub const fn new(shift: u32, bits: u32) -> Digit {
        Digit { shift, bits }
    }
}

/// The widest digit [`radix_sort_by_key`] takes (its counts are up to 2¹¹ words per digit).
pub const MAX_DIGIT_BITS: u32 = 11;

/// Sorts `items` stably by the `digits` of `key(item)`, least significant digit first:
/// items whose keys agree on every digit keep their order. All digits are counted in one
/// pass; a digit that every key shares is skipped.
///
/// # Panics
/// If a digit is wider than [`MAX_DIGIT_BITS`] or starts past bit 63.
///
/// # Example
/// ```
/// use corridor_geom::radix::{radix_sort_by_key, Digit};
/// let mut items = vec![(0x30_u64, 'a'), (0x10, 'b'), (0x31, 'c'), (0x11, 'd')];
/// // By bits 4..8 only: equal digits keep their order.
/// radix_sort_by_key(&mut items, &[Digit { shift: 4, bits: 4 }], |&(k, _)| k);
/// assert_eq!(items.iter().map(|&(_, c)| c).collect::<String>(), "bdac");
/// ```
// Inlined so that constant digit sets fold into the loops' shifts and masks (out of
// line, normalization's key sorts took 0.13 M more instructions a den520d build).
#[inline(always)]
pub fn radix_sort_by_key<T: Copy>(items: &mut Vec<T>, digits: &[Digit], key: impl Fn(&T) -> u64) {
    assert!(
        digits
            .iter()
            .all(|d| d.bits <= MAX_DIGIT_BITS && d.shift < 64),
        "radix digits must be at most {MAX_DIGIT_BITS} bits wide and start below bit 64"
    );
    let n = items.len();
    if n == 0 {
        return;
    }
    let digit = |k: u64, d: Digit| ((k >> d.shift) & ((1 << d.bits) - 1)) as usize;
    // One table of counts for all digits, each as wide as the widest digit needs.
    let size = 1usize << digits.iter().map(|d| d.bits).max().unwrap_or(0);
    let mut counts = vec![0u32; digits.len() * size];
    for item in items.iter() {
        let k = key(item);
        for (count, &d) in counts.chunks_exact_mut(size).zip(digits) {
            count[digit(k, d)] += 1;
        }
    }
    let first = key(&items[0]);
    let mut spare = vec![items[0]; n];
    for (count, &d) in counts.chunks_exact_mut(size).zip(digits) {
        // Every key has the same digit exactly when the first key's digit is counted n
        // times: this pass would change nothing.
        if count[digit(first, d)] as usize == n {
            continue;
        }
        let mut start = 0;
        for c in count.iter_mut() {
            (*c, start) = (start, start + *c);
        }
        for &item in items.iter() {
            let slot = &mut count[digit(key(&item), d)];
            spare[*slot as usize] = item;
            *slot += 1;
        }
        std::mem::swap(items, &mut spare);
    }
}

/// Sorts `(key, index)` pairs whose indices increase in the given order into increasing
/// order: the order `sort_unstable` gives (the pairs are distinct). From 1,024 pairs up
/// it is reached by [`radix_sort_by_key`] on the keys alone, which keeps equal keys in
/// index order: six digits of 11 bits, counted in one pass. About half the instructions
/// of `sort_unstable` on the shared maps' wall keys.
///
/// # Example
/// ```
/// use corridor_geom::radix::sort_index_pairs;
/// let mut pairs: Vec<(u64, u32)> = [7_u64, 3, 7, 1].into_iter().zip(0..).collect();
/// sort_index_pairs(&mut pairs);
/// assert_eq!(pairs, [(1, 3), (3, 1), (7, 0), (7, 2)]);
/// ```
pub fn sort_index_pairs(pairs: &mut Vec<(u64, u32)>) {
    if pairs.len() < RADIX_FROM {
        pairs.sort_unstable();
        return;
    }
    debug_assert!(pairs.windows(2).all(|w| w[0].1 < w[1].1));
    const DIGITS: [Digit; 6] = [
        Digit::new(0, 11),
        Digit::new(11, 11),
        Digit::new(22, 11),
        Digit::new(33, 11),
        Digit::new(44, 11),
        Digit::new(55, 11),
    ];
    radix_sort_by_key(pairs, &DIGITS[..], |&(k, _)| k);
}

/// [`sort_index_pairs`] for keys below 2^`bits` (`bits` ≤ 64): the same order, by as
/// few digits as cover `bits` bits (fewer passes over the pairs for keys packed from
/// coordinates relative to their minimum: normalization's wall keys on grid maps take
/// 37 bits, four digits of 10 instead of six of 11), through [`radix_sort_by_key`] with
/// constant digit sets, so that the shifts and masks are compiled in.
///
/// # Panics
/// If a key is not below 2^`bits` (debug builds only: release builds give some order).
///
/// # Example
/// ```
/// use corridor_geom::radix::sort_index_pairs_below;
/// let mut pairs: Vec<(u64, u32)> = [7_u64, 3, 7, 1].into_iter().zip(0..).collect();
/// sort_index_pairs_below(&mut pairs, 3);
/// assert_eq!(pairs, [(1, 3), (3, 1), (7, 0), (7, 2)]);
/// ```
pub fn sort_index_pairs_below(pairs: &mut Vec<(u64, u32)>, bits: u32) {
    debug_assert!(bits >= 64 || pairs.iter().all(|&(k, _)| k >> bits == 0));
    if pairs.len() < RADIX_FROM {
        pairs.sort_unstable();
        return;
    }
    debug_assert!(pairs.windows(2).all(|w| w[0].1 < w[1].1));
    let key = |&(k, _): &(u64, u32)| k;
    match bits {
        0..=10 => radix_sort_by_key(pairs, &const { digit_set::<1>(10) }, key),
        11..=20 => radix_sort_by_key(pairs, &const { digit_set::<2>(10) }, key),
        21..=30 => radix_sort_by_key(pairs, &const { digit_set::<3>(10) }, key),
        31..=40 => radix_sort_by_key(pairs, &const { digit_set::<4>(10) }, key),
        41..=44 => radix_sort_by_key(pairs, &const { digit_set::<4>(11) }, key),
        45..=55 => radix_sort_by_key(pairs, &const { digit_set::<5>(11) }, key),
        _ => radix_sort_by_key(pairs, &const { digit_set::<6>(11) }, key),
    }
}

/// `N` digits of `bits` bits each, from bit 0 up.
const fn digit_set<const N: usize>(bits: u32) -> [Digit; N] {
    let mut digits = [Digit::new(0, 0); N];
    let mut i = 0;
    while i < N {
        digits[i] = Digit::new(i as u32 * bits, bits);
        i += 1;
    }
    digits
}

/// A key for `x` whose unsigned order is [`f64::total_cmp`]'s (so `-0.0` below `0.0`;
/// add `0.0` first to key both zeros alike), for sorts of floats by integer keys.
///
/// # Example
/// ```
/// use corridor_geom::radix::total_order_key;
/// let xs = [f64::NEG_INFINITY, -2.5, -0.0, 0.0, 1e-300, 3.0, f64::INFINITY];
/// assert!(xs.windows(2).all(|w| total_order_key(w[0]) < total_order_key(w[1])));
/// ```
pub fn total_order_key(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// From this many pairs [`sort_index_pairs`] sorts by radix.
const RADIX_FROM: usize = 1024;

/// A stable sort of a few items (a vertex's edge ends or nearest points, one bucket of the
/// packed tree's keys): each item moves down past the ones before it that are greater, so
/// equal items keep their order, as in `slice::sort_by`.
///
/// ```
/// let mut items = [(2, 'a'), (1, 'b'), (2, 'c'), (0, 'd')];
/// corridor_geom::radix::insertion_sort(&mut items, |x, y| x.0.cmp(&y.0));
/// assert_eq!(items, [(0, 'd'), (1, 'b'), (2, 'a'), (2, 'c')]);
/// ```
#[inline]
pub fn insertion_sort<T: Copy>(items: &mut [T], cmp: impl Fn(&T, &T) -> std::cmp::Ordering) {
    for i in 1..items.len() {
        let item = items[i];
        let mut j = i;
        while j > 0 && cmp(&items[j - 1], &item) == std::cmp::Ordering::Greater {
            items[j] = items[j - 1];
            j -= 1;
        }
        items[j] = item;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The pair sort gives the order of `sort_unstable`, on key sets with few and many
    /// distinct values, keys up to 2⁶⁴ − 1, below and above its size threshold.
    #[test]
    fn sort_index_pairs_matches_sort_unstable() {
        let mut rng = ChaCha8Rng::seed_from_u64(18);
        for round in 0..70 {
            let n = [0, 1, 5, 1023, 1024, 3000, 20_000][round % 7];
            let mask: u64 = [
                u64::MAX,
                (1 << 63) - 1,
                0xFF,
                0x7FF << 22,
                1 << 62 | 0xF_FFFF,
            ][round % 5];
            let base: u64 = rng.random_range(0..1 << 40) & !mask;
            let mut pairs: Vec<(u64, u32)> = (0..n)
                .map(|i| (base | (rng.random::<u64>() & mask), i))
                .collect();
            let mut expected = pairs.clone();
            expected.sort_unstable();
            let mut narrow = pairs.clone();
            sort_index_pairs(&mut pairs);
            assert_eq!(pairs, expected, "round {round}");
            // The narrow sort, told the width of the widest key (or more).
            let bits = 64
                - narrow
                    .iter()
                    .map(|&(k, _)| k)
                    .max()
                    .unwrap_or(0)
                    .leading_zeros();
            sort_index_pairs_below(&mut narrow, bits + (round as u32 % 3) * 7);
            assert_eq!(narrow, expected, "round {round}");
        }
        // Every digit set of the narrow sort, keys with few and many distinct values.
        for bits in [
            0u32, 3, 10, 11, 19, 20, 21, 30, 31, 37, 40, 41, 44, 45, 50, 55, 56, 64,
        ] {
            for distinct in [5u64, u64::MAX] {
                let n = 1500 + bits as usize * 37;
                let mut pairs: Vec<(u64, u32)> = (0..n as u32)
                    .map(|i| {
                        let k = rng.random::<u64>() % distinct;
                        let k = if distinct == 5 {
                            k << bits.saturating_sub(3)
                        } else {
                            k
                        };
                        (if bits == 64 { k } else { k & ((1 << bits) - 1) }, i)
                    })
                    .collect();
                let mut expected = pairs.clone();
                expected.sort_unstable();
                sort_index_pairs_below(&mut pairs, bits);
                assert_eq!(pairs, expected, "{bits} bits");
            }
        }
    }
}
