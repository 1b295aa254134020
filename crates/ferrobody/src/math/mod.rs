//! Small fixed-size math on top of nalgebra: spatial vectors, rigid transforms, mass properties
//! and quaternion kinematics.
//!
//! Notation (Simbody's monogram notation, lower-cased; see `docs/notation.md`): `x_ab` is the pose
//! of frame B in frame A, `r_ab` its rotation, `p_ab` the position of B's origin from A's origin,
//! expressed in A; `w_ab`, `v_ab` the angular velocity of B in A and the velocity of B's origin in
//! A. Spatial vectors put the angular (or moment) part first, as Simbody does: `[w; v]`, `[m; f]`.

pub mod expression;
pub mod function;
pub mod gcv_spline;
pub mod inertia;
pub mod q_projection;
pub mod quaternion;
pub mod small;
pub mod spatial;
pub mod transform;

pub use inertia::MassProperties;
pub use spatial::{angular, linear, spatial, SpatialVec};
pub use transform::Transform;
