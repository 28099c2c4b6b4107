//! Grids of blocked and free square cells, and their conversion into polygons by
//! contour tracing. Shared by the Moving AI `.map` and the any-angle `maze.txt` readers.

use corridor_geom::{Environment, Obstacle, Point, Polygon, Ring};

/// A rectangular grid of unit square cells, each free or blocked.
///
/// Cell `(x, y)` covers the square `[x, x + 1] × [y, y + 1]`, where `x` is the column and
/// `y` the row of the file it came from. Rows are **not** flipped: row 0 is `y = 0`, so
/// the map is drawn with `y` growing downward, exactly as the file reads.
///
/// ```
/// use corridor_io::CellGrid;
/// let mut grid = CellGrid::new(3, 2);
/// grid.set_blocked(1, 0, true);
/// assert!(grid.is_blocked(1, 0));
/// assert!(grid.is_free(0, 1));
/// assert!(!grid.is_free(-1, 0)); // outside the grid is neither free nor blocked
/// assert_eq!(grid.free_cell_count(), 5);
/// let env = grid.to_environment();
/// assert_eq!(env.obstacles().count(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellGrid {
    width: u32,
    height: u32,
    blocked: Vec<bool>,
}

impl CellGrid {
    /// A grid of `width × height` free cells.
    pub fn new(width: u32, height: u32) -> Self {
        CellGrid {
            width,
            height,
            blocked: vec![false; width as usize * height as usize],
        }
    }

    /// A grid from its cells in row-major order (`cells[y * width + x]` is `true` when
    /// cell `(x, y)` is blocked); `None` when the length is not `width × height`.
    pub fn from_cells(width: u32, height: u32, cells: Vec<bool>) -> Option<Self> {
        let expected = (width as usize).checked_mul(height as usize)?;
        (cells.len() == expected).then_some(CellGrid {
            width,
            height,
            blocked: cells,
        })
    }

    /// Number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The cells in row-major order, `true` for blocked.
    pub fn cells(&self) -> &[bool] {
        &self.blocked
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        (x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64)
            .then(|| y as usize * self.width as usize + x as usize)
    }

    /// Whether cell `(x, y)` lies in the grid and is blocked.
    pub fn is_blocked(&self, x: i64, y: i64) -> bool {
        self.index(x, y).is_some_and(|i| self.blocked[i])
    }

    /// Whether cell `(x, y)` lies in the grid and is free.
    pub fn is_free(&self, x: i64, y: i64) -> bool {
        self.index(x, y).is_some_and(|i| !self.blocked[i])
    }

    /// Blocks or frees cell `(x, y)`.
    ///
    /// # Panics
    /// When the cell lies outside the grid.
    pub fn set_blocked(&mut self, x: u32, y: u32, blocked: bool) {
        let i = self.index(x as i64, y as i64).unwrap_or_else(|| {
            panic!(
                "cell ({x}, {y}) outside a {}×{} grid",
                self.width, self.height
            )
        });
        self.blocked[i] = blocked;
    }

    /// Number of free cells.
    pub fn free_cell_count(&self) -> usize {
        self.blocked.iter().filter(|&&b| !b).count()
    }

    /// Number of blocked cells.
    pub fn blocked_cell_count(&self) -> usize {
        self.blocked.len() - self.free_cell_count()
    }

