//! `ferrobody.Simulation`: a model, a state and an integrator stepping forward, as
//! `ferrobody::Simulation` (the GIL is released while stepping). It keeps the integrator's
//! step-size history between calls, so `advance_to` in small increments follows the same
//! steps as one long call.

use crate::arrays::checked_array;
use crate::model::PyModel;
use crate::state::PyState;
use crate::to_py_err;
use ferrobody::{IntegratorKind, IntegratorSettings, Simulation};
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Steps a model forward from a state.
#[pyclass(module = "ferrobody", name = "Simulation")]
pub struct PySimulation {
    /// The simulation, sharing the Python model's `Arc` (so it owns what it runs).
    sim: Simulation<'static, f64>,
    /// The controls the next `advance_to` or `step` holds (MuJoCo's `data.ctrl`): a float64
    /// array owned here, written by the user in place or through the `controls` setter.
    controls: Py<PyArray1<f64>>,
}

impl PySimulation {
    /// Hands the controls array to the simulation (a change restarts the integrator's step
    /// there; the same values change nothing). `ValueError` for a non-finite entry.
    fn sync_controls(&mut self, py: Python<'_>) -> PyResult<()> {
        let array = self.controls.bind(py).readonly();
        let values = array.as_slice()?;
        if let Some(k) = values.iter().position(|c| !c.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "controls[{k}] is {}: controls must be finite",
                values[k]
            )));
        }
        self.sim.set_controls(values).map_err(to_py_err)
    }
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
        let controls = PyArray1::from_slice(py, model.model.controls(&start)).unbind();
        let sim = Simulation::new(model.model.clone(), start, settings).map_err(to_py_err)?;
        Ok(Self { sim, controls })
    }

    /// The controls held over the next `advance_to` or `step` (one per actuator, float64,
    /// `model.actuator_names` order): write into it (`sim.controls[:] = u`) or assign it
    /// (`sim.controls = u`); read at the start of each call, held constant during it.
    #[getter]
    fn controls(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.controls.clone_ref(py)
    }

    #[setter]
    fn set_controls(&mut self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.controls.bind(py).len();
        let values = checked_array(value, n, "controls")?;
        let values = values.as_array();
        if let Some(k) = values.iter().position(|c| !c.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "controls[{k}] is {}: controls must be finite",
                values[k]
            )));
        }
        let mut own = self.controls.bind(py).readwrite();
        own.as_array_mut().assign(&values);
        Ok(())
    }

    /// Steps until the time is exactly `t` (s).
    fn advance_to(&mut self, py: Python<'_>, t: f64) -> PyResult<()> {
        self.sync_controls(py)?;
        let sim = &mut self.sim;
        py.detach(|| sim.advance_to(t)).map_err(to_py_err)
    }

    /// Takes one accepted step, never past `t_max` (s).
    fn step(&mut self, py: Python<'_>, t_max: f64) -> PyResult<()> {
        self.sync_controls(py)?;
        let sim = &mut self.sim;
        py.detach(|| sim.step(t_max)).map_err(to_py_err)
    }

    /// The current time (s).
    #[getter]
    fn t(&self) -> f64 {
        self.sim.state().t
    }

    /// The current state, as a read-only snapshot (writes through it raise; assign a state
    /// to change it).
    #[getter]
    fn state(&self, py: Python<'_>) -> PyResult<PyState> {
        PyState::snapshot(py, self.sim.state())
    }

    /// Restarts from `state` (sizes and values checked, quaternions normalized, constraints
    /// projected); the integrator's settings, statistics and step size are kept.
    #[setter]
    fn set_state(&mut self, py: Python<'_>, state: PyRef<'_, PyState>) -> PyResult<()> {
        let s = state.to_state(py, self.sim.model())?;
        self.sim.set_state(s).map_err(to_py_err)?;
        let array = self.controls.bind(py);
        let mut w = array.readwrite();
        w.as_slice_mut()?.copy_from_slice(self.sim.controls());
        Ok(())
    }

    /// Integrator statistics: steps taken, attempted, failed, force evaluations, and the implicit
    /// method's Jacobians and Newton matrices.
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.sim.stats();
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
        format!(
            "<ferrobody.Simulation t={} of a model with {} bodies>",
            self.sim.state().t,
            self.sim.model().nbodies() - 1
        )
    }
}
