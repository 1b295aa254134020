//! Recursive Newton–Euler inverse dynamics (Featherstone 2008, §5.3).
//!
//! Given u̇, returns the generalized forces τ that must be added to the applied forces to
//! produce it: `τ = M(q) u̇ + C(q, u) − τ_applied`, where `τ_applied` includes the body forces
//! and mobility forces of every force element. Base-to-tip: `A_i = Φᵀ A_p + H_i u̇_i + c_i`,
//! `f_i = M_i A_i + b_i − F_i`; tip-to-base: `τ_i = H_iᵀ f_i − τ_applied,i`, `f_p += Φ f_i`.

use crate::data::{Data, Stage};
use crate::math::spatial::{shift_force, shift_motion};
use crate::math::SpatialVec;
use crate::scalar::Real;
use crate::tree::Tree;
use nalgebra::DVector;

/// Inverse dynamics: the residual generalized force for accelerations `udot`, returned as a new
/// vector. See [`rnea_into`] for the allocation-free form.
pub fn rnea<T: Real>(model: &Tree<T>, data: &mut Data<T>, udot: &DVector<T>) -> DVector<T> {
    let mut tau = DVector::zeros(model.nu());
    rnea_into(model, data, udot, &mut tau);
    tau
}

/// Inverse dynamics into `tau` (nu).
///
/// Reads: `data.pos`, `data.vel`, `data.dynamics`. Writes: `tau`, and `data.aba.z` /
/// `data.aba.a` as workspace (body forces and accelerations).
pub fn rnea_into<T: Real>(
    model: &Tree<T>,
    data: &mut Data<T>,
    udot: &DVector<T>,
    tau: &mut DVector<T>,
) {
    data.require(Stage::Dynamics);
    let nb = model.nbodies();
    let mut a = std::mem::take(&mut data.aba.a);
    let mut f = std::mem::take(&mut data.aba.z);
    a[0] = SpatialVec::zeros();
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let parent = body.parent.0;
        let r = data.pos.x_gb[i].p - data.pos.x_gb[parent].p;
        let mut ai = shift_motion(&a[parent], &r) + data.vel.coriolis[i];
        for k in body.u_range() {
            ai += data.pos.h_g[k] * udot[k];
        }
        a[i] = ai;
        f[i] = data.pos.inertia[i].mul(&ai) + data.vel.gyroscopic[i] - data.dynamics.body_forces[i];
    }
    for i in (1..nb).rev() {
        let body = &model.bodies[i];
        for k in body.u_range() {
            tau[k] = data.pos.h_g[k].dot(&f[i]) - data.dynamics.mobility_forces[k];
        }
        let parent = body.parent.0;
        if parent != 0 {
            let r = data.pos.x_gb[i].p - data.pos.x_gb[parent].p;
            let fp = shift_force(&f[i], &r);
            f[parent] += fp;
        }
    }
    data.aba.a = a;
    data.aba.z = f;
}
