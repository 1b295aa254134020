//! OpenSim's `RigidTendonMuscle`: a muscle without states whose tendon is rigid and whose
//! activation is its control (no activation dynamics), with SIMM-style curves.
//!
//! With path length ℓ and lengthening speed ℓ̇, tendon slack length ℓ_T, optimal fibre length
//! ℓ_opt, pennation angle α₀ at optimal length (fixed width `w = ℓ_opt sin α₀`), maximum
//! isometric force F_max and maximum contraction velocity v_max (ℓ_opt/s):
//! * fibre along the tendon `x = max(ℓ − ℓ_T, 0)`; fibre length `ℓ_M = √(x² + w²)` and
//!   `cos α = x/ℓ_M` when `w > √ε`, else `ℓ_M = x`, `cos α = 1`;
//! * multipliers `f_L = f_active(ℓ_M/ℓ_opt)`, `f_P = clamp(f_passive(ℓ_M/ℓ_opt), 0, 10)`,
//!   `f_V = f_velocity(ℓ̇/(ℓ_opt v_max))` — the fibre velocity is the path's speed;
//! * tendon force `F_T = (F_max a f_L f_V + F_max f_P) cos α` with `a` the control (N).
//!
//! The three curves are any OpenSim functions; left out, OpenSim's defaults (SimmSplines of
//! 21, 13 and 42 points). Source: OpenSim 4.6 `OpenSim/Actuators/RigidTendonMuscle.cpp`
//! (`calcMuscleLengthInfo`, `calcFiberVelocityInfo`, `calcMuscleDynamicsInfo`) and
//! `Muscle.cpp` (`_muscleWidth`).

use super::{default_ligament_curve, MuscleOutput};
use crate::error::{invalid, ModelError};
use crate::math::function::{CubicSpline, Function};
use crate::scalar::Real;

/// OpenSim's `RigidTendonMuscle`.
#[derive(Clone, Debug, PartialEq)]
pub struct RigidTendon {
    /// `max_isometric_force` F_max (N).
    pub max_isometric_force: f64,
    /// `optimal_fiber_length` ℓ_opt (m).
    pub optimal_fiber_length: f64,
    /// `tendon_slack_length` ℓ_T (m).
    pub tendon_slack_length: f64,
    /// `pennation_angle_at_optimal` α₀ (rad).
    pub pennation_angle_at_optimal: f64,
    /// `max_contraction_velocity` v_max (optimal fibre lengths per second).
    pub max_contraction_velocity: f64,
    /// `active_force_length_curve` of the normalized fibre length.
    pub active_force_length_curve: Function,
    /// `passive_force_length_curve` of the normalized fibre length.
    pub passive_force_length_curve: Function,
    /// `force_velocity_curve` of the normalized fibre velocity.
    pub force_velocity_curve: Function,
}

fn spline(x: &[f64], y: &[f64]) -> Function {
    Function::Spline(CubicSpline::simm(x.to_vec(), y.to_vec()).expect("increasing abscissae"))
}

