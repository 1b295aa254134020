//! The model: the immutable description of a multibody system.
//!
//! A [`Model`] holds the bodies in tree order (every parent before its children; body 0 is
//! Ground), the force elements, and the layout of the state (q, u, z, discrete and auto-update
//! discrete variables). It is built once by [`ModelBuilder`] and never changes during a
//! simulation; what changes lives in [`State`], and what is computed from the state
//! lives in [`Data`](crate::Data) (Pinocchio's Model/Data split).

mod body;
mod body_checks;
mod builder;
mod layout;
pub mod planar;

pub use body::{Body, BodyDef};
pub use builder::ModelBuilder;
pub use layout::{SlotLayout, VarSlot};

use crate::constraints::{Constraint, ConstraintId, ConstraintRows};
use crate::error::{Error, Result};
use crate::forces::Force;
use crate::ids::{BodyId, ForceId};
use crate::scalar::Real;
use crate::state::State;

/// A multibody model (immutable once built, but for force parameters: `set_force_parameter`).
#[derive(Clone)]
pub struct Model<T: Real = f64> {
    pub(crate) bodies: Vec<Body<T>>,
    pub(crate) forces: Vec<Force<T>>,
    pub(crate) nq: usize,
    pub(crate) nu: usize,
    pub(crate) default_q: Vec<T>,
    pub(crate) default_z: Vec<T>,
    pub(crate) discrete: SlotLayout<T>,
    /// Discrete variable holding one enabled flag (1 or 0) per force element.
    pub(crate) force_enabled: crate::ids::DiscreteVarId,
    pub(crate) auto_update: SlotLayout<T>,
    /// Constraint elements, their rows, and the discrete variable of their enabled flags.
    pub(crate) constraints: Vec<Constraint<T>>,
    pub(crate) constraint_rows: Vec<ConstraintRows>,
    pub(crate) constraint_enabled: crate::ids::DiscreteVarId,
    /// Total constraint rows, and how many of them are holonomic.
    pub(crate) n_constraint_rows: usize,
    pub(crate) n_holonomic_rows: usize,
    /// Unilateral contacts, and the discrete variables of their enabled flags and multipliers
    /// (three per contact: normal, friction x, friction y).
    pub(crate) unilateral: Vec<crate::unilateral::UnilateralContact<T>>,
    pub(crate) unilateral_enabled: crate::ids::DiscreteVarId,
    pub(crate) unilateral_multipliers: crate::ids::DiscreteVarId,
    /// Offsets of the quaternions within q (for projection and error norms).
    pub(crate) quaternion_starts: Vec<usize>,
    /// Body name → index (O(1) lookups).
    pub(crate) body_names: std::collections::HashMap<String, usize>,
    /// Whether every mobilizer has q̇ = u (no quaternion or Euler-angle Ball/Free), so that
    /// q̇ is one copy of u.
    pub(crate) qdot_is_u: bool,
    /// Whether the integrator's derivative runs on the two-dimensional path
    /// ([`crate::algorithms::planar_xy`]).
    pub(crate) planar_xy: bool,
}

impl<T: Real> Model<T> {
    /// All bodies, Ground first, in tree order.
    pub fn bodies(&self) -> &[Body<T>] {
        &self.bodies
    }

    /// One body.
    pub fn body(&self, id: BodyId) -> &Body<T> {
        &self.bodies[id.0]
    }

    /// Number of bodies including Ground.
    pub fn nbodies(&self) -> usize {
        self.bodies.len()
    }

    /// Finds a body by name.
    pub fn body_id(&self, name: &str) -> Option<BodyId> {
        self.body_names.get(name).copied().map(BodyId)
    }

    /// Number of generalized coordinates.
    pub fn nq(&self) -> usize {
        self.nq
    }

    /// The number of q Simbody allocates for this tree: nq plus one for every Ball or Free
    /// mobilizer in Euler-angle mode (Simbody keeps the quaternion's slot count there). The
    /// integrators' error norm divides by it.
    pub fn simbody_q_count(&self) -> usize {
        let euler = self.bodies[1..]
            .iter()
            .filter(|b| {
                matches!(
                    b.mobilizer,
                    crate::mobilizer::Mobilizer::BallEuler | crate::mobilizer::Mobilizer::FreeEuler
                )
            })
            .count();
        self.nq + euler
    }

