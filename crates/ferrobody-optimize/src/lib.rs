//! Optimal control of ferrobody models by direct collocation, posed as OpenSim Moco poses it
//! and solved with IPOPT using exact, sparse first derivatives.
//!
//! A [`Problem`] names a model's states and controls, bounds them, sets the time span and the
//! [`Goal`]s; [`solve`] transcribes it ([`Transcription::HermiteSimpson`] or
//! [`Transcription::Trapezoidal`] on a uniform mesh, explicit dynamics ẏ = f(y, c)) into a
//! sparse nonlinear program whose constraint Jacobian comes from ferrobody's forward-dynamics
//! derivatives (no finite differences), and hands it to IPOPT with its L-BFGS Hessian. The
//! result is a [`Trajectory`], written as Moco's `MocoTrajectory` .sto or CSV. A problem can
//! also be read from a TOML file ([`ProblemFile`], `ferrobody optimize problem.toml`).
//!
//! ```no_run
//! use ferrobody_optimize::{solve, Bounds, FinalTime, Goal, Guess, Problem, SolverSettings, StateBounds};
//! let osim = ferrobody::io::osim::load("sliding_mass.osim".as_ref())?;
//! let mut problem = Problem::from_osim(&osim)?;
//! problem.set_time_bounds(0.0, FinalTime::Free(Bounds::new(0.0, 5.0)))?;
//! let ends = |a: f64, b: f64| StateBounds {
//!     path: Bounds::new(-5.0, 5.0), initial: Some(Bounds::fixed(a)), final_: Some(Bounds::fixed(b)),
//! };
//! problem.set_state_bounds("position", ends(0.0, 1.0))?;
//! problem.set_control_bounds("actuator", Bounds::new(-50.0, 50.0))?;
//! problem.add_goal(Goal::FinalTime { weight: 1.0 })?;
//! let solution = solve(problem, &SolverSettings::default(), &Guess::Bounds)?;
//! solution.write_sto("solution.sto".as_ref())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Reference: C. L. Dembia, N. A. Bianco, A. Falisse, J. L. Hicks, S. L. Delp, "OpenSim Moco:
//! Musculoskeletal optimal control", PLoS Comput. Biol. 16(12) e1008493 (2020).

mod contact_forces;
mod contact_tracking;
mod dual_lanes;
mod dynamics;
pub mod error;
mod external_loads;
mod goals;
mod grid;
mod guess;
mod mass_center;
mod nlp;
mod nlp_path;
mod path_constraints;
mod problem;
mod problem_contact;
mod problem_file;
mod problem_file_path;
mod problem_path;
mod solve;
mod spline;
mod trajectory;

pub use contact_tracking::{ContactGroup, ContactTracking, Projection};
pub use error::{OptimizeError, Result};
pub use external_loads::{ExternalForce, ExternalLoads};
pub use goals::Goal;
pub use grid::Transcription;
pub use guess::Guess;
pub use path_constraints::{ControlBound, FrameDistance, FramePair, PathConstraint};
pub use problem::{Bounds, FinalTime, Problem, StateBounds, Variable};
pub use problem_file::ProblemFile;
pub use solve::{solve, HomotopyStage, IpoptValue, SolverSettings};
pub use spline::ReferenceSpline;
pub use trajectory::{Table, Trajectory};

/// The NLP of a problem, for checks of its derivatives: variables, constraints g(x), the
/// Jacobian's pattern and values, the objective and its gradient.
pub mod inspect {
    pub use crate::nlp_view::NlpView;
}
mod nlp_view;
