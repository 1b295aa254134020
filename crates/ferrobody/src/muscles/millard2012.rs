//! OpenSim's `Millard2012EquilibriumMuscle`: a Hill-type muscle with quintic-Bézier curves
//! ([`super::millard_curves`]), fixed-width pennation ([`super::pennation`]), first-order
//! activation dynamics, and an elastic tendon whose fibre length is a state (or a rigid one).
//!
//! With ℓ̃ = ℓ_M/ℓ_opt, ṽ = v_M/(v_max ℓ_opt), ℓ̃_T = ℓ_T/ℓ_s (OpenSim's names in brackets):
//! * fibre force `F_M = F_max (a f_L(ℓ̃) f_V(ṽ) + f_PE(ℓ̃) + β ṽ)` (`fiber_damping` β);
//! * equilibrium along the tendon `F_M cos α = F_max f_T(ℓ̃_T)` gives the fibre velocity:
//!   with damping (β ≥ 0.001) by Newton's method on ṽ (tolerance max(1e-10 F_max, 100 ε^(7/8)),
//!   20 iterations, started from the inverse curve), without damping from the inverse curve
//!   `ṽ = f_V⁻¹((f_T/cos α − f_PE)/(a f_L))`; `v_M = ṽ v_max ℓ_opt` is the fibre-length rate;
//! * the fibre length is clamped below at max(`min_norm_active_fiber_length` ℓ_opt,
//!   the pennation model's minimum); at that bound a shortening fibre stops (v_M = 0, no fibre
//!   force);
//! * rigid tendon (`ignore_tendon_compliance`): ℓ_M from the path, `v_M = v_MT cos α`
//!   (zero while the tendon is slack), tendon force `max(F_M, 0) cos α`;
//! * activation `ȧ = (e − a)/τ`, τ = τ_a(0.5 + 1.5a) when e > a else τ_d/(0.5 + 1.5a), a clamped
//!   to [`minimum_activation`, 1]; with `ignore_activation_dynamics` a is the clamped excitation.
//!
//! The damped model sets the active-force–length minimum to 0 and the force–velocity end slopes
//! to 0; the classic model raises them to 0.1 and half the near-vmax slopes (OpenSim's
//! `extendFinalizeFromProperties`). Units: m, m/s, N, s. Source: OpenSim 4.6
//! `OpenSim/Actuators/Millard2012EquilibriumMuscle.cpp`; Millard, Uchida, Seth, Delp (2013),
//! *J. Biomech. Eng.* 135(2), 021005.

use super::degroote_fregly::MuscleOutput;
use super::millard_curves::{
    ActiveForceLength, FiberForceLength, ForceVelocity, TendonForceLength,
};
use super::pennation::FixedWidthPennation;
use super::smooth_curve::SmoothCurve;
use crate::error::ModelError;
use crate::scalar::Real;
use crate::scalar::SIGNIFICANT_REAL;

/// Damping below this is no damping (OpenSim's `MIN_NONZERO_DAMPING_COEFFICIENT`).
const MIN_NONZERO_DAMPING: f64 = 0.001;

/// The properties of a `Millard2012EquilibriumMuscle` (OpenSim's defaults in [`Default`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MillardProperties {
    /// `max_isometric_force` (N).
    pub max_isometric_force: f64,
    /// `optimal_fiber_length` (m).
    pub optimal_fiber_length: f64,
    /// `tendon_slack_length` (m).
    pub tendon_slack_length: f64,
    /// `pennation_angle_at_optimal` (rad).
    pub pennation_angle_at_optimal: f64,
    /// `max_contraction_velocity` (optimal fibre lengths per second).
    pub max_contraction_velocity: f64,
    /// `fiber_damping` (β).
    pub fiber_damping: f64,
    /// `default_activation`.
    pub default_activation: f64,
    /// `default_fiber_length` (m).
    pub default_fiber_length: f64,
    /// `activation_time_constant` (s).
    pub activation_time_constant: f64,
    /// `deactivation_time_constant` (s).
    pub deactivation_time_constant: f64,
    /// `minimum_activation`.
    pub minimum_activation: f64,
    /// `maximum_pennation_angle` (rad).
    pub maximum_pennation_angle: f64,
    /// `ignore_tendon_compliance`.
    pub ignore_tendon_compliance: bool,
    /// `ignore_activation_dynamics`.
    pub ignore_activation_dynamics: bool,
    /// `ActiveForceLengthCurve`.
    pub active_force_length: ActiveForceLength,
    /// `ForceVelocityCurve`.
    pub force_velocity: ForceVelocity,
    /// `FiberForceLengthCurve`.
    pub fiber_force_length: FiberForceLength,
    /// `TendonForceLengthCurve`.
    pub tendon_force_length: TendonForceLength,
}

