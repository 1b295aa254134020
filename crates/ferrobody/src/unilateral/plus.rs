//! The PLUS impulse solver (Simbody `PLUSImpulseSolver`, notes §4.5): an active-set method
//! with explicit rolling, sliding and impending-slip friction, stepped over "sliding
//! intervals" so that a slip velocity that would reverse, or turn by more than 30°, stops or
//! turns inside the step instead of overshooting.
//!
//! Per interval, with `v` the current velocity errors and `rhs = v + a (v_applied − A π_E)`
//! (a: the part of the applied change and expansion not yet used):
//!
//! * friction of a contact with slip `‖v_F‖ > v_roll` is **sliding**, direction `d = v_F/‖v_F‖`;
//!   otherwise **rolling**;
//! * unknowns: normals (not known) and friction rows of the active contacts. Equations:
//!   normal and rolling rows `(A π)_i = rhs_i`; sliding and impending rows
//!   `π_F = μ N d` with `N = −sign·(π_N + a π_E,N)` (linear in π_N while the contact pushes);
//!   impending directions are those of the current friction impulse, iterated to a fixed point;
//! * the (possibly rank-deficient) linear system is solved by least squares ([`super::lsq`]);
//! * then the worst violation is fixed and the solve repeated: a pulling normal releases its
//!   contact; a rolling friction outside its cone becomes impending;
//! * the interval fraction s ≤ 1: for each sliding contact with start slip `v₀` and end slip
//!   `v₁ = rhs_F − (A π)_F`, if `‖v₁‖ ≤ v_roll`, s is the fraction at the point of the segment
//!   closest to the origin; if the slip turns by more than 30°, s is that fraction when the
//!   closest point is rolling, else the fraction at which it has turned exactly 30°.
//!   `s·π` is applied and the remainder solved in the next interval.
//!
//! Simbody solves with `FactorQTZ` (minimum-norm) and Newton with a smoothed Jacobian; here
//! the equations are linear for a given active set and the basic least-squares solution is
//! used, which gives the same velocities (redundant contacts share impulses differently).

use super::solver::{ActiveContact, ImpulseProblem, SolverWorkspace};
use crate::scalar::Real;

/// Friction state of one contact within an interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrictionStatus {
    /// No slip: the friction rows are equations.
    Rolling,
    /// Slipping along the start-of-interval slip direction.
    Sliding,
    /// Was rolling but needs more than the cone allows: slips along the impulse direction.
    Impending,
}

const MAX_INTERVALS: usize = 50;
const MAX_DIRECTION_ITERATIONS: usize = 30;
/// cos 30°: the largest change of sliding direction within one interval (Simbody).
const COS_MAX_TURN: f64 = 0.866_025_403_784_438_6;
/// `SqrtEps`: an interval fraction this close to 1 is 1.
const SQRT_EPS: f64 = 1.490_116_119_384_765_6e-8;

/// Solves `p`; writes the total impulse π over all intervals.
pub fn solve<T: Real>(p: &ImpulseProblem<'_, T>, ws: &mut SolverWorkspace<T>, pi_out: &mut [T]) {
    let m = p.m;
    pi_out[..m].iter_mut().for_each(|x| *x = T::zero());
    ws.v_cur[..m].copy_from_slice(&p.v_start[..m]);
    let mut a_rem = T::one();
    for interval in 0..MAX_INTERVALS {
        for i in 0..m {
            ws.rhs[i] = ws.v_cur[i] + a_rem * (p.v_applied[i] - p.a_times(i, p.known));
        }
        classify(p, ws);
        solve_active_set(p, ws, a_rem);
        let mut s = interval_fraction(p, ws);
        if interval + 1 == MAX_INTERVALS || s > 1.0 - SQRT_EPS {
            s = 1.0;
        }
        let st = T::c(s);
        for (out, pi) in pi_out[..m].iter_mut().zip(&ws.pi) {
            *out += *pi * st;
        }
        for i in 0..m {
            let a_pi = p.a_times(i, &ws.pi);
            ws.x[i] = ws.v_cur[i] + (ws.rhs[i] - a_pi - ws.v_cur[i]) * st;
        }
        ws.v_cur[..m].copy_from_slice(&ws.x[..m]);
        a_rem *= T::one() - st;
        if s == 1.0 {
            return;
        }
    }
}

/// Rolling or sliding from the current slip; every participating contact starts active.
fn classify<T: Real>(p: &ImpulseProblem<'_, T>, ws: &mut SolverWorkspace<T>) {
    for (k, c) in p.contacts.iter().enumerate() {
        ws.active[k] = p.participating[k];
        ws.status[k] = FrictionStatus::Rolling;
        if let Some(f) = p.has_friction_rows(c) {
            let (vx, vy) = (ws.v_cur[f], ws.v_cur[f + 1]);
            let speed = (vx * vx + vy * vy).sqrt();
            if speed.re() > p.max_rolling_speed {
                ws.status[k] = FrictionStatus::Sliding;
                ws.dir[k] = [vx / speed, vy / speed];
            }
        }
    }
}

