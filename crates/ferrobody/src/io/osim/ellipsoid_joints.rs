//! OpenSim's `EllipsoidJoint` and `ScapulothoracicJoint`, on Simbody's Ellipsoid mobilizer
//! (`mobilizer::ellipsoid`, Euler-angle mode as OpenSim runs it).
//!
//! An `EllipsoidJoint` is one Ellipsoid mobilizer between its parent and child frames, with
//! `radii_x_y_z` (m) and coordinates rx, ry, rz.
//!
//! A `ScapulothoracicJoint` (Seth et al. 2016) builds three mobilized bodies, as its
//! `extendAddToSystem` does:
//!
//! 1. a massless body on an Ellipsoid mobilizer of radii `(r_y, r_x, r_z)` (the thoracic
//!    ellipsoid's, swizzled), with `X_PF` the parent frame's pose in the thorax re-formed
//!    from its body-fixed x-y-z angles with π/2 added to the third
//!    (`R = Rxyz(a₀, a₁, a₂ + π/2)`, `p` kept), and `X_BM = Rxyz(0, 0, π/2)`;
//! 2. a massless body on a Pin about the winging axis: `X_PF = X_BM = W`, with
//!    `W = (R(d, z), (o_x, o_y, 0))`, `d = (−sin θ, cos θ, 0)` for the winging direction θ
//!    and `R(d, z)` Simbody's `Rotation(UnitVec3, ZAxis)` (z along d; x along Simbody's
//!    `UnitVec3::perp`);
//! 3. the child body welded to it (`X_PF = 1`, `X_BM` the child frame's pose in the child).
//!
//! Its four coordinates (abduction, elevation, upward rotation, winging) are the Ellipsoid's
//! three angles and the Pin's angle; the massless bodies are named `JOINT_ellipsoid` and
//! `JOINT_winging` (OpenSim gives them no name). Reference: OpenSim 4.6,
//! `ScapulothoracicJoint.cpp`, `EllipsoidJoint.cpp`; Simbody 3.7 `Rotation.cpp`
//! (`setRotationFromOneAxis`, `convertThreeAxesBodyFixedRotationToThreeAngles`).

use super::document::{Doc, Res};
use super::frames::offset_from;
use crate::math::Transform;
use nalgebra::{Matrix3, Vector3};
use roxmltree::Node;
use std::f64::consts::FRAC_PI_2;

/// What an ellipsoid-based joint adds besides its coordinates.
#[derive(Clone, Debug)]
pub(super) struct EllipsoidJointDef {
    /// The Ellipsoid mobilizer's radii in its F frame (swizzled for a ScapulothoracicJoint).
    pub radii: Vector3<f64>,
    /// A ScapulothoracicJoint's winging axis pose `W` in the massless ellipsoid body.
    pub winging: Option<Transform<f64>>,
}

/// Reads an `EllipsoidJoint`'s radii.
pub(super) fn ellipsoid(doc: &Doc, node: Node) -> Res<EllipsoidJointDef> {
    let radii = positive_radii(doc, node, "radii_x_y_z")?;
    Ok(EllipsoidJointDef {
        radii,
        winging: None,
    })
}

/// Reads a `ScapulothoracicJoint`'s thoracic ellipsoid and winging axis.
pub(super) fn scapulothoracic(doc: &Doc, node: Node) -> Res<EllipsoidJointDef> {
    let r = positive_radii(doc, node, "thoracic_ellipsoid_radii_x_y_z")?;
    let origin = doc.fixed(node, "scapula_winging_axis_origin", [0.0; 2])?;
    let direction = doc.scalar(node, "scapula_winging_axis_direction", 0.0)?;
    Ok(EllipsoidJointDef {
        radii: Vector3::new(r[1], r[0], r[2]),
        winging: Some(Transform {
            r: rotation_with_z_along(&unit(&Vector3::new(-direction.sin(), direction.cos(), 0.0))),
            p: Vector3::new(origin[0], origin[1], 0.0),
        }),
    })
}

/// Radii that OpenSim requires (its default is NaN: a joint that leaves them out fails).
fn positive_radii(doc: &Doc, node: Node, tag: &str) -> Res<Vector3<f64>> {
    let r = doc.fixed(node, tag, [f64::NAN; 3])?;
    if r.iter().any(|x| x.is_nan()) {
        return Err(doc.err(node, format!("<{tag}> is required (three radii, m)")));
    }
    if r.iter().any(|&x| x <= 0.0) {
        let el = super::document::child(node, tag).unwrap_or(node);
        return Err(doc.err(
            el,
            format!(
                "<{tag}>: radii must be positive, got {} {} {}",
                r[0], r[1], r[2]
            ),
        ));
    }
    Ok(Vector3::from(r))
}

/// The Ellipsoid mobilizer's `X_PF` in the parent body from the joint's parent frame pose
/// `x_pf`: re-formed from its body-fixed x-y-z angles with π/2 added to the third.
pub(super) fn scapulothoracic_x_pf(x_pf: &Transform<f64>) -> Transform<f64> {
    let a = crate::math::transform::body_fixed_xyz_angles(&x_pf.r);
    offset_from(&x_pf.p, &[a[0], a[1], a[2] + FRAC_PI_2])
}

/// The massless ellipsoid body's M frame: `Rxyz(0, 0, π/2)`.
pub(super) fn scapulothoracic_x_bm() -> Transform<f64> {
    offset_from(&Vector3::zeros(), &[0.0, 0.0, FRAC_PI_2])
}

/// Simbody's `UnitVec3(v)`: `v / |v|`.
fn unit(v: &Vector3<f64>) -> Vector3<f64> {
    let norm = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    Vector3::new(v[0] / norm, v[1] / norm, v[2] / norm)
}

/// Simbody's `Rotation(d, ZAxis)` (`setRotationFromOneAxis`): z along the unit vector `d`,
/// x along `d.perp()` (d crossed with the coordinate axis it makes the largest angle with,
/// normalized), y along `z × x` normalized.
fn rotation_with_z_along(d: &Vector3<f64>) -> Matrix3<f64> {
    let a = d.abs();
    let min_axis = if a[0] <= a[1] {
        if a[0] <= a[2] {
            0
        } else {
            2
        }
    } else if a[1] <= a[2] {
        1
    } else {
        2
    };
    let x = unit(&d.cross(&Vector3::ith(min_axis, 1.0)));
    let y = unit(&d.cross(&x));
    Matrix3::from_columns(&[x, y, *d])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winging_frame_has_z_along_the_direction_and_is_a_rotation() {
        for theta in [0.0, 0.4, -2.0, FRAC_PI_2] {
            let d = unit(&Vector3::new(-f64::sin(theta), theta.cos(), 0.0));
            let r = rotation_with_z_along(&d);
            assert_eq!(r.column(2).into_owned(), d);
            assert!((r.transpose() * r - Matrix3::identity()).norm() < 1e-15);
            assert!((r.determinant() - 1.0).abs() < 1e-15);
        }
        // θ = 0: d = y, perp along d × x = −z.
        let r = rotation_with_z_along(&Vector3::new(-0.0, 1.0, 0.0));
        assert_eq!(r.column(0).into_owned(), Vector3::new(0.0, 0.0, -1.0));
    }
}
