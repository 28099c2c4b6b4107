//! Built-in example environments, made in code and deterministic, resembling the test
//! scenes of the ECM papers (van Toll et al. 2012, Table I): an empty box, a military
//! compound, a dungeon of rooms with concave walls, and a city grid; and one layered
//! scene, [`layers`] (`builtin:layers`: two floors joined by two staircases).
//!
//! ```
//! use corridor_io::scenes::{self, Scene};
//! for scene in Scene::ALL {
//!     let env = scene.build();
//!     env.validate().unwrap();
//! }
//! assert!(scenes::city().vertex_count() > 2_000);
//! ```

use corridor_geom::{
    Environment, HeightPlane, Layer, LayeredEnvironment, Obstacle, Point, Polygon, Ring, Segment,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::PI;

/// The built-in scenes, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scene {
    /// [`empty`].
    Empty,
    /// [`military`].
    Military,
    /// [`dungeon`].
    Dungeon,
    /// [`city`].
    City,
}

impl Scene {
    /// Every scene, smallest first.
    pub const ALL: [Scene; 4] = [Scene::Empty, Scene::Military, Scene::Dungeon, Scene::City];

    /// The scene's short name (`empty`, `military`, `dungeon`, `city`).
    pub fn name(self) -> &'static str {
        match self {
            Scene::Empty => "empty",
            Scene::Military => "military",
            Scene::Dungeon => "dungeon",
            Scene::City => "city",
        }
    }

    /// The scene with this short name.
    pub fn from_name(name: &str) -> Option<Scene> {
        Scene::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Builds the environment.
    pub fn build(self) -> Environment {
        match self {
            Scene::Empty => empty(),
            Scene::Military => military(),
            Scene::Dungeon => dungeon(),
            Scene::City => city(),
        }
    }
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// An empty 100 × 100 box: the simplest medial axis (an X with a short middle).
pub fn empty() -> Environment {
    Environment::rectangle(p(0.0, 0.0), p(100.0, 80.0))
}

/// A rectangle of width `w` and depth `d` centred at `c`, turned by `angle` radians.
fn rotated_rectangle(c: Point, w: f64, d: f64, angle: f64) -> Obstacle {
    let dir = Point::from_angle(angle);
    let (u, v) = (dir * (w / 2.0), dir.perp() * (d / 2.0));
    Obstacle::polygon(vec![c - u - v, c + u - v, c + u + v, c - u + v])
}

/// An L-shaped building: the box `min..max` minus its upper-right quarter-ish notch.
fn l_building(min: Point, max: Point, notch: Point) -> Obstacle {
    Obstacle::polygon(vec![
        min,
        p(max.x, min.y),
        p(max.x, max.y - notch.y),
        p(max.x - notch.x, max.y - notch.y),
        p(max.x - notch.x, max.y),
        p(min.x, max.y),
    ])
}

/// A regular polygon with `n` vertices (a pillar, a tree, a tower).
fn regular(c: Point, r: f64, n: usize, phase: f64) -> Obstacle {
    Obstacle::polygon(
        (0..n)
            .map(|i| c + Point::from_angle(phase + 2.0 * PI * i as f64 / n as f64) * r)
            .collect(),
    )
}

/// A military training compound, 200 × 200 m like the McKenna site of the papers: a
/// perimeter fence with two gates, barracks and L-shaped buildings, sandbag walls
/// (segments), watchtowers (points), parked vehicles turned at angles, and a walled yard
/// whose walls overlap.
pub fn military() -> Environment {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(200.0, 200.0));
    // Perimeter fence with a gate in the south and one in the east.
    env.insert(Obstacle::Polyline(vec![
        p(90.0, 20.0),
        p(20.0, 20.0),
        p(20.0, 180.0),
        p(180.0, 180.0),
        p(180.0, 110.0),
    ]));
    env.insert(Obstacle::Polyline(vec![
        p(110.0, 20.0),
        p(180.0, 20.0),
        p(180.0, 90.0),
    ]));
    // Barracks in two rows.
    for i in 0..4 {
        let x = 35.0 + 28.0 * i as f64;
        env.insert(Obstacle::rectangle(p(x, 35.0), p(x + 18.0, 50.0)));
        env.insert(Obstacle::rectangle(p(x, 62.0), p(x + 18.0, 74.0)));
    }
    // Headquarters and workshops: concave buildings.
    env.insert(l_building(p(40.0, 120.0), p(80.0, 160.0), p(18.0, 16.0)));
    env.insert(l_building(p(130.0, 125.0), p(165.0, 165.0), p(15.0, 20.0)));
    // A walled yard built from overlapping wall pieces, open to the west.
    env.insert(Obstacle::rectangle(p(100.0, 95.0), p(150.0, 98.0)));
    env.insert(Obstacle::rectangle(p(147.0, 95.0), p(150.0, 112.0)));
    env.insert(Obstacle::rectangle(p(100.0, 109.0), p(150.0, 112.0)));
    // Sandbag walls and a firing line.
    env.insert(Obstacle::segment(p(30.0, 90.0), p(55.0, 98.0)));
    env.insert(Obstacle::segment(p(60.0, 100.0), p(85.0, 92.0)));
    env.insert(Obstacle::Polyline(vec![
        p(95.0, 130.0),
        p(105.0, 140.0),
        p(115.0, 130.0),
    ]));
    // Watchtowers at the fence corners.
    for c in [
        p(24.0, 24.0),
        p(176.0, 24.0),
        p(24.0, 176.0),
        p(176.0, 176.0),
    ] {
        env.insert(Obstacle::Point(c));
    }
    // Parked vehicles, some overlapping each other.
    env.insert(rotated_rectangle(p(120.0, 78.0), 8.0, 3.5, 0.3));
    env.insert(rotated_rectangle(p(126.0, 80.0), 8.0, 3.5, 0.5));
    env.insert(rotated_rectangle(p(160.0, 60.0), 10.0, 4.0, -0.8));
    env.insert(regular(p(100.0, 170.0), 4.0, 6, 0.2));
    env
}

