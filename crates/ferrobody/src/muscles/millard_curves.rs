//! The four curves of the Millard 2012 muscle, as OpenSim builds them from their properties
//! (`SmoothSegmentedFunctionFactory`), each a [`SmoothCurve`] of quintic Bézier corners.
//!
//! * active force–length (`ActiveForceLengthCurve`): five corners through
//!   (ℓ₀, y_min) → ascending limb → (1, 1) → descending limb → (ℓ₃, y_min), curviness 1;
//! * force–velocity (`ForceVelocityCurve`): four corners through (−1, 0), (−0.9, ·), (0, 1),
//!   (0.9, ·), (1, f_max,E) with the five slopes; its inverse swaps x and y;
//! * passive fibre force–length (`FiberForceLengthCurve`): two corners from (1 + ε₀, 0) to
//!   (1 + ε₁, 1), fitted slopes k_iso = 2/(ε₁ − ε₀), k_low = 0.2, curviness 0.75 unless all
//!   three are given;
//! * tendon force–length (`TendonForceLengthCurve`): two corners from (1, 0) to the toe end
//!   (1 + ε_iso + (f_toe − 1)/k_iso, f_toe), fitted k_iso = 1.375/ε_iso, f_toe = 2/3,
//!   curviness 0.5 unless all three are given.
//!
//! Curviness c enters as 0.1 + 0.8 c (`scaleCurviness`). Dimensionless (normalized lengths,
//! velocities and forces). Source: OpenSim 4.6 `OpenSim/Common/SmoothSegmentedFunctionFactory.cpp`,
//! `OpenSim/Actuators/{ActiveForceLength, ForceVelocity, ForceVelocityInverse, FiberForceLength,
//! TendonForceLength}Curve.cpp`.

use super::smooth_curve::{corner, SmoothCurve};

fn scale_curviness(c: f64) -> f64 {
    0.1 + 0.8 * c
}

/// `ActiveForceLengthCurve`'s properties (OpenSim's defaults in [`Default`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActiveForceLength {
    /// `min_norm_active_fiber_length`.
    pub min_norm_active_fiber_length: f64,
    /// `transition_norm_fiber_length`.
    pub transition_norm_fiber_length: f64,
    /// `max_norm_active_fiber_length`.
    pub max_norm_active_fiber_length: f64,
    /// `shallow_ascending_slope`.
    pub shallow_ascending_slope: f64,
    /// `minimum_value`.
    pub minimum_value: f64,
}

impl Default for ActiveForceLength {
    fn default() -> Self {
        Self {
            min_norm_active_fiber_length: 0.47 - 0.0259,
            transition_norm_fiber_length: 0.73,
            max_norm_active_fiber_length: 1.8123,
            shallow_ascending_slope: 0.8616,
            minimum_value: 0.1,
        }
    }
}

impl ActiveForceLength {
    /// `createFiberActiveForceLengthCurve(x0, x1, 1, x3, ylow, dydx, 1)`.
    pub fn curve(&self) -> SmoothCurve {
        let (x0, x1, x2, x3) = (
            self.min_norm_active_fiber_length,
            self.transition_norm_fiber_length,
            1.0,
            self.max_norm_active_fiber_length,
        );
        let (ylow, dydx) = (self.minimum_value, self.shallow_ascending_slope);
        let c = scale_curviness(1.0);
        let x_delta = 0.05 * x2;
        let xs = x2 - x_delta;
        let (y0, dydx0) = (0.0, 0.0);
        let y1 = 1.0 - dydx * (xs - x1);
        let dydx01 = 1.25 * (y1 - y0) / (x1 - x0);
        let x01 = x0 + 0.5 * (x1 - x0);
        let y01 = y0 + 0.5 * (y1 - y0);
        let x1s = x1 + 0.5 * (xs - x1);
        let y1s = y1 + 0.5 * (1.0 - y1);
        let (y2, dydx2, y3, dydx3) = (1.0, 0.0, 0.0, 0.0);
        let x23 = (x2 + x_delta) + 0.5 * (x3 - (x2 + x_delta));
        let y23 = y2 + 0.5 * (y3 - y2);
        let dydx23 = (y3 - y2) / ((x3 - x_delta) - (x2 + x_delta));
        let sections = vec![
            corner((x0, ylow, dydx0), (x01, y01, dydx01), c),
            corner((x01, y01, dydx01), (x1s, y1s, dydx), c),
            corner((x1s, y1s, dydx), (x2, y2, dydx2), c),
            corner((x2, y2, dydx2), (x23, y23, dydx23), c),
            corner((x23, y23, dydx23), (x3, ylow, dydx3), c),
        ];
        SmoothCurve::new(sections, [(x0, ylow, 0.0), (x3, ylow, 0.0)])
    }
}

