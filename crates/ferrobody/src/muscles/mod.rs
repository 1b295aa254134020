//! Muscles and the paths they pull along (OpenSim's `Muscle`s on `GeometryPath`s).
//!
//! A [`Muscle`] is a force element: at each evaluation it reads its path's length ℓ and
//! lengthening speed ℓ̇ ([`path::GeometryPath`]), its excitation e(t) (its controller's
//! function of time, or zero when no controller drives it, as in OpenSim), and its states —
//! activation a and, with a compliant tendon, the normalized tendon force — held as the model's
//! continuous auxiliary variables z. It applies its tendon force as a tension along the path and
//! writes the rates of its states. The muscle laws live one per file
//! ([`degroote_fregly`], [`thelen2003`], [`millard2012`] with its curves in [`millard_curves`]).
//! [`path_force`] puts OpenSim's `PathActuator` and `PathSpring` on the same paths. Paths
//! wrap over cylinders ([`wrap_cylinder`]), ellipsoids ([`wrap_ellipsoid`]) and spheres
//! ([`wrap_sphere`]); issue 37 adds tori.

pub mod degroote_fregly;
mod ellipse_closest_point;
mod lmdif;
pub mod millard2012;
pub mod millard_curves;
mod millard_equilibrium;
mod paired;
pub mod path;
mod path_buffer;
pub mod path_force;
pub mod path_wrap;
pub mod pennation;
pub mod rigid_tendon;
pub mod scalar_actuators;
pub mod schutte1993;
mod schutte_equilibrium;
pub mod smooth_curve;
pub mod thelen2003;
mod thelen_equilibrium;
pub mod wrap_cylinder;
pub mod wrap_ellipsoid;
mod wrap_ellipsoid_path;
mod wrap_math;
pub mod wrap_sphere;
mod wrap_surface;
pub mod wrap_torus;

pub use degroote_fregly::{DeGrooteFregly2016, MuscleOutput};
pub use millard2012::{Millard2012, MillardProperties};
pub use path::{CoordinateRef, GeometryPath, PathKinematics, PathPoint};
pub(crate) use path_buffer::PathBuffer;
pub use path_force::{default_ligament_curve, PathForce, PathForceLaw};
pub use path_wrap::{PathWrap, WrapObject, WrapShape};
pub use rigid_tendon::RigidTendon;
pub use schutte1993::Schutte1993;
pub use thelen2003::Thelen2003;
pub use wrap_cylinder::{Quadrant, WrapCylinder};
pub use wrap_ellipsoid::{WrapEllipsoid, WrapMethod};
pub use wrap_sphere::WrapSphere;
pub use wrap_torus::WrapTorus;

use crate::error::{invalid, ModelError};
use crate::forces::{ForceAccumulator, ForceContext, ForceElement, ForceSink};
use crate::ids::ZId;
use crate::math::function::Function;
use crate::scalar::Real;
use crate::tree::Body;
use degroote_fregly::DeGrooteShape;
use thelen2003::ThelenShape;

/// Checks that every named property is finite and greater than zero (OpenSim's message).
fn require_positive(properties: &[(&str, f64)]) -> Result<(), ModelError> {
    match properties
        .iter()
        .find(|(_, v)| !(v.is_finite() && *v > 0.0))
    {
        Some((name, v)) => Err(invalid!("{name} must be greater than zero, but it is {v}")),
        None => Ok(()),
    }
}

/// Where a muscle's excitation comes from.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Excitation {
    /// No controller: zero excitation (OpenSim's default).
    None,
    /// A `PrescribedController`'s function of time.
    Prescribed(Function),
    /// Entry `k` of the model's force-element controls (from
    /// [`crate::ModelBuilder::add_force_control`]): what a simulation, a rollout or an
    /// optimizer sets through [`crate::Model::set_controls`], where these controls follow the
    /// actuators'. It starts at zero, so an OpenSim actuator without a controller stays
    /// unexcited until a control is set.
    Control(usize),
    /// OpenSim's `ToyReflexController` added to another excitation: the stretch reflex
    /// `½ g (|ℓ̇| + ℓ̇) / (ℓ_opt v_max)` of the path's lengthening speed ℓ̇ (m/s), gain g.
    Reflex {
        /// The excitation the reflex adds to (a prescribed one, or none).
        base: Box<Excitation>,
        /// `gain`.
        gain: f64,
        /// `ℓ_opt v_max` (m/s): the muscle's maximum shortening speed.
        max_speed: f64,
    },
}

impl Excitation {
    /// The force-element control this excitation reads, if any.
    pub fn control_index(&self) -> Option<usize> {
        match self {
            Excitation::Control(k) => Some(*k),
            Excitation::Reflex { base, .. } => base.control_index(),
            Excitation::None | Excitation::Prescribed(_) => None,
        }
    }

