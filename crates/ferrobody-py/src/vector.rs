//! `ferrobody.VectorSimulation`: many simulations of one model stepped together, in parallel
//! in Rust with the GIL released (`ferrobody::rollout::advance_all`); what the vector
//! environments (`ferrobody.VectorEnv`) are built on. Each member steps exactly as it would
//! alone.

use crate::arrays::shaped;
use crate::model::PyModel;
use crate::simulation::settings;
use crate::state::PyState;
use crate::to_py_err;
use ferrobody::{IntegratorSettings, Model, Simulation, State};
use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::Arc;

/// Simulations of one model stepped together (`step(controls, dt)`), on all cores.
#[pyclass(module = "ferrobody", name = "VectorSimulation")]
pub struct PyVectorSimulation {
    model: Arc<Model<f64>>,
    /// The members, each sharing `model`.
    sims: Vec<Simulation<'static, f64>>,
    settings: IntegratorSettings,
    start: State<f64>,
    pool: Option<rayon::ThreadPool>,
}

impl PyVectorSimulation {
    fn check_index(&self, i: usize) -> PyResult<()> {
        let n = self.sims.len();
        if i >= n {
            return Err(PyIndexError::new_err(format!(
                "simulation {i} of {n}: index out of range"
            )));
        }
        Ok(())
    }

    /// One row per member of `width` values read by `row`.
    fn rows(&self, width: usize, row: impl Fn(&Simulation<'_, f64>) -> Vec<f64>) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.sims.len() * width);
        for s in &self.sims {
            out.extend(row(s));
        }
        out
    }
}

#[pymethods]
impl PyVectorSimulation {
    /// `num_envs` simulations of `model`, each from `state` (default: the model's initial
    /// state), with the model's integrator settings or these; `threads` (default: all cores).
    #[new]
    #[pyo3(signature = (model, num_envs, state=None, integrator=None, accuracy=None, fixed_step=None, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        model: &PyModel,
        num_envs: usize,
        state: Option<PyRef<'_, PyState>>,
        integrator: Option<&str>,
        accuracy: Option<f64>,
        fixed_step: Option<f64>,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs: must be at least 1"));
        }
        let settings = settings(model, integrator, accuracy, fixed_step)?;
        let start = match state {
            Some(s) => s.to_state(py, &model.model)?,
            None => model.initial_state.clone(),
        };
        let pool = match threads {
            Some(0) => return Err(PyValueError::new_err("threads: must be at least 1")),
            Some(n) => Some(ferrobody::rollout::thread_pool(n).map_err(to_py_err)?),
            None => None,
        };
        let sims = (0..num_envs)
            .map(|_| Simulation::new(model.model.clone(), start.clone(), settings))
            .collect::<ferrobody::Result<Vec<_>>>()
            .map_err(to_py_err)?;
        Ok(Self {
            model: model.model.clone(),
            sims,
            settings,
            start,
            pool,
        })
    }

    /// Number of simulations.
    #[getter]
    fn num_envs(&self) -> usize {
        self.sims.len()
    }

    /// Holds row i of `controls` (num_envs × nctrl, float64) in simulation i and advances
    /// every simulation by `dt` seconds from its own time, in parallel with the GIL released.
    /// Returns one error message (or None) per simulation: a failed one keeps its last good
    /// state until it is reset. Bad controls raise ValueError.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        controls: &Bound<'py, PyAny>,
        dt: f64,
    ) -> PyResult<Bound<'py, PyList>> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(PyValueError::new_err(format!(
                "dt: must be positive and finite, got {dt}"
            )));
        }
        let (n, nctrl) = (self.num_envs(), self.model.nctrl());
        let array: PyReadonlyArray2<'py, f64> = controls.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "controls: expected a float64 numpy array of shape ({n}, {nctrl})"
            ))
        })?;
        if array.shape() != [n, nctrl] {
            return Err(PyValueError::new_err(format!(
                "controls: expected shape ({n}, {nctrl}), got {:?}",
                array.shape()
            )));
        }
        let values: Vec<f64> = array.as_array().iter().copied().collect();
        if let Some(k) = values.iter().position(|c| !c.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "controls[{}, {}] is {}: controls must be finite",
                k / nctrl.max(1),
                k % nctrl.max(1),
                values[k]
            )));
        }
        let (sims, pool) = (&mut self.sims, self.pool.as_ref());
        let results = py.detach(|| ferrobody::rollout::advance_all(sims, &values, dt, pool));
        let messages: Vec<Option<String>> = results
            .into_iter()
            .map(|r| r.err().map(|e| e.message()))
            .collect();
        PyList::new(py, messages)
    }

    /// Restarts simulation `index` from `state` (default: the state this batch started from).
    #[pyo3(signature = (index, state=None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        index: usize,
        state: Option<PyRef<'_, PyState>>,
    ) -> PyResult<()> {
        self.check_index(index)?;
        let start = match state {
            Some(s) => s.to_state(py, &self.model)?,
            None => self.start.clone(),
        };
        let settings = self.settings;
        self.sims[index] =
            Simulation::new(self.model.clone(), start, settings).map_err(to_py_err)?;
        Ok(())
    }

    /// A copy of simulation `index`'s state.
    fn state(&self, py: Python<'_>, index: usize) -> PyResult<PyState> {
        self.check_index(index)?;
        PyState::from_state(py, self.sims[index].state())
    }

    /// Times (num_envs).
    #[getter]
    fn t<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let t = self.rows(1, |s| vec![s.state().t]);
        shaped(py, t, &[self.num_envs()])
    }

    /// Generalized coordinates (num_envs × nq), a new array.
    #[getter]
    fn q<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let nq = self.model.nq();
        let q = self.rows(nq, |s| s.state().q.as_slice().to_vec());
        shaped(py, q, &[self.num_envs(), nq])
    }

    /// Generalized speeds (num_envs × nu), a new array.
    #[getter]
    fn u<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let nu = self.model.nu();
        let u = self.rows(nu, |s| s.state().u.as_slice().to_vec());
        shaped(py, u, &[self.num_envs(), nu])
    }

    /// The controls held (num_envs × nctrl), a new array.
    #[getter]
    fn controls<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.model.nctrl();
        let c = self.rows(n, |s| s.controls().to_vec());
        shaped(py, c, &[self.num_envs(), n])
    }

    /// Every body's origin in Ground (num_envs × bodies × 3, bodies in `Model.body_names`
    /// order, Ground first, as `rollouts`' `position`), computed in parallel with the GIL
    /// released.
    fn body_positions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let nbodies = self.model.nbodies();
        let n = self.num_envs();
        let (sims, pool) = (&mut self.sims, self.pool.as_ref());
        let rows = py.detach(|| ferrobody::rollout::body_origins_all(sims, pool));
        let mut flat = Vec::with_capacity(n * nbodies * 3);
        for r in rows {
            flat.extend([0.0; 3]); // Ground's origin
            flat.extend(r.map_err(to_py_err)?);
        }
        shaped(py, flat, &[n, nbodies, 3])
    }

    fn __repr__(&self) -> String {
        format!(
            "<ferrobody.VectorSimulation of {} simulations>",
            self.num_envs()
        )
    }
}