/// `ForceVelocityCurve`'s properties (OpenSim's defaults in [`Default`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForceVelocity {
    /// `concentric_slope_at_vmax`.
    pub concentric_slope_at_vmax: f64,
    /// `concentric_slope_near_vmax`.
    pub concentric_slope_near_vmax: f64,
    /// `isometric_slope`.
    pub isometric_slope: f64,
    /// `eccentric_slope_at_vmax`.
    pub eccentric_slope_at_vmax: f64,
    /// `eccentric_slope_near_vmax`.
    pub eccentric_slope_near_vmax: f64,
    /// `max_eccentric_velocity_force_multiplier`.
    pub max_eccentric_velocity_force_multiplier: f64,
    /// `concentric_curviness`.
    pub concentric_curviness: f64,
    /// `eccentric_curviness`.
    pub eccentric_curviness: f64,
}

impl Default for ForceVelocity {
    fn default() -> Self {
        Self {
            concentric_slope_at_vmax: 0.0,
            concentric_slope_near_vmax: 0.25,
            isometric_slope: 5.0,
            eccentric_slope_at_vmax: 0.0,
            eccentric_slope_near_vmax: 0.15,
            max_eccentric_velocity_force_multiplier: 1.4,
            concentric_curviness: 0.6,
            eccentric_curviness: 0.9,
        }
    }
}

impl ForceVelocity {
    /// The corners of `createFiberForceVelocityCurve` as (x, y) sections, with the end points.
    #[allow(clippy::type_complexity)]
    fn corners(&self) -> (Vec<([f64; 6], [f64; 6])>, [(f64, f64, f64); 2]) {
        let cc = scale_curviness(self.concentric_curviness);
        let ce = scale_curviness(self.eccentric_curviness);
        let (dydx_c, dydx_near_c) = (
            self.concentric_slope_at_vmax,
            self.concentric_slope_near_vmax,
        );
        let (dydx_e, dydx_near_e) = (self.eccentric_slope_at_vmax, self.eccentric_slope_near_vmax);
        let dydx_iso = self.isometric_slope;
        let (xc, yc) = (-1.0, 0.0);
        let x_near_c = -0.9;
        let y_near_c = yc + 0.5 * dydx_near_c * (x_near_c - xc) + 0.5 * dydx_c * (x_near_c - xc);
        let (x_iso, y_iso) = (0.0, 1.0);
        let (xe, ye) = (1.0, self.max_eccentric_velocity_force_multiplier);
        let x_near_e = 0.9;
        let y_near_e = ye + 0.5 * dydx_near_e * (x_near_e - xe) + 0.5 * dydx_e * (x_near_e - xe);
        let sections = vec![
            corner((xc, yc, dydx_c), (x_near_c, y_near_c, dydx_near_c), cc),
            corner(
                (x_near_c, y_near_c, dydx_near_c),
                (x_iso, y_iso, dydx_iso),
                cc,
            ),
            corner(
                (x_iso, y_iso, dydx_iso),
                (x_near_e, y_near_e, dydx_near_e),
                ce,
            ),
            corner((x_near_e, y_near_e, dydx_near_e), (xe, ye, dydx_e), ce),
        ];
        (sections, [(xc, yc, dydx_c), (xe, ye, dydx_e)])
    }

    /// `createFiberForceVelocityCurve`.
    pub fn curve(&self) -> SmoothCurve {
        let (sections, ends) = self.corners();
        SmoothCurve::new(sections, ends)
    }

    /// `createFiberForceVelocityInverseCurve`: the same corners with x and y swapped.
    pub fn inverse_curve(&self) -> SmoothCurve {
        let (sections, [(xc, yc, dc), (xe, ye, de)]) = self.corners();
        let swapped = sections.into_iter().map(|(x, y)| (y, x)).collect();
        SmoothCurve::new(swapped, [(yc, xc, 1.0 / dc), (ye, xe, 1.0 / de)])
    }
}

/// `FiberForceLengthCurve`'s properties; the optional three are fitted when all are absent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FiberForceLength {
    /// `strain_at_zero_force`.
    pub strain_at_zero_force: f64,
    /// `strain_at_one_norm_force`.
    pub strain_at_one_norm_force: f64,
    /// (`stiffness_at_low_force`, `stiffness_at_one_norm_force`, `curviness`), or none.
    pub shape: Option<(f64, f64, f64)>,
}

impl Default for FiberForceLength {
    fn default() -> Self {
        Self {
            strain_at_zero_force: 0.0,
            strain_at_one_norm_force: 0.7,
            shape: None,
        }
    }
}

