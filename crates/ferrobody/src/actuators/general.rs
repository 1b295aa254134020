//! MuJoCo's general actuator with a fixed gain and an affine bias:
//!
//! ```text
//!   f = gain·ctrl + b₀ + b₁·ℓ + b₂·ℓ̇        ℓ = gear·q,  ℓ̇ = gear·u
//! ```
//!
//! (`gaintype="fixed"`, `biastype="affine"`, `dyntype="none"`; gain in N per unit of control,
//! b₀ in N, b₁ in N/m, b₂ in N·s/m, or their rotational counterparts). The motor and the
//! servos are this form with particular gains. Reference: MuJoCo documentation, Modeling,
//! "Actuators", and XML reference, `actuator/general`.

use crate::error::{invalid, ModelError};
use crate::scalar::Real;

/// The general form: `f = gain·ctrl + b₀ + b₁ ℓ + b₂ ℓ̇`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeneralActuator<T: Real = f64> {
    /// Control gain.
    pub gain: T,
    /// Bias coefficients b₀, b₁, b₂.
    pub bias: [T; 3],
}

impl<T: Real> GeneralActuator<T> {
    /// Gain and bias of the general form.
    pub(super) fn gain_bias(&self) -> (T, [T; 3]) {
        (self.gain, self.bias)
    }

    pub(super) fn validate(&self) -> Result<(), ModelError> {
        let gain = self.gain.re();
        if !gain.is_finite() {
            return Err(invalid!("gain must be finite, got {gain}"));
        }
        if let Some(b) = self.bias.iter().map(|b| b.re()).find(|b| !b.is_finite()) {
            return Err(invalid!("bias must be finite, got {b}"));
        }
        Ok(())
    }

    pub(super) fn cast<U: Real>(&self) -> GeneralActuator<U> {
        GeneralActuator {
            gain: U::c(self.gain.re()),
            bias: self.bias.map(|b| U::c(b.re())),
        }
    }
}
