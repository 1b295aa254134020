//! A simulation that shares its model through an `Arc` owns what it runs: it outlives the
//! caller's handle, moves to another thread, and steps bit for bit as one that borrows the
//! same model. `Simulation::realized` hands out model, state and data together.

use crate::common::random_tree;
use ferrobody::{IntegratorSettings, Model, Simulation, Stage};
use std::sync::Arc;

/// A simulation built inside a function from a model nobody else keeps.
fn owning_simulation(seed: u64) -> Simulation<'static, f64> {
    let (model, state) = random_tree(seed, 6);
    Simulation::new(Arc::new(model), state, IntegratorSettings::rk_merson(1e-7)).unwrap()
}

#[test]
fn a_shared_model_simulation_outlives_its_maker_and_moves_to_a_thread() {
    let mut owned = owning_simulation(7);
    let (model, state) = random_tree(7, 6);
    let mut borrowed = Simulation::new(&model, state, IntegratorSettings::rk_merson(1e-7)).unwrap();
    let owned_end = std::thread::spawn(move || {
        owned.advance_to(0.3).unwrap();
        owned.state().clone()
    })
    .join()
    .unwrap();
    borrowed.advance_to(0.3).unwrap();
    assert_eq!(owned_end.q, borrowed.state().q, "same steps, bit for bit");
    assert_eq!(owned_end.u, borrowed.state().u);
}

#[test]
fn a_shared_model_stays_alive_while_a_simulation_holds_it() {
    let (model, state) = random_tree(3, 4);
    let model: Arc<Model<f64>> = Arc::new(model);
    let sim = Simulation::new(model.clone(), state, IntegratorSettings::rk_merson(1e-7)).unwrap();
    assert_eq!(
        Arc::strong_count(&model),
        2,
        "the simulation holds one reference"
    );
    drop(sim);
    assert_eq!(
        Arc::strong_count(&model),
        1,
        "and gives it back when dropped"
    );
}

#[test]
fn realized_gives_model_state_and_data_together() {
    let mut sim = owning_simulation(11);
    sim.advance_to(0.05).unwrap();
    let t = sim.state().t;
    let (model, state, data) = sim.realized().unwrap();
    assert_eq!(state.t, t);
    assert_eq!(data.stage(), Stage::Acceleration);
    assert_eq!(data.udot().unwrap().len(), model.nu());
}
