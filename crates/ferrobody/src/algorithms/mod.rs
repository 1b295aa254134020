//! The multibody algorithms, one per file. Each is a free function of `(model, state, data)`
//! that reads earlier-stage results from `data` and writes its own; each documents what it
//! reads and writes.
//!
//! All spatial quantities are expressed in Ground and taken about each body's origin (Simbody's
//! choice), with classical accelerations. References: R. Featherstone, *Rigid Body Dynamics
//! Algorithms*, Springer 2008 (ABA, CRBA, RNEA); A. Jain, *Robot and Multibody Dynamics*,
//! Springer 2011 (the Ground-frame spatial operator form used here).

pub mod aba;
pub(crate) mod aba_planar;
pub mod crba;
pub mod energy;
pub mod jacobian;
pub mod kinematics;
pub mod mass_ltdl;
pub mod momentum;
pub(crate) mod planar_xy;
pub mod rnea;
mod spd_inverse;

pub use aba::aba;
pub use crba::crba;
pub use energy::kinetic_energy;
pub use jacobian::{frame_jacobian, station_jacobian};
pub use kinematics::{position_kinematics, velocity_kinematics};
pub use mass_ltdl::MassLtdl;
pub use momentum::{momentum_about_ground_origin, Momentum};
pub use rnea::{rnea, rnea_into};
