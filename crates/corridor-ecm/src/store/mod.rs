//! Saving and loading a built ECM: a file that cannot lie. The payload is postcard
//! (compact binary, no rebuild on load) behind a header of magic, format version, payload
//! length and a CRC-32 of the payload; loading refuses missing or extra bytes and a wrong
//! checksum, and checks the decoded map's structure ([`check`]) before handing it out, so
//! that a damaged or forged file is a [`StoreError`], never a panic on a later query and
//! never a silently different map. Three versions: `CRDECM09` holds the ECM alone in
//! columns (what [`Ecm::save`] writes for a map as built, see [`compact`]), `CRDECM07`
//! the ECM alone in postcard (what it writes for a map changed by updates), `CRDECM08`
//! the ECM and its environment (what [`DynamicEcm::save`](crate::DynamicEcm::save)
//! writes, see [`environment`]).

mod check;
mod columns;
mod compact;
mod environment;
mod error;
mod frame;

use crate::graph::Ecm;
use check::checked;
use frame::{decode_all, framed, payload, read_bounded, write_file, Format, MAGIC};
use std::path::Path;

pub use error::{EnvironmentProblem, StoreError, StructureProblem};
pub use frame::LoadOptions;

impl Ecm {
    /// The ECM as compact bytes (magic and version, payload length, CRC-32, then the
    /// payload): for a map as a build leaves it, `CRDECM09` (columns, about 22 bytes per
    /// bending point, the cell index as its leaf order, so that loading sorts nothing);
    /// for a map changed by updates, `CRDECM07` (postcard, the cell index as it is). Two
    /// saves of the same map give the same bytes (build times are not saved).
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
        compact::encode(self).unwrap_or_else(|| framed(MAGIC, self))
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
            (Format::Compact, payload) => compact::decode(payload, options),
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

/// A `CRDECM07` payload: the ECM alone.
fn decode(payload: &[u8]) -> Result<Ecm, StoreError> {
    decode_all(payload)
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
