//! OpenSim's `Thelen2003Muscle`: activation and fibre length as states, fixed-width pennation,
//! first-order activation dynamics with clamping, and the fibre velocity from the inverted
//! force–velocity curve with linear extrapolation.
//!
//! With ℓ̃ = ℓ_M/ℓ_opt, ℓ̃_T = ℓ_T/ℓ_s, ε = ℓ̃_T − 1 (OpenSim's property names in brackets):
//! * active force–length `f_L = exp(−(ℓ̃ − 1)²/γ)` (`KshapeActive` γ);
//! * passive `f_PE = (exp(k_PE(ℓ̃ − 1)/ε₀ᴹ) − 1)/(exp(k_PE) − 1)` for ℓ̃ > 1, else 0
//!   (`KshapePassive`, `FmaxMuscleStrain`);
//! * tendon: exponential toe `F_toe (exp(k_toe ε/ε_toe) − 1)/(exp(k_toe) − 1)` up to
//!   `ε_toe = 99 ε₀ e³/(166 e³ − 67)`, then linear `k_lin (ε − ε_toe) + F_toe`, with k_toe = 3,
//!   F_toe = 0.33, `k_lin = 0.67/(ε₀ − ε_toe)` (`FmaxTendonStrain` ε₀);
//! * pennation: `h = ℓ_opt sin α_opt`, `sin α = h/ℓ_M` up to `maximum_pennation_angle`, fibre
//!   length clamped below at `h / sin α_max`; `ℓ_T = ℓ_MT − ℓ_M cos α`;
//! * velocity: `a f_L f_V = f̃_T/cos α − f_PE`, and `ṽ` from Thelen's inverse curve
//!   (concentric `b = a f_L + F/A_f`, eccentric `b = (2 + 2/A_f)(a f_L F_len − F)/(F_len − 1)`,
//!   `ṽ = (0.25 + 0.75a)(F − a f_L)/b`; linear beyond 0 and `fv_linear_extrap_threshold`·a f_L F_len);
//!   `v_M = ṽ v_max ℓ_opt`, zero while the fibre sits at its minimum length and shortens;
//! * activation `ȧ = (e − a)/τ`, τ = τ_a(0.5 + 1.5a) when e > a else τ_d/(0.5 + 1.5a), a clamped
//!   to [`minimum_activation`, 1]; tendon force `F_max f̃_T`.
//!
//! Units: m, m/s, N, s. Source: OpenSim 4.6 `OpenSim/Actuators/{Thelen2003Muscle,
//! MuscleFixedWidthPennationModel, MuscleFirstOrderActivationDynamicModel}.cpp`; Thelen (2003),
//! *J. Biomech. Eng.* 125(1), 70–77.

use crate::error::{invalid, ModelError};
use crate::scalar::Real;
use crate::scalar::SIGNIFICANT_REAL;

/// The tendon's normalized force at the end of its toe region, `F_toe`.
const TOE_FORCE: f64 = 33.0 / 100.0;

/// The properties of a `Thelen2003Muscle` (OpenSim's defaults in [`Default`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Thelen2003 {
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
    /// `FmaxTendonStrain`.
    pub fmax_tendon_strain: f64,
    /// `FmaxMuscleStrain`.
    pub fmax_muscle_strain: f64,
    /// `KshapeActive`.
    pub kshape_active: f64,
    /// `KshapePassive`.
    pub kshape_passive: f64,
    /// `Af`.
    pub af: f64,
    /// `Flen`.
    pub flen: f64,
    /// `fv_linear_extrap_threshold`.
    pub fv_linear_extrap_threshold: f64,
    /// `maximum_pennation_angle` (rad).
    pub maximum_pennation_angle: f64,
    /// `activation_time_constant` (s).
    pub activation_time_constant: f64,
    /// `deactivation_time_constant` (s).
    pub deactivation_time_constant: f64,
    /// `minimum_activation`.
    pub minimum_activation: f64,
    /// `default_activation`.
    pub default_activation: f64,
    /// `default_fiber_length` (m).
    pub default_fiber_length: f64,
}

