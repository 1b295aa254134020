//! OpenSim's `Schutte1993Muscle_Deprecated` (opensim-core `OpenSim/Actuators/
//! Schutte1993Muscle_Deprecated.cpp` on `ActivationFiberLengthMuscle_Deprecated`), the muscle of
//! SIMM-era models: Schutte, L.M. (1992), *Using musculoskeletal models to explore strategies
//! for improving performance in electrical stimulation-induced leg cycle ergometry*, Stanford.
//!
//! States: activation a and fibre length ℓ_M (m). With ℓ̃ = ℓ_M/ℓ_opt, the pennation
//! α = asin(sin α_opt / ℓ̃) (0 below ε, π/2 from 1), the normalized tendon length
//! ℓ̃_T = ℓ_MT/ℓ_opt − ℓ̃ cos α and strain ε_T = (ℓ̃_T − ℓ_s/ℓ_opt)/(ℓ_s/ℓ_opt):
//!
//! * ȧ = (e − a)(k₁ e + k₂)/τ for e ≥ a, else (e − a) k₂/τ (`activation1`, `activation2`,
//!   `time_scale`);
//! * F̃_T = f_T(ε_T) (0 for ε_T < 0), F̃_P = f_P(ℓ̃) (`exp(8(ℓ̃ − 1))/e⁴` when the file gives no
//!   curve), F̃_A = max(0, f_A(ℓ̃));
//! * the fibre velocity from the Hill force–velocity relation with `damping` d
//!   (kv = 0.15, slope 0.13, f_max = 1.4), applied to F̃_V = max(0, F̃_T/cos α − F̃_P):
//!   ṽ = F̃_V/d below −d, else the root of ṽ² + b ṽ + c = 0 on the shortening or the
//!   lengthening branch; ℓ̇_M = ṽ ℓ_opt/τ; at 90° pennation the tendon's stretch rate instead;
//! * tendon force F_T = F̃_T F_max.
//!
//! The arithmetic is OpenSim's, operation for operation (including its use of a normalized
//! length against the unnormalized slack length at 90° pennation).

use crate::error::ModelError;
use crate::math::function::Function;
use crate::scalar::Real;

/// OpenSim's `ROUNDOFF_ERROR` (SimmMacros.h), the tolerance of `EQUAL_WITHIN_ERROR`.
pub(super) const ROUNDOFF_ERROR: f64 = 2e-13;
/// Force–velocity constants of `calcFiberVelocity`.
const KV: f64 = 0.15;
const SLOPE_K: f64 = 0.13;
const F_MAX: f64 = 1.4;

/// A Schutte (1993) muscle's properties.
#[derive(Clone, Debug, PartialEq)]
pub struct Schutte1993 {
    /// `max_isometric_force` (N).
    pub max_isometric_force: f64,
    /// `optimal_fiber_length` (m).
    pub optimal_fiber_length: f64,
    /// `tendon_slack_length` (m).
    pub tendon_slack_length: f64,
    /// `pennation_angle_at_optimal` (rad).
    pub pennation_angle_at_optimal: f64,
    /// `max_contraction_velocity` (optimal fibre lengths per second; used only by reflexes).
    pub max_contraction_velocity: f64,
    /// `time_scale` τ (s).
    pub time_scale: f64,
    /// `activation1` k₁.
    pub activation1: f64,
    /// `activation2` k₂.
    pub activation2: f64,
    /// `damping` d.
    pub damping: f64,
    /// `tendon_force_length_curve` f_T(strain).
    pub tendon_force_length_curve: Function,
    /// `active_force_length_curve` f_A(ℓ̃).
    pub active_force_length_curve: Function,
    /// `passive_force_length_curve` f_P(ℓ̃); none when the file gives none (the exponential).
    pub passive_force_length_curve: Option<Function>,
}

/// The muscle's values at a state.
#[derive(Clone, Copy, Debug)]
pub struct SchutteOutput<T> {
    /// Tendon force (N).
    pub tendon_force: T,
    /// ℓ̇_M (m/s).
    pub fiber_velocity: T,
    /// ȧ (1/s).
    pub activation_rate: T,
}

/// `ActivationFiberLengthMuscle_Deprecated::calcPennation`.
pub(super) fn pennation<T: Real>(
    fiber_length: T,
    optimal_fiber_length: T,
    angle_at_optimal: f64,
) -> T {
    if fiber_length.re() < f64::EPSILON {
        return T::zero();
    }
    let value = optimal_fiber_length * T::c(angle_at_optimal.sin()) / fiber_length;
    if value.re().is_nan() || value.re() <= 0.0 {
        T::zero()
    } else if value.re() >= 1.0 {
        T::c(std::f64::consts::FRAC_PI_2)
    } else {
        value.asin()
    }
}

impl Schutte1993 {
    /// Checks what the arithmetic divides by.
    pub fn validate(&self) -> Result<(), ModelError> {
        for (name, v) in [
            ("max_isometric_force", self.max_isometric_force),
            ("optimal_fiber_length", self.optimal_fiber_length),
            ("tendon_slack_length", self.tendon_slack_length),
            ("time_scale", self.time_scale),
            ("damping", self.damping),
        ] {
            if !(v > 0.0 && v.is_finite()) {
                return Err(crate::error::invalid!("{name} must be positive, got {v}"));
            }
        }
        Ok(())
    }

