//! Poses, velocities, Coriolis and gyroscopic terms of a planar-xy model in the plane, in
//! Simbody's own operation order (`RigidBodyNodeSpec::realizePosition`/`realizeVelocity`,
//! `RigidBodyNode::calcJointIndependentKinematicsPos/Vel`), and the rigid reduced inertias and
//! hinge columns the articulated-body pass starts from. Each formula below is Simbody's 3-D
//! expression with the products of exact zeros dropped (they add nothing), so the results are
//! Simbody's to the last bit (`scripts/opensim/udot_ulps.py`):
//!
//! ```text
//! X_FB = X_FM X_MB,  X_PB = X_PF X_FB,  R_GB = R_GP R_PB,  Φ = R_GP p_PB,  p_GB = p_GP + Φ
//! H = R_GF (H_FM + H_MB_F),  V_GB = (ω_P, v_P + ω_P × Φ) + H u,  Ḣ = R_GF Ḣ_MB_F + ω_P × H
//! A = (0, Ḣ u + ω_P × (v_B − v_P)),  b = m (0, ω × (ω × c)),  c = R_GB p_BC
//! ```

use crate::data::Data;
use crate::math::{SpatialVec, Transform};
use crate::mobilizer::Mobilizer;
use crate::scalar::Real;
use crate::state::State;
use crate::tree::{Body, Tree};
use nalgebra::{Matrix3, Vector3};

/// A turn about Ground's z: the 2×2 block `[[a, b], [c, d]]` of its rotation matrix.
#[derive(Clone, Copy)]
struct Turn<T: Real> {
    a: T,
    b: T,
    c: T,
    d: T,
}

impl<T: Real> Turn<T> {
    fn identity() -> Self {
        let (o, one) = (T::zero(), T::one());
        Self {
            a: one,
            b: o,
            c: o,
            d: one,
        }
    }

    fn of(r: &Matrix3<T>) -> Self {
        Self {
            a: r[(0, 0)],
            b: r[(0, 1)],
            c: r[(1, 0)],
            d: r[(1, 1)],
        }
    }

    /// `self · other`.
    #[inline(always)]
    fn then(&self, o: &Self) -> Self {
        Self {
            a: self.a * o.a + self.b * o.c,
            b: self.a * o.b + self.b * o.d,
            c: self.c * o.a + self.d * o.c,
            d: self.c * o.b + self.d * o.d,
        }
    }

    #[inline(always)]
    fn apply(&self, x: T, y: T) -> (T, T) {
        (self.a * x + self.b * y, self.c * x + self.d * y)
    }

    fn matrix(&self) -> Matrix3<T> {
        let (o, one) = (T::zero(), T::one());
        Matrix3::new(self.a, self.b, o, self.c, self.d, o, o, o, one)
    }
}

/// What a body's children read of it: its turn, origin, angular rate and origin velocity.
#[derive(Clone, Copy)]
struct Frame<T: Real> {
    turn: Turn<T>,
    p: Vector3<T>,
    w: T,
    v: (T, T),
}

/// Kinematics of every body (module docs). Writes `data.pos.x_gb`, `data.vel.v_gb`, the mass
/// and mass centre of `data.pos.inertia`, and in `data.aba` the rigid reduced inertias `p3`
/// (`[[J_zz, F₂₀, F₂₁], [F₂₀, M₀₀, M₀₁], [F₂₁, M₀₁, M₁₁]]` of Simbody's `[[J, F], [~F, M]]`),
/// the gyroscopic forces `z3`, the mobilizer Coriolis accelerations `a3`, the shifts `shift3`
/// and the hinge columns `h3`.
pub(crate) fn kinematics<T: Real>(model: &Tree<T>, state: &State<T>, data: &mut Data<T>) {
    let (q, u) = (state.q.as_slice(), state.u.as_slice());
    data.pos.x_gb[0] = Transform::identity();
    data.vel.v_gb[0] = SpatialVec::zeros();
    let ground = Frame {
        turn: Turn::identity(),
        p: Vector3::zeros(),
        w: T::zero(),
        v: (T::zero(), T::zero()),
    };
    let mut prev = ground;
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let parent = match body.parent.0 {
            0 => ground,
            p if p == i - 1 => prev,
            p => frame_of(data, p),
        };
        prev = body_kinematics(body, i, (q, u), &parent, data);
    }
}

