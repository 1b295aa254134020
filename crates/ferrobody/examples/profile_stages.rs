//! Wall time of each stage of one realization of a scene, at the state it reaches after 1 s
//! (for the contact scenes, a state in contact): the whole `realize` to Acceleration, then
//! the kinematics, the force evaluation and the forward dynamics alone. Each figure is the
//! fastest of 20 batches, the one least disturbed by other work on a shared machine.
//!
//! `cargo run --release -p ferrobody --example profile_stages -- examples/scenes/s6_chain_contact.toml`

use ferrobody::algorithms::kinematics::kinematics;
use ferrobody::model::calc_all_forces;
use ferrobody::prelude::*;
use std::hint::black_box;
use std::time::Instant;

/// Prints the fastest per-call time of 20 batches of `n` calls of `f`.
fn time<F: FnMut()>(name: &str, n: usize, mut f: F) {
    let mut best = f64::INFINITY;
    for _ in 0..20 {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() / n as f64);
    }
    println!("{name}: {:.1} ns", best * 1e9);
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/scenes/s6_chain_contact.toml".into());
    let scene = ferrobody::io::load_scene(std::path::Path::new(&path)).expect("a valid scene");
    let model = scene.model;
    let mut state = scene.initial_state.clone();
    // A state in contact: simulate 1 s (or the whole scene if it is shorter).
    let mut sim = Simulation::new(&model, state.clone(), scene.integrator).expect("valid settings");
    sim.advance_to(scene.duration.min(1.0))
        .expect("the scene runs");
    state = sim.state().clone();
    let mut data = Data::new(&model);
    realize(&model, &state, &mut data, Stage::Acceleration).unwrap();
    time("realize", 2000, || {
        realize(&model, black_box(&state), &mut data, Stage::Acceleration).unwrap();
    });
    time("kinematics", 2000, || {
        kinematics(&model, black_box(&state), &mut data)
    });
    time("forces", 2000, || {
        calc_all_forces(&model, black_box(&state), &mut data)
    });
    time("aba", 2000, || {
        ferrobody::algorithms::aba(&model, &mut data).unwrap()
    });
}
