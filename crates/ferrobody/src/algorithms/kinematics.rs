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
use crate::data::{PositionCache, VelocityCache};
use crate::math::inertia::RigidInertia;
use crate::math::small::mul3v;
use crate::math::spatial::shift_motion;
use crate::math::{angular, linear, spatial, SpatialVec, Transform};
use crate::mobilizer::CustomJointFrame;
use crate::mobilizer::HingeAxis;
use crate::scalar::Real;
use crate::state::State;
use crate::tree::{Body, Tree};
use nalgebra::{Matrix3, Vector3};

mod special;
#[cfg(test)]
mod tests;

use special::{
    free_body_on_ground_pose, free_body_on_ground_velocity, planar_xy_pin_pose,
    planar_xy_pin_velocity,
};

/// Computes body poses, mobilizer frames, spatial inertias and hinge columns in Ground.
///
/// Reads: `state.q`. Writes: `data.pos`. Realizes Position.
pub fn position_kinematics<T: Real>(model: &Tree<T>, state: &State<T>, data: &mut Data<T>) {
    let q = state.q.as_slice();
    data.pos.x_gb[0] = Transform::identity();
    // The previous body's pose stays in registers: in a chain it is the parent, and reading it
    // back from memory right after storing it stalls on store-to-load forwarding.
    let mut x_prev = Transform::identity();
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let x_gp = if body.parent.0 == i - 1 {
            x_prev
        } else {
            data.pos.x_gb[body.parent.0]
        };
        x_prev = body_pose(body, i, q, &x_gp, &mut data.pos).x_gb;
    }
    data.realized = Stage::Position;
}

/// Position and velocity kinematics in one pass over the bodies (what `realize` uses when it
/// goes past Position): each body's fresh pose feeds its velocity without a round trip through
/// memory. Same arithmetic as [`position_kinematics`] then [`velocity_kinematics`].
///
/// Reads: `state.q`, `state.u`. Writes: `data.pos`, `data.vel`. Realizes Velocity.
pub fn kinematics<T: Real>(model: &Tree<T>, state: &State<T>, data: &mut Data<T>) {
    let (q, u) = (state.q.as_slice(), state.u.as_slice());
    let qdot_is_u = start_velocities(model, state, data);
    data.pos.x_gb[0] = Transform::identity();
    let (mut x_prev, mut v_prev) = (Transform::identity(), SpatialVec::zeros());
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let p = body.parent.0;
        let (x_gp, v_gp) = if p == i - 1 {
            (x_prev, v_prev)
        } else {
            (data.pos.x_gb[p], data.vel.v_gb[p])
        };
        let pose = body_pose(body, i, q, &x_gp, &mut data.pos);
        x_prev = pose.x_gb;
        v_prev = body_velocity(
            body,
            i,
            (q, u),
            (&x_gp.p, &pose),
            &v_gp,
            &data.pos,
            &mut data.vel,
            qdot_is_u,
        );
    }
    data.realized = Stage::Velocity;
}

/// What the velocity stage of one body needs from its pose. The inertia and the first hinge
/// column travel in registers too: read back from the cache right after being stored entry by
/// entry, they would wait on store-to-load forwarding.
struct BodyPose<T: Real> {
    x_gb: Transform<T>,
    r_gf: Matrix3<T>,
    p_gm: Vector3<T>,
    inertia: RigidInertia<T>,
    h_first: SpatialVec<T>,
    /// (sine, cosine) of a FreeEuler body's first two angles, from its pose, for its q̇.
    euler_sin_cos: Option<[(T, T); 2]>,
}

