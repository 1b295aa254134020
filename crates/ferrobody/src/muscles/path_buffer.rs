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

use super::path::{CoordinateRef, GeometryPath, PathKinematics};
use crate::forces::{ForceAccumulator, ForceContext};
use crate::ids::BodyId;
use crate::math::spatial;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Paths without wrap objects of at most this many points are evaluated from the stack.
pub(super) const STACK_POINTS: usize = 16;

/// The located active points of a path (at most [`STACK_POINTS`]).
pub(super) struct PathBuffer<T: Real> {
    count: usize,
    body: [BodyId; STACK_POINTS],
    r_g: [Vector3<T>; STACK_POINTS],
    p_g: [Vector3<T>; STACK_POINTS],
    v_g: [Vector3<T>; STACK_POINTS],
    moving: [Option<(CoordinateRef, Vector3<T>)>; STACK_POINTS],
}

impl<T: Real> PathBuffer<T> {
    /// Locates the active points of `path` (no wrap objects, at most [`STACK_POINTS`]
    /// points).
    #[inline]
    pub(super) fn locate(path: &GeometryPath, ctx: &ForceContext<'_, T>) -> Self {
        let zero = Vector3::zeros();
        let mut buffer = Self {
            count: 0,
            body: [BodyId(0); STACK_POINTS],
            r_g: [zero; STACK_POINTS],
            p_g: [zero; STACK_POINTS],
            v_g: [zero; STACK_POINTS],
            moving: [None; STACK_POINTS],
        };
        for point in path.points.iter().filter(|p| p.is_active(ctx)) {
            let k = buffer.count;
            let located = point.locate(ctx);
            buffer.body[k] = point.body();
            buffer.r_g[k] = located.r_g;
            buffer.p_g[k] = located.p_g;
            buffer.v_g[k] = located.v_g;
            buffer.moving[k] = located.moving;
            buffer.count += 1;
        }
        buffer
    }

    /// Length and lengthening speed (`kinematics_of` of [`super::path`]).
    pub(super) fn kinematics(&self) -> PathKinematics<T> {
        let mut length = T::zero();
        let mut speed = T::zero();
        for k in 1..self.count {
            let r = self.p_g[k - 1] - self.p_g[k];
            let d = r.norm();
            length += d;
            let v = self.v_g[k - 1] - self.v_g[k];
            speed += if d.re() < f64::EPSILON {
                v.norm()
            } else {
                v.dot(&(r / d))
            };
        }
        PathKinematics { length, speed }
    }

    /// Applies `tension` along the located path (`apply_over` of [`super::path`]).
    pub(super) fn apply(&self, out: &mut ForceAccumulator<'_, T>, tension: T) {
        for k in 1..self.count {
            if self.body[k - 1] == self.body[k] {
                continue;
            }
            let r = self.p_g[k] - self.p_g[k - 1];
            let d = r.norm();
            let dir = if d.re() < f64::EPSILON {
                r * T::c(f64::NAN)
            } else {
                r / d
            };
            let f = dir * tension;
            out.add_body_force(self.body[k - 1], &spatial(self.r_g[k - 1].cross(&f), f));
            let f_here = -f;
            out.add_body_force(self.body[k], &spatial(self.r_g[k].cross(&f_here), f_here));
            if let Some((c, dp_dq_g)) = &self.moving[k - 1] {
                out.add_mobility_force(c.body, c.index, dp_dq_g.dot(&f));
            }
            if let Some((c, dp_dq_g)) = &self.moving[k] {
                out.add_mobility_force(c.body, c.index, -dp_dq_g.dot(&f));
            }
        }
    }
}
