//! The special paths of kinematics, for bodies whose frames make most of the general
//! arithmetic products with exact zeros: a Free body on Ground with identity frames, and a Pin
//! in an exactly planar chain about Ground's z. Each gives the general path's numbers (up to
//! signs of zeros; `tests.rs` compares them).

use super::{inertia_in_ground, store_pose, BodyPose};
use crate::data::{PositionCache, VelocityCache};
use crate::math::inertia::RigidInertia;
use crate::math::transform::rotation_body_xyz_sin_cos;
use crate::math::{angular, SpatialVec, Transform};
use crate::mobilizer::Mobilizer;
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::{Matrix3, Vector3};

/// Pose of a Free body (quaternion or Euler angles) on Ground with identity frames
/// (`hinge_is_identity`): F is Ground and M
/// is B, so `x_gb = x_fm(q)` and the hinge columns are the unit columns. The general path gives
/// the same numbers (it multiplies by identities and adds zeros) at twice the cost.
#[inline(always)]
pub(super) fn free_body_on_ground_pose<T: Real>(
    body: &Body<T>,
    i: usize,
    q: &[T],
    pos: &mut PositionCache<T>,
) -> BodyPose<T> {
    let qb = &q[body.q_range()];
    // A FreeEuler body's angles' sines and cosines serve its rotation here and its q̇ in the
    // velocity stage (the same values as computing them twice).
    let mut euler_sin_cos = None;
    // `hinge_is_identity` holds only for the two Free kinds. (No fallback through
    // `Mobilizer::x_fm`: its result, returned through memory, would make the pose a memory
    // object on both paths, read back across the stores that wrote it, and stall.)
    debug_assert!(matches!(
        body.mobilizer,
        Mobilizer::Free | Mobilizer::FreeEuler
    ));
    let x_gb = if body.mobilizer == Mobilizer::FreeEuler {
        let sc = [qb[0].sin_cos(), qb[1].sin_cos(), qb[2].sin_cos()];
        euler_sin_cos = Some([sc[0], sc[1]]);
        Transform {
            r: rotation_body_xyz_sin_cos(sc),
            p: Vector3::new(qb[3], qb[4], qb[5]),
        }
    } else {
        crate::mobilizer::free_x_fm(qb)
    };
    let inertia = inertia_in_ground(body, &x_gb.r);
    for (k, h) in pos.h_g[body.u_range()].iter_mut().enumerate() {
        *h = SpatialVec::zeros();
        h[k] = T::one();
    }
    let h_first = SpatialVec::new(
        T::one(),
        T::zero(),
        T::zero(),
        T::zero(),
        T::zero(),
        T::zero(),
    );
    let pose = store_pose(
        pos,
        i,
        Transform::identity(),
        x_gb.p,
        x_gb,
        inertia,
        h_first,
    );
    BodyPose {
        euler_sin_cos,
        ..pose
    }
}

/// Velocity stage of a Free body on Ground with identity frames: `V_GB = u` (unit hinge
/// columns, Ground at rest) and no Coriolis term (parent at rest, M at the body origin).
#[inline(always)]
pub(super) fn free_body_on_ground_velocity<T: Real>(
    body: &Body<T>,
    i: usize,
    (q, u): (&[T], &[T]),
    pose: &BodyPose<T>,
    vel: &mut VelocityCache<T>,
) -> SpatialVec<T> {
    let us = &u[body.u_range()];
    let v_gb = SpatialVec::new(us[0], us[1], us[2], us[3], us[4], us[5]);
    vel.coriolis[i] = SpatialVec::zeros();
    vel.gyroscopic[i] = pose.inertia.gyroscopic_force(&angular(&v_gb));
    vel.v_gb[i] = v_gb;
    let qdot = &mut vel.qdot.as_mut_slice()[body.q_range()];
    match pose.euler_sin_cos {
        Some(sc) => crate::mobilizer::euler_xyz_qdot_sin_cos(sc, us, qdot),
        None => body.mobilizer.qdot(&q[body.q_range()], us, qdot),
    }
    v_gb
}

