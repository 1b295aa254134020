//! `ModelBuilder`: add bodies and force elements, validate, and build an immutable [`Model`].

use super::Force;
use super::{Body, BodyDef, Model, SlotLayout};
use crate::constraints::{Constraint, ConstraintId, ConstraintRows, CoordinateRate};
use crate::error::{Error, ModelError, Result};
use crate::forces::ForceElement;
use crate::ids::{AutoUpdateVarId, BodyId, DiscreteVarId, ForceId, ZId};
use crate::math::MassProperties;
use crate::mobilizer::Mobilizer;
use crate::scalar::Real;
use crate::tree::body_checks::{check_mass_of_subtrees, validate_body, InertiaCheck};
use crate::tree::Tree;
use crate::unilateral::{Underlying, UnilateralContact, UnilateralContactId};
use std::sync::Arc;

/// Builds a [`Model`] one body and force element at a time.
///
/// ```
/// use ferrobody::prelude::*;
/// let mut b = ModelBuilder::<f64>::new();
/// let rod = MassProperties::new(1.0, Vector3::new(0.5, 0.0, 0.0),
///     Matrix3::from_diagonal(&Vector3::new(0.0, 1.0 / 12.0, 1.0 / 12.0)));
/// let link = b.add_body(BodyDef::new("link", BodyId::GROUND, Mobilizer::Pin, rod)).unwrap();
/// b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
/// let model = b.build().unwrap();
/// assert_eq!((model.nq(), model.nu(), model.body_id("link")), (1, 1, Some(link)));
/// ```
pub struct ModelBuilder<T: Real = f64> {
    bodies: Vec<Body<T>>,
    /// Body name → index, so that name lookups cost O(1) (a 100 000-body scene looked every
    /// name up in a list: quadratic loading).
    names: std::collections::HashMap<String, usize>,
    forces: Vec<Force<T>>,
    default_z: Vec<T>,
    discrete: SlotLayout<T>,
    auto_update: SlotLayout<T>,
    disabled_by_default: Vec<bool>,
    constraints: Vec<Constraint<T>>,
    constraint_disabled_by_default: Vec<bool>,
    unilateral: Vec<UnilateralContact<T>>,
    actuators: Vec<crate::actuators::Actuator<T>>,
    /// The names of the force-element controls, in order.
    force_controls: Vec<String>,
    /// Whether inertias that violate the triangle inequality are accepted (OpenSim's models).
    inertia_check: InertiaCheck,
}

impl<T: Real> Default for ModelBuilder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real> ModelBuilder<T> {
    /// A builder holding only Ground (named "ground").
    pub fn new() -> Self {
        let ground = Body::new(
            BodyDef::new(
                "ground",
                BodyId::GROUND,
                Mobilizer::Weld,
                MassProperties::zero(),
            ),
            0,
            0,
        );
        Self {
            names: std::collections::HashMap::from([("ground".to_string(), 0)]),
            bodies: vec![ground],
            forces: Vec::new(),
            default_z: Vec::new(),
            discrete: SlotLayout::default(),
            auto_update: SlotLayout::default(),
            disabled_by_default: Vec::new(),
            constraints: Vec::new(),
            constraint_disabled_by_default: Vec::new(),
            unilateral: Vec::new(),
            actuators: Vec::new(),
            force_controls: Vec::new(),
            inertia_check: InertiaCheck::Physical,
        }
    }

    /// Number of bodies so far, Ground included.
    pub fn nbodies(&self) -> usize {
        self.bodies.len()
    }

    /// Number of force elements added so far.
    pub fn force_count(&self) -> usize {
        self.forces.len()
    }

    /// Finds a body added so far by name.
    pub fn body_id(&self, name: &str) -> Option<BodyId> {
        self.names.get(name).copied().map(BodyId)
    }

    /// The first q and u indices of a body added so far (`(0, 0)` for an unknown id).
    pub fn body_offsets(&self, id: BodyId) -> (usize, usize) {
        self.bodies
            .get(id.0)
            .map_or((0, 0), |b| (b.q_start, b.u_start))
    }

    /// The mobilizer of a body added so far.
    pub fn mobilizer(&self, id: BodyId) -> Option<Mobilizer> {
        self.bodies.get(id.0).map(|b| b.mobilizer)
    }

