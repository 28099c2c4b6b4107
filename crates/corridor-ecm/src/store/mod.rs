//! Saving and loading a built ECM: a file that cannot lie. The payload is postcard
//! (compact binary, no rebuild on load) behind a header of magic, format version, payload
//! length and a CRC-32 of the payload; loading refuses missing or extra bytes and a wrong
//! checksum, and checks the decoded map's structure ([`check`]) before handing it out, so
//! that a damaged or forged file is a [`StoreError`], never a panic on a later query and
//! never a silently different map. Two versions: `CRDECM07` holds the ECM alone (what
//! [`Ecm::save`] writes), `CRDECM08` the ECM and its environment (what
//! [`DynamicEcm::save`](crate::DynamicEcm::save) writes, see [`environment`]).

mod check;
mod environment;

use crate::graph::Ecm;
use std::io::Read;
use std::path::Path;

pub use check::StructureProblem;
pub use environment::EnvironmentProblem;

/// The magic bytes: what the file is and the version of its format (`CRDECM07`: the
/// header with length and checksum, build times not saved).
const MAGIC_TEXT: &str = "CRDECM07";
const MAGIC: &[u8] = MAGIC_TEXT.as_bytes();
/// The version that also holds the environment (`CRDECM08`).
const MAGIC_ENV_TEXT: &str = "CRDECM08";
const MAGIC_ENV: &[u8] = MAGIC_ENV_TEXT.as_bytes();
/// The versions this build reads, for the error naming them.
const READABLE: &str = "CRDECM07 or CRDECM08";
/// What every saved ECM of any version starts with.
const FAMILY: &[u8] = b"CRDECM";
/// Magic, payload length (`u64` little-endian), CRC-32 of the payload (`u32` little-endian).
const HEADER: usize = 8 + 8 + 4;

/// Why a saved ECM could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Reading or writing the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The path is not a regular file (a directory, a device, a FIFO): refused rather
    /// than read without end.
    #[error("{path}: not a regular file")]
    NotAFile {
        /// The path.
        path: String,
    },
    /// The file is larger than the loader was allowed to read.
    #[error("{path}: {size} bytes, more than the limit of {limit} bytes")]
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        size: u64,
        /// The limit ([`LoadOptions::max_bytes`]).
        limit: u64,
    },
    /// The bytes are not a saved ECM.
    #[error("not a saved ECM (it does not start with {expected:?})")]
    NotAnEcm {
        /// The magic bytes expected at the start.
        expected: &'static str,
    },
    /// A saved ECM of another format version.
    #[error("a saved ECM of format {found:?}; this version reads {expected} (save it again)")]
    Version {
        /// The magic bytes found.
        found: String,
        /// The magic bytes this version reads.
        expected: &'static str,
    },
    /// The file ends inside the header.
    #[error("truncated saved ECM: {found} header bytes after the magic, 12 expected")]
    ShortHeader {
        /// Bytes present after the magic.
        found: u64,
    },
    /// The file ends before the length its header gives.
    #[error("truncated saved ECM: {found} bytes of payload, the header says {expected}")]
    Truncated {
        /// Payload bytes the header announces.
        expected: u64,
        /// Payload bytes present.
        found: u64,
    },
    /// Bytes follow the payload.
    #[error("{extra} unexpected bytes after the saved ECM")]
    TrailingBytes {
        /// How many.
        extra: u64,
    },
    /// The payload's checksum does not match: the file was damaged.
    #[error("damaged saved ECM: checksum {found:08x}, the header says {expected:08x}")]
    Checksum {
        /// The CRC-32 in the header.
        expected: u32,
        /// The CRC-32 of the payload read.
        found: u32,
    },
    /// The payload passed its checksum but does not decode (written by another build of
    /// the format, or forged).
    #[error("undecodable saved ECM: {0}")]
    Decode(#[from] postcard::Error),
    /// The payload decoded into a map that is not a consistent ECM.
    #[error("inconsistent saved ECM: {0}")]
    Structure(#[from] StructureProblem),
    /// The saved environment is not a valid one, or not the ECM's (format `CRDECM08`).
    #[error("inconsistent saved ECM: {0}")]
    Environment(#[from] EnvironmentProblem),
    /// A map that takes updates was asked of a file that holds the ECM alone.
    #[error(
        "this saved ECM ({found}) holds no environment, so it loads read-only and takes no \
         updates; save the map from a DynamicEcm ({MAGIC_ENV_TEXT}) to update it after loading"
    )]
    NoEnvironment {
        /// The format found.
        found: &'static str,
    },
}

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
    /// The largest file [`Ecm::load_with`] reads (default 4 GiB).
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

