//! Two muscles evaluated side by side. A muscle's evaluation is one long chain of dependent
//! divisions, square roots and exponentials (its path's segment lengths, then its law), which
//! leaves most of the processor idle while each result is awaited. Two muscles whose paths
//! have no wrap objects are evaluated in phases instead — both paths located, both lengths
//! and speeds, both laws — so that the processor runs the two independent chains at once;
//! then each applies its tension and writes its state rates, in the force set's order. The
//! arithmetic of each muscle is unchanged, and the additions to the force totals come in the
//! order of the one-by-one evaluation, so the sums are bit for bit the same.

use super::{Muscle, MuscleState, PathBuffer};
use crate::forces::{ForceContext, ForceSink};
use crate::scalar::Real;

impl Muscle {
    /// Whether [`Self::evaluate_pair`] can take this muscle (a path without wrap objects
    /// that fits a [`PathBuffer`]).
    pub(crate) fn pairs(&self) -> bool {
        self.path.fits_buffer()
    }

    /// The states of `first` and `second` (both [`Self::pairs`]), their paths located into
    /// `buffers`, the two evaluations' phases interleaved (module docs). Each then applies
    /// its forces by [`Self::finish_into`], `first` before `second`.
    pub(crate) fn evaluate_pair<T: Real>(
        first: &Self,
        second: &Self,
        ctx: &ForceContext<'_, T>,
        buffers: &mut [PathBuffer<T>; 2],
    ) -> [MuscleState<T>; 2] {
        let [buffer_1, buffer_2] = buffers;
        buffer_1.locate(&first.path, ctx);
        buffer_2.locate(&second.path, ctx);
        let path_1 = buffer_1.kinematics();
        let path_2 = buffer_2.kinematics();
        [
            first.state_on_path(ctx, path_1),
            second.state_on_path(ctx, path_2),
        ]
    }

    /// Applies the tension of `state` along the path located in `buffer` and writes the
    /// state rates (after [`Self::evaluate_pair`]).
    pub(crate) fn finish_into<T: Real>(
        &self,
        out: &mut impl ForceSink<T>,
        buffer: &PathBuffer<T>,
        state: &MuscleState<T>,
    ) {
        buffer.apply(&self.path, out, state.output.tendon_force);
        self.set_state_rates(out, state);
    }

    /// Writes the rates of the muscle's states.
    pub(super) fn set_state_rates<T: Real>(&self, out: &mut impl ForceSink<T>, s: &MuscleState<T>) {
        if let Some(z) = self.activation {
            out.set_zdot(z, s.activation_rate);
        }
        if let Some(z) = self.norm_tendon_force {
            out.set_zdot(z, s.output.norm_tendon_force_dot);
        }
        if let Some(z) = self.fiber_length {
            out.set_zdot(z, s.output.fiber_velocity);
        }
    }
}