    /// Whether grid vertex `(x, y)` (a cell corner) touches at least one free cell.
    pub fn vertex_touches_free_cell(&self, x: i64, y: i64) -> bool {
        [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
            .iter()
            .any(|&(cx, cy)| self.is_free(cx, cy))
    }

    /// The blocked cells as few polygons with holes, found by tracing contours.
    ///
    /// * Blocked cells are 4-connected: two blocked cells that touch only at a corner
    ///   end up in different rings that share that corner (so the diagonal gap stays
    ///   closed once the obstacles are unioned, yet every ring is simple).
    /// * A ring that would pass twice through the same corner (a blocked region closing
    ///   on itself diagonally) is split there, so that rings never touch themselves; the
    ///   pocket it encloses becomes a hole touching the exterior at that corner.
    /// * Free regions enclosed by blocked cells become holes of the polygon around them;
    ///   blocked islands inside those holes are polygons of their own.
    /// * Collinear vertices are removed: every polygon vertex is a corner.
    /// * Cells outside the grid count as free, so blocked cells along the border make
    ///   polygons whose edges lie on the boundary `[0, W] × [0, H]`.
    ///
    /// Exteriors are counter-clockwise and holes clockwise in the `(x, y)` frame (which
    /// looks the other way round on screen, where `y` grows downward). The polygons are
    /// listed in the order of their lowest row, then lowest column, first cell.
    ///
    /// The area of the polygons (exteriors minus holes) is exactly the number of blocked
    /// cells, and every cell centre is strictly inside a polygon exactly when the cell is
    /// blocked.
    ///
    /// ```
    /// use corridor_io::CellGrid;
    /// // ###
    /// // #.#    a ring of blocked cells around one free cell,
    /// // ###    plus a lone cell touching its corner diagonally.
    /// //    #
    /// let rows = ["###.", "#.#.", "###.", "...#"];
    /// let cells = rows.iter().flat_map(|r| r.chars().map(|c| c == '#')).collect();
    /// let grid = CellGrid::from_cells(4, 4, cells).unwrap();
    /// let polygons = grid.polygons();
    /// assert_eq!(polygons.len(), 2);
    /// assert_eq!(polygons[0].exterior.len(), 4);
    /// assert_eq!(polygons[0].holes.len(), 1);
    /// assert_eq!(polygons[0].area() + polygons[1].area(), 9.0);
    /// ```
    pub fn polygons(&self) -> Vec<Polygon> {
        Tracer::new(self, PinchRule::Closed).polygons()
    }

    /// The blocked cells as polygons under a [`PinchRule`]: [`CellGrid::polygons`] for
    /// [`PinchRule::Closed`]; with [`PinchRule::Open`], rings are not split at diagonal
    /// pinches, and every blocked corner at a pinch is cut by [`OPEN_PINCH_CUT`] along
    /// both its edges, so that the two free cells there connect through the corner.
    ///
    /// ```
    /// use corridor_io::{CellGrid, PinchRule};
    /// // #.
    /// // .#    two blocked cells touching at the corner (1, 1).
    /// let grid = CellGrid::from_cells(2, 2, vec![true, false, false, true]).unwrap();
    /// let open = grid.polygons_with(PinchRule::Open);
    /// assert_eq!(open.len(), 2);
    /// assert!(open.iter().all(|p| p.exterior.len() == 5)); // one corner cut each
    /// assert_eq!(grid.polygons_with(PinchRule::Closed), grid.polygons());
    /// ```
    pub fn polygons_with(&self, rule: PinchRule) -> Vec<Polygon> {
        Tracer::new(self, rule).polygons()
    }

    /// Whether grid vertex `(x, y)` is a diagonal pinch: exactly two of its four cells
    /// are blocked, and they touch only there.
    pub fn is_pinch(&self, x: i64, y: i64) -> bool {
        let (a, b) = (self.is_blocked(x - 1, y - 1), self.is_blocked(x, y));
        let (c, d) = (self.is_blocked(x, y - 1), self.is_blocked(x - 1, y));
        a == b && c == d && a != c
    }

    /// The environment of this grid: boundary `[0, W] × [0, H]` and the
    /// [`CellGrid::polygons`] as obstacles with ids `0, 1, 2, …` in their order.
    ///
    /// The free area (boundary area minus the obstacles' areas) equals the number of
    /// free cells exactly. The result is valid ([`Environment::validate`]) whenever the
    /// grid fits the snap range (at most 53 687 cells a side at the default scale).
    pub fn to_environment(&self) -> Environment {
        self.to_environment_with(PinchRule::Closed)
    }

    /// The environment of this grid under a [`PinchRule`] (see
    /// [`CellGrid::polygons_with`]).
    ///
    /// ```
    /// use corridor_io::{CellGrid, PinchRule};
    /// let grid = CellGrid::from_cells(2, 2, vec![true, false, false, true]).unwrap();
    /// assert!(grid.to_environment_with(PinchRule::Open).validate().is_ok());
    /// ```
    pub fn to_environment_with(&self, rule: PinchRule) -> Environment {
        let mut env = Environment::rectangle(
            Point::ZERO,
            Point::new(self.width as f64, self.height as f64),
        );
        for polygon in self.polygons_with(rule) {
            env.insert(Obstacle::Polygon(polygon));
        }
        env
    }
}

/// Whether a path may pass between two blocked cells that touch only at a corner (a
/// diagonal pinch).
///
/// * [`PinchRule::Closed`] (the default): obstacles are closed sets, so two cells
///   touching at a corner block passage there, as Moving AI's no-corner-cutting rule
///   does. Paths may still touch the corner and turn back.
/// * [`PinchRule::Open`]: a point path may pass through the touching corner, as the
///   any-angle benchmark suite (data/anyangle) counts it. Both blocked corners at every
///   pinch are cut by [`OPEN_PINCH_CUT`] along their edges (a gap of that width times
///   √2; the corner point itself becomes free): a path through the pinch can be shorter
///   than the suite's by at most about that cut per pinch it passes, and a disk of any
///   positive radius larger than the gap still cannot pass. Meant for radius 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PinchRule {
    /// Two cells touching at a corner block passage (Moving AI).
    #[default]
    Closed,
    /// A point path passes through the touching corner (the any-angle suite).
    Open,
}

