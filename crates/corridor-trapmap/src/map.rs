//! How is the plane cut into trapezoids, and which one holds a point? The randomized
//! incremental construction with its search DAG (de Berg et al., *Computational
//! Geometry*, ch. 6).
//!
//! Walls are inserted in a seeded random order. Each insertion finds the trapezoids the
//! new wall crosses by locating its left end in the DAG and walking right through
//! neighbours, replaces them by at most four new kinds of trapezoid (left of the wall,
//! right of it, above and below it, merging pieces whose separating vertical wall the
//! new wall cuts off), and turns their DAG leaves into small x/y decision trees.
//! Expected O(n log n) time, O(n) size, O(log n) query.
//!
//! **Equal x.** Points are compared lexicographically, (x, y): the standard symbolic
//! shear, under which no two distinct points share an x and vertical walls are walls
//! like any other. "Above a wall" means counter-clockwise of it, directed from its
//! lexicographically smaller end. All tests are exact.

use corridor_geom::FreeSpace;
use corridor_geom::{Orientation, Point};
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// No wall, trapezoid or node (a missing neighbour, the frame's walls).
pub(crate) const NONE: u32 = u32::MAX;

/// Strictly before in the (x, y) order.
#[inline]
pub(crate) fn lex_less(a: Point, b: Point) -> bool {
    a.x < b.x || (a.x == b.x && a.y < b.y)
}

/// A wall in the map, from its lexicographically smaller end `p` to `q`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seg {
    pub p: Point,
    pub q: Point,
    /// Index in the free space's walls; `NONE` for the two frame walls.
    pub wall: u32,
    pub free_above: bool,
    pub free_below: bool,
}

/// A trapezoid: between `bottom` and `top`, from the vertical line through `leftp` to
/// the one through `rightp` (vertical in the sheared sense). Neighbours across the left
/// side: `ul` above `leftp`, `ll` below it; likewise on the right.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Trap {
    pub top: u32,
    pub bottom: u32,
    pub leftp: Point,
    pub rightp: Point,
    pub ul: u32,
    pub ll: u32,
    pub ur: u32,
    pub lr: u32,
    /// Its leaf in the DAG.
    pub node: u32,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Node {
    X { p: Point, left: u32, right: u32 },
    Y { seg: u32, above: u32, below: u32 },
    Leaf { trap: u32 },
}

/// A symbolic nudge for a point lying on walls: the point is moved by ε towards `to`
/// and then by ε² to the left of that direction, so that it falls inside a wedge that
/// starts along `to` and turns counter-clockwise.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Nudge {
    pub to: Point,
}

fn sign(a: f64, b: f64) -> i32 {
    if a > b {
        1
    } else if a < b {
        -1
    } else {
        0
    }
}

/// The trapezoidal map proper (no free-space semantics).
#[derive(Clone, Debug)]
pub(crate) struct Decomposition {
    pub segs: Vec<Seg>,
    pub traps: Vec<Trap>,
    pub nodes: Vec<Node>,
}

impl Decomposition {
    /// Heap bytes held (vector capacities × element sizes).
    pub fn memory_bytes(&self) -> usize {
        use std::mem::size_of;
        self.segs.capacity() * size_of::<Seg>()
            + self.traps.capacity() * size_of::<Trap>()
            + self.nodes.capacity() * size_of::<Node>()
    }

    /// Builds the map of the walls of `free` in a random order drawn from `seed`.
    pub fn build(free: &FreeSpace, seed: u64) -> Self {
        let b = free.bounds();
        let margin = 1.0 + 0.1 * b.size().max_element();
        let (lo, hi) = (b.min - Point::splat(margin), b.max + Point::splat(margin));
        let frame = |p: Point, q: Point| Seg {
            p,
            q,
            wall: NONE,
            free_above: false,
            free_below: false,
        };
        let mut segs = vec![
            frame(Point::new(lo.x, hi.y), hi),
            frame(lo, Point::new(hi.x, lo.y)),
        ];
        for (i, w) in free.walls().enumerate() {
            let (a, b) = (w.segment.a, w.segment.b);
            let forward = lex_less(a, b);
            let (p, q) = if forward { (a, b) } else { (b, a) };
            // Free space lies left of a → b: above when a → b runs forwards.
            segs.push(Seg {
                p,
                q,
                wall: i as u32,
                free_above: w.two_sided || forward,
                free_below: w.two_sided || !forward,
            });
        }
        let mut map = Decomposition {
            segs,
            traps: vec![Trap {
                top: 0,
                bottom: 1,
                leftp: lo,
                rightp: hi,
                ul: NONE,
                ll: NONE,
                ur: NONE,
                lr: NONE,
                node: 0,
            }],
            nodes: vec![Node::Leaf { trap: 0 }],
        };
        let mut order: Vec<u32> = (2..map.segs.len() as u32).collect();
        order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        for s in order {
            map.insert(s);
        }
        map
    }

