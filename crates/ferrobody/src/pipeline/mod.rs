//! The stage list: how a state becomes accelerations. This file *is* the forward pipeline.
//!
//! 1. **Position** — body poses, hinge columns, spatial inertias (`kinematics`).
//! 2. **Velocity** — body velocities, q̇, Coriolis and gyroscopic terms (`kinematics`; when both
//!    stages are needed they run in one fused pass over the bodies).
//! 3. **Dynamics** — every force element writes body and mobility forces (`forces`).
//! 4. **Acceleration** — articulated-body forward dynamics gives u̇ (`aba`); ż from the forces.
//!    With constraints, the multipliers correct u̇ (`constraints::dynamics`); their position
//!    and velocity errors are computed at stages 1 and 2.

pub mod assembly;
pub mod constraint_dynamics;
mod contact_report;
pub mod goal_assembly;
pub(crate) mod planar_xy;
pub mod projection;

pub use contact_report::{contact_reports, deepest_half_space_overlap, ContactReport};

use crate::algorithms::kinematics::kinematics;
use crate::algorithms::{aba, position_kinematics};
use crate::data::{Data, Stage};
use crate::error::{Error, Result};
use crate::model::calc_all_forces;
use crate::model::Model;
use crate::scalar::Real;
use crate::state::{copy_small, State};
use constraint_dynamics::{calc_position_errors, calc_velocity_errors, constrained_accelerations};

/// Realizes `data` from `state` up to `stage`, recomputing every stage from Position on.
pub fn realize<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &mut Data<T>,
    stage: Stage,
) -> Result<()> {
    if stage >= Stage::Velocity {
        kinematics(model, state, data);
    } else if stage >= Stage::Position {
        position_kinematics(model, state, data);
    }
    let constrained = model.has_constraints();
    if constrained && stage >= Stage::Position {
        calc_position_errors(model, state, data);
        if stage >= Stage::Velocity {
            calc_velocity_errors(model, state, data);
        }
    }
    if stage >= Stage::Dynamics {
        calc_all_forces(model, state, data);
    }
    if stage >= Stage::Acceleration {
        aba(model, data)?;
        if constrained {
            constrained_accelerations(model, state, data)?;
        }
    }
    Ok(())
}

/// Forward dynamics with applied generalized forces: realizes to Acceleration with `tau` (nu,
/// N or N·m per generalized speed) added to the force elements' mobility forces, so that
/// `data.udot()` is u̇(t, q, u, τ) (Pinocchio's `aba(model, data, q, v, tau)`, with the
/// model's forces and constraints).
pub fn forward_dynamics<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &mut Data<T>,
    tau: &[T],
) -> Result<()> {
    if tau.len() != model.nu() {
        return Err(Error::model(format!(
            "forward dynamics: tau has {} entries, the model {} generalized speeds",
            tau.len(),
            model.nu()
        )));
    }
    realize(model, state, data, Stage::Dynamics)?;
    for (f, t) in data.dynamics.mobility_forces.iter_mut().zip(tau) {
        *f += *t;
    }
    aba(model, data)?;
    if model.has_constraints() {
        constrained_accelerations(model, state, data)?;
    }
    Ok(())
}

/// Realizes to Acceleration and writes the state derivative `ẏ = [q̇, u̇, ż]` into `ydot`.
pub fn state_derivative<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &mut Data<T>,
    ydot: &mut [T],
) -> Result<()> {
    realize(model, state, data, Stage::Acceleration)?;
    let (nq, nu) = (model.nq(), model.nu());
    copy_small(&mut ydot[..nq], data.vel.qdot.as_slice());
    copy_small(&mut ydot[nq..nq + nu], data.acc.udot.as_slice());
    copy_small(&mut ydot[nq + nu..], data.dynamics.zdot.as_slice());
    Ok(())
}

/// The state derivative for the integrators' step loop: [`state_derivative`], except that a
/// planar-xy model takes the two-dimensional path ([`planar_xy`]), which leaves
/// `data` with the poses, velocities, forces and u̇ but not realized. Returns whether `data`
/// is realized to Acceleration.
pub(crate) fn step_derivative<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &mut Data<T>,
    ydot: &mut [T],
) -> Result<bool> {
    if model.planar_xy {
        planar_xy::state_derivative(model, state, data, ydot)?;
        return Ok(false);
    }
    state_derivative(model, state, data, ydot)?;
    Ok(true)
}
