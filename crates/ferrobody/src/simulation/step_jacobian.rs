//! Exact Jacobians of one fixed-size integrator step, x₊ = Φ_h(x, p, c), by forward-mode dual
//! numbers: ∂x₊/∂x (ny × ny, x = [q, u, z]), ∂x₊/∂p for chosen force parameters p
//! (contact stiffness, dissipation, frictions, transition velocity, ... by force and
//! parameter name, as `Model::set_force_parameter` names them) and ∂x₊/∂c for the controls c
//! held over the step (`Model::controls`, one per actuator).
//!
//! The step is the integrator's own, run on `num_dual::DualSVec64<LANES>` by
//! [`crate::Simulation`]: a fixed-step method (`rk4`, `explicit-euler-fixed`) takes one step of
//! `h`; an error-controlled one takes one attempt of exactly `h` (initial, minimum and maximum
//! step all `h`, so Simbody's rule accepts it whatever its error), with its projection. Each
//! pass seeds LANES of the ny + np + nctrl directions; ⌈(ny + np + nctrl)/LANES⌉ passes. A pass builds a
//! simulation (its buffers are allocated per call; the dual model is made once).
//!
//! What the derivative means where the step is not differentiable (a contact starting within
//! the step, a friction regime change): the derivative of the path the f64 step takes.
//! Reference: A. Griewank, A. Walther, *Evaluating Derivatives*, SIAM (2008), ch. 3.

use crate::derivatives::forward_dynamics::LANES;
use crate::error::{Error, Result};
use crate::integrators::IntegratorSettings;
use crate::model::Model;
use crate::simulation::Simulation;
use crate::state::State;
use nalgebra::{Const, DMatrix, DVector, U1};
use num_dual::{Derivative, DualSVec64};

type D = DualSVec64<LANES>;

/// Jacobians of one step of size `h`, with the dual-number model they are computed on.
pub struct StepJacobian {
    model: Model<D>,
    parameters: Vec<(String, String, f64)>,
    settings: IntegratorSettings,
    h: f64,
    /// The state after the step, [q, u, z].
    pub x_next: DVector<f64>,
    /// ∂x₊/∂x (ny × ny).
    pub dx_dx: DMatrix<f64>,
    /// ∂x₊/∂p (ny × np), columns in the order the parameters were given.
    pub dx_dp: DMatrix<f64>,
    /// ∂x₊/∂c (ny × nctrl), columns in control order.
    pub dx_dctrl: DMatrix<f64>,
}

impl StepJacobian {
    /// For steps of `h` seconds of `model` with `settings`' method, differentiated also with
    /// respect to the named `(force, parameter)` pairs at their current values.
    pub fn new(
        model: &Model<f64>,
        settings: IntegratorSettings,
        h: f64,
        parameters: &[(&str, &str)],
    ) -> Result<Self> {
        if !(h.is_finite() && h > 0.0) {
            return Err(Error::model(format!(
                "step size must be positive and finite, got {h}"
            )));
        }
        let values = parameters
            .iter()
            .map(|(f, p)| Ok((f.to_string(), p.to_string(), model.force_parameter(f, p)?)))
            .collect::<Result<Vec<_>>>()?;
        let mut settings = settings;
        if settings.kind.is_error_controlled() {
            settings.initial_step = Some(h);
            settings.min_step = Some(h);
            settings.max_step = Some(h);
        } else {
            settings.fixed_step = h;
        }
        settings.validate()?;
        let ny = model.nq() + model.nu() + model.nz();
        Ok(Self {
            model: model.cast::<D>()?,
            parameters: values,
            settings,
            h,
            x_next: DVector::zeros(ny),
            dx_dx: DMatrix::zeros(ny, ny),
            dx_dp: DMatrix::zeros(ny, parameters.len()),
            dx_dctrl: DMatrix::zeros(ny, model.nctrl()),
        })
    }

    /// Takes one step from `state` (with the controls it holds) and fills `x_next` and the
    /// Jacobians.
    pub fn compute(&mut self, state: &State<f64>) -> Result<()> {
        let (nq, nu) = (self.model.nq(), self.model.nu());
        let ny = self.x_next.len();
        let np = self.parameters.len();
        let nctrl = self.model.nctrl();
        let directions = ny + np + nctrl;
        let mut controls = vec![D::from_re(0.0); nctrl];
        let mut start = self.model.default_state();
        for first in (0..directions).step_by(LANES) {
            let seed = |x: f64, direction: usize| {
                if (first..first + LANES).contains(&direction) {
                    let lane = direction - first;
                    D::new(x, Derivative::derivative_generic(Const::<LANES>, U1, lane))
                } else {
                    D::from_re(x)
                }
            };
            for (k, (force, parameter, value)) in self.parameters.iter().enumerate() {
                let v = seed(*value, ny + k);
                self.model.set_force_parameter_value(force, parameter, v)?;
            }
            start.assign_from(state);
            let y0 = state.q.iter().chain(state.u.iter()).chain(state.z.iter());
            for (i, &x) in y0.enumerate() {
                let v = seed(x, i);
                match i {
                    i if i < nq => start.q[i] = v,
                    i if i < nq + nu => start.u[i - nq] = v,
                    i => start.z[i - nq - nu] = v,
                }
            }
            for (k, c) in controls.iter_mut().enumerate() {
                *c = seed(self.model.controls(&start)[k].re, ny + np + k);
            }
            self.model.set_controls(&mut start, &controls)?;
            let mut sim = Simulation::new(&self.model, start.clone(), self.settings)?;
            sim.advance_to(state.t + self.h)?;
            let end = sim.state();
            let y1 = end.q.iter().chain(end.u.iter()).chain(end.z.iter());
            for (row, x) in y1.enumerate() {
                self.x_next[row] = x.re;
                for lane in 0..LANES {
                    let direction = first + lane;
                    let d = x.eps.0.map_or(0.0, |e| e[lane]);
                    if direction < ny {
                        self.dx_dx[(row, direction)] = d;
                    } else if direction < ny + np {
                        self.dx_dp[(row, direction - ny)] = d;
                    } else if direction < directions {
                        self.dx_dctrl[(row, direction - ny - np)] = d;
                    }
                }
            }
        }
        Ok(())
    }
}
