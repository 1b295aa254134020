//! The constraint results of one state (errors, multipliers) and the workspace that computes
//! them ([`crate::pipeline::constraint_dynamics`]), sized once from the model.

use crate::math::SpatialVec;
use crate::scalar::Real;
use nalgebra::{DMatrix, DVector};

/// Constraint results of one state, and the workspace that computes them.
#[derive(Clone, Debug)]
pub(crate) struct ConstraintCache<T: Real> {
    /// Position errors of the holonomic rows (Position stage).
    pub position_errors: Vec<T>,
    /// Velocity errors of every row (Velocity stage).
    pub velocity_errors: Vec<T>,
    /// Acceleration errors of every row after the multipliers are applied (Acceleration stage).
    pub acceleration_errors: Vec<T>,
    /// Lagrange multipliers (Acceleration stage), Simbody's sign.
    pub multipliers: Vec<T>,
    /// G (rows × nu) at the last realized pose.
    pub(crate) g: DMatrix<T>,
    pub(crate) minv_gt: DMatrix<T>,
    pub(crate) schur: DMatrix<T>,
    pub(crate) mass: DMatrix<T>,
    pub(crate) forces: Vec<SpatialVec<T>>,
    pub(crate) tau: DVector<T>,
    /// Generalized forces of a unit multiplier of a coordinate constraint.
    pub(crate) mobility: DVector<T>,
    pub(crate) unit: [T; 6],
}

impl<T: Real> ConstraintCache<T> {
    /// Buffers for `rows` constraint rows (`holonomic` of them holonomic), `nu` speeds and
    /// `nb` bodies.
    pub fn new(rows: usize, holonomic: usize, nu: usize, nb: usize) -> Self {
        let n = if rows == 0 { 0 } else { nu };
        Self {
            position_errors: vec![T::zero(); holonomic],
            velocity_errors: vec![T::zero(); rows],
            acceleration_errors: vec![T::zero(); rows],
            multipliers: vec![T::zero(); rows],
            g: DMatrix::zeros(rows, n),
            minv_gt: DMatrix::zeros(n, rows),
            schur: DMatrix::zeros(rows, rows),
            mass: DMatrix::zeros(n, n),
            forces: vec![SpatialVec::zeros(); if rows == 0 { 0 } else { nb }],
            tau: DVector::zeros(n),
            mobility: DVector::zeros(n),
            unit: [T::zero(); 6],
        }
    }
}

impl<T: Real> Default for ConstraintCache<T> {
    fn default() -> Self {
        Self::new(0, 0, 0, 0)
    }
}
