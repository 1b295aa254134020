//! What a force element can read (`ForceContext`) and where it writes (`ForceAccumulator`).

use crate::data::{Data, PositionCache, VelocityCache};
use crate::error::{invalid, ModelError};
use crate::geometry::ContactScratch;
use crate::ids::{AutoUpdateVarId, BodyId, DiscreteVarId, ZId};
use crate::math::spatial::shift_motion;
use crate::math::{linear, spatial, SpatialVec, Transform};
use crate::scalar::Real;
use crate::state::State;
use crate::tree::{Body, Tree};
use nalgebra::Vector3;

/// Read-only view of the model, the state and its Position/Velocity results.
///
/// It borrows only the Position and Velocity caches of [`Data`], so the force evaluation can
/// write the Dynamics cache and the contact buffers of the same `Data` at the same time.
pub struct ForceContext<'a, T: Real> {
    /// The model.
    pub model: &'a Tree<T>,
    /// The state being evaluated.
    pub state: &'a State<T>,
    /// Its Position-stage results (poses, inertias in Ground, hinge columns).
    pub(crate) pos: &'a PositionCache<T>,
    /// Its Velocity-stage results (body velocities, Coriolis and gyroscopic terms).
    pub(crate) vel: &'a VelocityCache<T>,
}

impl<'a, T: Real> ForceContext<'a, T> {
    /// A context over a state realized to Velocity or later.
    pub fn new(model: &'a Tree<T>, state: &'a State<T>, data: &'a Data<T>) -> Self {
        Self::from_caches(model, state, &data.pos, &data.vel)
    }

    /// A context over the Position and Velocity caches of a realized state.
    pub(crate) fn from_caches(
        model: &'a Tree<T>,
        state: &'a State<T>,
        pos: &'a PositionCache<T>,
        vel: &'a VelocityCache<T>,
    ) -> Self {
        Self {
            model,
            state,
            pos,
            vel,
        }
    }

    /// Pose of a body in Ground.
    #[inline(always)]
    pub fn x_gb(&self, b: BodyId) -> &Transform<T> {
        &self.pos.x_gb[b.0]
    }

    /// Spatial velocity of a body's origin in Ground.
    #[inline(always)]
    pub fn v_gb(&self, b: BodyId) -> &SpatialVec<T> {
        &self.vel.v_gb[b.0]
    }

    /// Position in Ground of station `p_bs` (body frame).
    #[inline(always)]
    pub fn station_position(&self, b: BodyId, p_bs: &Vector3<T>) -> Vector3<T> {
        self.x_gb(b).apply(p_bs)
    }

    /// Velocity in Ground of station `p_bs` (body frame).
    #[inline(always)]
    pub fn station_velocity(&self, b: BodyId, p_bs: &Vector3<T>) -> Vector3<T> {
        let r = self.x_gb(b).r * p_bs;
        linear(&shift_motion(self.v_gb(b), &r))
    }

    /// Coordinate `k` of one body's mobilizer (`k` below its number of q, as the elements
    /// check when the model is built); without the mobilizer's q count, which
    /// [`Self::body_q`] looks up to cut the slice.
    #[inline(always)]
    pub fn q_of(&self, b: BodyId, k: usize) -> T {
        self.state.q[self.model.bodies[b.0].q_start + k]
    }

    /// Speed `k` of one body's mobilizer (`k` below its number of u), like [`Self::q_of`].
    #[inline(always)]
    pub fn u_of(&self, b: BodyId, k: usize) -> T {
        self.state.u[self.model.bodies[b.0].u_start + k]
    }

    /// The q of one body's mobilizer.
    pub fn body_q(&self, b: BodyId) -> &[T] {
        self.state.body_q(self.model, b)
    }

    /// The u of one body's mobilizer.
    pub fn body_u(&self, b: BodyId) -> &[T] {
        self.state.body_u(self.model, b)
    }

    /// A discrete variable's value.
    pub fn discrete(&self, id: DiscreteVarId) -> &[T] {
        self.state.discrete(self.model, id)
    }

    /// The model's force-element controls (muscles' and OpenSim actuators' excitations set
    /// through [`crate::Model::set_controls`]; see [`crate::muscles::Excitation::Control`]).
    pub fn force_controls(&self) -> &[T] {
        match self.model.controls {
            Some((var, start)) => &self.state.discrete(self.model, var)[start..],
            None => &[],
        }
    }

    /// A continuous auxiliary variable's value.
    pub fn z(&self, id: ZId) -> T {
        self.state.z[id.0]
    }

    /// An auto-update variable's value in the state (the value swapped in at the last step).
    pub fn auto_update(&self, id: AutoUpdateVarId) -> &[T] {
        self.state.auto_update(self.model, id)
    }
}

