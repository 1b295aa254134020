//! Kinetic energy, `KE = ½ Σ_B V_Bᵀ M_B V_B` (J). The potential energy is the force set's
//! ([`crate::model::potential_energy`]).

use crate::data::{Data, Stage};
use crate::scalar::Real;
use crate::tree::Tree;

/// Kinetic energy (J). Reads: `data.pos`, `data.vel`.
pub fn kinetic_energy<T: Real>(model: &Tree<T>, data: &Data<T>) -> T {
    data.require(Stage::Velocity);
    let mut ke = T::zero();
    for i in 1..model.nbodies() {
        let v = &data.vel.v_gb[i];
        ke += v.dot(&data.pos.inertia[i].mul(v));
    }
    ke * T::c(0.5)
}
