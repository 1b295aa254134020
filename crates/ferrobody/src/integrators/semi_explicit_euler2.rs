//! Simbody's `SemiExplicitEuler2Integrator` (OpenSim's `SemiExplicitEuler2`): semi-explicit
//! Euler (u first, then q with the new u) with an error estimate from two half steps
//! (`SemiExplicitEuler2IntegratorRep::attemptDAEStep`), error order 2:
//!
//! ```text
//! big step:   z_B = z0 + h ż0,   u_B = u0 + h u̇0,   q_B = q0 + h N(q0) u_B
//! half steps: z½ = z0 + h/2 ż0,  u½ = u0 + h/2 u̇0,  q½ = q0 + h/2 N(q0) u½
//!             (u̇½, ż½) = f(t0 + h/2, q½, u½, z½)
//!             z1 = z½ + h/2 ż½,  u1 = u½ + h/2 u̇½,  q1 = q½ + h/2 N(q½) u1
//! error:      (q1 − q_B, u1 − u_B, z1 − z_B)
//! ```
//!
//! The end state is then projected (quaternions; no error estimate), and reports between
//! steps are interpolated linearly (its `createInterpolatedState`). One derivative evaluation
//! per attempt. Bilateral constraints are not supported with this method (refused when the
//! simulation is made).

use super::kinematic_map::multiply_by_n;
use super::rk_merson::MersonWorkspace;
use crate::error::Result;
use crate::math::q_projection::{project_q, Projection};
use crate::model::Model;
use crate::scalar::Real;

/// The exponent of Simbody's step-size rule for this method (`errOrder`).
pub const ERROR_ORDER: i32 = 2;

/// Computes `ws.y1` (projected) and `ws.y_err` for a step from `(t0, y0, f0)` to `t1`; returns
/// false if the projection failed.
pub fn attempt<T: Real>(
    model: &Model<T>,
    (t0, y0, f0): (f64, &[T], &[T]),
    t1: f64,
    tol: f64,
    ws: &mut MersonWorkspace<T>,
    eval: &mut impl FnMut(f64, &[T], &mut [T]) -> Result<()>,
) -> Result<bool> {
    let (nq, ny) = (model.nq(), y0.len());
    let h = t1 - t0;
    let h_half = h / 2.0;
    let (hh, hb) = (T::c(h), T::c(h_half));
    let [qdot, f_half, ..] = &mut ws.f;
    // The big step, kept in y_pred.
    let big = &mut ws.y_pred;
    for i in nq..ny {
        big[i] = y0[i] + hh * f0[i];
    }
    multiply_by_n(model, &y0[..nq], &big[nq..nq + model.nu()], &mut qdot[..nq]);
    for i in 0..nq {
        big[i] = y0[i] + hh * qdot[i];
    }
    // Two half steps.
    let y = &mut ws.y1;
    for i in nq..ny {
        y[i] = y0[i] + hb * f0[i];
    }
    multiply_by_n(model, &y0[..nq], &y[nq..nq + model.nu()], &mut qdot[..nq]);
    for i in 0..nq {
        y[i] = y0[i] + hb * qdot[i];
    }
    eval(t0 + h_half, y, f_half)?;
    for i in nq..ny {
        y[i] += hb * f_half[i];
    }
    let (q, u) = y.split_at_mut(nq);
    multiply_by_n(model, q, &u[..model.nu()], &mut qdot[..nq]);
    for i in 0..nq {
        q[i] += hb * qdot[i];
    }
    for i in 0..ny {
        ws.y_err[i] = ws.y1[i] - ws.y_pred[i];
    }
    let (quats, unused) = (&model.quaternion_starts, &mut ws.y_stage[..nq]);
    Ok(project_q(&mut ws.y1[..nq], quats, tol, unused) != Projection::Failed)
}
