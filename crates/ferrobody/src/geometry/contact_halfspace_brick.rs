//! Half space against brick (Simbody `ContactTracker::HalfSpaceBrick`, then the face choice of
//! its `BrickHalfSpacePenalty` generator).
//!
//! The brick's vertex deepest in the half space is the support vertex in the direction into
//! the solid (`x_H` expressed in the brick frame B: each coordinate ±h_k by that direction's
//! sign); its depth is its `x_H` coordinate, a contact when positive. Of the three faces meeting
//! at it, the one whose outward normal is most nearly opposite the half space's outward normal
//! n is the contact face; its four vertices, each with its own depth `x_i = x_H(v_i)`, are where
//! the penalty springs act (those with `x_i > 0`). Reference: Simbody
//! `SimTKmath/Geometry/src/ContactTracker.cpp`, `Simbody/src/CompliantContactSubsystem.cpp`.

use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;

/// The contact face of a brick in a half space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BrickFace<T: Real> {
    /// The half space's outward normal in Ground (from the half space toward the brick).
    pub normal: Vector3<T>,
    /// The face's four vertices in Ground.
    pub vertices: [Vector3<T>; 4],
    /// Each vertex's depth in the half space (m, positive inside).
    pub depths: [T; 4],
    /// The deepest vertex's depth (m, positive).
    pub depth: T,
}

/// The contact face of the brick of half lengths `half` at `x_gb` with the half space at
/// `x_gh`, or `None` when no vertex is inside.
pub fn contact_halfspace_brick<T: Real>(
    x_gh: &Transform<T>,
    x_gb: &Transform<T>,
    half: &[f64; 3],
) -> Option<BrickFace<T>> {
    let into = x_gh.r.column(0).into_owned(); // x_H in Ground: into the solid
    let into_b = x_gb.r.tr_mul(&into);
    let sign = |k: usize| if into_b[k].re() >= 0.0 { 1.0 } else { -1.0 };
    let signs = [sign(0), sign(1), sign(2)];
    let vertex = |s: [f64; 3]| {
        let v_b = Vector3::new(
            T::c(s[0] * half[0]),
            T::c(s[1] * half[1]),
            T::c(s[2] * half[2]),
        );
        x_gb.apply(&v_b)
    };
    let depth_of = |p: &Vector3<T>| (p - x_gh.p).dot(&into);
    let lowest = vertex(signs);
    let depth = depth_of(&lowest);
    if depth.re() <= 0.0 {
        return None;
    }
    // Face k (normal s_k e_k in B): cos with n = −x_H is −s_k (x_H · R_GB e_k) = −|into_b[k]|.
    let mut face = 0;
    for k in 1..3 {
        if into_b[k].re().abs() > into_b[face].re().abs() {
            face = k;
        }
    }
    let (a, b) = ((face + 1) % 3, (face + 2) % 3);
    let mut vertices = [lowest; 4];
    let mut depths = [depth; 4];
    for (i, (sa, sb)) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .iter()
        .enumerate()
    {
        let mut s = signs;
        s[a] = *sa;
        s[b] = *sb;
        vertices[i] = vertex(s);
        depths[i] = depth_of(&vertices[i]);
    }
    Some(BrickFace {
        normal: -into,
        vertices,
        depths,
        depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_brick_touches_with_its_bottom_face() {
        // Half lengths (0.1, 0.05, 0.2), 1 mm into the floor (solid y < 0), turned 0.1 rad
        // about y: the bottom face's four corners, all 1 mm deep.
        let x_gh = Transform::<f64>::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2);
        let mut x_gb = Transform::from_axis_angle(Vector3::y(), 0.1);
        x_gb.p = Vector3::new(0.3, 0.049, -0.2);
        let f = contact_halfspace_brick(&x_gh, &x_gb, &[0.1, 0.05, 0.2]).unwrap();
        assert!((f.depth - 0.001).abs() < 1e-15);
        assert!((f.normal - Vector3::y()).norm() < 1e-15);
        for (v, d) in f.vertices.iter().zip(f.depths) {
            assert!((v.y + 0.001).abs() < 1e-15 && (d - 0.001).abs() < 1e-15);
        }
        x_gb.p.y = 0.051;
        assert!(contact_halfspace_brick(&x_gh, &x_gb, &[0.1, 0.05, 0.2]).is_none());
    }

    #[test]
    fn a_tilted_brick_touches_with_the_face_most_facing_the_floor() {
        // Tilted 0.3 rad about z: the lowest corner is in, the bottom face (normal −y) is still
        // the one most opposite the floor normal, one edge in and one out.
        let x_gh = Transform::<f64>::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2);
        let mut x_gb = Transform::from_axis_angle(Vector3::z(), 0.3);
        x_gb.p = Vector3::new(0.0, 0.07, 0.0);
        let f = contact_halfspace_brick(&x_gh, &x_gb, &[0.1, 0.05, 0.2]).unwrap();
        let inside = f.depths.iter().filter(|d| **d > 0.0).count();
        assert_eq!(inside, 2);
        let lowest = f.vertices.iter().map(|v| v.y).fold(f64::INFINITY, f64::min);
        assert!((f.depth + lowest).abs() < 1e-15);
    }
}
