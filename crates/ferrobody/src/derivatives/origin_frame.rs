//! Spatial algebra at Ground's origin for [`super::rnea_derivatives`]: motions `[ω; v_O]`
//! and forces `[n_O; f]` in Ground, their cross products and their matrices, and a body's
//! spatial inertia about the origin (Featherstone, *Rigid Body Dynamics Algorithms*, 2008,
//! §2.9 and §2.13).

use crate::math::inertia::RigidInertia;
use crate::math::spatial::{cross_matrix, spatial};
use nalgebra::{Matrix6, Vector3, Vector6};

type V3 = Vector3<f64>;
type V6 = Vector6<f64>;
type M6 = Matrix6<f64>;

fn parts(m: &V6) -> (V3, V3) {
    (
        m.fixed_rows::<3>(0).into_owned(),
        m.fixed_rows::<3>(3).into_owned(),
    )
}

/// `a × b` of two motions.
pub(super) fn cross_motion(a: &V6, b: &V6) -> V6 {
    let ((wa, va), (wb, vb)) = (parts(a), parts(b));
    spatial(wa.cross(&wb), wa.cross(&vb) + va.cross(&wb))
}

/// `m ×* f` of a motion and a force.
pub(super) fn cross_force(m: &V6, f: &V6) -> V6 {
    let ((w, v), (n, force)) = (parts(m), parts(f));
    spatial(w.cross(&n) + v.cross(&force), w.cross(&force))
}

/// The matrix of `x ↦ m × x`.
pub(super) fn motion_cross_matrix(m: &V6) -> M6 {
    let (w, v) = parts(m);
    let (wx, vx) = (cross_matrix(&w), cross_matrix(&v));
    let mut out = M6::zeros();
    out.fixed_view_mut::<3, 3>(0, 0).copy_from(&wx);
    out.fixed_view_mut::<3, 3>(3, 3).copy_from(&wx);
    out.fixed_view_mut::<3, 3>(3, 0).copy_from(&vx);
    out
}

/// The matrix of `x ↦ m ×* x`.
pub(super) fn force_cross_matrix(m: &V6) -> M6 {
    let (w, v) = parts(m);
    let (wx, vx) = (cross_matrix(&w), cross_matrix(&v));
    let mut out = M6::zeros();
    out.fixed_view_mut::<3, 3>(0, 0).copy_from(&wx);
    out.fixed_view_mut::<3, 3>(3, 3).copy_from(&wx);
    out.fixed_view_mut::<3, 3>(0, 3).copy_from(&vx);
    out
}

/// Adds the matrix of `x ↦ x ×* h` (x a motion) to `out`.
pub(super) fn add_cross_with_force(out: &mut M6, h: &V6) {
    let (n, f) = parts(h);
    let (nx, fx) = (cross_matrix(&n), cross_matrix(&f));
    let mut block = |r: usize, c: usize, m: &nalgebra::Matrix3<f64>| {
        let mut view = out.fixed_view_mut::<3, 3>(r, c);
        view -= m;
    };
    block(0, 0, &nx);
    block(0, 3, &fx);
    block(3, 0, &fx);
}

/// A body's spatial inertia about Ground's origin, from its inertia about its origin `p`
/// (`I_b`, COM offset c, both in Ground): `I_O = I_b + m [c]×² − m [p + c]×²`,
/// `Y = [[I_O, m [p+c]×], [−m [p+c]×, m 1]]`.
pub(super) fn inertia_at_origin(inertia: &RigidInertia<f64>, p: &V3) -> M6 {
    let m = inertia.mass;
    let c_o = p + inertia.c;
    let (cx, cox) = (cross_matrix(&inertia.c), cross_matrix(&c_o));
    let i_o = inertia.i_b + (cx * cx - cox * cox) * m;
    let mut y = M6::zeros();
    y.fixed_view_mut::<3, 3>(0, 0).copy_from(&i_o);
    y.fixed_view_mut::<3, 3>(0, 3).copy_from(&(cox * m));
    y.fixed_view_mut::<3, 3>(3, 0).copy_from(&(-cox * m));
    y.fixed_view_mut::<3, 3>(3, 3)
        .copy_from(&(nalgebra::Matrix3::identity() * m));
    y
}