impl Default for RigidTendon {
    /// The `Muscle` base's defaults and `RigidTendonMuscle::constructProperties`' curves.
    fn default() -> Self {
        let active = spline(
            &[
                -5.307692, -4.307692, -1.923077, -0.884615, -0.269231, 0.230769, 0.461538, 0.52725,
                0.62875, 0.71875, 0.86125, 1.045, 1.2175, 1.43875, 1.5, 1.615385, 2.0, 2.961538,
                3.692308, 5.461538, 9.901902,
            ],
            &[
                0.012188, 0.021899, 0.036466, 0.052493, 0.075312, 0.114158, 0.157859, 0.226667,
                0.636667, 0.856667, 0.95, 0.993333, 0.77, 0.246667, 0.193821, 0.133252, 0.072683,
                0.044417, 0.036341, 0.021899, 0.007332,
            ],
        );
        // The same 13-point spline as a Ligament's default force-length curve.
        let passive = default_ligament_curve();
        let velocity = spline(
            &[
                -1.001, -1.0, -0.95, -0.9, -0.85, -0.8, -0.75, -0.7, -0.65, -0.6, -0.55, -0.5,
                -0.45, -0.4, -0.35, -0.3, -0.25, -0.2, -0.15, -0.1, -0.05, 0.0, 0.05, 0.1, 0.15,
                0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9,
                0.95, 1.0,
            ],
            &[
                0.0, 0.0, 0.010417, 0.021739, 0.034091, 0.047619, 0.0625, 0.078947, 0.097222,
                0.117647, 0.140625, 0.166667, 0.196429, 0.230769, 0.270833, 0.318182, 0.375,
                0.444444, 0.53125, 0.642857, 0.791667, 1.0, 1.482014, 1.601571, 1.655791, 1.686739,
                1.706751, 1.720753, 1.731099, 1.739055, 1.745365, 1.75049, 1.754736, 1.758312,
                1.761364, 1.763999, 1.766298, 1.768321, 1.770115, 1.771717, 1.773155, 1.774455,
            ],
        );
        Self {
            max_isometric_force: 1000.0,
            optimal_fiber_length: 0.1,
            tendon_slack_length: 0.2,
            pennation_angle_at_optimal: 0.0,
            max_contraction_velocity: 10.0,
            active_force_length_curve: active,
            passive_force_length_curve: passive,
            force_velocity_curve: velocity,
        }
    }
}

impl RigidTendon {
    /// Checks the properties (finite; positive optimal fibre length and contraction velocity;
    /// pennation in [0, π/2), as OpenSim's `Muscle` requires).
    pub fn validate(&self) -> Result<(), ModelError> {
        for (name, v) in [
            ("max_isometric_force", self.max_isometric_force),
            ("optimal_fiber_length", self.optimal_fiber_length),
            ("tendon_slack_length", self.tendon_slack_length),
            ("max_contraction_velocity", self.max_contraction_velocity),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(invalid!("{name} must be finite and not negative, got {v}"));
            }
        }
        if self.optimal_fiber_length == 0.0 || self.max_contraction_velocity == 0.0 {
            return Err(
                "optimal_fiber_length and max_contraction_velocity must be positive".into(),
            );
        }
        let alpha = self.pennation_angle_at_optimal;
        if !(0.0..std::f64::consts::FRAC_PI_2).contains(&alpha) {
            return Err(invalid!(
                "pennation_angle_at_optimal must be in [0, π/2), got {alpha}"
            ));
        }
        Ok(())
    }

    /// Tendon force, fibre length and fibre velocity at path length `length` (m) and speed
    /// `speed` (m/s) with activation (the control) `activation`.
    pub fn evaluate<T: Real>(&self, length: T, speed: T, activation: T) -> MuscleOutput<T> {
        let l_opt = self.optimal_fiber_length;
        let width = l_opt * self.pennation_angle_at_optimal.sin();
        let mut along = length - T::c(self.tendon_slack_length);
        if along.re() < 0.0 {
            along = T::zero();
        }
        let (fiber_length, cos_pennation) = if width > f64::EPSILON.sqrt() {
            let l = (along * along + T::c(width * width)).sqrt();
            (l, along / l)
        } else {
            (along, T::one())
        };
        let norm_length = fiber_length / T::c(l_opt);
        let f_active = self.active_force_length_curve.value(norm_length);
        let mut f_passive = self.passive_force_length_curve.value(norm_length);
        if f_passive.re() < 0.0 {
            f_passive = T::zero();
        } else if f_passive.re() > 10.0 {
            f_passive = T::c(10.0);
        }
        let norm_velocity = speed / T::c(l_opt * self.max_contraction_velocity);
        let f_velocity = self.force_velocity_curve.value(norm_velocity);
        let f_max = T::c(self.max_isometric_force);
        let active = f_max * (activation * f_active * f_velocity);
        let passive = f_max * f_passive;
        MuscleOutput {
            tendon_force: (active + passive) * cos_pennation,
            fiber_length,
            fiber_velocity: speed,
            norm_tendon_force_dot: T::zero(),
        }
    }
}
