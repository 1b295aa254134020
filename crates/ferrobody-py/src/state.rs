//! `ferrobody.State`: time and the q, u, z vectors as numpy arrays that the state owns (writes
//! into `state.q[...]` change the state), plus the discrete and auto-update variables that a
//! state carries whole (exponential springs' anchors and sliding states).

use crate::arrays::read_vector;
use ferrobody::{Model, State};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// A simulation state. `t`, `q`, `u`, `z` read and write; the arrays are the state's own.
#[pyclass(module = "ferrobody", name = "State")]
pub struct PyState {
    t: f64,
    q: Py<PyArray1<f64>>,
    u: Py<PyArray1<f64>>,
    z: Py<PyArray1<f64>>,
    /// The rest of the state (its q, u, z are not used: the arrays above are).
    rest: State<f64>,
    /// A snapshot (`Simulation.state`): read-only arrays, setters raise.
    frozen: bool,
}

impl PyState {
    pub(crate) fn from_state(py: Python<'_>, s: &State<f64>) -> PyResult<Self> {
        Ok(Self {
            t: s.t,
            q: PyArray1::from_slice(py, s.q.as_slice()).unbind(),
            u: PyArray1::from_slice(py, s.u.as_slice()).unbind(),
            z: PyArray1::from_slice(py, s.z.as_slice()).unbind(),
            rest: s.clone(),
            frozen: false,
        })
    }

    /// A read-only snapshot of `s` (what `Simulation.state` returns): writing to its arrays
    /// raises numpy's read-only error, its setters raise `AttributeError` saying how to
    /// change a simulation's state (`sim.state = s`), so no write is silently lost.
    pub(crate) fn snapshot(py: Python<'_>, s: &State<f64>) -> PyResult<Self> {
        let mut state = Self::from_state(py, s)?;
        for array in [&state.q, &state.u, &state.z] {
            let kwargs = pyo3::types::PyDict::new(py);
            kwargs.set_item("write", false)?;
            array.bind(py).call_method("setflags", (), Some(&kwargs))?;
        }
        state.frozen = true;
        Ok(state)
    }

    fn refuse_if_frozen(&self) -> PyResult<()> {
        if self.frozen {
            return Err(pyo3::exceptions::PyAttributeError::new_err(
                "this state is a read-only snapshot of Simulation.state: change a copy (s = sim.state.copy()) and assign it (sim.state = s)",
            ));
        }
        Ok(())
    }

    /// The ferrobody state for `model`: sizes checked, values finite.
    /// Takes the non-array part of `s` (discrete variables such as constraint flags); its q,
    /// u and z are ignored (the arrays hold them).
    pub(crate) fn set_rest(&mut self, s: State<f64>) {
        self.rest = s;
    }

    pub(crate) fn to_state(&self, py: Python<'_>, model: &Model<f64>) -> PyResult<State<f64>> {
        let mut s = self.rest.clone();
        if s.q.len() != model.nq() || s.u.len() != model.nu() || s.z.len() != model.nz() {
            return Err(PyValueError::new_err(format!(
                "state: made for a model with nq={}, nu={}, nz={}, not this one (nq={}, nu={}, nz={})",
                s.q.len(), s.u.len(), s.z.len(), model.nq(), model.nu(), model.nz()
            )));
        }
        s.t = self.t;
        for (name, array, target) in [
            ("state.q", &self.q, &mut s.q),
            ("state.u", &self.u, &mut s.u),
            ("state.z", &self.z, &mut s.z),
        ] {
            let values = read_vector(array.bind(py).as_any(), target.len(), name)?;
            target.copy_from_slice(&values);
        }
        if !self.t.is_finite() {
            return Err(PyValueError::new_err(format!(
                "state.t is {}: a state must be finite",
                self.t
            )));
        }
        Ok(s)
    }

    fn set_vector(
        &self,
        py: Python<'_>,
        which: &Py<PyArray1<f64>>,
        value: &Bound<'_, PyAny>,
        name: &str,
    ) -> PyResult<()> {
        let array = which.bind(py);
        let n = array.len()?;
        let values = read_vector(value, n, name)?;
        let mut w = array
            .try_readwrite()
            .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
        w.as_slice_mut()?.copy_from_slice(&values);
        Ok(())
    }
}

/// Rebuilds a state from its parts (what unpickling calls).
#[pyfunction]
#[pyo3(name = "_state_from_parts")]
pub fn state_from_parts(
    py: Python<'_>,
    t: f64,
    vectors: [Vec<f64>; 3],
    hidden: (Vec<f64>, Vec<f64>, Vec<f64>),
) -> PyResult<PyState> {
    let (discrete, auto_update, auto_update_time) = hidden;
    let s = State::from_parts(t, vectors, discrete, auto_update, auto_update_time);
    PyState::from_state(py, &s)
}

#[pymethods]
impl PyState {
    /// Time (s).
    #[getter]
    fn t(&self) -> f64 {
        self.t
    }
    #[setter]
    fn set_t(&mut self, t: f64) -> PyResult<()> {
        self.refuse_if_frozen()?;
        if !t.is_finite() {
            return Err(PyValueError::new_err(format!(
                "state.t is {t}: a state must be finite"
            )));
        }
        self.t = t;
        Ok(())
    }
    /// Generalized coordinates (the state's own array: writes change the state).
    #[getter]
    fn q(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.q.clone_ref(py)
    }
    #[setter]
    fn set_q(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.refuse_if_frozen()?;
        self.set_vector(py, &self.q, value, "state.q")
    }
    /// Generalized speeds (the state's own array).
    #[getter]
    fn u(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.u.clone_ref(py)
    }
    #[setter]
    fn set_u(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.refuse_if_frozen()?;
        self.set_vector(py, &self.u, value, "state.u")
    }
    /// Auxiliary continuous states (the state's own array).
    #[getter]
    fn z(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.z.clone_ref(py)
    }
    #[setter]
    fn set_z(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.refuse_if_frozen()?;
        self.set_vector(py, &self.z, value, "state.z")
    }
    /// A deep copy.
    fn copy(&self, py: Python<'_>) -> PyResult<PyState> {
        let mut s = self.rest.clone();
        s.t = self.t;
        s.q.copy_from_slice(&self.q.bind(py).to_vec()?);
        s.u.copy_from_slice(&self.u.bind(py).to_vec()?);
        s.z.copy_from_slice(&self.z.bind(py).to_vec()?);
        PyState::from_state(py, &s)
    }
    fn __copy__(&self, py: Python<'_>) -> PyResult<PyState> {
        self.copy(py)
    }
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<PyState> {
        self.copy(py)
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let rebuild = py
            .import("ferrobody._ferrobody")?
            .getattr("_state_from_parts")?;
        let (d, a, at) = self.rest.hidden_variables();
        let vectors = [
            self.q.bind(py).to_vec()?,
            self.u.bind(py).to_vec()?,
            self.z.bind(py).to_vec()?,
        ];
        let args = (self.t, vectors, (d.to_vec(), a.to_vec(), at.to_vec()));
        (rebuild, args).into_pyobject(py)
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        let n = |a: &Py<PyArray1<f64>>| a.bind(py).len().unwrap_or(0);
        format!(
            "<ferrobody.State t={} nq={} nu={} nz={}>",
            self.t,
            n(&self.q),
            n(&self.u),
            n(&self.z)
        )
    }
}