impl Default for MillardProperties {
    fn default() -> Self {
        Self {
            max_isometric_force: 1000.0,
            optimal_fiber_length: 0.1,
            tendon_slack_length: 0.2,
            pennation_angle_at_optimal: 0.0,
            max_contraction_velocity: 10.0,
            fiber_damping: 0.1,
            default_activation: 0.05,
            default_fiber_length: 0.1,
            activation_time_constant: 0.010,
            deactivation_time_constant: 0.040,
            minimum_activation: 0.01,
            maximum_pennation_angle: 0.1f64.acos(),
            ignore_tendon_compliance: false,
            ignore_activation_dynamics: false,
            active_force_length: ActiveForceLength::default(),
            force_velocity: ForceVelocity::default(),
            fiber_force_length: FiberForceLength::default(),
            tendon_force_length: TendonForceLength::default(),
        }
    }
}

/// A Millard muscle ready to evaluate: its properties as OpenSim finalizes them, and its curves.
#[derive(Clone, Debug, PartialEq)]
pub struct Millard2012 {
    /// The properties, after the damped or classic model's adjustments.
    pub properties: MillardProperties,
    damped: bool,
    pub(super) pennation: FixedWidthPennation,
    pub(super) minimum_fiber_length: f64,
    pub(super) fal: SmoothCurve,
    pub(super) fv: SmoothCurve,
    fv_inverse: SmoothCurve,
    pub(super) fpe: SmoothCurve,
    pub(super) fse: SmoothCurve,
}

impl Millard2012 {
    /// Validates and finalizes the properties (`extendFinalizeFromProperties`).
    pub fn new(mut p: MillardProperties) -> Result<Self, ModelError> {
        // A rigid tendon never divides by its slack length, and OpenSim runs rigid-tendon
        // muscles with none (opensim-core's thoracoscapular SerratusAnterior_I).
        let tsl = p.tendon_slack_length;
        if !(p.ignore_tendon_compliance && tsl == 0.0) {
            super::require_positive(&[("tendon_slack_length", tsl)])?;
        }
        super::require_positive(&[
            ("max_isometric_force", p.max_isometric_force),
            ("optimal_fiber_length", p.optimal_fiber_length),
            ("max_contraction_velocity", p.max_contraction_velocity),
            ("activation_time_constant", p.activation_time_constant),
            ("deactivation_time_constant", p.deactivation_time_constant),
        ])?;
        let half_pi = std::f64::consts::FRAC_PI_2;
        if !(0.0..=half_pi - SIGNIFICANT_REAL).contains(&p.pennation_angle_at_optimal) {
            return Err("pennation_angle_at_optimal must be in [0, pi/2)".into());
        }
        if !(0.0..=half_pi).contains(&p.maximum_pennation_angle) {
            return Err("maximum_pennation_angle must be in [0, pi/2]".into());
        }
        let fv = &mut p.force_velocity;
        let sqrt_eps = f64::EPSILON.sqrt();
        if fv.concentric_slope_near_vmax.is_nan() || fv.concentric_slope_near_vmax < sqrt_eps {
            return Err(
                "ForceVelocityCurve concentric_slope_near_vmax cannot be less than 1.49e-8".into(),
            );
        }
        if fv.eccentric_slope_near_vmax.is_nan() || fv.eccentric_slope_near_vmax < sqrt_eps {
            return Err(
                "ForceVelocityCurve eccentric_slope_near_vmax cannot be less than 1.49e-8".into(),
            );
        }
        let damped = p.fiber_damping >= MIN_NONZERO_DAMPING;
        if !damped {
            p.fiber_damping = 0.0;
        }
        if !p.ignore_tendon_compliance && !damped {
            if p.minimum_activation.is_nan() || p.minimum_activation < 0.01 {
                return Err("minimum_activation cannot be less than 0.01 with an elastic tendon and no fiber damping".into());
            }
            let fal = &mut p.active_force_length;
            fal.minimum_value = fal.minimum_value.max(0.1);
            fv.concentric_slope_at_vmax = fv
                .concentric_slope_at_vmax
                .max(fv.concentric_slope_near_vmax * 0.5);
            fv.eccentric_slope_at_vmax = fv
                .eccentric_slope_at_vmax
                .max(fv.eccentric_slope_near_vmax * 0.5);
        } else {
            p.minimum_activation = p.minimum_activation.clamp(0.0, 1.0);
            let fal = &mut p.active_force_length;
            fal.minimum_value = fal.minimum_value.min(0.0);
            fv.concentric_slope_at_vmax = fv.concentric_slope_at_vmax.min(0.0);
            fv.eccentric_slope_at_vmax = fv.eccentric_slope_at_vmax.min(0.0);
        }
        if p.minimum_activation.is_nan() || p.minimum_activation > 1.0 - SIGNIFICANT_REAL {
            return Err("minimum_activation must be in the range [0, 1)".into());
        }
        let fv = p.force_velocity;
        let inverse_shape = ForceVelocity {
            concentric_slope_at_vmax: fv.concentric_slope_near_vmax * 0.5,
            eccentric_slope_at_vmax: fv.eccentric_slope_near_vmax * 0.5,
            ..fv
        };
        let pennation = FixedWidthPennation::new(
            p.optimal_fiber_length,
            p.pennation_angle_at_optimal,
            p.maximum_pennation_angle,
        );
        let min_active =
            p.active_force_length.min_norm_active_fiber_length * p.optimal_fiber_length;
        let minimum_fiber_length = SIGNIFICANT_REAL
            .max(min_active)
            .max(pennation.minimum_fiber_length());
        Ok(Self {
            fal: p.active_force_length.curve(),
            fv: fv.curve(),
            fv_inverse: inverse_shape.inverse_curve(),
            fpe: p.fiber_force_length.curve(),
            fse: p.tendon_force_length.curve(),
            damped,
            pennation,
            minimum_fiber_length,
            properties: p,
        })
    }

