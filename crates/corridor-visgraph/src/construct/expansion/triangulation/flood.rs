//! Which triangles are free? Flooded from the walls' sides across the edges that are not
//! walls.

use super::{Builder, TriangulationError, NO_TRIANGLE, WALLS};

impl Builder<'_> {
    /// Free or not, per triangle: the walls' sides seed it, hull edges that are not walls
    /// lie outside, and it spreads across the edges that are not walls.
    pub(super) fn flood(&self) -> Result<Vec<bool>, TriangulationError> {
        const UNKNOWN: u8 = 0;
        const FREE: u8 = 1;
        const BLOCKED: u8 = 2;
        let count = self.corners.len();
        let mut state = vec![UNKNOWN; count];
        let mut todo: Vec<u32> = Vec::with_capacity(count);
        for (t, (&f, nb)) in self.flags.iter().zip(&self.neighbours).enumerate() {
            let walls = f & WALLS;
            let blocked_sides = f >> 3;
            let on_open_hull = (0..3).any(|i| walls >> i & 1 == 0 && nb[i] == NO_TRIANGLE);
            let blocked = blocked_sides != 0 || on_open_hull;
            let free = walls & !blocked_sides != 0;
            if free && blocked {
                return Err(TriangulationError::Inconsistent);
            }
            if free || blocked {
                state[t] = if free { FREE } else { BLOCKED };
                todo.push(t as u32);
            }
        }
        while let Some(t) = todo.pop() {
            let s = state[t as usize];
            let walls = self.flags[t as usize] & WALLS;
            for i in 0..3 {
                let u = self.neighbours[t as usize][i];
                if walls >> i & 1 == 1 || u == NO_TRIANGLE {
                    continue;
                }
                match state[u as usize] {
                    UNKNOWN => {
                        state[u as usize] = s;
                        todo.push(u);
                    }
                    other if other != s => return Err(TriangulationError::Inconsistent),
                    _ => {}
                }
            }
        }
        if state.contains(&UNKNOWN) {
            return Err(TriangulationError::Inconsistent);
        }
        Ok(state.into_iter().map(|s| s == FREE).collect())
    }
}
