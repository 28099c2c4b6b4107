//! How can a file be damaged? Seeded corruptions of a byte string (bit flips, overwrites,
//! truncations, huge length fields, NaN written over numbers, appended garbage), and
//! forgeries of a saved ECM (a corruption of its payload with the header's length and
//! checksum made to match), for the loaders' hostile-input tests and fuzzers.

use rand::{Rng, RngCore};

/// The kinds of damage [`corrupt`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Corruption {
    /// One to eight single bits flipped.
    BitFlips,
    /// A run of one to sixteen bytes overwritten with random bytes.
    Overwrite,
    /// The bytes cut short at a random length.
    Truncation,
    /// A varint's worth of `0xff` bytes (a huge postcard length) written somewhere.
    HugeLength,
    /// The eight bytes of an `f64` NaN written at a random place.
    NaN,
    /// Random bytes appended.
    AppendedGarbage,
}

impl Corruption {
    /// Every kind.
    pub const ALL: [Corruption; 6] = [
        Corruption::BitFlips,
        Corruption::Overwrite,
        Corruption::Truncation,
        Corruption::HugeLength,
        Corruption::NaN,
        Corruption::AppendedGarbage,
    ];
}

/// `original` damaged by one random kind of [`Corruption`] (never equal to it, unless it
/// is empty and the kind cannot change it).
///
/// ```
/// use corridor_testkit::corrupt::corrupt;
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let original = vec![7u8; 100];
/// for _ in 0..100 {
///     let (damaged, kind) = corrupt(&mut rng, &original);
///     assert_ne!(damaged, original, "{kind:?}");
/// }
/// ```
pub fn corrupt(rng: &mut impl RngCore, original: &[u8]) -> (Vec<u8>, Corruption) {
    let kind = Corruption::ALL[rng.random_range(0..Corruption::ALL.len())];
    (corrupt_as(rng, original, kind), kind)
}

/// `original` damaged by `kind`, starting at or after `from` (the header is left alone
/// by a `from` past it).
pub fn corrupt_from(rng: &mut impl RngCore, original: &[u8], from: usize) -> (Vec<u8>, Corruption) {
    let kind = Corruption::ALL[rng.random_range(0..Corruption::ALL.len())];
    let from = from.min(original.len());
    let mut tail = corrupt_as(rng, &original[from..], kind);
    let mut out = original[..from].to_vec();
    out.append(&mut tail);
    (out, kind)
}

/// `original` damaged by `kind`.
pub fn corrupt_as(rng: &mut impl RngCore, original: &[u8], kind: Corruption) -> Vec<u8> {
    let mut v = original.to_vec();
    let n = v.len();
    if n == 0 && kind != Corruption::AppendedGarbage {
        return v;
    }
    match kind {
        Corruption::BitFlips => {
            // Distinct bits, so that no flip undoes another.
            let mut bits: Vec<usize> = (0..rng.random_range(1..=8))
                .map(|_| rng.random_range(0..n * 8))
                .collect();
            bits.sort_unstable();
            bits.dedup();
            for b in bits {
                v[b / 8] ^= 1 << (b % 8);
            }
        }
        Corruption::Overwrite => {
            let at = rng.random_range(0..n);
            let len = rng.random_range(1..=16).min(n - at);
            for byte in &mut v[at..at + len] {
                *byte = rng.random();
            }
            if v == original {
                v[at] ^= 0x55;
            }
        }
        Corruption::Truncation => v.truncate(rng.random_range(0..n)),
        Corruption::HugeLength => {
            let at = rng.random_range(0..n);
            let huge = [0xff, 0xff, 0xff, 0xff, 0x0f];
            for (byte, &h) in v[at..].iter_mut().zip(&huge) {
                *byte = h;
            }
            if v == original {
                v[at] ^= 0x55;
            }
        }
        Corruption::NaN => {
            let at = rng.random_range(0..n);
            // A quiet NaN with a random payload, so that it differs from the bytes there.
            let nan = f64::from_bits(0x7ff8_0000_0000_0000 | rng.random_range(1..1u64 << 51));
            for (byte, &b) in v[at..].iter_mut().zip(&nan.to_le_bytes()) {
                *byte = b;
            }
            if v == original {
                v[at] ^= 0x55;
            }
        }
        Corruption::AppendedGarbage => {
            let len = rng.random_range(1..=1000);
            v.extend((0..len).map(|_| rng.random::<u8>()));
        }
    }
    v
}

/// Length of a saved ECM's header (magic, payload length, checksum).
pub const ECM_HEADER: usize = 20;

/// A forgery of the saved ECM `original`: its payload damaged by [`corrupt`], then the
/// header's length and CRC-32 rewritten to match, so that only the decoder and the
/// structural check stand between it and the user.
///
/// ```
/// use corridor_testkit::corrupt::{forge, ECM_HEADER};
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let original = [b"CRDECM07".as_slice(), &[0; 12], &[1, 2, 3]].concat();
/// let (forged, _) = forge(&mut rng, &original);
/// assert_eq!(&forged[..8], b"CRDECM07");
/// let length = u64::from_le_bytes(forged[8..16].try_into().unwrap());
/// assert_eq!(length as usize, forged.len() - ECM_HEADER);
/// ```
pub fn forge(rng: &mut impl RngCore, original: &[u8]) -> (Vec<u8>, Corruption) {
    let header = ECM_HEADER.min(original.len());
    let (payload, kind) = corrupt(rng, &original[header..]);
    (with_header(&original[..header.min(8)], &payload), kind)
}

/// `payload` behind `magic` and a matching length and CRC-32 (a saved ECM's header).
pub fn with_header(magic: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}
