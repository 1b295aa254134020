//! OpenSim's `DeGrooteFregly2016Muscle`: a Hill-type muscle with smooth curves, fixed-width
//! pennation, first-order activation dynamics and a compliant (normalized tendon force as the
//! state, OpenSim's explicit mode) or rigid tendon.
//!
//! With ℓ̃ = ℓ_M/ℓ_opt, ṽ = v_M/(v_max ℓ_opt), f̃_T = F_T/F_max (OpenSim's names in brackets):
//! * active force–length `f_L(ℓ̃)`: three Gaussian-like terms `b₁ exp(−½(x−b₂)²/(b₃+b₄x)²)`
//!   at `x = (ℓ̃−1)/w + 1` (`active_force_width_scale` w);
//! * passive `f_PE(ℓ̃) = (exp(k_PE(ℓ̃−1)/e₀) − exp(k_PE(0.2−1)/e₀)) / (exp(k_PE) − exp(k_PE(0.2−1)/e₀))`,
//!   k_PE = 4, e₀ = `passive_fiber_strain_at_one_norm_force`;
//! * force–velocity `f_V(ṽ) = d₁ ln(d₂ṽ + d₃ + √((d₂ṽ + d₃)² + 1)) + d₄`, inverse
//!   `ṽ = (sinh((f_V − d₄)/d₁) − d₃)/d₂`;
//! * tendon `f̃_T(ℓ̃_T) = c₁ exp(k_T(ℓ̃_T − c₂)) − c₃`, `k_T = ln((1+c₃)/c₁)/(1 + ε₀ − c₂)`
//!   (ε₀ = `tendon_strain_at_one_norm_force`);
//! * fibre width `h = ℓ_opt sin α_opt`, `ℓ_M = √((ℓ_MT − ℓ_T)² + h²)`, `cos α = (ℓ_MT − ℓ_T)/ℓ_M`;
//! * explicit tendon dynamics: `f_V = (f̃_T/cos α − f_PE)/(a f_L)`, `v_M` from the inverse curve,
//!   `d f̃_T/dt = f̃_T'(ℓ̃_T) (v_MT − v_M/cos α)/ℓ_s`; tendon force `F_max f̃_T`;
//! * rigid tendon: `ℓ_T = ℓ_s`, `v_M = v_MT cos α`, force `F_max (a f_L f_V + f_PE + β ṽ) cos α`;
//! * activation `ȧ = [(f + ½)/(τ_a (½ + 1.5a)) + (½ − f)(½ + 1.5a)/τ_d] (e − a)`,
//!   `f = ½ tanh(b (e − a))` (`activation_dynamics_smoothing` b).
//!
//! Units: lengths m, speeds m/s, forces N, times s. Source: OpenSim 4.6
//! `OpenSim/Actuators/DeGrooteFregly2016Muscle.{h,cpp}`; De Groote, Kinney, Rao, Fregly (2016),
//! *Ann. Biomed. Eng.* 44(10), supplement.

use crate::error::{invalid, ModelError};
use crate::scalar::Real;

const B: [[f64; 4]; 3] = [
    [
        0.8150671134243542,
        1.055033428970575,
        0.162384573599574,
        0.063303448465465,
    ],
    [
        0.433004984392647,
        0.716775413397760,
        -0.029947116970696,
        0.200356847296188,
    ],
    [0.1, 1.0, 0.353553390593274, 0.0],
];
const K_PE: f64 = 4.0;
const C1: f64 = 0.200;
const C2: f64 = 1.0;
const C3: f64 = 0.200;
const D1: f64 = -0.3211346127989808;
const D2: f64 = -8.149;
const D3: f64 = -0.374;
const D4: f64 = 0.8825327733249912;
const MIN_NORM_FIBER_LENGTH: f64 = 0.2;
/// Bounds of the normalized tendon force OpenSim's equilibrium bisection searches.
pub const NORM_TENDON_FORCE_BOUNDS: (f64, f64) = (0.0, 5.0);

