//! Exact derivatives as an API, by forward-mode dual numbers over the generic numerical core
//! ([`crate::scalar::Real`]).
//!
//! * [`ForwardDynamicsJacobian`]: ∂u̇/∂q, ∂u̇/∂u, ∂u̇/∂τ of forward dynamics, contact included.
//! * [`StateDerivativeJacobian`]: ∂ẏ/∂y of the state derivative (implicit integration).
//! * [`MomentArms`]: every muscle's moment arm −∂ℓ/∂q about every coordinate.
//! * [`StepJacobian`](crate::simulation::StepJacobian) (with the simulation, whose step it differentiates): ∂x₊/∂x and ∂x₊/∂p of one fixed-size integrator step, p force
//!   parameters by name.

mod body_forces;
mod floating_joints;
pub mod forward_dynamics;
mod hunt_crossley_ground;
mod mobility_forces;
pub mod moment_arms;
mod origin_frame;
pub mod rnea_derivatives;
pub mod state_derivative;

pub use forward_dynamics::{ForwardDynamicsJacobian, ForwardDynamicsJacobianLanes, LANES};
pub use moment_arms::MomentArms;
pub use rnea_derivatives::RneaDerivatives;
pub use state_derivative::StateDerivativeJacobian;
