//! Simbody's `ExponentialSpringForce` (Simbody ≥ 3.8; notes §1): a contact element between one
//! body station and a plane fixed in Ground, with an exponential normal force and a friction
//! force that blends a damped linear spring to an anchor point (static friction, no drift) with
//! pure damping (kinetic friction), as the station's "Sliding" state goes from 0 to 1.
//!
//! In the plane frame P (z is the normal; `p`, `v` the station's position and velocity in P):
//!
//! ```text
//! f_z,elas = d1 exp(−d2 (p_z − d0))                 f_z,damp = −c_z v_z f_z,elas
//! f_z = clamp(f_z,elas + f_z,damp, 0, maxFz)         (the clamps keep the split consistent)
//! μ = μs − K (μs − μk),  f_limit = μ f_z
//! model 1 (damping):        f₁ = −c_xy v_xy, capped at f_limit
//! model 2 (spring+damper):  f₂ = −k_xy (p_xy − p₀) − c_xy v_xy, capped at f_limit (both parts scaled)
//! blend:  f_elas = (1 − K) f₂,elas,  f_damp = f₂,damp + K (f₁ − f₂,damp),  f = f_elas + f_damp
//! new anchor  p₀' = p_xy + f_elas / k_xy;  new Sliding K' = stepUp(clamp(|p₀' − p₀| / (Δt v_settle), 0, 1))
//! PE = f_z,elas / d2 + ½ k_xy |p_xy − p₀'|²
//! ```
//!
//! `p₀` and `K` are auto-update discrete variables: the values computed when the accepted state
//! at the end of a step is realized are swapped in at the start of the next step, so every stage
//! of a step uses the previous step's values (a one-step lag; `K = 1` when Δt ≤ SignificantReal,
//! e.g. at t0, or when f_limit ≈ 0). μs and μk are discrete variables a user may change between
//! steps. Reference: F. C. Anderson, "ExponentialSpringForce", Simbody 3.8 documentation;
//! Simbody/src/ExponentialSpringForce.cpp.

use super::exponential_spring_parameters::ExponentialSpringParameters;
use crate::algorithms::position_kinematics;
use crate::data::Data;
use crate::error::{invalid, ModelError};
use crate::forces::{ForceAccumulator, ForceContext, ForceElement};
use crate::ids::{AutoUpdateVarId, BodyId, DiscreteVarId};
use crate::math::Transform;
use crate::scalar::Real;
use crate::scalar::SIGNIFICANT_REAL;
use crate::state::State;
use crate::tree::Tree;
use nalgebra::Vector3;

/// Simbody's `stepUp`: `x³ (10 + x (6x − 15))`, 0 → 1 on [0, 1] with zero slope and curvature at
/// both ends.
#[inline]
fn step_up<T: Real>(x: T) -> T {
    let x3 = x * x * x;
    x3 * (T::c(10.0) + x * (T::c(6.0) * x - T::c(15.0)))
}

/// The normal force (elastic part, damping part, total; N) at height `pz` (m) above the plane and
/// normal velocity `vz` (m/s), with Simbody's two clamps applied in order (notes §1.4).
#[inline]
pub fn normal_force<T: Real>(prm: &ExponentialSpringParameters<T>, pz: T, vz: T) -> (T, T, T) {
    let mut fz_elas = prm.d1 * (-(prm.d2 * (pz - prm.d0))).exp();
    let mut fz_damp = -(prm.normal_viscosity * vz * fz_elas);
    let mut fz = fz_elas + fz_damp;
    if fz.re() < 0.0 {
        fz = T::zero();
        fz_damp = -fz_elas;
    }
    if fz.re() > prm.max_normal_force.re() {
        fz = prm.max_normal_force;
        fz_elas = fz - fz_damp;
    }
    (fz_elas, fz_damp, fz)
}