    /// Whether `r` lies above segment `s` (counter-clockwise of it), nudged on a tie.
    fn above(&self, s: u32, r: Point, nudge: Option<Nudge>) -> bool {
        let seg = self.segs[s as usize];
        match orient(seg.p, seg.q, r) {
            Orientation::CounterClockwise => true,
            Orientation::Clockwise => false,
            Orientation::Collinear => match nudge {
                None => true,
                Some(Nudge { to }) => match orient(seg.p, seg.q, to) {
                    Orientation::CounterClockwise => true,
                    Orientation::Clockwise => false,
                    // Along the wall: the ε² turn to the left decides, i.e. whether the
                    // nudge runs the same way as the wall.
                    Orientation::Collinear => {
                        let d = if seg.p.x != seg.q.x {
                            sign(seg.q.x, seg.p.x) * sign(to.x, r.x)
                        } else {
                            sign(seg.q.y, seg.p.y) * sign(to.y, r.y)
                        };
                        d > 0
                    }
                },
            },
        }
    }

    /// Whether `r` (nudged on a tie) lies left of the vertical line through `x`.
    fn left_of(x: Point, r: Point, nudge: Option<Nudge>) -> bool {
        if r != x {
            return lex_less(r, x);
        }
        match nudge {
            None => false,
            Some(Nudge { to }) => {
                let dx = sign(to.x, r.x);
                if dx != 0 {
                    dx < 0
                } else {
                    // The ε² turn to the left of a vertical nudge moves x by -u.y.
                    sign(to.y, r.y) > 0
                }
            }
        }
    }

    /// The trapezoid holding `r` (nudged on ties; without a nudge a tie goes right and
    /// above). O(depth of the DAG).
    pub fn locate(&self, r: Point, nudge: Option<Nudge>) -> u32 {
        let mut n = 0u32;
        loop {
            match self.nodes[n as usize] {
                Node::Leaf { trap } => return trap,
                Node::X { p, left, right } => {
                    n = if Self::left_of(p, r, nudge) {
                        left
                    } else {
                        right
                    };
                }
                Node::Y { seg, above, below } => {
                    n = if self.above(seg, r, nudge) {
                        above
                    } else {
                        below
                    };
                }
            }
        }
    }

    /// The trapezoid just right of the left end of segment `s` and above or below the
    /// walls it shares that end with, as the segment itself lies.
    fn locate_start(&self, s: u32) -> u32 {
        let seg = self.segs[s as usize];
        let mut n = 0u32;
        loop {
            match self.nodes[n as usize] {
                Node::Leaf { trap } => return trap,
                Node::X { p, left, right } => {
                    n = if lex_less(seg.p, p) { left } else { right };
                }
                Node::Y {
                    seg: t,
                    above,
                    below,
                } => {
                    let other = self.segs[t as usize];
                    let up = match orient(other.p, other.q, seg.p) {
                        Orientation::CounterClockwise => true,
                        Orientation::Clockwise => false,
                        // A shared left end: compare the slopes.
                        Orientation::Collinear => {
                            orient(other.p, other.q, seg.q) == Orientation::CounterClockwise
                        }
                    };
                    n = if up { above } else { below };
                }
            }
        }
    }

    fn new_trap(&mut self, mut t: Trap) -> u32 {
        let id = self.traps.len() as u32;
        t.node = self.nodes.len() as u32;
        self.nodes.push(Node::Leaf { trap: id });
        self.traps.push(t);
        id
    }

    fn set_right(&mut self, t: u32, old: u32, upper: u32, lower: u32) {
        if t == NONE {
            return;
        }
        let tr = &mut self.traps[t as usize];
        if tr.ur == old {
            tr.ur = upper;
        }
        if tr.lr == old {
            tr.lr = lower;
        }
    }

    fn set_left(&mut self, t: u32, old: u32, upper: u32, lower: u32) {
        if t == NONE {
            return;
        }
        let tr = &mut self.traps[t as usize];
        if tr.ul == old {
            tr.ul = upper;
        }
        if tr.ll == old {
            tr.ll = lower;
        }
    }

