//! A point of a follower body kept on a line of another body (Simbody `Constraint::PointOnLine`,
//! `ConstraintImpl.h` `PointOnLineImpl`; OpenSim's `PointOnLineConstraint`).
//!
//! The line passes through `P` (line body B's frame) along the unit direction `z_B`; `x`, `y`
//! complete it to a frame (`x = z.perp()`, `y = z × x`, Simbody's choice). With `S` the
//! follower's point and `C` the material point of B at S (Ground locations), two holonomic rows:
//!
//! ```text
//! perr = [x, y]·(R_GBᵀ (S − p_GB) − P)
//! verr = [x, y]·R_GBᵀ (v_S − v_C)
//! aerr = [x, y]·R_GBᵀ (a_S − a_C − 2 ω_B × (v_S − v_C))
//! ```
//!
//! Multipliers λ act as the force `R_GB (λ₀ x + λ₁ y)` on the follower at S and its negative on
//! B at C; the physical force is the negative (notes §0). Units: m, m/s, m/s².

use super::station::{frame_from_z_axis, BodyMotion};
use crate::ids::BodyId;
use crate::math::SpatialVec;
use crate::scalar::Real;
use nalgebra::Vector3;

/// A point kept on a line of another body (2 holonomic rows).
#[derive(Clone, Debug, PartialEq)]
pub struct PointOnLine<T: Real = f64> {
    /// The body carrying the line.
    pub line_body: BodyId,
    /// Unit direction of the line, in the line body's frame.
    pub direction: Vector3<T>,
    /// A point of the line, in the line body's frame (m).
    pub point_on_line: Vector3<T>,
    /// The body carrying the point.
    pub follower: BodyId,
    /// The point, in the follower's frame (m).
    pub point: Vector3<T>,
}

/// The follower's point S, the line frame's x and y in Ground, and `v_S − v_C`.
struct Geometry<T: Real> {
    s: Vector3<T>,
    x: Vector3<T>,
    y: Vector3<T>,
}

impl<T: Real> PointOnLine<T> {
    fn geometry(&self, k: &BodyMotion<T>) -> Geometry<T> {
        let (x, y) = frame_from_z_axis(&self.direction);
        Geometry {
            s: k.point(self.follower.0, &self.point),
            x: k.direction(self.line_body.0, &x),
            y: k.direction(self.line_body.0, &y),
        }
    }

    fn slip(&self, k: &BodyMotion<T>, s: &Vector3<T>) -> Vector3<T> {
        k.velocity_at(self.follower.0, s) - k.velocity_at(self.line_body.0, s)
    }

    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let (x, y) = frame_from_z_axis(&self.direction);
        let pose = &k.x_gb[self.line_body.0];
        let s = k.point(self.follower.0, &self.point);
        let p_pc = pose.r.transpose() * (s - pose.p) - self.point_on_line;
        out[0] = p_pc.dot(&x);
        out[1] = p_pc.dot(&y);
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let g = self.geometry(k);
        let w = self.slip(k, &g.s);
        out[0] = w.dot(&g.x);
        out[1] = w.dot(&g.y);
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let g = self.geometry(k);
        let w = self.slip(k, &g.s);
        let a = k.acceleration_at(self.follower.0, &g.s)
            - k.acceleration_at(self.line_body.0, &g.s)
            - k.omega(self.line_body.0).cross(&w) * T::c(2.0);
        out[0] = a.dot(&g.x);
        out[1] = a.dot(&g.y);
    }

    pub(crate) fn add_forces(&self, k: &BodyMotion<T>, lambda: &[T], f: &mut [SpatialVec<T>]) {
        let g = self.geometry(k);
        let force = g.x * lambda[0] + g.y * lambda[1];
        k.add_force_at(f, self.follower.0, &g.s, &force);
        k.add_force_at(f, self.line_body.0, &g.s, &-force);
    }
}