/// A dungeon 100 × 100: a 5 × 5 grid of rooms separated by thick rock walls that overlap
/// at their joints, with doorways (some rooms reachable only the long way round, two
/// sealed rooms), pillars, chamfered corners and concave statues.
pub fn dungeon() -> Environment {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(100.0, 100.0));
    let mut rng = ChaCha8Rng::seed_from_u64(0xD0D6E0);
    let (cells, size, wall) = (5usize, 20.0, 3.0);
    // A spanning tree of doorways (random depth-first carving) plus a few extra doors, so
    // the dungeon has loops; rooms (4,0) and (0,4) are sealed. A door is named by the two
    // rooms it joins, the smaller first.
    let sealed = |(x, y): (usize, usize)| (x, y) == (4, 0) || (x, y) == (0, 4);
    let mut doors = std::collections::BTreeSet::new();
    let mut seen = std::collections::BTreeSet::from([(2usize, 2usize)]);
    let mut stack = vec![(2usize, 2usize)];
    while let Some(&(x, y)) = stack.last() {
        let next: Vec<(usize, usize)> = [
            (x.wrapping_sub(1), y),
            (x + 1, y),
            (x, y.wrapping_sub(1)),
            (x, y + 1),
        ]
        .into_iter()
        .filter(|&(nx, ny)| {
            nx < cells && ny < cells && !seen.contains(&(nx, ny)) && !sealed((nx, ny))
        })
        .collect();
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let room = next[rng.random_range(0..next.len())];
        doors.insert(((x, y).min(room), (x, y).max(room)));
        seen.insert(room);
        stack.push(room);
    }
    for _ in 0..4 {
        let (x, y) = (rng.random_range(1..cells), rng.random_range(0..cells));
        if !sealed((x, y)) && !sealed((x - 1, y)) {
            doors.insert(((x - 1, y), (x, y)));
        }
    }
    // Rock walls: one rectangle per wall between two rooms, overlapping its neighbours at
    // the joints; a doorway splits it into two pieces.
    let door_width = 5.0;
    for a in 0..cells {
        for b in 1..cells {
            // The wall between rooms (a, b-1) and (a, b) runs along x; the one between
            // (b-1, a) and (b, a) runs along y.
            for along_x in [true, false] {
                let (lo_room, hi_room) = if along_x {
                    ((a, b - 1), (a, b))
                } else {
                    ((b - 1, a), (b, a))
                };
                let (from, to, at) = (
                    a as f64 * size - wall / 2.0,
                    (a + 1) as f64 * size + wall / 2.0,
                    b as f64 * size,
                );
                let rect = |s: f64, t: f64| {
                    if along_x {
                        Obstacle::rectangle(p(s, at - wall / 2.0), p(t, at + wall / 2.0))
                    } else {
                        Obstacle::rectangle(p(at - wall / 2.0, s), p(at + wall / 2.0, t))
                    }
                };
                if doors.contains(&(lo_room, hi_room)) {
                    let mid = (a as f64 + 0.5) * size + rng.random_range(-4.0..4.0);
                    env.insert(rect(from, mid - door_width / 2.0));
                    env.insert(rect(mid + door_width / 2.0, to));
                } else {
                    env.insert(rect(from, to));
                }
            }
        }
    }
    // Room furniture: pillars, chamfered corners overlapping the walls, concave statues.
    for y in 0..cells {
        for x in 0..cells {
            let c = p((x as f64 + 0.5) * size, (y as f64 + 0.5) * size);
            match (x + 2 * y) % 4 {
                0 => {
                    for (dx, dy) in [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)] {
                        env.insert(regular(c + p(dx, dy), 1.2, 8, PI / 8.0));
                    }
                }
                1 => {
                    let (lo, hi) = (c - p(size / 2.0, size / 2.0), c + p(size / 2.0, size / 2.0));
                    env.insert(Obstacle::polygon(vec![
                        lo,
                        p(lo.x + 6.0, lo.y),
                        p(lo.x, lo.y + 6.0),
                    ]));
                    env.insert(Obstacle::polygon(vec![
                        hi,
                        p(hi.x - 6.0, hi.y),
                        p(hi.x, hi.y - 6.0),
                    ]));
                }
                2 => {
                    env.insert(statue(c, rng.random_range(0.0..PI)));
                }
                _ => {
                    env.insert(regular(c, 2.5, 5, rng.random_range(0.0..PI)));
                }
            }
        }
    }
    env
}