/// How far from a pinch the blocked corners are cut under [`PinchRule::Open`]: one step
/// of the default snap grid ([`corridor_geom::SnapGrid::DEFAULT_SCALE`]), the smallest cut
/// that survives snapping.
pub const OPEN_PINCH_CUT: f64 = 1.0 / corridor_geom::SnapGrid::DEFAULT_SCALE;

/// The largest number of cells a grid side may have: its corners must fit the default
/// snap range ([`corridor_geom::SnapGrid::limit`], 53 687 units at 10 000 steps per unit).
pub const MAX_GRID_SIDE: u32 = 53_687;

/// What is wrong with a grid file (Moving AI `.map` or any-angle `maze.txt`). Lines and
/// columns are 1-based; columns count bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// The file ended too early.
    #[error("line {line}: the file ended before {expected}")]
    Truncated {
        /// The last line of the file.
        line: usize,
        /// What was still missing.
        expected: String,
    },
    /// A header line is not what the format requires.
    #[error("line {line}, column {column}: expected {expected}, found `{found}`")]
    BadHeader {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// A header line appears twice.
    #[error("line {line}: `{key}` is given a second time")]
    DuplicateHeader {
        /// Line.
        line: usize,
        /// The repeated key.
        key: String,
    },
    /// A size is not a non-negative integer.
    #[error("line {line}, column {column}: the {what} `{found}` is not a non-negative integer")]
    BadNumber {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// Which number.
        what: &'static str,
        /// The text found.
        found: String,
    },
    /// A map type other than `octile`.
    #[error(
        "line {line}, column {column}: unsupported map type `{found}`, only `octile` is known"
    )]
    UnsupportedType {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// The type found.
        found: String,
    },
    /// Width or height is zero.
    #[error("line {line}: a {width}×{height} grid has no cells")]
    Empty {
        /// Line of the size.
        line: usize,
        /// Width.
        width: u32,
        /// Height.
        height: u32,
    },
    /// Width or height exceeds [`MAX_GRID_SIDE`].
    #[error("line {line}: a {width}×{height} grid is larger than {max} cells a side", max = MAX_GRID_SIDE)]
    TooLarge {
        /// Line of the size.
        line: usize,
        /// Width.
        width: u64,
        /// Height.
        height: u64,
    },
    /// A row has the wrong number of cells.
    #[error("line {line}: row {row} has {found} cells, the header says {expected}")]
    RowLength {
        /// Line.
        line: usize,
        /// 0-based row (the cell's `y`).
        row: u32,
        /// Width from the header.
        expected: u32,
        /// Cells found.
        found: usize,
    },
    /// A cell character or value the format does not define.
    #[error("line {line}, column {column}: unknown cell `{found}` (expected {expected})")]
    UnknownCell {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
        /// The text found.
        found: String,
        /// The cells the format allows.
        expected: &'static str,
    },
    /// Something other than blank lines follows the last row.
    #[error("line {line}: unexpected data after the last row: `{found}`")]
    TrailingData {
        /// Line.
        line: usize,
        /// The text found.
        found: String,
    },
}

