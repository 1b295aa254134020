//! Triangle mesh against triangle mesh, for the elastic foundation (Simbody
//! `CollisionDetectionAlgorithm::TriangleMeshTriangleMesh`, then the other mesh's
//! `findNearestPoint` in `ElasticFoundationForce`).
//!
//! 1. Boundary faces: every face of either mesh that overlaps a face of the other
//!    (Guigue–Devillers, [`super::triangle_overlap`]), found by walking both trees together.
//!    None: the meshes do not touch (even if one lies wholly inside the other, as in Simbody).
//! 2. Every other face is inside or outside the other mesh, region by region. A face in no
//!    leaf of its tree that reaches into the other mesh's box is outside at once (a region
//!    inside lies wholly in that box, so the classes are the same). The first
//!    unclassified face casts a ray from its vertex average along its outward normal; it is
//!    inside when the first face hit faces the same way (the ray leaves the other mesh), and
//!    the class floods over edges to every unclassified face reachable without crossing a
//!    boundary face.
//!    (Simbody floods recursively to depth 500 and casts a new ray beyond; the flood here uses
//!    its own stack and has no depth limit, which classifies each region from one ray.)
//! 3. Each boundary or inside face's spring, the vertex average c, if it lies in the other
//!    mesh's box, is tested against the other mesh's nearest point x
//!    ([`super::mesh_queries`]): kept when c is inside, with x as the spring's nearest point.
//!    Faces are visited in ascending order (Simbody's `std::set`).
//!
//! The classification runs on `f64` (real parts); the spring and nearest point carry the
//! scalar type. Reference: Simbody `SimTKmath/Geometry/src/CollisionDetectionAlgorithm.cpp`.

use super::contact_halfspace_mesh::FoundationSpring;
use super::pass_cache::PassCache;
use super::triangle_mesh::TriangleMesh;
use super::triangle_overlap::triangles_overlap;
use crate::math::small::mul3v;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::{Matrix3, Vector3};
use std::cell::RefCell;

/// A frame change of mesh-frame points (`x' = R x + p`), on real parts.
type Carry<'a> = (&'a Matrix3<f64>, &'a Vector3<f64>);

const UNKNOWN: u8 = 0;
const BOUNDARY: u8 = 1;
const INSIDE: u8 = 2;
const OUTSIDE: u8 = 3;

