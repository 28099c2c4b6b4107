//! A multi-storey building of any size, for layered benchmarks: `floors` storeys over
//! the same rectangle, each pair of neighbouring floors joined by two straight
//! staircases modelled as sloped layers (as in `builtin:layers`, van Toll et al. 2012,
//! Figure 1), and every floor furnished with seeded random pillars, desks and wall
//! pieces (about 2,500 obstacle vertices per floor by default).
//!
//! Staircase `k` (from floor `k` to `k + 1`) runs along the south wall (climbing east)
//! and the north wall (climbing west); odd staircases sit 15 units further in than even
//! ones so that a floor's well (the staircase below) and block (the staircase above)
//! never overlap. Each staircase meets its floors at the end edges of its footprint,
//! which are the connections. Furniture stands in a lattice of cells, one piece per cell
//! inside a margin, away from the staircases: every floor stays connected.
//!
//! A pure function of its options and seed (ChaCha8, coordinates on a 1/64 grid).
//!
//! ```
//! use corridor_testkit::building::{building, BuildingOptions};
//! let world = building(&BuildingOptions::default(), 1);
//! world.validate().unwrap();
//! // 4 floors and 2 staircases between each pair of neighbours.
//! assert_eq!(world.layer_count(), 4 + 2 * 3);
//! assert_eq!(world.connections().len(), 4 * 3);
//! assert!((9_000..11_000).contains(&world.vertex_count()));
//! ```

