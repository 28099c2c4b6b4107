//! How large will the overlay's arrangement get? Heavily overlapping obstacles (thousands
//! of large triangles piled on each other) make the overlay split every edge at every
//! crossing: its time and memory follow the number of crossings, which grows with the
//! square of the input even when the united outline is small. [`NormalizeLimits`] lets a
//! caller refuse such input before the overlay starts, at a cost proportional to the limit.

use super::input::{gp, Input};
use super::NormalizeError;
use crate::spatial::PackedTree;
use crate::{orient_grid, GridPoint, Orientation};
use i_overlay::i_float::int::point::IntPoint;

/// Limits that make [`normalize_within`](super::normalize_within) refuse an input whose
/// overlay would be too large, with [`NormalizeError::TooManyPieces`], before building it.
///
/// The overlay splits its input edges at every crossing, into at least
/// `edges + 2 · crossings` pieces; that count is what the limit bounds. Counting stops as
/// soon as the limit is passed, so a refused input costs about as much as the limit, not
/// as its whole arrangement.
///
/// ```
/// use corridor_geom::{normalize_within, Environment, NormalizeError, NormalizeLimits, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(100.0, 100.0));
/// // A pile of 20 crossing bars.
/// for i in 0..10 {
///     let t = 10.0 + 8.0 * i as f64;
///     env.insert(Obstacle::rectangle(Point::new(t, 5.0), Point::new(t + 1.0, 95.0)));
///     env.insert(Obstacle::rectangle(Point::new(5.0, t), Point::new(95.0, t + 1.0)));
/// }
/// let tight = NormalizeLimits { max_wall_pieces: Some(200) };
/// assert!(matches!(normalize_within(&env, &tight), Err(NormalizeError::TooManyPieces { .. })));
/// assert!(normalize_within(&env, &NormalizeLimits::default()).is_ok());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NormalizeLimits {
    /// The most pieces (input edges plus two per crossing) the overlay may split the
    /// obstacles into; `None` for no limit.
    pub max_wall_pieces: Option<usize>,
}

impl NormalizeLimits {
    /// Refuses `env` (validated first) when its overlay would pass the limits, without
    /// normalizing it: for a caller that normalizes elsewhere (a server checking an
    /// uploaded map before its dynamic ECM is built). Costs about as much as the limit.
    ///
    /// ```
    /// use corridor_geom::{Environment, NormalizeLimits, Obstacle, Point};
    /// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
    /// env.insert(Obstacle::rectangle(Point::new(2.0, 4.0), Point::new(8.0, 6.0)));
    /// env.insert(Obstacle::rectangle(Point::new(4.0, 2.0), Point::new(6.0, 8.0)));
    /// // 12 edges and 4 crossings: at least 20 pieces.
    /// assert!(NormalizeLimits { max_wall_pieces: Some(20) }.check_environment(&env).is_ok());
    /// assert!(NormalizeLimits { max_wall_pieces: Some(19) }.check_environment(&env).is_err());
    /// ```
    pub fn check_environment(&self, env: &crate::Environment) -> Result<(), NormalizeError> {
        if self.max_wall_pieces.is_none() {
            return Ok(());
        }
        env.validate()?;
        let mut input = Input::new();
        input.collect(env)?;
        self.check(&input)
    }

    /// Refuses `input` when its edges and their crossings make more pieces than allowed.
    pub(super) fn check(&self, input: &Input) -> Result<(), NormalizeError> {
        let Some(limit) = self.max_wall_pieces else {
            return Ok(());
        };
        let edges = input_edges(input);
        if edges.len() > limit {
            return Err(NormalizeError::TooManyPieces {
                limit,
                edges: edges.len(),
                crossings_at_least: 0,
            });
        }
        let allowed = (limit - edges.len()) / 2;
        let crossings = crossings_up_to(&edges, allowed + 1);
        if crossings > allowed {
            return Err(NormalizeError::TooManyPieces {
                limit,
                edges: edges.len(),
                crossings_at_least: crossings,
            });
        }
        Ok(())
    }
}

/// The size of the overlay's input and arrangement: what normalization's time and memory
/// follow on overlapping obstacles (see [`overlay_size`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlaySize {
    /// Input edges (boundary, obstacle rings, open pieces) after snapping.
    pub edges: usize,
    /// Pairs of edges whose interiors cross at one point.
    pub crossings: usize,
}

impl OverlaySize {
    /// The fewest pieces the overlay splits the edges into: `edges + 2 · crossings`.
    pub fn pieces(&self) -> usize {
        self.edges + 2 * self.crossings
    }
}

