//! One Runge–Kutta–Fehlberg 4(5) attempt (Simbody `RungeKuttaFeldbergIntegratorRep::
//! attemptODEStep`; Simbody spells the name "Feldberg"): six stages, the 4th-order solution
//! propagated, the difference from the 5th-order one as the error estimate (error order 4).
//!
//! ```text
//! k1 = f(t0 + h/4,      y0 + h/4 f0)
//! k2 = f(t0 + 3h/8,     y0 + 3h/32 f0 + 9h/32 k1)
//! k3 = f(t0 + 12h/13,   y0 + 1932h/2197 f0 − 7200h/2197 k1 + 7296h/2197 k2)
//! k4 = f(t1,            y0 + 439h/216 f0 − 8h k1 + 3680h/513 k2 − 845h/4104 k3)
//! k5 = f(t0 + h/2,      y0 − 8h/27 f0 + 2h k1 − 3544h/2565 k2 + 1859h/4104 k3 − 11h/40 k4)
//! y1  = y0 + 25h/216 f0 + 1408h/2565 k2 + 2197h/4104 k3 − h/5 k4
//! err = (16/135 − 25/216) h f0 + (6656/12825 − 1408/2565) h k2 + (28561/56430 − 2197/4104) h k3
//!       + (−9/50 + 1/5) h k4 + 2/55 h k5
//! ```
//!
//! Each product is `(h·C)·f` and sums run left to right, as in Simbody's vector expressions, so
//! that f64 results match it bit for bit. (E. Fehlberg, NASA TR R-315, 1969; Hairer, Nørsett &
//! Wanner, *Solving ODEs I*, §II.4.)

use super::rk_merson::MersonWorkspace;
use crate::error::Result;
use crate::scalar::Real;

/// The exponent of Simbody's step-size rule for this method (`errOrder`).
pub const ERROR_ORDER: i32 = 4;

const CY: [f64; 4] = [25.0 / 216.0, 1408.0 / 2565.0, 2197.0 / 4104.0, -1.0 / 5.0];
const CE: [f64; 5] = [
    16.0 / 135.0 - CY[0],
    6656.0 / 12825.0 - CY[1],
    28561.0 / 56430.0 - CY[2],
    -9.0 / 50.0 - CY[3],
    2.0 / 55.0,
];

/// Computes `ws.y1` and `ws.y_err` for a step from `(t0, y0, f0)` to `t1`, calling `eval`
/// five times.
pub fn attempt<T: Real>(
    t0: f64,
    y0: &[T],
    f0: &[T],
    t1: f64,
    ws: &mut MersonWorkspace<T>,
    eval: &mut impl FnMut(f64, &[T], &mut [T]) -> Result<()>,
) -> Result<()> {
    let h = t1 - t0;
    let c = |x: f64| T::c(h * x);
    let n = y0.len();
    let [k1, k2, k3, k4, k5] = &mut ws.f;
    let ys = &mut ws.y_stage;
    let (a21, a31, a32) = (c(1.0 / 4.0), c(3.0 / 32.0), c(9.0 / 32.0));
    for i in 0..n {
        ys[i] = y0[i] + a21 * f0[i];
    }
    eval(t0 + h * (1.0 / 4.0), ys, k1)?;
    for i in 0..n {
        ys[i] = y0[i] + a31 * f0[i] + a32 * k1[i];
    }
    eval(t0 + h * (3.0 / 8.0), ys, k2)?;
    let (b0, b1, b2) = (c(1932.0 / 2197.0), c(-7200.0 / 2197.0), c(7296.0 / 2197.0));
    for i in 0..n {
        ys[i] = y0[i] + b0 * f0[i] + b1 * k1[i] + b2 * k2[i];
    }
    eval(t0 + h * (12.0 / 13.0), ys, k3)?;
    let (d0, d1, d2, d3) = (
        c(439.0 / 216.0),
        c(-8.0),
        c(3680.0 / 513.0),
        c(-845.0 / 4104.0),
    );
    for i in 0..n {
        ys[i] = y0[i] + d0 * f0[i] + d1 * k1[i] + d2 * k2[i] + d3 * k3[i];
    }
    eval(t0 + h * 1.0, ys, k4)?;
    let (e0, e1, e2, e3, e4) = (
        c(-8.0 / 27.0),
        c(2.0),
        c(-3544.0 / 2565.0),
        c(1859.0 / 4104.0),
        c(-11.0 / 40.0),
    );
    for i in 0..n {
        ys[i] = y0[i] + e0 * f0[i] + e1 * k1[i] + e2 * k2[i] + e3 * k3[i] + e4 * k4[i];
    }
    eval(t0 + h * (1.0 / 2.0), ys, k5)?;
    let y = [c(CY[0]), c(CY[1]), c(CY[2]), c(CY[3])];
    let e = [c(CE[0]), c(CE[1]), c(CE[2]), c(CE[3]), c(CE[4])];
    for i in 0..n {
        ws.y1[i] = y0[i] + y[0] * f0[i] + y[1] * k2[i] + y[2] * k3[i] + y[3] * k4[i];
        // Signed, as Simbody's (the quaternion projection of the estimate is linear in it).
        ws.y_err[i] = e[0] * f0[i] + e[1] * k2[i] + e[2] * k3[i] + e[3] * k4[i] + e[4] * k5[i];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integrates_exponential_to_fourth_order() {
        let mut ws = MersonWorkspace::new(1);
        let mut eval = |_t: f64, y: &[f64], d: &mut [f64]| {
            d[0] = y[0];
            Ok(())
        };
        attempt(0.0, &[1.0], &[1.0], 0.1, &mut ws, &mut eval).unwrap();
        // Local error O(h^5) ≈ 1e-7 for h = 0.1; the estimate is of the same size.
        assert!((ws.y1[0] - 0.1f64.exp()).abs() < 2e-7);
        assert!(ws.y_err[0] != 0.0 && ws.y_err[0].abs() < 1e-5);
    }
}
