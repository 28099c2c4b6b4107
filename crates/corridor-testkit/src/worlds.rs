//! Large worlds of any size, for build benchmarks: random grid maps in the Moving AI
//! format (each cell blocked with a given probability, as the benchmark's `random512-*`
//! maps) and cities of blocks around courtyards.
//!
//! Both are pure functions of their options and seed (ChaCha8, integer or exact
//! arithmetic only), so a seed names the same world on every platform.
//!
//! ```
//! use corridor_testkit::worlds::{city, random_grid_map, CityOptions};
//! let text = random_grid_map(64, 32, 0.1, 7);
//! assert!(text.starts_with("type octile\nheight 32\nwidth 64\nmap\n"));
//! assert_eq!(text, random_grid_map(64, 32, 0.1, 7));
//! let env = city(&CityOptions { blocks: 4, ..CityOptions::default() }, 1);
//! env.validate().unwrap();
//! ```

use corridor_geom::{Environment, Obstacle, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A `width × height` grid map in the Moving AI text format: each cell is blocked (`@`)
/// with probability `blocked` (clamped to `[0, 1]`), drawn row by row from `seed`.
///
/// ```
/// let text = corridor_testkit::worlds::random_grid_map(100, 100, 0.25, 3);
/// let blocked = text.lines().skip(4).flat_map(|l| l.chars()).filter(|&c| c == '@').count();
/// assert!((2200..2800).contains(&blocked));
/// ```
pub fn random_grid_map(width: usize, height: usize, blocked: f64, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let p = if blocked.is_nan() {
        0.0
    } else {
        blocked.clamp(0.0, 1.0)
    };
    let mut text = format!("type octile\nheight {height}\nwidth {width}\nmap\n");
    text.reserve(height * (width + 1));
    for _ in 0..height {
        for _ in 0..width {
            text.push(if rng.random_bool(p) { '@' } else { '.' });
        }
        text.push('\n');
    }
    text
}

/// A `(2k + 1)²` grid map in the Moving AI text format with a pillar (one blocked cell)
/// at every odd `(x, y)`: `k²` pillars on a regular lattice. Straight lines through it
/// pass exactly through the medial axis's 4-way vertices, the worst case for a search
/// over corridors (many routes share one funnel), so it is the taut search's stress map.
///
/// ```
/// let text = corridor_testkit::worlds::pillar_lattice_map(3);
/// assert_eq!(text, "type octile\nheight 7\nwidth 7\nmap\n.......\n.@.@.@.\n.......\n.@.@.@.\n.......\n.@.@.@.\n.......\n");
/// ```
pub fn pillar_lattice_map(k: usize) -> String {
    let side = 2 * k + 1;
    let mut text = format!("type octile\nheight {side}\nwidth {side}\nmap\n");
    for y in 0..side {
        text.extend((0..side).map(|x| if x % 2 == 1 && y % 2 == 1 { '@' } else { '.' }));
        text.push('\n');
    }
    text
}

/// The shape of a [`city`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CityOptions {
    /// Blocks along each side: the city has `blocks²` of them.
    pub blocks: usize,
    /// The distance between neighbouring blocks' origins (user units, e.g. metres).
    pub pitch: f64,
    /// The smallest street width between two blocks (the largest is twice that).
    pub street: f64,
    /// The fraction of blocks built around a courtyard (the others are solid).
    pub courtyards: f64,
}

impl Default for CityOptions {
    /// 32 m blocks with 4–8 m streets, three in four around a courtyard.
    fn default() -> Self {
        CityOptions {
            blocks: 16,
            pitch: 32.0,
            street: 4.0,
            courtyards: 0.75,
        }
    }
}

impl CityOptions {
    /// The options of a square city `size` units a side with about `vertices` obstacle
    /// vertices (courtyard blocks have 12, solid ones 4: 10 on average by default).
    ///
    /// ```
    /// use corridor_testkit::worlds::CityOptions;
    /// let options = CityOptions::with_vertices(10_000.0, 1_000_000);
    /// assert_eq!(options.blocks, 317);
    /// assert!((options.pitch * 317.0 - 10_000.0).abs() < 1e-9);
    /// ```
    pub fn with_vertices(size: f64, vertices: usize) -> Self {
        let defaults = CityOptions::default();
        let per_block = 12.0 * defaults.courtyards + 4.0 * (1.0 - defaults.courtyards);
        let blocks = ((vertices as f64 / per_block).sqrt().ceil() as usize).max(1);
        let pitch = size / blocks as f64;
        CityOptions {
            blocks,
            pitch,
            street: pitch / 8.0,
            ..defaults
        }
    }
}

