//! Point and sphere against a plane fixed on a body: PointInPlane, PointOnPlaneContact and
//! SphereOnPlaneContact (notes §5.1–5.3; Simbody `ConstraintImpl.h`,
//! `Constraint_PointOnPlaneContactImpl.h`, `Constraint_SphereOnPlaneContactImpl.h`).
//!
//! A point `P` of the follower is measured in the frame of the plane body `S` (normal `n`, in
//! Ground). With `w = v_P − v_S@P` (the velocity of P seen from S) every row is
//!
//! ```text
//! verr = n·w,     aerr = n·[(a_P − a_S@P) − 2 ω_S × w]
//! ```
//!
//! which is the exact time derivative because n turns with S. The holonomic row is the height of
//! the point above the plane. SphereOnPlaneContact measures the centre O, and its rolling rows
//! use the velocity of the ball's material point at the contact point `C = O − r n`:
//! `v_FC = w_O + ω_FB × (−r n)` with derivative `a_FC = a_FO − r α_FB × n`,
//! `α_FB = (α_B − α_F) − ω_F × ω_B`. Multiplier rows: the normal one first, then x and y.
//! λ acts as the force λ n on the follower at P (at C for the sphere) and −λ n on the plane
//! body at the same place; the physical force is the negative (notes §0).

use super::station::BodyMotion;
use crate::ids::BodyId;
use crate::math::{SpatialVec, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

/// A point of the follower body kept in a plane of the plane body (Simbody
/// `Constraint::PointInPlane`). 1 holonomic row: `perr = p_BS·n − h`.
#[derive(Clone, Debug, PartialEq)]
pub struct PointInPlane<T: Real = f64> {
    /// The body carrying the plane.
    pub plane_body: BodyId,
    /// Unit plane normal in the plane body's frame.
    pub normal: Vector3<T>,
    /// Height of the plane along the normal (m).
    pub height: T,
    /// The body carrying the point.
    pub follower: BodyId,
    /// The point, in the follower's frame (m).
    pub point: Vector3<T>,
}

/// A point of body B kept on a plane of surface body S without slipping (Simbody
/// `Constraint::PointOnPlaneContact`): 1 holonomic row and 2 non-holonomic (no-slip) rows.
#[derive(Clone, Debug, PartialEq)]
pub struct PointOnPlaneContact<T: Real = f64> {
    /// The surface body S.
    pub surface_body: BodyId,
    /// The plane frame P in S, `x_sp`; its z axis is the normal, x and y span the plane.
    pub plane_frame: Transform<T>,
    /// The follower body B.
    pub follower: BodyId,
    /// The point F on B, in B's frame (m).
    pub point: Vector3<T>,
}

/// A sphere on body B touching a plane of floor body F (Simbody
/// `Constraint::SphereOnPlaneContact`): 1 holonomic row; with `enforce_rolling`, 2 no-slip rows.
#[derive(Clone, Debug, PartialEq)]
pub struct SphereOnPlaneContact<T: Real = f64> {
    /// The floor body F.
    pub plane_body: BodyId,
    /// The plane frame P in F, `x_fp`; its z axis is the outward normal.
    pub plane_frame: Transform<T>,
    /// The ball body B.
    pub ball: BodyId,
    /// Centre O of the sphere in B's frame (m).
    pub center: Vector3<T>,
    /// Sphere radius (m), positive.
    pub radius: T,
    /// Whether the two no-slip rows are generated.
    pub enforce_rolling: bool,
}

/// `w = v_P − v_S@P` and `n·[(a_P − a_S@P) − 2ω_S × w]` helpers for one point.
struct PointInFrame<T: Real> {
    p: Vector3<T>,
    w: Vector3<T>,
}

fn point_in_frame<T: Real>(
    k: &BodyMotion<T>,
    s: BodyId,
    b: BodyId,
    p: Vector3<T>,
) -> PointInFrame<T> {
    let w = k.velocity_at(b.0, &p) - k.velocity_at(s.0, &p);
    PointInFrame { p, w }
}

fn frame_acceleration<T: Real>(
    k: &BodyMotion<T>,
    s: BodyId,
    b: BodyId,
    pf: &PointInFrame<T>,
) -> Vector3<T> {
    let a = k.acceleration_at(b.0, &pf.p) - k.acceleration_at(s.0, &pf.p);
    a - k.omega(s.0).cross(&pf.w) * T::c(2.0)
}

fn add_pair<T: Real>(
    k: &BodyMotion<T>,
    f: &mut [SpatialVec<T>],
    s: BodyId,
    b: BodyId,
    p: &Vector3<T>,
    force: &Vector3<T>,
) {
    k.add_force_at(f, b.0, p, force);
    k.add_force_at(f, s.0, p, &-force);
}

impl<T: Real> PointInPlane<T> {
    fn normal_g(&self, k: &BodyMotion<T>) -> Vector3<T> {
        k.direction(self.plane_body.0, &self.normal)
    }

    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let p = k.point(self.follower.0, &self.point);
        let x = &k.x_gb[self.plane_body.0];
        out[0] = (x.r.transpose() * (p - x.p)).dot(&self.normal) - self.height;
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let p = k.point(self.follower.0, &self.point);
        out[0] = point_in_frame(k, self.plane_body, self.follower, p)
            .w
            .dot(&self.normal_g(k));
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let p = k.point(self.follower.0, &self.point);
        let pf = point_in_frame(k, self.plane_body, self.follower, p);
        out[0] = frame_acceleration(k, self.plane_body, self.follower, &pf).dot(&self.normal_g(k));
    }

    pub(crate) fn add_forces(&self, k: &BodyMotion<T>, lambda: &[T], f: &mut [SpatialVec<T>]) {
        let p = k.point(self.follower.0, &self.point);
        add_pair(
            k,
            f,
            self.plane_body,
            self.follower,
            &p,
            &(self.normal_g(k) * lambda[0]),
        );
    }
}

