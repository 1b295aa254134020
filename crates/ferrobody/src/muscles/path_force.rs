//! Forces along a geometry path that are not muscles (OpenSim's `PathActuator`, `PathSpring`,
//! `Ligament`, `Blankevoort1991Ligament` and `ExpressionBasedPathForce`), on the same [`GeometryPath`]s, points and wrapping as the muscles, applied
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
//! * `Blankevoort1991Ligament` (Blankevoort et al. 1991, J Biomech Eng 113:263): with the
//!   strain `ε = ℓ/ℓ₀ − 1` over the `slack_length` ℓ₀ and its rate `ε̇ = ℓ̇/ℓ₀`, the spring
//!   `F_s = ½ k ε²/ε_t` for `0 < ε < ε_t` (the toe region up to the `transition_strain` ε_t),
//!   `k (ε − ε_t/2)` beyond, 0 when slack (`linear_stiffness` k, N per unit strain); the
//!   damper `F_d = c ε̇ step(ε; 0 → 1 over [0, 0.01])` while ε > 0 and ε̇ > 0, else 0
//!   (`damping_coefficient` c, N·s; Simbody's quintic step); `T = max(F_s + F_d, 0)`. Its
//!   potential energy is OpenSim's `k ℓ₀ ε³/(6 ε_t)` in the toe region,
//!   `k ℓ₀ ε_t²/6 + k ℓ₀ ε (ε − ε_t)/2` beyond (J).
//! * `ExpressionBasedPathForce`: `T = e(s, ℓ̇)`, a Lepton expression ([`Expression`]) of the
//!   stretch `s = ℓ − ℓ₀` beyond the `resting_length` ℓ₀ (m; 0 while shorter when
//!   `clamp_stretch`, OpenSim's default) and the lengthening speed `ldot` (m/s). No potential
//!   energy, as in OpenSim.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/{PathActuator, PathSpring, Ligament,
//! Blankevoort1991Ligament, ExpressionBasedPathForce}.cpp`
//! (`computeActuation`, `getStretch`, `getTension`).

use super::path::GeometryPath;
use super::Excitation;
use crate::error::{invalid, ModelError};
use crate::forces::{ForceAccumulator, ForceContext, ForceElement};
use crate::math::expression::Expression;
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
    /// OpenSim's `Blankevoort1991Ligament`.
    Blankevoort {
        /// `slack_length` ℓ₀ (m).
        slack_length: f64,
        /// `linear_stiffness` k (N per unit strain).
        linear_stiffness: f64,
        /// `transition_strain` ε_t.
        transition_strain: f64,
        /// `damping_coefficient` c (N·s).
        damping_coefficient: f64,
    },
    /// OpenSim's `ExpressionBasedPathForce`.
    Expression {
        /// `resting_length` ℓ₀ (m), not negative.
        resting_length: f64,
        /// `clamp_stretch`: no stretch (rather than a negative one) while shorter than ℓ₀.
        clamp_stretch: bool,
        /// `T(s, ldot)`, parsed with the variables [`PathForce::EXPRESSION_VARIABLES`].
        expression: Expression,
    },
}

/// Simbody's `Function::Step(0, 1, 0, 0.01)`, with which the Blankevoort damper fades in.
const DAMPING_FADE_IN: Function = Function::Step {
    y0: 0.0,
    y1: 1.0,
    x0: 0.0,
    x1: 0.01,
};

