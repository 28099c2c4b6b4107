//! What can be wrong with a saved ECM ([`StoreError`]): its bytes, the map decoded
//! ([`StructureProblem`]) or the environment a `CRDECM08` file holds
//! ([`EnvironmentProblem`]).

use crate::UpdateError;
use corridor_geom::EnvironmentError;

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
        /// The limit ([`LoadOptions::max_bytes`](crate::LoadOptions::max_bytes)).
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
         updates; save the map from a DynamicEcm (CRDECM08) to update it after loading"
    )]
    NoEnvironment {
        /// The format found.
        found: &'static str,
    },
}

/// Why the environment of a saved map (format `CRDECM08`) cannot be used.
///
/// ```
/// use corridor_ecm::EnvironmentProblem;
/// let p = EnvironmentProblem::UnsortedIds { previous: 4, id: 4 };
/// assert!(p.to_string().contains("#4"));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum EnvironmentProblem {
    /// The snap scale is not a positive finite number.
    #[error("the environment's snap scale {0} is not a positive finite number")]
    SnapScale(f64),
    /// The arc deviation the map was built with is not a positive finite number.
    #[error("the map's arc deviation {0} is not a positive finite number")]
    ArcDeviation(f64),
    /// Obstacle ids must be written in strictly increasing order (no repeats).
    #[error("obstacle ids are not strictly increasing: #{id} after #{previous}")]
    UnsortedIds {
        /// The id before.
        previous: u32,
        /// The id out of order.
        id: u32,
    },
    /// The id counter is not above every obstacle id.
    #[error("the next obstacle id {next_id} is not above obstacle id #{id}")]
    NextId {
        /// The counter written.
        next_id: u32,
        /// The largest obstacle id.
        id: u32,
    },
    /// The environment reads back differently from what was written (a ring written
    /// closed, for instance), so loading it would change it.
    #[error("the environment is not written in its canonical form")]
    NotCanonical,
    /// The environment fails [`Environment::validate`](corridor_geom::Environment::validate).
    #[error("invalid environment: {0}")]
    Invalid(#[from] EnvironmentError),
    /// The environment's snap grid is not the ECM's.
    #[error("the environment's snap scale {environment} is not the ECM's {ecm}")]
    Grid {
        /// The environment's scale.
        environment: f64,
        /// The ECM's scale.
        ecm: f64,
    },
    /// The environment cannot be normalized into walls.
    #[error("the environment cannot be prepared for updates: {0}")]
    Walls(#[from] UpdateError),
    /// The free area of the environment's walls is not the ECM's: the ECM is not this
    /// environment's.
    #[error("the environment's free area {environment} is not the ECM's {ecm}")]
    FreeArea {
        /// From the environment's walls.
        environment: f64,
        /// The ECM's.
        ecm: f64,
    },
    /// Under [`LoadOptions::full_validation`](crate::LoadOptions::full_validation): a rebuild of the environment differs
    /// from the saved ECM.
    #[error("the ECM is not the environment's (a rebuild differs: {0})")]
    Rebuild(String),
}

/// What makes a decoded ECM inconsistent (the first problem found).
///
/// ```
/// use corridor_ecm::StructureProblem;
/// let p = StructureProblem("an edge names a missing vertex".into());
/// assert_eq!(p.to_string(), "an edge names a missing vertex");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct StructureProblem(pub String);
