//! Reading constraint results: errors, multipliers, the forces the multipliers apply and
//! their power (Simbody `Constraint::getMultipliersAsVector`, `getConstraintForcesAsVectors`,
//! `calcPower`). The data must be realized to the stage each result belongs to.

use crate::constraints::station::motion;
use crate::constraints::{ConstraintId, SphereOnSphereContact};
use crate::data::{Data, Stage};
use crate::error::Result;
use crate::math::SpatialVec;
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;
use nalgebra::Vector3;

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
    /// physical forces, `−Gᵀλ` in body form; a coordinate constraint applies none (see
    /// [`Model::constraint_mobility_forces`]).
    pub fn constraint_body_forces(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: ConstraintId,
    ) -> Result<Vec<SpatialVec<T>>> {
        Ok(self.constraint_forces(state, data, id)?.0)
    }

    /// The generalized forces (N·m or N, by speed) that a coordinate constraint applies: the
    /// physical `−Gᵀλ` (Acceleration stage); zero for the body constraints.
    pub fn constraint_mobility_forces(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: ConstraintId,
    ) -> Result<Vec<T>> {
        Ok(self.constraint_forces(state, data, id)?.1)
    }

    fn constraint_forces(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: ConstraintId,
    ) -> Result<(Vec<SpatialVec<T>>, Vec<T>)> {
        let lambda = self.constraint_multipliers(data, id)?;
        let c = self.constraint(id)?;
        let mut forces = vec![SpatialVec::zeros(); self.nbodies()];
        let mut mobility = vec![T::zero(); self.nu()];
        if self.constraint_flag(state, id.0) {
            let negated: Vec<T> = lambda.iter().map(|l| -*l).collect();
            c.add_forces(
                &motion(state, data),
                c.parameters(self, state),
                &negated,
                &mut forces,
                &mut mobility,
            );
        }
        Ok((forces, mobility))
    }

    /// Power (W) of the constraint's forces on the system: `Σ F_b · V_b + Σ f_i u_i`
    /// (Acceleration stage). Zero, up to the velocity errors, for a workless constraint.
    pub fn constraint_power(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: ConstraintId,
    ) -> Result<T> {
        let (forces, mobility) = self.constraint_forces(state, data, id)?;
        let body = forces
            .iter()
            .zip(&data.vel.v_gb)
            .fold(T::zero(), |p, (f, v)| p + f.dot(v));
        Ok(mobility
            .iter()
            .zip(state.u.iter())
            .fold(body, |p, (f, u)| p + *f * *u))
    }
}

/// The queries of a sphere-on-sphere contact that read its rows of the model's constraint
/// results (Simbody `SphereOnSphereContact`'s getters).
impl<T: Real> SphereOnSphereContact<T> {
    /// Signed distance between the sphere surfaces (m), `getPositionError`.
    pub fn get_position_error(&self, model: &Model<T>, data: &Data<T>) -> crate::Result<T> {
        Ok(model.constraint_position_errors(data, self.index)?[0])
    }

    /// `getVelocityErrors`: (slip x, slip y, normal separation rate).
    pub fn get_velocity_errors(
        &self,
        model: &Model<T>,
        data: &Data<T>,
    ) -> crate::Result<Vector3<T>> {
        Ok(self.xyz(model.constraint_velocity_errors(data, self.index)?))
    }

    /// `getAccelerationErrors`, ordered as [`Self::get_velocity_errors`].
    pub fn get_acceleration_errors(
        &self,
        model: &Model<T>,
        data: &Data<T>,
    ) -> crate::Result<Vector3<T>> {
        Ok(self.xyz(model.constraint_acceleration_errors(data, self.index)?))
    }

    /// `getMultipliers`: the negative of the force on sphere B at Co, in the contact frame
    /// (x, y tangential, z normal).
    pub fn get_multipliers(&self, model: &Model<T>, data: &Data<T>) -> crate::Result<Vector3<T>> {
        Ok(self.xyz(model.constraint_multipliers(data, self.index)?))
    }

    /// `findForceOnSphereBInG`: the force this constraint applies to sphere B at Co, in
    /// Ground (Acceleration stage): `−(λx Cx + λy Cy + λz Cz)`.
    pub fn find_force_on_sphere_b_in_g(
        &self,
        model: &Model<T>,
        state: &State<T>,
        data: &Data<T>,
    ) -> crate::Result<Vector3<T>> {
        let lambda = self.get_multipliers(model, data)?;
        Ok(-(self.find_contact_frame_in_g(model, state, data).r * lambda))
    }
}