/// One exponential spring: a station on a body against a plane fixed in Ground.
#[derive(Clone, Debug)]
pub struct ExponentialSpringForce<T: Real = f64> {
    /// Name for outputs.
    pub name: String,
    /// Pose of the contact plane P in Ground; its +z is the normal.
    pub x_gp: Transform<T>,
    /// The body carrying the station.
    pub body: BodyId,
    /// The station in the body frame (m).
    pub station: Vector3<T>,
    /// Parameters.
    pub parameters: ExponentialSpringParameters<T>,
    /// Discrete variable: μs.
    pub mu_static: DiscreteVarId,
    /// Discrete variable: μk.
    pub mu_kinetic: DiscreteVarId,
    /// Auto-update variable: the anchor point p₀, in P (z = 0).
    pub anchor: AutoUpdateVarId,
    /// Auto-update variable: Sliding K (0 fixed, 1 sliding).
    pub sliding: AutoUpdateVarId,
}

/// Everything the element computes at one state (Simbody's getters), in the plane frame P
/// unless said otherwise; [`ExponentialSpringForce::to_ground`] re-expresses a P vector.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExponentialSpringOutput<T: Real> {
    /// Station position in P (m).
    pub station_position: Vector3<T>,
    /// Station velocity in P (m/s).
    pub station_velocity: Vector3<T>,
    /// Elastic part of the normal force (N).
    pub normal_force_elastic: T,
    /// Damping part of the normal force (N).
    pub normal_force_damping: T,
    /// Normal force (N).
    pub normal_force: T,
    /// μ in effect (from μs, μk and the Sliding value held in the state).
    pub mu: T,
    /// Friction force limit μ f_z (N).
    pub friction_limit: T,
    /// Elastic part of the friction force (N, P, z = 0).
    pub friction_elastic: Vector3<T>,
    /// Damping part of the friction force (N, P, z = 0).
    pub friction_damping: Vector3<T>,
    /// Friction force (N, P, z = 0).
    pub friction: Vector3<T>,
    /// The anchor point computed at this state (the next value of p₀), in P.
    pub anchor_update: Vector3<T>,
    /// The Sliding value computed at this state (the next value of K).
    pub sliding_update: T,
    /// Potential energy (J).
    pub potential_energy: T,
}

impl<T: Real> ExponentialSpringOutput<T> {
    /// Total force on the body in P: (friction x, friction y, normal force).
    pub fn force(&self) -> Vector3<T> {
        Vector3::new(self.friction.x, self.friction.y, self.normal_force)
    }
}

impl<T: Real> ExponentialSpringForce<T> {
    /// Checks the body against the model's body count and the parameters.
    pub(crate) fn validate(&self, nbodies: usize) -> Result<(), ModelError> {
        if self.body.0 >= nbodies {
            return Err(invalid!("body index {} does not exist", self.body.0));
        }
        self.parameters.validate()
    }

    /// Converts to another scalar type through `f64` (the state variable ids are kept).
    pub fn cast<U: Real>(&self) -> ExponentialSpringForce<U> {
        ExponentialSpringForce {
            name: self.name.clone(),
            x_gp: self.x_gp.cast(),
            body: self.body,
            station: self.station.map(|x| U::c(x.re())),
            parameters: self.parameters.cast(),
            mu_static: self.mu_static,
            mu_kinetic: self.mu_kinetic,
            anchor: self.anchor,
            sliding: self.sliding,
        }
    }

    /// Re-expresses a vector given in the plane frame P in Ground.
    pub fn to_ground(&self, v_p: &Vector3<T>) -> Vector3<T> {
        self.x_gp.r * v_p
    }

    /// Re-expresses a point given in the plane frame P in Ground.
    pub fn point_in_ground(&self, p_p: &Vector3<T>) -> Vector3<T> {
        self.x_gp.apply(p_p)
    }

    /// μs held in the state.
    pub fn mu_static(&self, model: &Tree<T>, state: &State<T>) -> T {
        state.discrete(model, self.mu_static)[0]
    }

