//! What triangles does a Wavefront OBJ file hold? Parsing is `tobj`'s; this module welds
//! vertices, checks what `tobj` lets through (non-finite coordinates) and names the line
//! of any error.

use std::collections::HashMap;

/// A triangle soup with welded vertices, in the file's coordinates (Y up, as Recast and
/// most OBJ exporters use).
///
/// ```
/// let mesh = corridor_io::obj::read_obj("v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nf 1 3 4 2\n").unwrap();
/// assert_eq!(mesh.vertices().len(), 4);
/// assert_eq!(mesh.triangles().len(), 2); // the quad is split as a fan
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TriangleMesh {
    vertices: Vec<[f64; 3]>,
    triangles: Vec<[usize; 3]>,
}

/// What is wrong with an OBJ file. Every variant names the line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ObjError {
    /// `tobj` rejected the file; `what` is its reason (a bad number, a face index out of
    /// range, ...), `line` the first line at which the file stops being readable.
    #[error("line {line}: {what}")]
    Parse {
        /// 1-based line.
        line: usize,
        /// `tobj`'s description of the problem.
        what: String,
    },
    /// A vertex coordinate is NaN or infinite.
    #[error("line {line}: vertex {vertex} has a coordinate that is not finite")]
    NonFinite {
        /// 1-based line of the `v` statement.
        line: usize,
        /// 1-based vertex number, as faces count them.
        vertex: usize,
    },
    /// The file has no faces with at least three vertices.
    #[error("the file has no faces (no `f` line with three or more vertices)")]
    NoTriangles,
}

impl TriangleMesh {
    /// Builds a mesh from vertices and triangles (vertex indices).
    ///
    /// # Panics
    /// When a triangle names a vertex that does not exist.
    pub fn new(vertices: Vec<[f64; 3]>, triangles: Vec<[usize; 3]>) -> Self {
        assert!(
            triangles.iter().flatten().all(|&v| v < vertices.len()),
            "triangle vertex index out of range"
        );
        TriangleMesh {
            vertices,
            triangles,
        }
    }

    /// The distinct vertex positions.
    pub fn vertices(&self) -> &[[f64; 3]] {
        &self.vertices
    }

    /// The triangles, as indices into [`TriangleMesh::vertices`], in file order
    /// (polygons split as fans, as Recast does).
    pub fn triangles(&self) -> &[[usize; 3]] {
        &self.triangles
    }

    /// The three corners of triangle `t`.
    ///
    /// # Panics
    /// When `t` is not a triangle index.
    pub fn corners(&self, t: usize) -> [[f64; 3]; 3] {
        self.triangles[t].map(|v| self.vertices[v])
    }
}

/// Reads the faces of an OBJ text as triangles. Groups, objects, materials, normals and
/// texture coordinates are ignored; `l` and `p` statements (lines and points) too.
/// Vertices with the same coordinates are welded, so that faces of different groups
/// share edges. Memory is linear in the text's length.
///
/// ```
/// use corridor_io::obj::{read_obj, ObjError};
/// let err = read_obj("v 0 0 0\nv 1 0 0\nv 0 0 x\n").unwrap_err();
/// assert!(matches!(err, ObjError::Parse { line: 3, .. }));
/// let err = read_obj("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n").unwrap_err();
/// assert!(matches!(err, ObjError::Parse { line: 4, .. }));
/// ```
pub fn read_obj(text: &str) -> Result<TriangleMesh, ObjError> {
    let models = match parse(text) {
        Ok(models) => models,
        Err(e) => {
            return Err(ObjError::Parse {
                line: first_failing_line(text),
                what: e.to_string(),
            })
        }
    };
    let mut vertices: Vec<[f64; 3]> = Vec::new();
    let mut index_of: HashMap<[u64; 3], usize> = HashMap::new();
    let mut triangles = Vec::new();
    for model in &models {
        let mesh = &model.mesh;
        let mut local = Vec::with_capacity(mesh.positions.len() / 3);
        for p in mesh.positions.chunks_exact(3) {
            let p = [p[0], p[1], p[2]];
            if !p.iter().all(|c| c.is_finite()) {
                return Err(non_finite(text));
            }
            let key = p.map(|c| (c + 0.0).to_bits()); // +0.0 merges -0.0 with 0.0
            let next = vertices.len();
            local.push(*index_of.entry(key).or_insert_with(|| {
                vertices.push(p);
                next
            }));
        }
        // tobj's indices are checked against its positions, so `local` covers them.
        for t in mesh.indices.chunks_exact(3) {
            triangles.push([t[0], t[1], t[2]].map(|i| local[i as usize]));
        }
    }
    if triangles.is_empty() {
        // Vertices that no face uses are not reported by tobj; look for them here.
        if text
            .lines()
            .any(|l| is_vertex_line(l) && !vertex_is_finite(l))
        {
            return Err(non_finite(text));
        }
        return Err(ObjError::NoTriangles);
    }
    Ok(TriangleMesh {
        vertices,
        triangles,
    })
}