    /// Accepts, from now on, body inertias whose principal moments violate the triangle
    /// inequality (still finite, symmetric and positive semi-definite): no rigid body has
    /// them, but OpenSim runs its models that do (`Body::getInertia` in a release build), so
    /// the .osim reader warns instead of refusing.
    pub fn accept_triangle_inequality_violations(&mut self) {
        self.inertia_check = self.inertia_check.min(InertiaCheck::SemiDefinite);
    }

    /// Accepts, from now on, any finite symmetric body inertia, indefinite ones too: OpenSim
    /// runs such models as given (Simbody checks an `Inertia` only in debug builds; opensim-
    /// core's thoracoscapular model has a radius with principal moments 3.9e-4, 1.2e-4,
    /// −4.5e-6), so the .osim reader warns instead of refusing.
    pub fn accept_indefinite_inertias(&mut self) {
        self.inertia_check = InertiaCheck::Symmetric;
    }

    /// Adds a body after validating its definition; returns its id.
    pub fn add_body(&mut self, def: BodyDef<T>) -> Result<BodyId> {
        if self.names.contains_key(&def.name) {
            return Err(Error::Model(ModelError::Duplicate {
                kind: "body",
                name: def.name,
            }));
        }
        validate_body(&def, &self.bodies, self.inertia_check)?;
        self.names.insert(def.name.clone(), self.bodies.len());
        let (q_start, u_start) = self
            .bodies
            .last()
            .map_or((0, 0), |b| (b.q_start + b.nq(), b.u_start + b.nu()));
        self.bodies.push(Body::new(def, q_start, u_start));
        Ok(BodyId(self.bodies.len() - 1))
    }

    /// Adds uniform gravity `g` (m/s², in Ground).
    pub fn add_gravity(&mut self, g: nalgebra::Vector3<T>) -> ForceId {
        self.push_force(Force::Gravity(crate::forces::Gravity { g }))
    }

    /// Adds a built-in force element after checking its bodies (which must already exist),
    /// coordinates and parameters, and that a control it reads was added
    /// ([`Self::add_force_control`]).
    pub fn add_force(&mut self, force: Force<T>) -> Result<ForceId> {
        force
            .validate(&self.bodies)
            .map_err(|m| Error::model(format!("{}: {m}", force.name())))?;
        if let Some(k) = force.control_index() {
            if k >= self.force_controls.len() {
                return Err(Error::model(format!(
                    "{}: reads force-element control {k}, but the builder has {}",
                    force.name(),
                    self.force_controls.len()
                )));
            }
        }
        Ok(self.push_force(force))
    }

    /// Adds a control for force elements (a muscle's or an OpenSim actuator's excitation,
    /// [`crate::muscles::Excitation::Control`]) and returns its index among them; in the
    /// model's control vector it follows every actuator's control. Errors on a name that a
    /// control already has.
    pub fn add_force_control(&mut self, name: &str) -> Result<usize> {
        if self.force_controls.iter().any(|n| n == name)
            || self.actuators.iter().any(|a| a.name == name)
        {
            return Err(Error::model(format!(
                "control '{name}': a control of this name already exists"
            )));
        }
        self.force_controls.push(name.to_string());
        Ok(self.force_controls.len() - 1)
    }

    /// Adds a user-written force element.
    pub fn add_custom_force(&mut self, element: Arc<dyn ForceElement<T>>) -> ForceId {
        self.push_force(Force::Custom(element))
    }

    fn push_force(&mut self, force: Force<T>) -> ForceId {
        self.forces.push(force);
        self.disabled_by_default.push(false);
        ForceId(self.forces.len() - 1)
    }

    /// Makes a force element start disabled in the default state (Simbody
    /// `Force::setDisabledByDefault`); `Model::enable_force` turns it on in a state.
    /// Errors if `id` is not a force element of this builder.
    pub fn set_force_disabled_by_default(&mut self, id: ForceId, disabled: bool) -> Result<()> {
        let count = self.disabled_by_default.len();
        let flag = self.disabled_by_default.get_mut(id.0).ok_or_else(|| {
            Error::model(format!(
                "force id {} is out of range: the builder has {count} force elements",
                id.0
            ))
        })?;
        *flag = disabled;
        Ok(())
    }

    /// Allocates a continuous auxiliary state variable `z` with an initial value.
    pub fn add_z(&mut self, initial: T) -> ZId {
        self.default_z.push(initial);
        ZId(self.default_z.len() - 1)
    }

