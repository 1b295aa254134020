//! Cubic Hermite interpolation between two states with their derivatives
//! (Simbody `IntegratorRep::interpolateOrder3`):
//!
//! ```text
//! d = (t − t0)/h,  c_y1 = d²(3 − 2d),  c_y0 = 1 − c_y1,  hdd = h d (d − 1),
//! c_f1 = hdd·d,  c_f0 = c_f1 − hdd,   y(t) = ((c_y0 y0 + c_y1 y1) + c_f0 f0) + c_f1 f1
//! ```

use crate::scalar::Real;

/// The two ends of a step: times, states and state derivatives.
pub struct Segment<'a, T: Real> {
    /// Start time.
    pub t0: f64,
    /// Start state.
    pub y0: &'a [T],
    /// Start derivative.
    pub f0: &'a [T],
    /// End time.
    pub t1: f64,
    /// End state.
    pub y1: &'a [T],
    /// End derivative.
    pub f1: &'a [T],
}

/// Interpolates at time `t` in `[t0, t1]` into `out`.
pub fn interpolate<T: Real>(seg: &Segment<'_, T>, t: f64, out: &mut [T]) {
    let Segment {
        t0,
        y0,
        f0,
        t1,
        y1,
        f1,
    } = *seg;
    let h = t1 - t0;
    let d = (t - t0) / h;
    let cy1 = d * d * (3.0 - 2.0 * d);
    let cy0 = 1.0 - cy1;
    let hdd1 = h * d * (d - 1.0);
    let cf1 = hdd1 * d;
    let cf0 = cf1 - hdd1;
    let (cy0, cy1, cf0, cf1) = (T::c(cy0), T::c(cy1), T::c(cf0), T::c(cf1));
    for i in 0..out.len() {
        out[i] = ((cy0 * y0[i] + cy1 * y1[i]) + cf0 * f0[i]) + cf1 * f1[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_for_cubics() {
        let y = |t: f64| 1.0 + 2.0 * t - t * t + 0.5 * t * t * t;
        let f = |t: f64| 2.0 - 2.0 * t + 1.5 * t * t;
        let mut out = [0.0];
        let seg = Segment {
            t0: 0.2,
            y0: &[y(0.2)],
            f0: &[f(0.2)],
            t1: 0.7,
            y1: &[y(0.7)],
            f1: &[f(0.7)],
        };
        interpolate(&seg, 0.45, &mut out);
        assert!((out[0] - y(0.45)).abs() < 1e-14);
    }
}