/// A stored body's frame, for a child that is not the next body.
fn frame_of<T: Real>(data: &Data<T>, p: usize) -> Frame<T> {
    let (x, v) = (&data.pos.x_gb[p], &data.vel.v_gb[p]);
    Frame {
        turn: Turn::of(&x.r),
        p: x.p,
        w: v[2],
        v: (v[3], v[4]),
    }
}

/// `R (x, y, z)` for a turn about z: `(a x + b y, c x + d y, z)`.
#[inline(always)]
fn turn_vec<T: Real>(r: &Turn<T>, p: &Vector3<T>) -> Vector3<T> {
    let (x, y) = r.apply(p.x, p.y);
    Vector3::new(x, y, p.z)
}

/// A body's pose and what its hinge columns need (module docs).
struct Pose<T: Real> {
    /// Whether the mobilizer turns (Pin, Planar).
    turns: bool,
    /// `R_FM p_MB` when M is not at the body origin.
    r_mb_f: Option<Vector3<T>>,
    r_gf: Turn<T>,
    r_gb: Turn<T>,
    /// `Φ = R_GP p_PB`.
    shift: Vector3<T>,
    p_gb: Vector3<T>,
}

/// `X_FB = X_FM X_MB`, `X_PB = X_PF X_FB`, `X_GB = X_GP X_PB` (Simbody's
/// `calcBodyTransforms`).
#[inline(always)]
fn body_pose<T: Real>(body: &Body<T>, qs: &[T], parent: &Frame<T>) -> Pose<T> {
    let o = T::zero();
    // X_FM: a turn by q₀ (Pin, Planar) and a slide (Slider: q₀ along x; Planar: (q₁, q₂)).
    let turns = matches!(body.mobilizer, Mobilizer::Pin | Mobilizer::Planar);
    let r_fm = if turns {
        let (s, c) = (qs[0].sin(), qs[0].cos());
        Turn {
            a: c,
            b: -s,
            c: s,
            d: c,
        }
    } else {
        Turn::identity()
    };
    let p_fm = match body.mobilizer {
        Mobilizer::Slider => Vector3::new(qs[0], o, o),
        Mobilizer::Planar => Vector3::new(qs[1], qs[2], o),
        _ => Vector3::zeros(),
    };
    // X_FB = X_FM X_MB, X_PB = X_PF X_FB, X_GB = X_GP X_PB.
    let (r_fb, p_fb, r_mb_f) = if body.x_bm_is_identity {
        (r_fm, p_fm, None)
    } else {
        let r_mb_f = turn_vec(&r_fm, &body.x_mb.p);
        (
            r_fm.then(&Turn::of(&body.x_mb.r)),
            p_fm + r_mb_f,
            Some(r_mb_f),
        )
    };
    let pf = &body.x_pf;
    let (r_pb, p_pb, r_gf) = if body.x_pf_is_translation {
        (r_fb, pf.p + p_fb, parent.turn)
    } else {
        let r_pf = Turn::of(&pf.r);
        (
            r_pf.then(&r_fb),
            pf.p + turn_vec(&r_pf, &p_fb),
            parent.turn.then(&r_pf),
        )
    };
    let r_gb = parent.turn.then(&r_pb);
    let shift = turn_vec(&parent.turn, &p_pb);
    let p_gb = parent.p + shift;
    Pose {
        turns,
        r_mb_f,
        r_gf,
        r_gb,
        shift,
        p_gb,
    }
}

