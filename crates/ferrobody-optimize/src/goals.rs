//! Goals (Moco's `MocoGoal`s in cost mode) and their exact gradients on the grid.
//!
//! * [`Goal::FinalTime`] — `J = w t_f` (Moco's `MocoFinalTimeGoal`).
//! * [`Goal::ControlEffort`] — `J = w/D ∫ Σ_k w_k |c_k|^p dt` (`MocoControlGoal`: exponent
//!   p ≥ 2, per-control weights w_k, D the duration t_f − t₀ when `divide_by_duration`, times
//!   the centre of mass's displacement d = ‖r(t_f) − r(t₀)‖ when `divide_by_displacement`,
//!   else 1; `∂J/∂q_{0,f} = −J/d ∂d/∂q_{0,f}` from [`crate::mass_center`]).
//! * [`Goal::StateTracking`] — `J = w ∫ Σ_j w_j (y_j − r_j(t))² dt` (`MocoStateTrackingGoal`),
//!   r_j a column of a table interpolated as Moco does ([`ReferenceSpline`]).
//! * [`Goal::ContactTracking`] — Moco's `MocoContactTrackingGoal` ([`crate::contact_tracking`]).
//!
//! Integrals use the transcription's quadrature (Simpson's rule for Hermite–Simpson, the
//! trapezoidal rule for trapezoidal), as Moco does: with h = (t_f − t₀)/N and weights h ω_i,
//! `∫ L dt = h Σ_i ω_i L_i`. Gradients: `∂J/∂x = h ω_i ∂L_i/∂x` for the point's variables, and
//! with a free final time `∂J/∂t_f = J/(t_f − t₀) + h Σ_i ω_i ∂L_i/∂t_i · i/(points − 1)`
//! (t_i moves with t_f; the effort divided by the duration has h/D = 1/N).

use crate::contact_forces::ContactForces;
use crate::contact_tracking::ContactTracking;
use crate::error::{OptimizeError, Result};
use crate::grid::Layout;
use crate::spline::ReferenceSpline;
use crate::trajectory::Table;

/// One term of the objective.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
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
        /// Whether to divide by the displacement of the centre of mass (m).
        divide_by_displacement: bool,
    },
    /// `w ∫ Σ_j w_j (y_j − r_j(t))² dt`.
    StateTracking {
        /// Weight w.
        weight: f64,
        /// The reference table.
        reference: Table,
        /// (state index in y, table column, weight w_j) for each tracked state.
        columns: Vec<(usize, usize, f64)>,
        /// r_j: the spline of each entry of `columns`, in the same order.
        splines: Vec<ReferenceSpline>,
    },
    /// `w/(m g) ∫ Σ_groups ‖P (F_g − r_g)‖² dt` (Moco's `MocoContactTrackingGoal`).
    ContactTracking(ContactTracking),
}

/// The grid at one point x of the NLP, as the goals read it.
pub(crate) struct GridView<'a> {
    pub x: &'a [f64],
    pub layout: Layout,
    pub t0: f64,
    pub tf: f64,
    pub omega: &'a [f64],
    /// The centre of mass's displacement, when a goal or constraint needs it.
    pub displacement: Option<&'a crate::mass_center::Displacement>,
    /// The tracked contacts' forces at every point, when a goal tracks them.
    pub contact: Option<&'a ContactForces>,
}

impl GridView<'_> {
    fn h(&self) -> f64 {
        (self.tf - self.t0) / self.layout.intervals as f64
    }

    fn time(&self, i: usize) -> f64 {
        self.layout.time(self.t0, self.tf, i)
    }

    fn controls(&self, i: usize) -> &[f64] {
        let l = self.layout;
        &self.x[l.c(i)..l.c(i) + l.nc]
    }

    fn states(&self, i: usize) -> &[f64] {
        let l = self.layout;
        &self.x[l.y(i)..l.c(i)]
    }
}

impl Goal {
    /// Moco's `MocoControlGoal` defaults: weight w, exponent 2, every control weight 1.
    pub fn control_effort(weight: f64) -> Self {
        Goal::ControlEffort {
            weight,
            exponent: 2,
            control_weights: Vec::new(),
            divide_by_duration: false,
            divide_by_displacement: false,
        }
    }

    /// Whether the goal reads the centre of mass's displacement.
    pub(crate) fn needs_displacement(&self) -> bool {
        matches!(
            self,
            Goal::ControlEffort {
                divide_by_displacement: true,
                ..
            }
        )
    }

