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

use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// A ferrobody error as a Python exception: a missing file is a `FileNotFoundError`, any
/// other I/O failure an `OSError`, a failed simulation (or threads that cannot start) a
/// `RuntimeError`, bad input (a model, scene, file or setting) a `ValueError`; the message is
/// the command line's ([`ferrobody::Error::message`]).
pub(crate) fn to_py_err(e: ferrobody::Error) -> PyErr {
    let message = e.message();
    match e {
        _ if e.is_not_found() => PyFileNotFoundError::new_err(message),
        ferrobody::Error::Io { .. } => PyOSError::new_err(message),
        ferrobody::Error::Simulation { .. } | ferrobody::Error::Threads { .. } => {
            PyRuntimeError::new_err(message)
        }
        _ => PyValueError::new_err(message),
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
