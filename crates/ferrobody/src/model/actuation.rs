//! The model's actuators and its control vector (MuJoCo's `ctrl`): one control per actuator,
//! in the order they were added, held in the state as a discrete variable so that a
//! simulation keeps them between calls (zero-order hold) and a saved state restores them.
//!
//! At the Dynamics stage every actuator adds `τ = gear·f(ctrl, ℓ, ℓ̇)` to the generalized force
//! of its coordinate ([`crate::actuators`] has the force laws).

use super::Model;
use crate::actuators::Actuator;
use crate::error::{Error, Result};
use crate::scalar::Real;
use crate::state::State;
use nalgebra::DMatrix;

impl<T: Real> Model<T> {
    /// The actuators, in control order.
    pub fn actuators(&self) -> &[Actuator<T>] {
        &self.actuators
    }

    /// Number of controls (one per actuator).
    pub fn nctrl(&self) -> usize {
        self.actuators.len()
    }

    /// The index of the actuator (and control) named `name`.
    pub fn actuator_index(&self, name: &str) -> Option<usize> {
        self.actuators.iter().position(|a| a.name == name)
    }

    /// The controls held in `state` (length [`Self::nctrl`]).
    pub fn controls<'a>(&self, state: &'a State<T>) -> &'a [T] {
        state.discrete(self, self.controls)
    }

    /// Sets the controls held in `state`; errors if `controls` is not one finite value per
    /// actuator (the state is then unchanged).
    pub fn set_controls(&self, state: &mut State<T>, controls: &[T]) -> Result<()> {
        if controls.len() != self.nctrl() {
            return Err(Error::model(format!(
                "controls: {} values given for {} actuators",
                controls.len(),
                self.nctrl()
            )));
        }
        if let Some(k) = controls.iter().position(|c| !c.re().is_finite()) {
            return Err(Error::model(format!(
                "controls: entry {k} ('{}') is {}, not finite",
                self.actuators[k].name,
                controls[k].re()
            )));
        }
        state.set_discrete(self, self.controls, controls);
        Ok(())
    }

    /// The actuator forces f (N or N·m, after clamping) at `state`, in control order.
    pub fn actuator_forces(&self, state: &State<T>) -> Vec<T> {
        let controls = self.controls(state);
        self.actuators
            .iter()
            .zip(controls)
            .map(|(a, &c)| {
                let (q, u) = self.actuated_coordinate(state, a);
                a.force(c, q, u)
            })
            .collect()
    }

    /// ∂τ/∂ctrl at `state` (nu × nctrl): each column `gear·gain` at its actuator's speed, zero
    /// where the control or the force is clamped. With ∂u̇/∂τ it gives ∂u̇/∂ctrl.
    pub fn control_jacobian(&self, state: &State<T>) -> DMatrix<f64> {
        let mut b = DMatrix::zeros(self.nu(), self.nctrl());
        self.fill_control_jacobian(state, &mut b);
        b
    }

    /// [`Self::control_jacobian`] into `b` (nu × nctrl), without allocating.
    pub(crate) fn fill_control_jacobian(&self, state: &State<T>, b: &mut DMatrix<f64>) {
        b.fill(0.0);
        let controls = self.controls(state);
        for (k, (a, &c)) in self.actuators.iter().zip(controls).enumerate() {
            let (q, u) = self.actuated_coordinate(state, a);
            let speed = self.bodies[a.body.0].u_start + a.coordinate;
            b[(speed, k)] = a.control_slope(c, q, u);
        }
    }

    /// Adds every actuator's generalized force to `mobility_forces` (length nu).
    #[inline]
    pub(crate) fn apply_actuators(&self, state: &State<T>, mobility_forces: &mut [T]) {
        let controls = self.controls(state);
        for (a, &c) in self.actuators.iter().zip(controls) {
            let (q, u) = self.actuated_coordinate(state, a);
            let speed = self.bodies[a.body.0].u_start + a.coordinate;
            mobility_forces[speed] += a.gear * a.force(c, q, u);
        }
    }

    fn actuated_coordinate(&self, state: &State<T>, a: &Actuator<T>) -> (T, T) {
        let body = &self.bodies[a.body.0];
        (
            state.q[body.q_start + a.coordinate],
            state.u[body.u_start + a.coordinate],
        )
    }
}
