//! Goals (Moco's `MocoGoal`s in cost mode) and their exact gradients on the grid.
//!
//! * [`Goal::FinalTime`] — `J = w t_f` (Moco's `MocoFinalTimeGoal`).
//! * [`Goal::ControlEffort`] — `J = w/D ∫ Σ_k w_k |c_k|^p dt` (`MocoControlGoal`: exponent
//!   p ≥ 2, per-control weights w_k, D the duration t_f − t₀ when `divide_by_duration`, else 1),
//!   integrated over the grid with the transcription's quadrature (Simpson's rule for
//!   Hermite–Simpson, the trapezoidal rule for trapezoidal), as Moco does.
//!
//! With h = (t_f − t₀)/N and quadrature weights `h ω_i`, the effort is `J = (w h / D) Σ_i ω_i
//! L(c_i)`, so `∂J/∂c_ik = (w h / D) ω_i p w_k |c_ik|^(p−1) sgn c_ik` and, with a free final
//! time, `∂J/∂t_f = J / (t_f − t₀)` (0 when divided by the duration: h/D = 1/N).

use crate::error::{OptimizeError, Result};

/// One term of the objective.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// `w t_f`.
    FinalTime {
        /// Weight w.
        weight: f64,
    },
    /// `w/D ∫ Σ_k w_k |c_k|^p dt`.
    ControlEffort {
        /// Weight w.
        weight: f64,
        /// Exponent p (an integer ≥ 2, Moco's default 2).
        exponent: u32,
        /// Weight of each control (empty: all 1).
        control_weights: Vec<f64>,
        /// Whether to divide by the duration t_f − t₀.
        divide_by_duration: bool,
    },
}

impl Goal {
    /// Moco's `MocoControlGoal` defaults: weight w, exponent 2, every control weight 1.
    pub fn control_effort(weight: f64) -> Self {
        Goal::ControlEffort {
            weight,
            exponent: 2,
            control_weights: Vec::new(),
            divide_by_duration: false,
        }
    }

    /// The name Moco gives the goal's value in a solution's header.
    pub fn label(&self) -> &'static str {
        match self {
            Goal::FinalTime { .. } => "final_time",
            Goal::ControlEffort { .. } => "effort",
        }
    }

    pub(crate) fn check(&self, n_controls: usize) -> Result<()> {
        let bad = |m: String| Err(OptimizeError::InvalidGoal(m));
        match self {
            Goal::FinalTime { weight } if !weight.is_finite() => {
                bad(format!("final_time: weight {weight} is not finite"))
            }
            Goal::ControlEffort {
                weight,
                exponent,
                control_weights,
                ..
            } => {
                if !weight.is_finite() {
                    return bad(format!("effort: weight {weight} is not finite"));
                }
                if *exponent < 2 {
                    return bad(format!("effort: exponent {exponent} must be at least 2"));
                }
                if !control_weights.is_empty() && control_weights.len() != n_controls {
                    return bad(format!(
                        "effort: {} control weights for {n_controls} controls",
                        control_weights.len()
                    ));
                }
                if control_weights.iter().any(|w| !w.is_finite()) {
                    return bad("effort: a control weight is not finite".to_string());
                }
                Ok(())
            }
            Goal::FinalTime { .. } => Ok(()),
        }
    }

    /// The goal's value; `controls(i)` gives the controls at grid point i, `omega` the
    /// quadrature weights ω_i (the integral is `h Σ ω_i L_i`).
    pub(crate) fn value<'c>(
        &self,
        times: [f64; 2],
        h: f64,
        omega: &[f64],
        controls: impl Fn(usize) -> &'c [f64],
    ) -> f64 {
        match self {
            Goal::FinalTime { weight } => weight * times[1],
            Goal::ControlEffort {
                weight,
                exponent,
                control_weights,
                divide_by_duration,
            } => {
                let scale = weight * h / duration_divisor(times, *divide_by_duration);
                let sum: f64 = omega
                    .iter()
                    .enumerate()
                    .map(|(i, w)| w * integrand(controls(i), *exponent, control_weights))
                    .sum();
                scale * sum
            }
        }
    }

    /// Adds the goal's gradient: `grad_tf(dJ/dt_f)` and `grad_c(i, k, dJ/dc_ik)`.
    pub(crate) fn add_gradient<'c>(
        &self,
        times: [f64; 2],
        h: f64,
        omega: &[f64],
        controls: impl Fn(usize) -> &'c [f64],
        mut grad_tf: impl FnMut(f64),
        mut grad_c: impl FnMut(usize, usize, f64),
    ) {
        match self {
            Goal::FinalTime { weight } => grad_tf(*weight),
            Goal::ControlEffort {
                weight,
                exponent,
                control_weights,
                divide_by_duration,
            } => {
                let scale = weight * h / duration_divisor(times, *divide_by_duration);
                let p = *exponent as i32;
                let mut sum = 0.0;
                for (i, w) in omega.iter().enumerate() {
                    let c = controls(i);
                    sum += w * integrand(c, *exponent, control_weights);
                    for (k, &ck) in c.iter().enumerate() {
                        let wk = control_weights.get(k).copied().unwrap_or(1.0);
                        let d = f64::from(p) * wk * ck.abs().powi(p - 1) * ck.signum();
                        grad_c(i, k, scale * w * d);
                    }
                }
                if !divide_by_duration {
                    grad_tf(scale * sum / (times[1] - times[0]));
                }
            }
        }
    }
}

/// `Σ_k w_k |c_k|^p`.
fn integrand(c: &[f64], exponent: u32, weights: &[f64]) -> f64 {
    c.iter()
        .enumerate()
        .map(|(k, ck)| weights.get(k).copied().unwrap_or(1.0) * ck.abs().powi(exponent as i32))
        .sum()
}

fn duration_divisor(times: [f64; 2], divide: bool) -> f64 {
    if divide {
        times[1] - times[0]
    } else {
        1.0
    }
}
