//! The muscles of one force evaluation on two or more threads (`Simulation::set_parallel_forces`):
//! each muscle records its additions to the force totals ([`ForceRecorder`]) and the sequential
//! pass of [`super::calc_all_forces`] replays them in the force set's order, so the sums are
//! bit for bit those of one thread. Which models gain, and how the work is cut between the
//! threads, measured in docs/performance.md.

#[cfg(feature = "parallel")]
use crate::data::ForceOp;
use crate::data::{ForceRecords, ThreadMode};
use crate::forces::ForceContext;
#[cfg(feature = "parallel")]
use crate::forces::ForceRecorder;
#[cfg(feature = "parallel")]
use crate::math::Transform;
use crate::model::{Force, Model};
#[cfg(feature = "parallel")]
use crate::muscles::{Muscle, PathBuffer};
use crate::scalar::Real;

/// Models with fewer muscles evaluate them in the sequential pass: below this an evaluation
/// is too short to gain from a second thread when rayon's work stealing splits it (measured:
/// 2D_gait's 18 muscles, 6 µs per evaluation, ran 0.74× as fast on two threads;
/// docs/performance.md).
const PARALLEL_MIN_MUSCLES: usize = 24;

/// Models of fewer muscles than [`PARALLEL_MIN_MUSCLES`] but at least this many, none of them
/// wrapped, evaluate them in two measured parts ([`muscle_split`]): gait10dof18musc's 18
/// Millard muscles ran 1.21× as fast so, 2D_gait's 18 DeGroote–Fregly muscles 1.06×
/// (docs/performance.md).
const PARALLEL_MIN_UNWRAPPED_MUSCLES: usize = 12;

/// Whether `model` has enough muscles to evaluate them in parallel, given whether they can be
/// cut in two ([`muscle_split`] is `Some`; decided once, by
/// `Simulation::set_parallel_forces`, not at each evaluation).
pub(crate) fn muscles_worth_parallel<T: Real>(model: &Model<T>, cut: bool) -> bool {
    let muscles = model
        .forces
        .iter()
        .filter(|f| matches!(f, Force::Muscle(_)))
        .count();
    muscles >= PARALLEL_MIN_MUSCLES || (muscles >= PARALLEL_MIN_UNWRAPPED_MUSCLES && cut)
}

/// Where to first cut the force set between two threads: where about half of the muscles'
/// path points lie on each side; `None` when a muscle's path has wrap objects (its cost
/// changes from one evaluation to the next with the wrapping and the tangent slide's
/// iterations, which rayon's work stealing follows and a cut moved once per evaluation does
/// not: Rajagopal2016 ran 0.83× as fast with the cut).
pub(crate) fn muscle_split<T: Real>(model: &Model<T>) -> Option<usize> {
    let mut cost = Vec::with_capacity(model.forces.len());
    for f in &model.forces {
        cost.push(match f {
            Force::Muscle(m) if !m.path.wraps.is_empty() => return None,
            Force::Muscle(m) => 4 + m.path.points.len(),
            _ => 0,
        });
    }
    let total: usize = cost.iter().sum();
    let mut sum = 0;
    cost.iter()
        .position(|c| {
            sum += c;
            2 * sum >= total
        })
        .map(|k| k + 1)
}

