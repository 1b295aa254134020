//! Planar subtrees: bodies that can only move in one plane, so that forward dynamics can run on
//! 3×3 instead of 6×6 articulated inertias.
//!
//! A subtree hanging off Ground is *planar about* a Ground direction `n` when every hinge column
//! of every body in it lies, for every q, in the three-dimensional subspace
//!
//! ```text
//! S = span{ [n; 0], [0; e1], [0; e2] }      (rotation about n, translation in the plane ⊥ n)
//! ```
//!
//! where `(e1, e2, n)` is a right-handed orthonormal basis. That holds for Pins and Planars whose
//! F z axis is parallel to `n`, for Sliders whose axis is perpendicular to `n`, for Welds, and
//! for function-based mobilizers (OpenSim's CustomJoint) whose rotations that turn are about `n`
//! and whose translations that follow a coordinate are perpendicular to it, as long as each F
//! frame keeps its axis parallel to `n` whatever the q of the bodies above (checked with the
//! axis carried down the tree in each body's frame). The root of the subtree must be a Pin or a
//! Planar, whose F z axis in Ground defines `n`, or such a function-based mobilizer, whose
//! turning axis does (the pelvis of OpenSim's 2D gait models). Every body velocity of such a subtree
//! lies in S, and S is closed under the spatial shift `Φ` (a rotation about `n` moves points
//! perpendicular to `n`), so the articulated-body recursion closes on the reduced quantities
//! `Sᵀ P S` (3×3), `Sᵀ z` and `Sᵀ h` — exactly, not as an approximation: the forces and
//! moments out of the plane do work on no motion of the subtree (Featherstone 2008, §4.5 on
//! planar subspaces; Jain 2011, §7 for the Ground-frame recursion). Reduced motion vectors are
//! `[ω·n, v·e1, v·e2]`, reduced forces `[m·n, f·e1, f·e2]`.
//!
//! The axes are compared with a tolerance of [`PLANAR_AXIS_TOLERANCE`] (sine of the angle): a
//! mechanism built with rotations such as `−π/2` about x has axes off by ~1e-16, and their
//! out-of-plane coupling is of the same order, far below any integrator accuracy.

use super::Body;
use crate::ids::BodyId;
use crate::math::inertia::RigidInertia;
use crate::math::small::mul3v;
use crate::math::{angular, linear, spatial, SpatialVec};
use crate::mobilizer::Mobilizer;
use crate::scalar::Real;
use nalgebra::{Matrix3, Vector3};

/// Largest sine of the angle between two axes that still counts them as parallel (or a slider
/// axis as perpendicular to the plane normal).
pub const PLANAR_AXIS_TOLERANCE: f64 = 1e-12;

/// The basis `(e1, e2, n)` of a planar subtree, in Ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaneBasis<T: Real> {
    /// In-plane unit vector.
    pub e1: Vector3<T>,
    /// In-plane unit vector, `n × e1`.
    pub e2: Vector3<T>,
    /// Unit normal of the plane of motion (the common rotation axis).
    pub n: Vector3<T>,
    /// Whether the basis is Ground's `(x, y, z)`: then reducing picks components instead of
    /// forming dot products with unit axes (same values; the derivative parts of a dual-valued
    /// `n` that is `z` in value are taken as zero, like the other cached frame flags).
    pub ground_xy: bool,
}

impl<T: Real> PlaneBasis<T> {
    /// A right-handed basis with normal `n` (unit). `e1` is the Ground axis least aligned with
    /// `n`, made perpendicular to it; for `n = ±z` it is exactly x.
    pub fn from_normal(n: Vector3<T>) -> Self {
        let k = (0..3)
            .min_by(|&a, &b| n[a].re().abs().total_cmp(&n[b].re().abs()))
            .unwrap_or(0);
        let mut a = Vector3::zeros();
        a[k] = T::one();
        let e1 = (a - n * n[k]).normalize();
        let ground_xy = n.iter().map(|x| x.re()).eq([0.0, 0.0, 1.0]);
        Self {
            e1,
            e2: n.cross(&e1),
            n,
            ground_xy,
        }
    }

    /// Reduced motion (or force) vector: `[ω·n, v·e1, v·e2]` of `[ω; v]`.
    #[inline(always)]
    pub fn reduce(&self, s: &SpatialVec<T>) -> Vector3<T> {
        if self.ground_xy {
            return Vector3::new(s[2], s[3], s[4]);
        }
        let (w, v) = (angular(s), linear(s));
        Vector3::new(w.dot(&self.n), v.dot(&self.e1), v.dot(&self.e2))
    }

    /// The spatial vector `[a₀ n; a₁ e1 + a₂ e2]` of a reduced one.
    #[inline(always)]
    pub fn lift(&self, a: &Vector3<T>) -> SpatialVec<T> {
        if self.ground_xy {
            let o = T::zero();
            return SpatialVec::new(o, o, a[0], a[1], a[2], o);
        }
        spatial(self.n * a[0], self.e1 * a[1] + self.e2 * a[2])
    }

    /// In-plane components `(r·e1, r·e2)` of a vector.
    #[inline(always)]
    pub fn in_plane(&self, r: &Vector3<T>) -> (T, T) {
        if self.ground_xy {
            return (r.x, r.y);
        }
        (r.dot(&self.e1), r.dot(&self.e2))
    }

    /// `nᵀ I n` of a symmetric 3×3 matrix.
    #[inline(always)]
    fn along_normal(&self, i: &Matrix3<T>) -> T {
        if self.ground_xy {
            return i[(2, 2)];
        }
        self.n.dot(&mul3v(i, &self.n))
    }