    /// Shares each curve's data with an equal curve of `pool` (adding those it lacks): a
    /// model's muscles with the same curve properties then evaluate one set of tables.
    #[cfg(feature = "io")]
    pub(crate) fn share_curves(&mut self, pool: &mut Vec<SmoothCurve>) {
        for curve in [
            &mut self.fal,
            &mut self.fv,
            &mut self.fv_inverse,
            &mut self.fpe,
            &mut self.fse,
        ] {
            curve.share(pool);
        }
    }

    /// The shortest fibre (m).
    pub fn minimum_fiber_length(&self) -> f64 {
        self.minimum_fiber_length
    }

    /// Activation clamped to [`minimum_activation`, 1] (`clampActivation`).
    pub fn clamp_activation<T: Real>(&self, a: T) -> T {
        let a_min = self.properties.minimum_activation;
        if a.re() < a_min {
            T::c(a_min)
        } else if a.re() > 1.0 {
            T::one()
        } else {
            a
        }
    }

    /// ȧ at activation `a` and excitation `e` (`MuscleFirstOrderActivationDynamicModel`).
    pub fn activation_rate<T: Real>(&self, a: T, e: T) -> T {
        let a = self.clamp_activation(a);
        let factor = T::c(0.5) + T::c(1.5) * a;
        let tau = if e.re() > a.re() {
            T::c(self.properties.activation_time_constant) * factor
        } else {
            T::c(self.properties.deactivation_time_constant) / factor
        };
        (e - a) / tau
    }

