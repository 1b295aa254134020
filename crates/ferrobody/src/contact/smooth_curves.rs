//! Tables of the smooth sphere/half-space force law: the curves of the seed documentation's
//! three figures (smooth against original Hertz force, smooth against original Hunt–Crossley
//! force, and the error of the potential-energy approximation), for any parameters. The
//! command `ferrobody curves smooth-sphere-half-space` writes and plots them.

use super::smooth_sphere_halfspace::{smooth_normal_force, SmoothContactParameters};
use num_dual::Dual64;

/// The original (unsmoothed) Hertz force `(4/3) k √(R k) x^(3/2)` for x > 0, else 0, with
/// `k = ½ E^(2/3)` as in the smooth model.
pub fn original_hertz(p: &SmoothContactParameters<f64>, radius: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let k = 0.5 * p.stiffness.powf(2.0 / 3.0);
    4.0 / 3.0 * k * (radius * k).sqrt() * x.powf(1.5)
}

/// The original Hunt–Crossley force `max(0, f_H (1 + 1.5 c v))`.
pub fn original_hunt_crossley(
    p: &SmoothContactParameters<f64>,
    radius: f64,
    x: f64,
    v: f64,
) -> f64 {
    (original_hertz(p, radius, x) * (1.0 + 1.5 * p.dissipation * v)).max(0.0)
}

/// One row of the depth table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthRow {
    /// Penetration x (m).
    pub x: f64,
    /// Smooth normal force at rates 0, +0.5 and −0.5 m/s (N).
    pub force: [f64; 3],
    /// Potential-energy approximation at rate 0 (J).
    pub potential_energy: f64,
    /// Its derivative with respect to x (N), exact (dual numbers).
    pub potential_energy_slope: f64,
    /// Original Hertz force, and original Hunt–Crossley force at +0.5 and −0.5 m/s (N).
    pub original: [f64; 3],
}

/// The rates of the depth table (m/s, positive = approaching).
pub const DEPTH_TABLE_RATES: [f64; 3] = [0.0, 0.5, -0.5];

/// Penetration from −0.01 to 0.05 m in 601 points (the seed's figures).
pub fn force_vs_depth(p: &SmoothContactParameters<f64>, radius: f64) -> Vec<DepthRow> {
    let dual = p.cast::<Dual64>();
    (0..601)
        .map(|i| {
            let x = -0.01 + i as f64 * 1e-4;
            let force =
                DEPTH_TABLE_RATES.map(|v| smooth_normal_force(p, radius, x, v).hunt_crossley);
            let pe = smooth_normal_force(
                &dual,
                Dual64::from(radius),
                Dual64::from(x).derivative(),
                Dual64::from(0.0),
            )
            .potential_energy;
            let original = [
                original_hertz(p, radius, x),
                original_hunt_crossley(p, radius, x, 0.5),
                original_hunt_crossley(p, radius, x, -0.5),
            ];
            DepthRow {
                x,
                force,
                potential_energy: pe.re,
                potential_energy_slope: pe.eps,
                original,
            }
        })
        .collect()
}

/// Penetration rate from −1 to 1 m/s in 401 points at penetration `x` (m): (rate, smooth force,
/// original Hunt–Crossley force).
pub fn force_vs_rate(p: &SmoothContactParameters<f64>, radius: f64, x: f64) -> Vec<[f64; 3]> {
    (0..401)
        .map(|i| {
            let v = -1.0 + i as f64 * 0.005;
            [
                v,
                smooth_normal_force(p, radius, x, v).hunt_crossley,
                original_hunt_crossley(p, radius, x, v),
            ]
        })
        .collect()
}