/// Where force elements write their forces and auto-update values.
pub struct ForceAccumulator<'a, T: Real> {
    pub(crate) model: &'a Tree<T>,
    pub(crate) x_gb: &'a [Transform<T>],
    pub(crate) body_forces: &'a mut [SpatialVec<T>],
    pub(crate) mobility_forces: &'a mut [T],
    pub(crate) auto_update_cache: &'a mut [T],
    pub(crate) auto_update_valid: &'a mut [bool],
    pub(crate) zdot: &'a mut [T],
    pub(crate) contact_scratch: &'a mut ContactScratch<T>,
}

impl<'a, T: Real> ForceAccumulator<'a, T> {
    /// Adds force `f_g` (in Ground, N) at station `p_bs` (body frame) of body `b`.
    #[inline(always)]
    pub fn add_station_force(&mut self, b: BodyId, p_bs: &Vector3<T>, f_g: &Vector3<T>) {
        let r = self.x_gb[b.0].r * p_bs;
        self.body_forces[b.0] += spatial(r.cross(f_g), *f_g);
    }

    /// Adds force `f_g` (in Ground, N) at the Ground point `p_g` to body `b`.
    #[inline(always)]
    pub fn add_force_at_point(&mut self, b: BodyId, p_g: &Vector3<T>, f_g: &Vector3<T>) {
        let r = p_g - self.x_gb[b.0].p;
        self.body_forces[b.0] += spatial(r.cross(f_g), *f_g);
    }

    /// Borrows the reusable contact buffers (give them back with `put_contact_scratch`).
    pub fn take_contact_scratch(&mut self) -> ContactScratch<T> {
        std::mem::take(self.contact_scratch)
    }

    /// Returns the contact buffers taken with `take_contact_scratch`.
    pub fn put_contact_scratch(&mut self, scratch: ContactScratch<T>) {
        *self.contact_scratch = scratch;
    }

    /// Adds a torque `m_g` (in Ground, N·m) to body `b`.
    #[inline(always)]
    pub fn add_torque(&mut self, b: BodyId, m_g: &Vector3<T>) {
        self.body_forces[b.0] += spatial(*m_g, Vector3::zeros());
    }

    /// Adds a spatial force (moment about the body origin, then force; Ground) to body `b`.
    #[inline(always)]
    pub fn add_body_force(&mut self, b: BodyId, f: &SpatialVec<T>) {
        self.body_forces[b.0] += f;
    }

    /// Adds a generalized force to u number `k` of body `b`'s mobilizer.
    #[inline(always)]
    pub fn add_mobility_force(&mut self, b: BodyId, k: usize, f: T) {
        self.mobility_forces[self.model.bodies[b.0].u_start + k] += f;
    }

    /// Sets the time derivative of a continuous auxiliary variable.
    #[inline(always)]
    pub fn set_zdot(&mut self, id: ZId, value: T) {
        self.zdot[id.0] = value;
    }

    /// Records the next value of an auto-update variable (swapped in after the step).
    pub fn set_auto_update(&mut self, id: AutoUpdateVarId, value: &[T]) {
        let r = self.model.auto_update.range(id.0);
        self.auto_update_cache[r].copy_from_slice(value);
        self.auto_update_valid[id.0] = true;
    }
}

/// Checks that a body index exists in `bodies`.
pub(crate) fn check_body<T: Real>(bodies: &[Body<T>], b: BodyId) -> Result<(), ModelError> {
    if b.0 < bodies.len() {
        Ok(())
    } else {
        Err(invalid!("body index {} does not exist", b.0))
    }
}

/// Checks that a body exists and its mobilizer has a u number `k`.
pub(crate) fn check_mobility<T: Real>(
    bodies: &[Body<T>],
    b: BodyId,
    k: usize,
    nq: bool,
) -> Result<(), ModelError> {
    check_body(bodies, b)?;
    let body = &bodies[b.0];
    let n = if nq { body.nq() } else { body.nu() };
    if k >= n {
        let what = if nq { "coordinate" } else { "speed" };
        return Err(invalid!(
            "body '{}' ({} mobilizer) has no {what} number {k}",
            body.name,
            body.mobilizer
        ));
    }
    Ok(())
}

/// Checks that a parameter is finite (and, if `non_negative`, not negative).
pub(crate) fn check_param<T: Real>(name: &str, v: T, non_negative: bool) -> Result<(), ModelError> {
    let x = v.re();
    if !x.is_finite() || (non_negative && x < 0.0) {
        let need = if non_negative {
            "finite and non-negative"
        } else {
            "finite"
        };
        return Err(invalid!("{name} must be {need}, got {x}"));
    }
    Ok(())
}
