//! The simulation's tests: muscles evaluated on two threads, or two at a time, give the
//! one-by-one results bit for bit.

use crate::data::{ThreadMode, ThreadTuner};
use crate::integrators::IntegratorSettings;
use crate::io::osim;
use crate::simulation::Simulation;
use std::path::Path;

/// How a run's muscles are evaluated.
#[derive(Clone, Copy, PartialEq)]
enum Threads {
    One,
    /// On rayon's pool at every evaluation.
    Pool,
    /// Split with the simulation's helper thread at every evaluation.
    Helper,
    /// Threads allowed, the tuner choosing by measured times (`data::thread_tuner`).
    Tuned,
}

/// The model file `file` of testdata/opensim/models.
fn load(file: &str) -> osim::OsimModel {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/opensim/models");
    osim::load(&root.join(file)).unwrap()
}

/// A rayon pool of two threads, for the simulation to run on.
fn two_thread_pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
}

/// A simulation of `m` at RK-Merson 1e-6 from its default state.
fn simulation<'m, M>(model: M, m: &osim::OsimModel) -> Simulation<'m>
where
    M: Into<crate::simulation::ModelHandle<'m>>,
{
    let settings = IntegratorSettings::rk_merson(1e-6);
    Simulation::new(model, m.default_state.clone(), settings).unwrap()
}

/// The simulation's state as one list: t, q, u, z.
fn state_values(sim: &Simulation<'_>) -> Vec<f64> {
    let s = sim.state();
    [s.t]
        .into_iter()
        .chain(s.q.iter().copied())
        .chain(s.u.iter().copied())
        .chain(s.z.iter().copied())
        .collect()
}