    /// Allocates a discrete state variable (changed only between steps) with default values.
    pub fn add_discrete_variable(&mut self, name: &str, defaults: &[T]) -> DiscreteVarId {
        DiscreteVarId(self.discrete.push(name, defaults))
    }

    /// Allocates an auto-update discrete variable: force elements compute its next value during
    /// realization, and the integrator swaps that value in after each accepted step (notes §1.9).
    pub fn add_auto_update_variable(&mut self, name: &str, defaults: &[T]) -> AutoUpdateVarId {
        AutoUpdateVarId(self.auto_update.push(name, defaults))
    }

    /// Adds a constraint element between two bodies added so far; checks its bodies and
    /// parameters.
    /// A coordinate constraint's coordinates must exist and have `q̇ = u`, except that a lock
    /// or a prescribed motion may hold an angle of an Euler-angle mobilizer (through its
    /// kinematic equation, as Simbody's `PrescribedMotion` does).
    pub fn add_constraint(&mut self, mut constraint: Constraint<T>) -> Result<ConstraintId> {
        constraint.validate(self.bodies.len())?;
        let kind = constraint.kind_name();
        let holds_q = matches!(
            constraint,
            Constraint::CoordinateLock(_) | Constraint::PrescribedCoordinate(_)
        );
        for c in constraint.coordinates_mut() {
            let body = &self.bodies[c.body.0];
            let mobilizer = body.mobilizer;
            // Without quaternions a mobilizer's q and u pair one to one (Euler angles).
            let through_n = holds_q && mobilizer.quaternion_offset().is_none();
            if c.body == BodyId::GROUND
                || c.coordinate >= body.nu()
                || !(mobilizer.qdot_is_u() || through_n)
            {
                return Err(Error::model(format!(
                    "{kind} constraint: body '{}' ({} mobilizer) has no coordinate number {} whose q̇ = u",
                    body.name, body.mobilizer, c.coordinate
                )));
            }
            c.q = body.q_start + c.coordinate;
            c.u = body.u_start + c.coordinate;
            if !mobilizer.qdot_is_u() {
                c.rate = CoordinateRate::Euler(mobilizer);
            }
        }
        if let Constraint::SphereOnSphereContact(c) = &mut constraint {
            let name = format!("sphere_on_sphere_{}", self.constraints.len());
            c.parameters = DiscreteVarId(self.discrete.push(&name, &c.default_parameters()));
            c.index = ConstraintId(self.constraints.len());
        }
        if let Constraint::CoordinateLock(c) = &mut constraint {
            let name = format!("coordinate_lock_{}", self.constraints.len());
            c.value = DiscreteVarId(self.discrete.push(&name, &[T::c(c.default_value)]));
        }
        self.constraints.push(constraint);
        self.constraint_disabled_by_default.push(false);
        Ok(ConstraintId(self.constraints.len() - 1))
    }

    /// Makes a constraint start disabled in the default state (Simbody
    /// `Constraint::setDisabledByDefault`).
    pub fn set_constraint_disabled_by_default(
        &mut self,
        id: ConstraintId,
        disabled: bool,
    ) -> Result<()> {
        let slot = self
            .constraint_disabled_by_default
            .get_mut(id.0)
            .ok_or_else(|| Error::model(format!("constraint id {} is out of range", id.0)))?;
        *slot = disabled;
        Ok(())
    }

    /// Adds a unilateral contact (seed `UnilateralContact`) between bodies added so far; checks
    /// its bodies and coefficients. It starts disabled; the rigid-contact time stepper
    /// (integrator kind `semi-explicit-euler`) enables it while it is proximal.
    pub fn add_unilateral_contact(
        &mut self,
        mut contact: UnilateralContact<T>,
    ) -> Result<UnilateralContactId> {
        contact.validate(&self.bodies)?;
        if let Underlying::Constraint(Constraint::SphereOnSphereContact(c)) =
            &mut contact.underlying
        {
            let name = format!("unilateral_sphere_sphere_{}", self.unilateral.len());
            c.parameters = DiscreteVarId(self.discrete.push(&name, &c.default_parameters()));
        }
        self.unilateral.push(contact);
        Ok(UnilateralContactId(self.unilateral.len() - 1))
    }

