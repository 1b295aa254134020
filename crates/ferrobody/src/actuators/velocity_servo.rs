//! Velocity servo (MuJoCo's `velocity` actuator): a damper of gain kv pulling the actuator
//! velocity ℓ̇ toward the control,
//!
//! ```text
//!   f = kv·(ctrl − ℓ̇)        ℓ̇ = gear·u
//! ```
//!
//! (kv in N·s/m or N·m·s/rad). Reference: MuJoCo documentation, XML reference,
//! `actuator/velocity`.

use crate::error::{invalid, ModelError};
use crate::scalar::Real;

/// A velocity servo: `f = kv (ctrl − ℓ̇)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VelocityServo<T: Real = f64> {
    /// Velocity gain kv (N·s/m or N·m·s/rad), positive.
    pub kv: T,
}

impl<T: Real> VelocityServo<T> {
    /// Gain and bias of the general form `f = gain·ctrl + b₀ + b₁·ℓ + b₂·ℓ̇`.
    pub(super) fn gain_bias(&self) -> (T, [T; 3]) {
        (self.kv, [T::zero(), T::zero(), -self.kv])
    }

    pub(super) fn validate(&self) -> Result<(), ModelError> {
        let kv = self.kv.re();
        if !(kv.is_finite() && kv > 0.0) {
            return Err(invalid!("kv must be positive and finite, got {kv}"));
        }
        Ok(())
    }

    pub(super) fn cast<U: Real>(&self) -> VelocityServo<U> {
        VelocityServo {
            kv: U::c(self.kv.re()),
        }
    }
}
