//! The seed's `UnilateralContact` interface on a model: enable / disable, errors, proximity,
//! COR, COF, slip velocity, multipliers and a display point. Errors and the display point
//! need `data` realized from `state` to the stage they belong to (Position for perr,
//! proximity and display; Velocity for verr and slip; Acceleration for aerr).

use crate::data::{Data, Stage};
use crate::error::{Error, Result};
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;
use crate::unilateral::{UnilateralContact, UnilateralContactId};
use nalgebra::Vector3;

impl<T: Real> Model<T> {
    /// The unilateral contacts.
    pub fn unilateral_contacts(&self) -> &[UnilateralContact<T>] {
        &self.unilateral
    }

    /// One unilateral contact; errors if `id` names none of this model.
    pub fn unilateral_contact(&self, id: UnilateralContactId) -> Result<&UnilateralContact<T>> {
        self.unilateral.get(id.0).ok_or_else(|| {
            Error::model(format!(
                "unilateral contact id {} is out of range: the model has {}",
                id.0,
                self.unilateral.len()
            ))
        })
    }

    /// Whether the model has unilateral contacts (they need the rigid-contact stepper).
    pub fn has_unilateral_contacts(&self) -> bool {
        !self.unilateral.is_empty()
    }

    /// Whether contact `id` is enabled in `state` (the stepper enables the proximal ones).
    pub fn is_unilateral_enabled(&self, state: &State<T>, id: UnilateralContactId) -> bool {
        id.0 < self.unilateral.len()
            && state.discrete(self, self.unilateral_enabled)[id.0].re() != 0.0
    }

    /// Enables contact `id`; returns whether it was disabled (`enable`).
    pub fn enable_unilateral(&self, state: &mut State<T>, id: UnilateralContactId) -> Result<bool> {
        self.unilateral_contact(id)?;
        let was = self.is_unilateral_enabled(state, id);
        self.set_unilateral_flag(state, id.0, true);
        Ok(!was)
    }

    /// Disables contact `id`; returns whether it was enabled (`disable`).
    pub fn disable_unilateral(
        &self,
        state: &mut State<T>,
        id: UnilateralContactId,
    ) -> Result<bool> {
        self.unilateral_contact(id)?;
        let was = self.is_unilateral_enabled(state, id);
        self.set_unilateral_flag(state, id.0, false);
        Ok(was)
    }

    pub(crate) fn set_unilateral_flag(&self, state: &mut State<T>, i: usize, on: bool) {
        state.discrete_mut(self, self.unilateral_enabled)[i] =
            if on { T::one() } else { T::zero() };
    }

    /// Normal-row position error (`getPerr`; Position stage).
    pub fn unilateral_position_error(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: UnilateralContactId,
    ) -> Result<T> {
        data.require(Stage::Position);
        Ok(self
            .unilateral_contact(id)?
            .eval_position_error(self, state, data))
    }

    /// Normal-row velocity error (`getVerr`; Velocity stage).
    pub fn unilateral_velocity_error(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: UnilateralContactId,
    ) -> Result<T> {
        data.require(Stage::Velocity);
        let mut out = [T::zero(); 3];
        let c = self.unilateral_contact(id)?;
        c.eval_velocity_errors(self, state, data, &mut out[..c.row_count()]);
        Ok(out[0])
    }

    /// Normal-row acceleration error (`getAerr`; Acceleration stage).
    pub fn unilateral_acceleration_error(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: UnilateralContactId,
    ) -> Result<T> {
        data.require(Stage::Acceleration);
        let mut out = [T::zero(); 3];
        let c = self.unilateral_contact(id)?;
        c.eval_acceleration_errors(self, state, data, &mut out[..c.row_count()]);
        Ok(out[0])
    }

    /// `isProximal(state, tol)` (Position stage).
    pub fn is_unilateral_proximal(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: UnilateralContactId,
        tol: f64,
    ) -> Result<bool> {
        data.require(Stage::Position);
        Ok(self
            .unilateral_contact(id)?
            .eval_is_proximal(self, state, data, tol))
    }

    /// Slip velocity: the two friction-row velocity errors (`getSlipVelocity`; Velocity
    /// stage); `None` for a contact without friction.
    pub fn unilateral_slip_velocity(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: UnilateralContactId,
    ) -> Result<Option<[T; 2]>> {
        data.require(Stage::Velocity);
        let c = self.unilateral_contact(id)?;
        if !c.has_friction() {
            return Ok(None);
        }
        let mut out = [T::zero(); 3];
        c.eval_velocity_errors(self, state, data, &mut out);
        Ok(Some([out[1], out[2]]))
    }

    /// A Ground point at which to display the contact (`whereToDisplay`; Position stage).
    pub fn unilateral_display_point(
        &self,
        state: &State<T>,
        data: &Data<T>,
        id: UnilateralContactId,
    ) -> Result<Vector3<T>> {
        data.require(Stage::Position);
        Ok(self
            .unilateral_contact(id)?
            .eval_display_point(self, state, data))
    }

    /// Multipliers `[normal, friction x, friction y]` of the last rigid-contact step (Simbody's
    /// sign: a pushing contact with `sign = +1` has a negative normal multiplier); zeros for a
    /// contact that was not proximal, and friction zeros for one without friction.
    pub fn unilateral_multipliers(
        &self,
        state: &State<T>,
        id: UnilateralContactId,
    ) -> Result<[T; 3]> {
        self.unilateral_contact(id)?;
        let v = &state.discrete(self, self.unilateral_multipliers)[3 * id.0..3 * id.0 + 3];
        Ok([v[0], v[1], v[2]])
    }

    pub(crate) fn clear_unilateral_multipliers(&self, state: &mut State<T>) {
        state
            .discrete_mut(self, self.unilateral_multipliers)
            .iter_mut()
            .for_each(|x| *x = T::zero());
    }

    /// Stores `impulses / h` as contact `i`'s multipliers.
    pub(crate) fn store_unilateral_multipliers(
        &self,
        state: &mut State<T>,
        i: usize,
        impulses: &[T],
        h: T,
    ) {
        let out = &mut state.discrete_mut(self, self.unilateral_multipliers)[3 * i..3 * i + 3];
        for (o, p) in out.iter_mut().zip(impulses) {
            *o = *p / h;
        }
    }
}
