//! Parameter checks shared by the contact models' `validate` methods. Each names the first bad
//! value in the words the scene errors use (`"{name}: must be ..., got {value}"`).

use crate::error::{invalid, ModelError};
use crate::scalar::Real;

/// Every value finite and > 0.
pub(crate) fn all_positive<T: Real>(named: &[(&str, T)]) -> Result<(), ModelError> {
    match named
        .iter()
        .find(|(_, v)| !(v.re().is_finite() && v.re() > 0.0))
    {
        Some((name, v)) => Err(invalid!(
            "{name}: must be positive and finite, got {}",
            v.re()
        )),
        None => Ok(()),
    }
}

/// Every value finite and ≥ 0.
pub(crate) fn all_non_negative<T: Real>(named: &[(&str, T)]) -> Result<(), ModelError> {
    match named
        .iter()
        .find(|(_, v)| !(v.re().is_finite() && v.re() >= 0.0))
    {
        Some((name, v)) => Err(invalid!(
            "{name}: must be finite and non-negative, got {}",
            v.re()
        )),
        None => Ok(()),
    }
}
