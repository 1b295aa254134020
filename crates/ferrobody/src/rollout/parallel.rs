//! Independent runs in parallel (the `parallel` feature, rayon): rollouts from many start
//! states, and a batch of simulations advanced together (the vector environments' step).
//! Each run steps exactly as it would alone, so results are bit for bit those of the same
//! runs made one by one, whatever the thread count.

use super::{simulate, simulate_schedule, RecordOptions, Trajectory};
use crate::integrators::IntegratorSettings;
use crate::{Error, Model, Result, Simulation, State};
use rayon::prelude::*;

/// [`rollouts`] with an open-loop control sequence per run: run i holds `schedules[i]`
/// as [`simulate_schedule`] does. `schedules` has one entry per start.
pub fn rollouts_with_schedules(
    model: &Model<f64>,
    starts: &[State<f64>],
    schedules: &[&[f64]],
    settings: IntegratorSettings,
    options: &RecordOptions,
    threads: Option<usize>,
) -> Result<Vec<Result<Trajectory>>> {
    if schedules.len() != starts.len() {
        return Err(Error::model(format!(
            "controls: {} schedules for {} starts",
            schedules.len(),
            starts.len()
        )));
    }
    in_pool(threads, || {
        starts
            .par_iter()
            .zip(schedules)
            .map(|(s, c)| simulate_schedule(model, s.clone(), settings, options, c))
            .collect()
    })
}

/// Runs `work` on `threads` threads (`None`: rayon's global pool).
fn in_pool<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> Result<R> {
    match threads {
        None => Ok(work()),
        Some(n) => Ok(thread_pool(n)?.install(work)),
    }
}

/// Runs `model` from every state of `starts` independently, in parallel on `threads` threads
/// (`None`: rayon's global pool, one thread per core). Results come in the order of `starts`
/// and equal those of [`simulate`] called one by one.
pub fn rollouts(
    model: &Model<f64>,
    starts: &[State<f64>],
    settings: IntegratorSettings,
    options: &RecordOptions,
    threads: Option<usize>,
) -> Result<Vec<Result<Trajectory>>> {
    in_pool(threads, || {
        starts
            .par_iter()
            .map(|s| simulate(model, s.clone(), settings, options))
            .collect()
    })
}

/// Advances every simulation of a batch by `dt` seconds from its own time, in parallel (the
/// vector environments' step): simulation i first takes row i of `controls` (n × nctrl,
/// row-major; held over the step). Each simulation steps exactly as it would alone, so the
/// batch gives bit for bit the runs of its members stepped one by one, whatever the thread
/// count. Returns one result per simulation; a failed one keeps its last good state. `pool`:
/// a thread pool of the caller's (`None`: rayon's global pool).
pub fn advance_all(
    sims: &mut [Simulation<'_, f64>],
    controls: &[f64],
    dt: f64,
    pool: Option<&rayon::ThreadPool>,
) -> Vec<Result<()>> {
    let n = sims.first().map_or(0, |s| s.model().nctrl());
    if controls.len() != sims.len() * n {
        let message = format!(
            "controls: {} values for {} simulations of {n} controls",
            controls.len(),
            sims.len()
        );
        return sims
            .iter()
            .map(|_| Err(Error::model(message.clone())))
            .collect();
    }
    let mut work = move || -> Vec<Result<()>> {
        sims.par_iter_mut()
            .enumerate()
            .map(|(i, sim)| {
                sim.set_controls(&controls[i * n..(i + 1) * n])?;
                let t = sim.state().t + dt;
                sim.advance_to(t)
            })
            .collect()
    };
    match pool {
        Some(p) => p.install(work),
        None => work(),
    }
}

/// A thread pool of `threads` threads for [`advance_all`] and the rollouts.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|source| Error::Threads { threads, source })
}

/// Every body's origin in Ground (Ground left out; 3 values per body) for each simulation of
/// a batch, in parallel: the members' data realized at their current states.
pub fn body_origins_all(
    sims: &mut [Simulation<'_, f64>],
    pool: Option<&rayon::ThreadPool>,
) -> Vec<Result<Vec<f64>>> {
    let mut work = move || -> Vec<Result<Vec<f64>>> {
        sims.par_iter_mut()
            .map(|sim| {
                let data = sim.data()?;
                Ok(data.pos.x_gb[1..]
                    .iter()
                    .flat_map(|x| [x.p.x, x.p.y, x.p.z])
                    .collect())
            })
            .collect()
    };
    match pool {
        Some(p) => p.install(work),
        None => work(),
    }
}