/// Counts the edges and crossings the overlay would see for `env` (validated first), in
/// time proportional to the edges' box overlaps: a report before (or instead of) a costly
/// normalization.
///
/// ```
/// use corridor_geom::{overlay_size, Environment, Obstacle, Point};
/// let mut env = Environment::rectangle(Point::ZERO, Point::new(10.0, 10.0));
/// env.insert(Obstacle::rectangle(Point::new(2.0, 4.0), Point::new(8.0, 6.0)));
/// env.insert(Obstacle::rectangle(Point::new(4.0, 2.0), Point::new(6.0, 8.0)));
/// let size = overlay_size(&env)?;
/// assert_eq!((size.edges, size.crossings), (12, 4)); // a plus sign: 4 crossings
/// # Ok::<(), corridor_geom::NormalizeError>(())
/// ```
pub fn overlay_size(env: &crate::Environment) -> Result<OverlaySize, NormalizeError> {
    env.validate()?;
    let mut input = Input::new();
    input.collect(env)?;
    let edges = input_edges(&input);
    Ok(OverlaySize {
        edges: edges.len(),
        crossings: crossings_up_to(&edges, usize::MAX),
    })
}

/// Every edge the overlay receives: the boundary's, the obstacle rings', the open pieces.
fn input_edges(input: &Input) -> Vec<[GridPoint; 2]> {
    let ring_edges = |ring: &[IntPoint<i32>]| {
        let n = ring.len();
        (0..n)
            .map(move |i| [gp(ring[i]), gp(ring[(i + 1) % n])])
            .filter(|[a, b]| a != b)
            .collect::<Vec<_>>()
    };
    let mut edges = ring_edges(&input.boundary);
    for (ring, _) in &input.polygons {
        edges.extend(ring_edges(ring));
    }
    edges.extend(input.strings.iter().map(|s| [s.a, s.b]));
    edges
}

/// The number of pairs of edges whose interiors cross at one point, counted up to `cap`
/// (the count stops there). Pairs that only share an endpoint or overlap collinearly are
/// not counted: they do not multiply the pieces.
fn crossings_up_to(edges: &[[GridPoint; 2]], cap: usize) -> usize {
    let boxes: Vec<[f64; 4]> = edges.iter().map(|&[a, b]| grid_box(a, b)).collect();
    let tree = PackedTree::new(&boxes);
    let mut count = 0;
    for (i, &[a, b]) in edges.iter().enumerate() {
        for j in tree.meeting(boxes[i]).map(|j| j as usize) {
            if j > i && cross(a, b, edges[j][0], edges[j][1]) {
                count += 1;
                if count >= cap {
                    return count;
                }
            }
        }
    }
    count
}

fn grid_box(a: GridPoint, b: GridPoint) -> [f64; 4] {
    [
        a.x.min(b.x) as f64,
        a.y.min(b.y) as f64,
        a.x.max(b.x) as f64,
        a.y.max(b.y) as f64,
    ]
}

/// Whether the open segments `a b` and `c d` cross at a single point (exact).
fn cross(a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint) -> bool {
    let opposite = |p: Orientation, q: Orientation| {
        p != Orientation::Collinear && q != Orientation::Collinear && p != q
    };
    opposite(orient_grid(a, b, c), orient_grid(a, b, d))
        && opposite(orient_grid(c, d, a), orient_grid(c, d, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(x: i32, y: i32) -> GridPoint {
        GridPoint::new(x, y)
    }

    #[test]
    fn counts_proper_crossings_only() {
        let edges = [
            [g(0, 0), g(10, 10)],
            [g(0, 10), g(10, 0)],   // crosses the first
            [g(10, 10), g(20, 10)], // shares an endpoint with the first
            [g(5, 5), g(8, 8)],     // collinear overlap with the first
            [g(15, 0), g(15, 20)],  // crosses the third
        ];
        assert_eq!(crossings_up_to(&edges, usize::MAX), 2);
        assert_eq!(crossings_up_to(&edges, 1), 1);
    }

    #[test]
    fn a_grid_of_bars_crosses_n_squared_times() {
        let n = 30;
        let mut edges = Vec::new();
        for i in 0..n {
            edges.push([g(i * 10 + 5, -1), g(i * 10 + 5, 1000)]);
            edges.push([g(-1, i * 10 + 5), g(1000, i * 10 + 5)]);
        }
        assert_eq!(crossings_up_to(&edges, usize::MAX), (n * n) as usize);
    }
}