/// A city of `blocks²` rectangular blocks on a jittered lattice inside a square boundary:
/// most blocks are rings around a courtyard reached through one gate on a random side,
/// the others solid. Coordinates are multiples of 1/64 of a unit (exact in `f64` and on
/// the default snap grid).
///
/// ```
/// use corridor_testkit::worlds::{city, CityOptions};
/// let options = CityOptions { blocks: 10, ..CityOptions::default() };
/// let env = city(&options, 5);
/// assert_eq!(env.obstacles().count(), 100);
/// let vertices: usize = env.obstacles().map(|(_, o)| o.points().count()).sum();
/// assert!((400..=1200).contains(&vertices));
/// ```
pub fn city(options: &CityOptions, seed: u64) -> Environment {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let q = |v: f64| (v * 64.0).round() / 64.0;
    let pitch = q(options.pitch.max(1.0));
    let street = q(options.street.clamp(1.0 / 64.0, pitch / 4.0));
    let n = options.blocks.max(1);
    let size = pitch * n as f64 + street;
    let mut env = Environment::rectangle(Point::ZERO, Point::new(size, size));
    for by in 0..n {
        for bx in 0..n {
            // Each block's sides are set back from its lattice cell by a random half
            // street (so streets are 1–2 street widths wide).
            let mut inset = || q(street * (0.5 + 0.5 * rng.random::<f64>()));
            let x0 = bx as f64 * pitch + street / 2.0 + inset();
            let y0 = by as f64 * pitch + street / 2.0 + inset();
            let x1 = (bx + 1) as f64 * pitch + street / 2.0 - inset();
            let y1 = (by + 1) as f64 * pitch + street / 2.0 - inset();
            let obstacle = if rng.random_bool(options.courtyards.clamp(0.0, 1.0)) {
                let side = rng.random_range(0..4u8);
                Obstacle::polygon(courtyard_block((x0, y0, x1, y1), side, q))
            } else {
                Obstacle::rectangle(Point::new(x0, y0), Point::new(x1, y1))
            };
            env.insert(obstacle);
        }
    }
    env
}

/// A block `x0..x1 × y0..y1` around a courtyard, with a gate through the side `side`
/// (0 bottom, 1 right, 2 top, 3 left), as one counter-clockwise simple polygon of 12
/// vertices: drawn with the gate at the bottom in a frame turned `side` quarter turns.
fn courtyard_block(
    (x0, y0, x1, y1): (f64, f64, f64, f64),
    side: u8,
    q: impl Fn(f64) -> f64,
) -> Vec<Point> {
    let (w, h) = (x1 - x0, y1 - y0);
    // Local frame: the block's width along the gated side is `a`, its depth `b`.
    let (a, b) = if side.is_multiple_of(2) {
        (w, h)
    } else {
        (h, w)
    };
    let wall_a = q(a / 5.0);
    let wall_b = q(b / 5.0);
    let gate = q(a / 8.0);
    let mid = q(a / 2.0);
    let local = [
        (0.0, 0.0),
        (mid - gate / 2.0, 0.0),
        (mid - gate / 2.0, wall_b),
        (wall_a, wall_b),
        (wall_a, b - wall_b),
        (a - wall_a, b - wall_b),
        (a - wall_a, wall_b),
        (mid + gate / 2.0, wall_b),
        (mid + gate / 2.0, 0.0),
        (a, 0.0),
        (a, b),
        (0.0, b),
    ];
    // Quarter turns counter-clockwise keep the orientation; each maps the local box
    // `[0, a] × [0, b]` onto the block.
    local
        .iter()
        .map(|&(u, v)| match side {
            0 => Point::new(x0 + u, y0 + v),
            1 => Point::new(x1 - v, y0 + u),
            2 => Point::new(x1 - u, y1 - v),
            _ => Point::new(x0 + v, y1 - u),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_map_has_its_size_and_fraction() {
        let text = random_grid_map(300, 200, 0.1, 11);
        let rows: Vec<&str> = text.lines().skip(4).collect();
        assert_eq!(rows.len(), 200);
        assert!(rows.iter().all(|r| r.len() == 300));
        let blocked = rows.iter().flat_map(|r| r.chars()).filter(|&c| c == '@');
        let fraction = blocked.count() as f64 / 60_000.0;
        assert!((fraction - 0.1).abs() < 0.01, "{fraction}");
        assert_ne!(text, random_grid_map(300, 200, 0.1, 12));
    }

    #[test]
    fn city_blocks_are_valid_and_gated_on_every_side() {
        let options = CityOptions {
            blocks: 12,
            courtyards: 1.0,
            ..CityOptions::default()
        };
        let env = city(&options, 3);
        env.validate().unwrap();
        assert_eq!(env, city(&options, 3));
        // Every block is a 12-gon; the gates face all four sides somewhere.
        let mut sides = [false; 4];
        for (_, o) in env.obstacles() {
            let points: Vec<Point> = o.points().collect();
            assert_eq!(points.len(), 12);
            // The gate's two outer corners lie on the same side as the block's first corner.
            let (p, g) = (points[0], points[1]);
            let side = if p.y == g.y {
                if g.x > p.x {
                    0
                } else {
                    2
                }
            } else if g.y > p.y {
                1
            } else {
                3
            };
            sides[side] = true;
        }
        assert_eq!(sides, [true; 4]);
    }

    #[test]
    fn every_courtyard_is_reachable() {
        // One free component: each courtyard opens onto the streets through its gate.
        let options = CityOptions {
            blocks: 6,
            courtyards: 1.0,
            ..CityOptions::default()
        };
        let ecm = corridor_ecm::Ecm::build(&city(&options, 9)).unwrap();
        assert_eq!(ecm.component_count(), 1);
        let solid = city(
            &CityOptions {
                courtyards: 0.0,
                ..options
            },
            9,
        );
        let solid_area = corridor_ecm::Ecm::build(&solid).unwrap().free_area();
        assert!(ecm.free_area() > solid_area);
    }
}
