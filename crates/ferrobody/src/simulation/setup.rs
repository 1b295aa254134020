//! What `Simulation::new` checks and builds, and the projection onto constraints.

use super::*;
/// Makes `state` a valid start for `model`: sizes and finiteness checked, quaternions
/// normalized, the constraints projected to the settings' tolerance (`Simulation::new` and
/// `Simulation::set_state`). `data` and `ws` are scratch.
pub(super) fn prepare_start<T: Real>(
    model: &Model<T>,
    state: &mut State<T>,
    settings: &IntegratorSettings,
    data: &mut Data<T>,
    ws: &mut ProjectionWorkspace<T>,
) -> Result<()> {
    check_dimensions(model, state)?;
    if !state.is_finite() {
        return Err(Error::simulation(
            state.t,
            SimulationFailure::InitialState("is not finite".into()),
        ));
    }
    normalize_quaternions(state.q.as_mut_slice(), &model.quaternion_starts, None);
    if !state.is_finite() {
        return Err(Error::simulation(
            state.t,
            SimulationFailure::InitialState("has a zero or non-finite quaternion".into()),
        ));
    }
    if model.has_constraints() {
        let mut opts = ProjectionOptions::assembly(settings.consistent_constraint_tolerance());
        opts.max_q_iterations = 20;
        project_state(model, state, data, ws, &opts)?;
    }
    Ok(())
}

/// Projects q then u of `state` onto the constraints; a failure is an error.
pub(super) fn project_state<T: Real>(
    model: &Model<T>,
    state: &mut State<T>,
    data: &mut Data<T>,
    ws: &mut ProjectionWorkspace<T>,
    opts: &ProjectionOptions,
) -> Result<()> {
    let q = project_constraints_q(model, state, data, ws, opts, None)?;
    let u = if q == ProjectionResult::Failed {
        q
    } else {
        project_constraints_u(model, state, data, ws, opts, None)?
    };
    if u == ProjectionResult::Failed {
        return Err(Error::simulation(
            state.t,
            SimulationFailure::Constraints(format!(
                "the state cannot be projected onto the constraints to tolerance {:e}",
                opts.tolerance
            )),
        ));
    }
    Ok(())
}

fn check_dimensions<T: Real>(model: &Model<T>, state: &State<T>) -> Result<()> {
    if state.q.len() != model.nq() || state.u.len() != model.nu() || state.z.len() != model.nz() {
        return Err(Error::model(format!(
            "state has (nq, nu, nz) = ({}, {}, {}) but the model needs ({}, {}, {})",
            state.q.len(),
            state.u.len(),
            state.z.len(),
            model.nq(),
            model.nu(),
            model.nz()
        )));
    }
    Ok(())
}

/// The implicit integrator's workspace for kind `Implicit`. Its Newton solves run on the real
/// parts, so dual-number simulations are refused.
pub(super) fn implicit_workspace<T: Real>(
    model: &Model<T>,
    settings: &IntegratorSettings,
) -> Result<Option<Box<TrBdf2<T>>>> {
    if settings.kind != IntegratorKind::Implicit {
        return Ok(None);
    }
    if std::any::TypeId::of::<T>() != std::any::TypeId::of::<f64>() {
        return Err(Error::Model(
            "the implicit integrator runs on f64 only (its Newton solves do not carry dual-number derivatives); use an explicit method for derivatives through a run".into(),
        ));
    }
    Ok(Some(Box::new(TrBdf2::new(model)?)))
}

/// The rigid-contact stepper for kind `SemiExplicitEuler`; unilateral contacts need it, and it
/// does not (yet) enforce bilateral constraints.
pub(super) fn rigid_stepper<T: Real>(
    model: &Model<T>,
    settings: &IntegratorSettings,
) -> Result<Option<RigidStepper<T>>> {
    let projects_own_states = matches!(
        settings.kind,
        IntegratorKind::SemiExplicitEuler2 | IntegratorKind::Verlet
    );
    if projects_own_states && model.has_constraints() {
        return Err(Error::model(format!(
            "the {} integrator does not enforce bilateral constraints yet; use rk-merson (or another Runge-Kutta method) for this model",
            settings.kind.name()
        )));
    }
    if settings.kind != IntegratorKind::SemiExplicitEuler {
        if model.has_unilateral_contacts() {
            return Err(Error::model(format!(
                "the model has {} unilateral contacts: they are enforced only by the rigid-contact stepper (integrator kind \"semi-explicit-euler\"), not by {}",
                model.unilateral_contacts().len(),
                settings.kind.name()
            )));
        }
        return Ok(None);
    }
    if model.has_constraints() {
        return Err(Error::Model(
            "the rigid-contact stepper (semi-explicit-euler) does not enforce bilateral constraints; use a mobilizer instead of the constraint, or another integrator".into(),
        ));
    }
    RigidStepper::new(model, settings.rigid_contact).map(Some)
}
