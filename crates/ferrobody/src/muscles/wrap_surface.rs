//! A wrapped path drawn over its wrap objects (OpenSim's `WrapResult::wrap_pts`, which the
//! OpenSim GUI draws): between a wrap's two tangent points r₁, r₂ (in the object's frame W),
//!
//! * cylinder — the helix of `_make_spiral_path`: r₁ turned about z by θ·s, raised by a·s
//!   (s from 0 to 1, a the axial rise), θ the signed angle from r₁ to r₂, or −(2π − θ) on
//!   the far side (OpenSim's `far_side_wrap`); which one is read from the wrap's length,
//!   `√((R θ)² + a²)`;
//! * sphere — the great-circle arc from r₁ to r₂, the long way round when OpenSim's length is
//!   negative (its far-side wrap);
//! * torus — the helix of the cylinder that stands for its tube at the ring's point nearest
//!   the segment (found again from the segment's ends, deterministically);
//! * ellipsoid — the section by the wrapping plane (through the segment's ends and r₁), as
//!   `CalcDistanceOnEllipsoid` samples it, the near or far way round as the length says.
//!
//! For drawing only (it allocates); lengths, speeds and forces never read it.

use super::path::GeometryPath;
use super::path_wrap::{WrapObject, WrapShape};
use super::wrap_ellipsoid::WrapEllipsoid;
use super::wrap_ellipsoid_path::section;
use crate::forces::ForceContext;
use nalgebra::{Rotation3, Unit, Vector3};
use std::f64::consts::PI;

/// Points drawn inside each wrapped stretch.
const SAMPLES: usize = 24;

impl GeometryPath {
    /// The current path's points in Ground (m), each wrapped stretch drawn over its object's
    /// surface (see the module documentation).
    pub fn drawn_points_in_ground(&self, ctx: &ForceContext<'_, f64>) -> Vec<Vector3<f64>> {
        if self.wraps.is_empty() {
            return self.points_in_ground(ctx);
        }
        let path = self.current_path(ctx);
        let mut out = Vec::with_capacity(path.len() + SAMPLES);
        for (i, node) in path.iter().enumerate() {
            out.push(node.p_g);
            let Some(next) = path.get(i + 1) else {
                continue;
            };
            let (Some((k, _)), Some((k2, length))) = (node.wrap, next.wrap) else {
                continue;
            };
            if k != k2 || !next.is_second_tangent_point || i == 0 || i + 2 >= path.len() {
                continue;
            }
            let ends = (path[i - 1].p_g, path[i + 2].p_g);
            let object = &self.wraps[k].object;
            out.extend(surface_in_ground(
                ctx, object, node.p_g, next.p_g, length, ends,
            ));
        }
        out
    }
}

/// The samples strictly between tangent points `a` and `b` (Ground), the wrap's length
/// `length`, the wrapped segment's ends `ends` (Ground).
fn surface_in_ground(
    ctx: &ForceContext<'_, f64>,
    object: &WrapObject,
    a: Vector3<f64>,
    b: Vector3<f64>,
    length: f64,
    ends: (Vector3<f64>, Vector3<f64>),
) -> Vec<Vector3<f64>> {
    let x_gb = ctx.x_gb(object.body);
    let r_gw = x_gb.r * object.x_bw.r;
    let p_gw = x_gb.p + x_gb.r * object.x_bw.p;
    let to_w = |p: Vector3<f64>| r_gw.transpose() * (p - p_gw);
    let (r1, r2) = (to_w(a), to_w(b));
    let samples: Vec<Vector3<f64>> = match &object.shape {
        WrapShape::Cylinder(c) => helix(&r1, &r2, c.radius, length),
        WrapShape::Sphere(_) => arc(&r1, &r2, length),
        WrapShape::Torus(t) => {
            let (p1, p2) = (to_w(ends.0), to_w(ends.1));
            match t.cylinder_frame(&p1, &p2, object.quadrant) {
                Some(frame) => helix(
                    &frame.cylinder_point(&r1),
                    &frame.cylinder_point(&r2),
                    t.inner_radius,
                    length,
                )
                .into_iter()
                .map(|s| frame.torus_point(&s))
                .collect(),
                None => Vec::new(),
            }
        }
        WrapShape::Ellipsoid(e) => {
            ellipsoid_section(e, &r1, &r2, length, &to_w(ends.0), &to_w(ends.1))
        }
    };
    samples.into_iter().map(|s| p_gw + r_gw * s).collect()
}

/// The helix about z from r₁ to r₂ on a cylinder of radius `radius`, the side chosen by
/// `length`; the samples between the ends.
pub(super) fn helix(
    r1: &Vector3<f64>,
    r2: &Vector3<f64>,
    radius: f64,
    length: f64,
) -> Vec<Vector3<f64>> {
    let (u, v) = (
        Vector3::new(r1[0], r1[1], 0.0),
        Vector3::new(r2[0], r2[1], 0.0),
    );
    let near = u.cross(&v)[2].atan2(u.dot(&v));
    let axial = r2[2] - r1[2];
    let turned = (length * length - axial * axial).max(0.0).sqrt() / radius;
    let far = -(2.0 * PI - near);
    let angle = if (near.abs() - turned).abs() <= (far.abs() - turned).abs() {
        near
    } else {
        far
    };
    (1..SAMPLES)
        .map(|k| {
            let s = k as f64 / SAMPLES as f64;
            Rotation3::from_axis_angle(&Vector3::z_axis(), angle * s) * r1
                + Vector3::new(0.0, 0.0, axial * s)
        })
        .collect()
}

/// The great-circle arc from r₁ to r₂ about the centre, the long way round for a negative
/// `length`; the samples between the ends.
pub(super) fn arc(r1: &Vector3<f64>, r2: &Vector3<f64>, length: f64) -> Vec<Vector3<f64>> {
    let Some(axis) = Unit::try_new(r1.cross(r2), 1e-12) else {
        return Vec::new();
    };
    let between = (r1.dot(r2) / (r1.norm() * r2.norm()))
        .clamp(-1.0, 1.0)
        .acos();
    let angle = if length >= 0.0 {
        between
    } else {
        -(2.0 * PI - between)
    };
    (1..SAMPLES)
        .map(|k| Rotation3::from_axis_angle(&axis, angle * k as f64 / SAMPLES as f64) * r1)
        .collect()
}

/// The ellipsoid's section from r₁ to r₂ in the plane through the segment's ends `p1`, `p2`
/// and r₁ (all in W), in OpenSim's scaled frame, the way round whose length is `length`.
fn ellipsoid_section(
    e: &WrapEllipsoid,
    r1: &Vector3<f64>,
    r2: &Vector3<f64>,
    length: f64,
    p1: &Vector3<f64>,
    p2: &Vector3<f64>,
) -> Vec<Vector3<f64>> {
    let factor = 3.0 / e.dimensions.iter().sum::<f64>();
    let (r1, r2, p1, p2) = (r1 * factor, r2 * factor, p1 * factor, p2 * factor);
    let m = Vector3::zeros();
    let a = Vector3::from(e.dimensions) * factor;
    let Some(vs) = Unit::try_new((p1 - p2).cross(&(p1 - r1)), 1e-12) else {
        return Vec::new();
    };
    let vs4 = -vs.dot(&r1);
    let way = |far: bool| section(&r1, &r2, &m, &a, &vs, vs4, far, factor, &mut |_| {}) / factor;
    let far = (way(true) - length).abs() < (way(false) - length).abs();
    let mut points = Vec::new();
    section(&r1, &r2, &m, &a, &vs, vs4, far, factor, &mut |p| {
        points.push(p / factor)
    });
    points
}
