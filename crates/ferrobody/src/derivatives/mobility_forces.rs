//! Generalized forces in the analytical derivatives of inverse dynamics: constant mobility
//! forces, mobility linear springs and dampers. Each acts on one generalized force, outside
//! the Carpentier–Mansard recursion, so with `τ = ID(q, u, u̇) − Q(q, u)`:
//!
//! ```text
//!   spring  Q_i = −k (q_j − q₀)  →  ∂τ_i/∂q_j += k
//!   damper  Q_i = −c u_i         →  ∂τ_i/∂u_i += c
//!   constant force               →  nothing
//! ```
//!
//! with i the mobilizer's speed and j its coordinate of the same index; an actuator
//! (`τ_i = gear·f`, f affine in ℓ = gear·q_j and ℓ̇ = gear·u_i) adds `−gear²·b₁` and `−gear²·b₂`,
//! nothing where its force is clamped (Simbody's
//! `Force::MobilityLinearSpring`, `MobilityLinearDamper`, `MobilityConstantForce`; units N·m/rad
//! or N/m, N·m·s/rad or N·s/m).

use crate::ids::ForceId;
use crate::model::Force;
use crate::model::Model;
use crate::state::State;
use nalgebra::DMatrix;

/// Whether `force` is one of the generalized forces handled here.
pub(super) fn covers(force: &Force<f64>) -> bool {
    matches!(
        force,
        Force::MobilityConstantForce(_)
            | Force::MobilityLinearSpring(_)
            | Force::MobilityLinearDamper(_)
    )
}

/// Adds the enabled springs' and dampers' terms to `dtau_dq` (nu × nq) and `dtau_du`
/// (nu × nu), both in the model's coordinates and speeds.
pub(super) fn add_terms(
    model: &Model<f64>,
    state: &State<f64>,
    dtau_dq: &mut DMatrix<f64>,
    dtau_du: &mut DMatrix<f64>,
) {
    for (i, force) in model.forces().iter().enumerate() {
        if !model.is_force_enabled(state, ForceId(i)) {
            continue;
        }
        match force {
            Force::MobilityLinearSpring(spring) => {
                let body = &model.bodies()[spring.body.0];
                let row = body.u_range().start + spring.coordinate;
                let column = body.q_range().start + spring.coordinate;
                dtau_dq[(row, column)] += spring.stiffness;
            }
            Force::MobilityLinearDamper(damper) => {
                let speed = model.bodies()[damper.body.0].u_range().start + damper.speed;
                dtau_du[(speed, speed)] += damper.damping;
            }
            _ => {}
        }
    }
    let controls = model.controls(state);
    for (actuator, &ctrl) in model.actuators().iter().zip(controls) {
        let body = &model.bodies()[actuator.body.0];
        let (row, column) = (
            body.u_range().start + actuator.coordinate,
            body.q_range().start + actuator.coordinate,
        );
        let [dq, du] = actuator.state_slopes(ctrl, state.q[column], state.u[row]);
        dtau_dq[(row, column)] -= dq;
        dtau_du[(row, row)] -= du;
    }
}
