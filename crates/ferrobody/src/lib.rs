//! # ferrobody
//!
//! Multibody dynamics with Simbody's contact models: bodies on mobilizers, O(n) dynamics, force
//! elements, and Simbody's error-controlled Runge–Kutta–Merson integrator, in safe Rust and
//! generic over the scalar type so that whole steps run on dual numbers for exact derivatives.
//!
//! ## The pipeline
//!
//! A [`Model`] (immutable) and a [`State`] (t, q, u, z, discrete variables) go through the stages
//! of [`pipeline::realize`] into a [`Data`] (caches grouped by [`Stage`]):
//! Position → Velocity → Dynamics → Acceleration. An integrator ([`integrators`]) advances the
//! state; [`Simulation`] drives it to report times.
//!
//! ```
//! use ferrobody::prelude::*;
//! // A pendulum: a 1 kg point-like rod end 1 m from a pin about Z.
//! let mut b = ModelBuilder::<f64>::new();
//! let bob = MassProperties::new(1.0, Vector3::new(1.0, 0.0, 0.0), Matrix3::zeros());
//! let link = b.add_body(BodyDef::new("link", BodyId::GROUND, Mobilizer::Pin, bob)).unwrap();
//! b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
//! let model = b.build().unwrap();
//! let mut state = model.default_state();
//! state.set_body_q(&model, link, &[0.1]);
//! let mut sim = Simulation::new(&model, state, IntegratorSettings::rk_merson(1e-8)).unwrap();
//! sim.advance_to(1.0).unwrap();
//! assert!(sim.state().t == 1.0);
//! ```
//!
//! ## Features
//!
//! All on by default; the numerical core needs none of them (`default-features = false`):
//! * `io`: [`io`], the scene, URDF and .osim importers and the CSV and .sto writers (toml,
//!   roxmltree);
//! * `meshes`: mesh files for the elastic foundation, OBJ, STL and VTP (tobj, stl_io; implies
//!   `io`);
//! * `parallel`: [`rollout::rollouts`], [`rollout::advance_all`] and the other batch runs on
//!   all cores (rayon).

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

pub mod actuators;
pub mod algorithms;
pub mod constraints;
pub mod contact;
pub mod data;
pub mod derivatives;
pub mod error;
pub mod forces;
pub mod geometry;
pub mod ids;
pub mod integrators;
#[cfg(feature = "io")]
pub mod io;
pub mod math;
pub mod mobilizer;
pub mod model;
pub mod muscles;
pub mod pipeline;
pub mod prelude;
pub mod rollout;
mod run_budget;
pub mod scalar;
pub mod simulation;
pub mod state;
pub mod tree;
pub mod unilateral;

/// The README's examples, compiled and run as doctests so that they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The linear-algebra crate of the public API, re-exported so that users get the same version.
pub use nalgebra;

pub use data::{Data, Stage};
pub use error::{
    Error, InertiaProblem, ModelError, ParseError, Result, SettingsError, SimulationFailure,
};
pub use ids::{AutoUpdateVarId, BodyId, DiscreteVarId, ForceId, ZId};
pub use integrators::{IntegratorKind, IntegratorSettings};
pub use model::{Model, ModelBuilder};
pub use scalar::Real;
pub use simulation::Simulation;
pub use state::State;
pub use tree::Tree;