/// The properties of a `DeGrooteFregly2016Muscle` (OpenSim's defaults in [`Default`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DeGrooteFregly2016 {
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
    /// `activation_time_constant` (s).
    pub activation_time_constant: f64,
    /// `deactivation_time_constant` (s).
    pub deactivation_time_constant: f64,
    /// `default_activation`.
    pub default_activation: f64,
    /// `default_normalized_tendon_force`.
    pub default_normalized_tendon_force: f64,
    /// `active_force_width_scale` (≥ 1).
    pub active_force_width_scale: f64,
    /// `fiber_damping` (normalized).
    pub fiber_damping: f64,
    /// `ignore_passive_fiber_force`.
    pub ignore_passive_fiber_force: bool,
    /// `passive_fiber_strain_at_one_norm_force`.
    pub passive_fiber_strain_at_one_norm_force: f64,
    /// `tendon_strain_at_one_norm_force`.
    pub tendon_strain_at_one_norm_force: f64,
    /// `activation_dynamics_smoothing`.
    pub activation_dynamics_smoothing: f64,
    /// `ignore_tendon_compliance`: a rigid tendon, no tendon-force state.
    pub ignore_tendon_compliance: bool,
    /// `ignore_activation_dynamics`: activation is the excitation, no activation state.
    pub ignore_activation_dynamics: bool,
    /// `tendon_compliance_dynamics_mode = "implicit"`: the normalized tendon force's rate is
    /// OpenSim's discrete variable `implicitderiv_normalized_tendon_force` (zero, its default,
    /// in a forward run) instead of the rate the fibre's force balance gives; the tendon force
    /// then holds its equilibrated value and the fibre takes all of the path's speed.
    pub implicit_tendon_dynamics: bool,
}

impl Default for DeGrooteFregly2016 {
    fn default() -> Self {
        Self {
            max_isometric_force: 1000.0,
            optimal_fiber_length: 0.1,
            tendon_slack_length: 0.2,
            pennation_angle_at_optimal: 0.0,
            max_contraction_velocity: 10.0,
            activation_time_constant: 0.015,
            deactivation_time_constant: 0.060,
            default_activation: 0.5,
            default_normalized_tendon_force: 0.5,
            active_force_width_scale: 1.0,
            fiber_damping: 0.0,
            ignore_passive_fiber_force: false,
            passive_fiber_strain_at_one_norm_force: 0.6,
            tendon_strain_at_one_norm_force: 0.049,
            activation_dynamics_smoothing: 0.1,
            ignore_tendon_compliance: false,
            ignore_activation_dynamics: false,
            implicit_tendon_dynamics: false,
        }
    }
}

/// What the muscle computes at one state: the tendon force it applies and its state rates.
#[derive(Clone, Copy, Debug)]
pub struct MuscleOutput<T> {
    /// Tendon force (N), the tension applied along the path.
    pub tendon_force: T,
    /// Fibre length ℓ_M (m).
    pub fiber_length: T,
    /// Fibre velocity v_M (m/s, positive lengthening).
    pub fiber_velocity: T,
    /// d(normalized tendon force)/dt (zero for a rigid tendon).
    pub norm_tendon_force_dot: T,
}

impl DeGrooteFregly2016 {
    /// Checks the properties as OpenSim's `extendFinalizeFromProperties` does; the message
    /// names the property.
    pub fn validate(&self) -> Result<(), ModelError> {
        let positive = [
            ("max_isometric_force", self.max_isometric_force),
            ("optimal_fiber_length", self.optimal_fiber_length),
            ("tendon_slack_length", self.tendon_slack_length),
            ("max_contraction_velocity", self.max_contraction_velocity),
            ("activation_time_constant", self.activation_time_constant),
            (
                "deactivation_time_constant",
                self.deactivation_time_constant,
            ),
            ("default_activation", self.default_activation),
            (
                "passive_fiber_strain_at_one_norm_force",
                self.passive_fiber_strain_at_one_norm_force,
            ),
            (
                "tendon_strain_at_one_norm_force",
                self.tendon_strain_at_one_norm_force,
            ),
            (
                "activation_dynamics_smoothing",
                self.activation_dynamics_smoothing,
            ),
        ];
        super::require_positive(&positive)?;
        let f = self.default_normalized_tendon_force;
        if !(0.0..=5.0).contains(&f) {
            return Err(invalid!(
                "default_normalized_tendon_force must be in [0, 5], but it is {f}"
            ));
        }
        if !(self.active_force_width_scale.is_finite() && self.active_force_width_scale >= 1.0) {
            return Err(invalid!(
                "active_force_width_scale must be at least 1, but it is {}",
                self.active_force_width_scale
            ));
        }
        if !self.fiber_damping.is_finite() || self.fiber_damping < 0.0 {
            return Err(invalid!(
                "fiber_damping must not be negative, but it is {}",
                self.fiber_damping
            ));
        }
        let alpha = self.pennation_angle_at_optimal;
        if !(0.0..std::f64::consts::FRAC_PI_2 - 1e-14).contains(&alpha) {
            return Err(invalid!(
                "pennation_angle_at_optimal must be in [0, pi/2), but it is {alpha}"
            ));
        }
        Ok(())
    }

