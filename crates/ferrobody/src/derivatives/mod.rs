//! Exact derivatives as an API, by forward-mode dual numbers over the generic numerical core
//! ([`crate::scalar::Real`]).
//!
//! * [`ForwardDynamicsJacobian`]: ∂u̇/∂q, ∂u̇/∂u, ∂u̇/∂τ of forward dynamics, contact included.
//! * [`StepJacobian`]: ∂x₊/∂x and ∂x₊/∂p of one fixed-size integrator step, p force
//!   parameters by name.

pub mod forward_dynamics;
pub mod step;

pub use forward_dynamics::{ForwardDynamicsJacobian, LANES};
pub use step::StepJacobian;