/// Pose, mobilizer frames, inertia and hinge columns of body `i`, given its parent's pose.
#[inline(always)]
fn body_pose<T: Real>(
    body: &Body<T>,
    i: usize,
    q: &[T],
    x_gp: &Transform<T>,
    pos: &mut PositionCache<T>,
) -> BodyPose<T> {
    if body.hinge_is_identity {
        return free_body_on_ground_pose(body, i, q, pos);
    }
    if body.planar_xy_pin {
        return planar_xy_pin_pose(body, i, q, x_gp, pos);
    }
    let x_gf = if body.x_pf_is_translation {
        Transform {
            r: x_gp.r,
            p: x_gp.apply(&body.x_pf.p),
        }
    } else {
        x_gp * &body.x_pf
    };
    // Each path finishes on its own: merged, the CustomJoint's pose (returned through memory by
    // its functions) would make the pose a memory object on the common path too, read back
    // across the stores that wrote it.
    let qb = &q[body.q_range()];
    match &body.spatial_transform {
        Some(st) => {
            let frame = st.frame(qb);
            let x_gm = x_gf * frame.x_fm;
            pos.custom_joints[i] = frame;
            finish_pose(body, i, qb, x_gf, x_gm, pos)
        }
        None => {
            let x_gm = match &body.ellipsoid_radii {
                Some(radii) => x_gf * crate::mobilizer::ellipsoid_x_fm(qb, radii),
                None => body.mobilizer.compose(&x_gf, qb),
            };
            finish_pose(body, i, qb, x_gf, x_gm, pos)
        }
    }
}

/// The rest of [`body_pose`] from the body's F and M frames in Ground.
#[inline(always)]
fn finish_pose<T: Real>(
    body: &Body<T>,
    i: usize,
    qb: &[T],
    x_gf: Transform<T>,
    x_gm: Transform<T>,
    pos: &mut PositionCache<T>,
) -> BodyPose<T> {
    let x_gb = if body.x_bm_is_identity {
        x_gm
    } else {
        x_gm * body.x_mb
    };
    let inertia = inertia_in_ground(body, &x_gb.r);
    let h_first = if body.hinge_is_pure_rotation_at_origin() {
        // The commonest hinge, a rotation about F's z with M at the body origin: [z_F; 0].
        let h = spatial(x_gf.r.column(2).into_owned(), Vector3::zeros());
        pos.h_g[body.u_start] = h;
        h
    } else {
        let p_mb = x_gb.p - x_gm.p;
        let frame = body
            .spatial_transform
            .as_ref()
            .map(|_| &pos.custom_joints[i]);
        let h_g = &mut pos.h_g[body.u_range()];
        hinge_in_ground(body, qb, (&x_gf.r, &p_mb), frame, h_g);
        first_hinge_column(pos, body)
    };
    store_pose(pos, i, x_gf, x_gm.p, x_gb, inertia, h_first)
}

/// Stores body `i`'s frames and inertia in the position cache and hands them, with its first
/// hinge column, to the velocity stage in registers.
#[inline(always)]
fn store_pose<T: Real>(
    pos: &mut PositionCache<T>,
    i: usize,
    x_gf: Transform<T>,
    p_gm: Vector3<T>,
    x_gb: Transform<T>,
    inertia: RigidInertia<T>,
    h_first: SpatialVec<T>,
) -> BodyPose<T> {
    pos.inertia[i] = inertia;
    pos.x_gf[i] = x_gf;
    pos.p_gm[i] = p_gm;
    pos.x_gb[i] = x_gb;
    BodyPose {
        x_gb,
        r_gf: x_gf.r,
        p_gm,
        inertia,
        h_first,
        euler_sin_cos: None,
    }
}

/// The body's spatial inertia about its origin in Ground, given its rotation `r_gb`.
#[inline(always)]
pub(super) fn inertia_in_ground<T: Real>(body: &Body<T>, r_gb: &Matrix3<T>) -> RigidInertia<T> {
    let mp = &body.mass_properties;
    if body.inertia_is_diagonal {
        RigidInertia::in_ground_diagonal(mp.mass, &mp.com, &body.inertia_about_origin, r_gb)
    } else {
        RigidInertia::in_ground(mp.mass, &mp.com, &body.inertia_about_origin, r_gb)
    }
}