    /// The name Moco gives the goal's value in a solution's header.
    pub fn label(&self) -> &'static str {
        match self {
            Goal::FinalTime { .. } => "final_time",
            Goal::ControlEffort { .. } => "effort",
            Goal::StateTracking { .. } => "state_tracking",
            Goal::ContactTracking(_) => "contact_tracking",
        }
    }

    pub(crate) fn check(&self, n_states: usize, n_controls: usize) -> Result<()> {
        let bad = |m: String| Err(OptimizeError::InvalidGoal(m));
        let weight = match self {
            Goal::FinalTime { weight }
            | Goal::ControlEffort { weight, .. }
            | Goal::StateTracking { weight, .. }
            | Goal::ContactTracking(ContactTracking { weight, .. }) => *weight,
        };
        if !weight.is_finite() {
            return bad(format!("{}: weight {weight} is not finite", self.label()));
        }
        match self {
            Goal::ControlEffort {
                exponent,
                control_weights,
                ..
            } => {
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
            }
            Goal::StateTracking {
                reference,
                columns,
                splines,
                ..
            } => {
                if splines.len() != columns.len() {
                    return bad("state_tracking: one spline per tracked column".into());
                }
                if columns.is_empty() {
                    return bad("state_tracking: no column of the table names a state".into());
                }
                let out = columns.iter().find(|&&(j, c, w)| {
                    j >= n_states || c >= reference.labels.len() || !w.is_finite()
                });
                if let Some((j, c, w)) = out {
                    return bad(format!(
                        "state_tracking: column {c} for state {j} with weight {w} is invalid"
                    ));
                }
            }
            Goal::ContactTracking(ct) => {
                if ct.groups.is_empty() || !(ct.denominator.is_finite() && ct.denominator > 0.0) {
                    return bad("contact_tracking: no group, or a model without mass".into());
                }
            }
            Goal::FinalTime { .. } => {}
        }
        Ok(())
    }

    /// The integrand at grid point i (0 for the final-time goal).
    fn integrand(&self, g: &GridView, i: usize) -> f64 {
        match self {
            Goal::FinalTime { .. } => 0.0,
            Goal::ControlEffort {
                exponent,
                control_weights,
                ..
            } => g
                .controls(i)
                .iter()
                .enumerate()
                .map(|(k, c)| weight_of(control_weights, k) * c.abs().powi(*exponent as i32))
                .sum(),
            Goal::StateTracking {
                columns, splines, ..
            } => {
                let (y, t) = (g.states(i), g.time(i));
                columns
                    .iter()
                    .zip(splines)
                    .map(|(&(j, _, w), r)| w * (y[j] - r.value(t)).powi(2))
                    .sum()
            }
            Goal::ContactTracking(ct) => g
                .contact
                .map_or(f64::NAN, |f| ct.integrand(f, i, g.time(i))),
        }
    }

    /// `w h / D`: the factor of `Σ ω_i L_i`.
    fn scale(&self, g: &GridView) -> f64 {
        match self {
            Goal::FinalTime { .. } => 0.0,
            Goal::ControlEffort {
                weight,
                divide_by_duration,
                divide_by_displacement,
                ..
            } => {
                let mut d = if *divide_by_duration {
                    g.tf - g.t0
                } else {
                    1.0
                };
                if *divide_by_displacement {
                    d *= g.displacement.map_or(f64::NAN, |r| r.norm);
                }
                weight * g.h() / d
            }
            Goal::StateTracking { weight, .. } => weight * g.h(),
            Goal::ContactTracking(ct) => ct.scale() * g.h(),
        }
    }

    /// The goal's value.
    pub(crate) fn value(&self, g: &GridView) -> f64 {
        if let Goal::FinalTime { weight } = self {
            return weight * g.tf;
        }
        let sum: f64 = (0..g.layout.points())
            .map(|i| g.omega[i] * self.integrand(g, i))
            .sum();
        self.scale(g) * sum
    }

    /// Adds the goal's gradient to `grad` (∂J/∂t_f only when the final time is free).
    pub(crate) fn add_gradient(&self, g: &GridView, grad: &mut [f64]) {
        let l = g.layout;
        if let Goal::FinalTime { weight } = self {
            if l.free_time {
                grad[0] += weight;
            }
            return;
        }
        let scale = self.scale(g);
        let mut sum = 0.0;
        let mut dt_sum = 0.0;
        for i in 0..l.points() {
            let w = g.omega[i];
            sum += w * self.integrand(g, i);
            match self {
                Goal::ControlEffort {
                    exponent,
                    control_weights,
                    ..
                } => {
                    let p = *exponent as i32;
                    for (k, &c) in g.controls(i).iter().enumerate() {
                        let d = f64::from(p) * weight_of(control_weights, k) * c.abs().powi(p - 1);
                        grad[l.c(i) + k] += scale * w * d * c.signum();
                    }
                }
                Goal::StateTracking {
                    columns, splines, ..
                } => {
                    let (y, t) = (g.states(i), g.time(i));
                    for (&(j, _, wj), r) in columns.iter().zip(splines) {
                        let e = y[j] - r.value(t);
                        grad[l.y(i) + j] += scale * w * 2.0 * wj * e;
                        // ∂L/∂t_i through the reference: −2 w_j e r'(t_i).
                        dt_sum -= w * 2.0 * wj * e * r.slope(t) * l.fraction(i);
                    }
                }
                Goal::ContactTracking(ct) => {
                    if let Some(forces) = g.contact {
                        let y = &mut grad[l.y(i)..l.c(i)];
                        let d_dt = ct.add_point_gradient(forces, i, g.time(i), scale * w, y);
                        dt_sum += w * d_dt * l.fraction(i);
                    }
                }
                Goal::FinalTime { .. } => {}
            }
        }
        if let (true, Some(r)) = (self.needs_displacement(), g.displacement) {
            // J ∝ 1/d: ∂J/∂q = −J/d ∂d/∂q at the first and the last point.
            let factor = -scale * sum / r.norm;
            let last = l.points() - 1;
            for (k, (d0, df)) in r.d_initial.iter().zip(&r.d_final).enumerate() {
                grad[l.y(0) + k] += factor * d0;
                grad[l.y(last) + k] += factor * df;
            }
        }
        if l.free_time {
            let divided = matches!(
                self,
                Goal::ControlEffort {
                    divide_by_duration: true,
                    ..
                }
            );
            let through_h = if divided {
                0.0
            } else {
                scale * sum / (g.tf - g.t0)
            };
            grad[0] += through_h + scale * dt_sum;
        }
    }
}

fn weight_of(weights: &[f64], k: usize) -> f64 {
    weights.get(k).copied().unwrap_or(1.0)
}
