//! Sphere against sphere (Simbody `CollisionDetectionAlgorithm::SphereSphere`, notes §3.1).
//!
//! With centres `c1`, `c2` and `d = |c2 − c1|`: `depth = r1 + r2 − d`, `normal = (c2 − c1)/d`,
//! midway point `c1 + (r1 − depth/2) normal`, effective radius `r1 r2/(r1 + r2)`. Coincident
//! centres have no normal and give no contact.

use super::PointContact;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Contact of sphere 1 (centre `c1`, radius `r1`) with sphere 2; `None` when separated.
#[inline]
pub fn contact_sphere_sphere<T: Real>(
    c1: &Vector3<T>,
    r1: T,
    c2: &Vector3<T>,
    r2: T,
) -> Option<PointContact<T>> {
    let d12 = c2 - c1;
    let reach = (r1 + r2).re();
    let d2 = d12.norm_squared();
    if d2.re() >= reach * reach || d2.re() == 0.0 {
        return None;
    }
    let d = d2.sqrt();
    let depth = r1 + r2 - d;
    let normal = d12 / d;
    let location = c1 + normal * (r1 - depth * T::c(0.5));
    Some(PointContact {
        depth,
        normal,
        location,
        radius: r1 * r2 / (r1 + r2),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_spheres() {
        let c = contact_sphere_sphere(
            &Vector3::<f64>::zeros(),
            0.1,
            &Vector3::new(0.15, 0.0, 0.0),
            0.1,
        )
        .unwrap();
        assert!((c.depth - 0.05).abs() < 1e-15);
        assert_eq!(c.normal, Vector3::x());
        assert!((c.location - Vector3::new(0.075, 0.0, 0.0)).norm() < 1e-15);
        assert!((c.radius - 0.05).abs() < 1e-15);
        assert!(
            contact_sphere_sphere(&Vector3::zeros(), 0.1, &Vector3::new(0.3, 0.0, 0.0), 0.1)
                .is_none()
        );
        assert!(contact_sphere_sphere(&Vector3::zeros(), 0.1, &Vector3::zeros(), 0.1).is_none());
    }
}
