//! The model's force set: the [`Force`] enum of every kind of force element (dispatched by
//! `match`, no dynamic dispatch in the step), the Dynamics-stage evaluation of all of them
//! ([`calc_all_forces`]) and one element's own contribution ([`element_contribution`], MuJoCo's
//! per-source `qfrc_*` idea). The elements themselves live in [`crate::forces`] and
//! [`crate::contact`].

use super::parallel_muscles::record_muscles_in_parallel;
use crate::data::{Data, Stage, ThreadMode};
use crate::error::ModelError;
use crate::error::{Error, Result};
use crate::forces::{
    check_body, replay, ConstantForce, ConstantTorque, CoordinateLimitForce, ForceAccumulator,
    ForceContext, ForceElement, ForceSink, Gravity, LinearBushing, MobilityConstantForce,
    MobilityLinearDamper, MobilityLinearSpring, TwoPointLinearDamper, TwoPointLinearSpring,
};
use crate::ids::ForceId;
use crate::math::SpatialVec;
use crate::model::{Body, Model};
use crate::muscles::{Muscle, PathBuffer};
use crate::scalar::Real;
use crate::state::State;
use nalgebra::DVector;
use std::sync::Arc;
use std::time::Instant;

/// A force element of the model.
#[derive(Clone)]
#[non_exhaustive]
pub enum Force<T: Real = f64> {
    /// Uniform gravity on every body.
    Gravity(Gravity<T>),
    /// Linear spring between two stations.
    TwoPointLinearSpring(TwoPointLinearSpring<T>),
    /// Linear damper between two stations.
    TwoPointLinearDamper(TwoPointLinearDamper<T>),
    /// Linear spring on one generalized coordinate.
    MobilityLinearSpring(MobilityLinearSpring<T>),
    /// Linear damper on one generalized speed.
    MobilityLinearDamper(MobilityLinearDamper<T>),
    /// Constant force at a station, in Ground.
    ConstantForce(ConstantForce<T>),
    /// Constant torque on a body, in Ground.
    ConstantTorque(ConstantTorque<T>),
    /// Constant generalized force on one generalized speed.
    MobilityConstantForce(MobilityConstantForce<T>),
    /// OpenSim's soft joint stop on one coordinate.
    CoordinateLimit(CoordinateLimitForce<T>),
    /// Six uncoupled springs and dampers between two frames (Simbody's LinearBushing).
    LinearBushing(LinearBushing<T>),
    /// Hertz/Hunt–Crossley compliant contact between the surfaces of one contact set.
    HuntCrossley(crate::contact::HuntCrossleyForce<T>),
    /// Simbody's elastic foundation: springs on mesh faces against half spaces and spheres.
    ElasticFoundation(crate::contact::ElasticFoundationForce<T>),
    /// Simbody's smooth sphere/half-space contact (tanh-smoothed, for optimization).
    SmoothSphereHalfSpace(crate::contact::SmoothSphereHalfSpaceForce<T>),
    /// Simbody's exponential spring (a station against a plane, with static friction).
    ExponentialSpring(crate::contact::ExponentialSpringForce<T>),
    /// An OpenSim muscle on its path ([`crate::muscles`]).
    Muscle(Box<crate::muscles::Muscle>),
    /// An OpenSim coordinate, torque, point or activation-coordinate actuator.
    ScalarActuator(Box<crate::muscles::scalar_actuators::ScalarActuator>),
    /// An OpenSim `PathActuator`, `PathSpring` or `Ligament` on its path.
    PathForce(Box<crate::muscles::PathForce>),
    /// OpenSim's `PrescribedForce`: a force, its point and a torque as functions of time.
    Prescribed(Box<crate::forces::PrescribedForce>),
    /// OpenSim's `ExpressionBasedCoordinateForce`: `τ = f(q, q̇)` on one coordinate.
    CoordinateExpression(Box<crate::forces::CoordinateExpressionForce>),
    /// OpenSim's `ExpressionBasedPointToPointForce`: `F(d, ḋ)` between two stations.
    PointToPointExpression(Box<crate::forces::PointToPointExpressionForce>),
    /// OpenSim's `FunctionBasedBushingForce` or `ExpressionBasedBushingForce`: six nonlinear
    /// springs and linear dampers between two frames (OpenSim's `TwoFrameLinker`).
    NonlinearBushing(Box<crate::forces::NonlinearBushing>),
    /// A user-written element.
    Custom(Arc<dyn ForceElement<T>>),
}