/// Evaluates the muscles with the simulation's helper thread (`model::muscle_helper`) if
/// `mode` asks for it and there is one, else on rayon's threads, each recording its forces
/// for the sequential pass to replay in order (bit for bit the sequential sums); whether it
/// did. On rayon's threads only from a thread of a rayon pool of two or more threads (from
/// elsewhere the hand-over costs more than it saves); `records.enabled` is set only for
/// models of [`PARALLEL_MIN_MUSCLES`] muscles or more, or of
/// [`PARALLEL_MIN_UNWRAPPED_MUSCLES`] or more without wrap objects.
///
/// With a cut (`records.split`, models without wrap objects) the calling thread takes the
/// elements before it and one more thread the rest, and the cut moves by one element per
/// evaluation toward the part that ended first. The second part's end is measured from
/// before the hand-over and that thread starts with cold caches (measured on gait2392: a
/// part that takes 6.2 µs on the calling thread took 9–11 µs there), so the cut settles
/// where the second thread has less to do (about 58 % of the points stay on gait2392's
/// calling thread). Without a cut, rayon's work stealing balances pieces of four elements.
/// Where the work is done changes only who computes what, never the results.
#[cfg(feature = "parallel")]
pub(super) fn record_muscles_in_parallel<T: Real>(
    model: &Model<T>,
    ctx: &ForceContext<'_, T>,
    enabled: &[T],
    records: &mut ForceRecords<T>,
    mode: ThreadMode,
) -> bool {
    use rayon::prelude::*;
    use std::time::Instant;
    let n = model.forces.len();
    if n < 2 {
        return false;
    }
    if mode == ThreadMode::Helper && records.helper.0.is_some() {
        super::muscle_helper::record_muscles_with_helper(model, ctx, enabled, records);
        return true;
    }
    if rayon::current_thread_index().is_none() || rayon::current_num_threads() < 2 {
        return false;
    }
    let x_gb = ctx.pos.x_gb.as_slice();
    let lists = &mut records.per_element;
    lists.resize_with(n, Vec::new);
    let Some(split) = records.split.map(|k| k.clamp(1, n - 1)) else {
        lists
            .par_iter_mut()
            .zip(model.forces.par_iter().zip(enabled.par_iter()))
            .with_min_len(4)
            .for_each_init(PathBuffer::new, |buffer, (ops, (force, flag))| {
                record_muscle(ctx, x_gb, ops, force, *flag, buffer);
            });
        return true;
    };
    let (lists_a, lists_b) = lists.split_at_mut(split);
    let (forces_a, forces_b) = model.forces.split_at(split);
    let (enabled_a, enabled_b) = enabled.split_at(split);
    let start = Instant::now();
    let timed = |lists: &mut [Vec<ForceOp<T>>], forces: &[Force<T>], enabled: &[T]| {
        record_muscles(ctx, x_gb, lists, forces, enabled);
        start.elapsed()
    };
    let (end_a, end_b) = rayon::join(
        || timed(lists_a, forces_a, enabled_a),
        || timed(lists_b, forces_b, enabled_b),
    );
    records.split = Some(if end_a > end_b { split - 1 } else { split + 1 });
    true
}

/// Evaluates the enabled muscles of `forces` into their lists (one per element).
#[cfg(feature = "parallel")]
pub(super) fn record_muscles<T: Real>(
    ctx: &ForceContext<'_, T>,
    x_gb: &[Transform<T>],
    lists: &mut [Vec<ForceOp<T>>],
    forces: &[Force<T>],
    enabled: &[T],
) {
    let mut buffers = [PathBuffer::new(), PathBuffer::new()];
    // A muscle waiting for the next one, to be evaluated as a pair (`muscles::paired`).
    let mut waiting: Option<(&Muscle, &mut Vec<ForceOp<T>>)> = None;
    for (ops, (force, flag)) in lists.iter_mut().zip(forces.iter().zip(enabled)) {
        ops.clear();
        let (Force::Muscle(m), true) = (force, flag.re() != 0.0) else {
            continue;
        };
        if !m.pairs() {
            m.calc_force_into(ctx, &mut ForceRecorder { x_gb, ops }, &mut buffers[0]);
            continue;
        }
        let Some((first, first_ops)) = waiting.take() else {
            waiting = Some((m, ops));
            continue;
        };
        let [state_1, state_2] = Muscle::evaluate_pair(first, m, ctx, &mut buffers);
        let first_out = &mut ForceRecorder {
            x_gb,
            ops: first_ops,
        };
        first.finish_into(first_out, &buffers[0], &state_1);
        m.finish_into(&mut ForceRecorder { x_gb, ops }, &buffers[1], &state_2);
    }
    if let Some((first, ops)) = waiting {
        first.calc_force_into(ctx, &mut ForceRecorder { x_gb, ops }, &mut buffers[0]);
    }
}

/// Records `force`'s additions into `ops` if it is an enabled muscle (else leaves it empty).
#[cfg(feature = "parallel")]
fn record_muscle<T: Real>(
    ctx: &ForceContext<'_, T>,
    x_gb: &[Transform<T>],
    ops: &mut Vec<ForceOp<T>>,
    force: &Force<T>,
    enabled: T,
    buffer: &mut PathBuffer<T>,
) {
    ops.clear();
    if let (Force::Muscle(m), true) = (force, enabled.re() != 0.0) {
        m.calc_force_into(ctx, &mut ForceRecorder { x_gb, ops }, buffer);
    }
}

#[cfg(not(feature = "parallel"))]
pub(super) fn record_muscles_in_parallel<T: Real>(
    _: &Model<T>,
    _: &ForceContext<'_, T>,
    _: &[T],
    _: &mut ForceRecords<T>,
    _: ThreadMode,
) -> bool {
    false
}