impl Default for Thelen2003 {
    fn default() -> Self {
        Self {
            max_isometric_force: 1000.0,
            optimal_fiber_length: 0.1,
            tendon_slack_length: 0.2,
            pennation_angle_at_optimal: 0.0,
            max_contraction_velocity: 10.0,
            fmax_tendon_strain: 0.04,
            fmax_muscle_strain: 0.6,
            kshape_active: 0.45,
            kshape_passive: 5.0,
            af: 0.25,
            flen: 1.4,
            fv_linear_extrap_threshold: 0.95,
            maximum_pennation_angle: 0.1f64.acos(),
            activation_time_constant: 0.015,
            deactivation_time_constant: 0.050,
            minimum_activation: 0.01,
            default_activation: 0.05,
            default_fiber_length: 0.1,
        }
    }
}

/// The Thelen muscle at one state.
#[derive(Clone, Copy, Debug)]
pub struct ThelenOutput<T> {
    /// Tendon force (N).
    pub tendon_force: T,
    /// Fibre length (m, clamped at its minimum).
    pub fiber_length: T,
    /// Fibre velocity (m/s), the fibre-length state's rate.
    pub fiber_velocity: T,
    /// Activation, clamped to [minimum_activation, 1].
    pub activation: T,
    /// ȧ.
    pub activation_rate: T,
}

impl Thelen2003 {
    /// Checks the properties as OpenSim's `extendFinalizeFromProperties` does.
    pub fn validate(&self) -> Result<(), ModelError> {
        let positive = [
            ("max_isometric_force", self.max_isometric_force),
            ("optimal_fiber_length", self.optimal_fiber_length),
            ("tendon_slack_length", self.tendon_slack_length),
            ("max_contraction_velocity", self.max_contraction_velocity),
            ("FmaxTendonStrain", self.fmax_tendon_strain),
            ("FmaxMuscleStrain", self.fmax_muscle_strain),
            ("KshapeActive", self.kshape_active),
            ("KshapePassive", self.kshape_passive),
            ("Af", self.af),
            ("activation_time_constant", self.activation_time_constant),
            (
                "deactivation_time_constant",
                self.deactivation_time_constant,
            ),
        ];
        super::require_positive(&positive)?;
        if self.flen.is_nan() || self.flen <= 1.0 {
            return Err(invalid!(
                "Flen must be greater than 1.0, but it is {}",
                self.flen
            ));
        }
        if self.fv_linear_extrap_threshold.is_nan()
            || self.fv_linear_extrap_threshold <= 1.0 / self.flen
        {
            return Err("fv_linear_extrap_threshold must be greater than 1/Flen".into());
        }
        if self.minimum_activation.is_nan() || self.minimum_activation < 0.01 {
            return Err(invalid!(
                "minimum_activation cannot be less than 0.01, but it is {}",
                self.minimum_activation
            ));
        }
        let half_pi = std::f64::consts::FRAC_PI_2;
        if !(0.0..half_pi - SIGNIFICANT_REAL).contains(&self.pennation_angle_at_optimal) {
            return Err("pennation_angle_at_optimal must be in [0, pi/2)".into());
        }
        if !(0.0..=half_pi).contains(&self.maximum_pennation_angle) {
            return Err("maximum_pennation_angle must be in [0, pi/2]".into());
        }
        Ok(())
    }

    pub(super) fn parallelogram_height(&self) -> f64 {
        self.optimal_fiber_length * self.pennation_angle_at_optimal.sin()
    }

    /// The shortest fibre the pennation model allows (m).
    pub fn minimum_fiber_length(&self) -> f64 {
        self.minimum_fiber_length_from(
            self.parallelogram_height(),
            self.maximum_pennation_angle.sin(),
        )
    }

    /// The shortest fibre from the parallelogram height and sin α_max.
    fn minimum_fiber_length_from(&self, height: f64, sin_max: f64) -> f64 {
        if self.maximum_pennation_angle > SIGNIFICANT_REAL {
            height / sin_max
        } else {
            self.optimal_fiber_length * 0.01
        }
    }