    fn push_node(&mut self, n: Node) -> u32 {
        self.nodes.push(n);
        (self.nodes.len() - 1) as u32
    }

    fn insert(&mut self, s: u32) {
        let seg = self.segs[s as usize];
        let (p, q) = (seg.p, seg.q);
        // The trapezoids the wall crosses, left to right.
        let mut crossed = vec![self.locate_start(s)];
        loop {
            let t = self.traps[*crossed.last().unwrap() as usize];
            if !lex_less(t.rightp, q) {
                break;
            }
            let next = if orient(p, q, t.rightp) == Orientation::CounterClockwise {
                t.lr
            } else {
                t.ur
            };
            crossed.push(next);
        }
        let old: Vec<Trap> = crossed.iter().map(|&t| self.traps[t as usize]).collect();
        let k = crossed.len();

        // Pieces above and below the wall; neighbours merge where the vertical wall
        // between them lies on the other side of the new wall.
        let mut up = vec![NONE; k];
        let mut down = vec![NONE; k];
        for i in 0..k {
            let d = old[i];
            let left = if i == 0 { p } else { d.leftp };
            let right = if i == k - 1 { q } else { d.rightp };
            let r_above = i > 0 && orient(p, q, old[i - 1].rightp) == Orientation::CounterClockwise;
            let blank = Trap {
                top: NONE,
                bottom: NONE,
                leftp: left,
                rightp: right,
                ul: NONE,
                ll: NONE,
                ur: NONE,
                lr: NONE,
                node: NONE,
            };
            if i > 0 && !r_above {
                up[i] = up[i - 1];
                self.traps[up[i] as usize].rightp = right;
            } else {
                up[i] = self.new_trap(Trap {
                    top: d.top,
                    bottom: s,
                    ..blank
                });
            }
            if i > 0 && r_above {
                down[i] = down[i - 1];
                self.traps[down[i] as usize].rightp = right;
            } else {
                down[i] = self.new_trap(Trap {
                    top: s,
                    bottom: d.bottom,
                    ..blank
                });
            }
        }

        // Neighbours across the vertical walls the new wall crosses.
        for i in 1..k {
            let (prev, next) = (old[i - 1], old[i]);
            if orient(p, q, prev.rightp) == Orientation::CounterClockwise {
                let (a, b) = (up[i - 1], up[i]);
                self.traps[a as usize].ur = prev.ur;
                self.traps[a as usize].lr = b;
                self.traps[b as usize].ul = next.ul;
                self.traps[b as usize].ll = a;
                self.set_left(prev.ur, crossed[i - 1], a, a);
                self.set_right(next.ul, crossed[i], b, b);
            } else {
                let (a, b) = (down[i - 1], down[i]);
                self.traps[a as usize].lr = prev.lr;
                self.traps[a as usize].ur = b;
                self.traps[b as usize].ll = next.ll;
                self.traps[b as usize].ul = a;
                self.set_left(prev.lr, crossed[i - 1], a, a);
                self.set_right(next.ll, crossed[i], b, b);
            }
        }

        // The left end.
        let first = old[0];
        let left_piece = if first.leftp != p {
            let a = self.new_trap(Trap {
                top: first.top,
                bottom: first.bottom,
                leftp: first.leftp,
                rightp: p,
                ul: first.ul,
                ll: first.ll,
                ur: up[0],
                lr: down[0],
                node: NONE,
            });
            self.set_right(first.ul, crossed[0], a, a);
            self.set_right(first.ll, crossed[0], a, a);
            self.traps[up[0] as usize].ul = a;
            self.traps[up[0] as usize].ll = NONE;
            self.traps[down[0] as usize].ll = a;
            self.traps[down[0] as usize].ul = NONE;
            Some(a)
        } else {
            self.traps[up[0] as usize].ul = first.ul;
            self.traps[up[0] as usize].ll = NONE;
            self.traps[down[0] as usize].ll = first.ll;
            self.traps[down[0] as usize].ul = NONE;
            if first.ul == first.ll {
                self.set_right(first.ul, crossed[0], up[0], down[0]);
            } else {
                self.set_right(first.ul, crossed[0], up[0], up[0]);
                self.set_right(first.ll, crossed[0], down[0], down[0]);
            }
            None
        };
        // The right end.
        let last = old[k - 1];
        let right_piece = if last.rightp != q {
            let b = self.new_trap(Trap {
                top: last.top,
                bottom: last.bottom,
                leftp: q,
                rightp: last.rightp,
                ul: up[k - 1],
                ll: down[k - 1],
                ur: last.ur,
                lr: last.lr,
                node: NONE,
            });
            self.set_left(last.ur, crossed[k - 1], b, b);
            self.set_left(last.lr, crossed[k - 1], b, b);
            self.traps[up[k - 1] as usize].ur = b;
            self.traps[up[k - 1] as usize].lr = NONE;
            self.traps[down[k - 1] as usize].lr = b;
            self.traps[down[k - 1] as usize].ur = NONE;
            Some(b)
        } else {
            self.traps[up[k - 1] as usize].ur = last.ur;
            self.traps[up[k - 1] as usize].lr = NONE;
            self.traps[down[k - 1] as usize].lr = last.lr;
            self.traps[down[k - 1] as usize].ur = NONE;
            if last.ur == last.lr {
                self.set_left(last.ur, crossed[k - 1], up[k - 1], down[k - 1]);
            } else {
                self.set_left(last.ur, crossed[k - 1], up[k - 1], up[k - 1]);
                self.set_left(last.lr, crossed[k - 1], down[k - 1], down[k - 1]);
            }
            None
        };

        // The DAG: each crossed leaf becomes a small decision tree.
        for i in 0..k {
            let leaf = old[i].node;
            let above = self.traps[up[i] as usize].node;
            let below = self.traps[down[i] as usize].node;
            let y = Node::Y {
                seg: s,
                above,
                below,
            };
            let left = if i == 0 { left_piece } else { None };
            let right = if i == k - 1 { right_piece } else { None };
            let tree = match (left, right) {
                (None, None) => y,
                (Some(a), None) => {
                    let yn = self.push_node(y);
                    Node::X {
                        p,
                        left: self.traps[a as usize].node,
                        right: yn,
                    }
                }
                (None, Some(b)) => {
                    let yn = self.push_node(y);
                    Node::X {
                        p: q,
                        left: yn,
                        right: self.traps[b as usize].node,
                    }
                }
                (Some(a), Some(b)) => {
                    let yn = self.push_node(y);
                    let xq = self.push_node(Node::X {
                        p: q,
                        left: yn,
                        right: self.traps[b as usize].node,
                    });
                    Node::X {
                        p,
                        left: self.traps[a as usize].node,
                        right: xq,
                    }
                }
            };
            self.nodes[leaf as usize] = tree;
            self.traps[crossed[i] as usize].node = NONE;
        }
    }