    /// The excitation at time `t` with the path lengthening at `speed` (m/s), reading
    /// `controls` (the model's force-element controls, [`ForceContext::force_controls`]).
    pub fn at<T: Real>(&self, t: T, speed: T, controls: &[T]) -> T {
        match self {
            Excitation::None => T::zero(),
            Excitation::Prescribed(f) => f.value(t),
            Excitation::Control(k) => controls.get(*k).copied().unwrap_or_else(T::zero),
            Excitation::Reflex {
                base,
                gain,
                max_speed,
            } => {
                let stretch = T::c(0.5 * gain) * (speed.abs() + speed) / T::c(*max_speed);
                base.at(t, speed, controls) + stretch
            }
        }
    }
}

impl MuscleModel {
    /// `ℓ_opt v_max` (m/s), the unnormalized maximum contraction velocity.
    pub fn max_shortening_speed(&self) -> f64 {
        match self {
            MuscleModel::DeGrooteFregly2016(m) => {
                m.optimal_fiber_length * m.max_contraction_velocity
            }
            MuscleModel::Thelen2003(m) => m.optimal_fiber_length * m.max_contraction_velocity,
            MuscleModel::Millard2012(m) => {
                m.properties.optimal_fiber_length * m.properties.max_contraction_velocity
            }
            MuscleModel::Schutte1993(m) => m.optimal_fiber_length * m.max_contraction_velocity,
            MuscleModel::RigidTendon(m) => m.optimal_fiber_length * m.max_contraction_velocity,
        }
    }
}

/// The force law of a muscle.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum MuscleModel {
    /// OpenSim's `DeGrooteFregly2016Muscle`.
    DeGrooteFregly2016(DeGrooteFregly2016),
    /// OpenSim's `Thelen2003Muscle`.
    Thelen2003(Thelen2003),
    /// OpenSim's `Millard2012EquilibriumMuscle` (boxed: it holds its five curves).
    Millard2012(Box<Millard2012>),
    /// OpenSim's `Schutte1993Muscle_Deprecated` (boxed: it holds its three curves).
    Schutte1993(Box<Schutte1993>),
    /// OpenSim's `RigidTendonMuscle` (boxed: it holds its three curves); no states.
    RigidTendon(Box<RigidTendon>),
}

/// A muscle on a path.
#[derive(Clone, Debug, PartialEq)]
pub struct Muscle {
    /// Its name (OpenSim's component name).
    pub name: String,
    /// The path it pulls along.
    pub path: GeometryPath,
    /// Its force law and properties.
    pub model: MuscleModel,
    /// Its excitation.
    pub excitation: Excitation,
    /// The z holding its activation (none when activation dynamics are ignored).
    pub activation: Option<ZId>,
    /// The z holding its normalized tendon force (DeGroote with a compliant tendon).
    pub norm_tendon_force: Option<ZId>,
    /// The z holding its fibre length (Thelen, Millard with an elastic tendon).
    pub fiber_length: Option<ZId>,
    /// The law's constants (sines, exponentials and logarithms of its properties), computed
    /// once; checked against the properties at each use.
    law_constants: LawConstants,
}

/// A muscle law's constants, kept with the muscle (see [`Muscle::new`]).
#[derive(Clone, Debug, PartialEq)]
enum LawConstants {
    Thelen(ThelenShape),
    DeGroote(DeGrooteShape),
    None,
}

/// One muscle's values at a state (for output and tests).
#[derive(Clone, Copy, Debug)]
pub struct MuscleState<T> {
    /// Excitation e.
    pub excitation: T,
    /// Activation a.
    pub activation: T,
    /// Path length and lengthening speed.
    pub path: PathKinematics<T>,
    /// The law's output: tendon force, fibre length and velocity, state rates.
    pub output: MuscleOutput<T>,
    /// ȧ (zero without activation dynamics).
    pub activation_rate: T,
}

