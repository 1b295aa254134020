//! Forward dynamics of planar-xy models in two dimensions: the integrator's state derivative
//! for models whose every body moves in Ground's xy plane (OpenSim's planar gait and leg
//! models: a pelvis on a PlanarJoint, PinJoints below).
//!
//! A model qualifies ([`Model::is_planar_xy`]) when each mobilizer is a Weld, Pin, Slider or
//! Planar (no CustomJoint transform) whose inboard and outboard frames turn about z only
//! (their rotations keep z exactly), with no constraints, no unilateral contacts and no
//! user-written force element. Then every rotation is a turn `θ` about z, every angular
//! velocity is `(0, 0, ω)` and every velocity and acceleration lies in the plane, and the
//! whole pipeline runs on in-plane quantities (`kinematics.rs`, `aba.rs`): for body B with
//! parent P, mobilizer frames F (on P) and M (on B),
//!
//! ```text
//! R_GF = R_GP R_PF,  p_GF = p_GP + R_GP p_PF,  R_GM = R_GF Rz(q_θ),  p_GM = p_GF + R_GF t(q)
//! R_GB = R_GM R_MB,  p_GB = p_GM + R_GM p_MB
//! ω_B = ω_P + u_θ,   v_M = v_P + ω_P × r_PM + R_GF t(u),   v_B = v_M + ω_B × p_MB
//! c_B = −ω_P² r_PM + 2 ω_P × R_GF t(u) − ω_B² p_MB          (Coriolis, u̇ = 0, A_P = 0)
//! ```
//!
//! (`r_PM = p_GM − p_GP`, `p_MB` in Ground; `ω × r = ω (−r_y, r_x)`; `t(q)` is the slide along
//! F's x for a Slider, `(q₁, q₂)` for a Planar), and the articulated-body recursion runs on the
//! reduced quantities of [`crate::algorithms::aba_planar`]: inertia `[[I_zz, −m c_y, m c_x], [−m c_y, m,
//! 0], [m c_x, 0, m]]` about the body origin, bias `[0, −m ω² c]` (the moment `ω × I ω` has no
//! z component), motions `[ω, v_x, v_y]`, forces `[m_z, f_x, f_y]` (Featherstone 2008, §4.5
//! on planar subspaces; Jain 2011, §7). The values are those of the three-dimensional
//! pipeline, whose products with the exact zeros of these rotations vanish; `tests.rs`
//! compares the two on random planar trees with contact.
//!
//! The force elements see what they read ([`crate::forces::ForceContext`]): body poses and
//! velocities in Ground and each body's mass centre. The other caches of [`Data`] (mobilizer
//! frames, hinge columns, Coriolis and gyroscopic terms, spatial inertias) are not filled, so
//! `data` is left unrealized: [`crate::pipeline::realize`] gives the full picture when asked.

use crate::algorithms::planar_xy::{aba, kinematics};
use crate::data::{Data, Stage};
use crate::error::Result;
use crate::model::{calc_all_forces, Model};
use crate::scalar::Real;
use crate::state::{copy_small, State};

#[cfg(test)]
mod tests;

/// The state derivative `ẏ = [q̇, u̇, ż]` of a planar-xy model (module docs): kinematics in
/// the plane, the force elements, the reduced articulated-body recursion. Leaves `data` with
/// the poses, velocities, forces and u̇ of `state` but not realized (module docs).
pub(crate) fn state_derivative<T: Real>(
    model: &Model<T>,
    state: &State<T>,
    data: &mut Data<T>,
    ydot: &mut [T],
) -> Result<()> {
    kinematics::kinematics(model, state, data);
    data.realized = Stage::Velocity;
    calc_all_forces(model, state, data);
    let result = aba::aba(model, data);
    data.invalidate(Stage::Position);
    result?;
    let (nq, nu) = (model.nq(), model.nu());
    // q̇ = u for every mobilizer of the path, so nq = nu.
    copy_small(&mut ydot[..nq], state.u.as_slice());
    copy_small(&mut ydot[nq..nq + nu], data.acc.udot.as_slice());
    copy_small(&mut ydot[nq + nu..], data.dynamics.zdot.as_slice());
    Ok(())
}
