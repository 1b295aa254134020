//! Classical fixed-step 4th-order Runge–Kutta:
//! `y1 = y0 + h/6 (k1 + 2 k2 + 2 k3 + k4)` with `k1 = f(t0, y0)`, `k2 = f(t0 + h/2, y0 + h/2 k1)`,
//! `k3 = f(t0 + h/2, y0 + h/2 k2)`, `k4 = f(t0 + h, y0 + h k3)`.

use super::rk_merson::MersonWorkspace;
use crate::error::Result;
use crate::scalar::Real;

/// One RK4 step from `(t0, y0, f0 = k1)` to `t1`; writes `ws.y1`.
pub fn step<T: Real>(
    t0: f64,
    y0: &[T],
    f0: &[T],
    t1: f64,
    ws: &mut MersonWorkspace<T>,
    eval: &mut impl FnMut(f64, &[T], &mut [T]) -> Result<()>,
) -> Result<()> {
    let h = t1 - t0;
    let (h2, hh, h6, two) = (T::c(h / 2.0), T::c(h), T::c(h / 6.0), T::c(2.0));
    let [k2, k3, k4, ..] = &mut ws.f;
    let ys = &mut ws.y_stage;
    for i in 0..y0.len() {
        ys[i] = y0[i] + h2 * f0[i];
    }
    eval(t0 + h / 2.0, ys, k2)?;
    for i in 0..y0.len() {
        ys[i] = y0[i] + h2 * k2[i];
    }
    eval(t0 + h / 2.0, ys, k3)?;
    for i in 0..y0.len() {
        ys[i] = y0[i] + hh * k3[i];
    }
    eval(t1, ys, k4)?;
    for i in 0..y0.len() {
        ws.y1[i] = y0[i] + h6 * (f0[i] + two * (k2[i] + k3[i]) + k4[i]);
    }
    Ok(())
}