    /// The constants of the curves and the pennation model, each computed as OpenSim does.
    pub(super) fn shape(&self) -> ThelenShape {
        let height = self.parallelogram_height();
        let sin_max = self.maximum_pennation_angle.sin();
        let cos_max = self.maximum_pennation_angle.cos();
        let minimum_fiber_length = self.minimum_fiber_length_from(height, sin_max);
        let (e_toe, k_lin) = self.toe();
        ThelenShape {
            properties: self.shape_properties(),
            height,
            sin_max,
            cos_max,
            minimum_fiber_length,
            e_toe,
            k_lin,
            toe_scale: TOE_FORCE / (3.0f64.exp() - 1.0),
            passive_scale: self.kshape_passive.exp() - 1.0,
        }
    }

    /// The properties [`ThelenShape`] is computed from.
    fn shape_properties(&self) -> [f64; 5] {
        [
            self.optimal_fiber_length,
            self.pennation_angle_at_optimal,
            self.maximum_pennation_angle,
            self.fmax_tendon_strain,
            self.kshape_passive,
        ]
    }

    pub(super) fn pennation_angle<T: Real>(&self, fiber_length: T) -> T {
        self.pennation_angle_in(&self.shape(), fiber_length)
    }

    fn pennation_angle_in<T: Real>(&self, shape: &ThelenShape, fiber_length: T) -> T {
        match self.pennation_in(shape, fiber_length) {
            Pennation::None => T::zero(),
            Pennation::Sine(sin_phi) => sin_phi.asin(),
            Pennation::Maximum => T::c(self.maximum_pennation_angle),
        }
    }

    /// `cos φ` of [`Self::pennation_angle_in`]'s angle without forming it: `√(1 − sin²φ)`
    /// with `sin φ = h/ℓ_CE`, where OpenSim takes `cos(asin(h/ℓ_CE))` (the same value to
    /// an ulp or two; an arcsine and a cosine are 8 % of gait2392's evaluation).
    fn cos_pennation_in<T: Real>(&self, shape: &ThelenShape, fiber_length: T) -> T {
        match self.pennation_in(shape, fiber_length) {
            Pennation::None => T::one(),
            Pennation::Sine(sin_phi) => (T::one() - sin_phi * sin_phi).sqrt(),
            Pennation::Maximum => T::c(shape.cos_max),
        }
    }

    /// Which case of the fixed-width pennation model applies at `fiber_length`.
    fn pennation_in<T: Real>(&self, shape: &ThelenShape, fiber_length: T) -> Pennation<T> {
        if self.pennation_angle_at_optimal <= f64::EPSILON {
            return Pennation::None;
        }
        if fiber_length.re() > shape.minimum_fiber_length {
            let sin_phi = T::c(shape.height) / fiber_length;
            if sin_phi.re() < shape.sin_max {
                return Pennation::Sine(sin_phi);
            }
        }
        Pennation::Maximum
    }

    fn toe(&self) -> (f64, f64) {
        let e0 = self.fmax_tendon_strain;
        let t1 = 3.0f64.exp();
        let e_toe = (99.0 * e0 * t1) / (166.0 * t1 - 67.0);
        let k_lin = (67.0 / 100.0) * 1.0 / (e0 - (99.0 * e0 * t1) / (166.0 * t1 - 67.0));
        (e_toe, k_lin)
    }

    /// Tendon force multiplier at normalized tendon length.
    pub fn tendon_force_length<T: Real>(&self, tl_n: T) -> T {
        Self::tendon_force_length_in(&self.shape(), tl_n)
    }

    fn tendon_force_length_in<T: Real>(shape: &ThelenShape, tl_n: T) -> T {
        let x = tl_n - T::one();
        let (e_toe, k_lin, f_toe) = (shape.e_toe, shape.k_lin, TOE_FORCE);
        if x.re() > e_toe {
            T::c(k_lin) * (x - T::c(e_toe)) + T::c(f_toe)
        } else if x.re() > 0.0 {
            T::c(shape.toe_scale) * ((T::c(3.0) * x / T::c(e_toe)).exp() - T::one())
        } else {
            T::zero()
        }
    }

