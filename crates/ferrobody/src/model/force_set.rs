//! The model's force set: the [`Force`] enum of every kind of force element (dispatched by
//! `match`, no dynamic dispatch in the step), the Dynamics-stage evaluation of all of them
//! ([`calc_all_forces`]) and one element's own contribution ([`element_contribution`], MuJoCo's
//! per-source `qfrc_*` idea). The elements themselves live in [`crate::forces`] and
//! [`crate::contact`].

#[cfg(feature = "parallel")]
use crate::data::ForceOp;
use crate::data::{Data, ForceRecords, Stage};
use crate::error::ModelError;
use crate::error::{Error, Result};
use crate::forces::{
    check_body, replay, ConstantForce, ConstantTorque, CoordinateLimitForce, ForceAccumulator,
    ForceContext, ForceElement, Gravity, LinearBushing, MobilityConstantForce,
    MobilityLinearDamper, MobilityLinearSpring, TwoPointLinearDamper, TwoPointLinearSpring,
};
use crate::ids::ForceId;
use crate::math::SpatialVec;
#[cfg(feature = "parallel")]
use crate::math::Transform;
use crate::model::{Body, Model};
use crate::muscles::PathBuffer;
use crate::scalar::Real;
use crate::state::State;
use nalgebra::DVector;
use std::sync::Arc;

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
    /// An OpenSim `PathActuator` or `PathSpring` on its path.
    PathForce(Box<crate::muscles::PathForce>),
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
    let parallel = records.enabled && record_muscles_in_parallel(model, &ctx, enabled, records);
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
    let mut path_buffer = PathBuffer::new();
    for (k, (f, flag)) in model.forces.iter().zip(enabled).enumerate() {
        if flag.re() == 0.0 {
            continue;
        }
        // The elements of a few loads and stores run here, inlined; through the dispatch of
        // every kind (a large function) each would pay its frame and register saves.
        match f {
            Force::Gravity(e) => e.calc_force(&ctx, &mut out),
            Force::MobilityLinearSpring(e) => e.calc_force(&ctx, &mut out),
            Force::MobilityLinearDamper(e) => e.calc_force(&ctx, &mut out),
            Force::Muscle(_) if parallel => replay(&records.per_element[k], &mut out),
            Force::Muscle(m) => m.calc_force_into(&ctx, &mut out, &mut path_buffer),
            _ => f.calc_force(&ctx, &mut out),
        }
    }
    model.apply_actuators(state, dynamics.mobility_forces.as_mut_slice());
    data.realizations += 1;
    data.realized = Stage::Dynamics;
}

/// Models with fewer muscles evaluate them in the sequential pass: below this an evaluation
/// is too short to gain from a second thread (measured: 2D_gait's 18 muscles, 6 µs per
/// evaluation, ran 0.74× as fast on two threads; docs/performance.md).
const PARALLEL_MIN_MUSCLES: usize = 24;

/// Whether `model` has enough muscles to evaluate them in parallel (decided once, by
/// `Simulation::set_parallel_forces`, not at each evaluation).
pub(crate) fn muscles_worth_parallel<T: Real>(model: &Model<T>) -> bool {
    let muscles = model
        .forces
        .iter()
        .filter(|f| matches!(f, Force::Muscle(_)));
    muscles.count() >= PARALLEL_MIN_MUSCLES
}

/// Where to first cut the force set between two threads: where about half of the muscles'
/// path points lie on each side; `None` when a muscle's path has wrap objects (its cost
/// changes from one evaluation to the next with the wrapping and the tangent slide's
/// iterations, which rayon's work stealing follows and a cut moved once per evaluation does
/// not: Rajagopal2016 ran 0.83× as fast with the cut).
pub(crate) fn muscle_split<T: Real>(model: &Model<T>) -> Option<usize> {
    let mut cost = Vec::with_capacity(model.forces.len());
    for f in &model.forces {
        cost.push(match f {
            Force::Muscle(m) if !m.path.wraps.is_empty() => return None,
            Force::Muscle(m) => 4 + m.path.points.len(),
            _ => 0,
        });
    }
    let total: usize = cost.iter().sum();
    let mut sum = 0;
    cost.iter()
        .position(|c| {
            sum += c;
            2 * sum >= total
        })
        .map(|k| k + 1)
}

