//! Point and ray queries on a triangle mesh, as Simbody's `ContactGeometry::TriangleMesh`
//! answers them for mesh–mesh contact.
//!
//! * Nearest point of a triangle `(v₁, v₂, v₃)` to a point p: minimise
//!   `|v₁ + s e₀ + t e₁ − p|²` over `s, t ≥ 0, s + t ≤ 1` (`e₀ = v₂ − v₁`, `e₁ = v₃ − v₁`) by
//!   Eberly's seven regions of the (s, t) plane (`findNearestPointToFace`).
//! * Nearest point of the mesh: the nearest over its faces (tree walk); two faces within a
//!   relative 100 ε of each other's squared distance are told apart by the larger
//!   `|(x − p)·n|` (Simbody's tie rule, which picks the face the point lies straight above,
//!   so that at an edge or a corner the side test below uses the right normal). The point is
//!   inside when `(p − x)·n < 0` for the chosen face's outward normal n.
//! * First face hit by the ray `o + t d, t ≥ 0`: per face, `t = n·(v₁ − o) / n·d`, then the
//!   barycentric coordinates of the hit in the axis plane where n is longest.
//!
//! Reference: D. Eberly, "Distance between point and triangle in 3D" (geometrictools.com,
//! 1999); Simbody `SimTKmath/Geometry/src/ContactGeometry_TriangleMesh.cpp`.

use super::triangle_mesh::TriangleMesh;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Relative tolerance under which two squared distances tie (Simbody: `100*Eps`).
const TIE: f64 = 100.0 * f64::EPSILON;

/// The nearest point of a mesh to a query point, in the mesh frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshNearest {
    /// The face it lies on.
    pub face: usize,
    /// The point (m).
    pub point: Vector3<f64>,
    /// Whether the query point is inside the mesh (behind the face).
    pub inside: bool,
}

impl TriangleMesh {
    /// The point of face `face` nearest to `p` (both in the mesh frame).
    pub fn nearest_point_on_face<T: Real>(&self, face: usize, p: &Vector3<T>) -> Vector3<T> {
        let [a, b, c] = self.faces()[face].map(|v| self.vertices()[v as usize].map(T::c));
        nearest_point_on_triangle(p, &a, &b, &c)
    }

    /// The nearest point of the mesh to `p` (mesh frame) and whether `p` is inside.
    pub fn nearest_point(&self, p: &Vector3<f64>) -> MeshNearest {
        let bvh = self.bvh();
        let mut best = (f64::INFINITY, 0usize, Vector3::zeros());
        let box_distance2 = |i: u32| {
            let n = bvh.node(i);
            ((p - n.centre).abs() - n.half)
                .sup(&Vector3::zeros())
                .norm_squared()
        };
        let mut stack = [(0u32, 0.0f64); 64];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let (index, reach2) = stack[top];
            if reach2 > best.0 * (1.0 + TIE) {
                continue;
            }
            match bvh.children_or_faces(bvh.node(index)) {
                Ok(faces) => {
                    for &face in faces {
                        let x = self.nearest_point_on_face(face as usize, p);
                        best = self.nearer(p, best, ((x - p).norm_squared(), face as usize, x));
                    }
                }
                Err([first, second]) => {
                    let (d1, d2) = (box_distance2(first), box_distance2(second));
                    // The nearer child on top, walked first.
                    let (near, far) = if d1 <= d2 {
                        ((first, d1), (second, d2))
                    } else {
                        ((second, d2), (first, d1))
                    };
                    stack[top] = far;
                    stack[top + 1] = near;
                    top += 2;
                }
            }
        }
        let (_, face, point) = best;
        MeshNearest {
            face,
            point,
            inside: (p - point).dot(&self.normals()[face]) < 0.0,
        }
    }

    /// Simbody's choice between two candidate nearest points `(d², face, x)`: the nearer, or
    /// on a tie (relative `TIE`) the one `p` lies more straight above.
    fn nearer(
        &self,
        p: &Vector3<f64>,
        best: (f64, usize, Vector3<f64>),
        candidate: (f64, usize, Vector3<f64>),
    ) -> (f64, usize, Vector3<f64>) {
        let (d2, b2) = (candidate.0, best.0);
        let better = if d2 <= b2 * (1.0 + TIE) && b2 <= d2 * (1.0 + TIE) {
            let straight =
                |(_, f, y): (f64, usize, Vector3<f64>)| (y - p).dot(&self.normals()[f]).abs();
            straight(candidate) > straight(best)
        } else {
            d2 < b2
        };
        if better {
            candidate
        } else {
            best
        }
    }

    /// The first face hit by the ray from `origin` along unit `direction` (mesh frame), with
    /// the distance to the hit, or `None`.
    pub fn first_ray_hit(
        &self,
        origin: &Vector3<f64>,
        direction: &Vector3<f64>,
    ) -> Option<(usize, f64)> {
        let bvh = self.bvh();
        let inv = direction.map(|d| 1.0 / d);
        let mut best: Option<(usize, f64)> = None;
        let mut stack = [0u32; 64];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let node = bvh.node(stack[top]);
            let Some(entry) = ray_enters_box(origin, &inv, &node.centre, &node.half) else {
                continue;
            };
            if best.is_some_and(|(_, t)| entry > t) {
                continue;
            }
            match bvh.children_or_faces(node) {
                Ok(faces) => {
                    for &face in faces {
                        let face = face as usize;
                        if let Some(t) = self.ray_hits_face(face, origin, direction) {
                            if best.is_none_or(|(_, b)| t < b) {
                                best = Some((face, t));
                            }
                        }
                    }
                }
                Err([first, second]) => {
                    stack[top] = second;
                    stack[top + 1] = first;
                    top += 2;
                }
            }
        }
        best
    }

    /// Simbody's ray–face test (module docs): the distance along the ray, or `None`.
    fn ray_hits_face(
        &self,
        face: usize,
        origin: &Vector3<f64>,
        direction: &Vector3<f64>,
    ) -> Option<f64> {
        let n = self.normals()[face];
        let vd = n.dot(direction);
        if vd == 0.0 {
            return None;
        }
        let [v1, v2, v3] = self.faces()[face].map(|v| self.vertices()[v as usize]);
        let t = n.dot(&(v1 - origin)) / vd;
        if t < 0.0 {
            return None;
        }
        let hit = origin + direction * t;
        let a = n.abs();
        let (i, j) = if a.y > a.x {
            if a.z > a.y {
                (0, 1)
            } else {
                (0, 2)
            }
        } else if a.z > a.x {
            (0, 1)
        } else {
            (1, 2)
        };
        let cross = |a: [f64; 2], b: [f64; 2]| a[0] * b[1] - a[1] * b[0];
        let pos = [hit[i] - v1[i], hit[j] - v1[j]];
        let edge1 = [v1[i] - v2[i], v1[j] - v2[j]];
        let edge2 = [v1[i] - v3[i], v1[j] - v3[j]];
        let denom = 1.0 / cross(edge1, edge2);
        let v = cross(edge2.map(|e| e * denom), pos);
        let w = cross(pos, edge1.map(|e| e * denom));
        let u = 1.0 - v - w;
        let unit = |x: f64| (0.0..=1.0).contains(&x);
        (unit(v) && unit(w) && unit(u)).then_some(t)
    }
}