    /// F̃_T at normalized tendon length `norm_tendon_length` (`calcTendonForce`).
    fn norm_tendon_force<T: Real>(&self, norm_tendon_length: T) -> T {
        let resting = T::c(self.tendon_slack_length / self.optimal_fiber_length);
        let strain = (norm_tendon_length - resting) / resting;
        if strain.re() < 0.0 {
            T::zero()
        } else {
            self.tendon_force_length_curve.value(strain)
        }
    }

    /// F̃_P at ℓ̃ with no velocity term (`calcNonzeroPassiveForce(ℓ̃, 0)`: OpenSim's
    /// `+ damping · 0` adds nothing).
    pub(super) fn norm_passive_force<T: Real>(&self, norm_fiber_length: T) -> T {
        match &self.passive_force_length_curve {
            None => (T::c(8.0) * (norm_fiber_length - T::one())).exp() / T::c(4f64.exp()),
            Some(curve) => curve.value(norm_fiber_length),
        }
    }

    /// `calcFiberVelocity`: ṽ from activation, F̃_A and F̃_V.
    fn norm_fiber_velocity<T: Real>(&self, a: T, active: T, force: T) -> T {
        let d = T::c(self.damping);
        let kv = T::c(KV);
        let four = T::c(4.0);
        let two = T::c(2.0);
        if force.re() < -self.damping {
            force / d
        } else if force.re() < (a * active).re() {
            let c = kv * (force - a * active) / d;
            let b = -kv * (force / kv + a * active + d) / d;
            (-b - (b * b - four * c).sqrt()) / two
        } else {
            let k = T::c(SLOPE_K * KV / (self.damping * (KV + 1.0)));
            let c = -k * (force - a * active);
            let b = -(force / d - T::c(F_MAX) * a * active / d - T::c(SLOPE_K * KV / (KV + 1.0)));
            (-b + (b * b - four * c).sqrt()) / two
        }
    }

    /// `computeActuation` at path length `length` and speed `speed` (m, m/s).
    pub fn evaluate<T: Real>(
        &self,
        length: T,
        speed: T,
        activation: T,
        fiber_length: T,
        excitation: T,
    ) -> SchutteOutput<T> {
        let l_opt = T::c(self.optimal_fiber_length);
        let norm_fiber_length = fiber_length / l_opt;
        let k2 = T::c(self.activation2);
        let activation_deriv = if excitation.re() >= activation.re() {
            (excitation - activation) * (T::c(self.activation1) * excitation + k2)
        } else {
            (excitation - activation) * k2
        };
        let alpha = pennation(norm_fiber_length, T::one(), self.pennation_angle_at_optimal);
        let ca = alpha.cos();
        let norm_mt_length = length / l_opt;
        let norm_tendon_length = norm_mt_length - norm_fiber_length * ca;
        let tendon_force = self.norm_tendon_force(norm_tendon_length);
        let passive = self.norm_passive_force(norm_fiber_length);
        let mut active = self.active_force_length_curve.value(norm_fiber_length);
        if active.re() < 0.0 {
            active = T::zero();
        }
        let tau = T::c(self.time_scale);
        let norm_velocity = if ca.re().abs() <= ROUNDOFF_ERROR {
            if tendon_force.re().abs() <= ROUNDOFF_ERROR {
                T::zero()
            } else {
                let h = norm_mt_length - T::c(self.tendon_slack_length);
                let w = l_opt * T::c(self.pennation_angle_at_optimal.sin());
                let new_fiber_length = (h * h + w * w).sqrt() / l_opt;
                let new_alpha =
                    pennation(new_fiber_length, T::one(), self.pennation_angle_at_optimal);
                speed * tau / l_opt * new_alpha.cos()
            }
        } else {
            let mut force = tendon_force / ca - passive;
            if force.re() < 0.0 {
                force = T::zero();
            }
            self.norm_fiber_velocity(activation, active, force)
        };
        SchutteOutput {
            tendon_force: tendon_force * T::c(self.max_isometric_force),
            fiber_velocity: norm_velocity * l_opt / tau,
            activation_rate: activation_deriv / tau,
        }
    }
}

/// OpenSim's default `tendon_force_length_curve` knots (strain, F̃_T).
const TENDON_X: [f64; 17] = [
    -10.0, -0.002, -0.001, 0.0, 0.00131, 0.00281, 0.00431, 0.00581, 0.00731, 0.00881, 0.0103,
    0.0118, 0.0123, 9.2, 9.201, 9.202, 20.0,
];
const TENDON_Y: [f64; 17] = [
    0.0, 0.0, 0.0, 0.0, 0.0108, 0.0257, 0.0435, 0.0652, 0.0915, 0.123, 0.161, 0.208, 0.227, 345.0,
    345.0, 345.0, 345.0,
];
/// OpenSim's default `active_force_length_curve` knots (ℓ̃, F̃_A).
const ACTIVE_X: [f64; 21] = [
    -5.307692, -4.307692, -1.923077, -0.884615, -0.269231, 0.230769, 0.461538, 0.52725, 0.62875,
    0.71875, 0.86125, 1.045, 1.2175, 1.43875, 1.5, 1.615385, 2.0, 2.961538, 3.692308, 5.461538,
    9.901902,
];
const ACTIVE_Y: [f64; 21] = [
    0.012188, 0.021899, 0.036466, 0.052493, 0.075312, 0.114158, 0.157859, 0.226667, 0.636667,
    0.856667, 0.95, 0.993333, 0.77, 0.246667, 0.193821, 0.133252, 0.072683, 0.044417, 0.036341,
    0.021899, 0.007332,
];

