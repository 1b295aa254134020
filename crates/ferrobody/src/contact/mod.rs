//! Compliant contact: Hertz normal force with Hunt–Crossley dissipation and a choice of
//! friction law, acting between the surfaces of one contact set.
//!
//! * [`material`]: per-surface parameters and Simbody's combining rules (series stiffness
//!   `k = k1 k2/(k1 + k2)` with `kᵢ = Eᵢ^(2/3)`, weighted dissipation, harmonic-mean friction).
//! * [`friction`]: the Hollars curve of Simbody's `HuntCrossleyForce` and the C² Stribeck curve
//!   of its `CompliantContactSubsystem`.
//! * [`hunt_crossley`]: the force element ([`HuntCrossleyForce`]) and the per-contact law.
//!
//! Rigid unilateral contact and the sphere-on-sphere constraint are not force laws: they are
//! constraints (later issues).

mod brick_penalty;
mod checks;
mod compliant_point;
mod contact_evaluation;
pub mod elastic_foundation;
mod elastic_foundation_patch;
pub mod exponential_spring;
pub mod exponential_spring_parameters;
pub mod friction;
pub mod hunt_crossley;
pub mod material;
pub mod smooth_curves;
mod smooth_law;
pub mod smooth_sphere_halfspace;
mod surface_pose;

pub use elastic_foundation::{
    ElasticFoundationForce, FoundationParameters, FoundationShape, FoundationSurface,
};
pub use elastic_foundation_patch::FoundationPatch;
pub use exponential_spring::{ExponentialSpringForce, ExponentialSpringOutput};
pub use exponential_spring_parameters::ExponentialSpringParameters;
pub use friction::FrictionModel;
pub use hunt_crossley::{ContactEvaluation, HuntCrossleyForce};
pub use material::ContactMaterial;
pub use smooth_sphere_halfspace::{SmoothContactParameters, SmoothSphereHalfSpaceForce};