impl Muscle {
    /// A muscle without states (set `activation`, `norm_tendon_force` and `fiber_length` to
    /// the model's z variables its law needs).
    pub fn new(
        name: String,
        path: GeometryPath,
        model: MuscleModel,
        excitation: Excitation,
    ) -> Self {
        let law_constants = match &model {
            MuscleModel::Thelen2003(m) => LawConstants::Thelen(m.shape()),
            MuscleModel::DeGrooteFregly2016(m) => LawConstants::DeGroote(m.shape()),
            MuscleModel::Millard2012(_)
            | MuscleModel::Schutte1993(_)
            | MuscleModel::RigidTendon(_) => LawConstants::None,
        };
        Self {
            name,
            path,
            model,
            excitation,
            activation: None,
            norm_tendon_force: None,
            fiber_length: None,
            law_constants,
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Checks the path and the properties.
    pub fn validate<T: Real>(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        self.path.validate(bodies)?;
        match &self.model {
            MuscleModel::DeGrooteFregly2016(m) => m.validate(),
            MuscleModel::Thelen2003(m) => {
                if self.activation.is_none() || self.fiber_length.is_none() {
                    return Err("a Thelen muscle needs activation and fibre-length states".into());
                }
                m.validate()
            }
            MuscleModel::Millard2012(m) => {
                let p = &m.properties;
                if self.activation.is_some() == p.ignore_activation_dynamics
                    || self.fiber_length.is_some() == p.ignore_tendon_compliance
                {
                    return Err("a Millard muscle's states do not match its modes".into());
                }
                Ok(())
            }
            MuscleModel::Schutte1993(m) => {
                if self.activation.is_none() || self.fiber_length.is_none() {
                    return Err("a Schutte muscle needs activation and fibre-length states".into());
                }
                m.validate()
            }
            MuscleModel::RigidTendon(m) => {
                if self.activation.is_some() || self.fiber_length.is_some() {
                    return Err("a rigid-tendon muscle has no states".into());
                }
                m.validate()
            }
        }
    }

    /// Evaluates the muscle at the context's state.
    pub fn state<T: Real>(&self, ctx: &ForceContext<'_, T>) -> MuscleState<T> {
        self.state_on_path(ctx, self.path.kinematics(ctx))
    }

    /// Evaluates the muscle with its path's length and speed already known.
    fn state_on_path<T: Real>(
        &self,
        ctx: &ForceContext<'_, T>,
        path: PathKinematics<T>,
    ) -> MuscleState<T> {
        let excitation = self
            .excitation
            .at(T::c(ctx.state.t), path.speed, ctx.force_controls());
        let activation = self.activation.map_or(excitation, |z| ctx.z(z));
        match &self.model {
            MuscleModel::DeGrooteFregly2016(m) => {
                let ntf = self.norm_tendon_force.map_or(T::zero(), |z| ctx.z(z));
                let shape = match &self.law_constants {
                    LawConstants::DeGroote(shape) if shape.is_of(m) => *shape,
                    _ => m.shape(),
                };
                let output = m.evaluate_with(&shape, path.length, path.speed, activation, ntf);
                let activation_rate = if self.activation.is_some() {
                    m.activation_rate(activation, excitation)
                } else {
                    T::zero()
                };
                MuscleState {
                    excitation,
                    activation,
                    path,
                    output,
                    activation_rate,
                }
            }
            MuscleModel::Thelen2003(m) => {
                let lce = self.fiber_length.map_or(T::zero(), |z| ctx.z(z));
                let shape = match &self.law_constants {
                    LawConstants::Thelen(shape) if shape.is_of(m) => *shape,
                    _ => m.shape(),
                };
                let out = m.evaluate_with(&shape, path.length, activation, lce, excitation);
                MuscleState {
                    excitation,
                    activation: out.activation,
                    path,
                    output: MuscleOutput {
                        tendon_force: out.tendon_force,
                        fiber_length: out.fiber_length,
                        fiber_velocity: out.fiber_velocity,
                        norm_tendon_force_dot: T::zero(),
                    },
                    activation_rate: out.activation_rate,
                }
            }
            MuscleModel::Schutte1993(m) => {
                let lce = self.fiber_length.map_or(T::zero(), |z| ctx.z(z));
                let out = m.evaluate(path.length, path.speed, activation, lce, excitation);
                MuscleState {
                    excitation,
                    activation,
                    path,
                    output: MuscleOutput {
                        tendon_force: out.tendon_force,
                        fiber_length: lce,
                        fiber_velocity: out.fiber_velocity,
                        norm_tendon_force_dot: T::zero(),
                    },
                    activation_rate: out.activation_rate,
                }
            }
            MuscleModel::RigidTendon(m) => MuscleState {
                excitation,
                activation,
                path,
                output: m.evaluate(path.length, path.speed, activation),
                activation_rate: T::zero(),
            },
            MuscleModel::Millard2012(m) => {
                let lce = self.fiber_length.map_or(T::zero(), |z| ctx.z(z));
                let output = m.evaluate(path.length, path.speed, activation, lce);
                let activation = m.clamp_activation(activation);
                let activation_rate = if self.activation.is_some() {
                    m.activation_rate(activation, excitation)
                } else {
                    T::zero()
                };
                MuscleState {
                    excitation,
                    activation,
                    path,
                    output,
                    activation_rate,
                }
            }
        }
    }
}

impl<T: Real> ForceElement<T> for Muscle {
    fn name(&self) -> &str {
        Muscle::name(self)
    }

    /// Applies the tendon force along the path and writes the state rates.
    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        self.calc_force_into(ctx, out, &mut PathBuffer::new());
    }
}

impl Muscle {
    /// [`ForceElement::calc_force`] into any sink (the accumulator, or a recorder when the
    /// muscles run in parallel), the path located into `buffer` (reused from one muscle to
    /// the next: a fresh one is 900 bytes to clear).
    pub(crate) fn calc_force_into<T: Real>(
        &self,
        ctx: &ForceContext<'_, T>,
        out: &mut impl ForceSink<T>,
        buffer: &mut PathBuffer<T>,
    ) {
        let mut state = None;
        self.path.apply_tension_into(ctx, out, buffer, |path| {
            let s = self.state_on_path(ctx, path);
            state = Some(s);
            s.output.tendon_force
        });
        if let Some(s) = state {
            self.set_state_rates(out, &s);
        }
    }
}