    /// Whether every body moves in Ground's xy plane (every joint a Weld, Pin, Slider or
    /// Planar whose frames turn about z only; no constraints, no unilateral contacts, no
    /// user-written force element): then the integrators' state derivative runs in two
    /// dimensions (ARCHITECTURE.md, "the pipeline").
    pub fn is_planar_xy(&self) -> bool {
        self.planar_xy
    }

    /// Number of generalized speeds.
    pub fn nu(&self) -> usize {
        self.nu
    }

    /// Number of continuous auxiliary variables.
    pub fn nz(&self) -> usize {
        self.default_z.len()
    }

    /// Whether any force element is a contact element.
    pub fn has_contact(&self) -> bool {
        self.forces.iter().any(|f| {
            matches!(
                f,
                Force::HuntCrossley(_)
                    | Force::ElasticFoundation(_)
                    | Force::SmoothSphereHalfSpace(_)
                    | Force::ExponentialSpring(_)
            )
        })
    }

    /// Whether force element `id` is enabled in `state` (Simbody `Force::isDisabled`, negated).
    /// An id that names no force element of this model is reported as not enabled.
    pub fn is_force_enabled(&self, state: &State<T>, id: ForceId) -> bool {
        state
            .discrete(self, self.force_enabled)
            .get(id.0)
            .is_some_and(|flag| flag.re() != 0.0)
    }

    /// Disables force element `id` in `state`: it applies no force and stores no energy from
    /// the next evaluation on (Simbody `Force::disable`). A disabled exponential spring also
    /// stops updating its anchor point and Sliding state. Errors if `id` is not a force of
    /// this model.
    pub fn disable_force(&self, state: &mut State<T>, id: ForceId) -> Result<()> {
        self.set_force_flag(state, id, T::zero())
    }

    /// Enables force element `id` in `state` (Simbody `Force::enable`). Errors if `id` is not
    /// a force of this model.
    pub fn enable_force(&self, state: &mut State<T>, id: ForceId) -> Result<()> {
        self.set_force_flag(state, id, T::one())
    }

    fn set_force_flag(&self, state: &mut State<T>, id: ForceId, value: T) -> Result<()> {
        let slot = state
            .discrete_mut(self, self.force_enabled)
            .get_mut(id.0)
            .ok_or_else(|| {
                Error::Model(format!(
                    "force id {} is out of range: the model has {} force elements",
                    id.0,
                    self.forces.len()
                ))
            })?;
        *slot = value;
        Ok(())
    }

    /// The constraint elements.
    pub fn constraints(&self) -> &[Constraint<T>] {
        &self.constraints
    }

    /// One constraint element; errors if `id` is not a constraint of this model.
    pub fn constraint(&self, id: ConstraintId) -> Result<&Constraint<T>> {
        self.constraints
            .get(id.0)
            .ok_or_else(|| self.bad_constraint(id))
    }

    /// Where a constraint's rows live in the multiplier and error vectors of
    /// [`Data::constraints`](crate::Data); errors if `id` is not a constraint of this model.
    pub fn constraint_rows(&self, id: ConstraintId) -> Result<ConstraintRows> {
        self.constraint_rows
            .get(id.0)
            .copied()
            .ok_or_else(|| self.bad_constraint(id))
    }

    /// Total number of constraint equations (rows), enabled or not.
    pub fn n_constraint_rows(&self) -> usize {
        self.n_constraint_rows
    }

    /// Whether the model has any constraint element.
    pub fn has_constraints(&self) -> bool {
        !self.constraints.is_empty()
    }

    /// Whether constraint `id` is enabled in `state` (Simbody `Constraint::isDisabled`,
    /// negated); false for an id that names no constraint.
    pub fn is_constraint_enabled(&self, state: &State<T>, id: ConstraintId) -> bool {
        id.0 < self.constraints.len() && self.constraint_flag(state, id.0)
    }

    pub(crate) fn constraint_flag(&self, state: &State<T>, i: usize) -> bool {
        state.discrete(self, self.constraint_enabled)[i].re() != 0.0
    }

