//! Python bindings of ferrobody: `import ferrobody` (the pure-Python package in `python/`
//! re-exports this extension module, `ferrobody._ferrobody`).
//!
//! Thin by design: conversions between numpy arrays and ferrobody's vectors, the GIL released
//! while simulating, errors turned into Python exceptions. No physics lives here: `simulate`
//! and `rollouts` are `ferrobody::rollout`'s.

mod arrays;
mod dynamics;
mod model;
mod optimize;
mod runs;
mod simulation;
mod state;
mod vector;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// A ferrobody error as a Python exception: a failed simulation is a `RuntimeError`, bad
/// input (a model, scene or file problem) a `ValueError`; the message is the command line's.
pub(crate) fn to_py_err(e: ferrobody::Error) -> PyErr {
    match e {
        ferrobody::Error::Simulation { .. } => PyRuntimeError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

#[pymodule]
fn _ferrobody(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<model::PyModel>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<simulation::PySimulation>()?;
    m.add_class::<dynamics::PyDynamics>()?;
    m.add_class::<vector::PyVectorSimulation>()?;
    m.add_function(wrap_pyfunction!(model::load, m)?)?;
    m.add_function(wrap_pyfunction!(model::model_from_source, m)?)?;
    m.add_function(wrap_pyfunction!(state::state_from_parts, m)?)?;
    m.add_function(wrap_pyfunction!(runs::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(optimize::_optimize, m)?)?;
    m.add_function(wrap_pyfunction!(runs::rollouts, m)?)?;
    m.add_function(wrap_pyfunction!(dynamics::step_jacobian, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
