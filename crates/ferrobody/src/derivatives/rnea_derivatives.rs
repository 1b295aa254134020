//! Analytical derivatives of inverse dynamics: ∂τ/∂q, ∂τ/∂u and ∂τ/∂u̇ = M(q) of
//! `τ = ID(q, u, u̇) = M(q) u̇ + C(q, u) − τ_g(q)` (gravity included), by the recursive
//! algorithm of Carpentier & Mansard, as Pinocchio's `computeRNEADerivatives` computes it.
//!
//! Everything is expressed in Ground at Ground's origin (Plücker coordinates, motion
//! `[ω; v_O]`, force `[n_O; f]`), so a joint's columns `J_k` (its hinge columns `h_k`, taken
//! from the body origin p to the origin: `[ω_k; v_k + p × ω_k]`) change with an ancestor's
//! coordinate q_j only by the motion cross product, `∂J_k/∂q_j = J_j × J_k`. That holds for
//! joints whose columns are fixed in the body (Pin, Slider, Cylinder, Translation; with
//! q̇ = u); Ball and Free joints, whose columns are fixed in the parent, run in body-frame
//! speeds and are changed back afterwards (`floating_joints.rs`). Contact and other body
//! forces enter as applied forces with their own derivatives (`body_forces.rs`). Base to tip,
//! with `a` the spatial acceleration less gravity's:
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

use super::body_forces::BodyForceDerivatives;
use super::floating_joints::{is_floating, FloatingJoint};
use super::mobility_forces;
use super::origin_frame::{
    add_cross_with_force, cross_force, cross_motion, force_cross_matrix, inertia_at_origin,
    motion_cross_matrix,
};
use crate::data::Data;
use crate::error::Result;
use crate::math::spatial;
use crate::mobilizer::Mobilizer;
use crate::model::Force;
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
    floating: Vec<FloatingJoint>,
    /// Speeds and their rates in body-frame form for floating joints (nu).
    u_body: Vec<f64>,
    udot_body: Vec<f64>,
    /// ∂τ/∂δ along each speed's tangent direction (nu × nu).
    dtau_dtangent: DMatrix<f64>,
    /// ∂τ'/∂u' in body-frame speeds, kept while ∂τ/∂u is formed (nu × nu).
    primed_du: DMatrix<f64>,
    /// The body forces of contact and other pose-and-velocity elements with their
    /// derivatives, if the model has such elements.
    body_forces: Option<BodyForceDerivatives>,
    /// τ = M u̇ + C − τ_g (nu; without the model's other forces).
    pub tau: DVector<f64>,
    /// ∂τ/∂q (nu × nq, with respect to q as stored: a quaternion's four entries).
    pub dtau_dq: DMatrix<f64>,
    /// ∂τ/∂u (nu × nu).
    pub dtau_du: DMatrix<f64>,
    /// ∂τ/∂u̇ = M(q) (nu × nu).
    pub mass: DMatrix<f64>,
}

