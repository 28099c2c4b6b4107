//! A user's project: the facade's tour API (the prelude, one way to ask any planner for a
//! path, an update planned off-thread) on a built-in scene and on its own polygons.
//! `.ci/run` runs this and checks, in `cargo tree`, that the Voronoi library is Corridor's
//! fork.

use corridor::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let env = Scene::Military.build();
    let ecm = Ecm::build(&env)?;
    println!(
        "downstream: the ECM of builtin:military has {} vertices and {} edges",
        ecm.vertex_count(),
        ecm.edge_count()
    );

    // Our own room with a wall, asked of two planners the same way.
    let mut room = Environment::rectangle(Point::ZERO, Point::new(20.0, 10.0));
    room.insert(Obstacle::rectangle(Point::new(8.0, 0.0), Point::new(12.0, 7.0)));
    let query = PathQuery::new(Point::new(2.0, 2.0), Point::new(18.0, 2.0)).with_radius(0.5);
    let planners: [Box<dyn PathPlanner>; 2] = [
        Box::new(Ecm::build(&room)?),
        Box::new(RadiusGraph::build(&room, 0.5)?),
    ];
    for planner in &planners {
        let path = planner.find_path(&query)?;
        println!("downstream: {} path of length {:.3}", planner.name(), path.length);
    }

    // A crate dropped in, planned off-thread while the map keeps answering.
    let mut map = DynamicEcm::new(room)?;
    let crate_box = Obstacle::rectangle(Point::new(14.0, 1.0), Point::new(15.0, 3.0));
    let patch = std::thread::scope(|s| {
        let update = s.spawn(|| map.plan_update(&Change::Insert(crate_box)));
        let _ = map.ecm().find_path(&query);
        update.join().expect("the update thread does not panic")
    })?;
    map.apply(patch)?;
    let path = map.ecm().find_path(&query)?;
    println!("downstream: after the update, length {:.3}", path.length);
    Ok(())
}