/// Where the ray `o + t d` enters the box (t ≥ 0), by slabs; `inv` = 1/d per axis.
fn ray_enters_box(
    o: &Vector3<f64>,
    inv: &Vector3<f64>,
    centre: &Vector3<f64>,
    half: &Vector3<f64>,
) -> Option<f64> {
    let (mut enter, mut leave) = (0.0f64, f64::INFINITY);
    for k in 0..3 {
        let t1 = (centre[k] - half[k] - o[k]) * inv[k];
        let t2 = (centre[k] + half[k] - o[k]) * inv[k];
        // NaN (origin on a slab plane of a parallel ray) leaves the bounds as they are.
        enter = enter.max(t1.min(t2));
        leave = leave.min(t1.max(t2));
    }
    (enter <= leave).then_some(enter)
}

/// Eberly's nearest point of triangle `(v1, v2, v3)` to `p` (module docs), branch for branch
/// as Simbody's `findNearestPointToFace`; branches are chosen on real parts.
pub fn nearest_point_on_triangle<T: Real>(
    p: &Vector3<T>,
    v1: &Vector3<T>,
    v2: &Vector3<T>,
    v3: &Vector3<T>,
) -> Vector3<T> {
    let (e0, e1, delta) = (v2 - v1, v3 - v1, v1 - p);
    let (a, b, c) = (e0.norm_squared(), e0.dot(&e1), e1.norm_squared());
    let (d, e) = (e0.dot(&delta), e1.dot(&delta));
    let det = a * c - b * b;
    let mut s = b * e - c * d;
    let mut t = b * d - a * e;
    let (one, zero) = (T::one(), T::zero());
    // -x/y clamped to [0, 1] when x < 0 (Simbody's `(-x >= y ? 1 : -x/y)`), else 0.
    let clamp_neg = |x: T, y: T| {
        if x.re() >= 0.0 {
            zero
        } else if (-x).re() >= y.re() {
            one
        } else {
            -x / y
        }
    };
    if (s + t).re() <= det.re() {
        if s.re() < 0.0 {
            if t.re() < 0.0 && d.re() < 0.0 {
                // Region 4, towards edge e0.
                s = if (-d).re() >= a.re() { one } else { -d / a };
                t = zero;
            } else {
                // Regions 4 and 3.
                s = zero;
                t = clamp_neg(e, c);
            }
        } else if t.re() < 0.0 {
            // Region 5.
            s = clamp_neg(d, a);
            t = zero;
        } else {
            // Region 0: inside.
            let inv_det = one / det;
            s *= inv_det;
            t *= inv_det;
        }
    } else if s.re() < 0.0 {
        // Region 2.
        let (tmp0, tmp1) = (b + d, c + e);
        if tmp1.re() > tmp0.re() {
            let (numer, denom) = (tmp1 - tmp0, a - b * T::c(2.0) + c);
            s = if numer.re() >= denom.re() {
                one
            } else {
                numer / denom
            };
            t = one - s;
        } else {
            s = zero;
            t = if tmp1.re() <= 0.0 {
                one
            } else if e.re() >= 0.0 {
                zero
            } else {
                -e / c
            };
        }
    } else if t.re() < 0.0 {
        // Region 6.
        let (tmp0, tmp1) = (b + e, a + d);
        if tmp1.re() > tmp0.re() {
            let (numer, denom) = (tmp1 - tmp0, a - b * T::c(2.0) + c);
            t = if numer.re() >= denom.re() {
                one
            } else {
                numer / denom
            };
            s = one - t;
        } else {
            s = if tmp1.re() <= 0.0 {
                one
            } else if e.re() >= 0.0 {
                zero
            } else {
                -d / a
            };
            t = zero;
        }
    } else {
        // Region 1.
        let numer = c + e - b - d;
        s = if numer.re() <= 0.0 {
            zero
        } else {
            let denom = a - b * T::c(2.0) + c;
            if numer.re() >= denom.re() {
                one
            } else {
                numer / denom
            }
        };
        t = one - s;
    }
    v1 + e0 * s + e1 * t
}