/// The first hinge column of `body` (zero for a Weld, which has none; then unused).
fn first_hinge_column<T: Real>(pos: &PositionCache<T>, body: &Body<T>) -> SpatialVec<T> {
    if body.nu() == 0 {
        return SpatialVec::zeros();
    }
    pos.h_g[body.u_start]
}

/// Hinge columns in Ground at the body origin: `[R_GF hw ; R_GF hv + (R_GF hw) × p_mb]`.
/// Unit-axis columns are read straight out of `R_GF`, inlined; the other joints' columns are
/// formed out of line, with `p_mb` copied for them (a reference to the caller's `p_mb` would
/// keep it in memory on the unit-axis path too, read back across its stores).
#[inline(always)]
fn hinge_in_ground<T: Real>(
    body: &Body<T>,
    q: &[T],
    (r_gf, p_mb): (&Matrix3<T>, &Vector3<T>),
    frame: Option<&CustomJointFrame<T>>,
    h_g: &mut [SpatialVec<T>],
) {
    if let Some(axes) = body.mobilizer.hinge_axes() {
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
    let p_mb_copy = *p_mb;
    general_hinge_in_ground(body, q, (r_gf, &p_mb_copy), frame, h_g);
}

/// [`hinge_in_ground`] for joints without unit-axis columns.
#[inline(never)]
fn general_hinge_in_ground<T: Real>(
    body: &Body<T>,
    q: &[T],
    (r_gf, p_mb): (&Matrix3<T>, &Vector3<T>),
    frame: Option<&CustomJointFrame<T>>,
    h_g: &mut [SpatialVec<T>],
) {
    let mut computed = [SpatialVec::<T>::zeros(); 6];
    let h_f = match (frame, &body.ellipsoid_radii) {
        (Some(frame), _) => &frame.h_f,
        (None, Some(radii)) => {
            let n = crate::mobilizer::ellipsoid_normal(q);
            crate::mobilizer::ellipsoid_hinge(&n, radii, &mut computed[..3]);
            &computed
        }
        (None, None) => {
            body.mobilizer.hinge(q, &mut computed[..h_g.len()]);
            &computed
        }
    };
    for (h, hf) in h_g.iter_mut().zip(h_f) {
        let hw = mul3v(r_gf, &angular(hf));
        let hv = mul3v(r_gf, &linear(hf)) + hw.cross(p_mb);
        *h = spatial(hw, hv);
    }
}

/// Computes body velocities, Coriolis accelerations, gyroscopic forces and q̇.
///
/// Reads: `state.q`, `state.u`, `data.pos`. Writes: `data.vel`. Realizes Velocity.
pub fn velocity_kinematics<T: Real>(model: &Tree<T>, state: &State<T>, data: &mut Data<T>) {
    data.require(Stage::Position);
    let (q, u) = (state.q.as_slice(), state.u.as_slice());
    let qdot_is_u = start_velocities(model, state, data);
    let mut v_prev = SpatialVec::zeros();
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let p = body.parent.0;
        let v_gp = if p == i - 1 { v_prev } else { data.vel.v_gb[p] };
        let pose = BodyPose {
            x_gb: data.pos.x_gb[i],
            r_gf: data.pos.x_gf[i].r,
            p_gm: data.pos.p_gm[i],
            inertia: data.pos.inertia[i],
            h_first: first_hinge_column(&data.pos, body),
            euler_sin_cos: None,
        };
        let p_gp = data.pos.x_gb[p].p;
        v_prev = body_velocity(
            body,
            i,
            (q, u),
            (&p_gp, &pose),
            &v_gp,
            &data.pos,
            &mut data.vel,
            qdot_is_u,
        );
    }
    data.realized = Stage::Velocity;
}

/// Ground's velocity, and q̇ in one copy when every mobilizer has q̇ = u (no quaternions, no
/// Euler-angle Ball or Free; then q and u line up). Returns whether that copy was made.
fn start_velocities<T: Real>(model: &Tree<T>, state: &State<T>, data: &mut Data<T>) -> bool {
    data.vel.v_gb[0] = SpatialVec::zeros();
    let qdot_is_u = model.qdot_is_u;
    if qdot_is_u {
        data.vel.qdot.copy_from(&state.u);
    }
    qdot_is_u
}