/// Parses a grid size token.
pub(crate) fn parse_side(
    token: &str,
    line: usize,
    column: usize,
    what: &'static str,
) -> Result<u64, GridError> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(GridError::BadNumber {
            line,
            column,
            what,
            found: crate::text::excerpt(token),
        });
    }
    // Digits only: the only failure left is overflow, which is "too large".
    Ok(token.parse::<u64>().unwrap_or(u64::MAX))
}

/// Checks a width and height read on `line`.
pub(crate) fn check_size(width: u64, height: u64, line: usize) -> Result<(u32, u32), GridError> {
    if width > MAX_GRID_SIDE as u64 || height > MAX_GRID_SIDE as u64 {
        return Err(GridError::TooLarge {
            line,
            width,
            height,
        });
    }
    let (width, height) = (width as u32, height as u32);
    if width == 0 || height == 0 {
        return Err(GridError::Empty {
            line,
            width,
            height,
        });
    }
    Ok((width, height))
}

/// After the last row: only blank lines may follow.
pub(crate) fn check_trailing<'a>(
    mut lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<(), GridError> {
    match lines.find(|(_, l)| !l.trim().is_empty()) {
        Some((line, l)) => Err(GridError::TrailingData {
            line,
            found: crate::text::excerpt(l.trim()),
        }),
        None => Ok(()),
    }
}

const NONE: u32 = u32::MAX;

/// A directed unit edge of a blocked cell, with the cell on its left.
/// Sides: 0 bottom (+x), 1 right (+y), 2 top (−x), 3 left (−y), counter-clockwise in the
/// `(x, y)` frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Edge {
    x: i64,
    y: i64,
    side: u8,
}

impl Edge {
    fn start(self) -> (i64, i64) {
        match self.side {
            0 => (self.x, self.y),
            1 => (self.x + 1, self.y),
            2 => (self.x + 1, self.y + 1),
            _ => (self.x, self.y + 1),
        }
    }
}

fn neighbour(x: i64, y: i64, side: u8) -> (i64, i64) {
    match side {
        0 => (x, y - 1),
        1 => (x + 1, y),
        2 => (x, y + 1),
        _ => (x - 1, y),
    }
}

/// A traced ring on the grid.
struct GridRing {
    vertices: Vec<(i64, i64)>,
    /// Twice the signed area (positive: exterior).
    twice_area: i64,
    /// Leftmost vertical edge: (x, row).
    leftmost: Option<(i64, i64)>,
}

struct Tracer<'g> {
    grid: &'g CellGrid,
    w: i64,
    h: i64,
    /// Bit `side` set when that edge of the cell has been traced.
    visited: Vec<u8>,
    /// Per grid vertex: position in the split stack.
    stack_pos: Vec<u32>,
    /// Per vertical unit edge `(x, row)`: the ring it belongs to.
    vertical_ring: Vec<u32>,
    rings: Vec<GridRing>,
    rule: PinchRule,
}

impl<'g> Tracer<'g> {
    fn new(grid: &'g CellGrid, rule: PinchRule) -> Self {
        let (w, h) = (grid.width as i64, grid.height as i64);
        let vertices = (grid.width as usize + 1) * (grid.height as usize + 1);
        Tracer {
            grid,
            w,
            h,
            visited: vec![0; grid.blocked.len()],
            stack_pos: vec![NONE; vertices],
            vertical_ring: vec![NONE; (grid.width as usize + 1) * grid.height as usize],
            rings: Vec::new(),
            rule,
        }
    }

    fn blocked(&self, x: i64, y: i64) -> bool {
        self.grid.is_blocked(x, y)
    }

    fn is_boundary(&self, e: Edge) -> bool {
        let (nx, ny) = neighbour(e.x, e.y, e.side);
        self.blocked(e.x, e.y) && !self.blocked(nx, ny)
    }

    /// The boundary edge after `e`: turn left around the same cell when possible (this
    /// keeps diagonal neighbours apart), else go straight, else turn right.
    fn next(&self, e: Edge) -> Edge {
        let left = (e.side + 1) % 4;
        let (ax, ay) = neighbour(e.x, e.y, left);
        if !self.blocked(ax, ay) {
            return Edge { side: left, ..e };
        }
        let (dx, dy) = neighbour(ax, ay, e.side);
        if !self.blocked(dx, dy) {
            return Edge {
                x: ax,
                y: ay,
                side: e.side,
            };
        }
        Edge {
            x: dx,
            y: dy,
            side: (e.side + 3) % 4,
        }
    }

