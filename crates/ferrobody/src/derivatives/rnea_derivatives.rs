//! Analytical derivatives of inverse dynamics: ∂τ/∂q, ∂τ/∂u and ∂τ/∂u̇ = M(q) of
//! `τ = ID(q, u, u̇) = M(q) u̇ + C(q, u) − τ_g(q)` (gravity included), by the recursive
//! algorithm of Carpentier & Mansard, as Pinocchio's `computeRNEADerivatives` computes it.
//!
//! Everything is expressed in Ground at Ground's origin (Plücker coordinates, motion
//! `[ω; v_O]`, force `[n_O; f]`), so a joint's columns `J_k` (its hinge columns `h_k`, taken
//! from the body origin p to the origin: `[ω_k; v_k + p × ω_k]`) change with an ancestor's
//! coordinate q_j only by the motion cross product, `∂J_k/∂q_j = J_j × J_k`. That holds for
//! joints whose columns are fixed in the body (Pin, Slider, Cylinder, Translation; with
//! q̇ = u). Base to tip, with `a` the spatial acceleration less gravity's:
//!
//! ```text
//!   v_i = v_λ + J_i u_i,   a_i = a_λ + J_i u̇_i + v_i × J_i u_i,   a_0 = −g
//!   f_i = Y_i a_i + v_i ×* Y_i v_i
//!   ∂v/∂q cols:  v_λ × J_i      ∂a/∂q cols:  a_λ × J_i + v_λ × (v_λ × J_i)
//!   ∂a/∂u cols:  v_i × J_i + v_λ × J_i
//!   B_i = v_i ×* Y_i − Y_i v_i× + (· ×* Y_i v_i)
//! ```
//!
//! tip to base, with composite `Y^c`, `B^c` and forces `f^c` of each subtree,
//! `τ_i = J_iᵀ f^c_i`, and for a descendant column d of i and own column k:
//!
//! ```text
//!   ∂τ_k/∂q_d = J_kᵀ ∂f^c/∂q_d,          ∂f^c/∂q_k = B^c ∂v/∂q_k + Y^c ∂a/∂q_k + J_k ×* f^c
//!   ∂τ_d/∂q_k = (Y^c_d J_d)ᵀ ∂a/∂q_k + (B^cᵀ_d J_d)ᵀ ∂v/∂q_k
//! ```
//!
//! and the same for u with `∂v/∂u = J`. Cost O(n·d) for n bodies of depth d, against the
//! O(n) passes of dual numbers that each cost a whole evaluation.
//!
//! Reference: J. Carpentier, N. Mansard, "Analytical derivatives of rigid body dynamics
//! algorithms", Robotics: Science and Systems (2018); Pinocchio's
//! `algorithm/rnea-derivatives.hxx` (the same passes, vectors ordered linear first).

use crate::data::Data;
use crate::forces::Force;
use crate::math::inertia::RigidInertia;
use crate::math::spatial::cross_matrix;
use crate::mobilizer::Mobilizer;
use crate::model::Model;
use crate::state::State;
use nalgebra::{DMatrix, DVector, Matrix6, Vector3, Vector6};

type V6 = Vector6<f64>;
type M6 = Matrix6<f64>;

/// ∂τ/∂q, ∂τ/∂u and M of inverse dynamics with their workspace; build once per model, then
/// [`RneaDerivatives::compute`] allocates nothing.
pub struct RneaDerivatives {
    /// Columns (u indices) of each body's strict descendants.
    descendant_columns: Vec<Vec<usize>>,
    velocity: Vec<V6>,
    acceleration: Vec<V6>,
    force: Vec<V6>,
    composite: Vec<M6>,
    composite_variation: Vec<M6>,
    j: Vec<V6>,
    dv_dq: Vec<V6>,
    da_dq: Vec<V6>,
    da_du: Vec<V6>,
    df_dq: Vec<V6>,
    df_du: Vec<V6>,
    df_da: Vec<V6>,
    bt_j: Vec<V6>,
    /// τ = M u̇ + C − τ_g (nu; without the model's other forces).
    pub tau: DVector<f64>,
    /// ∂τ/∂q (nu × nu; q̇ = u for the supported joints).
    pub dtau_dq: DMatrix<f64>,
    /// ∂τ/∂u (nu × nu).
    pub dtau_du: DMatrix<f64>,
    /// ∂τ/∂u̇ = M(q) (nu × nu).
    pub mass: DMatrix<f64>,
}

impl RneaDerivatives {
    /// Whether `model` has only joints and forces these derivatives cover: Weld, Pin, Slider,
    /// Cylinder and Translation joints, no constraints, and among the forces enabled in
    /// `state` only gravity and constant generalized forces.
    pub fn supports(model: &Model<f64>, state: &State<f64>) -> bool {
        let joints = model.bodies().iter().skip(1).all(|b| {
            matches!(
                b.mobilizer,
                Mobilizer::Weld
                    | Mobilizer::Pin
                    | Mobilizer::Slider
                    | Mobilizer::Cylinder
                    | Mobilizer::Translation
            )
        });
        let forces = model.forces().iter().enumerate().all(|(i, f)| {
            !model.is_force_enabled(state, crate::ids::ForceId(i))
                || matches!(f, Force::Gravity(_) | Force::MobilityConstantForce(_))
        });
        joints && forces && !model.has_constraints()
    }