/// A cross-shaped (concave, 12-vertex) statue centred at `c`, turned by `angle`.
fn statue(c: Point, angle: f64) -> Obstacle {
    let (a, b) = (1.0, 3.0);
    let outline = [
        (-a, -b),
        (a, -b),
        (a, -a),
        (b, -a),
        (b, a),
        (a, a),
        (a, b),
        (-a, b),
        (-a, a),
        (-b, a),
        (-b, -a),
        (-a, -a),
    ];
    let rot = Point::from_angle(angle);
    Obstacle::polygon(
        outline
            .iter()
            .map(|&(x, y)| c + rot.rotate(p(x, y)))
            .collect(),
    )
}

/// A city 500 × 500 m: a 10 × 10 grid of blocks separated by streets; each block holds
/// a few buildings (rectangles, L-shapes, turned towers, courtyard buildings with a
/// hole) that may overlap, some blocks are parks with trees (points) and fences
/// (polylines). About three thousand obstacle vertices.
pub fn city() -> Environment {
    let mut env = Environment::rectangle(p(0.0, 0.0), p(500.0, 500.0));
    let mut rng = ChaCha8Rng::seed_from_u64(0xC17E);
    let (blocks, pitch, street) = (10usize, 50.0, 10.0);
    for by in 0..blocks {
        for bx in 0..blocks {
            let lo = p(
                bx as f64 * pitch + street / 2.0,
                by as f64 * pitch + street / 2.0,
            );
            let hi = lo + p(pitch - street, pitch - street);
            if rng.random_bool(0.12) {
                // A park: trees and a fence along two sides.
                for _ in 0..12 {
                    env.insert(Obstacle::Point(p(
                        rng.random_range(lo.x + 2.0..hi.x - 2.0),
                        rng.random_range(lo.y + 2.0..hi.y - 2.0),
                    )));
                }
                env.insert(Obstacle::Polyline(vec![
                    p(lo.x, hi.y - 8.0),
                    lo,
                    p(hi.x - 8.0, lo.y),
                ]));
                continue;
            }
            let mid = (lo + hi) / 2.0;
            // Four quadrant buildings, some L-shaped, some turned, some overlapping.
            for (qx, qy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                let q_lo = p(lo.x + qx * (mid.x - lo.x), lo.y + qy * (mid.y - lo.y)) + p(1.0, 1.0);
                let q_hi = q_lo + (mid - lo) - p(2.0, 2.0)
                    + p(rng.random_range(0.0..3.0), rng.random_range(0.0..3.0));
                match rng.random_range(0..5) {
                    0 => {
                        env.insert(Obstacle::rectangle(q_lo, q_hi));
                    }
                    1 => {
                        let notch = (q_hi - q_lo) * rng.random_range(0.3..0.6);
                        env.insert(l_building(q_lo, q_hi, notch));
                    }
                    2 => {
                        let c = (q_lo + q_hi) / 2.0;
                        env.insert(rotated_rectangle(c, 12.0, 8.0, rng.random_range(0.0..PI)));
                    }
                    3 => {
                        let c = (q_lo + q_hi) / 2.0;
                        env.insert(regular(
                            c,
                            6.0,
                            rng.random_range(5..9),
                            rng.random_range(0.0..PI),
                        ));
                    }
                    _ => {
                        // A courtyard building: a polygon with a hole.
                        let outer =
                            Ring::new(vec![q_lo, p(q_hi.x, q_lo.y), q_hi, p(q_lo.x, q_hi.y)]);
                        let inset = (q_hi - q_lo) * 0.3;
                        let (h_lo, h_hi) = (q_lo + inset, q_hi - inset);
                        let hole =
                            Ring::new(vec![h_lo, p(h_hi.x, h_lo.y), h_hi, p(h_lo.x, h_hi.y)]);
                        env.insert(Obstacle::Polygon(Polygon::new(outer, vec![hole])));
                    }
                }
            }
        }
    }
    env
}