    /// μk held in the state.
    pub fn mu_kinetic(&self, model: &Tree<T>, state: &State<T>) -> T {
        state.discrete(model, self.mu_kinetic)[0]
    }

    /// Sets μs (clipped to ≥ 0); lowers μk to μs if it was larger (Simbody `setMuStatic`).
    /// Takes effect from the next evaluation.
    pub fn set_mu_static(&self, model: &Tree<T>, state: &mut State<T>, mu_s: T) {
        let mu_s = if mu_s.re() < 0.0 { T::zero() } else { mu_s };
        state.set_discrete(model, self.mu_static, &[mu_s]);
        if self.mu_kinetic(model, state).re() > mu_s.re() {
            state.set_discrete(model, self.mu_kinetic, &[mu_s]);
        }
    }

    /// Sets μk (clipped to ≥ 0); raises μs to μk if it was smaller (Simbody `setMuKinetic`).
    pub fn set_mu_kinetic(&self, model: &Tree<T>, state: &mut State<T>, mu_k: T) {
        let mu_k = if mu_k.re() < 0.0 { T::zero() } else { mu_k };
        state.set_discrete(model, self.mu_kinetic, &[mu_k]);
        if mu_k.re() > self.mu_static(model, state).re() {
            state.set_discrete(model, self.mu_static, &[mu_k]);
        }
    }

    /// The anchor point p₀ held in the state, in P.
    pub fn anchor_in_state(&self, model: &Tree<T>, state: &State<T>) -> Vector3<T> {
        let a = state.auto_update(model, self.anchor);
        Vector3::new(a[0], a[1], a[2])
    }

    /// The Sliding value K held in the state.
    pub fn sliding_in_state(&self, model: &Tree<T>, state: &State<T>) -> T {
        state.auto_update(model, self.sliding)[0]
    }

    /// Moves the anchor point to the station's projection onto the plane and marks it updated
    /// at the state's time (Simbody `resetAnchorPoint`).
    pub fn reset_anchor_point(&self, model: &Tree<T>, state: &mut State<T>) {
        let mut data = Data::for_tree(model);
        position_kinematics(model, state, &mut data);
        self.reset_anchor_point_at(model, state, &data.pos.x_gb);
    }

    /// [`Self::reset_anchor_point`] with the body poses `x_gb` of `state` already computed
    /// (position kinematics), so that many springs are reset with one pass over the tree.
    pub fn reset_anchor_point_at(
        &self,
        model: &Tree<T>,
        state: &mut State<T>,
        x_gb: &[Transform<T>],
    ) {
        let p_g = x_gb[self.body.0].apply(&self.station);
        let p_p = self.x_gp.inverse().apply(&p_g);
        state.set_auto_update(model, self.anchor, &[p_p.x, p_p.y, T::zero()]);
    }

