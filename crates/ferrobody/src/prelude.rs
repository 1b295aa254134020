//! The names most programs need: `use ferrobody::prelude::*;`.

pub use crate::actuators::{Actuator, ActuatorKind};
pub use crate::data::{Data, Stage};
pub use crate::error::{Error, Result};
pub use crate::forces::{ForceAccumulator, ForceContext, ForceElement};
pub use crate::ids::{BodyId, ForceId};
pub use crate::integrators::{IntegratorKind, IntegratorSettings};
pub use crate::math::{MassProperties, Transform};
pub use crate::mobilizer::Mobilizer;
pub use crate::model::{BodyDef, Force, Model, ModelBuilder};
pub use crate::pipeline::realize;
pub use crate::scalar::Real;
pub use crate::simulation::Simulation;
pub use crate::state::State;
pub use crate::tree::Tree;
pub use crate::unilateral::{FrictionCoefficients, UnilateralContact, UnilateralContactId};
pub use nalgebra::{Matrix3, Vector3};