    fn vertex_index(&self, (x, y): (i64, i64)) -> usize {
        y as usize * (self.w as usize + 1) + x as usize
    }

    fn polygons(mut self) -> Vec<Polygon> {
        for y in 0..self.h {
            for x in 0..self.w {
                if !self.blocked(x, y) {
                    continue;
                }
                for side in 0..4u8 {
                    let e = Edge { x, y, side };
                    let cell = (y * self.w + x) as usize;
                    if self.visited[cell] & (1 << side) == 0 && self.is_boundary(e) {
                        self.trace(e);
                    }
                }
            }
        }
        self.assemble()
    }

    /// Follows the closed walk through `start` and splits it into vertex-simple rings.
    fn trace(&mut self, start: Edge) {
        let mut walk = Vec::new();
        let mut e = start;
        loop {
            let cell = (e.y * self.w + e.x) as usize;
            self.visited[cell] |= 1 << e.side;
            walk.push(e);
            e = self.next(e);
            if e == start {
                break;
            }
        }
        let mut stack: Vec<Edge> = Vec::with_capacity(walk.len());
        for e in walk {
            let v = self.vertex_index(e.start());
            let at = self.stack_pos[v];
            // Open pinches: the walk stays one ring (its corners there are cut apart).
            if at != NONE && self.rule == PinchRule::Closed {
                let cycle: Vec<Edge> = stack.drain(at as usize..).collect();
                for c in &cycle {
                    let cv = self.vertex_index(c.start());
                    self.stack_pos[cv] = NONE;
                }
                self.add_ring(&cycle);
            }
            self.stack_pos[v] = stack.len() as u32;
            stack.push(e);
        }
        for c in &stack {
            let cv = self.vertex_index(c.start());
            self.stack_pos[cv] = NONE;
        }
        self.add_ring(&stack);
    }

    fn add_ring(&mut self, cycle: &[Edge]) {
        let id = self.rings.len() as u32;
        let n = cycle.len();
        let mut vertices = Vec::new();
        let mut leftmost: Option<(i64, i64)> = None;
        for k in 0..n {
            let e = cycle[k];
            let prev = cycle[(k + n - 1) % n];
            if prev.side != e.side {
                vertices.push(e.start());
            }
            let x = match e.side {
                1 => e.x + 1,
                3 => e.x,
                _ => continue,
            };
            let slot = (e.y * (self.w + 1) + x) as usize;
            self.vertical_ring[slot] = id;
            if leftmost.is_none_or(|(lx, _)| x < lx) {
                leftmost = Some((x, e.y));
            }
        }
        let m = vertices.len();
        let twice_area = (0..m)
            .map(|i| {
                let (p, q) = (vertices[i], vertices[(i + 1) % m]);
                p.0 * q.1 - q.0 * p.1
            })
            .sum();
        self.rings.push(GridRing {
            vertices,
            twice_area,
            leftmost,
        });
    }

    /// Groups the rings into polygons: each exterior (positive area) with the holes
    /// directly inside it.
    fn assemble(self) -> Vec<Polygon> {
        let ring_count = self.rings.len();
        let mut parent = vec![NONE; ring_count];
        let mut holes: Vec<usize> = (0..ring_count)
            .filter(|&r| self.rings[r].twice_area < 0)
            .collect();
        holes.sort_by_key(|&r| self.rings[r].leftmost.map_or(i64::MAX, |(x, _)| x));
        for &hole in &holes {
            parent[hole] = self.parent_of_hole(hole, &parent);
        }
        let mut polygon_of = vec![NONE; ring_count];
        let mut polygons = Vec::new();
        for (r, ring) in self.rings.iter().enumerate() {
            if ring.twice_area > 0 {
                polygon_of[r] = polygons.len() as u32;
                polygons.push(Polygon::simple(self.ring(&ring.vertices)));
            }
        }
        for (r, ring) in self.rings.iter().enumerate() {
            if ring.twice_area < 0 {
                let p = parent[r];
                if p != NONE && polygon_of[p as usize] != NONE {
                    polygons[polygon_of[p as usize] as usize]
                        .holes
                        .push(self.ring(&ring.vertices));
                }
            }
        }
        polygons
    }

