//! Kinetic and potential energy.
//!
//! `KE = ½ Σ_B V_Bᵀ M_B V_B` (J); `PE = Σ` of every force element's potential energy (gravity
//! `−m g·p_C`, springs `½ k (ℓ − ℓ₀)²`, ...).

use crate::data::{Data, Stage};
use crate::forces::ForceContext;
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;

/// Kinetic energy (J). Reads: `data.pos`, `data.vel`.
pub fn kinetic_energy<T: Real>(model: &Model<T>, data: &Data<T>) -> T {
    data.require(Stage::Velocity);
    let mut ke = T::zero();
    for i in 1..model.nbodies() {
        let v = &data.vel.v_gb[i];
        ke += v.dot(&data.pos.inertia[i].mul(v));
    }
    ke * T::c(0.5)
}

/// Potential energy of all enabled force elements (J). Reads: `data.pos`, `data.vel`.
pub fn potential_energy<T: Real>(model: &Model<T>, state: &State<T>, data: &Data<T>) -> T {
    data.require(Stage::Velocity);
    let ctx = ForceContext::new(model, state, data);
    let enabled = state.discrete(model, model.force_enabled);
    model
        .forces
        .iter()
        .zip(enabled)
        .filter(|(_, flag)| flag.re() != 0.0)
        .map(|(f, _)| f.potential_energy(&ctx))
        .fold(T::zero(), |a, b| a + b)
}
