//! Projection without constraints: quaternion normalization (Simbody
//! `SimbodyMatterSubsystemRep::projectQ` / `normalizeQuaternions`).
//!
//! With `e_k = |q_k| − 1` over all quaternions, `rms = RMS(e_k)`. During a step: if
//! `rms > max(2 tol, √tol)` the projection fails (the attempt is rejected as if its error were
//! infinite); if `rms > tol` every quaternion is normalized and the part of its error estimate
//! along the new unit quaternion is removed; otherwise nothing changes. At initialization all
//! quaternions are normalized unconditionally.

use crate::scalar::Real;

/// RMS over all quaternions of `|q| − 1`.
pub fn quaternion_norm_error<T: Real>(q: &[T], starts: &[usize]) -> f64 {
    if starts.is_empty() {
        return 0.0;
    }
    let sum: f64 = starts
        .iter()
        .map(|&s| {
            let n = (0..4).map(|k| q[s + k].re().powi(2)).sum::<f64>().sqrt();
            (n - 1.0).powi(2)
        })
        .sum();
    (sum / starts.len() as f64).sqrt()
}

/// Normalizes every quaternion in `q`; if `q_err` is given, removes from each quaternion's
/// error estimate its component along the normalized quaternion.
pub fn normalize_quaternions<T: Real>(q: &mut [T], starts: &[usize], mut q_err: Option<&mut [T]>) {
    for &s in starts {
        let n = (0..4)
            .map(|k| q[s + k] * q[s + k])
            .fold(T::zero(), |a, b| a + b)
            .sqrt();
        for k in 0..4 {
            q[s + k] /= n;
        }
        if let Some(err) = q_err.as_deref_mut() {
            let along = (0..4)
                .map(|k| err[s + k] * q[s + k])
                .fold(T::zero(), |a, b| a + b);
            for k in 0..4 {
                err[s + k] -= along * q[s + k];
            }
        }
    }
}

/// Outcome of projecting a trial state during a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    /// Nothing needed changing.
    Unchanged,
    /// Quaternions were normalized.
    Normalized,
    /// The state was too far from the manifold (the attempt fails).
    Failed,
}

/// Projects the q part of a trial state at constraint tolerance `tol` (see module docs).
pub fn project_q<T: Real>(q: &mut [T], starts: &[usize], tol: f64, q_err: &mut [T]) -> Projection {
    let rms = quaternion_norm_error(q, starts);
    if rms > (2.0 * tol).max(tol.sqrt()) {
        Projection::Failed
    } else if rms > tol {
        normalize_quaternions(q, starts, Some(q_err));
        Projection::Normalized
    } else {
        Projection::Unchanged
    }
}