macro_rules! dispatch {
    ($self:expr, $f:ident => $body:expr) => {
        match $self {
            Force::Gravity($f) => $body,
            Force::TwoPointLinearSpring($f) => $body,
            Force::TwoPointLinearDamper($f) => $body,
            Force::MobilityLinearSpring($f) => $body,
            Force::MobilityLinearDamper($f) => $body,
            Force::ConstantForce($f) => $body,
            Force::ConstantTorque($f) => $body,
            Force::MobilityConstantForce($f) => $body,
            Force::CoordinateLimit($f) => $body,
            Force::LinearBushing($f) => $body,
            Force::HuntCrossley($f) => $body,
            Force::ElasticFoundation($f) => $body,
            Force::SmoothSphereHalfSpace($f) => $body,
            Force::ExponentialSpring($f) => $body,
            Force::Muscle($f) => $body,
            Force::ScalarActuator($f) => $body,
            Force::PathForce($f) => $body,
            Force::Prescribed($f) => $body,
            Force::CoordinateExpression($f) => $body,
            Force::PointToPointExpression($f) => $body,
            Force::NonlinearBushing($f) => $body,
            Force::Custom($f) => $body,
        }
    };
}

impl<T: Real> Force<T> {
    /// The element's name.
    pub fn name(&self) -> &str {
        dispatch!(self, f => f.name())
    }

    /// Adds this element's forces.
    #[inline]
    pub fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        dispatch!(self, f => f.calc_force(ctx, out))
    }

    /// Potential energy (J).
    pub fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        dispatch!(self, f => f.potential_energy(ctx))
    }

    /// Checks body references and parameter values against the bodies of the model.
    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> std::result::Result<(), ModelError> {
        match self {
            Force::Gravity(_) | Force::Custom(_) => Ok(()),
            Force::TwoPointLinearSpring(f) => f.validate(bodies),
            Force::TwoPointLinearDamper(f) => f.validate(bodies),
            Force::MobilityLinearSpring(f) => f.validate(bodies),
            Force::MobilityLinearDamper(f) => f.validate(bodies),
            Force::ConstantForce(f) => check_body(bodies, f.body),
            Force::ConstantTorque(f) => check_body(bodies, f.body),
            Force::MobilityConstantForce(f) => f.validate(bodies),
            Force::CoordinateLimit(f) => f.validate(bodies),
            Force::LinearBushing(f) => f.validate(bodies),
            Force::HuntCrossley(f) => f.validate(bodies.len()),
            Force::ElasticFoundation(f) => f.validate(bodies.len()),
            Force::SmoothSphereHalfSpace(f) => f.validate(bodies.len()),
            Force::ExponentialSpring(f) => f.validate(bodies.len()),
            Force::Muscle(f) => f.validate(bodies),
            Force::ScalarActuator(f) => f.validate(bodies),
            Force::PathForce(f) => f.validate(bodies),
            Force::Prescribed(f) => f.validate(bodies),
            Force::CoordinateExpression(f) => f.validate(bodies),
            Force::PointToPointExpression(f) => f.validate(bodies),
            Force::NonlinearBushing(f) => f.validate(bodies),
        }
    }

    /// The force-element control this element reads, if any
    /// ([`crate::muscles::Excitation::Control`]).
    pub fn control_index(&self) -> Option<usize> {
        match self {
            Force::Muscle(m) => m.excitation.control_index(),
            Force::ScalarActuator(a) => a.excitation.control_index(),
            Force::PathForce(p) => match &p.law {
                crate::muscles::PathForceLaw::Actuator { control, .. } => control.control_index(),
                _ => None,
            },
            _ => None,
        }
    }

    /// Converts to another scalar type; user-written elements cannot be converted.
    pub(crate) fn cast<U: Real>(&self) -> Result<Force<U>> {
        Ok(match self {
            Force::Gravity(f) => Force::Gravity(f.cast()),
            Force::TwoPointLinearSpring(f) => Force::TwoPointLinearSpring(f.cast()),
            Force::TwoPointLinearDamper(f) => Force::TwoPointLinearDamper(f.cast()),
            Force::MobilityLinearSpring(f) => Force::MobilityLinearSpring(f.cast()),
            Force::MobilityLinearDamper(f) => Force::MobilityLinearDamper(f.cast()),
            Force::ConstantForce(f) => Force::ConstantForce(f.cast()),
            Force::ConstantTorque(f) => Force::ConstantTorque(f.cast()),
            Force::MobilityConstantForce(f) => Force::MobilityConstantForce(f.cast()),
            Force::CoordinateLimit(f) => Force::CoordinateLimit(f.cast()),
            Force::LinearBushing(f) => Force::LinearBushing(f.cast()),
            Force::HuntCrossley(f) => Force::HuntCrossley(f.cast()),
            Force::ElasticFoundation(f) => Force::ElasticFoundation(f.cast()),
            Force::SmoothSphereHalfSpace(f) => Force::SmoothSphereHalfSpace(f.cast()),
            Force::ExponentialSpring(f) => Force::ExponentialSpring(f.cast()),
            Force::Muscle(f) => Force::Muscle(f.clone()),
            Force::ScalarActuator(f) => Force::ScalarActuator(f.clone()),
            Force::PathForce(f) => Force::PathForce(f.clone()),
            Force::Prescribed(f) => Force::Prescribed(f.clone()),
            Force::CoordinateExpression(f) => Force::CoordinateExpression(f.clone()),
            Force::PointToPointExpression(f) => Force::PointToPointExpression(f.clone()),
            Force::NonlinearBushing(f) => Force::NonlinearBushing(f.clone()),
            Force::Custom(f) => {
                return Err(Error::model(format!(
                    "user-written force element '{}' cannot be converted to another scalar type",
                    f.name()
                )))
            }
        })
    }
}

