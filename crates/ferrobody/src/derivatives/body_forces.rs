//! Derivatives of the body forces of force elements (contact, two-point springs and dampers,
//! constant forces) with respect to the poses and velocities of the bodies they act on, for
//! the analytical Jacobians of [`super::rnea_derivatives`].
//!
//! These elements read only body poses `x_gb` and velocities `v_gb`, so their force on body b
//! (at Ground's origin, `F_b = [n_O; f]`) is a function of the bodies' poses and spatial
//! velocities. For each body c they act on, one pass of 12-lane dual numbers over those
//! elements alone (no kinematics, no articulated-body algorithm) seeds a twist `ε` of c's pose
//! (`R ← (1 + [ε_ω×]) R`, `p ← p + ε_v + ε_ω × p`) and a change `δV` of its spatial velocity
//! at the origin, `[ω; v_O]`, and reads
//!
//! ```text
//!   G_bc = ∂F_b/∂ε_c,   H_bc = ∂F_b/∂V_c        (6 × 6 each)
//! ```
//!
//! The chain rule to q and u runs in `rnea_derivatives` (`∂ε_c/∂q_j = J_j`,
//! `∂V_c/∂q_j = J_j × (V_c − V_λ(j))`, `∂V_c/∂u_j = J_j`, j on c's path to Ground). Its
//! recursion, given `F_b` as an applied force, already moves it with body b (`ε ×* F_b`, as
//! Pinocchio treats external forces given in the body frame), so `G_bb` less that is added.
//! Reference: A. Griewank, A. Walther, *Evaluating Derivatives*, SIAM (2008), ch. 3.

use super::hunt_crossley_ground::{add_contacts, ground_half_space_and_spheres};
use super::origin_frame::{add_cross_with_force, cross_motion};
use crate::data::Data;
use crate::error::Result;
use crate::forces::{ForceAccumulator, ForceContext};
use crate::ids::ForceId;
use crate::math::{spatial, Transform};
use crate::model::Force;
use crate::model::Model;
use crate::state::State;
use nalgebra::{Const, DMatrix, Matrix3, Matrix6, Vector3, Vector6, U1};
use num_dual::{Derivative, DualSVec64};

/// Directions per body: the pose twist (6), then the velocity (6).
const LANES: usize = 12;
type D = DualSVec64<LANES>;

/// The forces of the pose-and-velocity elements and their derivatives, with the workspace.
pub struct BodyForceDerivatives {
    model: Model<D>,
    data: Data<D>,
    state: State<D>,
    /// The bodies (not Ground) the covered elements act on, in increasing order.
    pub(super) bodies: Vec<usize>,
    /// Per entry of `bodies`: whether an element without a reduced path acts on it (it then
    /// gets the 12-lane pass).
    generic: Vec<bool>,
    /// Per force element: the spheres' body if it is a Hunt–Crossley set of spheres on one
    /// body against a half space in Ground (the reduced path of `hunt_crossley_ground`).
    reduced: Vec<Option<usize>>,
    /// `F_b` at Ground's origin for every body (f64).
    pub(super) force: Vec<Vector6<f64>>,
    /// `[G_bc | H_bc]` at `b * bodies.len() + c_index` (6 × 12 as two 6 × 6).
    pub(super) g: Vec<Matrix6<f64>>,
    pub(super) h: Vec<Matrix6<f64>>,
    /// Buffers of the reduced path's contact order, reused between evaluations.
    sweep: super::hunt_crossley_ground::SweepScratch,
}

impl BodyForceDerivatives {
    /// Whether `force` is an element these derivatives cover (reads only poses and velocities
    /// of bodies, owns no state variables).
    pub fn covers(force: &Force<f64>) -> bool {
        matches!(
            force,
            Force::HuntCrossley(_)
                | Force::SmoothSphereHalfSpace(_)
                | Force::TwoPointLinearSpring(_)
                | Force::TwoPointLinearDamper(_)
                | Force::ConstantForce(_)
                | Force::ConstantTorque(_)
        )
    }

    /// The workspace for `model`.
    pub fn new(model: &Model<f64>) -> Result<Self> {
        let reduced: Vec<Option<usize>> = model
            .forces()
            .iter()
            .map(|f| match f {
                Force::HuntCrossley(hc) => ground_half_space_and_spheres(hc),
                _ => None,
            })
            .collect();
        let acted_on = |generic_only: bool| {
            let mut bodies: Vec<usize> = model
                .forces()
                .iter()
                .zip(&reduced)
                .filter(|(_, r)| !generic_only || r.is_none())
                .flat_map(|(f, _)| bodies_acted_on(f))
                .filter(|&b| b != 0)
                .collect();
            bodies.sort_unstable();
            bodies.dedup();
            bodies
        };
        let bodies = acted_on(false);
        let generic_bodies = acted_on(true);
        let generic = bodies.iter().map(|b| generic_bodies.contains(b)).collect();
        let dual = model.cast::<D>()?;
        let nb = model.nbodies();
        let pairs = nb * bodies.len();
        Ok(Self {
            data: Data::new(&dual),
            state: dual.default_state(),
            model: dual,
            bodies,
            generic,
            reduced,
            force: vec![Vector6::zeros(); nb],
            g: vec![Matrix6::zeros(); pairs],
            h: vec![Matrix6::zeros(); pairs],
            sweep: Default::default(),
        })
    }

