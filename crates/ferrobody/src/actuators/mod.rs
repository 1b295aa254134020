//! Actuators: what turns a control signal into a generalized force on one joint coordinate.
//!
//! Every actuator has a transmission — a coordinate of one body's mobilizer and a gear — and a
//! force law of MuJoCo's general form (Todorov et al., MuJoCo documentation, "Actuators"):
//!
//! ```text
//!   c = clamp(ctrl, ctrl_range)                  (control, clamped when a range is given)
//!   ℓ = gear·q,  ℓ̇ = gear·u                      (actuator length and velocity)
//!   f = clamp(gain·c + b₀ + b₁·ℓ + b₂·ℓ̇, force_range)   (actuator force, N or N·m)
//!   τ = gear·f                                   (generalized force on u)
//! ```
//!
//! with gain and bias given by the kind: [`JointMotor`] (gain 1), [`PositionServo`] (kp, kv),
//! [`VelocityServo`] (kv) or [`GeneralActuator`] (any gain and affine bias). The controls are a
//! discrete variable of the state (`Model::controls`, one per actuator in model order), so a
//! simulation holds them between calls (zero-order hold), a saved state keeps them and the
//! derivatives can seed them (∂x₊/∂ctrl). Actuators act on a coordinate of any mobilizer
//! without a quaternion: q and u at the actuator's index (for Euler-angle Ball, Free and
//! Ellipsoid mobilizers u is not q̇, and ℓ̇ = gear·u, the coordinate speed OpenSim's
//! CoordinateActuator reads); a quaternion's q have no coordinate to act on.

mod general;
mod joint_motor;
mod position_servo;
mod velocity_servo;

pub use general::GeneralActuator;
pub use joint_motor::JointMotor;
pub use position_servo::PositionServo;
pub use velocity_servo::VelocityServo;

use crate::error::{invalid, ModelError};
use crate::ids::BodyId;
use crate::scalar::Real;
use crate::tree::Body;

/// The force law of an actuator.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ActuatorKind<T: Real = f64> {
    /// `f = ctrl`.
    Motor(JointMotor),
    /// `f = kp (ctrl − ℓ) − kv ℓ̇`.
    PositionServo(PositionServo<T>),
    /// `f = kv (ctrl − ℓ̇)`.
    VelocityServo(VelocityServo<T>),
    /// `f = gain·ctrl + b₀ + b₁ ℓ + b₂ ℓ̇`.
    General(GeneralActuator<T>),
}

impl<T: Real> ActuatorKind<T> {
    /// The kind's name as the scene format spells it.
    pub fn label(&self) -> &'static str {
        match self {
            ActuatorKind::Motor(_) => "motor",
            ActuatorKind::PositionServo(_) => "position",
            ActuatorKind::VelocityServo(_) => "velocity",
            ActuatorKind::General(_) => "general",
        }
    }

    fn gain_bias(&self) -> (T, [T; 3]) {
        match self {
            ActuatorKind::Motor(m) => m.gain_bias(),
            ActuatorKind::PositionServo(s) => s.gain_bias(),
            ActuatorKind::VelocityServo(s) => s.gain_bias(),
            ActuatorKind::General(g) => g.gain_bias(),
        }
    }
}

/// One actuator: a force law acting through a joint coordinate.
#[derive(Clone, Debug, PartialEq)]
pub struct Actuator<T: Real = f64> {
    /// A name unique among the model's actuators.
    pub name: String,
    /// The body whose mobilizer (its joint to its parent) is driven.
    pub body: BodyId,
    /// Index of the coordinate within the mobilizer's q (and of the speed within its u).
    pub coordinate: usize,
    /// Transmission ratio (τ = gear·f, ℓ = gear·q); not zero.
    pub gear: T,
    /// Range the control is clamped to, `[lo, hi]` with lo ≤ hi.
    pub ctrl_range: Option<[T; 2]>,
    /// Range the actuator force is clamped to, `[lo, hi]` with lo ≤ hi (N or N·m).
    pub force_range: Option<[T; 2]>,
    /// The force law.
    pub kind: ActuatorKind<T>,
}

impl<T: Real> Actuator<T> {
    /// An actuator of gear 1 and no ranges.
    pub fn new(name: &str, body: BodyId, coordinate: usize, kind: ActuatorKind<T>) -> Self {
        Self {
            name: name.to_string(),
            body,
            coordinate,
            gear: T::one(),
            ctrl_range: None,
            force_range: None,
            kind,
        }
    }

    /// The actuator force f (after clamping) for control `ctrl` at coordinate `q`, speed `u`.
    #[inline]
    pub fn force(&self, ctrl: T, q: T, u: T) -> T {
        let c = clamp(ctrl, self.ctrl_range.as_ref());
        let (gain, [b0, b1, b2]) = self.kind.gain_bias();
        let f = gain * c + b0 + b1 * (self.gear * q) + b2 * (self.gear * u);
        clamp(f, self.force_range.as_ref())
    }

