//! Forces along a geometry path that are not muscles (OpenSim's `PathActuator`, `PathSpring`
//! and `Ligament`), on the same [`GeometryPath`]s, points and wrapping as the muscles, applied
//! as a tension T along the path (positive T shortens it; a negative actuator tension pushes).
//!
//! * `PathActuator`: `T = c F`, the control c (its `PrescribedController` function of time,
//!   else zero, as for the other actuators; not clamped, as OpenSim does not clamp it in a
//!   forward run) times `optimal_force` F (N).
//! * `PathSpring`: `T = k s (1 + d ℓ̇)` with the stretch `s = max(ℓ − ℓ₀, 0)` (m) beyond the
//!   `resting_length` ℓ₀, `stiffness` k (N/m), `dissipation` d (s/m) and the path's
//!   lengthening speed ℓ̇ (m/s). Its potential energy is the elastic `½ k s²` (J); OpenSim
//!   reports none for it.
//! * `Ligament`: `T = F f(ℓ/ℓ₀)` while the path is longer than its `resting_length` ℓ₀, else
//!   zero, with `pcsa_force` F (N) and the dimensionless `force_length_curve` f of the
//!   normalized length (any OpenSim function; by default the SimmSpline of
//!   [`default_ligament_curve`]). No damping and, as in OpenSim, no potential energy.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/{PathActuator, PathSpring, Ligament}.cpp`
//! (`computeActuation`, `getStretch`, `getTension`).

use super::path::GeometryPath;
use super::Excitation;
use crate::error::{invalid, ModelError};
use crate::forces::{ForceAccumulator, ForceContext, ForceElement};
use crate::math::function::{CubicSpline, Function};
use crate::scalar::Real;
use crate::tree::Body;

/// What sets the tension of a [`PathForce`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PathForceLaw {
    /// OpenSim's `PathActuator`.
    Actuator {
        /// `optimal_force` (N per unit control).
        optimal_force: f64,
        /// Its control.
        control: Excitation,
    },
    /// OpenSim's `PathSpring`.
    Spring {
        /// `resting_length` ℓ₀ (m).
        resting_length: f64,
        /// `stiffness` k (N/m).
        stiffness: f64,
        /// `dissipation` d (s/m).
        dissipation: f64,
    },
    /// OpenSim's `Ligament`.
    Ligament {
        /// `resting_length` ℓ₀ (m), positive.
        resting_length: f64,
        /// `pcsa_force` F (N).
        pcsa_force: f64,
        /// `force_length_curve` f(ℓ/ℓ₀) (dimensionless).
        force_length_curve: Function,
    },
}

/// The force–length curve OpenSim's `Ligament` constructs when the file gives none
/// (`Ligament::constructProperties`): a SimmSpline through 13 points, zero up to the resting
/// length, 2 from 1.6 times it.
pub fn default_ligament_curve() -> Function {
    let x = [
        -5.0, 0.998, 0.999, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.601, 1.602, 5.0,
    ];
    let y = [
        0.0, 0.0, 0.0, 0.0, 0.035, 0.12, 0.26, 0.55, 1.17, 2.0, 2.0, 2.0, 2.0,
    ];
    Function::Spline(
        CubicSpline::simm(x.to_vec(), y.to_vec()).expect("the default curve's abscissae increase"),
    )
}

/// A tension along a path: an OpenSim `PathActuator` or `PathSpring`.
#[derive(Clone, Debug, PartialEq)]
pub struct PathForce {
    /// Its name (OpenSim's component name).
    pub name: String,
    /// The path it pulls along.
    pub path: GeometryPath,
    /// How its tension is set.
    pub law: PathForceLaw,
}

impl PathForce {
    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Checks the path and the law's properties (OpenSim's ranges: a spring's resting
    /// length, stiffness and dissipation are not negative).
    pub fn validate<T: Real>(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        self.path.validate(bodies)?;
        match &self.law {
            PathForceLaw::Actuator { optimal_force, .. } => {
                if !optimal_force.is_finite() {
                    return Err(invalid!("optimal_force {optimal_force} is not finite"));
                }
            }
            PathForceLaw::Spring {
                resting_length,
                stiffness,
                dissipation,
            } => {
                for (name, value) in [
                    ("resting_length", resting_length),
                    ("stiffness", stiffness),
                    ("dissipation", dissipation),
                ] {
                    if !(value.is_finite() && *value >= 0.0) {
                        return Err(invalid!(
                            "{name} must be finite and not negative, got {value}"
                        ));
                    }
                }
            }
            PathForceLaw::Ligament {
                resting_length,
                pcsa_force,
                ..
            } => {
                // OpenSim asserts `resting_length > 0` (`extendFinalizeFromProperties`).
                if !(resting_length.is_finite() && *resting_length > 0.0) {
                    return Err(invalid!(
                        "resting_length must be finite and positive, got {resting_length}"
                    ));
                }
                if !pcsa_force.is_finite() {
                    return Err(invalid!("pcsa_force {pcsa_force} is not finite"));
                }
            }
        }
        Ok(())
    }

    /// The tension (N) with the path at `length` (m), lengthening at `speed` (m/s), at time
    /// `t` (s), with the model's force-element `controls`
    /// ([`ForceContext::force_controls`]).
    pub fn tension<T: Real>(&self, t: T, length: T, speed: T, controls: &[T]) -> T {
        match &self.law {
            PathForceLaw::Actuator {
                optimal_force,
                control,
            } => control.at(t, speed, controls) * T::c(*optimal_force),
            PathForceLaw::Spring {
                resting_length,
                stiffness,
                dissipation,
            } => {
                let stretch = stretch(length, *resting_length);
                stretch * T::c(*stiffness) * (T::one() + T::c(*dissipation) * speed)
            }
            PathForceLaw::Ligament {
                resting_length,
                pcsa_force,
                force_length_curve,
            } => {
                if length.re() <= *resting_length {
                    T::zero()
                } else {
                    force_length_curve.value(length / T::c(*resting_length)) * T::c(*pcsa_force)
                }
            }
        }
    }
}

/// `max(ℓ − ℓ₀, 0)`, as `PathSpring::getStretch`.
fn stretch<T: Real>(length: T, resting_length: f64) -> T {
    if length.re() > resting_length {
        length - T::c(resting_length)
    } else {
        T::zero()
    }
}

impl<T: Real> ForceElement<T> for PathForce {
    fn name(&self) -> &str {
        PathForce::name(self)
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let (t, controls) = (T::c(ctx.state.t), ctx.force_controls());
        self.path
            .apply_tension_with(ctx, out, |p| self.tension(t, p.length, p.speed, controls));
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        match &self.law {
            PathForceLaw::Spring {
                resting_length,
                stiffness,
                ..
            } => {
                let s = stretch(self.path.kinematics(ctx).length, *resting_length);
                T::c(0.5 * stiffness) * s * s
            }
            PathForceLaw::Actuator { .. } | PathForceLaw::Ligament { .. } => T::zero(),
        }
    }
}
