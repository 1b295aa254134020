//! Dynamics algorithms on Pin chains of 1 to 64 bodies (Pinocchio's `timings` idea):
//! forward dynamics (whole pipeline, and ABA alone), mass matrix (CRBA), inverse dynamics
//! (RNEA). Run: `cargo bench -p ferrobody --bench algorithms`.

#[path = "../examples/support/pin_chain.rs"]
mod shared_chain;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use ferrobody::algorithms::{aba, crba, rnea_into};
use ferrobody::prelude::*;
use nalgebra::{DMatrix, DVector};
use std::hint::black_box;

/// The planar chain of the profiling examples.
fn pin_chain(n: usize) -> (Model<f64>, State<f64>) {
    shared_chain::pin_chain(n, false)
}

const SIZES: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];

fn bench_algorithms(c: &mut Criterion) {
    let mut g = c.benchmark_group("forward_dynamics_pipeline");
    for n in SIZES {
        let (model, state) = pin_chain(n);
        let mut data = Data::new(&model);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |bch, _| {
            bch.iter(|| realize(&model, black_box(&state), &mut data, Stage::Acceleration).unwrap())
        });
    }
    g.finish();
    let mut g = c.benchmark_group("aba");
    for n in SIZES {
        let (model, state) = pin_chain(n);
        let mut data = Data::new(&model);
        realize(&model, &state, &mut data, Stage::Dynamics).unwrap();
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |bch, _| {
            bch.iter(|| aba(&model, black_box(&mut data)).unwrap())
        });
    }
    g.finish();
    let mut g = c.benchmark_group("crba");
    for n in SIZES {
        let (model, state) = pin_chain(n);
        let mut data = Data::new(&model);
        realize(&model, &state, &mut data, Stage::Position).unwrap();
        let mut m = DMatrix::zeros(n, n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |bch, _| {
            bch.iter(|| crba(&model, black_box(&mut data), &mut m))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("rnea");
    for n in SIZES {
        let (model, state) = pin_chain(n);
        let mut data = Data::new(&model);
        realize(&model, &state, &mut data, Stage::Dynamics).unwrap();
        let udot = DVector::from_element(n, 0.3);
        let mut tau = DVector::zeros(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |bch, _| {
            bch.iter(|| rnea_into(&model, black_box(&mut data), &udot, &mut tau))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_algorithms);
criterion_main!(benches);