    /// The ring through `vertices`, with the corners at pinches cut under
    /// [`PinchRule::Open`] (every ring turns left, around a blocked cell, at a pinch).
    fn ring(&self, vertices: &[(i64, i64)]) -> Ring {
        if self.rule == PinchRule::Closed {
            return to_ring(vertices);
        }
        let n = vertices.len();
        let mut out = Vec::with_capacity(n + 4);
        for (i, &(x, y)) in vertices.iter().enumerate() {
            let c = Point::new(x as f64, y as f64);
            if !self.grid.is_pinch(x, y) {
                out.push(c);
                continue;
            }
            for (nx, ny) in [vertices[(i + n - 1) % n], vertices[(i + 1) % n]] {
                let towards = (Point::new(nx as f64, ny as f64) - c).normalize();
                out.push(c + towards * OPEN_PINCH_CUT);
            }
        }
        Ring::new(out)
    }

    /// The exterior ring directly around `hole`: look left from the blocked cell left of
    /// the hole's leftmost edge to the first ring edge. If that ring is an exterior, the
    /// cell lies inside it; if it is a hole, the cell lies beside it, in the same polygon.
    fn parent_of_hole(&self, hole: usize, parent: &[u32]) -> u32 {
        if let Some((x0, row)) = self.rings[hole].leftmost {
            for x in (0..x0).rev() {
                let r = self.vertical_ring[(row * (self.w + 1) + x) as usize];
                if r == NONE {
                    continue;
                }
                let found = if self.rings[r as usize].twice_area > 0 {
                    r
                } else {
                    parent[r as usize]
                };
                if found != NONE {
                    return found;
                }
                break;
            }
        }
        // Not reached for traced rings (the scan always meets a ring); kept so that a
        // hole is never dropped: the smallest exterior around the hole's first vertex
        // nudged outwards into the cell left of it.
        debug_assert!(false, "hole {hole} found no parent by scanning");
        let probe = self.rings[hole]
            .leftmost
            .map(|(x, y)| Point::new(x as f64 - 0.5, y as f64 + 0.5));
        let mut best: Option<(i64, u32)> = None;
        for (r, ring) in self.rings.iter().enumerate() {
            if ring.twice_area > 0
                && probe.is_some_and(|p| to_ring(&ring.vertices).contains(p))
                && best.is_none_or(|(area, _)| ring.twice_area < area)
            {
                best = Some((ring.twice_area, r as u32));
            }
        }
        best.map_or(NONE, |(_, r)| r)
    }
}

fn to_ring(vertices: &[(i64, i64)]) -> Ring {
    Ring::new(
        vertices
            .iter()
            .map(|&(x, y)| Point::new(x as f64, y as f64))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> CellGrid {
        let w = rows[0].len() as u32;
        let cells = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '#'))
            .collect();
        CellGrid::from_cells(w, rows.len() as u32, cells).unwrap()
    }

    #[test]
    fn single_cell_is_a_square() {
        let p = grid(&["#"]).polygons();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].exterior.len(), 4);
        assert!(p[0].exterior.is_counter_clockwise());
    }

    #[test]
    fn diagonal_cells_stay_apart() {
        let p = grid(&["#.", ".#"]).polygons();
        assert_eq!(p.len(), 2);
        for poly in &p {
            assert!(poly.exterior.find_self_intersection().is_none());
        }
    }

    #[test]
    fn pinched_loop_becomes_hole_touching_exterior() {
        // A "C" of blocked cells whose tips touch diagonally closes a free pocket.
        let g = grid(&["####.", "#..#.", "#.#..", "##..."]);
        let p = g.polygons();
        let area: f64 = p.iter().map(Polygon::area).sum();
        assert_eq!(area, g.blocked_cell_count() as f64);
        for poly in &p {
            for r in poly.rings() {
                assert!(r.find_self_intersection().is_none(), "{r:?}");
            }
        }
        let env = g.to_environment();
        env.validate().unwrap();
    }

    #[test]
    fn nested_islands() {
        let g = grid(&[
            "#######", "#.....#", "#.###.#", "#.#.#.#", "#.###.#", "#.....#", "#######",
        ]);
        let p = g.polygons();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].holes.len(), 1);
        assert_eq!(p[1].holes.len(), 1);
        let area: f64 = p.iter().map(Polygon::area).sum();
        assert_eq!(area, g.blocked_cell_count() as f64);
    }
}
