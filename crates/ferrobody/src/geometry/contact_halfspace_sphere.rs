//! Half space against sphere (Simbody `CollisionDetectionAlgorithm::HalfSpaceSphere`, notes §3.1).
//!
//! With `c` the sphere centre in the half-space frame H: `depth = r + c.x`; the normal is
//! `R_GH (−1, 0, 0)` (from the half space toward the sphere); the midway point is
//! `X_GH (depth/2, c.y, c.z)`; the effective radius is r (the plane is flat). The half space is
//! always surface 1.

use super::PointContact;
use crate::math::small::mul3v;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Contact of the half space at `x_gh` with a sphere of radius `r` whose centre frame is at
/// `x_gs`; `None` when they do not overlap.
#[inline]
pub fn contact_halfspace_sphere<T: Real>(
    x_gh: &Transform<T>,
    x_gs: &Transform<T>,
    r: T,
) -> Option<PointContact<T>> {
    let rel = x_gs.p - x_gh.p;
    // Sphere centre in H: c = R_GHᵀ (p_S − p_H).
    let c = x_gh.r.tr_mul(&rel);
    let c = Vector3::new(c[0], c[1], c[2]);
    let depth = r + c.x;
    if depth.re() <= 0.0 {
        return None;
    }
    let normal = -x_gh.r.column(0).into_owned();
    let half = T::c(0.5);
    let location = x_gh.p + mul3v(&x_gh.r, &Vector3::new(depth * half, c.y, c.z));
    Some(PointContact {
        depth,
        normal,
        location,
        radius: r,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ground_convention() {
        // Ground half space: frame rotated −90° about z, so the solid is y < 0.
        let x_gh = Transform::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2);
        let x_gs = Transform::from_translation(Vector3::new(0.3, 0.09, -0.2));
        let c = contact_halfspace_sphere(&x_gh, &x_gs, 0.1).unwrap();
        assert!((c.depth - 0.01).abs() < 1e-15);
        assert!((c.normal - Vector3::y()).norm() < 1e-15);
        assert!((c.location - Vector3::new(0.3, -0.005, -0.2)).norm() < 1e-15);
        let above = Transform::from_translation(Vector3::new(0.0, 0.2, 0.0));
        assert!(contact_halfspace_sphere(&x_gh, &above, 0.1).is_none());
    }
}
