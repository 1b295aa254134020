//! Checked reads of a [`Data`]'s results: each names the stage it belongs to and fails with
//! [`Error::StageNotRealized`] (in every build, not only debug builds) when the data has not
//! been realized that far, so a stale pose is never read silently.

use super::{Data, Stage};
use crate::error::{Error, Result};
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::DVector;

impl<T: Real> Data<T> {
    /// `Ok(())` when realized to `stage`, else the error naming both stages.
    pub fn check_stage(&self, stage: Stage) -> Result<()> {
        if self.realized >= stage {
            Ok(())
        } else {
            Err(Error::StageNotRealized {
                needed: stage.name(),
                realized: self.realized.name(),
            })
        }
    }

    /// Each body's pose in Ground `X_GB` (index by `BodyId`; Ground first). Position stage.
    pub fn poses(&self) -> Result<&[Transform<T>]> {
        self.check_stage(Stage::Position)?;
        Ok(&self.pos.x_gb)
    }

    /// Each body's spatial velocity in Ground `V_GB = [ω; v]` (rad/s; m/s of the body
    /// origin). Velocity stage.
    pub fn velocities(&self) -> Result<&[SpatialVec<T>]> {
        self.check_stage(Stage::Velocity)?;
        Ok(&self.vel.v_gb)
    }

    /// The coordinate derivatives `q̇ = N(q) u`. Velocity stage.
    pub fn qdot(&self) -> Result<&DVector<T>> {
        self.check_stage(Stage::Velocity)?;
        Ok(&self.vel.qdot)
    }

    /// Each body's applied spatial force in Ground, about its origin `[torque; force]`
    /// (N·m; N): every force element's contribution. Dynamics stage.
    pub fn body_forces(&self) -> Result<&[SpatialVec<T>]> {
        self.check_stage(Stage::Dynamics)?;
        Ok(&self.dynamics.body_forces)
    }

    /// The applied generalized forces (mobility forces, N or N·m). Dynamics stage.
    pub fn mobility_forces(&self) -> Result<&DVector<T>> {
        self.check_stage(Stage::Dynamics)?;
        Ok(&self.dynamics.mobility_forces)
    }

    /// The auxiliary-state derivatives `ż` (muscle activations, fiber lengths…). Dynamics
    /// stage.
    pub fn zdot(&self) -> Result<&DVector<T>> {
        self.check_stage(Stage::Dynamics)?;
        Ok(&self.dynamics.zdot)
    }

    /// The generalized accelerations `u̇`. Acceleration stage.
    pub fn udot(&self) -> Result<&DVector<T>> {
        self.check_stage(Stage::Acceleration)?;
        Ok(&self.acc.udot)
    }

    /// Each body's spatial acceleration in Ground `A_GB = [α; a]`. Acceleration stage.
    pub fn accelerations(&self) -> Result<&[SpatialVec<T>]> {
        self.check_stage(Stage::Acceleration)?;
        Ok(&self.acc.a_gb)
    }

    /// The constraint multipliers λ, one per constraint row. Acceleration stage.
    pub fn constraint_multipliers(&self) -> Result<&[T]> {
        self.check_stage(Stage::Acceleration)?;
        Ok(&self.constraints.multipliers)
    }

    /// The holonomic constraints' position errors. Position stage.
    pub fn constraint_position_errors(&self) -> Result<&[T]> {
        self.check_stage(Stage::Position)?;
        Ok(&self.constraints.position_errors)
    }

    /// The constraints' velocity errors. Velocity stage.
    pub fn constraint_velocity_errors(&self) -> Result<&[T]> {
        self.check_stage(Stage::Velocity)?;
        Ok(&self.constraints.velocity_errors)
    }

    /// How many times the Dynamics stage was realized (force evaluations).
    pub fn realizations(&self) -> u64 {
        self.realizations
    }
}
