//! Runs forward dynamics of an n-body Pin chain many times: a fixed workload for profilers
//! (`valgrind --tool=callgrind`, `perf record`), whose instruction counts are repeatable where
//! wall-clock timings on a shared machine are not.
//!
//! `cargo run --release -p ferrobody --example profile_chain -- 32 100000 [spatial]`
//!
//! All hinges turn about parallel axes, so the chain moves in a plane and forward dynamics runs
//! on the reduced 3×3 inertias of planar subtrees; with `spatial`, every other link's frame is
//! turned 90° about the rod, so the chain is three-dimensional and runs on 6×6 inertias.

#[path = "support/pin_chain.rs"]
mod pin_chain;

use ferrobody::prelude::*;
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(32);
    let iterations: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let spatial = args.next().is_some_and(|a| a == "spatial");
    let (model, state) = pin_chain::pin_chain(n, spatial);
    let planar = model.bodies()[1..].iter().all(|body| body.plane.is_some());
    assert_eq!(planar, !spatial, "the chain's planarity");
    let mut data = Data::new(&model);
    // Batches of 1000 calls: the mean over all of them, and the fastest batch, which is the
    // figure least disturbed by other work on a shared machine.
    let batch = 1000.min(iterations).max(1);
    let mut best = f64::INFINITY;
    let start = std::time::Instant::now();
    for _ in 0..iterations.div_ceil(batch) {
        let t = std::time::Instant::now();
        for _ in 0..batch {
            realize(&model, black_box(&state), &mut data, Stage::Acceleration).expect("realizes");
        }
        best = best.min(t.elapsed().as_secs_f64() / batch as f64);
    }
    let per = start.elapsed().as_secs_f64() / (iterations.div_ceil(batch) * batch) as f64;
    println!(
        "{n}-body {} chain: forward dynamics {:.3} µs per call (fastest batch of {batch}: {:.3} µs); udot[0] = {}",
        if planar { "planar" } else { "spatial" },
        per * 1e6,
        best * 1e6,
        data.udot().unwrap()[0]
    );
}
