//! Position servo (MuJoCo's `position` actuator): a spring of stiffness kp pulling the
//! actuator length ℓ toward the control, with optional damping kv on its velocity ℓ̇,
//!
//! ```text
//!   f = kp·(ctrl − ℓ) − kv·ℓ̇        ℓ = gear·q,  ℓ̇ = gear·u
//! ```
//!
//! (kp in N/m or N·m/rad, kv in N·s/m or N·m·s/rad). On a pin joint with gear 1 and inertia I
//! about the axis, a step of the control to c gives I q̈ + kv q̇ + kp q = kp c: the second-order
//! response of natural frequency √(kp/I) and damping ratio kv / (2√(kp I)).
//! Reference: MuJoCo documentation, XML reference, `actuator/position`.

use crate::error::{invalid, ModelError};
use crate::scalar::Real;

/// A position servo: `f = kp (ctrl − ℓ) − kv ℓ̇`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PositionServo<T: Real = f64> {
    /// Position gain kp (N/m or N·m/rad), positive.
    pub kp: T,
    /// Velocity gain kv (N·s/m or N·m·s/rad), non-negative; 0 for none.
    pub kv: T,
}

impl<T: Real> PositionServo<T> {
    /// Gain and bias of the general form `f = gain·ctrl + b₀ + b₁·ℓ + b₂·ℓ̇`.
    pub(super) fn gain_bias(&self) -> (T, [T; 3]) {
        (self.kp, [T::zero(), -self.kp, -self.kv])
    }

    pub(super) fn validate(&self) -> Result<(), ModelError> {
        let (kp, kv) = (self.kp.re(), self.kv.re());
        if !(kp.is_finite() && kp > 0.0) {
            return Err(invalid!("kp must be positive and finite, got {kp}"));
        }
        if !(kv.is_finite() && kv >= 0.0) {
            return Err(invalid!("kv must be finite and non-negative, got {kv}"));
        }
        Ok(())
    }

    pub(super) fn cast<U: Real>(&self) -> PositionServo<U> {
        PositionServo {
            kp: U::c(self.kp.re()),
            kv: U::c(self.kv.re()),
        }
    }
}