impl Ecm {
    /// The ECM as compact bytes (magic and version, payload length, CRC-32, then the
    /// postcard payload), including its cell index so that loading does not rebuild
    /// anything. Two saves of the same map give the same bytes (build times are not
    /// saved).
    ///
    /// ```
    /// # use corridor_ecm::Ecm;
    /// # use corridor_geom::{GridPoint, SnapGrid, WallSegment, WallSource, Walls};
    /// # let corners = [(0, 0), (4, 0), (4, 2), (0, 2)];
    /// # let segments = (0..4).map(|i| { let (a, b) = (corners[i], corners[(i + 1) % 4]);
    /// #     WallSegment { a: GridPoint::new(a.0, a.1), b: GridPoint::new(b.0, b.1), two_sided: false,
    /// #     sources: [WallSource::Boundary].into() } }).collect();
    /// # let walls = Walls { grid: SnapGrid::new(1.0).unwrap(), segments, ..Walls::default() };
    /// let ecm = Ecm::from_walls(&walls).unwrap();
    /// let bytes = ecm.to_bytes();
    /// let back = Ecm::from_bytes(&bytes).unwrap();
    /// assert_eq!(back.edge_count(), ecm.edge_count());
    /// assert_eq!(back.to_bytes(), bytes);
    /// assert!(Ecm::from_bytes(b"nonsense").is_err());
    /// let mut damaged = bytes.clone();
    /// damaged[30] ^= 4;
    /// assert!(Ecm::from_bytes(&damaged).is_err());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        // Serializing plain data into a Vec cannot fail.
        framed(MAGIC, &postcard::to_allocvec(self).unwrap_or_default())
    }

    /// Reads an ECM written by [`Ecm::to_bytes`] (or by
    /// [`DynamicEcm::to_bytes`](crate::DynamicEcm::to_bytes): its environment is checked
    /// and dropped), checking its structure.
    pub fn from_bytes(bytes: &[u8]) -> Result<Ecm, StoreError> {
        Ecm::from_bytes_with(bytes, &LoadOptions::default())
    }

    /// [`Ecm::from_bytes`] with [`LoadOptions`] (the full validation).
    ///
    /// ```
    /// # use corridor_ecm::{Ecm, LoadOptions};
    /// # use corridor_geom::{GridPoint, SnapGrid, WallSegment, WallSource, Walls};
    /// # let corners = [(0, 0), (4, 0), (4, 2), (0, 2)];
    /// # let segments = (0..4).map(|i| { let (a, b) = (corners[i], corners[(i + 1) % 4]);
    /// #     WallSegment { a: GridPoint::new(a.0, a.1), b: GridPoint::new(b.0, b.1), two_sided: false,
    /// #     sources: [WallSource::Boundary].into() } }).collect();
    /// # let walls = Walls { grid: SnapGrid::new(1.0).unwrap(), segments, ..Walls::default() };
    /// let bytes = Ecm::from_walls(&walls).unwrap().to_bytes();
    /// let options = LoadOptions { full_validation: true, ..LoadOptions::default() };
    /// assert!(Ecm::from_bytes_with(&bytes, &options).is_ok());
    /// ```
    pub fn from_bytes_with(bytes: &[u8], options: &LoadOptions) -> Result<Ecm, StoreError> {
        match payload(bytes)? {
            (Format::EcmOnly, payload) => {
                let ecm = decode(payload)?;
                checked(ecm, options)
            }
            (Format::WithEnvironment, payload) => Ok(environment::decode(payload, options)?.0),
        }
    }

    /// Writes [`Ecm::to_bytes`] to a file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), StoreError> {
        write_file(path.as_ref(), &self.to_bytes())
    }

    /// Reads a file written by [`Ecm::save`] (a regular file of at most 4 GiB).
    pub fn load(path: impl AsRef<Path>) -> Result<Ecm, StoreError> {
        Ecm::load_with(path, &LoadOptions::default())
    }

    /// [`Ecm::load`] with [`LoadOptions`]: refuses anything but a regular file of at
    /// most [`LoadOptions::max_bytes`], and reads at most that many bytes.
    ///
    /// ```
    /// use corridor_ecm::{Ecm, LoadOptions, StoreError};
    /// let err = Ecm::load_with(std::env::temp_dir(), &LoadOptions::default()).unwrap_err();
    /// assert!(matches!(err, StoreError::NotAFile { .. }));
    /// ```
    pub fn load_with(path: impl AsRef<Path>, options: &LoadOptions) -> Result<Ecm, StoreError> {
        Ecm::from_bytes_with(&read_bounded(path.as_ref(), options)?, options)
    }
}