/// Pose, velocity, Coriolis and gyroscopic terms, reduced inertia and hinge columns of body
/// `i` given its parent's frame (module docs).
#[inline(always)]
fn body_kinematics<T: Real>(
    body: &Body<T>,
    i: usize,
    (q, u): (&[T], &[T]),
    parent: &Frame<T>,
    data: &mut Data<T>,
) -> Frame<T> {
    let o = T::zero();
    let (qs, us) = (&q[body.q_start..], &u[body.u_start..]);
    let Pose {
        turns,
        r_mb_f,
        r_gf,
        r_gb,
        shift,
        p_gb,
    } = body_pose(body, qs, parent);
    // Hinge columns H = R_GF (H_FM + H_MB_F) and their rates Ḣ = R_GF Ḣ_MB_F + ω_P × H.
    let wp = parent.w;
    let cross_w = |h: (T, T)| (-(wp * h.1), wp * h.0);
    let k = body.u_start;
    let (mut w_rel, mut v_rel, mut vd) = (o, (o, o), (o, o));
    let mut column = |j: usize, h: Vector3<T>, hd_own: (T, T), data: &mut Data<T>| {
        let hd = cross_w((h.y, h.z));
        let hd = (hd_own.0 + hd.0, hd_own.1 + hd.1);
        let uj = us[j];
        if j == 0 {
            (w_rel, v_rel, vd) = (h.x * uj, (h.y * uj, h.z * uj), (hd.0 * uj, hd.1 * uj));
        } else {
            w_rel += h.x * uj;
            v_rel = (v_rel.0 + h.y * uj, v_rel.1 + h.z * uj);
            vd = (vd.0 + hd.0 * uj, vd.1 + hd.1 * uj);
        }
        data.aba.h3[k + j] = h;
    };
    if turns {
        let (h, hd_own) = match r_mb_f {
            None => (Vector3::new(T::one(), o, o), (o, o)),
            Some(r) => {
                // H_MB_F = −r × e_z = (−r_y, r_x); Ḣ_MB_F = −(ω_FM × r) × e_z = −u₀ (r_x, r_y).
                let (hx, hy) = r_gf.apply(-r.y, r.x);
                let u0 = us[0];
                (
                    Vector3::new(T::one(), hx, hy),
                    r_gf.apply(-(u0 * r.x), -(u0 * r.y)),
                )
            }
        };
        column(0, h, hd_own, data);
    }
    match body.mobilizer {
        Mobilizer::Slider => column(0, Vector3::new(o, r_gf.a, r_gf.c), (o, o), data),
        Mobilizer::Planar => {
            column(1, Vector3::new(o, r_gf.a, r_gf.c), (o, o), data);
            column(2, Vector3::new(o, r_gf.b, r_gf.d), (o, o), data);
        }
        _ => {}
    }
    // V_GB = Φᵀ V_GP + H u.
    let w = wp + w_rel;
    let v = (
        (parent.v.0 + -(wp * shift.y)) + v_rel.0,
        (parent.v.1 + wp * shift.x) + v_rel.1,
    );
    // Mobilizer Coriolis acceleration A = (0, Ḣ u + ω_P × (v_B − v_P)).
    let dv = (v.0 - parent.v.0, v.1 - parent.v.1);
    let a_c = (vd.0 + -(wp * dv.1), vd.1 + wp * dv.0);
    // Rigid inertia about the origin: J_zz = m G_zz, F = [m c]×, M = m 1; gyroscopic force
    // b = m (0, ω × (ω × c)).
    let mp = &body.mass_properties;
    let m = mp.mass;
    let (cx, cy) = r_gb.apply(mp.com.x, mp.com.y);
    let (mcx, mcy) = (m * cx, m * cy);
    data.aba.p3[i] = Matrix3::new(body.simbody_inertia_zz, -mcy, mcx, -mcy, m, o, mcx, o, m);
    data.aba.z3[i] = Vector3::new(o, m * -(w * (w * cx)), m * -(w * (w * cy)));
    data.aba.a3[i] = Vector3::new(o, a_c.0, a_c.1);
    data.aba.shift3[i] = shift;
    let inertia = &mut data.pos.inertia[i];
    inertia.mass = m;
    inertia.c = Vector3::new(cx, cy, mp.com.z);
    data.pos.x_gb[i] = Transform {
        r: r_gb.matrix(),
        p: p_gb,
    };
    data.vel.v_gb[i] = SpatialVec::new(o, o, w, v.0, v.1, o);
    Frame {
        turn: r_gb,
        p: p_gb,
        w,
        v,
    }
}