/// The names of the built-in layered scenes (`builtin:NAME`).
pub const LAYERED: [&str; 1] = ["layers"];

/// The built-in layered scene with this short name.
pub fn layered_from_name(name: &str) -> Option<LayeredEnvironment> {
    (name == "layers").then(layers)
}

/// Two 40 × 20 floors, 4 units apart, over the same ground, joined by two straight
/// staircases modelled as sloped layers (as in the *Layers* scene of van Toll et al. 2012,
/// Figure 1): stairs A climb eastwards along the south wall from x = 10 to 20, stairs B
/// westwards along the north wall from x = 35 to 25. Under each staircase the ground floor
/// has a solid block, above it the upper floor has its stairwell; each staircase meets
/// a floor at the block's or the well's end edge, which is the connection.
///
/// ```
/// let world = corridor_io::scenes::layers();
/// world.validate().unwrap();
/// assert_eq!((world.layer_count(), world.connections().len()), (4, 4));
/// ```
pub fn layers() -> LayeredEnvironment {
    let floor = |obstacles: Vec<Obstacle>| {
        let mut env = Environment::rectangle(p(0.0, 0.0), p(40.0, 20.0));
        for o in obstacles {
            env.insert(o);
        }
        env
    };
    let (a_min, a_max) = (p(10.0, 0.0), p(20.0, 3.0));
    let (b_min, b_max) = (p(25.0, 17.0), p(35.0, 20.0));
    let ground = floor(vec![
        Obstacle::rectangle(a_min, a_max),
        Obstacle::rectangle(b_min, b_max),
        Obstacle::rectangle(p(5.0, 8.0), p(8.0, 12.0)),
        Obstacle::rectangle(p(17.0, 8.0), p(22.0, 14.0)),
        Obstacle::segment(p(30.0, 4.0), p(30.0, 12.0)),
        Obstacle::Point(p(12.0, 16.0)),
    ]);
    let upper = floor(vec![
        Obstacle::rectangle(a_min, a_max),
        Obstacle::rectangle(b_min, b_max),
        Obstacle::rectangle(p(3.0, 12.0), p(6.0, 18.0)),
        Obstacle::rectangle(p(14.0, 5.0), p(17.0, 9.0)),
        Obstacle::polygon(vec![p(30.0, 6.0), p(36.0, 6.0), p(33.0, 11.0)]),
        Obstacle::segment(p(8.0, 11.0), p(24.0, 11.0)),
    ]);
    let mut world = LayeredEnvironment::new();
    let l0 = world.add_layer(Layer::new("ground floor", ground, HeightPlane::flat(0.0)));
    let l1 = world.add_layer(Layer::new("upper floor", upper, HeightPlane::flat(4.0)));
    let stairs = |name: &str, min: Point, max: Point, plane: HeightPlane| {
        Layer::new(name, Environment::rectangle(min, max), plane)
    };
    let sa = world.add_layer(stairs(
        "stairs A",
        a_min,
        a_max,
        HeightPlane::new(0.4, 0.0, -4.0),
    ));
    let sb = world.add_layer(stairs(
        "stairs B",
        b_min,
        b_max,
        HeightPlane::new(-0.4, 0.0, 14.0),
    ));
    let edge = |x: f64, y0: f64, y1: f64| Segment::new(p(x, y0), p(x, y1));
    for (from, to, segment) in [
        (l0, sa, edge(10.0, 0.0, 3.0)),
        (sa, l1, edge(20.0, 0.0, 3.0)),
        (l0, sb, edge(35.0, 17.0, 20.0)),
        (sb, l1, edge(25.0, 17.0, 20.0)),
    ] {
        world
            .connect(from, to, segment)
            .expect("the built-in staircases meet the floors on their boundaries");
    }
    world
}
