//! Reading constraint results: errors, multipliers, the forces the multipliers apply and
//! their power (Simbody `Constraint::getMultipliersAsVector`, `getConstraintForcesAsVectors`,
//! `calcPower`). The data must be realized to the stage each result belongs to.

use super::station::BodyMotion;
use super::ConstraintId;
use crate::data::{Data, Stage};
use crate::error::Result;
use crate::math::SpatialVec;
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;

impl<T: Real> Model<T> {
    /// Position errors of a constraint's holonomic rows (Position stage).
    pub fn constraint_position_errors<'a>(
        &self,
        data: &'a Data<T>,
        id: ConstraintId,
    ) -> Result<&'a [T]> {
        data.require(Stage::Position);
        Ok(&data.constraints.position_errors[self.constraint_rows(id)?.position_range()])
    }

    /// Velocity errors of all a constraint's rows, holonomic first (Velocity stage).
    pub fn constraint_velocity_errors<'a>(
        &self,
        data: &'a Data<T>,
        id: ConstraintId,
    ) -> Result<&'a [T]> {
        data.require(Stage::Velocity);
        Ok(&data.constraints.velocity_errors[self.constraint_rows(id)?.range()])
    }

    /// Acceleration errors of all a constraint's rows (Acceleration stage).
    pub fn constraint_acceleration_errors<'a>(
        &self,
        data: &'a Data<T>,
        id: ConstraintId,
    ) -> Result<&'a [T]> {
        data.require(Stage::Acceleration);
        Ok(&data.constraints.acceleration_errors[self.constraint_rows(id)?.range()])
    }

    /// Lagrange multipliers of a constraint, Simbody's sign (Acceleration stage).
    pub fn constraint_multipliers<'a>(
        &self,
        data: &'a Data<T>,
        id: ConstraintId,
    ) -> Result<&'a [T]> {
        data.require(Stage::Acceleration);
        Ok(&data.constraints.multipliers[self.constraint_rows(id)?.range()])
    }

    /// The spatial forces (moment about the body origin, then force; in Ground) that the
    /// constraint applies to every body, indexed by body (Acceleration stage). These are the
    /// physical forces, `−Gᵀλ` in body form.
    pub fn constraint_body_forces(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: ConstraintId,
    ) -> Result<Vec<SpatialVec<T>>> {
        let lambda = self.constraint_multipliers(data, id)?;
        let c = self.constraint(id)?;
        let mut forces = vec![SpatialVec::zeros(); self.nbodies()];
        if self.constraint_flag(state, id.0) {
            let negated: Vec<T> = lambda.iter().map(|l| -*l).collect();
            c.add_forces(
                &motion(data),
                c.parameters(self, state),
                &negated,
                &mut forces,
            );
        }
        Ok(forces)
    }

    /// Power (W) of the constraint's forces on the system: `Σ F_b · V_b` (Acceleration stage).
    /// Zero, up to the velocity errors, for a workless constraint.
    pub fn constraint_power(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: ConstraintId,
    ) -> Result<T> {
        let forces = self.constraint_body_forces(state, data, id)?;
        Ok(forces
            .iter()
            .zip(&data.vel.v_gb)
            .fold(T::zero(), |p, (f, v)| p + f.dot(v)))
    }
}

pub(crate) fn motion<T: Real>(data: &Data<T>) -> BodyMotion<'_, T> {
    BodyMotion {
        x_gb: &data.pos.x_gb,
        v_gb: &data.vel.v_gb,
        a_gb: &data.acc.a_gb,
    }
}