    /// The constants of the curves and the fibre's width, each computed as OpenSim does.
    pub(super) fn shape(&self) -> DeGrooteShape {
        let e0 = self.passive_fiber_strain_at_one_norm_force;
        let passive_offset = (K_PE * (MIN_NORM_FIBER_LENGTH - 1.0) / e0).exp();
        DeGrooteShape {
            properties: self.shape_properties(),
            fiber_width: self.optimal_fiber_length * self.pennation_angle_at_optimal.sin(),
            passive_offset,
            passive_denom: K_PE.exp() - passive_offset,
            tendon_k: ((1.0 + C3) / C1).ln() / (1.0 + self.tendon_strain_at_one_norm_force - C2),
        }
    }

    /// The properties [`DeGrooteShape`] is computed from.
    fn shape_properties(&self) -> [f64; 4] {
        [
            self.optimal_fiber_length,
            self.pennation_angle_at_optimal,
            self.passive_fiber_strain_at_one_norm_force,
            self.tendon_strain_at_one_norm_force,
        ]
    }

    fn max_speed(&self) -> f64 {
        self.max_contraction_velocity * self.optimal_fiber_length
    }

    /// Active force–length multiplier f_L(ℓ̃).
    pub fn active_force_length<T: Real>(&self, norm_fiber_length: T) -> T {
        let scale = self.active_force_width_scale;
        let x = (norm_fiber_length - T::one()) / T::c(scale) + T::one();
        let mut sum = T::zero();
        for [b1, b2, b3, b4] in B {
            let d = x - T::c(b2);
            let w = T::c(b3) + T::c(b4) * x;
            sum += T::c(b1) * (T::c(-0.5) * (d * d) / (w * w)).exp();
        }
        sum
    }

    /// Passive force–length multiplier f_PE(ℓ̃).
    pub fn passive_force_length<T: Real>(&self, norm_fiber_length: T) -> T {
        self.passive_force_length_in(&self.shape(), norm_fiber_length)
    }

    fn passive_force_length_in<T: Real>(&self, shape: &DeGrooteShape, norm_fiber_length: T) -> T {
        if self.ignore_passive_fiber_force {
            return T::zero();
        }
        let e0 = self.passive_fiber_strain_at_one_norm_force;
        ((T::c(K_PE) * (norm_fiber_length - T::one()) / T::c(e0)).exp()
            - T::c(shape.passive_offset))
            / T::c(shape.passive_denom)
    }

    /// Force–velocity multiplier f_V(ṽ).
    pub fn force_velocity<T: Real>(norm_fiber_velocity: T) -> T {
        let v = T::c(D2) * norm_fiber_velocity + T::c(D3);
        T::c(D1) * (v + (v * v + T::one()).sqrt()).ln() + T::c(D4)
    }

    /// The normalized fibre velocity whose force–velocity multiplier is `f_v`.
    pub fn force_velocity_inverse<T: Real>(f_v: T) -> T {
        (((f_v - T::c(D4)) * T::c(1.0 / D1)).sinh() - T::c(D3)) / T::c(D2)
    }

    /// Tendon force multiplier f̃_T(ℓ̃_T).
    pub fn tendon_force_length<T: Real>(&self, norm_tendon_length: T) -> T {
        let k = self.shape().tendon_k;
        T::c(C1) * (T::c(k) * (norm_tendon_length - T::c(C2))).exp() - T::c(C3)
    }

    fn tendon_force_length_derivative_in<T: Real>(
        shape: &DeGrooteShape,
        norm_tendon_length: T,
    ) -> T {
        let k = shape.tendon_k;
        T::c(C1 * k) * (T::c(k) * (norm_tendon_length - T::c(C2))).exp()
    }

    /// Normalized tendon length ℓ̃_T at normalized tendon force f̃_T.
    pub fn tendon_force_length_inverse<T: Real>(&self, norm_tendon_force: T) -> T {
        Self::tendon_force_length_inverse_in(&self.shape(), norm_tendon_force)
    }

    fn tendon_force_length_inverse_in<T: Real>(shape: &DeGrooteShape, norm_tendon_force: T) -> T {
        ((norm_tendon_force + T::c(C3)) * T::c(1.0 / C1)).ln() / T::c(shape.tendon_k) + T::c(C2)
    }

