//! The fibre length at which a [`Schutte1993`] muscle's tendon and fibre forces balance, as
//! OpenSim's `Schutte1993Muscle_Deprecated::computeIsometricForce` finds it (what
//! `Model::equilibrateMuscles` runs for it): from the optimal fibre length, at most 100 steps
//! of a secant on sign change, else a step of the force error over the fibre's and tendon's
//! stiffnesses (at most half an optimal length), until the forces agree within 0.01 N. The
//! arithmetic is OpenSim's, step for step; it ends where OpenSim's ends, converged or not.

use super::schutte1993::{pennation, Schutte1993, ROUNDOFF_ERROR};

/// `MAX_ITERATIONS` and `ERROR_LIMIT` (N) of `computeIsometricForce`.
const MAX_ITERATIONS: usize = 100;
const ERROR_LIMIT: f64 = 0.01;

/// SimmMacros' `DSIGN`.
fn sign(x: f64) -> i32 {
    if x >= 0.0 {
        1
    } else {
        -1
    }
}

impl Schutte1993 {
    /// f_A and f_P at fibre length `fiber_length` (m), as `computeIsometricForce` reads them.
    fn active_at(&self, fiber_length: f64) -> f64 {
        self.active_force_length_curve
            .value(fiber_length / self.optimal_fiber_length)
    }

    fn passive_at(&self, fiber_length: f64) -> f64 {
        self.norm_passive_force(fiber_length / self.optimal_fiber_length)
    }

    /// The equilibrium fibre length (m) at path length `length` (m) and activation `a`.
    pub fn equilibrium_fiber_length(&self, length: f64, a: f64) -> f64 {
        let (l_opt, l_s, f_max) = (
            self.optimal_fiber_length,
            self.tendon_slack_length,
            self.max_isometric_force,
        );
        let alpha_opt = self.pennation_angle_at_optimal;
        if l_opt < ROUNDOFF_ERROR {
            return 0.0;
        }
        let muscle_width = l_opt * alpha_opt.sin();
        if l_s < ROUNDOFF_ERROR {
            let cos_factor = (muscle_width / length).atan().cos();
            return length / cos_factor;
        }
        if length < l_s {
            return muscle_width;
        }
        let mut fiber_length = l_opt;
        let mut cos_factor = pennation(fiber_length, l_opt, alpha_opt).cos();
        let mut tendon_length = length - fiber_length * cos_factor;
        if tendon_length < l_s {
            tendon_length = l_s;
            cos_factor = (muscle_width / (length - tendon_length)).atan().cos();
            fiber_length = (length - tendon_length) / cos_factor;
            if fiber_length < muscle_width {
                fiber_length = muscle_width;
            }
        }
        let mut old_fiber_length = f64::NAN;
        let mut error_force = 0.0;
        for i in 0..MAX_ITERATIONS {
            let mut active = self.active_at(fiber_length) * a;
            if active < 0.0 {
                active = 0.0;
            }
            let mut passive = self.passive_at(fiber_length);
            if passive < 0.0 {
                passive = 0.0;
            }
            let fiber_force = (active + passive) * f_max * cos_factor;
            let tendon_strain = tendon_length / l_s - 1.0;
            let tendon_force = if tendon_strain < 0.0 {
                0.0
            } else {
                self.tendon_force_length_curve.value(tendon_strain) * f_max
            };
            let mut old_error_force = error_force;
            error_force = tendon_force - fiber_force;
            if error_force.abs() <= ERROR_LIMIT {
                break;
            }
            if i == 0 {
                old_error_force = error_force;
            }
            if sign(error_force) != sign(old_error_force) {
                let percent = error_force.abs() / (error_force.abs() + old_error_force.abs());
                let tmp_fiber_length = old_fiber_length;
                old_fiber_length = fiber_length;
                fiber_length += percent * (tmp_fiber_length - fiber_length);
            } else {
                let (tendon_elastic_modulus, tendon_max_stress) = (1200.0, 32.0);
                let mut tendon_stiffness =
                    self.tendon_force_length_curve.value(tendon_strain) * f_max / l_s;
                let min_tendon_stiffness =
                    (active + passive) * tendon_elastic_modulus * f_max / (tendon_max_stress * l_s);
                if tendon_stiffness < min_tendon_stiffness {
                    tendon_stiffness = min_tendon_stiffness;
                }
                let fiber_stiffness =
                    f_max / l_opt * (self.active_at(fiber_length) + self.passive_at(fiber_length));
                let mut length_change =
                    (error_force / (fiber_stiffness / cos_factor + tendon_stiffness)).abs();
                if (length_change / l_opt).abs() > 0.5 {
                    length_change = 0.5 * l_opt;
                }
                old_fiber_length = fiber_length;
                if error_force > 0.0 {
                    fiber_length += length_change;
                } else {
                    fiber_length -= length_change;
                }
            }
            cos_factor = pennation(fiber_length, l_opt, alpha_opt).cos();
            tendon_length = length - fiber_length * cos_factor;
            if tendon_length < l_s {
                tendon_length = l_s;
                cos_factor = (muscle_width / (length - tendon_length)).atan().cos();
                fiber_length = (length - tendon_length) / cos_factor;
            }
        }
        fiber_length
    }
}
