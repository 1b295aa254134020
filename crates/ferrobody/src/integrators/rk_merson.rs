//! One Runge–Kutta–Merson attempt (Simbody `RungeKuttaMersonIntegratorRep::attemptODEStep`).
//!
//! ```text
//! c = (0, 1/3, 1/3, 1/2, 1);  a21 = 1/3;  a31 = a32 = 1/6;  a41 = 1/8, a43 = 3/8;
//! a51 = 1/2, a53 = −3/2, a54 = 2;  b = (1/6, 0, 0, 2/3, 1/6)
//! ŷ  = y0 + h/2 (f0 − 3 f2 + 4 f3)        (predictor, evaluated as f4's argument)
//! y1 = y0 + h/6 (f0 + 4 f3 + f4)          (4th order, propagated)
//! err_i = |y1_i − ŷ_i| / 5
//! ```
//!
//! The arithmetic order of each line follows Simbody's so that f64 results match it bit for bit.
//! (R. H. Merson, 1957; Hairer, Nørsett & Wanner, *Solving ODEs I*, §II.4.)

use crate::error::Result;
use crate::scalar::Real;

/// Scratch vectors of one attempt (all of length ny).
#[derive(Clone, Debug)]
pub struct MersonWorkspace<T: Real> {
    /// Stage derivatives (Merson uses four, Fehlberg five).
    pub f: [Vec<T>; 5],
    /// Stage argument.
    pub y_stage: Vec<T>,
    /// Predictor ŷ.
    pub y_pred: Vec<T>,
    /// Result y1.
    pub y1: Vec<T>,
    /// Error estimate |y1 − ŷ| / 5.
    pub y_err: Vec<T>,
}

impl<T: Real> MersonWorkspace<T> {
    /// Workspace for `ny` state variables.
    pub fn new(ny: usize) -> Self {
        let z = || vec![T::zero(); ny];
        Self {
            f: [z(), z(), z(), z(), z()],
            y_stage: z(),
            y_pred: z(),
            y1: z(),
            y_err: z(),
        }
    }
}

/// The exponent of Simbody's step-size rule for this method (`errOrder`).
pub const ERROR_ORDER: i32 = 4;

/// Computes `ws.y1` and `ws.y_err` for a step from `(t0, y0, f0)` to `t1`, calling
/// `eval(t, y, ydot)` four times.
pub fn attempt<T: Real>(
    t0: f64,
    y0: &[T],
    f0: &[T],
    t1: f64,
    ws: &mut MersonWorkspace<T>,
    eval: &mut impl FnMut(f64, &[T], &mut [T]) -> Result<()>,
) -> Result<()> {
    let h = t1 - t0;
    let (h3, h6, h8, h2) = (T::c(h / 3.0), T::c(h / 6.0), T::c(h / 8.0), T::c(h / 2.0));
    let (three, four, fifth) = (T::c(3.0), T::c(4.0), T::c(0.2));
    let [f1, f2, f3, f4, _] = &mut ws.f;
    let ys = &mut ws.y_stage;
    for i in 0..y0.len() {
        ys[i] = y0[i] + h3 * f0[i];
    }
    eval(t0 + h / 3.0, ys, f1)?;
    for i in 0..y0.len() {
        ys[i] = y0[i] + h6 * (f0[i] + f1[i]);
    }
    eval(t0 + h / 3.0, ys, f2)?;
    for i in 0..y0.len() {
        ys[i] = y0[i] + h8 * (f0[i] + three * f2[i]);
    }
    eval(t0 + h / 2.0, ys, f3)?;
    for i in 0..y0.len() {
        ws.y_pred[i] = y0[i] + h2 * ((f0[i] - three * f2[i]) + four * f3[i]);
    }
    eval(t1, &ws.y_pred, f4)?;
    for i in 0..y0.len() {
        ws.y1[i] = y0[i] + h6 * ((f0[i] + four * f3[i]) + f4[i]);
        ws.y_err[i] = fifth * (ws.y1[i] - ws.y_pred[i]).abs();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integrates_exponential_to_fourth_order() {
        // ẏ = y: one step of h = 0.1 from y = 1 has local error O(h^5).
        let mut ws = MersonWorkspace::new(1);
        let mut eval = |_t: f64, y: &[f64], d: &mut [f64]| {
            d[0] = y[0];
            Ok(())
        };
        attempt(0.0, &[1.0], &[1.0], 0.1, &mut ws, &mut eval).unwrap();
        assert!((ws.y1[0] - 0.1f64.exp()).abs() < 2e-7);
        assert!(ws.y_err[0] > 0.0 && ws.y_err[0] < 1e-5);
    }
}
