//! One second-order Runge–Kutta attempt with an embedded first-order error estimate (Simbody
//! `RungeKutta2IntegratorRep::attemptODEStep`, Heun's method):
//!
//! ```text
//! f1  = f(t1, y0 + h f0)
//! y1  = y0 + h/2 (f0 + f1)                 (2nd order, propagated)
//! err = |y1 − (y0 + h f1)|                 (error order 2)
//! ```
//!
//! The arithmetic order of each line follows Simbody's, so that f64 results match it bit for
//! bit. (Hairer, Nørsett & Wanner, *Solving ODEs I*, §II.1.)

use super::rk_merson::MersonWorkspace;
use crate::error::Result;
use crate::scalar::Real;

/// The exponent of Simbody's step-size rule for this method (`errOrder`).
pub const ERROR_ORDER: i32 = 2;

/// Computes `ws.y1` and `ws.y_err` for a step from `(t0, y0, f0)` to `t1`, calling `eval` once.
pub fn attempt<T: Real>(
    t0: f64,
    y0: &[T],
    f0: &[T],
    t1: f64,
    ws: &mut MersonWorkspace<T>,
    eval: &mut impl FnMut(f64, &[T], &mut [T]) -> Result<()>,
) -> Result<()> {
    let h = t1 - t0;
    let (hh, half_h) = (T::c(h), T::c(h / 2.0));
    let [f1, ..] = &mut ws.f;
    for i in 0..y0.len() {
        ws.y_stage[i] = y0[i] + hh * f0[i];
    }
    eval(t1, &ws.y_stage, f1)?;
    for i in 0..y0.len() {
        ws.y1[i] = y0[i] + half_h * (f0[i] + f1[i]);
        ws.y_err[i] = (ws.y1[i] - (y0[i] + hh * f1[i])).abs();
    }
    Ok(())
}
