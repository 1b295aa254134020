//! The kinematic map of a whole model: `q̇ = N(q) u` (Simbody's `multiplyByN`) and its time
//! derivative `q̈ = N u̇ + Ṅ u` (`getQDotDot`), body by body from each mobilizer's
//! (`Mobilizer::qdot`, `Mobilizer::qdotdot`). Used by the integrators that step q with a u
//! other than the state's (semi-explicit Euler 2) or need q̈ (Verlet).

use crate::model::Model;
use crate::scalar::Real;

/// `qdot = N(q) u` for the whole model.
pub fn multiply_by_n<T: Real>(model: &Model<T>, q: &[T], u: &[T], qdot: &mut [T]) {
    for b in &model.bodies()[1..] {
        let (qr, ur) = (b.q_range(), b.u_range());
        b.mobilizer.qdot(&q[qr.clone()], &u[ur], &mut qdot[qr]);
    }
}

/// `out = q̈` for the whole model from q, u, q̇ and u̇.
pub fn qdotdot<T: Real>(model: &Model<T>, q: &[T], u: &[T], qdot: &[T], udot: &[T], out: &mut [T]) {
    for b in &model.bodies()[1..] {
        let (qr, ur) = (b.q_range(), b.u_range());
        b.mobilizer.qdotdot(
            &q[qr.clone()],
            &u[ur.clone()],
            &qdot[qr.clone()],
            &udot[ur],
            &mut out[qr],
        );
    }
}