/// Velocity stage of a Pin in an exactly planar chain about Ground's z
/// (`Body::planar_xy_pin`). With `ω = (0, 0, ω_z)`, `v_z = 0`, the hinge column `[z; 0]` and
/// M at the body origin, the cross products of `body_velocity` keep only their in-plane
/// terms: `v = v_P + ω_P × r`, `a_c = ω_P × (ω_P × p_pm)`, `b = [ω × I ω; m ω × (ω × c)]`. The
/// terms left out are products with exact zeros, so the values are the same (up to signs of
/// zeros); `α_c = ω_P × ω_rel = 0`.
#[inline(always)]
pub(super) fn planar_xy_pin_velocity<T: Real>(
    body: &Body<T>,
    i: usize,
    u: &[T],
    (p_gp, pose): (&Vector3<T>, &BodyPose<T>),
    v_gp: &SpatialVec<T>,
    vel: &mut VelocityCache<T>,
) -> SpatialVec<T> {
    let o = T::zero();
    let w_p = v_gp[2];
    let r = pose.x_gb.p - p_gp;
    let w = w_p + u[body.u_start];
    let v_gb = SpatialVec::new(o, o, w, v_gp[3] - w_p * r.y, v_gp[4] + w_p * r.x, o);
    let p_pm = pose.p_gm - p_gp;
    let (t_x, t_y) = (-(w_p * p_pm.y), w_p * p_pm.x);
    vel.coriolis[i] = SpatialVec::new(o, o, o, -(w_p * t_y), w_p * t_x, o);
    let inertia = &pose.inertia;
    let (i_b, c, m) = (&inertia.i_b, &inertia.c, inertia.mass);
    let (g_x, g_y) = (-(w * c.y), w * c.x);
    vel.gyroscopic[i] = SpatialVec::new(
        -(w * (i_b[(1, 2)] * w)),
        w * (i_b[(0, 2)] * w),
        o,
        -(w * g_y) * m,
        (w * g_x) * m,
        o,
    );
    vel.v_gb[i] = v_gb;
    v_gb
}

/// Pose stage of a Pin in an exactly planar chain about Ground's z (`Body::planar_xy_pin`):
/// every rotation has the form `[[a, b, 0], [c, d, 0], [0, 0, 1]]`, so the inboard frame's
/// origin, the turn about z and a diagonal inertia's rotation into Ground need only their
/// in-plane products; the others are exact zeros and ones. Same numbers as the general path
/// (up to signs of zeros).
#[inline(always)]
pub(super) fn planar_xy_pin_pose<T: Real>(
    body: &Body<T>,
    i: usize,
    q: &[T],
    x_gp: &Transform<T>,
    pos: &mut PositionCache<T>,
) -> BodyPose<T> {
    let x_gf = if body.x_pf_is_translation {
        Transform {
            r: x_gp.r,
            p: apply_xy(&x_gp.r, &body.x_pf.p) + x_gp.p,
        }
    } else {
        x_gp * &body.x_pf
    };
    let (s, c) = q[body.q_start].sin_cos();
    let r_f = &x_gf.r;
    let (r00, r01, r10, r11) = (r_f[(0, 0)], r_f[(0, 1)], r_f[(1, 0)], r_f[(1, 1)]);
    let (o, one) = (T::zero(), T::one());
    let r = Matrix3::new(
        r00 * c + r01 * s,
        r01 * c - r00 * s,
        o,
        r10 * c + r11 * s,
        r11 * c - r10 * s,
        o,
        o,
        o,
        one,
    );
    let x_gb = Transform { r, p: x_gf.p };
    let inertia = if body.inertia_is_diagonal {
        let mp = &body.mass_properties;
        let i_o = &body.inertia_about_origin;
        // `reexpress_symmetric` (Simbody's) for a turn about z and a diagonal inertia: the
        // products with the exact zeros and ones of `r` left out, the rest in its order.
        let (s0, s1, s2) = (i_o[(0, 0)], i_o[(1, 1)], i_o[(2, 2)]);
        let (ac, bc) = (s0 - s2, s1 - s2);
        let (y00, y01) = (r[(1, 0)] * ac, r[(1, 1)] * bc);
        let z10 = y00 * r[(0, 0)] + y01 * r[(0, 1)];
        let z11 = y00 * r[(1, 0)] + y01 * r[(1, 1)];
        let (e00, e01, e11) = (((ac + bc) - z11) + s2, z10, z11 + s2);
        RigidInertia {
            mass: mp.mass,
            c: apply_xy(&r, &mp.com),
            i_b: Matrix3::new(e00, e01, o, e01, e11, o, o, o, s2),
        }
    } else {
        inertia_in_ground(body, &r)
    };
    let h_first = SpatialVec::new(o, o, one, o, o, o);
    pos.h_g[body.u_start] = h_first;
    store_pose(pos, i, x_gf, x_gf.p, x_gb, inertia, h_first)
}

/// `r v` for a rotation that keeps z exactly: `(r₀₀ vₓ + r₀₁ v_y, r₁₀ vₓ + r₁₁ v_y, v_z)`.
#[inline(always)]
fn apply_xy<T: Real>(r: &Matrix3<T>, v: &Vector3<T>) -> Vector3<T> {
    Vector3::new(
        r[(0, 0)] * v.x + r[(0, 1)] * v.y,
        r[(1, 0)] * v.x + r[(1, 1)] * v.y,
        v.z,
    )
}