    /// The workspace for `model`.
    pub fn new(model: &Model<f64>) -> Self {
        let (nb, nu) = (model.nbodies(), model.nu());
        let mut descendant_columns = vec![Vec::new(); nb];
        for body in model.bodies().iter().skip(1) {
            let mut a = body.parent.0;
            while a != 0 {
                descendant_columns[a].extend(body.u_range());
                a = model.bodies()[a].parent.0;
            }
        }
        for columns in &mut descendant_columns {
            columns.sort_unstable();
        }
        Self {
            descendant_columns,
            velocity: vec![V6::zeros(); nb],
            acceleration: vec![V6::zeros(); nb],
            force: vec![V6::zeros(); nb],
            composite: vec![M6::zeros(); nb],
            composite_variation: vec![M6::zeros(); nb],
            j: vec![V6::zeros(); nu],
            dv_dq: vec![V6::zeros(); nu],
            da_dq: vec![V6::zeros(); nu],
            da_du: vec![V6::zeros(); nu],
            df_dq: vec![V6::zeros(); nu],
            df_du: vec![V6::zeros(); nu],
            df_da: vec![V6::zeros(); nu],
            bt_j: vec![V6::zeros(); nu],
            tau: DVector::zeros(nu),
            dtau_dq: DMatrix::zeros(nu, nu),
            dtau_du: DMatrix::zeros(nu, nu),
            mass: DMatrix::zeros(nu, nu),
        }
    }

    /// Computes τ, ∂τ/∂q, ∂τ/∂u and M at the state whose Position and Velocity stages `data`
    /// holds (`u` its speeds), for accelerations `udot`, under the enabled gravity of `state`.
    pub fn compute(
        &mut self,
        model: &Model<f64>,
        state: &State<f64>,
        data: &Data<f64>,
        udot: &[f64],
    ) {
        self.forward(model, data, state.u.as_slice(), udot, gravity(model, state));
        self.dtau_dq.fill(0.0);
        self.dtau_du.fill(0.0);
        for i in (1..model.nbodies()).rev() {
            self.backward(model, i);
        }
    }

    /// Base to tip: velocities, accelerations, forces, the columns and their derivatives.
    fn forward(&mut self, model: &Model<f64>, data: &Data<f64>, u: &[f64], udot: &[f64], g: V3) {
        self.velocity[0] = V6::zeros();
        self.acceleration[0] = spatial(Vector3::zeros(), -g);
        for (i, body) in model.bodies().iter().enumerate().skip(1) {
            let parent = body.parent.0;
            let p = data.pos.x_gb[i].p;
            let y = inertia_at_origin(&data.pos.inertia[i], &p);
            let (mut v_joint, mut a_joint) = (V6::zeros(), V6::zeros());
            for k in body.u_range() {
                let h = &data.pos.h_g[k];
                let w = h.fixed_rows::<3>(0).into_owned();
                self.j[k] = spatial(w, h.fixed_rows::<3>(3) + p.cross(&w));
                v_joint += self.j[k] * u[k];
                a_joint += self.j[k] * udot[k];
            }
            let (v_parent, a_parent) = (self.velocity[parent], self.acceleration[parent]);
            let v = v_parent + v_joint;
            let a = a_parent + a_joint + cross_motion(&v, &v_joint);
            let momentum = y * v;
            self.force[i] = y * a + cross_force(&v, &momentum);
            for k in body.u_range() {
                let j = &self.j[k];
                self.dv_dq[k] = cross_motion(&v_parent, j);
                self.da_dq[k] =
                    cross_motion(&a_parent, j) + cross_motion(&v_parent, &self.dv_dq[k]);
                self.da_du[k] = cross_motion(&v, j) + self.dv_dq[k];
            }
            let mut b = force_cross_matrix(&v) * y - y * motion_cross_matrix(&v);
            add_cross_with_force(&mut b, &momentum);
            self.velocity[i] = v;
            self.acceleration[i] = a;
            self.composite[i] = y;
            self.composite_variation[i] = b;
        }
    }

