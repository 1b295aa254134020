//! A URDF link's mass properties and a joint's mobilizer and frame rotation, the pieces
//! `build` assembles a model from (see its table of joints), and the errors they give.

use super::document::{Inertial, Joint, JointKind, UrdfError};
use crate::error::ModelError;
use crate::math::inertia::check_inertia_definite;
use crate::math::{MassProperties, Transform};
use crate::mobilizer::Mobilizer;
use nalgebra::{Matrix3, Rotation3, Vector3};

pub(super) fn err(line: u32, path: String, message: impl Into<ModelError>) -> UrdfError {
    UrdfError {
        line,
        path,
        problem: message.into(),
    }
}

/// A rotation that takes `from` onto `to` (both unit vectors).
pub(super) fn align(from: &Vector3<f64>, to: &Vector3<f64>) -> Matrix3<f64> {
    Rotation3::rotation_between(from, to)
        .unwrap_or_else(|| {
            // Opposite vectors: a half turn about any axis normal to `from`.
            let normal = if from.x.abs() < 0.9 {
                Vector3::x()
            } else {
                Vector3::y()
            };
            let axis = nalgebra::Unit::new_normalize(from.cross(&normal));
            Rotation3::from_axis_angle(&axis, std::f64::consts::PI)
        })
        .into_inner()
}

pub(super) fn mass_properties(
    inertial: Option<&Inertial>,
    line: u32,
    link: &str,
) -> Result<MassProperties<f64>, UrdfError> {
    let Some(i) = inertial else {
        return Ok(MassProperties::new(0.0, Vector3::zeros(), Matrix3::zeros()));
    };
    let path = format!("link '{link}'");
    if !(i.mass >= 0.0 && i.mass < 1e30) {
        return Err(err(
            line,
            path,
            format!("inertial.mass: must be in [0, 1e30), got {}", i.mass),
        ));
    }
    if i.mass == 0.0 && i.inertia.amax() > 0.0 {
        let message = "inertial: mass 0 with a nonzero inertia (a massless link has none)";
        return Err(err(line, path, message));
    }
    // Symmetric positive semi-definite, as Pinocchio requires; the triangle inequality of the
    // principal moments is not asked: real robot files carry point-like and rod-like dummy
    // inertias (ANYmal's base has (3e-6, 0, 0)), harmless once children add theirs.
    check_inertia_definite(&i.inertia)
        .map_err(|m| err(line, path, format!("inertial.inertia: {m}")))?;
    let r = i.x_li.r;
    let inertia = r * i.inertia * r.transpose();
    Ok(MassProperties::new(i.mass, i.x_li.p, inertia))
}

/// The mobilizer and the frame rotation of a joint.
pub(super) fn mobilizer(j: &Joint) -> (Mobilizer, Matrix3<f64>) {
    match j.kind {
        JointKind::Fixed => (Mobilizer::Weld, Matrix3::identity()),
        JointKind::Revolute | JointKind::Continuous => {
            (Mobilizer::Pin, align(&Vector3::z(), &j.axis))
        }
        JointKind::Prismatic => (Mobilizer::Slider, align(&Vector3::x(), &j.axis)),
        JointKind::Planar => (Mobilizer::Planar, align(&Vector3::z(), &j.axis)),
        JointKind::Floating => (Mobilizer::Free, Matrix3::identity()),
    }
}

/// `a` plus `b`, `b` given in a frame placed at `x_ab` in `a`'s frame (masses add, centres
/// of mass average, inertias shift to the joint centre of mass by the parallel-axis rule).
pub(super) fn combine(
    a: &MassProperties<f64>,
    b: &MassProperties<f64>,
    x_ab: &Transform<f64>,
) -> MassProperties<f64> {
    let m = a.mass + b.mass;
    if m <= 0.0 {
        return MassProperties::new(
            0.0,
            Vector3::zeros(),
            a.inertia_com + x_ab.r * b.inertia_com * x_ab.r.transpose(),
        );
    }
    let cb = x_ab.apply(&b.com);
    let com = (a.com * a.mass + cb * b.mass) / m;
    let shift = |mass: f64, d: Vector3<f64>| {
        (Matrix3::identity() * d.norm_squared() - d * d.transpose()) * mass
    };
    let inertia = a.inertia_com
        + shift(a.mass, a.com - com)
        + x_ab.r * b.inertia_com * x_ab.r.transpose()
        + shift(b.mass, cb - com);
    MassProperties::new(m, com, inertia)
}