    pub(super) fn tendon_force_length_derivative(&self, tl_n: f64) -> f64 {
        let x = tl_n - 1.0;
        let (e_toe, k_lin) = self.toe();
        if x > e_toe {
            k_lin
        } else if x > 0.0 {
            (0.33 / (3.0f64.exp() - 1.0)) * (3.0 / e_toe) * (3.0 * x / e_toe).exp()
        } else {
            0.0
        }
    }

    /// Active force–length multiplier.
    pub fn active_force_length<T: Real>(&self, lce_n: T) -> T {
        let x = (lce_n - T::one()) * (lce_n - T::one());
        (-x / T::c(self.kshape_active)).exp()
    }

    pub(super) fn active_force_length_derivative(&self, lce_n: f64) -> f64 {
        let t1 = lce_n - 1.0;
        let t2 = 1.0 / self.kshape_active;
        -2.0 * t1 * t2 * (-(t1 * t1) * t2).exp()
    }

    /// Passive force–length multiplier.
    pub fn passive_force_length<T: Real>(&self, lce_n: T) -> T {
        self.passive_force_length_in(&self.shape(), lce_n)
    }

    fn passive_force_length_in<T: Real>(&self, shape: &ThelenShape, lce_n: T) -> T {
        if lce_n.re() <= 1.0 {
            return T::zero();
        }
        let (e0, kpe) = (self.fmax_muscle_strain, self.kshape_passive);
        ((T::c(kpe) * (lce_n - T::one()) / T::c(e0)).exp() - T::one()) / T::c(shape.passive_scale)
    }

    pub(super) fn passive_force_length_derivative(&self, lce_n: f64) -> f64 {
        if lce_n <= 1.0 {
            return 0.0;
        }
        let (t1, kpe) = (1.0 / self.fmax_muscle_strain, self.kshape_passive);
        kpe * t1 * (kpe * (lce_n - 1.0) * t1).exp() / (kpe.exp() - 1.0)
    }

    /// The curve's b and db/dF at force F (`calcdlceN`'s two branches), and the F it uses.
    fn fv_branch<T: Real>(&self, afl: T, fm: T) -> (T, T, T, bool) {
        let af = self.af;
        let flen = self.flen;
        let asy_e = afl * T::c(flen);
        let thresh = self.fv_linear_extrap_threshold;
        let eccentric_b = |f: T| (T::c(2.0 + 2.0 / af) * (afl * T::c(flen) - f)) / T::c(flen - 1.0);
        let eccentric_db = T::c(-(2.0 + 2.0 / af) / (flen - 1.0));
        if fm.re() > 0.0 && fm.re() < (asy_e * T::c(thresh)).re() {
            if fm.re() <= afl.re() {
                (afl + fm / T::c(af), T::c(1.0 / af), fm, false)
            } else {
                (eccentric_b(fm), eccentric_db, fm, false)
            }
        } else if fm.re() <= 0.0 {
            (afl, T::c(1.0 / af), T::zero(), true)
        } else {
            let f0 = asy_e * T::c(thresh);
            (eccentric_b(f0), eccentric_db, f0, true)
        }
    }

    /// Normalized fibre velocity at activation `a`, `f_L`, and `a f_L f_V` (`calcdlceN`).
    pub fn fiber_velocity_normalized<T: Real>(&self, a: T, fal: T, a_fal_fv: T) -> T {
        let afl = a * fal;
        let (b, db, f0, extrapolated) = self.fv_branch(afl, a_fal_fv);
        let k = T::c(0.25) + T::c(0.75) * a;
        if !extrapolated {
            return k * (a_fal_fv - afl) / b;
        }
        let dlce0 = k * (f0 - afl) / b;
        let slope = k / b - (k * (f0 - afl) / (b * b)) * db;
        dlce0 + slope * (a_fal_fv - f0)
    }

    pub(super) fn fiber_velocity_slope(&self, a: f64, fal: f64, a_fal_fv: f64) -> f64 {
        let afl = a * fal;
        let (b, db, f0, _) = self.fv_branch(afl, a_fal_fv);
        let k = 0.25 + 0.75 * a;
        k / b - (k * (f0 - afl) / (b * b)) * db
    }