    /// ȧ at activation `a` and excitation `e`.
    pub fn activation_rate<T: Real>(&self, a: T, e: T) -> T {
        let factor = T::c(0.5) + T::c(1.5) * a;
        let act = T::one() / (T::c(self.activation_time_constant) * factor);
        let deact = factor / T::c(self.deactivation_time_constant);
        let f = T::c(0.5) * (T::c(self.activation_dynamics_smoothing) * (e - a)).tanh();
        (act * (f + T::c(0.5)) + deact * (T::c(0.5) - f)) * (e - a)
    }

    /// The fibre's length, cos α, and the two length multipliers at path length `l_mt` with
    /// tendon length `tendon_length`.
    fn fiber_geometry<T: Real>(
        &self,
        shape: &DeGrooteShape,
        l_mt: T,
        tendon_length: T,
    ) -> (T, T, T, T) {
        let along = l_mt - tendon_length;
        let h = shape.fiber_width;
        let fiber_length = (along * along + T::c(h * h)).sqrt();
        let cos_alpha = along / fiber_length;
        let norm = fiber_length / T::c(self.optimal_fiber_length);
        let (f_pe, f_l) = (
            self.passive_force_length_in(shape, norm),
            self.active_force_length(norm),
        );
        (fiber_length, cos_alpha, f_pe, f_l)
    }

    /// The muscle at path length `l_mt`, lengthening speed `v_mt`, activation `a` and (for a
    /// compliant tendon) normalized tendon force `norm_tendon_force`, as OpenSim's
    /// `calcMuscleLengthInfo`/`calcFiberVelocityInfo`/`calcMuscleDynamicsInfo` in explicit mode.
    pub fn evaluate<T: Real>(
        &self,
        l_mt: T,
        v_mt: T,
        a: T,
        norm_tendon_force: T,
    ) -> MuscleOutput<T> {
        self.evaluate_with(&self.shape(), l_mt, v_mt, a, norm_tendon_force)
    }

    /// [`Self::evaluate`] with the law's constants already computed ([`Self::shape`]).
    pub(super) fn evaluate_with<T: Real>(
        &self,
        shape: &DeGrooteShape,
        l_mt: T,
        v_mt: T,
        a: T,
        norm_tendon_force: T,
    ) -> MuscleOutput<T> {
        let f_max = T::c(self.max_isometric_force);
        let ls = self.tendon_slack_length;
        if self.ignore_tendon_compliance {
            let (fiber_length, cos_alpha, f_pe, f_l) = self.fiber_geometry(shape, l_mt, T::c(ls));
            let fiber_velocity = v_mt * cos_alpha;
            let norm_v = fiber_velocity / T::c(self.max_speed());
            let f_v = Self::force_velocity(norm_v);
            let fiber_force =
                f_max * (a * f_l * f_v) + f_max * f_pe + f_max * T::c(self.fiber_damping) * norm_v;
            return MuscleOutput {
                tendon_force: fiber_force * cos_alpha,
                fiber_length,
                fiber_velocity,
                norm_tendon_force_dot: T::zero(),
            };
        }
        let norm_tendon_length = Self::tendon_force_length_inverse_in(shape, norm_tendon_force);
        let (fiber_length, cos_alpha, f_pe, f_l) =
            self.fiber_geometry(shape, l_mt, T::c(ls) * norm_tendon_length);
        if self.implicit_tendon_dynamics {
            // The rate is the discrete variable (zero): the tendon's length does not change,
            // so the fibre along the tendon moves with the path (OpenSim's implicit branch of
            // `calcFiberVelocityInfoHelper`).
            return MuscleOutput {
                tendon_force: f_max * norm_tendon_force,
                fiber_length,
                fiber_velocity: v_mt * cos_alpha,
                norm_tendon_force_dot: T::zero(),
            };
        }
        let norm_fiber_force = norm_tendon_force / cos_alpha;
        let f_v = (norm_fiber_force - f_pe) / (a * f_l);
        let norm_v = Self::force_velocity_inverse(f_v);
        let fiber_velocity = norm_v * T::c(self.max_speed());
        let tendon_velocity = v_mt - fiber_velocity / cos_alpha;
        let norm_tendon_velocity = tendon_velocity / T::c(ls);
        MuscleOutput {
            tendon_force: f_max * norm_tendon_force,
            fiber_length,
            fiber_velocity,
            norm_tendon_force_dot: norm_tendon_velocity
                * Self::tendon_force_length_derivative_in(shape, norm_tendon_length),
        }
    }

