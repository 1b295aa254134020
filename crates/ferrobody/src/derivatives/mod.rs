//! Exact derivatives as an API, by forward-mode dual numbers over the generic numerical core
//! ([`crate::scalar::Real`]).
//!
//! * [`ForwardDynamicsJacobian`]: ∂u̇/∂q, ∂u̇/∂u, ∂u̇/∂τ of forward dynamics, contact included.

pub mod forward_dynamics;

pub use forward_dynamics::{ForwardDynamicsJacobian, LANES};
