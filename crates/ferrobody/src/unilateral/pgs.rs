//! Projected Gauss–Seidel impulse solver (Simbody `PGSImpulseSolver`, notes §4.5).
//!
//! Sweeps over the participating contacts: each normal row is relaxed
//! `π_N += ω (r_N / A_NN)` and clamped to `sign·π_N ≤ 0`; each friction pair is relaxed the
//! same way and scaled back into the cone `‖π_F‖ ≤ μ N` (N from the normal impulse including
//! any known expansion impulse). `r = rhs − A π` is the remaining velocity error. Convergence:
//! RMS error of the enforced rows below 1e-6, at most 100 sweeps, over-relaxation ω = 1.2,
//! multiplied by 0.8 (not below 0.1) whenever a sweep makes the error grow. PGS has no
//! rolling/sliding distinction; it ignores the rolling-speed threshold, as Simbody's does.

use super::solver::{ImpulseProblem, SolverWorkspace};
use crate::scalar::Real;

const TOL: f64 = 1e-6;
const MAX_SWEEPS: usize = 100;
const SOR: f64 = 1.2;

/// Solves `p` by projected Gauss–Seidel; writes π.
pub fn solve<T: Real>(p: &ImpulseProblem<'_, T>, ws: &mut SolverWorkspace<T>, pi: &mut [T]) {
    let m = p.m;
    pi[..m].iter_mut().for_each(|x| *x = T::zero());
    p.rhs(&mut ws.rhs);
    let mut sor = SOR;
    let mut prev_err = f64::INFINITY;
    for _ in 0..MAX_SWEEPS {
        for (c, &on) in p.contacts.iter().zip(p.participating) {
            if !on {
                continue;
            }
            let n = c.normal_row;
            if !p.known_rows[n] {
                relax(p, &ws.rhs, pi, n, sor);
                if c.sign * pi[n].re() > 0.0 {
                    pi[n] = T::zero();
                }
            }
            if let Some(f) = p.has_friction_rows(c) {
                relax(p, &ws.rhs, pi, f, sor);
                relax(p, &ws.rhs, pi, f + 1, sor);
                let limit = c.mu * p.normal_magnitude(c, pi);
                let norm = (pi[f] * pi[f] + pi[f + 1] * pi[f + 1]).sqrt();
                if norm.re() > limit.re() {
                    let scale = limit / norm;
                    pi[f] *= scale;
                    pi[f + 1] *= scale;
                }
            }
        }
        let err = enforced_rms(p, &ws.rhs, pi);
        if err < TOL {
            return;
        }
        if err > prev_err {
            sor = (sor * 0.8).max(0.1);
        }
        prev_err = err;
    }
}

/// One Gauss–Seidel update of row i.
fn relax<T: Real>(p: &ImpulseProblem<'_, T>, rhs: &[T], pi: &mut [T], i: usize, sor: f64) {
    let aii = p.a[(i, i)];
    if aii.re() <= 0.0 {
        return;
    }
    let r = rhs[i] - p.a_times(i, pi);
    pi[i] += r / aii * T::c(sor);
}

/// RMS residual over the rows that should hold as equations: pushing normals (and, for a
/// released normal, any approach velocity), and friction rows strictly inside the cone.
fn enforced_rms<T: Real>(p: &ImpulseProblem<'_, T>, rhs: &[T], pi: &[T]) -> f64 {
    let (mut sum, mut count) = (0.0, 0usize);
    for (c, &on) in p.contacts.iter().zip(p.participating) {
        if !on {
            continue;
        }
        let n = c.normal_row;
        if !p.known_rows[n] {
            let v = (rhs[n] - p.a_times(n, pi)).re();
            let e = if c.sign * pi[n].re() < 0.0 {
                v
            } else {
                (-c.sign * v).max(0.0)
            };
            sum += e * e;
            count += 1;
        }
        if let Some(f) = p.has_friction_rows(c) {
            let limit = (c.mu * p.normal_magnitude(c, pi)).re();
            let norm = (pi[f].re().powi(2) + pi[f + 1].re().powi(2)).sqrt();
            if norm < limit * (1.0 - 1e-9) {
                for i in [f, f + 1] {
                    let v = (rhs[i] - p.a_times(i, pi)).re();
                    sum += v * v;
                }
                count += 2;
            }
        }
    }
    if count == 0 {
        0.0
    } else {
        (sum / count as f64).sqrt()
    }
}