    /// Whether `model` has covered elements enabled in `state`.
    pub fn any_enabled(model: &Model<f64>, state: &State<f64>) -> bool {
        model
            .forces()
            .iter()
            .enumerate()
            .any(|(i, f)| Self::covers(f) && model.is_force_enabled(state, ForceId(i)))
    }

    /// Computes the forces and their derivatives at the poses and velocities of `data`
    /// (realized to Velocity), with the elements enabled in `state`.
    pub fn compute(&mut self, model: &Model<f64>, state: &State<f64>, data: &Data<f64>) {
        self.state.assign_from(state);
        self.force.iter_mut().for_each(|f| *f = Vector6::zeros());
        self.g.iter_mut().for_each(|m| *m = Matrix6::zeros());
        self.h.iter_mut().for_each(|m| *m = Matrix6::zeros());
        let mut first = true;
        for c_index in 0..self.bodies.len() {
            if self.generic[c_index] {
                self.seed(data, self.bodies[c_index]);
                self.evaluate(model, state);
                self.read(c_index, first);
                first = false;
            }
        }
        let nc = self.bodies.len();
        for (i, element) in model.forces().iter().enumerate() {
            let (Force::HuntCrossley(hc), Some(b)) = (element, self.reduced[i]) else {
                continue;
            };
            if !model.is_force_enabled(state, ForceId(i)) {
                continue;
            }
            let c_index = self
                .bodies
                .binary_search(&b)
                .expect("listed at construction");
            let k = b * nc + c_index;
            add_contacts(
                hc,
                &data.pos.x_gb[b],
                &data.vel.v_gb[b],
                &mut self.force[b],
                &mut self.g[k],
                &mut self.h[k],
                &mut self.sweep,
            );
        }
    }

    /// Dual lanes one evaluation needs: 12 per body that an element without a reduced path
    /// acts on.
    pub(super) fn dual_lanes(&self) -> usize {
        12 * self.generic.iter().filter(|&&g| g).count()
    }

    /// Every body's pose and velocity from `data`, with body `c` seeded.
    fn seed(&mut self, data: &Data<f64>, c: usize) {
        for (i, (x, v)) in data.pos.x_gb.iter().zip(&data.vel.v_gb).enumerate() {
            let r = x.r.map(D::from_re);
            let p = x.p.map(D::from_re);
            let (w, v_p) = (
                v.fixed_rows::<3>(0).map(D::from_re),
                v.fixed_rows::<3>(3).map(D::from_re),
            );
            if i != c {
                self.data.pos.x_gb[i] = Transform { r, p };
                self.data.vel.v_gb[i] = spatial(w, v_p);
                continue;
            }
            let lane =
                |k: usize| D::new(0.0, Derivative::derivative_generic(Const::<LANES>, U1, k));
            let eps_w = Vector3::new(lane(0), lane(1), lane(2));
            let eps_v = Vector3::new(lane(3), lane(4), lane(5));
            let dv_w = Vector3::new(lane(6), lane(7), lane(8));
            let dv_o = Vector3::new(lane(9), lane(10), lane(11));
            let turn =
                Matrix3::identity().map(D::from_re) + crate::math::spatial::cross_matrix(&eps_w);
            let p_new = p + eps_v + eps_w.cross(&p);
            let v_origin = v_p - w.cross(&p);
            let w_new = w + dv_w;
            self.data.pos.x_gb[i] = Transform {
                r: turn * r,
                p: p_new,
            };
            self.data.vel.v_gb[i] = spatial(w_new, v_origin + dv_o + w_new.cross(&p_new));
        }
    }