/// The Blankevoort ligament's tension at strain `strain` and strain rate `rate`.
fn blankevoort_tension<T: Real>(strain: T, rate: T, k: f64, e_t: f64, c: f64) -> T {
    let spring = if strain.re() <= 0.0 {
        T::zero()
    } else if strain.re() < e_t {
        T::c(0.5 * k / e_t) * (strain * strain)
    } else {
        T::c(k) * (strain - T::c(e_t / 2.0))
    };
    let damping = if strain.re() > 0.0 && rate.re() > 0.0 {
        T::c(c) * rate * DAMPING_FADE_IN.value(strain)
    } else {
        T::zero()
    };
    let total = damping + spring;
    if total.re() < 0.0 {
        T::zero()
    } else {
        total
    }
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
    /// The variables of an `ExpressionBasedPathForce`'s expression: the stretch and the
    /// lengthening speed.
    pub const EXPRESSION_VARIABLES: [&'static str; 2] = ["s", "ldot"];

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
                check_non_negative(&[
                    ("resting_length", *resting_length),
                    ("stiffness", *stiffness),
                    ("dissipation", *dissipation),
                ])?;
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
            PathForceLaw::Blankevoort {
                slack_length,
                linear_stiffness,
                transition_strain,
                damping_coefficient,
            } => {
                // OpenSim refuses negative values (`extendFinalizeFromProperties`).
                check_non_negative(&[
                    ("slack_length", *slack_length),
                    ("linear_stiffness", *linear_stiffness),
                    ("transition_strain", *transition_strain),
                    ("damping_coefficient", *damping_coefficient),
                ])?;
            }
            PathForceLaw::Expression { resting_length, .. } => {
                // OpenSim refuses a NaN or negative one (`extendFinalizeFromProperties`).
                check_non_negative(&[("resting_length", *resting_length)])?;
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
            PathForceLaw::Blankevoort {
                slack_length,
                linear_stiffness,
                transition_strain,
                damping_coefficient,
            } => {
                let l0 = T::c(*slack_length);
                blankevoort_tension(
                    length / l0 - T::one(),
                    speed / l0,
                    *linear_stiffness,
                    *transition_strain,
                    *damping_coefficient,
                )
            }
            PathForceLaw::Expression {
                resting_length,
                clamp_stretch,
                expression,
            } => {
                // `getStretch`: `ℓ < ℓ₀ && clamp ? 0 : ℓ − ℓ₀`.
                let s = if length.re() < *resting_length && *clamp_stretch {
                    T::zero()
                } else {
                    length - T::c(*resting_length)
                };
                expression.eval(&[s, speed])
            }
        }
    }
}

/// Each named value finite and not negative.
fn check_non_negative(values: &[(&str, f64)]) -> Result<(), ModelError> {
    match values.iter().find(|(_, v)| !(v.is_finite() && *v >= 0.0)) {
        Some((name, v)) => Err(invalid!("{name} must be finite and not negative, got {v}")),
        None => Ok(()),
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

/// The Blankevoort ligament's elastic energy at strain `strain` (OpenSim's
/// `computePotentialEnergy`; its derivative in ℓ = ℓ₀(1 + ε) is the spring force).
fn blankevoort_energy<T: Real>(strain: T, k: f64, l0: f64, e_t: f64) -> T {
    let k_l0 = T::c(k * l0);
    if strain.re() <= 0.0 {
        T::zero()
    } else if strain.re() < e_t {
        T::c(1.0 / 6.0) * k_l0 / T::c(e_t) * (strain * strain * strain)
    } else {
        T::c(1.0 / 6.0) * k_l0 * T::c(e_t * e_t) + T::c(0.5) * k_l0 * strain * (strain - T::c(e_t))
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
            PathForceLaw::Blankevoort {
                slack_length,
                linear_stiffness,
                transition_strain,
                ..
            } => {
                let strain = self.path.kinematics(ctx).length / T::c(*slack_length) - T::one();
                blankevoort_energy(strain, *linear_stiffness, *slack_length, *transition_strain)
            }
            PathForceLaw::Actuator { .. }
            | PathForceLaw::Ligament { .. }
            | PathForceLaw::Expression { .. } => T::zero(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{blankevoort_energy, blankevoort_tension};

    /// Without damping the tension is the energy's derivative in the length, in the toe
    /// region, beyond it and across the transition (central differences, h = 1e-7 m: the
    /// truncation error is below 1e-6 N for these curvatures).
    #[test]
    fn blankevoort_tension_is_the_energy_gradient() {
        let (k, l0, e_t) = (250.0, 0.03, 0.06);
        for strain in [-0.02, 0.01, 0.03, 0.0599, 0.0601, 0.1, 0.4] {
            let length = l0 * (1.0 + strain);
            let energy = |l: f64| blankevoort_energy(l / l0 - 1.0, k, l0, e_t);
            let h = 1e-7;
            let slope = (energy(length + h) - energy(length - h)) / (2.0 * h);
            let tension: f64 = blankevoort_tension(strain, 0.0, k, e_t, 0.0);
            assert!(
                (slope - tension).abs() < 1e-6,
                "ε = {strain}: {slope} vs {tension}"
            );
        }
    }

    /// The damper adds only while the ligament is taut and lengthening, faded in over the
    /// first 1 % of strain.
    #[test]
    fn blankevoort_damper_acts_only_taut_and_lengthening() {
        let t =
            |strain: f64, rate: f64| -> f64 { blankevoort_tension(strain, rate, 100.0, 0.06, 2.0) };
        assert_eq!(t(-0.01, 5.0), 0.0);
        assert_eq!(t(0.05, -1.0), t(0.05, 0.0));
        assert!(t(0.05, 1.0) > t(0.05, 0.0));
        assert!(t(0.005, 1.0) - t(0.005, 0.0) < 2.0 * 1.0);
        assert_eq!(t(0.1, -100.0), t(0.1, 0.0));
    }
}