    /// Tip to base, body `i`: its rows and columns of the three matrices, then its composite
    /// inertia, variation and force onto its parent.
    fn backward(&mut self, model: &Model<f64>, i: usize) {
        let body = &model.bodies()[i];
        let own = body.u_range();
        let descendants = &self.descendant_columns[i];
        let (y, b, f) = (
            self.composite[i],
            self.composite_variation[i],
            self.force[i],
        );
        for k in own.clone() {
            self.tau[k] = self.j[k].dot(&f);
            self.df_da[k] = y * self.j[k];
            self.df_dq[k] = b * self.dv_dq[k] + y * self.da_dq[k];
            self.df_du[k] = b * self.j[k] + y * self.da_du[k];
            self.bt_j[k] = b.tr_mul(&self.j[k]);
        }
        for k in own.clone() {
            let j = self.j[k];
            for c in own.clone().chain(descendants.iter().copied()) {
                let m = j.dot(&self.df_da[c]);
                self.mass[(k, c)] = m;
                self.mass[(c, k)] = m;
                self.dtau_dq[(k, c)] = j.dot(&self.df_dq[c]);
                self.dtau_du[(k, c)] = j.dot(&self.df_du[c]);
            }
            for &c in descendants {
                self.dtau_dq[(c, k)] =
                    self.df_da[c].dot(&self.da_dq[k]) + self.bt_j[c].dot(&self.dv_dq[k]);
                self.dtau_du[(c, k)] = self.df_da[c].dot(&self.da_du[k]) + self.bt_j[c].dot(&j);
            }
        }
        for k in own {
            self.df_dq[k] += cross_force(&self.j[k], &f);
        }
        let parent = body.parent.0;
        if parent != 0 {
            self.composite[parent] += y;
            self.composite_variation[parent] += b;
            self.force[parent] += f;
        }
    }
}

type V3 = Vector3<f64>;

/// The sum of the gravity elements enabled in `state` (m/s²).
fn gravity(model: &Model<f64>, state: &State<f64>) -> V3 {
    let mut g = V3::zeros();
    for (i, force) in model.forces().iter().enumerate() {
        if let Force::Gravity(gravity) = force {
            if model.is_force_enabled(state, crate::ids::ForceId(i)) {
                g += gravity.g;
            }
        }
    }
    g
}

fn spatial(w: V3, v: V3) -> V6 {
    V6::new(w.x, w.y, w.z, v.x, v.y, v.z)
}

fn parts(m: &V6) -> (V3, V3) {
    (
        m.fixed_rows::<3>(0).into_owned(),
        m.fixed_rows::<3>(3).into_owned(),
    )
}

/// `a × b` of two motions.
fn cross_motion(a: &V6, b: &V6) -> V6 {
    let ((wa, va), (wb, vb)) = (parts(a), parts(b));
    spatial(wa.cross(&wb), wa.cross(&vb) + va.cross(&wb))
}

/// `m ×* f` of a motion and a force.
fn cross_force(m: &V6, f: &V6) -> V6 {
    let ((w, v), (n, force)) = (parts(m), parts(f));
    spatial(w.cross(&n) + v.cross(&force), w.cross(&force))
}

/// The matrix of `x ↦ m × x`.
fn motion_cross_matrix(m: &V6) -> M6 {
    let (w, v) = parts(m);
    let (wx, vx) = (cross_matrix(&w), cross_matrix(&v));
    let mut out = M6::zeros();
    out.fixed_view_mut::<3, 3>(0, 0).copy_from(&wx);
    out.fixed_view_mut::<3, 3>(3, 3).copy_from(&wx);
    out.fixed_view_mut::<3, 3>(3, 0).copy_from(&vx);
    out
}

/// The matrix of `x ↦ m ×* x`.
fn force_cross_matrix(m: &V6) -> M6 {
    let (w, v) = parts(m);
    let (wx, vx) = (cross_matrix(&w), cross_matrix(&v));
    let mut out = M6::zeros();
    out.fixed_view_mut::<3, 3>(0, 0).copy_from(&wx);
    out.fixed_view_mut::<3, 3>(3, 3).copy_from(&wx);
    out.fixed_view_mut::<3, 3>(0, 3).copy_from(&vx);
    out
}

/// Adds the matrix of `x ↦ x ×* h` (x a motion) to `out`.
fn add_cross_with_force(out: &mut M6, h: &V6) {
    let (n, f) = parts(h);
    let (nx, fx) = (cross_matrix(&n), cross_matrix(&f));
    let mut block = |r: usize, c: usize, m: &nalgebra::Matrix3<f64>| {
        let mut view = out.fixed_view_mut::<3, 3>(r, c);
        view -= m;
    };
    block(0, 0, &nx);
    block(0, 3, &fx);
    block(3, 0, &fx);
}

/// A body's spatial inertia about Ground's origin, from its inertia about its origin `p`
/// (`I_b`, COM offset c, both in Ground): `I_O = I_b + m [c]×² − m [p + c]×²`,
/// `Y = [[I_O, m [p+c]×], [−m [p+c]×, m 1]]`.
fn inertia_at_origin(inertia: &RigidInertia<f64>, p: &V3) -> M6 {
    let m = inertia.mass;
    let c_o = p + inertia.c;
    let (cx, cox) = (cross_matrix(&inertia.c), cross_matrix(&c_o));
    let i_o = inertia.i_b + (cx * cx - cox * cox) * m;
    let mut y = M6::zeros();
    y.fixed_view_mut::<3, 3>(0, 0).copy_from(&i_o);
    y.fixed_view_mut::<3, 3>(0, 3).copy_from(&(cox * m));
    y.fixed_view_mut::<3, 3>(3, 0).copy_from(&(-cox * m));
    y.fixed_view_mut::<3, 3>(3, 3)
        .copy_from(&(nalgebra::Matrix3::identity() * m));
    y
}