/// Per-thread work space: each mesh's face classes and the flood's stack (reused, so a step
/// allocates nothing once the meshes have been seen).
#[derive(Default)]
struct Scratch {
    classes: [Vec<u8>; 2],
    stack: Vec<u32>,
    /// Mesh 2's tree boxes and vertices in mesh 1's frame, carried once per evaluation.
    boxes: PassCache<[Vector3<f64>; 2]>,
    vertices: PassCache<Vector3<f64>>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Calls `f(false, spring)` for every spring of `mesh1` (frame at `x_g1`) inside `mesh2` (at
/// `x_g2`), then `f(true, spring)` for every spring of `mesh2` inside `mesh1`.
pub fn springs_between_meshes<T: Real>(
    (mesh1, x_g1): (&TriangleMesh, &Transform<T>),
    (mesh2, x_g2): (&TriangleMesh, &Transform<T>),
    mut f: impl FnMut(bool, FoundationSpring<T>),
) {
    let x_12 = &x_g1.inverse() * x_g2;
    let r_12 = x_12.r.map(|v| v.re());
    let p_12 = x_12.p.map(|v| v.re());
    // Mesh 1 in mesh 2's frame: X_21 = X_12⁻¹.
    let r_21 = r_12.transpose();
    let p_21 = -(r_21 * p_12);
    let (x_12, x_21) = ((&r_12, &p_12), (&r_21, &p_21));
    SCRATCH.with(|cell| {
        let scratch = &mut *cell.borrow_mut();
        let [classes1, classes2] = &mut scratch.classes;
        let carried = (&mut scratch.boxes, &mut scratch.vertices);
        if !mark_boundaries(mesh1, mesh2, (x_12, x_21), (classes1, classes2), carried) {
            return;
        }
        classify(mesh1, mesh2, x_21, classes1, &mut scratch.stack);
        classify(mesh2, mesh1, x_12, classes2, &mut scratch.stack);
        springs_inside((mesh1, x_g1, classes1), (mesh2, x_g2), |s| f(false, s));
        springs_inside((mesh2, x_g2, classes2), (mesh1, x_g1), |s| f(true, s));
    });
}

/// Sets both class arrays (outside, or unknown near the other mesh) and marks the faces that
/// overlap a face of the other mesh; whether any does. `x_12` carries mesh 2's frame into
/// mesh 1's, `x_21` the reverse.
fn mark_boundaries(
    mesh1: &TriangleMesh,
    mesh2: &TriangleMesh,
    (x_12, x_21): (Carry<'_>, Carry<'_>),
    (classes1, classes2): (&mut Vec<u8>, &mut Vec<u8>),
    (boxes, vertices): (
        &mut PassCache<[Vector3<f64>; 2]>,
        &mut PassCache<Vector3<f64>>,
    ),
) -> bool {
    // Only faces in leaves that reach into the other mesh's box can be inside it: the rest
    // are outside from the start, and the flood stops at them (step 2).
    for (classes, mesh, other, (r, p)) in [
        (&mut *classes1, mesh1, mesh2, x_12),
        (&mut *classes2, mesh2, mesh1, x_21),
    ] {
        classes.clear();
        classes.resize(mesh.faces().len(), OUTSIDE);
        mesh.bvh()
            .for_each_face_near_tree(other.bvh(), r, p, |face| classes[face] = UNKNOWN);
    }
    let (r_12, p_12) = x_12;
    let corners = |mesh: &TriangleMesh, face: u32| {
        mesh.faces()[face as usize].map(|v| mesh.vertices()[v as usize])
    };
    let mut any = false;
    vertices.start(mesh2.vertices().len());
    mesh1
        .bvh()
        .for_each_leaf_pair(mesh2.bvh(), (r_12, p_12), boxes, |leaf1, leaf2| {
            for &face2 in leaf2 {
                // Simbody tests mesh 2's triangle, carried into mesh 1's frame, first.
                let a = mesh2.faces()[face2 as usize].map(|v| {
                    vertices.get_or(v as usize, || r_12 * mesh2.vertices()[v as usize] + p_12)
                });
                for &face1 in leaf1 {
                    if triangles_overlap(a, corners(mesh1, face1)) {
                        classes1[face1 as usize] = BOUNDARY;
                        classes2[face2 as usize] = BOUNDARY;
                        any = true;
                    }
                }
            }
        });
    any
}

/// Classifies the faces of `mesh` not on the boundary as inside or outside `other`, whose
/// frame sees `mesh`'s at rotation `r_om`, origin `p_om` (module docs, step 2).
fn classify(
    mesh: &TriangleMesh,
    other: &TriangleMesh,
    (r_om, p_om): Carry<'_>,
    classes: &mut [u8],
    stack: &mut Vec<u32>,
) {
    for face in 0..classes.len() {
        if classes[face] != UNKNOWN {
            continue;
        }
        let origin = r_om * mesh.centroids()[face] + p_om;
        let direction = r_om * mesh.normals()[face];
        let leaving = other
            .first_ray_hit(&origin, &direction)
            .is_some_and(|(hit, _)| direction.dot(&other.normals()[hit]) > 0.0);
        let class = if leaving { INSIDE } else { OUTSIDE };
        classes[face] = class;
        stack.clear();
        stack.push(face as u32);
        while let Some(f) = stack.pop() {
            for &next in &mesh.neighbours()[f as usize] {
                if classes[next as usize] == UNKNOWN {
                    classes[next as usize] = class;
                    stack.push(next);
                }
            }
        }
    }
}

/// Calls `f` for each boundary or inside face of `mesh` whose spring lies inside `other`.
fn springs_inside<T: Real>(
    (mesh, x_gm, classes): (&TriangleMesh, &Transform<T>, &[u8]),
    (other, x_go): (&TriangleMesh, &Transform<T>),
    mut f: impl FnMut(FoundationSpring<T>),
) {
    let x_om = &x_go.inverse() * x_gm;
    for (face, &class) in classes.iter().enumerate() {
        if class != BOUNDARY && class != INSIDE {
            continue;
        }
        let c = mesh.centroids()[face].map(T::c);
        let c_o = x_om.apply(&c);
        let c_o_re = c_o.map(|v| v.re());
        // A spring outside the other mesh's box is outside the mesh.
        if !other.bvh().root_box_holds(&c_o_re) {
            continue;
        }
        let nearest = other.nearest_point(&c_o_re);
        if !nearest.inside {
            continue;
        }
        let x_o = other.nearest_point_on_face(nearest.face, &c_o);
        f(FoundationSpring {
            face,
            spring: x_gm.apply(&c),
            nearest: x_go.p + mul3v(&x_go.r, &x_o),
        });
    }
}