/// Velocity, Coriolis acceleration, gyroscopic force and q̇ of body `i`, given its pose, its
/// parent's origin `p_gp` and velocity `v_gp`. Terms that vanish are skipped: `Ḣu` for constant
/// hinge matrices, and the `p_mb` terms when M sits at the body origin.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn body_velocity<T: Real>(
    body: &Body<T>,
    i: usize,
    (q, u): (&[T], &[T]),
    (p_gp, pose): (&Vector3<T>, &BodyPose<T>),
    v_gp: &SpatialVec<T>,
    pos: &PositionCache<T>,
    vel: &mut VelocityCache<T>,
    qdot_is_u: bool,
) -> SpatialVec<T> {
    if body.hinge_is_identity {
        return free_body_on_ground_velocity(body, i, (q, u), pose, vel);
    }
    if body.planar_xy_pin {
        let v_gb = planar_xy_pin_velocity(body, i, u, (p_gp, pose), v_gp, vel);
        if !qdot_is_u {
            vel.qdot[body.q_start] = u[body.u_start];
        }
        return v_gb;
    }
    let (p_gb, p_gm) = (pose.x_gb.p, pose.p_gm);
    let v_rel = match body.mobilizer.nu() {
        1 => pose.h_first * u[body.u_start],
        _ => body
            .u_range()
            .fold(SpatialVec::zeros(), |v, k| v + pos.h_g[k] * u[k]),
    };
    let v_gb = shift_motion(v_gp, &(p_gb - p_gp)) + v_rel;
    // Coriolis acceleration of B given a parent at rest and u̇ = 0.
    let p_mb = p_gb - p_gm;
    let w_gp = angular(v_gp);
    let w_rel = angular(&v_rel);
    let v_rel_m = if body.x_bm_is_identity {
        linear(&v_rel)
    } else {
        linear(&v_rel) - w_rel.cross(&p_mb)
    };
    let mut alpha_c = w_gp.cross(&w_rel);
    let p_pm = p_gm - p_gp;
    let two = T::c(2.0);
    let mut a_c = w_gp.cross(&w_gp.cross(&p_pm));
    if !body.hinge_is_pure_rotation_at_origin() {
        // (For a rotation about the body origin, v_rel_m = 0.)
        a_c += w_gp.cross(&v_rel_m) * two;
    }
    if body.mobilizer.hinge_axes().is_none() {
        let (qb, ub) = (&q[body.q_range()], &u[body.u_range()]);
        let hdu = match (&body.spatial_transform, &body.ellipsoid_radii) {
            (Some(st), _) => st.hdot_u_in(&pos.custom_joints[i], ub),
            (None, Some(radii)) => {
                // M's z axis in F, from q as Simbody takes it (`findX_F0M0`).
                crate::mobilizer::ellipsoid_hdot_u(
                    &crate::mobilizer::ellipsoid_normal(qb),
                    radii,
                    ub,
                )
            }
            (None, None) => body.mobilizer.hdot_u(qb, ub),
        };
        alpha_c += mul3v(&pose.r_gf, &angular(&hdu));
        a_c += mul3v(&pose.r_gf, &linear(&hdu));
    }
    let w_gb = angular(&v_gb);
    if !body.x_bm_is_identity {
        a_c += alpha_c.cross(&p_mb) + w_gb.cross(&w_gb.cross(&p_mb));
    }
    vel.coriolis[i] = spatial(alpha_c, a_c);
    vel.gyroscopic[i] = pose.inertia.gyroscopic_force(&w_gb);
    vel.v_gb[i] = v_gb;
    if !qdot_is_u {
        body.mobilizer.qdot(
            &q[body.q_range()],
            &u[body.u_range()],
            &mut vel.qdot.as_mut_slice()[body.q_range()],
        );
    }
    v_gb
}