    /// Adds an actuator (its control is the next entry of the control vector); returns its
    /// index. Errors on an unknown body, a coordinate the mobilizer lacks or whose q̇ ≠ u, a
    /// zero gear, an inverted range, a bad gain, or a name already taken.
    pub fn add_actuator(&mut self, actuator: crate::actuators::Actuator<T>) -> Result<usize> {
        if let Some(problem) = self.actuator_problem(&actuator) {
            return Err(Error::model(format!(
                "actuator '{}': {problem}",
                actuator.name
            )));
        }
        self.actuators.push(actuator);
        Ok(self.actuators.len() - 1)
    }

    /// What is wrong with `actuator` for this model, if anything (what [`Self::add_actuator`]
    /// refuses, without the actuator's name).
    pub(crate) fn actuator_problem(
        &self,
        actuator: &crate::actuators::Actuator<T>,
    ) -> Option<ModelError> {
        if self.actuators.iter().any(|a| a.name == actuator.name) {
            return Some("an actuator of this name already exists".into());
        }
        if self.force_controls.contains(&actuator.name) {
            return Some("a force-element control of this name already exists".into());
        }
        actuator.validate(&self.bodies).err()
    }

    /// Validates the whole model and builds it.
    pub fn build(mut self) -> Result<Model<T>> {
        check_mass_of_subtrees(&self.bodies)?;
        Body::mark_tree_flags(&mut self.bodies);
        let last = self.bodies.last().expect("ground is always present");
        let (nq, nu) = (last.q_start + last.nq(), last.u_start + last.nu());
        let mut default_q = vec![T::zero(); nq];
        let mut quaternion_starts = Vec::new();
        for b in &self.bodies[1..] {
            b.mobilizer.default_q(&mut default_q[b.q_range()]);
            if let Some(k) = b.mobilizer.quaternion_offset() {
                quaternion_starts.push(b.q_start + k);
            }
        }
        // One discrete flag per force element: 1 enabled, 0 disabled.
        let flags: Vec<T> = self
            .disabled_by_default
            .iter()
            .map(|&d| if d { T::zero() } else { T::one() })
            .collect();
        let force_enabled = DiscreteVarId(self.discrete.push("force_enabled", &flags));
        let flags: Vec<T> = self
            .constraint_disabled_by_default
            .iter()
            .map(|&d| if d { T::zero() } else { T::one() })
            .collect();
        let constraint_enabled = DiscreteVarId(self.discrete.push("constraint_enabled", &flags));
        let nu_contacts = self.unilateral.len();
        let unilateral_enabled = DiscreteVarId(
            self.discrete
                .push("unilateral_enabled", &vec![T::zero(); nu_contacts]),
        );
        let unilateral_multipliers = DiscreteVarId(
            self.discrete
                .push("unilateral_multipliers", &vec![T::zero(); 3 * nu_contacts]),
        );
        let nctrl = self.actuators.len() + self.force_controls.len();
        let controls = DiscreteVarId(self.discrete.push("controls", &vec![T::zero(); nctrl]));
        let (mut start, mut position_start) = (0, 0);
        let constraint_rows: Vec<ConstraintRows> = self
            .constraints
            .iter()
            .map(|c| {
                let (holonomic, nonholonomic) = c.row_counts();
                let rows = ConstraintRows {
                    start,
                    position_start,
                    holonomic,
                    nonholonomic,
                };
                start += holonomic + nonholonomic;
                position_start += holonomic;
                rows
            })
            .collect();
        let qdot_is_u = self.bodies.iter().all(|b| b.mobilizer.qdot_is_u());
        let tree = Tree {
            bodies: self.bodies,
            body_names: self.names,
            nq,
            nu,
            default_q,
            default_z: self.default_z,
            discrete: self.discrete,
            auto_update: self.auto_update,
            quaternion_starts,
            qdot_is_u,
            controls: Some((controls, self.actuators.len())),
        };
        let mut model = Model {
            tree,
            constraints: self.constraints,
            constraint_rows,
            constraint_enabled,
            n_constraint_rows: start,
            n_holonomic_rows: position_start,
            unilateral: self.unilateral,
            unilateral_enabled,
            unilateral_multipliers,
            force_enabled,
            forces: self.forces,
            actuators: self.actuators,
            force_control_names: self.force_controls,
            controls,
            planar_xy: false,
        };
        model.planar_xy = super::planar_xy::is_planar_xy_model(&model);
        Ok(model)
    }
}
