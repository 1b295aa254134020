//! Assembly: moving a state onto the constraint manifold before a simulation (Simbody's
//! `System::project` with `ForceProjection`, as `Integrator::initialize` does, and the
//! position part of `Assembler`).
//!
//! Full Newton with minimum-norm steps on q (up to 50 iterations, no divergence abort) until the
//! RMS position error is below `tolerance/10`, quaternions normalized; then the velocity errors
//! are removed from u by a minimum-norm correction. Fails with a clear error if the constraints
//! cannot be met (incompatible constraints or a start too far from any solution).

use super::projection::{
    project_q, project_u, ProjectionOptions, ProjectionResult, ProjectionWorkspace,
};
use crate::data::Data;
use crate::error::{Error, Result, SimulationFailure};
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;

/// Projects `state` (q, then u) onto the constraints to RMS tolerance `tolerance`.
pub fn assemble<T: Real>(model: &Model<T>, state: &mut State<T>, tolerance: f64) -> Result<()> {
    let mut data = Data::new(model);
    let mut ws = ProjectionWorkspace::new(model);
    let opts = ProjectionOptions::assembly(tolerance);
    if project_q(model, state, &mut data, &mut ws, &opts, None)? == ProjectionResult::Failed {
        return Err(Error::simulation(state.t, SimulationFailure::Constraints(format!(
                "assembly failed: the position constraints cannot be satisfied to {tolerance:e} from this state"
            ))));
    }
    if project_u(model, state, &mut data, &mut ws, &opts, None)? == ProjectionResult::Failed {
        return Err(Error::simulation(
            state.t,
            SimulationFailure::Constraints(format!(
                "assembly failed: the velocity constraints cannot be satisfied to {tolerance:e}"
            )),
        ));
    }
    Ok(())
}