    /// ∂τ/∂ctrl at this point: `gear·gain`, or 0 where the control or the force is clamped
    /// (the derivative of the branch taken).
    pub fn control_slope(&self, ctrl: T, q: T, u: T) -> f64 {
        self.slopes(ctrl, q, u)[0]
    }

    /// ∂τ/∂q and ∂τ/∂u of this actuator's own coordinate and speed at this point:
    /// `gear²·b₁`, `gear²·b₂`, or 0 where the force is clamped.
    pub fn state_slopes(&self, ctrl: T, q: T, u: T) -> [f64; 2] {
        let [_, dq, du] = self.slopes(ctrl, q, u);
        [dq, du]
    }

    /// [∂τ/∂ctrl, ∂τ/∂q, ∂τ/∂u] of the branch taken.
    fn slopes(&self, ctrl: T, q: T, u: T) -> [f64; 3] {
        let inside = |x: f64, range: Option<&[T; 2]>| {
            range.is_none_or(|[lo, hi]| lo.re() <= x && x <= hi.re())
        };
        let gear = self.gear.re();
        let (gain, [b0, b1, b2]) = self.kind.gain_bias();
        let c_inside = inside(ctrl.re(), self.ctrl_range.as_ref());
        let c = clamp(ctrl, self.ctrl_range.as_ref()).re();
        let f = gain.re() * c + b0.re() + b1.re() * gear * q.re() + b2.re() * gear * u.re();
        if !inside(f, self.force_range.as_ref()) {
            return [0.0; 3];
        }
        let dc = if c_inside { gear * gain.re() } else { 0.0 };
        [dc, gear * gear * b1.re(), gear * gear * b2.re()]
    }

    /// Checks the body, the coordinate and every parameter.
    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        let body = bodies
            .get(self.body.0)
            .filter(|_| self.body != BodyId::GROUND)
            .ok_or_else(|| invalid!("body index {} is not a mobilized body", self.body.0))?;
        if self.coordinate >= body.nu() {
            return Err(invalid!(
                "body '{}' ({} mobilizer) has no coordinate number {}",
                body.name,
                body.mobilizer,
                self.coordinate
            ));
        }
        // The actuator reads q and u at its index and acts on that u, as OpenSim's
        // CoordinateActuator does: Euler-angle mobilizers qualify, quaternions do not.
        if body.mobilizer.quaternion_offset().is_some() {
            return Err(invalid!(
                "body '{}': an actuator needs a mobilizer without a quaternion, not {}",
                body.name,
                body.mobilizer
            ));
        }
        let gear = self.gear.re();
        if !gear.is_finite() || gear == 0.0 {
            return Err(invalid!("gear must be finite and not zero, got {gear}"));
        }
        check_range("ctrl_range", self.ctrl_range.as_ref())?;
        check_range("force_range", self.force_range.as_ref())?;
        match &self.kind {
            ActuatorKind::Motor(_) => Ok(()),
            ActuatorKind::PositionServo(s) => s.validate(),
            ActuatorKind::VelocityServo(s) => s.validate(),
            ActuatorKind::General(g) => g.validate(),
        }
    }

    /// Converts to another scalar type.
    pub(crate) fn cast<U: Real>(&self) -> Actuator<U> {
        let range = |r: &Option<[T; 2]>| r.map(|[lo, hi]| [U::c(lo.re()), U::c(hi.re())]);
        Actuator {
            name: self.name.clone(),
            body: self.body,
            coordinate: self.coordinate,
            gear: U::c(self.gear.re()),
            ctrl_range: range(&self.ctrl_range),
            force_range: range(&self.force_range),
            kind: match &self.kind {
                ActuatorKind::Motor(m) => ActuatorKind::Motor(*m),
                ActuatorKind::PositionServo(s) => ActuatorKind::PositionServo(s.cast()),
                ActuatorKind::VelocityServo(s) => ActuatorKind::VelocityServo(s.cast()),
                ActuatorKind::General(g) => ActuatorKind::General(g.cast()),
            },
        }
    }
}

/// `x` clamped to `[lo, hi]` (a bound replaces x, so its derivative is zero there).
#[inline]
fn clamp<T: Real>(x: T, range: Option<&[T; 2]>) -> T {
    match range {
        Some([lo, _]) if x.re() < lo.re() => *lo,
        Some([_, hi]) if x.re() > hi.re() => *hi,
        _ => x,
    }
}

fn check_range<T: Real>(what: &str, range: Option<&[T; 2]>) -> Result<(), ModelError> {
    if let Some([lo, hi]) = range {
        let (lo, hi) = (lo.re(), hi.re());
        if lo.is_nan() || hi.is_nan() || lo > hi {
            return Err(invalid!(
                "{what} [{lo}, {hi}] is not a range (lower bound above the upper, or NaN)"
            ));
        }
    }
    Ok(())
}
