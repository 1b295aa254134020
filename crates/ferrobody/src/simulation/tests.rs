//! The simulation's tests: muscles evaluated on two threads give the one-thread results bit
//! for bit.

use crate::integrators::IntegratorSettings;
use crate::io::osim;
use crate::simulation::Simulation;
use std::path::Path;

/// Runs `file` for `duration` s on a two-thread rayon pool, its muscles in parallel or not;
/// returns the final state (t, q, u, z), whether forces were recorded for replay and the
/// cut between the two threads' parts (`None`: work stealing).
fn run(file: &str, duration: f64, parallel: bool) -> (Vec<f64>, bool, Option<usize>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/opensim/models");
    let m = osim::load(&root.join(file)).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        let settings = IntegratorSettings::rk_merson(1e-6);
        let mut sim = Simulation::new(&m.model, m.default_state.clone(), settings).unwrap();
        sim.set_parallel_forces(parallel);
        sim.advance_to(duration).unwrap();
        let s = sim.state();
        let values = [s.t]
            .into_iter()
            .chain(s.q.iter().copied())
            .chain(s.u.iter().copied())
            .chain(s.z.iter().copied())
            .collect();
        let recorded = sim
            .data
            .force_records
            .per_element
            .iter()
            .any(|l| !l.is_empty());
        (values, recorded, sim.data.force_records.split)
    })
}

#[test]
fn muscles_on_two_threads_give_the_sequential_results_bit_for_bit() {
    // gait2392 (92 Thelen muscles, conditional and moving points) and Rajagopal2016 (80
    // Millard muscles, some wrapped over cylinders; coupled knees): every state
    // variable after 20 ms (about a hundred evaluations) compared with `==` on its bits.
    // gait2392's muscles are cut in two parts (the cut moved by the measured times),
    // Rajagopal2016's balanced by work stealing.
    for (file, duration, cut) in [
        ("gait2392_thelen.osim", 0.02, true),
        ("rajagopal2016.osim", 0.01, false),
    ] {
        let (sequential, recorded_sequential, _) = run(file, duration, false);
        let (parallel, recorded_parallel, split) = run(file, duration, true);
        assert_eq!(split.is_some(), cut, "{file}: {split:?}");
        assert!(!recorded_sequential, "{file}: nothing is recorded when off");
        assert!(recorded_parallel, "{file}: the muscles ran in parallel");
        assert_eq!(sequential.len(), parallel.len());
        for (k, (a, b)) in sequential.iter().zip(&parallel).enumerate() {
            assert_eq!(
                a.to_bits(),
                b.to_bits(),
                "{file}: state entry {k}: {a} vs {b}"
            );
        }
    }
}
