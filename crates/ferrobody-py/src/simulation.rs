//! `ferrobody.Simulation`: a model, a state and an integrator stepping forward, as
//! `ferrobody::Simulation` (the GIL is released while stepping). It keeps the integrator's
//! step-size history between calls, so `advance_to` in small increments follows the same
//! steps as one long call.

use crate::model::PyModel;
use crate::state::PyState;
use crate::to_py_err;
use ferrobody::{IntegratorKind, IntegratorSettings, Model, Simulation};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

type SimulationOf<'a> = Simulation<'a, f64>;

self_cell::self_cell!(
    /// A simulation together with the model it borrows.
    struct SimulationCell {
        owner: Arc<Model<f64>>,
        #[not_covariant]
        dependent: SimulationOf,
    }
);

/// Steps a model forward from a state.
#[pyclass(module = "ferrobody", name = "Simulation")]
pub struct PySimulation {
    cell: SimulationCell,
}

/// The model's integrator settings with the caller's changes.
pub(crate) fn settings(
    model: &PyModel,
    integrator: Option<&str>,
    accuracy: Option<f64>,
    fixed_step: Option<f64>,
) -> PyResult<IntegratorSettings> {
    let mut s = model.integrator;
    if let Some(name) = integrator {
        s.kind = IntegratorKind::from_name(name).ok_or_else(|| {
            let names: Vec<_> = IntegratorKind::ALL.iter().map(|k| k.name()).collect();
            PyValueError::new_err(format!(
                "integrator: unknown method '{name}' (one of: {})",
                names.join(", ")
            ))
        })?;
    }
    if let Some(a) = accuracy {
        s.accuracy = a;
    }
    if let Some(h) = fixed_step {
        s.fixed_step = h;
    }
    s.validate().map_err(to_py_err)?;
    Ok(s)
}

#[pymethods]
impl PySimulation {
    /// Starts a simulation of `model` from `state` (default: the model's initial state) with
    /// the model's integrator settings, or these: `integrator` (a name such as "rk-merson"),
    /// `accuracy`, `fixed_step` (s, for fixed-step methods).
    #[new]
    #[pyo3(signature = (model, state=None, integrator=None, accuracy=None, fixed_step=None))]
    fn new(
        py: Python<'_>,
        model: &PyModel,
        state: Option<PyRef<'_, PyState>>,
        integrator: Option<&str>,
        accuracy: Option<f64>,
        fixed_step: Option<f64>,
    ) -> PyResult<Self> {
        let settings = settings(model, integrator, accuracy, fixed_step)?;
        let start = match state {
            Some(s) => s.to_state(py, &model.model)?,
            None => model.initial_state.clone(),
        };
        let cell =
            SimulationCell::try_new(model.model.clone(), |m| Simulation::new(m, start, settings))
                .map_err(to_py_err)?;
        Ok(Self { cell })
    }

    /// Steps until the time is exactly `t` (s).
    fn advance_to(&mut self, py: Python<'_>, t: f64) -> PyResult<()> {
        let cell = &mut self.cell;
        py.detach(|| cell.with_dependent_mut(|_, sim| sim.advance_to(t)))
            .map_err(to_py_err)
    }

    /// Takes one accepted step, never past `t_max` (s).
    fn step(&mut self, py: Python<'_>, t_max: f64) -> PyResult<()> {
        let cell = &mut self.cell;
        py.detach(|| cell.with_dependent_mut(|_, sim| sim.step(t_max)))
            .map_err(to_py_err)
    }

    /// The current time (s).
    #[getter]
    fn t(&self) -> f64 {
        self.cell.with_dependent(|_, sim| sim.state().t)
    }

    /// A copy of the current state.
    #[getter]
    fn state(&self, py: Python<'_>) -> PyResult<PyState> {
        self.cell
            .with_dependent(|_, sim| PyState::from_state(py, sim.state()))
    }

    /// Integrator statistics: steps taken, attempted, failed, force evaluations, and the implicit
    /// method's Jacobians and Newton matrices.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.cell.with_dependent(|_, sim| sim.stats());
        let d = PyDict::new(py);
        d.set_item("steps_taken", s.steps_taken)?;
        d.set_item("steps_attempted", s.steps_attempted)?;
        d.set_item("steps_failed", s.error_test_failures)?;
        d.set_item("realizations", s.realizations)?;
        d.set_item("jacobians", s.jacobians)?;
        d.set_item("newton_matrices", s.newton_matrices)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        self.cell.with_dependent(|m, sim| {
            format!(
                "<ferrobody.Simulation t={} of a model with {} bodies>",
                sim.state().t,
                m.nbodies() - 1
            )
        })
    }
}
