//! Sphere against triangle mesh, for the elastic foundation (Simbody
//! `CollisionDetectionAlgorithm::SphereTriangleMesh`, then the sphere's `findNearestPoint` in
//! `ElasticFoundationForce`).
//!
//! A face is in contact when its spring — the vertex average c — lies in the sphere of centre
//! o and radius r, `|c − o| ≤ r` (Simbody also asks the face's nearest point to be strictly
//! inside, which a spring inside implies except on the surface itself, where the spring has no
//! displacement and no force). The spring's nearest point on the sphere is
//! `o + r (c − o)/|c − o|`; a spring at the very centre has no direction and is skipped.

use super::contact_halfspace_mesh::FoundationSpring;
use super::triangle_mesh::TriangleMesh;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Calls `f` for every spring of `mesh` (frame at `x_gm`) inside the sphere of radius `r`
/// centred at `p_gs`.
pub fn springs_in_sphere<T: Real>(
    mesh: &TriangleMesh,
    x_gm: &Transform<T>,
    p_gs: &Vector3<T>,
    r: T,
    mut f: impl FnMut(FoundationSpring<T>),
) {
    let centre_m = x_gm.r.tr_mul(&(p_gs - x_gm.p));
    let q = centre_m.map(|v| v.re());
    let r2 = r.re() * r.re();
    mesh.bvh().for_each_face_near(&q, r.re(), |face| {
        let c = mesh.centroids()[face].map(T::c);
        let spring = x_gm.apply(&c);
        let d = spring - p_gs;
        let d2 = d.norm_squared();
        if d2.re() > r2 || d2.re() == 0.0 {
            return;
        }
        f(FoundationSpring {
            face,
            spring,
            nearest: p_gs + d * (r / d2.sqrt()),
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::triangle_mesh::tests::box_mesh;

    #[test]
    fn a_ball_pressed_into_a_box_face_reaches_its_springs() {
        // A ball of radius 0.1 centred 0.06 m above the box's top face centre (y = 0.05): both
        // top springs (at x, z = ±1/30 m) lie within 0.1 of the centre, the side springs do not.
        let x_gm = Transform::<f64>::identity();
        let centre = Vector3::new(0.0, 0.11, 0.0);
        let mut found = Vec::new();
        springs_in_sphere(&box_mesh(), &x_gm, &centre, 0.1, |s| found.push(s));
        assert_eq!(found.len(), 2);
        for s in &found {
            assert!(((s.nearest - centre).norm() - 0.1).abs() < 1e-15);
            assert!((s.spring.y - 0.05).abs() < 1e-15);
        }
    }
}