    /// OpenSim's equilibrium residual (implicit form, d f̃_T/dt = 0): normalized tendon force
    /// minus the fibre force along the tendon over F_max.
    fn equilibrium_residual(&self, l_mt: f64, v_mt: f64, a: f64, norm_tendon_force: f64) -> f64 {
        let shape = self.shape();
        let norm_tendon_length = Self::tendon_force_length_inverse_in(&shape, norm_tendon_force);
        let (_, cos_alpha, f_pe, f_l) =
            self.fiber_geometry(&shape, l_mt, self.tendon_slack_length * norm_tendon_length);
        // With a zero tendon-force rate the tendon does not stretch: all of v_MT is the fibre's.
        let fiber_velocity = v_mt * cos_alpha;
        let norm_v = fiber_velocity / self.max_speed();
        let f_v = Self::force_velocity(norm_v);
        let fiber_force = a * f_l * f_v + f_pe + self.fiber_damping * norm_v;
        norm_tendon_force - fiber_force * cos_alpha
    }

    /// The normalized tendon force in equilibrium at path length `l_mt`, speed `v_mt` and
    /// activation `a`: OpenSim's `computeInitialFiberEquilibrium` (bisection on [0, 5] to
    /// 1e-10, at most 100 halvings, as `solveBisection`). Errors when the residual has the same
    /// sign at both ends (OpenSim throws there too).
    pub fn equilibrium_norm_tendon_force(
        &self,
        l_mt: f64,
        v_mt: f64,
        a: f64,
    ) -> Result<f64, ModelError> {
        let residual = |f: f64| self.equilibrium_residual(l_mt, v_mt, a, f);
        let (mut left, mut right) = NORM_TENDON_FORCE_BOUNDS;
        if residual(left) * residual(right) >= 0.0 {
            return Err(invalid!(
                "no muscle-tendon equilibrium between normalized tendon forces {left} and {right} \
                 (path length {l_mt} m, tendon slack length {} m)",
                self.tendon_slack_length
            ));
        }
        let mut midpoint = left;
        let mut residual_left = residual(left);
        let mut iterations = 0;
        while iterations < 100 && right - left > 1e-10 {
            midpoint = 0.5 * (left + right);
            let r = residual(midpoint);
            if r * residual_left < 0.0 {
                right = midpoint;
            } else {
                left = midpoint;
                residual_left = residual(left);
            }
            iterations += 1;
        }
        Ok(midpoint)
    }
}

/// A DeGroote–Fregly muscle's constants that depend on its properties only.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct DeGrooteShape {
    /// The properties they were computed from (ℓ_opt, α_opt, the passive fibre strain and
    /// the tendon strain at one normalized force), so that a stale copy is never used.
    properties: [f64; 4],
    /// `ℓ_opt sin α_opt` (m).
    fiber_width: f64,
    /// The passive curve's `exp(k_PE (ℓ̃_min − 1)/e₀)` and `exp(k_PE) −` that.
    passive_offset: f64,
    passive_denom: f64,
    /// The tendon curve's stiffness `ln((1 + c₃)/c₁)/(1 + ε₀ − c₂)`.
    tendon_k: f64,
}

impl DeGrooteShape {
    /// Whether these constants were computed from `law`'s current properties.
    pub(super) fn is_of(&self, law: &DeGrooteFregly2016) -> bool {
        self.properties == law.shape_properties()
    }
}

#[cfg(test)]
mod tests {
    use super::DeGrooteFregly2016 as M;

    #[test]
    fn curves_meet_their_published_anchor_values() {
        let m = M::default();
        // f_L peaks at 1 at the optimal length (to the curve fit's precision).
        assert!((m.active_force_length(1.0f64) - 1.0).abs() < 1e-3);
        // f_V(0) = 1; the inverse undoes it.
        assert!((M::force_velocity(0.0f64) - 1.0).abs() < 1e-3);
        for v in [-0.9f64, -0.3, 0.0, 0.4, 0.9] {
            assert!((M::force_velocity_inverse(M::force_velocity(v)) - v).abs() < 1e-12);
        }
        // The tendon carries F_max at 4.9 % strain; the inverse undoes the curve.
        assert!((m.tendon_force_length(1.049f64) - 1.0).abs() < 1e-12);
        assert!(
            (m.tendon_force_length_inverse(m.tendon_force_length(1.03f64)) - 1.03).abs() < 1e-12
        );
        // The passive curve is 0 at 0.2 and 1 at 1 + e0.
        assert!(m.passive_force_length(0.2f64).abs() < 1e-15);
        assert!((m.passive_force_length(1.6f64) - 1.0).abs() < 1e-12);
    }
}
