//! Which velocity should a character take, given the velocities that lead to a collision?
//! Optimal Reciprocal Collision Avoidance (van den Berg, Guy, Lin and Manocha, "Reciprocal
//! n-body collision avoidance", ISRR 2009): each neighbour turns into a half-plane of
//! permitted velocities, and a 2D linear program picks the permitted velocity nearest to
//! the preferred one (or, when none is permitted, the one that violates the half-planes
//! least).
//!
//! Written from the paper: half-planes are `a · v ≤ b` with `a` a unit vector.

use corridor_geom::Point;

/// A half-plane of velocities `{ v : normal · v ≤ offset }` (`normal` of unit length).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalfPlane {
    /// Unit normal pointing out of the permitted side.
    pub normal: Point,
    /// The permitted side's bound along `normal`.
    pub offset: f64,
}

impl HalfPlane {
    /// How far `v` lies outside (positive) or inside (negative).
    #[inline]
    pub fn violation(&self, v: Point) -> f64 {
        self.normal.dot(v) - self.offset
    }
}

/// The ORCA half-plane that the character at `position` moving at `velocity` takes for a
/// neighbour (`other_position`, `other_velocity`) with combined radius `radius`: over the
/// next `horizon` seconds the two do not collide if both keep to their half-planes. When
/// they already overlap, the half-plane separates them within one `time_step`.
///
/// `responsibility` is the share of the avoidance this character takes (½ when both
/// avoid, as in the paper).
///
/// ```
/// use corridor_crowd::orca::orca_half_plane;
/// use corridor_geom::Point;
/// // Head-on at 1 m/s, 10 m apart, combined radius 2, horizon 10 s.
/// let h = orca_half_plane(
///     Point::ZERO, Point::new(1.0, 0.0), Point::new(10.0, 0.0), Point::new(-1.0, 0.0),
///     2.0, 10.0, 0.25, 0.5,
/// );
/// // Keeping straight on is forbidden.
/// assert!(h.violation(Point::new(1.0, 0.0)) > 0.0);
/// ```
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn orca_half_plane(
    position: Point,
    velocity: Point,
    other_position: Point,
    other_velocity: Point,
    radius: f64,
    horizon: f64,
    time_step: f64,
    responsibility: f64,
) -> HalfPlane {
    orca_half_plane_inv(
        position,
        velocity,
        other_position,
        other_velocity,
        radius,
        1.0 / horizon,
        1.0 / time_step,
        responsibility,
    )
}

/// [`orca_half_plane`] with the reciprocals of the horizon and the time step given, so a
/// caller with many neighbours divides once (the same answer, to the bit).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn orca_half_plane_inv(
    position: Point,
    velocity: Point,
    other_position: Point,
    other_velocity: Point,
    radius: f64,
    inv_horizon: f64,
    inv_time_step: f64,
    responsibility: f64,
) -> HalfPlane {
    let p = other_position - position;
    let v = velocity - other_velocity;
    let dist_sq = p.length_squared();
    let r_sq = radius * radius;
    // `u`: the smallest change of the relative velocity that leaves the velocity obstacle;
    // `n`: the obstacle's outward normal where `u` ends.
    let (u, n);
    if dist_sq > r_sq {
        // The truncated cone: apex at the origin, cap the disc of p/τ with radius R/τ.
        let inv = inv_horizon;
        let w = v - p * inv;
        let w_len_sq = w.length_squared();
        let along = w.dot(p);
        if along < 0.0 && along * along > r_sq * w_len_sq {
            // Nearest boundary point on the cap. A branch on `|w|² > 0` rather than a
            // select of the unit vector: `|w|²` underflows only for a relative velocity
            // within 1e-162 m/s of the cap's centre, where any direction will do.
            if w_len_sq > 0.0 {
                let w_len = w_len_sq.sqrt();
                let unit = w / w_len;
                u = unit * (radius * inv - w_len);
                n = unit;
            } else {
                u = Point::X * (radius * inv);
                n = Point::X;
            }
        } else {
            // Nearest boundary point on a leg.
            let leg = (dist_sq - r_sq).sqrt();
            let direction = if p.perp_dot(w) > 0.0 {
                // Left leg; the obstacle lies to its right.
                Point::new(p.x * leg - p.y * radius, p.x * radius + p.y * leg) / dist_sq
            } else {
                // Right leg, reversed so that the obstacle lies to its right too.
                -Point::new(p.x * leg + p.y * radius, -p.x * radius + p.y * leg) / dist_sq
            };
            u = direction * v.dot(direction) - v;
            n = Point::new(-direction.y, direction.x);
        }
    } else {
        // Overlapping: leave the disc of p/Δt with radius R/Δt within one step.
        let inv = inv_time_step;
        let w = v - p * inv;
        let w_len = w.length();
        let unit = if w_len > 0.0 {
            w / w_len
        } else {
            // Exactly on top of each other: any direction separates; take one fixed one
            // so that the result does not depend on thread timing.
            -p.try_normalize().unwrap_or(Point::X)
        };
        u = unit * (radius * inv - w_len);
        n = unit;
    }
    // Permitted: (v' − (velocity + responsibility·u)) · n ≥ 0.
    let anchor = velocity + u * responsibility;
    HalfPlane {
        normal: -n,
        offset: -n.dot(anchor),
    }
}

