//! Forward dynamics (ABA) of a URDF robot timed: ferrobody's side of bench/pinocchio/compare.sh.
//!
//! `cargo run --release -p ferrobody --example urdf_aba -- ROBOT.urdf FLOATING(0|1) CALLS`
//!
//! Prints the median over 15 batches of the time (ns) of one forward-dynamics evaluation from
//! (q, u, τ) — kinematics, applied forces (gravity), the joint torques, ABA — as Pinocchio's
//! `aba(model, data, q, v, tau)` does, on 64 random states (joint coordinates, u and τ uniform
//! in [−1, 1], a random unit quaternion for a free base).

use ferrobody::algorithms::aba;
use ferrobody::io::urdf::{self, RootJoint};
use ferrobody::nalgebra::DVector;
use ferrobody::prelude::*;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, floating, calls] = args.as_slice() else {
        eprintln!("usage: urdf_aba ROBOT.urdf FLOATING(0|1) CALLS");
        std::process::exit(2);
    };
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
    // A small xorshift: reproducible states without another dependency.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut uniform = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut states = Vec::new();
    let mut torques = Vec::new();
    for _ in 0..64 {
        let mut s = model.default_state();
        s.q.iter_mut().for_each(|q| *q = uniform());
        s.u.iter_mut().for_each(|u| *u = uniform());
        let mut sim = Simulation::new(model, s, IntegratorSettings::rk_merson(1e-3)).unwrap();
        states.push(sim.state_mut().clone()); // quaternions normalized by Simulation::new
        torques.push(DVector::from_fn(model.nu(), |_, _| uniform()));
    }
    let mut data = Data::new(model);
    let mut batches = Vec::new();
    let mut sink = 0.0;
    for _ in 0..15 {
        let t0 = Instant::now();
        for i in 0..calls {
            let k = i & 63;
            realize(model, &states[k], &mut data, Stage::Dynamics).unwrap();
            data.dynamics.mobility_forces += &torques[k];
            aba(model, &mut data).unwrap();
            sink += data.acc.udot[0];
        }
        batches.push(t0.elapsed().as_secs_f64() * 1e9 / calls as f64);
    }
    black_box(sink);
    batches.sort_by(f64::total_cmp);
    println!("{:.1}", batches[batches.len() / 2]);
}
