//! Woltring's generalized cross-validatory smoothing spline (GCVSPL), as OpenSim's `GCVSpline`
//! and Simbody's `SplineFitter` use it: a natural spline of odd degree `2m − 1` through or near
//! the points `(xᵢ, yᵢ)`, minimising
//!
//! `Σ (yᵢ − s(xᵢ))² + p ∫ (s⁽ᵐ⁾(x))² dx`,
//!
//! with the smoothing parameter `p` given, or chosen by GCVSPL's search (a bracketing by factors
//! of two, then a golden-section search on `p`) to minimise the generalized cross-validation
//! function, to match a known error variance, or to leave given degrees of freedom. OpenSim's
//! `GCVSpline` fits by the error variance (0 unless the file says otherwise, which drives `p`
//! to GCVSPL's lower bound `10⁻¹⁵/‖W‖` and so interpolates), or by GCV when the variance is
//! negative. Beyond the knots the spline continues as the end pieces' polynomials of degree
//! `m − 1`, as GCVSPL's `SPLDER` evaluates it.
//!
//! The code follows Simbody's `gcvspl.cpp` (the f2c translation of Woltring's FORTRAN)
//! statement for statement, with the data weights all 1 as `SplineFitter` passes them, so
//! that the coefficients are Simbody's to round-off. Indices below are the FORTRAN's (1-based,
//! bands from `−m` to `m`), mapped onto 0-based storage by small index helpers.
//!
//! Citation: H. J. Woltring (1986), "A FORTRAN package for generalized, cross-validatory
//! spline smoothing and differentiation", *Advances in Engineering Software* 8(2):104–113.

mod band;
mod evaluate;
mod fit;

use crate::error::{invalid, ModelError};
use crate::scalar::Real;
use evaluate::splder;
use fit::fit_coefficients;

/// The largest half-order evaluated without allocation (degree 31); OpenSim's documented
/// range is 1 to 4 (linear to heptic).
pub const MAX_HALF_ORDER: usize = 16;

/// GCVSPL's lower bound on `p ‖W‖` (its `c_b6`).
pub(super) const EPS: f64 = 1e-15;
/// The golden ratio as GCVSPL writes it.
pub(super) const GOLDEN: f64 = 1.618033983;

/// How the smoothing parameter is chosen (GCVSPL's mode `MD`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smoothing {
    /// `p` given (mode 1).
    Parameter(f64),
    /// Minimise the generalized cross-validation function (mode 2).
    Gcv,
    /// Match a known error variance (mode 3; OpenSim's `error_variance`).
    ErrorVariance(f64),
    /// Leave these degrees of freedom to the residual (mode 4).
    DegreesOfFreedom(f64),
}

impl Smoothing {
    fn mode(self) -> (i32, f64) {
        match self {
            Smoothing::Parameter(p) => (1, p),
            Smoothing::Gcv => (2, 0.0),
            Smoothing::ErrorVariance(v) => (3, v),
            Smoothing::DegreesOfFreedom(d) => (4, d),
        }
    }
}

/// A fitted GCVSPL spline: its knots and one coefficient per knot.
#[derive(Clone, Debug, PartialEq)]
pub struct GcvSpline {
    half_order: usize,
    x: Vec<f64>,
    c: Vec<f64>,
}

impl GcvSpline {
    /// Fits a spline of odd `degree` to the points; errors unless the degree is odd and at most
    /// `2 MAX_HALF_ORDER − 1`, there are as many x as y and at least `degree + 1` of them, all
    /// finite, x strictly increasing, and the smoothing value is in GCVSPL's range.
    pub fn fit(
        degree: usize,
        x: Vec<f64>,
        y: &[f64],
        smoothing: Smoothing,
    ) -> Result<Self, ModelError> {
        if degree % 2 == 0 || degree > 2 * MAX_HALF_ORDER - 1 {
            return Err(invalid!(
                "the degree must be odd and at most {}, got {degree}",
                2 * MAX_HALF_ORDER - 1
            ));
        }
        let m = degree.div_ceil(2);
        let n = x.len();
        if n != y.len() {
            return Err(invalid!("{n} x values but {} y values", y.len()));
        }
        if n < 2 * m {
            return Err(invalid!(
                "a spline of degree {degree} needs at least {} points, got {n}",
                2 * m
            ));
        }
        if !x.iter().chain(y).all(|v| v.is_finite()) {
            return Err("every point must be finite".into());
        }
        if x.windows(2).any(|w| w[1] <= w[0]) {
            return Err("x values must increase strictly".into());
        }
        let (md, val) = smoothing.mode();
        let out_of_range =
            !val.is_finite() || (md != 2 && val < 0.0) || (md == 4 && val > (n - m) as f64);
        if out_of_range {
            return Err(invalid!(
                "smoothing value {val} is out of range for {smoothing:?}"
            ));
        }
        let c = fit_coefficients(m as isize, &x, y, md, val);
        Ok(Self {
            half_order: m,
            x,
            c,
        })
    }

    /// The half-order `m` (degree `2m − 1`).
    pub fn half_order(&self) -> usize {
        self.half_order
    }

    /// The spline's coefficients (OpenSim's `GCVSpline::getCoefficients`).
    pub fn coefficients(&self) -> &[f64] {
        &self.c
    }

    /// The `order`-th derivative at `t` (GCVSPL's `SPLDER`); derivatives of order `2m` and
    /// above are zero.
    pub fn derivative_at<T: Real>(&self, order: usize, t: T) -> T {
        splder(
            order as isize,
            self.half_order as isize,
            t,
            &self.x,
            &self.c,
        )
    }
}

#[cfg(test)]
mod tests;