    /// The muscle at path length `l_mt` and speed `v_mt`, activation `a` (state, or the
    /// excitation without activation dynamics) and fibre-length state `lce_state`
    /// (`calcMuscleLengthInfo`, `calcFiberVelocityInfo`, `calcMuscleDynamicsInfo`).
    pub fn evaluate<T: Real>(&self, l_mt: T, v_mt: T, a: T, lce_state: T) -> MuscleOutput<T> {
        let p = &self.properties;
        let (ofl, tsl, fiso) = (
            p.optimal_fiber_length,
            p.tendon_slack_length,
            p.max_isometric_force,
        );
        let vmax = p.max_contraction_velocity;
        let a = self.clamp_activation(a);
        let rigid = p.ignore_tendon_compliance;
        let lce_raw = if rigid {
            self.pennation.fiber_length(l_mt, T::c(tsl))
        } else {
            lce_state
        };
        let lce = if lce_raw.re() < self.minimum_fiber_length {
            T::c(self.minimum_fiber_length)
        } else {
            lce_raw
        };
        let lce_n = lce / T::c(ofl);
        let phi = self.pennation.angle(lce);
        let cosphi = phi.cos();
        let tl = l_mt - lce * cosphi;
        let fpe = self.fpe.value(lce_n);
        let fal = self.fal.value(lce_n);
        let fse = if rigid {
            T::zero()
        } else {
            self.fse.value(tl / T::c(tsl))
        };
        // (ṽ, v_M, f_V), each v_M rounded as OpenSim forms it.
        let (mut dlce_n, mut dlce, mut fv) = if rigid {
            if tl.re() < tsl - SIGNIFICANT_REAL {
                (T::zero(), T::zero(), T::one())
            } else {
                let dlce = v_mt * cosphi;
                let dlce_n = dlce / T::c(ofl * vmax);
                (dlce_n, dlce, self.fv.value(dlce_n))
            }
        } else if !self.damped {
            let fv = (fse / cosphi - fpe) / (a * fal);
            let dlce_n = self.fv_inverse.value(fv);
            (dlce_n, dlce_n * T::c(vmax) * T::c(ofl), fv)
        } else {
            let (dlce_n, fv) = self.damped_fiber_velocity(a, fal, fpe, fse, cosphi);
            (dlce_n, dlce_n * T::c(ofl) * T::c(vmax), fv)
        };
        let clamped = lce.re() <= self.minimum_fiber_length && dlce.re() <= 0.0;
        if clamped {
            dlce_n = T::zero();
            dlce = T::zero();
            fv = T::one();
        }
        let tendon_force = if !rigid {
            fse * T::c(fiso)
        } else if clamped {
            T::zero()
        } else {
            let beta = T::c(p.fiber_damping);
            let fm = T::c(fiso) * (a * fal * fv) + (T::c(fiso) * fpe + T::c(fiso) * beta * dlce_n);
            let fm = if fm.re() < 0.0 { T::zero() } else { fm };
            fm * cosphi
        };
        MuscleOutput {
            tendon_force,
            fiber_length: lce,
            fiber_velocity: dlce,
            norm_tendon_force_dot: T::zero(),
        }
    }

    /// ṽ and f_V satisfying the damped equilibrium at this fibre length
    /// (`calcDampedNormFiberVelocity`), with the implicit function's exact first derivatives.
    fn damped_fiber_velocity<T: Real>(&self, a: T, fal: T, fpe: T, fse: T, cosphi: T) -> (T, T) {
        let p = &self.properties;
        let (fiso, beta) = (p.max_isometric_force, p.fiber_damping);
        let (ar, falr, fper, fser, cr) = (a.re(), fal.re(), fpe.re(), fse.re(), cosphi.re());
        let tol = (1.0e-10 * fiso).max(SIGNIFICANT_REAL * 100.0);
        let fv_guess = (fser / cr.max(0.01) - fper) / (ar.max(0.01) * falr.max(0.01));
        let mut v = self.fv_inverse.value_and_slope(fv_guess).0.clamp(-1.0, 1.0);
        let (mut fv, mut dfv) = (0.0, 0.0);
        let mut err: f64 = 1.0e10;
        let mut derr = 0.0;
        let mut iter = 0;
        while err.abs() > tol && iter < 20 {
            (fv, dfv) = self.fv.value_and_slope(v);
            err = (fiso * (ar * falr * fv) + (fiso * fper + fiso * beta * v)) * cr - fser * fiso;
            derr = fiso * (ar * falr * dfv + beta) * cr;
            if err.abs() > tol && derr.abs() > SIGNIFICANT_REAL {
                v -= err / derr;
            }
            iter += 1;
        }
        if err.abs() > tol {
            return (T::c(-1.0), T::c(fv));
        }
        // The residual with the inputs' derivatives at the solution; v moves to cancel them.
        let v_t = T::c(v);
        let residual =
            T::c(fiso) * (a * fal * T::c(fv) + fpe + T::c(beta) * v_t) * cosphi - fse * T::c(fiso);
        let v_t = v_t - (residual - T::c(residual.re())) / T::c(derr);
        (v_t, T::c(fv) + T::c(dfv) * (v_t - T::c(v)))
    }
}