    /// Evaluates the element at the context's state (Velocity stage).
    pub fn evaluate(&self, ctx: &ForceContext<'_, T>) -> ExponentialSpringOutput<T> {
        let prm = &self.parameters;
        let p_g = ctx.station_position(self.body, &self.station);
        let v_g = ctx.station_velocity(self.body, &self.station);
        let p = self.x_gp.r.tr_mul(&(p_g - self.x_gp.p));
        let v = self.x_gp.r.tr_mul(&v_g);
        let (p, v) = (
            Vector3::new(p[0], p[1], p[2]),
            Vector3::new(v[0], v[1], v[2]),
        );
        let zero = T::zero();
        let (p_xy, v_xy) = (Vector3::new(p.x, p.y, zero), Vector3::new(v.x, v.y, zero));
        let (fz_elas, fz_damp, fz) = normal_force(prm, p.z, v.z);
        // Friction with the μ and K held in the state.
        let (mu_s, mu_k) = (
            ctx.discrete(self.mu_static)[0],
            ctx.discrete(self.mu_kinetic)[0],
        );
        let k_state = ctx.auto_update(self.sliding)[0];
        let a = ctx.auto_update(self.anchor);
        let p0_state = Vector3::new(a[0], a[1], a[2]);
        let mu = mu_s - k_state * (mu_s - mu_k);
        let limit = mu * fz;
        let (friction_elastic, friction_damping, anchor_update) = if limit.re() < SIGNIFICANT_REAL {
            (Vector3::zeros(), Vector3::zeros(), p_xy)
        } else {
            self.friction(&p_xy, &v_xy, &p0_state, limit, k_state)
        };
        let sliding_update = self.sliding_update(ctx, &anchor_update, &p0_state, limit);
        let stretch = p_xy - anchor_update;
        let potential_energy =
            fz_elas / prm.d2 + T::c(0.5) * prm.friction_elasticity * stretch.dot(&stretch);
        ExponentialSpringOutput {
            station_position: p,
            station_velocity: v,
            normal_force_elastic: fz_elas,
            normal_force_damping: fz_damp,
            normal_force: fz,
            mu,
            friction_limit: limit,
            friction_elastic,
            friction_damping,
            friction: friction_elastic + friction_damping,
            anchor_update,
            sliding_update,
            potential_energy,
        }
    }

    /// Branch B of notes §1.5: both friction models, capped, blended by K; returns the elastic
    /// and damping parts and the new anchor point.
    fn friction(
        &self,
        p_xy: &Vector3<T>,
        v_xy: &Vector3<T>,
        p0: &Vector3<T>,
        limit: T,
        k: T,
    ) -> (Vector3<T>, Vector3<T>, Vector3<T>) {
        let prm = &self.parameters;
        let limit2 = limit * limit;
        let mut damp1 = -(v_xy * prm.friction_viscosity);
        let mut damp2 = damp1;
        let d1_2 = damp1.norm_squared();
        if d1_2.re() > limit2.re() {
            damp1 *= limit / d1_2.sqrt();
        }
        let mut elas2 = -((p_xy - p0) * prm.friction_elasticity);
        let total2 = elas2 + damp2;
        let t2 = total2.norm_squared();
        if t2.re() > limit2.re() {
            let scale = limit / t2.sqrt();
            elas2 *= scale;
            damp2 *= scale;
        }
        let elastic = elas2 * (T::one() - k);
        let damping = damp2 + (damp1 - damp2) * k;
        let mut anchor = p_xy + elastic / prm.friction_elasticity;
        anchor.z = T::zero();
        (elastic, damping, anchor)
    }

    /// §1.6: the new Sliding value from the anchor point's speed since its last update.
    fn sliding_update(
        &self,
        ctx: &ForceContext<'_, T>,
        p0_new: &Vector3<T>,
        p0_state: &Vector3<T>,
        limit: T,
    ) -> T {
        let dt = ctx.state.t - ctx.state.auto_update_time(self.anchor);
        if !(dt > SIGNIFICANT_REAL && limit.re() > SIGNIFICANT_REAL) {
            return T::one();
        }
        let speed = (p0_new - p0_state).norm() / T::c(dt);
        let ratio = speed / self.parameters.settle_velocity;
        let clamped = if ratio.re() < 0.0 {
            T::zero()
        } else if ratio.re() > 1.0 {
            T::one()
        } else {
            ratio
        };
        step_up(clamped)
    }
}

impl<T: Real> ForceElement<T> for ExponentialSpringForce<T> {
    fn name(&self) -> &str {
        &self.name
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let e = self.evaluate(ctx);
        let f_g = self.to_ground(&e.force());
        out.add_station_force(self.body, &self.station, &f_g);
        out.set_auto_update(
            self.anchor,
            &[e.anchor_update.x, e.anchor_update.y, e.anchor_update.z],
        );
        out.set_auto_update(self.sliding, &[e.sliding_update]);
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        self.evaluate(ctx).potential_energy
    }
}
