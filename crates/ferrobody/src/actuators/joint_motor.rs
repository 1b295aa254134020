//! Joint motor (MuJoCo's `motor` shortcut, OpenSim's `CoordinateActuator`): the actuator force
//! is the control itself,
//!
//! ```text
//!   f = ctrl            (N or N·m per unit of control)
//! ```
//!
//! and the joint receives `gear · f` as a generalized force (the transmission,
//! [`super::Actuator`]). Reference: MuJoCo documentation, XML reference, `actuator/motor`;
//! OpenSim `CoordinateActuator` (optimal force = gear).

use crate::scalar::Real;

/// A joint motor: force equal to the control.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointMotor;

impl JointMotor {
    /// Gain and bias of the general form `f = gain·ctrl + b₀ + b₁·ℓ + b₂·ℓ̇`.
    pub(super) fn gain_bias<T: Real>(&self) -> (T, [T; 3]) {
        (T::one(), [T::zero(); 3])
    }
}