fn parse(text: &str) -> Result<Vec<tobj::Model>, tobj::LoadError> {
    let options = tobj::LoadOptions {
        triangulate: true,
        ignore_points: true,
        ignore_lines: true,
        ..Default::default()
    };
    // Material libraries are not read: the loader never opens files.
    let (models, _materials) = tobj::load_obj_buf(&mut text.as_bytes(), &options, |_| {
        Err(tobj::LoadError::OpenFileFailed)
    })?;
    Ok(models)
}

/// The line at which the file stops being readable: the shortest prefix of whole lines
/// that `tobj` rejects ends there. Found by bisection, so only on error do we parse the
/// text again (O(log lines) more times); `tobj` reads line by line and stops at the
/// first bad one, so a longer prefix of a rejected prefix is rejected too.
fn first_failing_line(text: &str) -> usize {
    let ends: Vec<usize> = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .chain(std::iter::once(text.len()))
        .collect();
    let (mut lo, mut hi) = (0usize, ends.len() - 1); // prefix of ends[hi] fails
    while lo < hi {
        let mid = (lo + hi) / 2;
        if parse(&text[..ends[mid]]).is_err() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    hi + 1
}

fn is_vertex_line(line: &str) -> bool {
    line.split_whitespace().next() == Some("v")
}

fn vertex_is_finite(line: &str) -> bool {
    line.split_whitespace()
        .skip(1)
        .take(3)
        .all(|w| w.parse::<f64>().is_ok_and(f64::is_finite))
}

/// The first `v` line with a coordinate that is not finite.
fn non_finite(text: &str) -> ObjError {
    let mut vertex = 0;
    for (k, line) in text.lines().enumerate() {
        if is_vertex_line(line) {
            vertex += 1;
            if !vertex_is_finite(line) {
                return ObjError::NonFinite {
                    line: k + 1,
                    vertex,
                };
            }
        }
    }
    // Not reachable: tobj only produced what the `v` lines say.
    ObjError::NonFinite { line: 0, vertex: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welds_vertices_across_groups() {
        let text =
            "g a\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\ng b\nv 1 0 0\nv 0 0 1\nv 1 0 1\nf 4 6 5\n";
        let mesh = read_obj(text).unwrap();
        assert_eq!(mesh.vertices().len(), 4);
        assert_eq!(mesh.triangles(), &[[0, 1, 2], [1, 3, 2]]);
    }

    #[test]
    fn names_the_bad_line() {
        let text = "# level\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 1 2 -9\n";
        let err = read_obj(text).unwrap_err();
        assert!(matches!(err, ObjError::Parse { line: 6, .. }), "{err}");
        let err = read_obj("v 0 0 0\nv 1 nan 0\nv 0 0 1\nf 1 2 3\n").unwrap_err();
        assert_eq!(err, ObjError::NonFinite { line: 2, vertex: 2 });
        assert_eq!(read_obj("v 0 0 0\n").unwrap_err(), ObjError::NoTriangles);
        assert_eq!(read_obj("").unwrap_err(), ObjError::NoTriangles);
    }

    /// Mutated copies of a small level (bytes flipped, lines cut, cut short) are either
    /// read or rejected with an error naming a line of the file; nothing panics.
    #[test]
    fn mutated_files_never_panic() {
        use rand::{Rng, SeedableRng};
        let base = "mtllib x.mtl\no level\nv 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nv 2 1.5 2\nvn 0 1 0\n\
                    vt 0 0\ng floor\nusemtl a\nf 1/1/1 2/1/1 3/1/1 4/1/1\nf 1 2 5\nf -1 -2 -3\nl 1 2\n";
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(26);
        let alphabet = b" \n/-.0123456789efvlgo#nanix";
        for _ in 0..3000 {
            let mut bytes = base.as_bytes().to_vec();
            for _ in 0..rng.random_range(1..6) {
                let at = rng.random_range(0..bytes.len());
                match rng.random_range(0..3) {
                    0 => bytes[at] = alphabet[rng.random_range(0..alphabet.len())],
                    1 => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, alphabet[rng.random_range(0..alphabet.len())]),
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            let lines = text.lines().count().max(1);
            match read_obj(&text) {
                Ok(mesh) => assert!(mesh
                    .triangles()
                    .iter()
                    .flatten()
                    .all(|&v| v < mesh.vertices().len())),
                Err(ObjError::Parse { line, .. }) | Err(ObjError::NonFinite { line, .. }) => {
                    assert!(
                        (1..=lines + 1).contains(&line),
                        "line {line} of {lines}: {text:?}"
                    )
                }
                Err(ObjError::NoTriangles) => {}
            }
        }
    }
}
