//! The model's actuators and its control vector (MuJoCo's `ctrl`): one control per actuator,
//! in the order they were added, then one per force-element control (the excitations of
//! muscles and OpenSim actuators that no controller drives,
//! [`crate::muscles::Excitation::Control`]), held in the state as a discrete variable so that
//! a simulation keeps them between calls (zero-order hold) and a saved state restores them.
//!
//! At the Dynamics stage every actuator adds `τ = gear·f(ctrl, ℓ, ℓ̇)` to the generalized force
//! of its coordinate ([`crate::actuators`] has the force laws); a force element reads its
//! control as its excitation (a muscle's enters its activation dynamics, a path actuator's
//! its tension).

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

    /// Number of controls: one per actuator, then one per force-element control.
    pub fn nctrl(&self) -> usize {
        self.actuators.len() + self.force_control_names.len()
    }

    /// The index of the actuator (and control) named `name`.
    pub fn actuator_index(&self, name: &str) -> Option<usize> {
        self.actuators.iter().position(|a| a.name == name)
    }

    /// The controls' names, in control order: the actuators', then the force-element
    /// controls' (an OpenSim muscle's or actuator's name).
    pub fn control_names(&self) -> Vec<&str> {
        self.actuators
            .iter()
            .map(|a| a.name.as_str())
            .chain(self.force_control_names.iter().map(String::as_str))
            .collect()
    }

    /// The index in the control vector of the control named `name`.
    pub fn control_index(&self, name: &str) -> Option<usize> {
        self.actuator_index(name).or_else(|| {
            self.force_control_names
                .iter()
                .position(|n| n == name)
                .map(|k| self.actuators.len() + k)
        })
    }

    /// Where the force-element controls start in the control vector (the number of
    /// actuators).
    pub fn force_control_start(&self) -> usize {
        self.actuators.len()
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
                "controls: {} values given, the model has {} controls",
                controls.len(),
                self.nctrl()
            )));
        }
        if let Some(k) = controls.iter().position(|c| !c.re().is_finite()) {
            return Err(Error::model(format!(
                "controls: entry {k} ('{}') is {}, not finite",
                self.control_names()[k],
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

    /// ∂τ/∂ctrl at `state` (nu × nctrl): each actuator's column `gear·gain` at its actuator's
    /// speed, zero where the control or the force is clamped. With ∂u̇/∂τ it gives ∂u̇/∂ctrl.
    /// The force-element controls' columns are zero here: they act through their elements'
    /// forces and states, whose derivatives `ForwardDynamicsJacobian` and
    /// `StateDerivativeJacobian` take by dual numbers.
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
