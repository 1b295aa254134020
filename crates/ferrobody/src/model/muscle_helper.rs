//! A simulation's muscle helper thread (`data::muscle_helper` has the mailbox and why): it
//! holds its own copy of the model and a state, and for each job evaluates the muscles from
//! the job's first element to the end, recording their force additions as
//! `record_muscles_in_parallel` does on rayon's threads. The simulation's thread evaluates the
//! elements before the cut meanwhile, then replays both parts in the force set's order, so the
//! sums are those of one thread, bit for bit.

use super::parallel_muscles::record_muscles;
use crate::data::{ForceRecords, HelperHandle, HelperJob, HelperShared};
use crate::forces::ForceContext;
use crate::model::Model;
use crate::scalar::Real;
use crate::state::State;
use std::sync::Arc;
use std::time::Instant;

/// Starts a helper thread for simulations of `model`; `None` if the system refuses a thread
/// (the muscles then run on rayon's pool, or on one thread).
pub(crate) fn start_muscle_helper<T: Real>(model: Arc<Model<T>>) -> Option<HelperHandle<T>> {
    let shared = HelperShared::new();
    let theirs = Arc::clone(&shared);
    let thread = std::thread::Builder::new()
        .name("ferrobody-muscles".into())
        .spawn(move || serve(&model, &theirs))
        .ok()?;
    Some(HelperHandle::new(shared, thread))
}

/// The helper's loop: one job at a time until the handle is dropped.
fn serve<T: Real>(model: &Model<T>, shared: &HelperShared<T>) {
    let mut state = State::new(model);
    while shared.wait_for_job() {
        {
            let mut guard = shared.job();
            let HelperJob {
                t,
                y,
                discrete,
                auto_update,
                auto_update_time,
                pos,
                vel,
                enabled,
                first,
                lists,
                finished_at,
            } = &mut *guard;
            *finished_at = None;
            let same_sizes = y.len() == state.ny() && enabled.len() == model.forces.len();
            if same_sizes {
                state.t = *t;
                state.set_y(y);
            }
            let hidden = state.set_hidden_variables(discrete, auto_update, auto_update_time);
            if let (true, Ok(()), Some(pos), Some(vel)) =
                (same_sizes, hidden, pos.as_ref(), vel.as_ref())
            {
                let ctx = ForceContext::from_caches(model, &state, pos, vel);
                let first = (*first).min(model.forces.len());
                let forces = &model.forces[first..];
                record_muscles(&ctx, &pos.x_gb, lists, forces, &enabled[first..]);
                *finished_at = Some(Instant::now());
            }
        }
        shared.finish_job();
    }
}

/// Evaluates the muscles with the helper: the elements from the cut (`records.helper_split`,
/// or the middle) to the end on the helper's thread, those before it here; each part's
/// additions go into `records.per_element`. The cut moves by one element per evaluation
/// toward the part that ended first. A helper that died (it panicked) or could not do its job
/// is dropped and its part done here.
pub(super) fn record_muscles_with_helper<T: Real>(
    model: &Model<T>,
    ctx: &ForceContext<'_, T>,
    enabled: &[T],
    records: &mut ForceRecords<T>,
) {
    let n = model.forces.len();
    let split = records.helper_split.unwrap_or(n / 2).clamp(1, n - 1);
    let ForceRecords {
        per_element,
        helper_split: next_split,
        helper: slot,
        ..
    } = records;
    let Some(helper) = slot.0.as_ref() else {
        return;
    };
    fill_job(&mut helper.job(), ctx, enabled, split, n);
    helper.post();
    per_element.resize_with(n, Vec::new);
    let (mine, theirs) = per_element.split_at_mut(split);
    let x_gb = ctx.pos.x_gb.as_slice();
    record_muscles(ctx, x_gb, mine, &model.forces[..split], &enabled[..split]);
    let my_end = Instant::now();
    let done = helper.wait();
    let mut job = helper.job();
    // The helper marks a job it did with the time it finished; one it could not do (a job
    // that does not fit its model) or a helper that died leaves its part to this thread.
    let Some(helper_end) = job.finished_at.filter(|_| done) else {
        drop(job);
        record_muscles(ctx, x_gb, theirs, &model.forces[split..], &enabled[split..]);
        slot.0 = None;
        return;
    };
    for (list, recorded) in theirs.iter_mut().zip(job.lists.iter_mut()) {
        std::mem::swap(list, recorded);
    }
    let helper_ended_first = helper_end < my_end;
    *next_split = Some(if helper_ended_first {
        split - 1
    } else {
        split + 1
    });
}

/// Copies what the helper reads into its job, reusing the job's buffers.
fn fill_job<T: Real>(
    job: &mut HelperJob<T>,
    ctx: &ForceContext<'_, T>,
    enabled: &[T],
    split: usize,
    n: usize,
) {
    let state = ctx.state;
    job.t = state.t;
    job.y.resize(state.ny(), T::zero());
    state.copy_y_to(&mut job.y);
    let (discrete, auto_update, auto_update_time) = state.hidden_variables();
    refill(&mut job.discrete, discrete);
    refill(&mut job.auto_update, auto_update);
    refill(&mut job.auto_update_time, auto_update_time);
    // A muscle reads the body poses and velocities and the state, nothing else of the
    // caches (`muscles`: `ForceContext::x_gb`, `v_gb`, `q_of`, `u_of`, `z`, controls), so
    // the rest of the helper's caches, copied once, may lag behind.
    match &mut job.pos {
        Some(pos) => pos.x_gb.clone_from(&ctx.pos.x_gb),
        None => job.pos = Some(ctx.pos.clone()),
    }
    match &mut job.vel {
        Some(vel) => vel.v_gb.clone_from(&ctx.vel.v_gb),
        None => job.vel = Some(ctx.vel.clone()),
    }
    refill(&mut job.enabled, enabled);
    job.first = split;
    job.lists.resize_with(n - split, Vec::new);
    job.finished_at = None;
}

/// `dst` becomes a copy of `src`, without allocating once its capacity is there.
fn refill<E: Copy>(dst: &mut Vec<E>, src: &[E]) {
    dst.clear();
    dst.extend_from_slice(src);
}
