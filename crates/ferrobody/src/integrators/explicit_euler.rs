//! Explicit (forward) Euler, `y1 = y0 + h f(t0, y0)`, in two forms:
//!
//! * `explicit-euler`: Simbody's `ExplicitEulerIntegrator`, error-controlled. The end state is
//!   projected, its derivative `f1` evaluated, and the error estimated against the trapezoidal
//!   rule from the unprojected end: `err = y1 − (y0 + h/2 (f0 + f1))`, error order 2
//!   (`ExplicitEulerIntegratorRep::attemptDAEStep`). Reports between steps are interpolated
//!   linearly, as Simbody's `createInterpolatedState` does.
//! * `explicit-euler-fixed`: the same step at a fixed size, no error control.
//!
//! First order: for comparisons and teaching, not for production runs.

use super::rk_merson::MersonWorkspace;
use crate::scalar::Real;

/// The exponent of Simbody's step-size rule for the error-controlled form (`errOrder`).
pub const ERROR_ORDER: i32 = 2;

/// One Euler step from `(t0, y0, f0)` to `t1`; writes `ws.y1`.
pub fn step<T: Real>(t0: f64, y0: &[T], f0: &[T], t1: f64, ws: &mut MersonWorkspace<T>) {
    let h = T::c(t1 - t0);
    for i in 0..y0.len() {
        ws.y1[i] = y0[i] + h * f0[i];
    }
}

/// The error estimate of the error-controlled form: `y_err` holds the unprojected end state on
/// entry and `y1 − (y0 + h/2 (f0 + f1))` on return (Simbody's arithmetic order).
pub fn error_estimate<T: Real>(h: f64, y0: &[T], f0: &[T], f1: &[T], y_err: &mut [T]) {
    let half_h = T::c(h / 2.0);
    for i in 0..y0.len() {
        y_err[i] -= y0[i] + half_h * (f0[i] + f1[i]);
    }
}

/// Linear interpolation between the step ends at time `t` (Simbody's ExplicitEuler
/// `createInterpolatedState`: weights `(t1 − t)/(t1 − t0)` and one minus it).
pub fn interpolate<T: Real>(t0: f64, y0: &[T], t1: f64, y1: &[T], t: f64, out: &mut [T]) {
    let w0 = (t1 - t) / (t1 - t0);
    let (a, b) = (T::c(w0), T::c(1.0 - w0));
    for i in 0..y0.len() {
        out[i] = a * y0[i] + b * y1[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_estimate_is_the_gap_to_the_trapezoidal_rule() {
        // ẏ = y from 1 over h = 0.1: Euler gives 1.1, f1 = 1.1, trapezoid 1 + 0.05 (1 + 1.1).
        let mut ws = MersonWorkspace::<f64>::new(1);
        step(0.0, &[1.0], &[1.0], 0.1, &mut ws);
        let mut err = ws.y1.clone();
        error_estimate(0.1, &[1.0], &[1.0], &[ws.y1[0]], &mut err);
        assert!((err[0] - (1.1 - 1.105)).abs() < 1e-15);
        let mut out = [0.0f64];
        interpolate(0.0, &[1.0], 0.1, &[1.1], 0.025, &mut out);
        assert!((out[0] - 1.025).abs() < 1e-15);
    }
}