/// Solves the linear program on half-plane `k`'s line with the half-planes before it and
/// the disc of radius `max_speed`: the point of the line nearest `target` (or, with
/// `maximize`, furthest along `target`). `None` when the constraints leave nothing.
#[inline]
fn on_line(
    planes: &[HalfPlane],
    k: usize,
    max_speed: f64,
    target: Point,
    maximize: bool,
) -> Option<Point> {
    let h = planes[k];
    let origin = h.normal * h.offset; // a point of the line
    let dir = Point::new(-h.normal.y, h.normal.x);
    let along = origin.dot(dir);
    let disc = along * along + max_speed * max_speed - origin.length_squared();
    if disc < 0.0 {
        return None;
    }
    let root = disc.sqrt();
    let (mut lo, mut hi) = (-along - root, -along + root);
    for g in &planes[..k] {
        let denominator = g.normal.dot(dir);
        let numerator = g.offset - g.normal.dot(origin);
        if denominator.abs() <= 1e-12 {
            if numerator < 0.0 {
                return None; // parallel and on the forbidden side
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator > 0.0 {
            hi = hi.min(t);
        } else {
            lo = lo.max(t);
        }
        if lo > hi {
            return None;
        }
    }
    let t = if maximize {
        if target.dot(dir) > 0.0 {
            hi
        } else {
            lo
        }
    } else {
        (target - origin).dot(dir).clamp(lo, hi)
    };
    Some(origin + dir * t)
}

/// The permitted velocity nearest `target` inside the disc of `max_speed` (with
/// `maximize`: the furthest along the unit vector `target`). `Err((k, best))` when
/// half-plane `k` cannot be met together with those before it; `best` is the last
/// feasible answer.
#[inline(always)]
fn solve(
    planes: &[HalfPlane],
    max_speed: f64,
    target: Point,
    maximize: bool,
) -> Result<Point, (usize, Point)> {
    let mut result = if maximize {
        target * max_speed
    } else if target.length_squared() > max_speed * max_speed {
        target.normalize() * max_speed
    } else {
        target
    };
    for k in 0..planes.len() {
        if planes[k].violation(result) > 0.0 {
            match on_line(planes, k, max_speed, target, maximize) {
                Some(v) => result = v,
                None => return Err((k, result)),
            }
        }
    }
    Ok(result)
}

/// The velocity a character takes: nearest `preferred` among those permitted by all
/// `planes` and at most `max_speed`. The first `hard` planes (the walls) are kept
/// whenever they can be; when the others cannot all be met, the answer violates them
/// by as little as possible (the largest violation is minimized), as in the paper.
///
/// `scratch` is reused between calls (no allocation once it has grown).
///
/// ```
/// use corridor_crowd::orca::{choose_velocity, HalfPlane};
/// use corridor_geom::Point;
/// // Nothing faster than 0.5 to the right.
/// let planes = [HalfPlane { normal: Point::X, offset: 0.5 }];
/// let v = choose_velocity(&planes, 0, 2.0, Point::new(1.0, 0.0), &mut Vec::new());
/// assert!((v - Point::new(0.5, 0.0)).length() < 1e-12);
/// ```
#[inline(always)]
pub fn choose_velocity(
    planes: &[HalfPlane],
    hard: usize,
    max_speed: f64,
    preferred: Point,
    scratch: &mut Vec<HalfPlane>,
) -> Point {
    match solve(planes, max_speed, preferred, false) {
        Ok(v) => v,
        Err(failure) => least_violation(planes, hard, max_speed, failure, scratch),
    }
}

/// [`choose_velocity`] when the half-planes cannot all be met (out of line: rare).
#[inline(never)]
fn least_violation(
    planes: &[HalfPlane],
    hard: usize,
    max_speed: f64,
    (first_failure, mut result): (usize, Point),
    scratch: &mut Vec<HalfPlane>,
) -> Point {
    // Infeasible: minimize the largest violation of the soft planes from the failing one
    // on, keeping the hard ones.
    let mut worst = 0.0;
    for k in first_failure.max(hard)..planes.len() {
        let h = planes[k];
        if h.violation(result) <= worst {
            continue;
        }
        scratch.clear();
        scratch.extend_from_slice(&planes[..hard]);
        for g in &planes[hard..k] {
            // Where g is violated no more than h: (g.n − h.n) · v ≤ g.b − h.b.
            let normal = g.normal - h.normal;
            let length = normal.length();
            if length <= 1e-12 {
                continue; // same direction: h is the binding one
            }
            scratch.push(HalfPlane {
                normal: normal / length,
                offset: (g.offset - h.offset) / length,
            });
        }
        // Move as far against h's normal as the others allow.
        if let Ok(v) = solve(scratch, max_speed, -h.normal, true) {
            result = v;
        }
        worst = h.violation(result);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force_best(planes: &[HalfPlane], max_speed: f64, preferred: Point) -> Option<Point> {
        // Sample the disc finely; the best permitted sample.
        let mut best: Option<Point> = None;
        let steps = 400;
        for i in 0..=steps {
            for j in 0..=steps {
                let v = Point::new(
                    -max_speed + 2.0 * max_speed * i as f64 / steps as f64,
                    -max_speed + 2.0 * max_speed * j as f64 / steps as f64,
                );
                if v.length() > max_speed || planes.iter().any(|h| h.violation(v) > 1e-9) {
                    continue;
                }
                if best.is_none_or(|b| v.distance(preferred) < b.distance(preferred)) {
                    best = Some(v);
                }
            }
        }
        best
    }

    #[test]
    fn feasible_programs_match_a_sampled_oracle() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..60 {
            let n = rng.random_range(1..5);
            let planes: Vec<HalfPlane> = (0..n)
                .map(|_| {
                    let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                    HalfPlane {
                        normal: Point::from_angle(angle),
                        offset: rng.random_range(-0.5..1.5),
                    }
                })
                .collect();
            let preferred = Point::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
            let Some(oracle) = brute_force_best(&planes, 2.0, preferred) else {
                continue;
            };
            let v = choose_velocity(&planes, 0, 2.0, preferred, &mut Vec::new());
            assert!(v.length() <= 2.0 + 1e-9);
            for h in &planes {
                assert!(h.violation(v) <= 1e-9, "{v} violates {h:?}");
            }
            // The sampled oracle is within half a sample spacing of the optimum.
            assert!(v.distance(preferred) <= oracle.distance(preferred) + 1e-9);
            assert!(v.distance(preferred) >= oracle.distance(preferred) - 0.015);
            checked += 1;
        }
        assert!(checked > 20);
    }

    #[test]
    fn infeasible_programs_keep_hard_planes_and_balance_the_rest() {
        // Soft: v.x ≥ 1 and v.x ≤ −1 (contradictory); hard: v.y ≤ 0.
        let planes = [
            HalfPlane {
                normal: Point::Y,
                offset: 0.0,
            },
            HalfPlane {
                normal: -Point::X,
                offset: -1.0,
            },
            HalfPlane {
                normal: Point::X,
                offset: -1.0,
            },
        ];
        let v = choose_velocity(&planes, 1, 2.0, Point::new(0.0, 1.0), &mut Vec::new());
        assert!(planes[0].violation(v) <= 1e-9);
        // Best compromise: v.x = 0, both soft planes violated by 1.
        assert!(v.x.abs() < 1e-9, "{v}");
    }

    #[test]
    fn head_on_characters_pass_each_other() {
        // Two characters on a line swap places; neither ever overlaps the other.
        let (mut a, mut b) = (Point::new(-10.0, 0.0), Point::new(10.0, 0.0));
        let (mut va, mut vb) = (Point::ZERO, Point::ZERO);
        let dt = 0.25;
        let mut min_gap = f64::INFINITY;
        for _ in 0..200 {
            let ha = orca_half_plane(a, va, b, vb, 2.0, 10.0, dt, 0.5);
            let hb = orca_half_plane(b, vb, a, va, 2.0, 10.0, dt, 0.5);
            let pa = (Point::new(10.0, 0.0) - a).clamp_length_max(1.0);
            let pb = (Point::new(-10.0, 0.0) - b).clamp_length_max(1.0);
            va = choose_velocity(&[ha], 0, 2.0, pa + Point::new(0.0, 1e-3), &mut Vec::new());
            vb = choose_velocity(&[hb], 0, 2.0, pb, &mut Vec::new());
            a += va * dt;
            b += vb * dt;
            min_gap = min_gap.min(a.distance(b));
        }
        assert!(min_gap >= 2.0 - 1e-6, "{min_gap}");
        assert!(
            a.distance(Point::new(10.0, 0.0)) < 0.5 && b.distance(Point::new(-10.0, 0.0)) < 0.5
        );
    }
}

#[cfg(test)]
mod minmax_tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn infeasible_programs_minimize_the_largest_violation() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut checked = 0;
        for _ in 0..200 {
            let n = rng.random_range(2..7);
            let planes: Vec<HalfPlane> = (0..n)
                .map(|_| HalfPlane {
                    normal: Point::from_angle(rng.random_range(0.0..std::f64::consts::TAU)),
                    offset: rng.random_range(-1.5..0.2),
                })
                .collect();
            let preferred = Point::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
            let worst = |v: Point| {
                planes
                    .iter()
                    .map(|h| h.violation(v))
                    .fold(f64::MIN, f64::max)
            };
            // Oracle: sampled minimum of the largest violation.
            let mut best = f64::INFINITY;
            let steps = 300;
            for i in 0..=steps {
                for j in 0..=steps {
                    let v = Point::new(
                        -2.0 + 4.0 * i as f64 / steps as f64,
                        -2.0 + 4.0 * j as f64 / steps as f64,
                    );
                    if v.length() <= 2.0 {
                        best = best.min(worst(v));
                    }
                }
            }
            if best <= 0.0 {
                continue;
            }
            let v = choose_velocity(&planes, 0, 2.0, preferred, &mut Vec::new());
            assert!(v.length() <= 2.0 + 1e-9);
            assert!(
                worst(v) <= best + 1e-9,
                "{} > {best} for {planes:?}",
                worst(v)
            );
            checked += 1;
        }
        assert!(checked > 30, "{checked}");
    }
}