    /// Reduced spatial inertia `Sᵀ M S` about the body origin:
    /// `[[I_nn, −m c₂, m c₁], [−m c₂, m, 0], [m c₁, 0, m]]` with `I_nn = nᵀ I_B n` and the
    /// COM offset's in-plane components `c₁, c₂`.
    #[inline(always)]
    pub fn reduce_inertia(&self, inertia: &RigidInertia<T>) -> Matrix3<T> {
        let m = inertia.mass;
        let i_nn = self.along_normal(&inertia.i_b);
        let (c1, c2) = self.in_plane(&inertia.c);
        let (mc1, mc2) = (m * c1, m * c2);
        let o = T::zero();
        Matrix3::new(i_nn, -mc2, mc1, -mc2, m, o, mc1, o, m)
    }
}

/// Sets `plane` on every body of a planar subtree of Ground (module docs) and clears it on the
/// others. Bodies are in tree order (parents first).
pub(crate) fn mark_planar_subtrees<T: Real>(bodies: &mut [Body<T>]) {
    let nb = bodies.len();
    // The subtree's normal in each body's frame (f64: only the structure is decided here).
    let mut n_b: Vec<Option<Vector3<f64>>> = vec![None; nb];
    let mut root = vec![0usize; nb];
    let mut planar_root = vec![true; nb];
    // A root's normal in its F frame.
    let mut root_n_f: Vec<Option<Vector3<f64>>> = vec![None; nb];
    for i in 1..nb {
        let body = &bodies[i];
        let p = body.parent.0;
        root[i] = if p == 0 { i } else { root[p] };
        let n_f = if body.parent == BodyId::GROUND {
            root_n_f[i] = root_normal(body);
            root_n_f[i]
        } else {
            n_b[p].map(|n_p| re_matrix(&body.x_pf.r).tr_mul(&n_p))
        };
        n_b[i] = n_f
            .filter(|n_f| keeps_plane(body, n_f))
            .map(|n_m| re_matrix(&body.x_bm.r) * n_m);
        if n_b[i].is_none() {
            planar_root[root[i]] = false;
        }
    }
    for i in 1..nb {
        let r = root[i];
        bodies[i].plane = planar_root[r].then_some(root_n_f[r]).flatten().map(|n_f| {
            let r_gf = &bodies[r].x_pf.r;
            let n: Vector3<T> = if n_f == Vector3::z() {
                r_gf.column(2).into_owned()
            } else {
                (r_gf * n_f.map(T::c)).normalize()
            };
            PlaneBasis::from_normal(n)
        });
        let body = &bodies[i];
        let p = body.parent.0;
        bodies[i].planar_xy_pin = body.plane.is_some_and(|plane| plane.ground_xy)
            && body.hinge_is_pure_rotation_at_origin()
            && keeps_z_exactly(&body.x_pf.r)
            && (p == 0 || bodies[p].planar_xy_pin || planar_xy_root(&bodies[p]));
    }
}

/// A Planar body on Ground in Ground's xy plane whose frames keep z exactly: its rotation keeps
/// z with exact zeros and ones, its angular velocity is `(0, 0, ω)` and its velocity has no z
/// component, exactly (the general path multiplies by exact zeros), which is all that a child
/// on the planar-xy Pin path reads from its parent. OpenSim's planar models (a pelvis on a
/// PlanarJoint, Pins below) start so.
fn planar_xy_root<T: Real>(b: &Body<T>) -> bool {
    b.mobilizer == Mobilizer::Planar
        && b.parent == BodyId::GROUND
        && b.plane.is_some_and(|plane| plane.ground_xy)
        && keeps_z_exactly(&b.x_pf.r)
        && keeps_z_exactly(&b.x_bm.r)
}

/// Whether a rotation keeps z exactly: its third row and column are `(0, 0, 1)`, so products
/// of such rotations keep exact zeros there.
pub(crate) fn keeps_z_exactly<T: Real>(r: &Matrix3<T>) -> bool {
    [(0, 2), (1, 2), (2, 0), (2, 1)]
        .iter()
        .all(|&ij| r[ij].re() == 0.0)
        && r[(2, 2)].re() == 1.0
}

/// The plane normal, in F, that a body on Ground starts a planar subtree with: z for a Pin or
/// a Planar, the turning axis of a planar function-based mobilizer (an OpenSim CustomJoint
/// such as a 2D model's pelvis: tilt about z, translations along x and y).
fn root_normal<T: Real>(body: &Body<T>) -> Option<Vector3<f64>> {
    match body.mobilizer {
        Mobilizer::Pin | Mobilizer::Planar => Some(Vector3::z()),
        Mobilizer::FunctionBased(_) => body
            .spatial_transform
            .as_deref()?
            .plane_normal(PLANAR_AXIS_TOLERANCE),
        _ => None,
    }
}

/// Whether a body's mobilizer, whose F frame sees the plane normal as `n_f`, keeps motion in
/// the plane: its rotation axis (z for Pin and Planar, each turning axis of a function-based
/// one) along `n_f`, its translations perpendicular to it.
fn keeps_plane<T: Real>(body: &Body<T>, n_f: &Vector3<f64>) -> bool {
    let tol = PLANAR_AXIS_TOLERANCE;
    match body.mobilizer {
        Mobilizer::Weld => true,
        Mobilizer::Pin | Mobilizer::Planar => n_f.x.abs() <= tol && n_f.y.abs() <= tol,
        Mobilizer::Slider => n_f.x.abs() <= tol,
        Mobilizer::FunctionBased(_) => body
            .spatial_transform
            .as_deref()
            .is_some_and(|t| t.keeps_plane(n_f, tol)),
        _ => false,
    }
}

fn re_matrix<T: Real>(m: &Matrix3<T>) -> Matrix3<f64> {
    m.map(|x| x.re())
}