use corridor_geom::{
    Environment, HeightPlane, Layer, LayerId, LayeredEnvironment, Obstacle, Point, Segment,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The shape of a [`building`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildingOptions {
    /// Storeys (at least 2).
    pub floors: usize,
    /// Extent of every floor east–west (at least 80) and north–south (at least 30).
    pub width: f64,
    /// Extent north–south.
    pub depth: f64,
    /// Height between floors.
    pub storey: f64,
    /// Side of the furniture lattice's cells (at least 2).
    pub cell: f64,
    /// The probability that a cell holds a piece of furniture.
    pub furnished: f64,
}

impl Default for BuildingOptions {
    /// Four 160 × 80 floors, 4 units apart, 5-unit cells three in four furnished: about
    /// 10,000 obstacle vertices in all.
    fn default() -> Self {
        BuildingOptions {
            floors: 4,
            width: 160.0,
            depth: 80.0,
            storey: 4.0,
            cell: 5.0,
            furnished: 0.75,
        }
    }
}

/// A staircase's run (length along x) and width.
const RUN: f64 = 10.0;
const STAIR_WIDTH: f64 = 3.0;
/// Furniture keeps this far from any staircase footprint (so stairs stay reachable
/// for agents of radius up to about 1.5).
const STAIR_MARGIN: f64 = 3.5;

/// The footprints `(x0, y0, x1, y1)` of staircase `k`'s two flights: the south one
/// climbs east, the north one west.
fn flights(options: &BuildingOptions, k: usize) -> [(f64, f64, f64, f64); 2] {
    let shift = if k.is_multiple_of(2) { 10.0 } else { 25.0 };
    let (w, d) = (options.width, options.depth);
    [
        (shift, 0.0, shift + RUN, STAIR_WIDTH),
        (w - shift - RUN, d - STAIR_WIDTH, w - shift, d),
    ]
}

/// The building for these options and seed (options out of range are clamped).
pub fn building(options: &BuildingOptions, seed: u64) -> LayeredEnvironment {
    let q = |v: f64| (v * 64.0).round() / 64.0;
    let options = BuildingOptions {
        floors: options.floors.max(2),
        width: q(options.width.max(80.0)),
        depth: q(options.depth.max(30.0)),
        storey: options.storey.max(0.5),
        cell: q(options.cell.max(2.0)),
        furnished: options.furnished.clamp(0.0, 1.0),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut world = LayeredEnvironment::new();
    let floors: Vec<LayerId> = (0..options.floors)
        .map(|f| {
            let env = floor(&options, f, &mut rng, q);
            let plane = HeightPlane::flat(options.storey * f as f64);
            world.add_layer(Layer::new(format!("floor {f}"), env, plane))
        })
        .collect();
    let slope = options.storey / RUN;
    for k in 0..options.floors - 1 {
        let base = options.storey * k as f64;
        let [south, north] = flights(&options, k);
        let (lower, upper) = (floors[k], floors[k + 1]);
        for (name, (x0, y0, x1, y1), east) in [("south", south, true), ("north", north, false)] {
            let plane = if east {
                HeightPlane::new(slope, 0.0, base - slope * x0)
            } else {
                HeightPlane::new(-slope, 0.0, base + slope * x1)
            };
            let env = Environment::rectangle(Point::new(x0, y0), Point::new(x1, y1));
            let stairs = world.add_layer(Layer::new(format!("stairs {k} {name}"), env, plane));
            let edge = |x: f64| Segment::new(Point::new(x, y0), Point::new(x, y1));
            let (bottom, top) = if east { (x0, x1) } else { (x1, x0) };
            for (from, x) in [(lower, bottom), (upper, top)] {
                world
                    .connect(from, stairs, edge(x))
                    .expect("a flight meets its floors at its footprint's end edges");
            }
        }
    }
    world
}

/// Floor `f`: the rectangle, the footprints of the staircases below (wells) and above
/// (blocks) as obstacles, and furniture.
fn floor(
    options: &BuildingOptions,
    f: usize,
    rng: &mut ChaCha8Rng,
    q: impl Fn(f64) -> f64,
) -> Environment {
    let mut env = Environment::rectangle(Point::ZERO, Point::new(options.width, options.depth));
    let mut footprints = Vec::new();
    for k in [f.checked_sub(1), (f + 1 < options.floors).then_some(f)]
        .into_iter()
        .flatten()
    {
        footprints.extend(flights(options, k));
    }
    // Both parities' footprints are kept clear, so that furniture is the same kind of
    // obstacle course on every floor.
    let clear: Vec<_> = flights(options, 0)
        .into_iter()
        .chain(flights(options, 1))
        .collect();
    for &(x0, y0, x1, y1) in &footprints {
        env.insert(Obstacle::rectangle(Point::new(x0, y0), Point::new(x1, y1)));
    }
    let c = options.cell;
    let (nx, ny) = (
        (options.width / c).floor() as usize,
        (options.depth / c).floor() as usize,
    );
    for j in 0..ny {
        for i in 0..nx {
            let (cx0, cy0) = (i as f64 * c, j as f64 * c);
            let near_stairs = clear.iter().any(|&(x0, y0, x1, y1)| {
                cx0 < x1 + STAIR_MARGIN
                    && cx0 + c > x0 - STAIR_MARGIN
                    && cy0 < y1 + STAIR_MARGIN
                    && cy0 + c > y0 - STAIR_MARGIN
            });
            if near_stairs || !rng.random_bool(options.furnished) {
                continue;
            }
            // Inside the cell with a margin of a fifth of it on every side.
            let centre = Point::new(q(cx0 + 0.5 * c), q(cy0 + 0.5 * c));
            let reach = 0.3 * c;
            env.insert(furniture(rng, centre, reach, &q));
        }
    }
    env
}

/// One piece of furniture within `reach` of `centre`: a pillar (a regular polygon of
/// 6–16 sides), a desk (a turned rectangle) or a wall piece (an open polyline).
fn furniture(rng: &mut ChaCha8Rng, centre: Point, reach: f64, q: &impl Fn(f64) -> f64) -> Obstacle {
    let at = |angle: f64, r: f64| {
        Point::new(q(centre.x + r * angle.cos()), q(centre.y + r * angle.sin()))
    };
    let phase = rng.random::<f64>() * std::f64::consts::TAU;
    match rng.random_range(0..4u8) {
        0 | 1 => {
            let sides = rng.random_range(6..=16usize);
            let r = reach * (0.4 + 0.6 * rng.random::<f64>());
            Obstacle::polygon(
                (0..sides)
                    .map(|k| at(phase + std::f64::consts::TAU * k as f64 / sides as f64, r))
                    .collect(),
            )
        }
        2 => {
            // Corners at ±(a, b) turned by `phase`: angles ±atan(b/a) around 0 and π.
            let (a, b) = (reach, reach * (0.3 + 0.5 * rng.random::<f64>()));
            let (r, t) = ((a * a + b * b).sqrt(), (b / a).atan());
            let pi = std::f64::consts::PI;
            Obstacle::polygon(vec![
                at(phase - t, r),
                at(phase + t, r),
                at(phase + pi - t, r),
                at(phase + pi + t, r),
            ])
        }
        _ => {
            let bend = phase + std::f64::consts::FRAC_PI_2;
            Obstacle::Polyline(vec![at(phase, reach), centre, at(bend, reach)])
        }
    }
}
