//! The free space of the visibility planners ([`FreeSpace`]): its wall grid and its
//! errors (moved with it from corridor-visgraph).

use corridor_geom::{Aabb, Environment, FreeSpace, FreeSpaceError, Obstacle, Point};
use corridor_testkit::random::{random_environment, ObstacleMix, RandomEnvironmentOptions};

/// Every wall is found in the grid cell of each of its points (sampled along it), the
/// grid holds no other ids and each cell lists its walls in increasing order: whether
/// the grid was built over the walls or renumbered from the pieces'.
fn assert_grid_holds_the_walls(fs: &FreeSpace) {
    let n = fs.walls.len();
    for i in 0..n as u32 {
        let (a, b) = fs.wall_points(i);
        let Aabb { min: lo, max: hi } = Aabb::new(a, b);
        for k in 0..=8 {
            // (Clamped: the rounded point stays in the wall's box.)
            let x = a + (b - a) * (k as f64 / 8.0);
            let x = Point::new(x.x.clamp(lo.x, hi.x), x.y.clamp(lo.y, hi.y));
            let mut found = false;
            fs.grid
                .for_each_in_box(&Aabb::new(x, x), |j| found |= j == i);
            assert!(found, "wall {i} missing from the grid at {x:?}");
        }
    }
    for cell in 0..fs.grid.cell_count() {
        let items = fs.grid.cell_items(cell);
        assert!(items.iter().all(|&j| (j as usize) < n));
        assert!(
            items.windows(2).all(|w| w[0] < w[1]),
            "cell {cell} unsorted"
        );
    }
}

#[test]
fn grid_holds_the_walls_after_merging() {
    for seed in 0..60 {
        let options = match seed % 3 {
            // Scattered polygons: nothing split or cancelled, the pieces' grid reused.
            0 => RandomEnvironmentOptions {
                mix: ObstacleMix::POLYGONS,
                ..RandomEnvironmentOptions::default()
            },
            // Grid maps: shared edges cancel, runs merge, the grid is built again.
            1 => RandomEnvironmentOptions::grid_map(12, 20),
            _ => RandomEnvironmentOptions::default(),
        };
        let env = random_environment(seed, &options);
        let fs = FreeSpace::from_environment(&env).unwrap();
        assert_grid_holds_the_walls(&fs);
    }
}

#[test]
fn crossing_obstacles_are_reported_by_from_disjoint() {
    let p = |x: f64, y: f64| Point::new(x, y);
    let mut env = Environment::rectangle(p(0.0, 0.0), p(10.0, 10.0));
    env.insert(Obstacle::rectangle(p(1.0, 1.0), p(5.0, 3.0)));
    env.insert(Obstacle::rectangle(p(2.0, 2.0), p(4.0, 6.0)));
    assert!(matches!(
        FreeSpace::from_disjoint(&env),
        Err(FreeSpaceError::Crossing { .. })
    ));
    // `from_environment` unions them instead.
    assert!(FreeSpace::from_environment(&env).is_ok());
}