    /// Disables constraint `id` in `state` from the next evaluation on: its rows become zero
    /// and it applies no force (Simbody `Constraint::disable`).
    pub fn disable_constraint(&self, state: &mut State<T>, id: ConstraintId) -> Result<()> {
        self.set_constraint_flag(state, id, T::zero())
    }

    /// Enables constraint `id` in `state` without satisfying it (Simbody `Constraint::enable`);
    /// project or [`assemble`](crate::constraints::assembly::assemble) afterwards.
    pub fn enable_constraint(&self, state: &mut State<T>, id: ConstraintId) -> Result<()> {
        self.set_constraint_flag(state, id, T::one())
    }

    fn set_constraint_flag(&self, state: &mut State<T>, id: ConstraintId, v: T) -> Result<()> {
        if id.0 >= self.constraints.len() {
            return Err(self.bad_constraint(id));
        }
        state.discrete_mut(self, self.constraint_enabled)[id.0] = v;
        Ok(())
    }

    fn bad_constraint(&self, id: ConstraintId) -> Error {
        Error::Model(format!(
            "constraint id {} is out of range: the model has {} constraints",
            id.0,
            self.constraints.len()
        ))
    }

    /// The force elements.
    pub fn forces(&self) -> &[Force<T>] {
        &self.forces
    }

    /// Start indices (in q) of every quaternion.
    pub fn quaternion_starts(&self) -> &[usize] {
        &self.quaternion_starts
    }

    /// Layout of the discrete variables.
    pub fn discrete_layout(&self) -> &SlotLayout<T> {
        &self.discrete
    }

    /// Layout of the auto-update discrete variables.
    pub fn auto_update_layout(&self) -> &SlotLayout<T> {
        &self.auto_update
    }

    /// A state with every variable at its default value and t = 0.
    pub fn default_state(&self) -> State<T> {
        State::new(self)
    }

    /// Converts the model to another scalar type (through `f64`; derivative parts are dropped).
    ///
    /// Fails if the model holds a user-written force element, which cannot be converted.
    pub fn cast<U: Real>(&self) -> crate::Result<Model<U>> {
        let forces = self
            .forces
            .iter()
            .map(|f| f.cast::<U>())
            .collect::<crate::Result<_>>()?;
        let mut bodies: Vec<Body<U>> = self.bodies.iter().map(cast_body).collect();
        Body::mark_tree_flags(&mut bodies);
        Ok(Model {
            bodies,
            forces,
            nq: self.nq,
            nu: self.nu,
            default_q: cast_vec(&self.default_q),
            default_z: cast_vec(&self.default_z),
            discrete: self.discrete.cast(),
            force_enabled: self.force_enabled,
            auto_update: self.auto_update.cast(),
            constraints: self.constraints.iter().map(|c| c.cast()).collect(),
            constraint_rows: self.constraint_rows.clone(),
            constraint_enabled: self.constraint_enabled,
            n_constraint_rows: self.n_constraint_rows,
            n_holonomic_rows: self.n_holonomic_rows,
            unilateral: self.unilateral.iter().map(|c| c.cast()).collect(),
            unilateral_enabled: self.unilateral_enabled,
            unilateral_multipliers: self.unilateral_multipliers,
            quaternion_starts: self.quaternion_starts.clone(),
            qdot_is_u: self.qdot_is_u,
            planar_xy: self.planar_xy,
            body_names: self.body_names.clone(),
        })
    }
}

fn cast_vec<T: Real, U: Real>(v: &[T]) -> Vec<U> {
    v.iter().map(|x| U::c(x.re())).collect()
}

fn cast_body<T: Real, U: Real>(b: &Body<T>) -> Body<U> {
    let def = BodyDef {
        name: b.name.clone(),
        parent: b.parent,
        mobilizer: b.mobilizer,
        x_pf: b.x_pf.cast(),
        x_bm: b.x_bm.cast(),
        mass_properties: b.mass_properties.cast(),
        spatial_transform: b.spatial_transform.clone(),
    };
    Body::new(def, b.q_start, b.u_start)
}