    /// ȧ at (clamped) activation `a` and excitation `e`.
    pub fn activation_rate<T: Real>(&self, a: T, e: T) -> T {
        let a = self.clamp_activation(a);
        let factor = T::c(0.5) + T::c(1.5) * a;
        let tau = if e.re() > a.re() {
            T::c(self.activation_time_constant) * factor
        } else {
            T::c(self.deactivation_time_constant) / factor
        };
        (e - a) / tau
    }

    /// Activation clamped to [`minimum_activation`, 1], as the muscle reads it.
    pub fn clamp_activation<T: Real>(&self, a: T) -> T {
        if a.re() < self.minimum_activation {
            T::c(self.minimum_activation)
        } else if a.re() > 1.0 {
            T::one()
        } else {
            a
        }
    }

    /// The muscle at path length `l_mt`, activation state `a`, fibre-length state `lce` and
    /// excitation `e` (`calcMuscleLengthInfo`, `calcFiberVelocityInfo`,
    /// `calcMuscleDynamicsInfo`).
    pub fn evaluate<T: Real>(&self, l_mt: T, a: T, lce_state: T, e: T) -> ThelenOutput<T> {
        self.evaluate_with(&self.shape(), l_mt, a, lce_state, e)
    }

    /// [`Self::evaluate`] with the law's constants already computed ([`Self::shape`]).
    pub(super) fn evaluate_with<T: Real>(
        &self,
        shape: &ThelenShape,
        l_mt: T,
        a: T,
        lce_state: T,
        e: T,
    ) -> ThelenOutput<T> {
        let (ofl, tsl) = (self.optimal_fiber_length, self.tendon_slack_length);
        let min_fl = shape.minimum_fiber_length;
        let lce = if lce_state.re() < min_fl {
            T::c(min_fl)
        } else {
            lce_state
        };
        let lce_n = lce / T::c(ofl);
        let cosphi = self.cos_pennation_in(shape, lce);
        let tl = l_mt - lce * cosphi;
        let fse = Self::tendon_force_length_in(shape, tl / T::c(tsl));
        let fal = self.active_force_length(lce_n);
        let fpe = self.passive_force_length_in(shape, lce_n);
        let activation = self.clamp_activation(a);
        let afalfv = fse / cosphi - fpe;
        let mut dlce_n = self.fiber_velocity_normalized(activation, fal, afalfv);
        if lce_state.re() <= min_fl && dlce_n.re() <= 0.0 {
            dlce_n = T::zero();
        }
        ThelenOutput {
            tendon_force: fse * T::c(self.max_isometric_force),
            fiber_length: lce,
            fiber_velocity: dlce_n * T::c(self.max_contraction_velocity) * T::c(ofl),
            activation,
            activation_rate: self.activation_rate(a, e),
        }
    }
}

/// The fixed-width pennation model's case at a fibre length: unpennated, `sin φ = h/ℓ_CE`,
/// or held at the maximum angle (the fibre at or below its shortest length).
enum Pennation<T> {
    None,
    Sine(T),
    Maximum,
}

/// A Thelen muscle's constants that depend on its properties only (m, dimensionless).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ThelenShape {
    /// The properties they were computed from (`ℓ_opt`, α_opt, α_max, ε₀ of the tendon,
    /// k_PE), so that a stale copy is never used.
    properties: [f64; 5],
    /// The pennation model's parallelogram height `ℓ_opt sin α_opt`.
    height: f64,
    /// `sin α_max`, `cos α_max`.
    sin_max: f64,
    cos_max: f64,
    /// The shortest fibre.
    minimum_fiber_length: f64,
    /// The tendon's toe strain ε_toe and linear stiffness k_lin.
    e_toe: f64,
    k_lin: f64,
    /// `F_toe/(e³ − 1)`.
    toe_scale: f64,
    /// `exp(k_PE) − 1`.
    passive_scale: f64,
}

impl ThelenShape {
    /// Whether these constants were computed from `law`'s current properties.
    pub(super) fn is_of(&self, law: &Thelen2003) -> bool {
        self.properties == law.shape_properties()
    }
}