/// Writes `bytes` to a file, naming it in the error.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    std::fs::write(path, bytes).map_err(|source| StoreError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The bytes of a regular file of at most [`LoadOptions::max_bytes`], read with that
/// bound.
fn read_bounded(path: &Path, options: &LoadOptions) -> Result<Vec<u8>, StoreError> {
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
enum Format {
    /// `CRDECM07`: the ECM.
    EcmOnly,
    /// `CRDECM08`: the ECM and its environment.
    WithEnvironment,
}

/// `payload` behind `magic`, its length and its CRC-32.
fn framed(magic: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(magic);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// A whole payload as one value: bytes left over are an error.
fn decode_all<'a, T: serde::Deserialize<'a>>(payload: &'a [u8]) -> Result<T, StoreError> {
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

/// A `CRDECM07` payload: the ECM alone.
fn decode(payload: &[u8]) -> Result<Ecm, StoreError> {
    decode_all(payload)
}

/// The decoded ECM once its structure (and, when asked, its geometry) checks out.
fn checked(ecm: Ecm, options: &LoadOptions) -> Result<Ecm, StoreError> {
    check::structure(&ecm)?;
    if options.full_validation {
        check::geometry(&ecm)?;
    }
    Ok(ecm)
}

/// The format and payload of a saved ECM's bytes, once magic, length and checksum agree.
fn payload(bytes: &[u8]) -> Result<(Format, &[u8]), StoreError> {
    let (format, rest) = if let Some(rest) = bytes.strip_prefix(MAGIC) {
        (Format::EcmOnly, rest)
    } else if let Some(rest) = bytes.strip_prefix(MAGIC_ENV) {
        (Format::WithEnvironment, rest)
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

#[cfg(test)]
mod tests {
    use crate::{EdgeId, NearestPoints, VertexEdges};
    use corridor_geom::Point;
    use slotmap::KeyData;

    /// A vertex's small vectors are written as the `Vec`s they replaced were (a length,
    /// then the items), inline or spilled, and read back the same.
    #[test]
    fn small_vectors_encode_as_vecs() {
        #[derive(serde::Deserialize)]
        struct Edges(#[serde(deserialize_with = "crate::graph::bounded_small_vec")] VertexEdges);
        #[derive(serde::Deserialize)]
        struct Points(#[serde(deserialize_with = "crate::graph::bounded_small_vec")] NearestPoints);
        for n in 0..6u64 {
            let ids: Vec<EdgeId> = (0..n)
                .map(|i| KeyData::from_ffi(i << 32 | 1).into())
                .collect();
            let small: VertexEdges = ids.iter().copied().collect();
            let bytes = postcard::to_allocvec(&small).unwrap();
            assert_eq!(bytes, postcard::to_allocvec(&ids).unwrap());
            assert_eq!(postcard::from_bytes::<Edges>(&bytes).unwrap().0, small);
            let points: Vec<Point> = (0..n).map(|i| Point::new(i as f64, -0.5)).collect();
            let small: NearestPoints = points.iter().copied().collect();
            let bytes = postcard::to_allocvec(&small).unwrap();
            assert_eq!(bytes, postcard::to_allocvec(&points).unwrap());
            assert_eq!(postcard::from_bytes::<Points>(&bytes).unwrap().0, small);
        }
        // A forged length reserves nothing: the read fails at the end of the bytes.
        let forged = [0xff, 0xff, 0xff, 0xff, 0x0f, 1];
        assert!(postcard::from_bytes::<Points>(&forged).is_err());
    }
}
