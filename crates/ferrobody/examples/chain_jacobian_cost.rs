//! Cost of the forward-dynamics Jacobian ∂u̇/∂(q, u) of an n-body Pin chain, in force
//! evaluations: the time of `ForwardDynamicsJacobianLanes::<N>::compute` over the time of one
//! f64 forward dynamics (`pipeline::forward_dynamics`: kinematics, forces, ABA), for dual
//! numbers of 8, 16, 32 and 64 lanes (issue 19 asks ≤ 33 evaluations for 32 bodies).
//!
//! `cargo run --release -p ferrobody --features lane-sweep-example --example chain_jacobian_cost --
//! [N_BODIES] [spatial]`
//!
//! Medians of 15 batches. With `spatial`, every other link is turned 90° about the rod, so the
//! chain is three-dimensional (6×6 inertias) instead of planar (3×3).

#[path = "support/pin_chain.rs"]
mod pin_chain;

use ferrobody::derivatives::{ForwardDynamicsJacobian, ForwardDynamicsJacobianLanes};
use ferrobody::prelude::*;
use std::hint::black_box;
use std::time::Instant;

/// Median over 15 batches of the time per call (s).
fn median_time(calls: usize, mut f: impl FnMut()) -> f64 {
    let mut batches: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..calls {
                f();
            }
            start.elapsed().as_secs_f64() / calls as f64
        })
        .collect();
    batches.sort_by(f64::total_cmp);
    batches[7]
}

fn jacobian_time<const N: usize>(model: &Model<f64>, state: &State<f64>, tau: &[f64]) -> f64 {
    let mut jacobian = ForwardDynamicsJacobianLanes::<N>::new(model).expect("model casts");
    median_time(20, || {
        jacobian.compute_dual(black_box(state), tau).expect("runs")
    })
}

fn analytical_time(model: &Model<f64>, state: &State<f64>, tau: &[f64]) -> f64 {
    let mut jacobian = ForwardDynamicsJacobian::new(model).expect("model casts");
    median_time(200, || {
        jacobian
            .compute_analytical(black_box(state), tau)
            .expect("runs")
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(32);
    let spatial = args.next().is_some_and(|a| a == "spatial");
    let (model, state) = pin_chain::pin_chain(n, spatial);
    let tau = vec![0.0; model.nu()];
    let mut data = Data::new(&model);
    let evaluation = median_time(2000, || {
        ferrobody::pipeline::forward_dynamics(&model, black_box(&state), &mut data, &tau)
            .expect("runs")
    });
    let report = |lanes: usize, t: f64| {
        println!(
            "{{\"bodies\":{n},\"spatial\":{spatial},\"lanes\":{lanes},\"passes\":{},\
             \"evaluation_us\":{:.3},\"jacobian_us\":{:.2},\"evaluations\":{:.1}}}",
            if lanes == 0 {
                0
            } else {
                (2 * n).div_ceil(lanes)
            },
            evaluation * 1e6,
            t * 1e6,
            t / evaluation
        )
    };
    report(0, analytical_time(&model, &state, &tau));
    report(8, jacobian_time::<8>(&model, &state, &tau));
    report(16, jacobian_time::<16>(&model, &state, &tau));
    report(32, jacobian_time::<32>(&model, &state, &tau));
    report(64, jacobian_time::<64>(&model, &state, &tau));
}
