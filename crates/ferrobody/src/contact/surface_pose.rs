//! Surface poses in Ground, `x_gs = x_gb · x_bs`, formed as cheaply as each surface allows
//! (Simbody's `ContactSurface` frame composed with its body's pose; notes §3.1).

use crate::geometry::{ContactSurface, Shape};
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Matrix3;

/// How [`surface_pose`] forms a surface's pose: the surface frame itself for surfaces on
/// Ground (whose pose is the identity, so the product is `x_bs` exactly, derivative parts
/// included); only the centre moved for spheres placed without rotation (a sphere's
/// orientation is never read by the pair routines, so deciding this on real parts cannot
/// change a result, not even a dual-number derivative); the full product otherwise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum SurfacePoseKind {
    /// On Ground: `x_gs = x_bs`.
    OnGround,
    /// A sphere placed without rotation: the body's rotation, the centre moved.
    UnrotatedSphere,
    /// The full product.
    General,
}

impl SurfacePoseKind {
    /// The kind of surface `s`.
    pub(super) fn of<T: Real>(s: &ContactSurface<T>) -> Self {
        if s.body.0 == 0 {
            Self::OnGround
        } else if matches!(s.shape, Shape::Sphere { .. }) && s.x_bs.r == Matrix3::identity() {
            Self::UnrotatedSphere
        } else {
            Self::General
        }
    }
}

/// `x_gs = x_gb · x_bs`, skipping the rotation product where it is not needed
/// ([`SurfacePoseKind`]).
#[inline(always)]
pub(super) fn surface_pose<T: Real>(
    x_gb: &Transform<T>,
    s: &ContactSurface<T>,
    kind: SurfacePoseKind,
) -> Transform<T> {
    match kind {
        SurfacePoseKind::OnGround => s.x_bs,
        SurfacePoseKind::UnrotatedSphere => Transform {
            r: x_gb.r,
            p: x_gb.apply(&s.x_bs.p),
        },
        SurfacePoseKind::General => x_gb * &s.x_bs,
    }
}