/// Whether two lists of numbers are equal bit for bit.
fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Runs `file` for `duration` s on a two-thread rayon pool, its muscles evaluated as
/// `threads` says; returns the final state (t, q, u, z), whether forces were recorded for
/// replay and the cut between the two threads' parts (`None`: work stealing).
fn run(file: &str, duration: f64, threads: Threads) -> (Vec<f64>, bool, Option<usize>) {
    let m = load(file);
    two_thread_pool().install(|| {
        let mut sim = simulation(&m.model, &m);
        sim.set_parallel_forces(threads != Threads::One);
        let records = &mut sim.data.force_records;
        assert_eq!(
            records.helper.0.is_some(),
            threads != Threads::One,
            "{file}: a helper thread is started with parallel forces"
        );
        let forced = match threads {
            Threads::Pool => Some(ThreadMode::Pool),
            Threads::Helper => Some(ThreadMode::Helper),
            _ => None,
        };
        if let Some(mode) = forced {
            records.tuner = ThreadTuner::forced(mode);
        }
        sim.advance_to(duration).unwrap();
        let values = state_values(&sim);
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
    // Rajagopal2016's balanced by work stealing. gait10dof18musc (18 Millard muscles) and
    // 2D_gait (18 DeGroote–Fregly muscles among contact forces) run in two parts too: fewer
    // than 24 muscles, none wrapped.
    for (file, duration, cut) in [
        ("gait2392_thelen.osim", 0.02, true),
        ("rajagopal2016.osim", 0.01, false),
        ("gait10dof18musc_excited.osim", 0.02, true),
        ("gait2d.osim", 0.02, true),
    ] {
        let (sequential, recorded_sequential, _) = run(file, duration, Threads::One);
        assert!(!recorded_sequential, "{file}: nothing is recorded when off");
        // On rayon's pool, with the helper thread, then as the tuner chooses: its trial (the
        // first 72 evaluations) switches between the three every 8.
        for threads in [Threads::Pool, Threads::Helper, Threads::Tuned] {
            let (parallel, recorded_parallel, split) = run(file, duration, threads);
            assert_eq!(split.is_some(), cut, "{file}: {split:?}");
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
}

#[test]
fn muscles_evaluated_in_pairs_give_the_one_by_one_results_bit_for_bit() {
    // The force set's evaluation takes muscles whose paths have no wrap objects two at a
    // time (`muscles::paired`): its body forces, mobility forces and state rates must be
    // those of every element's own `calc_force`, one after the other in the force set's
    // order, to the bit. gait2392 (Thelen, conditional and moving points), 2D_gait
    // (DeGroote, among contact forces) and gait10dof18musc (Millard), each after 10 ms so
    // that the state is not the default one.
    use crate::data::{Data, Stage};
    use crate::forces::{ForceAccumulator, ForceContext};
    use crate::model::calc_all_forces;
    use crate::pipeline::realize;
    for file in [
        "gait2392_thelen.osim",
        "gait2d.osim",
        "gait10dof18musc_excited.osim",
    ] {
        let m = load(file);
        let model = &m.model;
        let mut sim = simulation(model, &m);
        sim.advance_to(0.01).unwrap();
        let state = sim.state().clone();
        let mut data = Data::new(model);
        realize(model, &state, &mut data, Stage::Velocity).unwrap();
        calc_all_forces(model, &state, &mut data);
        let paired = data.dynamics.clone();

        realize(model, &state, &mut data, Stage::Velocity).unwrap();
        let ctx = ForceContext::from_caches(model, &state, &data.pos, &data.vel);
        let mut body_forces = vec![crate::math::SpatialVec::zeros(); model.nbodies()];
        let mut mobility_forces = vec![0.0; model.nu()];
        let mut zdot = vec![0.0; model.nz()];
        let mut out = ForceAccumulator {
            model,
            x_gb: &data.pos.x_gb,
            body_forces: &mut body_forces,
            mobility_forces: &mut mobility_forces,
            auto_update_cache: &mut data.auto_update_cache,
            auto_update_valid: &mut data.auto_update_valid,
            zdot: &mut zdot,
            contact_scratch: &mut data.contact_scratch,
        };
        let enabled = state.discrete(model, model.force_enabled);
        for (force, flag) in model.forces.iter().zip(enabled) {
            if *flag != 0.0 {
                force.calc_force(&ctx, &mut out);
            }
        }
        model.apply_actuators(&state, &mut mobility_forces);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let flat = |v: &[crate::math::SpatialVec<f64>]| {
            bits(&v.iter().flat_map(|f| f.iter().copied()).collect::<Vec<_>>())
        };
        assert_eq!(flat(&paired.body_forces), flat(&body_forces), "{file}");
        assert_eq!(
            bits(paired.mobility_forces.as_slice()),
            bits(&mobility_forces),
            "{file}"
        );
        assert_eq!(bits(paired.zdot.as_slice()), bits(&zdot), "{file}");
    }
}

#[test]
fn dropping_a_simulation_stops_its_muscle_helper_even_when_parked() {
    // The helper parks 200 µs after its last job; dropping the simulation must wake it and
    // join it, so that a run that ends (or a Python object collected) leaves no thread
    // behind. The drop runs on a thread of its own, so that a hang fails the test.
    use std::sync::{mpsc, Arc};
    use std::time::Duration;
    let m = load("gait10dof18musc_excited.osim");
    let model = Arc::new(m.model.clone());
    let sim = two_thread_pool().install(|| {
        let mut sim = simulation(Arc::clone(&model), &m);
        sim.set_parallel_forces(true);
        assert!(sim.data.force_records.helper.0.is_some());
        sim.data.force_records.tuner = ThreadTuner::forced(ThreadMode::Helper);
        sim.advance_to(0.005).unwrap();
        sim
    });
    std::thread::sleep(Duration::from_millis(20));
    let (done, dropped) = mpsc::channel();
    std::thread::spawn(move || {
        drop(sim);
        done.send(()).unwrap();
    });
    assert!(
        dropped.recv_timeout(Duration::from_secs(10)).is_ok(),
        "the helper thread was not stopped"
    );
}

#[test]
fn a_helper_that_cannot_do_its_job_leaves_it_to_the_simulation_thread() {
    // A helper holding another model (other state sizes) refuses the job: the simulation's
    // thread evaluates that part itself, drops the helper and goes on with the one-thread
    // results, bit for bit.
    use std::sync::Arc;
    let file = "gait10dof18musc_excited.osim";
    let (sequential, _, _) = run(file, 0.01, Threads::One);
    let m = load(file);
    let other = load("gait2d.osim");
    two_thread_pool().install(|| {
        let mut sim = simulation(&m.model, &m);
        sim.set_parallel_forces(true);
        let records = &mut sim.data.force_records;
        records.helper.0 = crate::model::start_muscle_helper(Arc::new(other.model));
        records.tuner = ThreadTuner::forced(ThreadMode::Helper);
        sim.advance_to(0.01).unwrap();
        assert!(
            sim.data.force_records.helper.0.is_none(),
            "the helper is dropped"
        );
        assert!(same_bits(&state_values(&sim), &sequential));
    });
}
