//! Saving and loading a built ECM (serde + postcard: compact binary, no rebuild on load).

use crate::graph::Ecm;
use std::path::Path;

/// Magic bytes and format version at the start of a saved ECM.
const MAGIC_TEXT: &str = "CRDECM06";
const MAGIC: &[u8] = MAGIC_TEXT.as_bytes();

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
    /// The bytes are not a saved ECM of this format version.
    #[error("not a saved ECM (format {expected:?})")]
    NotAnEcm {
        /// The magic bytes expected at the start.
        expected: &'static str,
    },
    /// The bytes are damaged or from an incompatible version.
    #[error("damaged ECM data: {0}")]
    Decode(#[from] postcard::Error),
}

impl Ecm {
    /// The ECM as compact bytes (format tag, then postcard), including its cell index so
    /// that loading does not rebuild anything.
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
    /// assert!(Ecm::from_bytes(b"nonsense").is_err());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        // Serializing plain data into a Vec cannot fail.
        out.extend(postcard::to_allocvec(self).unwrap_or_default());
        out
    }

    /// Reads an ECM written by [`Ecm::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Ecm, StoreError> {
        let body = bytes.strip_prefix(MAGIC).ok_or(StoreError::NotAnEcm {
            expected: MAGIC_TEXT,
        })?;
        Ok(postcard::from_bytes(body)?)
    }

    /// Writes [`Ecm::to_bytes`] to a file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), StoreError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_bytes()).map_err(|source| StoreError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// Reads a file written by [`Ecm::save`].
    pub fn load(path: impl AsRef<Path>) -> Result<Ecm, StoreError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| StoreError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Ecm::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use crate::{EdgeId, NearestPoints, VertexEdges};
    use corridor_geom::Point;
    use slotmap::KeyData;

    /// A vertex's small vectors are written as the `Vec`s they replaced were (a length,
    /// then the items), inline or spilled, so saved ECMs keep their format (`CRDECM06`).
    #[test]
    fn small_vectors_encode_as_vecs() {
        for n in 0..6u64 {
            let ids: Vec<EdgeId> = (0..n)
                .map(|i| KeyData::from_ffi(i << 32 | 1).into())
                .collect();
            let small: VertexEdges = ids.iter().copied().collect();
            let bytes = postcard::to_allocvec(&small).unwrap();
            assert_eq!(bytes, postcard::to_allocvec(&ids).unwrap());
            assert_eq!(postcard::from_bytes::<VertexEdges>(&bytes).unwrap(), small);
            let points: Vec<Point> = (0..n).map(|i| Point::new(i as f64, -0.5)).collect();
            let small: NearestPoints = points.iter().copied().collect();
            let bytes = postcard::to_allocvec(&small).unwrap();
            assert_eq!(bytes, postcard::to_allocvec(&points).unwrap());
            assert_eq!(
                postcard::from_bytes::<NearestPoints>(&bytes).unwrap(),
                small
            );
        }
    }
}
