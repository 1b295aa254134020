//! Simbody's `VerletIntegrator` (OpenSim's `Verlet`): q by a second-order Taylor step, u and z
//! by the implicit trapezoidal rule solved by fixed-point iteration
//! (`VerletIntegratorRep::attemptDAEStep`), error order 3:
//!
//! ```text
//! q1 = q0 + h q̇0 + h²/2 q̈0                    (then projected: quaternions)
//! u1⁰ = u0 + h u̇0,  z1⁰ = z0 + h ż0              (explicit Euler guesses, kept)
//! repeat ≤ 10: u1 = u0 + h/2 (u̇0 + u̇1), z1 = z0 + h/2 (ż0 + ż1), re-evaluate u̇1, ż1;
//!   converged when max(|Δu|/(|u|+tiny), |Δz|/(|z|+tiny)) ≤ min(1e-4, acc/10) (2-norms);
//!   stop early when the change grows after the second iteration
//! error: q: q0 + h/2 (q̇0 + q̇1) − q1;  u, z: h (u1⁰ − u1), h (z1⁰ − z1)
//! ```
//!
//! An attempt that does not converge fails (Simbody's non-convergence: the step shrinks to a
//! tenth). Reports between steps are Hermite-interpolated, as for the Runge–Kutta methods.
//! Bilateral constraints are not supported with this method (refused when the simulation is
//! made).

use super::kinematic_map::qdotdot;
use super::rk_merson::MersonWorkspace;
use crate::error::Result;
use crate::math::q_projection::{project_q, Projection};
use crate::model::Model;
use crate::scalar::Real;

/// The exponent of Simbody's step-size rule for this method (`errOrder`).
pub const ERROR_ORDER: i32 = 3;

/// Simbody's `TinyReal`, ε^1.25.
const TINY: f64 = 2.710505431213761e-20;

/// The 2-norm of `a − b`, and of `b`.
fn change_norms<T: Real>(a: &[T], b: &[T]) -> (f64, f64) {
    let d: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x.re() - y.re()).powi(2))
        .sum();
    let n: f64 = b.iter().map(|y| y.re().powi(2)).sum();
    (d.sqrt(), n.sqrt())
}

/// Computes `ws.y1` and `ws.y_err` for a step from `(t0, y0, f0)` to `t1` (`ws.f[0]` ends as
/// the derivative at `y1`); returns whether the iteration converged and the projection held.
pub fn attempt<T: Real>(
    model: &Model<T>,
    (t0, y0, f0): (f64, &[T], &[T]),
    (t1, accuracy, tol): (f64, f64, f64),
    ws: &mut MersonWorkspace<T>,
    eval: &mut impl FnMut(f64, &[T], &mut [T]) -> Result<()>,
) -> Result<bool> {
    let (nq, nu, ny) = (model.nq(), model.nu(), y0.len());
    let h = t1 - t0;
    let (hh, h_half, h2_half) = (T::c(h), T::c(h / 2.0), T::c(h * h / 2.0));
    let [f1, qdd0, ..] = &mut ws.f;
    qdotdot(
        model,
        &y0[..nq],
        &y0[nq..nq + nu],
        &f0[..nq],
        &f0[nq..nq + nu],
        &mut qdd0[..nq],
    );
    let (y1, guess) = (&mut ws.y1, &mut ws.y_pred);
    for i in 0..nq {
        y1[i] = y0[i] + hh * f0[i] + h2_half * qdd0[i];
    }
    for i in nq..ny {
        guess[i] = y0[i] + hh * f0[i];
        y1[i] = guess[i];
    }
    let unused = &mut ws.y_stage[..nq];
    if project_q(&mut y1[..nq], &model.quaternion_starts, tol, unused) == Projection::Failed {
        return Ok(false);
    }
    eval(t1, y1, f1)?;
    let limit = (0.1 * accuracy).min(1e-4);
    let saved = &mut ws.y_stage;
    let mut converged = false;
    let mut previous = f64::INFINITY;
    for iteration in 0..10 {
        saved[nq..ny].copy_from_slice(&y1[nq..ny]);
        for i in nq..ny {
            y1[i] = y0[i] + h_half * (f0[i] + f1[i]);
        }
        eval(t1, y1, f1)?;
        let (du, nu_) = change_norms(&y1[nq..nq + nu], &saved[nq..nq + nu]);
        let (dz, nz_) = change_norms(&y1[nq + nu..ny], &saved[nq + nu..ny]);
        let change = (du / (nu_ + TINY)).max(dz / (nz_ + TINY));
        converged = change <= limit;
        if converged || (iteration > 1 && change > previous) {
            break;
        }
        previous = change;
    }
    for i in 0..nq {
        ws.y_err[i] = y0[i] + h_half * (f0[i] + f1[i]) - y1[i];
    }
    for i in nq..ny {
        ws.y_err[i] = hh * (guess[i] - y1[i]);
    }
    Ok(converged)
}
