//! Half space against triangle mesh, for the elastic foundation (Simbody
//! `CollisionDetectionAlgorithm::HalfSpaceTriangleMesh`, then the half space's
//! `findNearestPoint` in `ElasticFoundationForce`).
//!
//! With `X_HM` the mesh frame in the half space's frame H, a face is in contact when one of its
//! vertices lies in the solid (`x_H > 0`, Simbody's OBB-tree walk; here the BVH of
//! [`super::mesh_bvh`]) and its spring — the face's vertex average c — does too
//! (`x_H(c) ≥ 0`). The spring's nearest point on the surface is its projection
//! `X_GH (0, y_H, z_H)`.

use super::triangle_mesh::TriangleMesh;
use crate::math::small::mul3v;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;

/// One spring of an elastic foundation in contact: the face, the spring's point and its
/// nearest point on the other surface, both in Ground (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FoundationSpring<T: Real> {
    /// Face index in the mesh.
    pub face: usize,
    /// The spring's point (the face's vertex average) in Ground.
    pub spring: Vector3<T>,
    /// The nearest point on the other surface, in Ground.
    pub nearest: Vector3<T>,
}

/// Calls `f` for every spring of `mesh` (frame at `x_gm`) inside the half space at `x_gh`.
pub fn springs_in_half_space<T: Real>(
    mesh: &TriangleMesh,
    x_gm: &Transform<T>,
    x_gh: &Transform<T>,
    mut f: impl FnMut(FoundationSpring<T>),
) {
    let x_hm = &x_gh.inverse() * x_gm;
    // x_H of a mesh point p: a·p + b, with a the first row of R_HM.
    let a = Vector3::new(
        x_hm.r[(0, 0)].re(),
        x_hm.r[(0, 1)].re(),
        x_hm.r[(0, 2)].re(),
    );
    let b = x_hm.p.x.re();
    let vertices = mesh.vertices();
    mesh.bvh().for_each_face_in_half_space(&a, b, |face| {
        let any_inside = mesh.faces()[face]
            .iter()
            .any(|&v| a.dot(&vertices[v as usize]) + b > 0.0);
        if !any_inside {
            return;
        }
        let c = mesh.centroids()[face].map(T::c);
        let c_h = x_hm.apply(&c);
        if c_h.x.re() < 0.0 {
            return;
        }
        let nearest_h = Vector3::new(T::zero(), c_h.y, c_h.z);
        f(FoundationSpring {
            face,
            spring: x_gm.apply(&c),
            nearest: x_gh.p + mul3v(&x_gh.r, &nearest_h),
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::triangle_mesh::tests::box_mesh;

    #[test]
    fn the_bottom_springs_of_a_sunk_box() {
        // The 0.2 x 0.1 x 0.2 box 1 mm into the floor (solid y < 0): the two bottom faces'
        // springs, 1 mm deep, and nothing else; the same with brute force over all faces.
        let x_gh = Transform::<f64>::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2);
        let x_gm = Transform::from_translation(Vector3::new(0.3, 0.049, 0.0));
        let mut found = Vec::new();
        springs_in_half_space(&box_mesh(), &x_gm, &x_gh, |s| found.push(s));
        assert_eq!(found.len(), 2);
        for s in &found {
            assert!((s.spring.y + 0.001).abs() < 1e-15 && s.nearest.y.abs() < 1e-15);
            assert!((s.spring.x - s.nearest.x).abs() < 1e-15);
        }
    }
}
