//! Rigid-body algorithms on a URDF robot, timed: ferrobody's side of bench/pinocchio/compare.sh.
//!
//! `cargo run --release -p ferrobody --example urdf_dynamics -- ALGORITHM ROBOT.urdf FLOATING(0|1) CALLS`
//!
//! Prints the median over 15 batches of the time (ns) of one call, on 64 random states (joint
//! coordinates, u, u̇ and τ uniform in [−1, 1], a random unit quaternion for a free base), with
//! the work Pinocchio's function of the same name does:
//!
//! * `aba`: forward dynamics from (q, u, τ) — kinematics, gravity, the joint torques, ABA
//!   (`pinocchio::aba(model, data, q, v, tau)`);
//! * `rnea`: inverse dynamics from (q, u, u̇) — kinematics, gravity, RNEA
//!   (`pinocchio::rnea(model, data, q, v, a)`);
//! * `crba`: the joint-space mass matrix from q — position kinematics, CRBA (ferrobody fills
//!   the whole matrix; `pinocchio::crba` its upper triangle);
//! * `aba-derivatives`: ∂u̇/∂q, ∂u̇/∂u, ∂u̇/∂τ by dual numbers
//!   (`derivatives::ForwardDynamicsJacobian`; `pinocchio::computeABADerivatives`, analytical,
//!   gives ∂a/∂q, ∂a/∂v and M⁻¹).

use ferrobody::algorithms::{crba, rnea_into};
use ferrobody::derivatives::ForwardDynamicsJacobian;
use ferrobody::io::urdf::{self, RootJoint};
use ferrobody::nalgebra::{DMatrix, DVector};
use ferrobody::pipeline::forward_dynamics;
use ferrobody::prelude::*;
use std::hint::black_box;
use std::time::Instant;

const ALGORITHMS: [&str; 4] = ["aba", "rnea", "crba", "aba-derivatives"];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [algorithm, path, floating, calls] = args.as_slice() else {
        eprintln!("usage: urdf_dynamics ALGORITHM ROBOT.urdf FLOATING(0|1) CALLS");
        std::process::exit(2);
    };
    if !ALGORITHMS.contains(&algorithm.as_str()) {
        eprintln!("ALGORITHM: one of {}", ALGORITHMS.join(", "));
        std::process::exit(2);
    }
    let root = if floating == "1" {
        RootJoint::Floating
    } else {
        RootJoint::Fixed
    };
    let calls: usize = calls.parse().expect("CALLS: a count");
    let robot = urdf::load(std::path::Path::new(path), root).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1);
    });
    let model = &robot.model;
    let (states, vectors) = random_inputs(model);
    let mut data = Data::new(model);
    let mut tau_out = DVector::zeros(model.nu());
    let mut mass = DMatrix::zeros(model.nu(), model.nu());
    let mut jacobian = ForwardDynamicsJacobian::new(model).unwrap();
    let mut batches = Vec::new();
    let mut sink = 0.0;
    for _ in 0..15 {
        let t0 = Instant::now();
        for i in 0..calls {
            let (state, v) = (&states[i & 63], &vectors[i & 63]);
            sink += match algorithm.as_str() {
                "aba" => {
                    forward_dynamics(model, state, &mut data, v.as_slice()).unwrap();
                    data.udot().unwrap()[0]
                }
                "rnea" => {
                    realize(model, state, &mut data, Stage::Dynamics).unwrap();
                    rnea_into(model, &mut data, v, &mut tau_out);
                    tau_out[0]
                }
                "crba" => {
                    realize(model, state, &mut data, Stage::Position).unwrap();
                    crba(model, &mut data, &mut mass);
                    mass[(0, 0)]
                }
                _ => {
                    jacobian.compute(state, v.as_slice()).unwrap();
                    jacobian.dudot_dq[(0, 0)]
                }
            };
        }
        batches.push(t0.elapsed().as_secs_f64() * 1e9 / calls as f64);
    }
    black_box(sink);
    batches.sort_by(f64::total_cmp);
    println!("{:.1}", batches[batches.len() / 2]);
}

/// 64 random states and 64 random vectors (τ for aba, u̇ for rnea), reproducible.
fn random_inputs(model: &Model<f64>) -> (Vec<State<f64>>, Vec<DVector<f64>>) {
    // A small xorshift: reproducible states without another dependency.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut uniform = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut states = Vec::new();
    let mut vectors = Vec::new();
    for _ in 0..64 {
        let mut s = model.default_state();
        s.q.iter_mut().for_each(|q| *q = uniform());
        s.u.iter_mut().for_each(|u| *u = uniform());
        let mut sim = Simulation::new(model, s, IntegratorSettings::rk_merson(1e-3)).unwrap();
        states.push(sim.state_mut().clone()); // quaternions normalized by Simulation::new
        vectors.push(DVector::from_fn(model.nu(), |_, _| uniform()));
    }
    (states, vectors)
}