/// Evaluates every force element into `data.dynamics` (the Dynamics stage).
///
/// Reads: `data.pos`, `data.vel`, `state`. Writes: `data.dynamics`, the auto-update cache.
pub fn calc_all_forces<T: Real>(model: &Model<T>, state: &State<T>, data: &mut Data<T>) {
    data.require(Stage::Velocity);
    let dynamics = &mut data.dynamics;
    dynamics.zdot.fill(T::zero());
    // An auto-update cache entry is valid only if computed in this realization (Simbody
    // invalidates it with its stage), so a value from an earlier stage evaluation is never
    // swapped in.
    data.auto_update_valid.fill(false);
    dynamics
        .body_forces
        .iter_mut()
        .for_each(|f| *f = SpatialVec::zeros());
    dynamics.mobility_forces.fill(T::zero());
    let ctx = ForceContext::from_caches(model, state, &data.pos, &data.vel);
    let enabled = state.discrete(model, model.force_enabled);
    let records = &mut data.force_records;
    // With threads allowed, the tuner decides by measured times where the muscles run on
    // this host (`data::thread_tuner`); the results are the same bit for bit either way.
    let clock = (records.enabled && records.tuner.timing_next()).then(Instant::now);
    let mode = if records.enabled {
        records.tuner.mode_next()
    } else {
        ThreadMode::One
    };
    let parallel =
        mode != ThreadMode::One && record_muscles_in_parallel(model, &ctx, enabled, records, mode);
    let mut out = ForceAccumulator {
        model,
        x_gb: &data.pos.x_gb,
        body_forces: &mut dynamics.body_forces,
        mobility_forces: dynamics.mobility_forces.as_mut_slice(),
        auto_update_cache: &mut data.auto_update_cache,
        auto_update_valid: &mut data.auto_update_valid,
        zdot: dynamics.zdot.as_mut_slice(),
        contact_scratch: &mut data.contact_scratch,
    };
    let mut buffers = [PathBuffer::new(), PathBuffer::new()];
    // A muscle waiting for the next one, to be evaluated as a pair (`muscles::paired`).
    let mut waiting: Option<&Muscle> = None;
    for (k, (f, flag)) in model.forces.iter().zip(enabled).enumerate() {
        if flag.re() == 0.0 {
            continue;
        }
        if let (Force::Muscle(m), false) = (f, parallel) {
            if m.pairs() {
                match waiting.take() {
                    Some(first) => calc_pair(first, m, &ctx, &mut out, &mut buffers),
                    None => waiting = Some(m),
                }
                continue;
            }
        }
        if let Some(first) = waiting.take() {
            first.calc_force_into(&ctx, &mut out, &mut buffers[0]);
        }
        // The elements of a few loads and stores run here, inlined; through the dispatch of
        // every kind (a large function) each would pay its frame and register saves.
        match f {
            Force::Gravity(e) => e.calc_force(&ctx, &mut out),
            Force::MobilityLinearSpring(e) => e.calc_force(&ctx, &mut out),
            Force::MobilityLinearDamper(e) => e.calc_force(&ctx, &mut out),
            Force::Muscle(_) if parallel => replay(&records.per_element[k], &mut out),
            Force::Muscle(m) => m.calc_force_into(&ctx, &mut out, &mut buffers[0]),
            _ => f.calc_force(&ctx, &mut out),
        }
    }
    if let Some(first) = waiting {
        first.calc_force_into(&ctx, &mut out, &mut buffers[0]);
    }
    model.apply_actuators(state, dynamics.mobility_forces.as_mut_slice());
    if data.force_records.enabled {
        let elapsed = clock.map(|start| start.elapsed());
        data.force_records.tuner.finish(elapsed);
    }
    data.realizations += 1;
    data.realized = Stage::Dynamics;
}

