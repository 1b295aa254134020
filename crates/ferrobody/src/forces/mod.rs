//! Force elements: what pushes on the bodies.
//!
//! Every element turns the Position/Velocity-stage results into body forces (moment about the
//! body origin, then force, in Ground) and generalized (mobility) forces, and may define a
//! potential energy. This module holds what every element is written against — the
//! [`ForceElement`] trait, what an element reads ([`ForceContext`]) and where it writes
//! ([`ForceAccumulator`]) — and the elements that need nothing else (gravity, springs,
//! dampers, constant forces, limits, bushings). The contact elements live in
//! [`crate::contact`]. The model's force set, the [`Force`](crate::model::Force) enum that
//! lists every kind and dispatches by `match` (no dynamic dispatch in the step), is assembled
//! above them in [`crate::model`]; user-written elements implement [`ForceElement`] and are
//! added as `Force::Custom`.

mod constant;
mod context;
mod coordinate_expression;
mod coordinate_limit;
mod gravity;
mod linear_bushing;
mod mobility;
mod nonlinear_bushing;
mod point_to_point_expression;
mod prescribed;
mod sink;
mod two_point;

pub use constant::{ConstantForce, ConstantTorque, MobilityConstantForce};
pub use context::{ForceAccumulator, ForceContext};
pub use coordinate_expression::CoordinateExpressionForce;
pub use coordinate_limit::CoordinateLimitForce;
pub use gravity::Gravity;
pub use linear_bushing::LinearBushing;
pub use mobility::{MobilityLinearDamper, MobilityLinearSpring};
pub use nonlinear_bushing::{BushingStiffness, NonlinearBushing};
pub use point_to_point_expression::PointToPointExpressionForce;
pub use prescribed::{ExpressedIn, PrescribedForce};
pub use two_point::{TwoPointLinearDamper, TwoPointLinearSpring};

pub(crate) use context::check_body;
#[cfg(feature = "parallel")]
pub(crate) use sink::ForceRecorder;
pub(crate) use sink::{replay, ForceSink};

use crate::scalar::Real;

/// A force element that users can write themselves.
///
/// `calc_force` adds this element's forces to the accumulator; `potential_energy` returns its
/// stored energy (J), if it has any. Elements may also compute new values of auto-update
/// discrete variables (through the accumulator) and ż of their auxiliary variables.
pub trait ForceElement<T: Real>: Send + Sync {
    /// A short name for messages and output columns.
    fn name(&self) -> &str;
    /// Adds this element's body and mobility forces.
    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>);
    /// Potential energy stored in this element (J).
    fn potential_energy(&self, _ctx: &ForceContext<'_, T>) -> T {
        T::zero()
    }
}