    /// The covered, enabled elements' body forces into the dual data.
    fn evaluate(&mut self, model: &Model<f64>, state: &State<f64>) {
        let data = &mut self.data;
        data.dynamics
            .body_forces
            .iter_mut()
            .for_each(|f| *f = Vector6::zeros());
        let ctx = ForceContext::from_caches(&self.model, &self.state, &data.pos, &data.vel);
        let mut out = ForceAccumulator {
            model: &self.model,
            x_gb: &data.pos.x_gb,
            body_forces: &mut data.dynamics.body_forces,
            mobility_forces: data.dynamics.mobility_forces.as_mut_slice(),
            auto_update_cache: &mut data.auto_update_cache,
            auto_update_valid: &mut data.auto_update_valid,
            zdot: data.dynamics.zdot.as_mut_slice(),
            contact_scratch: &mut data.contact_scratch,
        };
        for (i, force) in self.model.forces().iter().enumerate() {
            let f64_force = &model.forces()[i];
            if Self::covers(f64_force)
                && self.reduced[i].is_none()
                && model.is_force_enabled(state, ForceId(i))
            {
                force.calc_force(&ctx, &mut out);
            }
        }
    }

    /// Reads `F_b` at Ground's origin and its lanes for seeded body `bodies[c_index]`.
    fn read(&mut self, c_index: usize, first: bool) {
        let nc = self.bodies.len();
        for b in 0..self.data.dynamics.body_forces.len() {
            let f_b = &self.data.dynamics.body_forces[b];
            let p = &self.data.pos.x_gb[b].p;
            let (n, f) = (
                f_b.fixed_rows::<3>(0).into_owned(),
                f_b.fixed_rows::<3>(3).into_owned(),
            );
            let at_origin = spatial(n + p.cross(&f), f);
            if first {
                self.force[b] = at_origin.map(|x| x.re);
            }
            let (g, h) = (&mut self.g[b * nc + c_index], &mut self.h[b * nc + c_index]);
            for (row, x) in at_origin.iter().enumerate() {
                let lanes = x.eps.0.unwrap_or_else(nalgebra::SVector::zeros);
                for k in 0..6 {
                    g[(row, k)] = lanes[k];
                    h[(row, k)] = lanes[6 + k];
                }
            }
        }
    }
}

impl BodyForceDerivatives {
    /// The forces' own dependence on the state, `−J_kᵀ (G_bc ∂ε_c/∂x_j + H_bc ∂V_c/∂x_j)` for
    /// k on b's path and j on c's path to Ground, added to `dtau_dq` and `dtau_du` in the
    /// recursion's (body-frame) variables, given its columns `j` and body velocities at
    /// Ground's origin: `∂ε_c/∂q_j = J_j`, `∂V_c/∂q_j = J_j × (V_c − V_λ(j))`,
    /// `∂V_c/∂u_j = J_j`. The recursion already moved F_b with its body (`ε ×* F_b`), so
    /// `G_bb` less that.
    pub(super) fn add_terms(
        &self,
        model: &Model<f64>,
        (j, velocity): (&[Vector6<f64>], &[Vector6<f64>]),
        dtau_dq: &mut DMatrix<f64>,
        dtau_du: &mut DMatrix<f64>,
    ) {
        let nc = self.bodies.len();
        let bodies = model.bodies();
        for (ci, &c) in self.bodies.iter().enumerate() {
            for b in 1..bodies.len() {
                let (mut g, h) = (self.g[b * nc + ci], &self.h[b * nc + ci]);
                if g.iter().chain(h.iter()).all(|&x| x == 0.0) {
                    continue;
                }
                if b == c {
                    let mut co_moving = Matrix6::zeros();
                    add_cross_with_force(&mut co_moving, &self.force[b]);
                    g -= co_moving;
                }
                let mut a = c;
                while a != 0 {
                    let relative = velocity[c] - velocity[bodies[a].parent.0];
                    for column in bodies[a].u_range() {
                        let jj = j[column];
                        let col_q = g * jj + h * cross_motion(&jj, &relative);
                        let col_u = h * jj;
                        let mut k_body = b;
                        while k_body != 0 {
                            for k in bodies[k_body].u_range() {
                                dtau_dq[(k, column)] -= j[k].dot(&col_q);
                                dtau_du[(k, column)] -= j[k].dot(&col_u);
                            }
                            k_body = bodies[k_body].parent.0;
                        }
                    }
                    a = bodies[a].parent.0;
                }
            }
        }
    }
}

/// The bodies a covered element acts on (none for other elements).
fn bodies_acted_on(force: &Force<f64>) -> Vec<usize> {
    match force {
        Force::HuntCrossley(f) => f.surfaces().iter().map(|s| s.body.0).collect(),
        Force::SmoothSphereHalfSpace(f) => vec![f.sphere_body.0, f.half_space_body.0],
        Force::TwoPointLinearSpring(f) => vec![f.body1.0, f.body2.0],
        Force::TwoPointLinearDamper(f) => vec![f.body1.0, f.body2.0],
        Force::ConstantForce(f) => vec![f.body.0],
        Force::ConstantTorque(f) => vec![f.body.0],
        _ => Vec::new(),
    }
}
