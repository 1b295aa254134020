//! Fixed-step explicit (forward) Euler: `y1 = y0 + h f(t0, y0)`. First order; for comparisons
//! and teaching, not for production runs.

use super::rk_merson::MersonWorkspace;
use crate::scalar::Real;

/// One Euler step from `(t0, y0, f0)` to `t1`; writes `ws.y1`.
pub fn step<T: Real>(t0: f64, y0: &[T], f0: &[T], t1: f64, ws: &mut MersonWorkspace<T>) {
    let h = T::c(t1 - t0);
    for i in 0..y0.len() {
        ws.y1[i] = y0[i] + h * f0[i];
    }
}
