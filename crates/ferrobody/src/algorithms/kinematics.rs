//! Forward kinematics: body poses (Position stage) and velocities (Velocity stage).
//!
//! Poses: `x_gb = x_gp · x_pf · x_fm(q) · x_mb`. Velocities:
//! `V_GB = Φᵀ(p_pb) V_GP + Σ_k h_k u_k`, where the hinge columns `h_k` in Ground at B are
//! `[R_GF hw_k ; R_GF hv_k + (R_GF hw_k) × p_mb]` for the mobilizer's columns `[hw; hv]` in F.
//!
//! The velocity-dependent acceleration of B relative to a parent at rest (the Coriolis term
//! `c_B`) follows from differentiating the velocity recursion with `u̇ = 0`, `A_GP = 0`:
//!
//! ```text
//! α_c = w_GP × w_rel + R_GF (Ḣu)_w
//! a_c = w_GP × (w_GP × p_pm) + 2 w_GP × v_rel + R_GF (Ḣu)_v + α_c × p_mb + w_GB × (w_GB × p_mb)
//! ```
//!
//! with `w_rel = R_GF w_FM` and `v_rel = R_GF v_FM` (Jain 2011, §5.1).

use crate::data::{Data, Stage};
use crate::math::inertia::RigidInertia;
use crate::math::small::mul3v;
use crate::math::spatial::shift_motion;
use crate::math::{angular, linear, spatial, SpatialVec, Transform};
use crate::mobilizer::{HingeAxis, Mobilizer};
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;
use nalgebra::{Matrix3, Vector3};

/// Computes body poses, mobilizer frames, spatial inertias and hinge columns in Ground.
///
/// Reads: `state.q`. Writes: `data.pos`. Realizes Position.
pub fn position_kinematics<T: Real>(model: &Model<T>, state: &State<T>, data: &mut Data<T>) {
    let q = state.q.as_slice();
    let pos = &mut data.pos;
    pos.x_gb[0] = Transform::identity();
    // The previous body's pose stays in registers: in a chain it is the parent, and reading it
    // back from memory right after storing it stalls on store-to-load forwarding.
    let mut x_prev = Transform::identity();
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let x_gp = if body.parent.0 == i - 1 {
            x_prev
        } else {
            pos.x_gb[body.parent.0]
        };
        let x_gf = if body.x_pf_is_translation {
            Transform {
                r: x_gp.r,
                p: x_gp.apply(&body.x_pf.p),
            }
        } else {
            x_gp * body.x_pf
        };
        let x_gm = body.mobilizer.compose(&x_gf, &q[body.q_range()]);
        let x_gb = if body.x_bm_is_identity {
            x_gm
        } else {
            x_gm * body.x_mb
        };
        let mp = &body.mass_properties;
        pos.inertia[i] =
            RigidInertia::in_ground(mp.mass, &mp.com, &body.inertia_about_origin, &x_gb.r);
        let p_mb = x_gb.p - x_gm.p;
        hinge_in_ground(
            body.mobilizer,
            &q[body.q_range()],
            &x_gf.r,
            &p_mb,
            &mut pos.h_g[body.u_range()],
        );
        pos.x_gf[i] = x_gf;
        pos.p_gm[i] = x_gm.p;
        pos.x_gb[i] = x_gb;
        x_prev = x_gb;
    }
    data.realized = Stage::Position;
}

/// Hinge columns in Ground at the body origin: `[R_GF hw ; R_GF hv + (R_GF hw) × p_mb]`.
/// Unit-axis columns are read straight out of `R_GF`.
#[inline]
fn hinge_in_ground<T: Real>(
    mobilizer: Mobilizer,
    q: &[T],
    r_gf: &Matrix3<T>,
    p_mb: &Vector3<T>,
    h_g: &mut [SpatialVec<T>],
) {
    if let Some(axes) = mobilizer.hinge_axes() {
        for (h, axis) in h_g.iter_mut().zip(axes) {
            *h = match *axis {
                HingeAxis::Rotation(k) => {
                    let hw = r_gf.column(k).into_owned();
                    spatial(hw, hw.cross(p_mb))
                }
                HingeAxis::Translation(k) => spatial(Vector3::zeros(), r_gf.column(k).into_owned()),
            };
        }
        return;
    }
    let mut h_f = [SpatialVec::<T>::zeros(); 6];
    mobilizer.hinge(q, &mut h_f[..h_g.len()]);
    for (h, hf) in h_g.iter_mut().zip(&h_f) {
        let hw = mul3v(r_gf, &angular(hf));
        let hv = mul3v(r_gf, &linear(hf)) + hw.cross(p_mb);
        *h = spatial(hw, hv);
    }
}

/// Computes body velocities, Coriolis accelerations, gyroscopic forces and q̇.
///
/// Reads: `state.q`, `state.u`, `data.pos`. Writes: `data.vel`. Realizes Velocity.
pub fn velocity_kinematics<T: Real>(model: &Model<T>, state: &State<T>, data: &mut Data<T>) {
    data.require(Stage::Position);
    let (q, u) = (state.q.as_slice(), state.u.as_slice());
    let (pos, vel) = (&data.pos, &mut data.vel);
    vel.v_gb[0] = SpatialVec::zeros();
    // Without quaternions every mobilizer has q̇ = u, and q and u line up: one copy does it.
    let qdot_is_u = model.quaternion_starts.is_empty();
    if qdot_is_u {
        vel.qdot.copy_from(&state.u);
    }
    let mut v_prev = SpatialVec::zeros();
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let p = body.parent.0;
        let (p_gp, p_gb, p_gm) = (pos.x_gb[p].p, pos.x_gb[i].p, pos.p_gm[i]);
        let v_gp = if p == i - 1 { v_prev } else { vel.v_gb[p] };
        let mut v_rel = SpatialVec::zeros();
        for k in body.u_range() {
            v_rel += pos.h_g[k] * u[k];
        }
        let v_gb = shift_motion(&v_gp, &(p_gb - p_gp)) + v_rel;
        // Coriolis acceleration of B given a parent at rest and u̇ = 0.
        let p_mb = p_gb - p_gm;
        let w_gp = angular(&v_gp);
        let w_rel = angular(&v_rel);
        let v_rel_m = linear(&v_rel) - w_rel.cross(&p_mb);
        let hdu = body
            .mobilizer
            .hdot_u(&q[body.q_range()], &u[body.u_range()]);
        let r_gf = pos.x_gf[i].r;
        let alpha_c = w_gp.cross(&w_rel) + mul3v(&r_gf, &angular(&hdu));
        let p_pm = p_gm - p_gp;
        let two = T::c(2.0);
        let a_m = w_gp.cross(&w_gp.cross(&p_pm))
            + w_gp.cross(&v_rel_m) * two
            + mul3v(&r_gf, &linear(&hdu));
        let w_gb = angular(&v_gb);
        let a_c = a_m + alpha_c.cross(&p_mb) + w_gb.cross(&w_gb.cross(&p_mb));
        vel.coriolis[i] = spatial(alpha_c, a_c);
        vel.gyroscopic[i] = pos.inertia[i].gyroscopic_force(&w_gb);
        vel.v_gb[i] = v_gb;
        v_prev = v_gb;
        if !qdot_is_u {
            body.mobilizer.qdot(
                &q[body.q_range()],
                &u[body.u_range()],
                &mut vel.qdot.as_mut_slice()[body.q_range()],
            );
        }
    }
    data.realized = Stage::Velocity;
}
