//! numpy ↔ slices: checked reads of 1-D float64 arrays and row-major 2-D/3-D results.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// `value` as a 1-D float64 array of length `n` named `what`, refusing other shapes and
/// dtypes.
pub(crate) fn checked_array<'py>(
    value: &Bound<'py, PyAny>,
    n: usize,
    what: &str,
) -> PyResult<PyReadonlyArray1<'py, f64>> {
    let array: PyReadonlyArray1<'py, f64> = value.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "{what}: expected a 1-D float64 numpy array of length {n}"
        ))
    })?;
    if array.len() != n {
        return Err(PyValueError::new_err(format!(
            "{what}: expected length {n}, got {}",
            array.len()
        )));
    }
    Ok(array)
}

/// Reads a 1-D float64 array of length `n` named `what`, refusing other shapes and dtypes
/// and non-finite entries.
pub(crate) fn read_vector(value: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<Vec<f64>> {
    let values = checked_array(value, n, what)?.as_array().to_vec();
    check_finite(&values, what)?;
    Ok(values)
}

/// Refuses NaN and infinities, naming the first bad entry.
pub(crate) fn check_finite(values: &[f64], what: &str) -> PyResult<()> {
    match values.iter().position(|x| !x.is_finite()) {
        Some(k) => Err(PyValueError::new_err(format!(
            "{what}[{k}] is {}: a state must be finite",
            values[k]
        ))),
        None => Ok(()),
    }
}

/// A row-major buffer as an array of `shape` (its length must be their product).
pub(crate) fn shaped<'py>(
    py: Python<'py>,
    data: Vec<f64>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let flat = PyArray1::from_vec(py, data);
    Ok(flat.reshape(shape.to_vec())?.into_any())
}