/// Evaluates the muscles on rayon's threads, each recording its forces for the sequential
/// pass to replay in order (bit for bit the sequential sums); whether it did. Only on a
/// thread of a rayon pool of two or more threads (from elsewhere the hand-over costs more
/// than it saves); `records.enabled` is set only for models of [`PARALLEL_MIN_MUSCLES`]
/// muscles or more.
///
/// With a cut (`records.split`, models without wrap objects) the calling thread takes the
/// elements before it and one more thread the rest, and the cut moves by one element per
/// evaluation toward the part that ended first. The second part's end is measured from
/// before the hand-over and that thread starts with cold caches (measured on gait2392: a
/// part that takes 6.2 µs on the calling thread took 9–11 µs there), so the cut settles
/// where the second thread has less to do (about 58 % of the points stay on gait2392's
/// calling thread). Without a cut, rayon's work stealing balances pieces of four elements.
/// Where the work is done changes only who computes what, never the results.
#[cfg(feature = "parallel")]
fn record_muscles_in_parallel<T: Real>(
    model: &Model<T>,
    ctx: &ForceContext<'_, T>,
    enabled: &[T],
    records: &mut ForceRecords<T>,
) -> bool {
    use rayon::prelude::*;
    use std::time::Instant;
    let n = model.forces.len();
    if rayon::current_thread_index().is_none() || rayon::current_num_threads() < 2 || n < 2 {
        return false;
    }
    let x_gb = ctx.pos.x_gb.as_slice();
    let lists = &mut records.per_element;
    lists.resize_with(n, Vec::new);
    let Some(split) = records.split.map(|k| k.clamp(1, n - 1)) else {
        lists
            .par_iter_mut()
            .zip(model.forces.par_iter().zip(enabled.par_iter()))
            .with_min_len(4)
            .for_each_init(PathBuffer::new, |buffer, (ops, (force, flag))| {
                record_muscle(ctx, x_gb, ops, force, *flag, buffer);
            });
        return true;
    };
    let (lists_a, lists_b) = lists.split_at_mut(split);
    let (forces_a, forces_b) = model.forces.split_at(split);
    let (enabled_a, enabled_b) = enabled.split_at(split);
    let start = Instant::now();
    let timed = |lists: &mut [Vec<ForceOp<T>>], forces: &[Force<T>], enabled: &[T]| {
        record_muscles(ctx, x_gb, lists, forces, enabled);
        start.elapsed()
    };
    let (end_a, end_b) = rayon::join(
        || timed(lists_a, forces_a, enabled_a),
        || timed(lists_b, forces_b, enabled_b),
    );
    records.split = Some(if end_a > end_b { split - 1 } else { split + 1 });
    true
}

/// Evaluates the enabled muscles of `forces` into their lists (one per element).
#[cfg(feature = "parallel")]
fn record_muscles<T: Real>(
    ctx: &ForceContext<'_, T>,
    x_gb: &[Transform<T>],
    lists: &mut [Vec<ForceOp<T>>],
    forces: &[Force<T>],
    enabled: &[T],
) {
    let mut buffer = PathBuffer::new();
    for (ops, (force, flag)) in lists.iter_mut().zip(forces.iter().zip(enabled)) {
        record_muscle(ctx, x_gb, ops, force, *flag, &mut buffer);
    }
}

/// Records `force`'s additions into `ops` if it is an enabled muscle (else leaves it empty).
#[cfg(feature = "parallel")]
fn record_muscle<T: Real>(
    ctx: &ForceContext<'_, T>,
    x_gb: &[Transform<T>],
    ops: &mut Vec<ForceOp<T>>,
    force: &Force<T>,
    enabled: T,
    buffer: &mut PathBuffer<T>,
) {
    ops.clear();
    if let (Force::Muscle(m), true) = (force, enabled.re() != 0.0) {
        m.calc_force_into(ctx, &mut crate::forces::ForceRecorder { x_gb, ops }, buffer);
    }
}

#[cfg(not(feature = "parallel"))]
fn record_muscles_in_parallel<T: Real>(
    _: &Model<T>,
    _: &ForceContext<'_, T>,
    _: &[T],
    _: &mut ForceRecords<T>,
) -> bool {
    false
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
