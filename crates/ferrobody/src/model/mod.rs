//! The model: the immutable description of a multibody system, assembled from its parts.
//!
//! A [`Model`] is the system layer of the crate (ARCHITECTURE.md, "layers"): it holds the
//! [`Tree`] (bodies in tree order, Ground first, and the layout of the state), the force set
//! ([`Force`]: every force and contact element, with their enabled flags and parameters by
//! name), the constraint elements and the unilateral contacts. It dereferences to its tree, so
//! the tree algorithms take a model where they take a tree. It is built once by
//! [`ModelBuilder`] and never changes during a simulation; what changes lives in [`State`],
//! and what is computed from the state lives in [`Data`] (Pinocchio's Model/Data split;
//! Simbody's System of subsystems).

mod actuation;
mod builder;
pub(crate) mod constraint_queries;
mod contact_builders;
mod force_set;
#[cfg(feature = "parallel")]
mod muscle_helper;
mod parallel_muscles;
mod parameters;
pub(crate) mod planar_xy;
mod unilateral_queries;

pub use crate::tree::planar;
pub use crate::tree::{Body, BodyDef, SlotLayout, Tree, VarSlot, MAX_MASS_PROPERTY};
pub use builder::ModelBuilder;
pub use force_set::{
    calc_all_forces, element_contribution, potential_energy, ElementContribution, Force,
};
#[cfg(feature = "parallel")]
pub(crate) use muscle_helper::start_muscle_helper;
pub(crate) use parallel_muscles::{muscle_split, muscles_worth_parallel};

use crate::constraints::{Constraint, ConstraintId, ConstraintRows};
use crate::data::Data;
use crate::error::{Error, Result};
use crate::ids::ForceId;
use crate::scalar::Real;
use crate::state::State;

/// A multibody model (immutable once built, but for force parameters: `set_force_parameter`).
#[derive(Clone)]
pub struct Model<T: Real = f64> {
    /// The bodies, their mobilizers and the layout of the state (the model dereferences to it).
    pub(crate) tree: Tree<T>,
    pub(crate) forces: Vec<Force<T>>,
    /// Discrete variable holding one enabled flag (1 or 0) per force element.
    pub(crate) force_enabled: crate::ids::DiscreteVarId,
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
    /// Actuators, in control order, and the discrete variable holding the controls (one per
    /// actuator; [`Model::controls`]).
    pub(crate) actuators: Vec<crate::actuators::Actuator<T>>,
    pub(crate) controls: crate::ids::DiscreteVarId,
    /// The names of the force-element controls, which follow the actuators' in the control
    /// vector ([`crate::ModelBuilder::add_force_control`]).
    pub(crate) force_control_names: Vec<String>,
    /// Whether the integrator's derivative runs on the two-dimensional path
    /// ([`crate::pipeline::planar_xy`]).
    pub(crate) planar_xy: bool,
}

impl<T: Real> std::ops::Deref for Model<T> {
    type Target = Tree<T>;

    /// The model's tree: bodies, mobilizers and the layout of the state, which the tree
    /// algorithms, the state and the data take.
    fn deref(&self) -> &Tree<T> {
        &self.tree
    }
}

impl<T: Real> Model<T> {
    /// Whether every body moves in Ground's xy plane (every joint a Weld, Pin, Slider or
    /// Planar whose frames turn about z only; no constraints, no unilateral contacts, no
    /// user-written force element): then the integrators' state derivative runs in two
    /// dimensions (docs/design.md, "The stage pipeline").
    pub fn is_planar_xy(&self) -> bool {
        self.planar_xy
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
                Error::model(format!(
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
    /// project or [`assemble`](crate::pipeline::assembly::assemble) afterwards.
    pub fn enable_constraint(&self, state: &mut State<T>, id: ConstraintId) -> Result<()> {
        self.set_constraint_flag(state, id, T::one())
    }

    /// Locks a coordinate where it is in `state`: the [`CoordinateLock`] `id` is enabled and
    /// holds its coordinate at the current value (OpenSim `Coordinate::setLocked(s, true)`).
    /// Errors if `id` is not a coordinate lock.
    ///
    /// [`CoordinateLock`]: crate::constraints::CoordinateLock
    pub fn lock_coordinate(&self, state: &mut State<T>, id: ConstraintId) -> Result<()> {
        let Constraint::CoordinateLock(lock) = self.constraint(id)? else {
            return Err(Error::model(format!(
                "constraint id {} is a {}, not a CoordinateLock",
                id.0,
                self.constraints[id.0].kind_name()
            )));
        };
        let q = state.q[lock.coordinate.q];
        state.discrete_mut(self, lock.value)[0] = q;
        self.enable_constraint(state, id)
    }

    fn set_constraint_flag(&self, state: &mut State<T>, id: ConstraintId, v: T) -> Result<()> {
        if id.0 >= self.constraints.len() {
            return Err(self.bad_constraint(id));
        }
        state.discrete_mut(self, self.constraint_enabled)[id.0] = v;
        Ok(())
    }

    fn bad_constraint(&self, id: ConstraintId) -> Error {
        Error::model(format!(
            "constraint id {} is out of range: the model has {} constraints",
            id.0,
            self.constraints.len()
        ))
    }

    /// The force elements.
    pub fn forces(&self) -> &[Force<T>] {
        &self.forces
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
        Ok(Model {
            tree: self.tree.cast(),
            forces,
            force_enabled: self.force_enabled,
            constraints: self.constraints.iter().map(|c| c.cast()).collect(),
            constraint_rows: self.constraint_rows.clone(),
            constraint_enabled: self.constraint_enabled,
            n_constraint_rows: self.n_constraint_rows,
            n_holonomic_rows: self.n_holonomic_rows,
            unilateral: self.unilateral.iter().map(|c| c.cast()).collect(),
            unilateral_enabled: self.unilateral_enabled,
            unilateral_multipliers: self.unilateral_multipliers,
            actuators: self.actuators.iter().map(|a| a.cast()).collect(),
            controls: self.controls,
            force_control_names: self.force_control_names.clone(),
            planar_xy: self.planar_xy,
        })
    }
}

impl<T: Real> Data<T> {
    /// Data sized for `model` (its tree and constraint rows), with nothing realized.
    pub fn new(model: &Model<T>) -> Self {
        Data::with_constraint_rows(&model.tree, model.n_constraint_rows, model.n_holonomic_rows)
    }
}
