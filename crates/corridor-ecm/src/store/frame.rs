//! The bytes around a saved ECM's payload: the magic that names the format version, the
//! payload length and its CRC-32; reading a file with a bound, and decoding a payload that
//! must be used up exactly.

use super::error::StoreError;
use std::io::Read;
use std::path::Path;

/// The magic bytes: what the file is and the version of its format (`CRDECM07`: the
/// header with length and checksum, build times not saved).
pub(super) const MAGIC_TEXT: &str = "CRDECM07";
pub(super) const MAGIC: &[u8] = MAGIC_TEXT.as_bytes();
/// The version that also holds the environment (`CRDECM08`).
pub(super) const MAGIC_ENV_TEXT: &str = "CRDECM08";
pub(super) const MAGIC_ENV: &[u8] = MAGIC_ENV_TEXT.as_bytes();
/// The compact version of the ECM alone, in columns (`CRDECM09`, see [`super::compact`]).
pub(super) const MAGIC_COMPACT_TEXT: &str = "CRDECM09";
pub(super) const MAGIC_COMPACT: &[u8] = MAGIC_COMPACT_TEXT.as_bytes();
/// The versions this build reads, for the error naming them.
pub(super) const READABLE: &str = "CRDECM07, CRDECM08 or CRDECM09";
/// What every saved ECM of any version starts with.
pub(super) const FAMILY: &[u8] = b"CRDECM";
/// Magic, payload length (`u64` little-endian), CRC-32 of the payload (`u32` little-endian).
pub(super) const HEADER: usize = 8 + 8 + 4;

/// How much a load checks and reads.
///
/// ```
/// use corridor_ecm::LoadOptions;
/// let careful = LoadOptions { full_validation: true, ..LoadOptions::default() };
/// assert!(careful.max_bytes > 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// Besides the structure, check the geometry as a build does without its walls
    /// (every bending point equidistant from its nearest points, no cell piece turned
    /// over, the cells adding up to the free area, the degrees): costs about a build's
    /// validation.
    pub full_validation: bool,
    /// The largest file [`Ecm::load_with`](crate::Ecm::load_with) reads (default 4 GiB).
    pub max_bytes: u64,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            full_validation: false,
            max_bytes: 4 << 30,
        }
    }
}

/// Writes `bytes` to a file, naming it in the error.
pub(super) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    std::fs::write(path, bytes).map_err(|source| StoreError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The bytes of a regular file of at most [`LoadOptions::max_bytes`], read with that
/// bound.
pub(super) fn read_bounded(path: &Path, options: &LoadOptions) -> Result<Vec<u8>, StoreError> {
    let name = || path.display().to_string();
    let io = |source| StoreError::Io {
        path: name(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(StoreError::NotAFile { path: name() });
    }
    let too_large = |size| StoreError::TooLarge {
        path: name(),
        size,
        limit: options.max_bytes,
    };
    if meta.len() > options.max_bytes {
        return Err(too_large(meta.len()));
    }
    // Read with a bound as well: the file may grow after the size was taken.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(options.max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > options.max_bytes {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// What a saved map holds, by its magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    /// `CRDECM07`: the ECM.
    EcmOnly,
    /// `CRDECM08`: the ECM and its environment.
    WithEnvironment,
    /// `CRDECM09`: the ECM alone, in columns.
    Compact,
}

/// `value` in postcard behind `magic`, the payload's length and its CRC-32. The payload
/// is written straight after a header whose length and checksum are filled in last, so
/// that saving holds one copy of the bytes, not the payload and a framed copy of it
/// (measured: the copy raised the peak RSS of saving the 2048² grid, a 519 MB file,
/// from 1.13 to 1.96 GB).
pub(super) fn framed<T: serde::Serialize + ?Sized>(magic: &[u8], value: &T) -> Vec<u8> {
    debug_assert_eq!(magic.len() + 12, HEADER);
    let mut out = Vec::with_capacity(HEADER);
    out.extend_from_slice(magic);
    out.resize(HEADER, 0);
    // Serializing plain data into a Vec cannot fail; if it did, the payload would be
    // empty and the file would not load.
    let out = postcard::to_extend(value, out).unwrap_or_else(|_| {
        let mut header = magic.to_vec();
        header.resize(HEADER, 0);
        header
    });
    sealed(out, magic)
}

/// A header of `magic` and room for the length and checksum, for [`sealed`].
pub(super) fn unsealed(magic: &[u8]) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.resize(HEADER, 0);
    out
}

/// `out` (a header from [`unsealed`], then the payload) with the payload's length and
/// CRC-32 filled in.
pub(super) fn sealed(mut out: Vec<u8>, magic: &[u8]) -> Vec<u8> {
    let len = (out.len() - HEADER) as u64;
    let crc = crc32fast::hash(&out[HEADER..]);
    out[magic.len()..magic.len() + 8].copy_from_slice(&len.to_le_bytes());
    out[magic.len() + 8..HEADER].copy_from_slice(&crc.to_le_bytes());
    out
}

/// A whole payload as one value: bytes left over are an error.
pub(super) fn decode_all<'a, T: serde::Deserialize<'a>>(
    payload: &'a [u8],
) -> Result<T, StoreError> {
    // Sequences are read element by element: serde caps what it reserves from a
    // length field, and the vertex lists reserve nothing (see `graph::elements`), so
    // a forged length cannot allocate more than the payload can fill.
    let (value, rest): (T, &[u8]) = postcard::take_from_bytes(payload)?;
    if !rest.is_empty() {
        return Err(StoreError::TrailingBytes {
            extra: rest.len() as u64,
        });
    }
    Ok(value)
}

/// The format and payload of a saved ECM's bytes, once magic, length and checksum agree.
pub(super) fn payload(bytes: &[u8]) -> Result<(Format, &[u8]), StoreError> {
    let (format, rest) = if let Some(rest) = bytes.strip_prefix(MAGIC) {
        (Format::EcmOnly, rest)
    } else if let Some(rest) = bytes.strip_prefix(MAGIC_ENV) {
        (Format::WithEnvironment, rest)
    } else if let Some(rest) = bytes.strip_prefix(MAGIC_COMPACT) {
        (Format::Compact, rest)
    } else {
        return Err(match bytes.get(..MAGIC.len()) {
            Some(found) if found.starts_with(FAMILY) => StoreError::Version {
                found: String::from_utf8_lossy(found).into_owned(),
                expected: READABLE,
            },
            _ => StoreError::NotAnEcm { expected: READABLE },
        });
    };
    let (Some(length), Some(crc)) = (rest.get(..8), rest.get(8..12)) else {
        return Err(StoreError::ShortHeader {
            found: rest.len() as u64,
        });
    };
    let length = u64::from_le_bytes(length.try_into().unwrap_or_default());
    let expected = u32::from_le_bytes(crc.try_into().unwrap_or_default());
    let payload = &rest[12..];
    let found = payload.len() as u64;
    if found < length {
        return Err(StoreError::Truncated {
            expected: length,
            found,
        });
    }
    if found > length {
        return Err(StoreError::TrailingBytes {
            extra: found - length,
        });
    }
    let checksum = crc32fast::hash(payload);
    if checksum != expected {
        return Err(StoreError::Checksum {
            expected,
            found: checksum,
        });
    }
    Ok((format, payload))
}