/// The active-set loop of one interval; leaves the interval impulse in `ws.pi`.
fn solve_active_set<T: Real>(p: &ImpulseProblem<'_, T>, ws: &mut SolverWorkspace<T>, a_rem: T) {
    for _ in 0..2 * p.contacts.len() + 4 {
        solve_directions(p, ws, a_rem);
        match worst_violation(p, ws, a_rem) {
            None => return,
            Some((k, true)) => ws.active[k] = false,
            Some((k, false)) => {
                let f = p.contacts[k].friction_row.expect("rolling friction");
                let norm = (ws.pi[f] * ws.pi[f] + ws.pi[f + 1] * ws.pi[f + 1]).sqrt();
                ws.status[k] = FrictionStatus::Impending;
                ws.dir[k] = [ws.pi[f] / norm, ws.pi[f + 1] / norm];
            }
        }
    }
}

/// Solves the linear system of the current active set, iterating impending directions.
fn solve_directions<T: Real>(p: &ImpulseProblem<'_, T>, ws: &mut SolverWorkspace<T>, a_rem: T) {
    for _ in 0..MAX_DIRECTION_ITERATIONS {
        solve_linear(p, ws, a_rem);
        let mut change = 0.0f64;
        for (k, c) in p.contacts.iter().enumerate() {
            if !ws.active[k] || ws.status[k] != FrictionStatus::Impending {
                continue;
            }
            let f = c.friction_row.expect("impending friction");
            let norm = (ws.pi[f] * ws.pi[f] + ws.pi[f + 1] * ws.pi[f + 1]).sqrt();
            if norm.re() > 0.0 {
                let d = [ws.pi[f] / norm, ws.pi[f + 1] / norm];
                change = change
                    .max((d[0] - ws.dir[k][0]).re().abs())
                    .max((d[1] - ws.dir[k][1]).re().abs());
                ws.dir[k] = d;
            }
        }
        if change < 1e-12 {
            return;
        }
    }
}

/// Builds and solves `J x = b` over the unknown rows; scatters x into `ws.pi`.
fn solve_linear<T: Real>(p: &ImpulseProblem<'_, T>, ws: &mut SolverWorkspace<T>, a_rem: T) {
    let m = p.m;
    ws.unknown_of_row[..m].iter_mut().for_each(|u| *u = None);
    let mut n = 0;
    for (k, c) in p.contacts.iter().enumerate() {
        if !ws.active[k] {
            continue;
        }
        let rows = [
            Some(c.normal_row).filter(|&r| !p.known_rows[r]),
            p.has_friction_rows(c),
        ];
        for r in rows.into_iter().flatten() {
            let count = if Some(r) == c.friction_row { 2 } else { 1 };
            for i in r..r + count {
                ws.unknown_of_row[i] = Some(n);
                ws.row_of_unknown[n] = i;
                n += 1;
            }
        }
    }
    {
        let j = ws.lsq.matrix_mut();
        for a in 0..n {
            for b in 0..n {
                j[(a, b)] = T::zero();
            }
        }
    }
    for (k, c) in p.contacts.iter().enumerate() {
        if ws.active[k] {
            fill_contact_equations(p, ws, k, c, a_rem);
        }
    }
    ws.lsq.solve(n, &ws.b, &mut ws.x);
    ws.pi[..m].iter_mut().for_each(|x| *x = T::zero());
    for u in 0..n {
        ws.pi[ws.row_of_unknown[u]] = ws.x[u];
    }
}

/// The rows of J and b that belong to contact `c`.
fn fill_contact_equations<T: Real>(
    p: &ImpulseProblem<'_, T>,
    ws: &mut SolverWorkspace<T>,
    k: usize,
    c: &ActiveContact<T>,
    a_rem: T,
) {
    let linear_row = |ws: &mut SolverWorkspace<T>, i: usize| {
        let eq = ws.unknown_of_row[i].expect("unknown row");
        for col in 0..p.m {
            if let Some(u) = ws.unknown_of_row[col] {
                ws.lsq.matrix_mut()[(eq, u)] = p.a[(i, col)];
            }
        }
        ws.b[eq] = ws.rhs[i];
    };
    if !p.known_rows[c.normal_row] {
        linear_row(ws, c.normal_row);
    }
    let Some(f) = p.has_friction_rows(c) else {
        return;
    };
    if ws.status[k] == FrictionStatus::Rolling {
        linear_row(ws, f);
        linear_row(ws, f + 1);
        return;
    }
    // π_F,i − μ d_i N = 0 with N = −sign·(π_N + a π_E,N).
    let sign = T::c(c.sign);
    for axis in 0..2 {
        let eq = ws.unknown_of_row[f + axis].expect("friction unknown");
        let md = c.mu * ws.dir[k][axis];
        ws.lsq.matrix_mut()[(eq, eq)] = T::one();
        if let Some(un) = ws.unknown_of_row[c.normal_row] {
            ws.lsq.matrix_mut()[(eq, un)] = md * sign;
        }
        ws.b[eq] = -md * sign * a_rem * p.known[c.normal_row];
    }
}