impl RneaDerivatives {
    /// Whether `model` has only joints and forces these derivatives cover: Weld, Pin, Slider,
    /// Cylinder, Translation, Ball and Free joints (quaternions or Euler angles), no
    /// constraints, and among the forces enabled in `state` only gravity, constant generalized
    /// forces, mobility springs and dampers, Hunt–Crossley and smooth sphere/half-space
    /// contact, two-point springs and dampers, and constant forces and torques.
    pub fn supports(model: &Model<f64>, state: &State<f64>) -> bool {
        let joints = model.bodies().iter().skip(1).all(|b| {
            is_floating(b.mobilizer)
                || matches!(
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
                || matches!(f, Force::Gravity(_))
                || mobility_forces::covers(f)
                || BodyForceDerivatives::covers(f)
        });
        joints && forces && !model.has_constraints()
    }

    /// Whether this path should be cheaper than dual numbers over the whole pipeline for
    /// `model`: the dual numbers it still needs (12 lanes per body that pose-and-velocity
    /// elements without a reduced path act on; Hunt–Crossley spheres against a half space in
    /// Ground have one) plus about 8 lanes' worth of its own work stay within the nq + nu
    /// directions of the dual path. On the stiff block (one Free body, 13 directions) the
    /// analytical Jacobian with a 12-lane pass over its contact took 6.2 µs against 5.1 µs
    /// for dual numbers.
    pub fn is_cheaper_than_dual(&self, model: &Model<f64>) -> bool {
        let force_lanes = self.body_forces.as_ref().map_or(0, |f| f.dual_lanes());
        force_lanes + 8 <= model.nq() + model.nu()
    }

    /// The workspace for `model` (an error only if its elements do not convert to dual
    /// numbers).
    pub fn new(model: &Model<f64>) -> Result<Self> {
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
        let body_forces = if model.forces().iter().any(BodyForceDerivatives::covers) {
            Some(BodyForceDerivatives::new(model)?)
        } else {
            None
        };
        Ok(Self {
            body_forces,
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
            floating: FloatingJoint::of(model),
            u_body: vec![0.0; nu],
            udot_body: vec![0.0; nu],
            dtau_dtangent: DMatrix::zeros(nu, nu),
            primed_du: DMatrix::zeros(nu, nu),
            tau: DVector::zeros(nu),
            dtau_dq: DMatrix::zeros(nu, model.nq()),
            dtau_du: DMatrix::zeros(nu, nu),
            mass: DMatrix::zeros(nu, nu),
        })
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
        self.u_body.copy_from_slice(state.u.as_slice());
        self.udot_body.copy_from_slice(udot);
        let external = match &mut self.body_forces {
            Some(forces) if BodyForceDerivatives::any_enabled(model, state) => {
                forces.compute(model, state, data);
                true
            }
            _ => false,
        };
        self.forward(
            model,
            data,
            state.q.as_slice(),
            state.u.as_slice(),
            udot,
            gravity(model, state),
        );
        if external {
            let forces = self.body_forces.as_ref().expect("computed above");
            for (f, applied) in self.force.iter_mut().zip(&forces.force) {
                *f -= applied;
            }
        }
        self.dtau_dtangent.as_mut_slice().fill(0.0);
        self.dtau_du.as_mut_slice().fill(0.0);
        for i in (1..model.nbodies()).rev() {
            self.backward(model, i);
        }
        if let (true, Some(forces)) = (external, &self.body_forces) {
            forces.add_terms(
                model,
                (&self.j, &self.velocity),
                &mut self.dtau_dtangent,
                &mut self.dtau_du,
            );
        }
        self.undo_body_frame_speeds(state.u.as_slice());
        self.tangent_to_q(model, state.q.as_slice());
        mobility_forces::add_terms(model, state, &mut self.dtau_dq, &mut self.dtau_du);
    }

    /// Changes the results of the recursion (in body-frame speeds for floating joints) back to
    /// the model's speeds (the steps of `floating_joints.rs`).
    fn undo_body_frame_speeds(&mut self, u: &[f64]) {
        if self.floating.is_empty() {
            return;
        }
        self.primed_du.copy_from(&self.dtau_du);
        for joint in &self.floating {
            joint.add_speed_terms(
                &mut self.dtau_dtangent,
                &self.primed_du,
                &self.mass,
                &self.u_body,
                &self.udot_body,
            );
        }
        for joint in &self.floating {
            joint.speed_columns(&mut self.dtau_du, &self.mass, u);
        }
        for joint in &self.floating {
            joint.times_t(&mut self.mass);
        }
        for joint in &self.floating {
            joint.t_transpose_times(&mut self.dtau_dtangent);
            joint.t_transpose_times(&mut self.dtau_du);
            joint.t_transpose_times(&mut self.mass);
        }
        for joint in &self.floating {
            joint.turn_forces(&mut self.dtau_dtangent, &mut self.tau);
        }
    }

    /// ∂τ/∂q from ∂τ/∂δ: the same columns where q̇ = u, through ∂δ/∂q for floating joints.
    fn tangent_to_q(&mut self, model: &Model<f64>, q: &[f64]) {
        for body in model.bodies().iter().skip(1) {
            if is_floating(body.mobilizer) {
                continue;
            }
            for (k, c) in body.u_range().enumerate() {
                self.dtau_dq
                    .set_column(body.q_range().start + k, &self.dtau_dtangent.column(c));
            }
        }
        for joint in &self.floating {
            joint.q_columns(q, &self.dtau_dtangent, &mut self.dtau_dq);
        }
    }

    /// Base to tip: velocities, accelerations, forces, the columns and their derivatives.
    fn forward(
        &mut self,
        model: &Model<f64>,
        data: &Data<f64>,
        q: &[f64],
        u: &[f64],
        udot: &[f64],
        g: V3,
    ) {
        let mut floating = self.floating.iter_mut().peekable();
        self.velocity[0] = V6::zeros();
        self.acceleration[0] = spatial(Vector3::zeros(), -g);
        for (i, body) in model.bodies().iter().enumerate().skip(1) {
            let parent = body.parent.0;
            let p = data.pos.x_gb[i].p;
            let y = inertia_at_origin(&data.pos.inertia[i], &p);
            for k in body.u_range() {
                let h = &data.pos.h_g[k];
                let w = h.fixed_rows::<3>(0).into_owned();
                self.j[k] = spatial(w, h.fixed_rows::<3>(3) + p.cross(&w));
            }
            if let Some(joint) = floating.next_if(|j| j.body == i) {
                joint.switch_to_body_frame(
                    q,
                    u,
                    udot,
                    &mut self.j,
                    &mut self.u_body,
                    &mut self.udot_body,
                );
            }
            let (mut v_joint, mut a_joint) = (V6::zeros(), V6::zeros());
            for k in body.u_range() {
                v_joint += self.j[k] * self.u_body[k];
                a_joint += self.j[k] * self.udot_body[k];
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
                self.dtau_dtangent[(k, c)] = j.dot(&self.df_dq[c]);
                self.dtau_du[(k, c)] = j.dot(&self.df_du[c]);
            }
            for &c in descendants {
                self.dtau_dtangent[(c, k)] =
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
