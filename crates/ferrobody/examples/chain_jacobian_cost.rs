//! Cost of the forward-dynamics Jacobian ∂u̇/∂(q, u) of an n-body Pin chain, in force
//! evaluations: the time of `ForwardDynamicsJacobianLanes::<N>::compute` over the time of one
//! f64 forward dynamics (`pipeline::forward_dynamics`: kinematics, forces, ABA), for dual
//! numbers of 8, 16, 32 and 64 lanes (issue 19 asks ≤ 33 evaluations for 32 bodies).
//!
//! `cargo run --release -p ferrobody --example chain_jacobian_cost -- [N_BODIES] [spatial]`
//!
//! Medians of 15 batches. With `spatial`, every other link is turned 90° about the rod, so the
//! chain is three-dimensional (6×6 inertias) instead of planar (3×3).

use ferrobody::derivatives::ForwardDynamicsJacobianLanes;
use ferrobody::prelude::*;
use std::hint::black_box;
use std::time::Instant;

fn chain(n: usize, spatial: bool) -> (Model<f64>, State<f64>) {
    let mut b = ModelBuilder::<f64>::new();
    let rod = MassProperties::new(
        1.0,
        Vector3::new(0.25, 0.0, 0.0),
        Matrix3::from_diagonal(&Vector3::new(1e-4, 1.0 / 48.0, 1.0 / 48.0)),
    );
    let mut parent = BodyId::GROUND;
    for i in 0..n {
        let mut x_pf = if spatial && i % 2 == 1 {
            Transform::from_axis_angle(Vector3::x(), std::f64::consts::FRAC_PI_2)
        } else {
            Transform::identity()
        };
        if i > 0 {
            x_pf.p = Vector3::new(0.5, 0.0, 0.0);
        }
        let def = BodyDef::new(&format!("link{i}"), parent, Mobilizer::Pin, rod).with_x_pf(x_pf);
        parent = b.add_body(def).expect("valid body");
    }
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let model = b.build().expect("valid model");
    let mut s = model.default_state();
    for i in 0..n {
        s.q[i] = 0.1 * (i as f64).sin();
        s.u[i] = 0.2 * (i as f64).cos();
    }
    (model, s)
}

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
        jacobian.compute(black_box(state), tau).expect("runs")
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(32);
    let spatial = args.next().is_some_and(|a| a == "spatial");
    let (model, state) = chain(n, spatial);
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
            (2 * n).div_ceil(lanes),
            evaluation * 1e6,
            t * 1e6,
            t / evaluation
        )
    };
    report(8, jacobian_time::<8>(&model, &state, &tau));
    report(16, jacobian_time::<16>(&model, &state, &tau));
    report(32, jacobian_time::<32>(&model, &state, &tau));
    report(64, jacobian_time::<64>(&model, &state, &tau));
}
