//! Friction coefficient as a function of slip speed.
//!
//! * **Hollars** (Simbody `HuntCrossleyForce`, `ElasticFoundationForce`; notes §3.1), with
//!   `v_r = |v_t|/v_trans`: `μ = min(v_r, 1) (μd + 2(μs − μd)/(1 + v_r²)) + μv |v_t|`.
//! * **Stribeck** (Simbody `CompliantContactSubsystem`, notes §3.3): C², with `v = |v_t|/v_trans`,
//!   `μ = μs stepUp(v)` for v < 1, `μs − (μs − μd) stepUp((v − 1)/2)` for 1 ≤ v < 3, `μd` for
//!   v ≥ 3, plus `μv |v_t|`; `stepUp(x) = x³(10 − 15x + 6x²)`.
//!
//! Either way the friction force is `μ f_n` opposing the slip.

use crate::scalar::Real;

/// Simbody's `SignificantReal` squared: a slip speed² at or below it has no direction, and
/// the compliant generators apply no friction.
pub(super) const SIGNIFICANT_REAL_SQUARED: f64 =
    crate::scalar::SIGNIFICANT_REAL * crate::scalar::SIGNIFICANT_REAL;

/// Which friction curve a contact element uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrictionModel {
    /// Simbody's `HuntCrossleyForce` (Hollars) curve.
    Hollars,
    /// Simbody's `CompliantContactSubsystem` quintic Stribeck curve.
    Stribeck,
}

/// Simbody's quintic smooth step, 0 → 1 on [0, 1] with zero first and second derivatives at
/// both ends.
#[inline]
pub fn step_up<T: Real>(x: T) -> T {
    x * x * x * (T::c(10.0) + x * (T::c(-15.0) + x * T::c(6.0)))
}

/// Hollars friction coefficient at slip speed `slip` (m/s).
#[inline]
pub fn hollars<T: Real>(slip: T, v_trans: T, mu_s: T, mu_d: T, mu_v: T) -> T {
    let vr = slip / v_trans;
    let ramp = if vr.re() < 1.0 { vr } else { T::one() };
    ramp * (mu_d + T::c(2.0) * (mu_s - mu_d) / (T::one() + vr * vr)) + mu_v * slip
}

/// Stribeck friction coefficient at slip speed `slip` (m/s).
#[inline]
pub fn stribeck<T: Real>(slip: T, v_trans: T, mu_s: T, mu_d: T, mu_v: T) -> T {
    let v = slip / v_trans;
    let dry = if v.re() < 1.0 {
        mu_s * step_up(v)
    } else if v.re() < 3.0 {
        mu_s - (mu_s - mu_d) * step_up((v - T::one()) * T::c(0.5))
    } else {
        mu_d
    };
    dry + mu_v * slip
}

/// [`stribeck`] as Simbody's `CompliantContactSubsystem` writes it (`stribeck(us, ud, uv, v)`),
/// with `uv` and `v` already in multiples of the transition velocity: the same curve, another
/// rounding. Its half-space/sphere contacts use it (`compliant_point.rs`).
#[inline(always)]
pub(super) fn stribeck_in_transition_units<T: Real>(us: T, ud: T, uv: T, v: T) -> T {
    let mu_wet = uv * v;
    let mu_dry = if v.re() >= 3.0 {
        ud
    } else if v.re() >= 1.0 {
        us - (us - ud) * step_up((v - T::one()) / T::c(2.0))
    } else {
        us * step_up(v)
    };
    mu_dry + mu_wet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stribeck_matches_simbody_probe() {
        // Notes §3.3: combined μs = 0.7875, μd = 0.375, v_t = 1.
        let f = |v: f64| stribeck(v, 1.0, 0.7875, 0.375, 0.0);
        assert!((f(0.5) - 0.39375).abs() < 1e-12);
        assert!((f(1.0) - 0.7875).abs() < 1e-12);
        assert!((f(1.5) - 0.7447998046875).abs() < 1e-7);
        assert!((f(2.0) - 0.58125).abs() < 1e-12);
        assert!((f(3.5) - 0.375).abs() < 1e-15);
    }

    #[test]
    fn hollars_peaks_at_the_transition_velocity() {
        let f = |v: f64| hollars(v, 0.01, 0.8, 0.5, 0.0);
        assert!((f(0.01) - 0.8).abs() < 1e-15);
        assert!(f(0.005) < 0.8 && f(0.02) < 0.8);
        assert!((f(100.0) - 0.5).abs() < 1e-6);
        assert_eq!(f(0.0), 0.0);
    }
}