impl FiberForceLength {
    /// `createFiberForceLengthCurve` with the stiffnesses and curviness in use.
    pub fn curve(&self) -> SmoothCurve {
        let (e0, e1) = (self.strain_at_zero_force, self.strain_at_one_norm_force);
        let (k_low, k_iso, curviness) = self.shape.unwrap_or((0.2, 2.0 / (e1 - e0), 0.75));
        let c = scale_curviness(curviness);
        let (x_zero, y_zero) = (1.0 + e0, 0.0);
        let (x_iso, y_iso) = (1.0 + e1, 1.0);
        let delta_x = (0.1 * (1.0 / k_iso)).min(0.1 * (x_iso - x_zero));
        let x_low = x_zero + delta_x;
        let x_foot = x_zero + 0.5 * (x_low - x_zero);
        let y_low = k_low * (x_low - x_foot);
        let sections = vec![
            corner((x_zero, y_zero, 0.0), (x_low, y_low, k_low), c),
            corner((x_low, y_low, k_low), (x_iso, y_iso, k_iso), c),
        ];
        SmoothCurve::new(sections, [(x_zero, y_zero, 0.0), (x_iso, y_iso, k_iso)])
    }
}

/// `TendonForceLengthCurve`'s properties; the optional three are fitted when all are absent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TendonForceLength {
    /// `strain_at_one_norm_force`.
    pub strain_at_one_norm_force: f64,
    /// (`stiffness_at_one_norm_force`, `norm_force_at_toe_end`, `curviness`), or none.
    pub shape: Option<(f64, f64, f64)>,
}

impl Default for TendonForceLength {
    fn default() -> Self {
        Self {
            strain_at_one_norm_force: 0.049,
            shape: None,
        }
    }
}

impl TendonForceLength {
    /// `createTendonForceLengthCurve` with the stiffness, toe force and curviness in use.
    pub fn curve(&self) -> SmoothCurve {
        let e_iso = self.strain_at_one_norm_force;
        let (k_iso, y_toe, curviness) = self.shape.unwrap_or((1.375 / e_iso, 2.0 / 3.0, 0.5));
        let c = scale_curviness(curviness);
        let (x0, y0, dydx0) = (1.0, 0.0, 0.0);
        let (x_iso, y_iso) = (1.0 + e_iso, 1.0);
        let x_toe = (y_toe - 1.0) / k_iso + x_iso;
        let (x_foot, y_foot) = (1.0 + (x_toe - 1.0) / 10.0, 0.0);
        let y_toe_mid = y_toe * 0.5;
        let x_toe_mid = (y_toe_mid - y_iso) / k_iso + x_iso;
        let dydx_toe_mid = (y_toe_mid - y_foot) / (x_toe_mid - x_foot);
        let x_toe_ctrl = x_foot + 0.5 * (x_toe_mid - x_foot);
        let y_toe_ctrl = y_foot + dydx_toe_mid * (x_toe_ctrl - x_foot);
        let sections = vec![
            corner((x0, y0, dydx0), (x_toe_ctrl, y_toe_ctrl, dydx_toe_mid), c),
            corner(
                (x_toe_ctrl, y_toe_ctrl, dydx_toe_mid),
                (x_toe, y_toe, k_iso),
                c,
            ),
        ];
        SmoothCurve::new(sections, [(x0, y0, dydx0), (x_toe, y_toe, k_iso)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_curves_pass_through_their_defining_points() {
        let fal = ActiveForceLength::default().curve();
        assert!((fal.value_and_slope(1.0).0 - 1.0).abs() < 1e-12);
        assert!(fal.value_and_slope(1.0).1.abs() < 1e-9);
        let fv = ForceVelocity::default().curve();
        assert!((fv.value_and_slope(0.0).0 - 1.0).abs() < 1e-12);
        assert!((fv.value_and_slope(0.0).1 - 5.0).abs() < 1e-9);
        assert!((fv.value_and_slope(1.0).0 - 1.4).abs() < 1e-12);
        let fv_inv = ForceVelocity::default().inverse_curve();
        for &v in &[-0.95, -0.5, -0.1, 0.0, 0.3, 0.85] {
            let f = fv.value_and_slope(v).0;
            assert!((fv_inv.value_and_slope(f).0 - v).abs() < 1e-12, "v {v}");
        }
        let fpe = FiberForceLength::default().curve();
        assert!((fpe.value_and_slope(1.7).0 - 1.0).abs() < 1e-12);
        assert_eq!(fpe.value_and_slope(0.9), (0.0, 0.0));
        let fse = TendonForceLength::default().curve();
        assert!((fse.value_and_slope(1.049).0 - 1.0).abs() < 1e-12);
        assert!((fse.value_and_slope(1.049).1 - 1.375 / 0.049).abs() < 1e-9);
    }
}