fn simm_spline(x: &[f64], y: &[f64]) -> Function {
    let spline = crate::math::function::CubicSpline::simm(x.to_vec(), y.to_vec())
        .expect("OpenSim's default knots are increasing");
    Function::Spline(spline)
}

impl Default for Schutte1993 {
    /// OpenSim's defaults (`Muscle::constructProperties` and the muscle's own), the passive
    /// curve being the exponential (OpenSim's default spline property is unused while it is
    /// the default).
    fn default() -> Self {
        Self {
            max_isometric_force: 1000.0,
            optimal_fiber_length: 0.1,
            tendon_slack_length: 0.2,
            pennation_angle_at_optimal: 0.0,
            max_contraction_velocity: 10.0,
            time_scale: 0.1,
            activation1: 7.667,
            activation2: 1.459854,
            damping: 0.1,
            tendon_force_length_curve: simm_spline(&TENDON_X, &TENDON_Y),
            active_force_length_curve: simm_spline(&ACTIVE_X, &ACTIVE_Y),
            passive_force_length_curve: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_dual::Dual64;

    /// A muscle with a 20° pennation and a stiffer-than-default tendon slack length.
    fn muscle() -> Schutte1993 {
        Schutte1993 {
            max_isometric_force: 800.0,
            optimal_fiber_length: 0.08,
            tendon_slack_length: 0.2,
            pennation_angle_at_optimal: 0.35,
            ..Schutte1993::default()
        }
    }

    /// Outputs as one vector, for the comparison.
    fn outputs(m: &Schutte1993, x: [f64; 5]) -> [f64; 3] {
        let o = m.evaluate(x[0], x[1], x[2], x[3], x[4]);
        [o.tendon_force, o.fiber_velocity, o.activation_rate]
    }

    /// Every output's derivative in path length, speed, activation, fibre length and
    /// excitation, by dual numbers, against central differences, at states on both branches
    /// of the force–velocity relation and of the activation dynamics.
    #[test]
    fn dual_derivatives_match_central_differences() {
        let m = muscle();
        // [path length, speed, activation, fibre length, excitation]
        let states = [
            [0.29, 0.1, 0.4, 0.085, 0.8],  // shortening branch, e ≥ a
            [0.285, -0.2, 0.6, 0.07, 0.1], // lengthening branch, e < a
            [0.30, 0.0, 0.05, 0.09, 0.06], // nearly passive
        ];
        for x in states {
            for k in 0..5 {
                let mut dual = x.map(|v| Dual64::new(v, 0.0));
                dual[k].eps = 1.0;
                let o = m.evaluate(dual[0], dual[1], dual[2], dual[3], dual[4]);
                let exact = [
                    o.tendon_force.eps,
                    o.fiber_velocity.eps,
                    o.activation_rate.eps,
                ];
                let h = 1e-7;
                let (mut plus, mut minus) = (x, x);
                plus[k] += h;
                minus[k] -= h;
                let (fp, fm) = (outputs(&m, plus), outputs(&m, minus));
                for i in 0..3 {
                    let fd = (fp[i] - fm[i]) / (2.0 * h);
                    // Central differences at h = 1e-7: truncation h² f''' and round-off
                    // ε |f| / h, below 1e-6 relative for these smooth splines and roots.
                    let gap = (fd - exact[i]).abs() / (1.0 + exact[i].abs());
                    assert!(
                        gap < 1e-6,
                        "state {x:?}, input {k}, output {i}: {fd} vs {}",
                        exact[i]
                    );
                }
            }
        }
    }

    #[test]
    fn the_equilibrium_balances_tendon_and_fibre_forces() {
        let m = muscle();
        let (length, a) = (0.29, 0.3);
        let l = m.equilibrium_fiber_length(length, a);
        let o = m.evaluate(length, 0.0, a, l, a);
        // At equilibrium the fibre neither lengthens nor shortens (within the 0.01 N the
        // iteration stops at, over a force–velocity slope of order F_max ℓ_opt / τ).
        assert!(o.fiber_velocity.abs() < 1e-3, "{}", o.fiber_velocity);
        assert!(o.tendon_force > 1.0, "{}", o.tendon_force);
    }

    #[test]
    fn a_slack_muscle_rests_at_its_width_without_force() {
        let m = muscle();
        let width = m.optimal_fiber_length * m.pennation_angle_at_optimal.sin();
        assert_eq!(m.equilibrium_fiber_length(0.15, 0.5), width);
    }
}
