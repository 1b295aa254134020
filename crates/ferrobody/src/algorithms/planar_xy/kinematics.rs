//! Poses, velocities, Coriolis and gyroscopic terms of a planar-xy model in the plane (the
//! equations are in the module docs of `planar_xy`), and the rigid reduced inertias and hinge
//! columns the articulated-body pass starts from.

use crate::data::Data;
use crate::math::{SpatialVec, Transform};
use crate::mobilizer::Mobilizer;
use crate::model::{Body, Model};
use crate::scalar::Real;
use crate::state::State;
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

    /// `self · Rz(θ)` from `(sin θ, cos θ)`: the first two columns mixed (as
    /// `Mobilizer::compose` does for a Pin).
    #[inline(always)]
    fn turned(&self, (s, c): (T, T)) -> Self {
        Self {
            a: self.a * c + self.b * s,
            b: self.b * c - self.a * s,
            c: self.c * c + self.d * s,
            d: self.d * c - self.c * s,
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
/// and mass centre of `data.pos.inertia`, and in `data.aba` the rigid reduced inertias `p3`,
/// the gyroscopic biases `z3`, the Coriolis terms `a3` and the hinge columns `h3`.
pub(super) fn kinematics<T: Real>(model: &Model<T>, state: &State<T>, data: &mut Data<T>) {
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

/// Pose, velocity, Coriolis and gyroscopic terms, reduced inertia and hinge columns of body
/// `i` given its parent's frame.
#[inline(always)]
fn body_kinematics<T: Real>(
    body: &Body<T>,
    i: usize,
    (q, u): (&[T], &[T]),
    parent: &Frame<T>,
    data: &mut Data<T>,
) -> Frame<T> {
    let o = T::zero();
    let pf = &body.x_pf;
    let (fx, fy) = parent.turn.apply(pf.p.x, pf.p.y);
    let p_gf = Vector3::new(fx + parent.p.x, fy + parent.p.y, parent.p.z + pf.p.z);
    let r_gf = if body.x_pf_is_translation {
        parent.turn
    } else {
        parent.turn.then(&Turn::of(&pf.r))
    };
    // The mobilizer: its turn, its slide t(q) and rate t(u) in F, its angular rate.
    let (qs, us) = (&q[body.q_start..], &u[body.u_start..]);
    let (r_gm, t_q, t_u, w_rel) = match body.mobilizer {
        Mobilizer::Pin => (r_gf.turned(qs[0].sin_cos()), (o, o), (o, o), us[0]),
        Mobilizer::Slider => (r_gf, (qs[0], o), (us[0], o), o),
        Mobilizer::Planar => (
            r_gf.turned(qs[0].sin_cos()),
            (qs[1], qs[2]),
            (us[1], us[2]),
            us[0],
        ),
        _ => (r_gf, (o, o), (o, o), o),
    };
    let (mx, my) = r_gf.apply(t_q.0, t_q.1);
    let p_gm = Vector3::new(p_gf.x + mx, p_gf.y + my, p_gf.z);
    let (r_gb, p_gb) = if body.x_bm_is_identity {
        (r_gm, p_gm)
    } else {
        let mb = &body.x_mb;
        let (bx, by) = r_gm.apply(mb.p.x, mb.p.y);
        let p = Vector3::new(p_gm.x + bx, p_gm.y + by, p_gm.z + mb.p.z);
        (r_gm.then(&Turn::of(&mb.r)), p)
    };
    // Velocities: v_M = v_P + ω_P × r_PM + R_GF t(u), v_B = v_M + ω_B × p_MB.
    let (wp, w) = (parent.w, parent.w + w_rel);
    let (r_pm, p_mb) = (p_gm - parent.p, p_gb - p_gm);
    let v_rel = r_gf.apply(t_u.0, t_u.1);
    let v_m = (
        parent.v.0 - wp * r_pm.y + v_rel.0,
        parent.v.1 + wp * r_pm.x + v_rel.1,
    );
    let v = (v_m.0 - w * p_mb.y, v_m.1 + w * p_mb.x);
    // Coriolis: −ω_P² r_PM + 2 ω_P × v_rel − ω_B² p_MB.
    let (wp2, w2, two_wp) = (wp * wp, w * w, wp + wp);
    let a_c = (
        -(wp2 * r_pm.x) - two_wp * v_rel.1 - w2 * p_mb.x,
        -(wp2 * r_pm.y) + two_wp * v_rel.0 - w2 * p_mb.y,
    );
    store_hinge_columns(body, &r_gf, &p_mb, data);
    let mp = &body.mass_properties;
    let m = mp.mass;
    let (cx, cy) = r_gb.apply(mp.com.x, mp.com.y);
    let (mcx, mcy) = (m * cx, m * cy);
    let i_zz = body.inertia_about_origin[(2, 2)];
    data.aba.p3[i] = Matrix3::new(i_zz, -mcy, mcx, -mcy, m, o, mcx, o, m);
    data.aba.z3[i] = Vector3::new(o, -(w2 * mcx), -(w2 * mcy));
    data.aba.a3[i] = Vector3::new(o, a_c.0, a_c.1);
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

/// Reduced hinge columns at the body origin: `(1, −p_MB,y, p_MB,x)` for the turn, `(0, R_GF
/// e)` for a slide along F's axis `e`.
#[inline(always)]
fn store_hinge_columns<T: Real>(
    body: &Body<T>,
    r_gf: &Turn<T>,
    p_mb: &Vector3<T>,
    data: &mut Data<T>,
) {
    let (o, one) = (T::zero(), T::one());
    let k = body.u_start;
    let turn = Vector3::new(one, -p_mb.y, p_mb.x);
    let h3 = &mut data.aba.h3;
    match body.mobilizer {
        Mobilizer::Pin => h3[k] = turn,
        Mobilizer::Slider => h3[k] = Vector3::new(o, r_gf.a, r_gf.c),
        Mobilizer::Planar => {
            h3[k] = turn;
            h3[k + 1] = Vector3::new(o, r_gf.a, r_gf.c);
            h3[k + 2] = Vector3::new(o, r_gf.b, r_gf.d);
        }
        _ => {}
    }
}
