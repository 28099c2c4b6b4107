//! Builds the ECM of a built-in scene as a downstream user would.
//! `.ci/run` runs this and checks, in `cargo tree`, that the Voronoi library is Corridor's
//! fork.

fn main() {
    let env = corridor::io::scenes::military();
    let ecm = corridor::ecm::Ecm::build(&env).expect("the ECM builds");
    println!(
        "downstream: the ECM of builtin:military has {} vertices and {} edges",
        ecm.vertex_count(),
        ecm.edge_count()
    );
}
