//! Work counts of Corridor's taut-length search on the Aurora problems (radius 0):
//! the medial axis's degrees (all and on its core, after peeling pendant trees), its
//! bending points, and per run the labels expanded and created (vertices passed by
//! walks included), the mean length over the optimum and the CPU-bound wall time.
//!
//! `cargo run --release --manifest-path bench/polyanya-compare/Cargo.toml --bin search-stats [-- EVERY]`
//!
//! Under `valgrind --tool=callgrind --toggle-collect='*TautSearch*run*'` it gives the
//! search's instruction count.
use corridor_ecm::{CorridorPath, Ecm, PathQuery, Planner};
use std::time::Instant;
fn main() {
    let dir = polyanya_compare::polyanya_dir();
    let every = polyanya_compare::every();
    let problems = polyanya_compare::aurora_problems(every);
    let env = corridor_io::load_environment(dir.join("aurora.mesh")).unwrap();
    let ecm = Ecm::build(&env).unwrap();
    let mut deg = [0usize; 8];
    for (_, v) in ecm.vertices() {
        deg[v.degree().min(7)] += 1;
    }
    println!(
        "vertices {} edges {} degrees {:?}",
        ecm.vertices().count(),
        ecm.edges().count(),
        deg
    );
    // core: peel leaves
    use std::collections::HashMap;
    let ids: Vec<_> = ecm.vertices().map(|(v, _)| v).collect();
    let idx: HashMap<_, usize> = ids.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let mut nb: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    for (_, e) in ecm.edges() {
        let (a, b) = (idx[&e.start], idx[&e.end]);
        nb[a].push(b);
        nb[b].push(a);
    }
    let mut deg: Vec<usize> = nb.iter().map(|n| n.len()).collect();
    let mut gone = vec![false; ids.len()];
    let mut st: Vec<usize> = (0..ids.len()).filter(|&i| deg[i] == 1).collect();
    while let Some(v) = st.pop() {
        if gone[v] || deg[v] != 1 {
            continue;
        }
        gone[v] = true;
        deg[v] = 0;
        for &w in &nb[v] {
            if !gone[w] {
                deg[w] -= 1;
                if deg[w] == 1 {
                    st.push(w);
                }
            }
        }
    }
    let mut cd = [0usize; 8];
    for i in 0..ids.len() {
        if !gone[i] {
            cd[deg[i].min(7)] += 1;
        }
    }
    println!("core degrees {:?}", cd);
    let (mut bps, mut dup, mut inner) = (0usize, 0usize, 0usize);
    for (_, e) in ecm.edges() {
        let b = &e.bending_points;
        bps += b.len();
        for i in 1..b.len() {
            if b[i].left == b[i - 1].left && b[i].right == b[i - 1].right {
                dup += 1;
            }
        }
        for i in 1..b.len().saturating_sub(1) {
            let one = |x: [f64; 2], y: [f64; 2], z: [f64; 2]| {
                let (a, b) = ([y[0] - x[0], y[1] - x[1]], [z[0] - y[0], z[1] - y[1]]);
                (x == y && y == z)
                    || ((a[0] * b[1] - a[1] * b[0]).abs() < 1e-12
                        && a[0] * b[0] + a[1] * b[1] > 0.0)
            };
            let l = |k: usize| [b[k].left.x, b[k].left.y];
            let r = |k: usize| [b[k].right.x, b[k].right.y];
            if one(l(i - 1), l(i), l(i + 1)) && one(r(i - 1), r(i), r(i + 1)) {
                inner += 1;
            }
        }
    }
    println!(
        "bending points {bps}, exact duplicates of previous {dup}, collinear-interior {inner}"
    );
    let mut planner = Planner::new();
    let mut out = CorridorPath::empty();
    let (mut exp, mut created, mut len) = (0usize, 0usize, 0.0);
    let t = Instant::now();
    for p in &problems {
        planner
            .plan_into(&ecm, &PathQuery::new(p.start, p.goal), &mut out)
            .unwrap();
        let (e, c) = planner.search_statistics();
        exp += e;
        created += c;
        len += out.length / p.length;
    }
    let el = t.elapsed().as_secs_f64();
    println!(
        "{} problems: expanded {} created {} mean ratio {:.6} time {:.3}s ({:.1} ns/label)",
        problems.len(),
        exp,
        created,
        len / problems.len() as f64,
        el,
        el * 1e9 / created as f64
    );
}
