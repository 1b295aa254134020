//! A path without wrap objects evaluated from a stack buffer: each active point is located
//! once per evaluation (its station `p_bs`, `r_G = R_GB p_bs`, Ground position and velocity,
//! and for a moving point `R_GB p_bs'(q)`), then the path's length, lengthening speed and
//! forces are computed from those with the arithmetic of [`super::path`] (bit for bit the
//! results of locating every point again):
//! * `ℓ = Σ |P_i − P_{i+1}|`, `ℓ̇ = Σ (v_i − v_{i+1})·(P_i − P_{i+1})/|P_i − P_{i+1}|`;
//! * for a segment between two bodies, `T d̂` at P_i and `−T d̂` at P_{i+1`}, applied as the
//!   spatial force `(r_G × f, f)` on each body, and `(R_GB p_bs'(q))·(±T d̂)` on a moving
//!   point's coordinate.
//!
//! Units: m, m/s, N. Source: OpenSim 4.6 `OpenSim/Simulation/Model/GeometryPath.cpp`
//! (`computeLength`, `computeLengtheningSpeed`, `produceForces`).

use super::path::{GeometryPath, PathKinematics, PathPoint};
use crate::forces::{ForceContext, ForceSink};
use crate::ids::BodyId;
use crate::math::spatial;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Paths without wrap objects of at most this many points are evaluated from the stack.
/// (The paths of opensim-models have at most 9 points; those over 8 wrap or are rare.)
pub(super) const STACK_POINTS: usize = 8;

/// The located active points of a path (at most [`STACK_POINTS`]).
pub(crate) struct PathBuffer<T: Real> {
    count: usize,
    body: [BodyId; STACK_POINTS],
    r_g: [Vector3<T>; STACK_POINTS],
    p_g: [Vector3<T>; STACK_POINTS],
    v_g: [Vector3<T>; STACK_POINTS],
    /// `R_GB p_bs'(q)` of a moving point (zero for others).
    dp_dq_g: [Vector3<T>; STACK_POINTS],
    /// Which point of the path each entry is.
    source: [usize; STACK_POINTS],
    /// Of segment k (from point k − 1 to point k), set by [`Self::kinematics`]: the unit
    /// vector `(P_{k−1} − P_k)/|P_{k−1} − P_k|` (NaN where the points coincide).
    unit: [Vector3<T>; STACK_POINTS],
}

impl<T: Real> PathBuffer<T> {
    /// An empty buffer.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        // Each array filled on its own: from one shared zero vector the compiler fills one
        // array and copies it into the others with a memcpy call each.
        Self {
            count: 0,
            body: [BodyId(0); STACK_POINTS],
            r_g: std::array::from_fn(|_| Vector3::zeros()),
            p_g: std::array::from_fn(|_| Vector3::zeros()),
            v_g: std::array::from_fn(|_| Vector3::zeros()),
            dp_dq_g: std::array::from_fn(|_| Vector3::zeros()),
            source: [0; STACK_POINTS],
            unit: std::array::from_fn(|_| Vector3::zeros()),
        }
    }

    /// Locates the active points of `path` (no wrap objects, at most [`STACK_POINTS`]
    /// points).
    #[inline]
    pub(super) fn locate(&mut self, path: &GeometryPath, ctx: &ForceContext<'_, T>) {
        self.count = 0;
        for (j, point) in path.points.iter().enumerate() {
            if !point.is_active(ctx) {
                continue;
            }
            let k = self.count;
            let located = point.locate(ctx);
            self.body[k] = point.body();
            self.r_g[k] = located.r_g;
            self.p_g[k] = located.p_g;
            self.v_g[k] = located.v_g;
            if let Some((_, dp_dq_g)) = located.moving {
                self.dp_dq_g[k] = dp_dq_g;
            }
            self.source[k] = j;
            self.count += 1;
        }
    }

    /// Length and lengthening speed (`kinematics_of` of [`super::path`]'s arithmetic:
    /// `ℓ̇ = Σ (v_{k−1} − v_k)·û_k`, or `|v_{k−1} − v_k|` where the points coincide); keeps
    /// each segment's unit vector û_k for [`Self::apply`].
    pub(super) fn kinematics(&mut self) -> PathKinematics<T> {
        let mut length = T::zero();
        let mut speed = T::zero();
        for k in 1..self.count {
            let r = self.p_g[k - 1] - self.p_g[k];
            let d = r.norm();
            length += d;
            let v = self.v_g[k - 1] - self.v_g[k];
            speed += if d.re() < f64::EPSILON {
                self.unit[k] = r * T::c(f64::NAN);
                v.norm()
            } else {
                self.unit[k] = r / d;
                v.dot(&self.unit[k])
            };
        }
        PathKinematics { length, speed }
    }

    /// Applies `tension` along the located path (`apply_over` of [`super::path`]), after
    /// [`Self::kinematics`]: the pull direction from point k − 1 toward point k is −û_k,
    /// the very value `pull_direction` computes (negation is exact), NaN where the points
    /// coincide.
    pub(super) fn apply(&self, path: &GeometryPath, out: &mut impl ForceSink<T>, tension: T) {
        for k in 1..self.count {
            if self.body[k - 1] == self.body[k] {
                continue;
            }
            let f = -self.unit[k] * tension;
            out.add_body_force(self.body[k - 1], &spatial(self.r_g[k - 1].cross(&f), f));
            let f_here = -f;
            out.add_body_force(self.body[k], &spatial(self.r_g[k].cross(&f_here), f_here));
            if let PathPoint::Moving { coordinate: c, .. } = &path.points[self.source[k - 1]] {
                out.add_mobility_force(c.body, c.index, self.dp_dq_g[k - 1].dot(&f));
            }
            if let PathPoint::Moving { coordinate: c, .. } = &path.points[self.source[k]] {
                out.add_mobility_force(c.body, c.index, -self.dp_dq_g[k].dot(&f));
            }
        }
    }
}
