//! OpenSim's `MuscleFixedWidthPennationModel`: the fibre keeps a constant width
//! `h = ℓ_opt sin α_opt`, so `sin α = h/ℓ_M` up to the maximum pennation angle α_max, below
//! which the fibre cannot shorten (`ℓ_min = h / sin α_max`, or 0.01 ℓ_opt when α_max = 0).
//! The tendon takes the rest of the path: `ℓ_T = ℓ_MT − ℓ_M cos α`; with a rigid tendon the
//! fibre length is `√(h² + (ℓ_MT − ℓ_T)²)`. Lengths in m, angles in rad.
//!
//! Source: OpenSim 4.6 `OpenSim/Actuators/MuscleFixedWidthPennationModel.cpp`.

use crate::scalar::Real;
use crate::scalar::SIGNIFICANT_REAL;

/// A fixed-width pennation model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedWidthPennation {
    pennation_angle_at_optimal: f64,
    maximum_pennation_angle: f64,
    parallelogram_height: f64,
    maximum_sin_pennation: f64,
    minimum_fiber_length: f64,
    minimum_fiber_length_along_tendon: f64,
}

impl FixedWidthPennation {
    /// The model of a fibre of optimal length `ofl` at pennation `alpha_opt`, limited to
    /// `alpha_max` (`extendFinalizeFromProperties`).
    pub fn new(ofl: f64, alpha_opt: f64, alpha_max: f64) -> Self {
        let h = ofl * alpha_opt.sin();
        let max_sin = alpha_max.sin();
        let min_length = if alpha_max > SIGNIFICANT_REAL {
            h / max_sin
        } else {
            ofl * 0.01
        };
        Self {
            pennation_angle_at_optimal: alpha_opt,
            maximum_pennation_angle: alpha_max,
            parallelogram_height: h,
            maximum_sin_pennation: max_sin,
            minimum_fiber_length: min_length,
            minimum_fiber_length_along_tendon: min_length * alpha_max.cos(),
        }
    }

    /// The shortest fibre (m).
    pub fn minimum_fiber_length(&self) -> f64 {
        self.minimum_fiber_length
    }

    /// α at fibre length ℓ_M (`calcPennationAngle`).
    pub fn angle<T: Real>(&self, fiber_length: T) -> T {
        if self.pennation_angle_at_optimal <= f64::EPSILON {
            return T::zero();
        }
        if fiber_length.re() > self.minimum_fiber_length {
            let sin_phi = T::c(self.parallelogram_height) / fiber_length;
            if sin_phi.re() < self.maximum_sin_pennation {
                return sin_phi.asin();
            }
        }
        T::c(self.maximum_pennation_angle)
    }

    /// ℓ_M of a path of length ℓ_MT whose tendon is ℓ_T long (`calcFiberLength`).
    pub fn fiber_length<T: Real>(&self, path_length: T, tendon_length: T) -> T {
        let along_tendon = path_length - tendon_length;
        if along_tendon.re() >= self.minimum_fiber_length_along_tendon {
            let h = T::c(self.parallelogram_height);
            (h * h + along_tendon * along_tendon).sqrt()
        } else {
            T::c(self.minimum_fiber_length)
        }
    }

    /// dα/dℓ_M (`calc_DPennationAngle_DfiberLength`).
    pub fn d_angle_d_fiber_length(&self, fiber_length: f64) -> f64 {
        let h_over_l = self.parallelogram_height / fiber_length;
        (-h_over_l / fiber_length) / (1.0 - h_over_l * h_over_l).sqrt()
    }
}
