//! `ferrobody._optimize`: solve an optimal-control problem (ferrobody-optimize) from a
//! problem file's path or its JSON text, with the GIL released; the Python wrapper
//! (`ferrobody.optimize`) turns the result into a `Solution`.

use crate::arrays::shaped;
use ferrobody_optimize::{solve, OptimizeError, ProblemFile};
use pyo3::exceptions::{PyFileNotFoundError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::Path;

fn to_py_err(e: OptimizeError) -> PyErr {
    let message = e.message();
    match e {
        OptimizeError::Io { ref source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(message)
        }
        OptimizeError::NotSolved { .. } | OptimizeError::Solver(_) => {
            PyRuntimeError::new_err(message)
        }
        OptimizeError::Model(inner) => crate::to_py_err(inner),
        _ => PyValueError::new_err(message),
    }
}

/// Solves the problem in the TOML file at `path`, or given as `json` text (file names in it
/// relative to `base`); returns the solution's arrays and report as a dict.
#[pyfunction]
#[pyo3(signature = (path=None, json=None, base=None, progress=false))]
pub fn _optimize<'py>(
    py: Python<'py>,
    path: Option<&str>,
    json: Option<&str>,
    base: Option<&str>,
    progress: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let mut file = match (path, json) {
        (Some(p), None) => ProblemFile::load(Path::new(p)),
        (None, Some(j)) => ProblemFile::parse_json(j, Path::new(base.unwrap_or("."))),
        _ => {
            return Err(PyValueError::new_err(
                "give a problem file or a problem dict",
            ))
        }
    }
    .map_err(to_py_err)?;
    file.settings.progress = progress;
    let ProblemFile {
        problem,
        settings,
        guess,
        ..
    } = file;
    let s = py
        .detach(|| solve(problem, &settings, &guess))
        .map_err(to_py_err)?;
    let out = PyDict::new(py);
    let flat = |rows: &[Vec<f64>]| rows.iter().flatten().copied().collect::<Vec<f64>>();
    let points = s.time.len();
    out.set_item("time", numpy::PyArray1::from_vec(py, s.time.clone()))?;
    out.set_item(
        "states",
        shaped(py, flat(&s.states), &[points, s.state_names.len()])?,
    )?;
    out.set_item(
        "controls",
        shaped(py, flat(&s.controls), &[points, s.control_names.len()])?,
    )?;
    out.set_item("state_names", s.state_names)?;
    out.set_item("control_names", s.control_names)?;
    out.set_item("objective", s.objective)?;
    out.set_item("goals", s.goal_values)?;
    out.set_item("status", s.status)?;
    out.set_item("success", s.success)?;
    out.set_item("iterations", s.iterations)?;
    out.set_item("solver_duration", s.solver_duration)?;
    Ok(out)
}