/// The worst violation, if any: `(contact, true)` for a pulling normal, `(contact, false)` for
/// rolling friction outside its cone.
fn worst_violation<T: Real>(
    p: &ImpulseProblem<'_, T>,
    ws: &SolverWorkspace<T>,
    a_rem: T,
) -> Option<(usize, bool)> {
    let scale = ws.pi[..p.m].iter().fold(0.0f64, |a, x| a.max(x.re().abs()));
    let tol = 1e-10 * scale;
    let mut worst: Option<(usize, bool)> = None;
    let mut worst_size = tol;
    for (k, c) in p.contacts.iter().enumerate() {
        if !ws.active[k] {
            continue;
        }
        let n = c.normal_row;
        let total = ws.pi[n] + a_rem * p.known[n];
        let pull = c.sign * total.re();
        if !p.known_rows[n] && pull > worst_size {
            worst = Some((k, true));
            worst_size = pull;
        }
        let Some(f) = p.has_friction_rows(c) else {
            continue;
        };
        if ws.status[k] != FrictionStatus::Rolling {
            continue;
        }
        let limit = c.mu.re() * (-c.sign * total.re()).max(0.0);
        let norm = (ws.pi[f].re().powi(2) + ws.pi[f + 1].re().powi(2)).sqrt();
        if norm - limit > worst_size {
            worst = Some((k, false));
            worst_size = norm - limit;
        }
    }
    worst
}

/// The largest interval fraction allowed by the sliding contacts (see the module docs).
fn interval_fraction<T: Real>(p: &ImpulseProblem<'_, T>, ws: &SolverWorkspace<T>) -> f64 {
    let mut s = 1.0f64;
    for (k, c) in p.contacts.iter().enumerate() {
        if !ws.active[k] || ws.status[k] != FrictionStatus::Sliding {
            continue;
        }
        let f = c.friction_row.expect("sliding friction");
        let v0 = [ws.v_cur[f].re(), ws.v_cur[f + 1].re()];
        let v1 = [
            (ws.rhs[f] - p.a_times(f, &ws.pi)).re(),
            (ws.rhs[f + 1] - p.a_times(f + 1, &ws.pi)).re(),
        ];
        s = s.min(contact_fraction(v0, v1, p.max_rolling_speed));
    }
    s
}

/// The fraction for one sliding contact with start slip `v0` and end slip `v1`.
fn contact_fraction(v0: [f64; 2], v1: [f64; 2], v_roll: f64) -> f64 {
    let norm = |v: [f64; 2]| (v[0] * v[0] + v[1] * v[1]).sqrt();
    let d = [v1[0] - v0[0], v1[1] - v0[1]];
    let dd = d[0] * d[0] + d[1] * d[1];
    if dd == 0.0 {
        return 1.0;
    }
    let s_closest = (-(v0[0] * d[0] + v0[1] * d[1]) / dd).clamp(0.0, 1.0);
    let at = |s: f64| [v0[0] + s * d[0], v0[1] + s * d[1]];
    if norm(v1) <= v_roll {
        return if norm(v1) < 1e-14 { 1.0 } else { s_closest };
    }
    let cos_turn = |v: [f64; 2]| (v0[0] * v[0] + v0[1] * v[1]) / (norm(v0) * norm(v));
    if cos_turn(v1) >= COS_MAX_TURN {
        return 1.0;
    }
    if norm(at(s_closest)) <= v_roll {
        return s_closest;
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if cos_turn(at(mid)) >= COS_MAX_TURN {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo.max(1e-6)
}

#[cfg(test)]
mod tests {
    use super::contact_fraction;

    #[test]
    fn reversing_slip_stops_at_zero() {
        // 1 m/s slowing to −0.5 m/s along x: zero slip at 2/3 of the interval.
        let s = contact_fraction([1.0, 0.0], [-0.5, 0.0], 0.002);
        assert!((s - 2.0 / 3.0).abs() < 1e-12, "{s}");
    }

    #[test]
    fn turning_slip_is_limited_to_thirty_degrees() {
        let s = contact_fraction([1.0, 0.0], [1.0, 2.0], 0.002);
        // v(s) = (1, 2s): tan 30° = 2s.
        assert!((s - 0.5 * (30f64).to_radians().tan()).abs() < 1e-9, "{s}");
        assert_eq!(contact_fraction([1.0, 0.0], [0.9, 0.1], 0.002), 1.0);
    }
}