    /// Whether trapezoid `t` is still part of the map (replaced ones are kept, dead).
    pub fn alive(&self, t: u32) -> bool {
        self.traps[t as usize].node != NONE
    }

    /// Whether `r` lies strictly inside trapezoid `t` (in the sheared sense). Exact.
    pub fn contains(&self, t: u32, r: Point) -> bool {
        let tr = self.traps[t as usize];
        let (top, bottom) = (self.segs[tr.top as usize], self.segs[tr.bottom as usize]);
        lex_less(tr.leftp, r)
            && lex_less(r, tr.rightp)
            && orient(top.p, top.q, r) == Orientation::Clockwise
            && orient(bottom.p, bottom.q, r) == Orientation::CounterClockwise
    }

    /// Depth of the DAG (longest root-to-leaf path), by a memoized walk.
    pub fn depth(&self) -> usize {
        let mut depth = vec![0u32; self.nodes.len()];
        // Children are always created after... not necessarily; iterate to a fixpoint
        // with an explicit post-order instead.
        let mut stack = vec![(0u32, false)];
        let mut done = vec![false; self.nodes.len()];
        while let Some((n, expanded)) = stack.pop() {
            if done[n as usize] {
                continue;
            }
            let children: Vec<u32> = match self.nodes[n as usize] {
                Node::Leaf { .. } => vec![],
                Node::X { left, right, .. } => vec![left, right],
                Node::Y { above, below, .. } => vec![above, below],
            };
            if expanded || children.is_empty() {
                depth[n as usize] = children
                    .iter()
                    .map(|&c| depth[c as usize] + 1)
                    .max()
                    .unwrap_or(0);
                done[n as usize] = true;
            } else {
                stack.push((n, true));
                for c in children {
                    if !done[c as usize] {
                        stack.push((c, false));
                    }
                }
            }
        }
        depth[0] as usize
    }
}

/// Exact orientation (the geometry kernel's adaptive predicate).
#[inline]
fn orient(a: Point, b: Point, c: Point) -> Orientation {
    corridor_geom::orient(a, b, c)
}