/// Evaluates two muscles as a pair into one sink, `first`'s additions before `second`'s.
#[inline]
fn calc_pair<T: Real>(
    first: &Muscle,
    second: &Muscle,
    ctx: &ForceContext<'_, T>,
    out: &mut impl ForceSink<T>,
    buffers: &mut [PathBuffer<T>; 2],
) {
    let [state_1, state_2] = Muscle::evaluate_pair(first, second, ctx, buffers);
    first.finish_into(out, &buffers[0], &state_1);
    second.finish_into(out, &buffers[1], &state_2);
}

/// The forces of one element alone: body forces (nbodies), mobility forces (nu) and its
/// potential energy. For inspection and tests, not for the step loop (it allocates).
pub struct ElementContribution<T: Real> {
    /// Body forces, moment about the body origin then force, in Ground.
    pub body_forces: Vec<SpatialVec<T>>,
    /// Generalized forces.
    pub mobility_forces: DVector<T>,
    /// Potential energy (J).
    pub potential_energy: T,
}

/// Computes one element's contribution at the current state (Velocity stage needed).
pub fn element_contribution<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &Data<T>,
    id: ForceId,
) -> ElementContribution<T> {
    data.require(Stage::Velocity);
    let mut body_forces = vec![SpatialVec::zeros(); model.nbodies()];
    let mut mobility = DVector::zeros(model.nu());
    let mut au_cache = data.auto_update_cache.clone();
    let mut au_valid = data.auto_update_valid.clone();
    let mut zdot = vec![T::zero(); model.nz()];
    let mut scratch = Default::default();
    let ctx = ForceContext::new(model, state, data);
    let force = &model.forces[id.0];
    {
        let mut out = ForceAccumulator {
            model,
            x_gb: &data.pos.x_gb,
            body_forces: &mut body_forces,
            mobility_forces: mobility.as_mut_slice(),
            auto_update_cache: &mut au_cache,
            auto_update_valid: &mut au_valid,
            zdot: &mut zdot,
            contact_scratch: &mut scratch,
        };
        force.calc_force(&ctx, &mut out);
    }
    ElementContribution {
        body_forces,
        mobility_forces: mobility,
        potential_energy: force.potential_energy(&ctx),
    }
}

/// Potential energy of all enabled force elements (J): gravity `−m g·p_C`, springs
/// `½ k (ℓ − ℓ₀)²`, ... Reads: `data.pos`, `data.vel`.
pub fn potential_energy<T: Real>(model: &Model<T>, state: &State<T>, data: &Data<T>) -> T {
    data.require(Stage::Velocity);
    let ctx = ForceContext::new(model, state, data);
    let enabled = state.discrete(model, model.force_enabled);
    model
        .forces
        .iter()
        .zip(enabled)
        .filter(|(_, flag)| flag.re() != 0.0)
        .map(|(f, _)| f.potential_energy(&ctx))
        .fold(T::zero(), |a, b| a + b)
}
