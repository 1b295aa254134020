//! Moco's interpolation of reference data: OpenSim's `GCVSpline` of degree 5 with error
//! variance 0 (`GCVSplineSet(table)`, as `MocoStateTrackingGoal` and `MocoContactTrackingGoal`
//! build it), which passes through every sample: the natural quintic spline, the interpolant
//! that minimises `∫ (s‴)² dt` (Woltring, "A Fortran package for generalized, cross-validatory
//! spline smoothing and differentiation", Adv. Eng. Softw. 8 (1986), with p → 0). Written in
//! its polyharmonic form
//!
//! ```text
//!   s(τ) = Σ_i c_i |τ − τ_i|⁵ + a₀ + a₁ τ + a₂ τ²,    τ = (t − t₀)/(t_n − t₀)
//!   s(τ_j) = y_j,   Σ_i c_i = Σ_i c_i τ_i = Σ_i c_i τ_i² = 0      (natural end conditions)
//! ```
//!
//! solved once per column (dense LU; reference tables hold tens to hundreds of rows). Outside
//! the samples the same expression continues (a quadratic at infinity, as the natural spline's
//! continuation is smooth); `value` and `slope` (ds/dt) are exact.

use crate::error::{OptimizeError, Result};
use ferrobody::nalgebra::{DMatrix, DVector};

/// One interpolated column (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceSpline {
    /// τ_i of the samples.
    knots: Vec<f64>,
    /// c_i.
    weights: Vec<f64>,
    /// a₀, a₁, a₂.
    polynomial: [f64; 3],
    t0: f64,
    /// t_n − t₀ (s).
    span: f64,
}

impl ReferenceSpline {
    /// The spline through `(time[i], values[i])`; times strictly increasing, at least 3.
    /// `what` names the column in errors.
    pub fn new(time: &[f64], values: &[f64], what: &str) -> Result<Self> {
        let n = time.len();
        let bad = |m: String| Err(OptimizeError::InvalidGoal(format!("{what}: {m}")));
        if n < 3 || values.len() != n {
            return bad(format!("a spline needs at least 3 samples, got {n}"));
        }
        if time
            .windows(2)
            .any(|w| w[1].partial_cmp(&w[0]) != Some(std::cmp::Ordering::Greater))
            || values.iter().any(|v| !v.is_finite())
        {
            return bad("times must increase strictly and values be finite".to_string());
        }
        let (t0, span) = (time[0], time[n - 1] - time[0]);
        let knots: Vec<f64> = time.iter().map(|t| (t - t0) / span).collect();
        let mut a = DMatrix::zeros(n + 3, n + 3);
        let mut b = DVector::zeros(n + 3);
        for (j, &tj) in knots.iter().enumerate() {
            for (i, &ti) in knots.iter().enumerate() {
                a[(j, i)] = (tj - ti).abs().powi(5);
            }
            for (k, p) in [1.0, tj, tj * tj].into_iter().enumerate() {
                a[(j, n + k)] = p;
                a[(n + k, j)] = p;
            }
            b[j] = values[j];
        }
        let Some(solution) = a.lu().solve(&b) else {
            return bad("the spline's system is singular".to_string());
        };
        if solution.iter().any(|v| !v.is_finite()) {
            return bad("the spline's system is singular".to_string());
        }
        Ok(Self {
            weights: solution.as_slice()[..n].to_vec(),
            polynomial: [solution[n], solution[n + 1], solution[n + 2]],
            knots,
            t0,
            span,
        })
    }

    /// s(t).
    pub fn value(&self, t: f64) -> f64 {
        let tau = (t - self.t0) / self.span;
        let [a0, a1, a2] = self.polynomial;
        let sum: f64 = self
            .knots
            .iter()
            .zip(&self.weights)
            .map(|(k, c)| c * (tau - k).abs().powi(5))
            .sum();
        sum + a0 + tau * (a1 + tau * a2)
    }

    /// ds/dt.
    pub fn slope(&self, t: f64) -> f64 {
        let tau = (t - self.t0) / self.span;
        let [_, a1, a2] = self.polynomial;
        let sum: f64 = self
            .knots
            .iter()
            .zip(&self.weights)
            .map(|(k, c)| {
                let d = tau - k;
                5.0 * c * d.abs().powi(3) * d
            })
            .sum();
        (sum + a1 + 2.0 * a2 * tau) / self.span
    }
}

/// One spline per column of `table`, named `label` in errors.
pub(crate) fn column_spline(
    table: &crate::Table,
    column: usize,
    label: &str,
) -> Result<ReferenceSpline> {
    let values: Vec<f64> = table.rows.iter().map(|row| row[column]).collect();
    ReferenceSpline::new(&table.time, &values, label)
}