impl<T: Real> PointOnPlaneContact<T> {
    /// The plane frame in Ground.
    pub fn plane_in_ground(&self, k: &BodyMotion<T>) -> Transform<T> {
        k.x_gb[self.surface_body.0] * self.plane_frame
    }

    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let plane = self.plane_in_ground(k);
        let p = k.point(self.follower.0, &self.point);
        out[0] = (p - plane.p).dot(&plane.r.column(2));
    }

    fn rows(&self, k: &BodyMotion<T>, v: &Vector3<T>, out: &mut [T]) {
        let r = self.plane_in_ground(k).r;
        out[0] = v.dot(&r.column(2));
        out[1] = v.dot(&r.column(0));
        out[2] = v.dot(&r.column(1));
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let p = k.point(self.follower.0, &self.point);
        self.rows(
            k,
            &point_in_frame(k, self.surface_body, self.follower, p).w,
            out,
        );
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let p = k.point(self.follower.0, &self.point);
        let pf = point_in_frame(k, self.surface_body, self.follower, p);
        self.rows(
            k,
            &frame_acceleration(k, self.surface_body, self.follower, &pf),
            out,
        );
    }

    pub(crate) fn add_forces(&self, k: &BodyMotion<T>, lambda: &[T], f: &mut [SpatialVec<T>]) {
        let r = self.plane_in_ground(k).r;
        let force = r.column(2) * lambda[0] + r.column(0) * lambda[1] + r.column(1) * lambda[2];
        let p = k.point(self.follower.0, &self.point);
        add_pair(k, f, self.surface_body, self.follower, &p, &force);
    }
}

impl<T: Real> SphereOnPlaneContact<T> {
    /// The plane frame in Ground.
    pub fn plane_in_ground(&self, k: &BodyMotion<T>) -> Transform<T> {
        k.x_gb[self.plane_body.0] * self.plane_frame
    }

    /// Signed distance from the sphere surface to the plane (m); negative when penetrating.
    pub fn separation(&self, k: &BodyMotion<T>) -> T {
        let plane = self.plane_in_ground(k);
        (k.point(self.ball.0, &self.center) - plane.p).dot(&plane.r.column(2)) - self.radius
    }

    /// The contact point `C = O − r n` in Ground.
    pub fn contact_point(&self, k: &BodyMotion<T>) -> Vector3<T> {
        let n = self.plane_in_ground(k).r.column(2).into_owned();
        k.point(self.ball.0, &self.center) - n * self.radius
    }

    pub(crate) fn position_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        out[0] = self.separation(k);
    }

    pub(crate) fn velocity_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let r = self.plane_in_ground(k).r;
        let o = k.point(self.ball.0, &self.center);
        let w_o = point_in_frame(k, self.plane_body, self.ball, o).w;
        out[0] = w_o.dot(&r.column(2));
        if self.enforce_rolling {
            let (f, b) = (self.plane_body.0, self.ball.0);
            let w_fb = k.omega(b) - k.omega(f);
            let v_fc = w_o + w_fb.cross(&(r.column(2) * -self.radius));
            out[1] = v_fc.dot(&r.column(0));
            out[2] = v_fc.dot(&r.column(1));
        }
    }

    pub(crate) fn acceleration_errors(&self, k: &BodyMotion<T>, out: &mut [T]) {
        let r = self.plane_in_ground(k).r;
        let o = k.point(self.ball.0, &self.center);
        let pf = point_in_frame(k, self.plane_body, self.ball, o);
        let a_fo = frame_acceleration(k, self.plane_body, self.ball, &pf);
        out[0] = a_fo.dot(&r.column(2));
        if self.enforce_rolling {
            let (f, b) = (self.plane_body.0, self.ball.0);
            let alpha_fb = (k.alpha(b) - k.alpha(f)) - k.omega(f).cross(&k.omega(b));
            let a_fc = a_fo - alpha_fb.cross(&r.column(2)) * self.radius;
            out[1] = a_fc.dot(&r.column(0));
            out[2] = a_fc.dot(&r.column(1));
        }
    }

    pub(crate) fn add_forces(&self, k: &BodyMotion<T>, lambda: &[T], f: &mut [SpatialVec<T>]) {
        let r = self.plane_in_ground(k).r;
        let mut force = r.column(2) * lambda[0];
        if self.enforce_rolling {
            force += r.column(0) * lambda[1] + r.column(1) * lambda[2];
        }
        let c = self.contact_point(k);
        add_pair(k, f, self.plane_body, self.ball, &c, &force);
    }
}
