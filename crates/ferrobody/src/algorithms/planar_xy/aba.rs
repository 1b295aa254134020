//! The articulated-body recursion of a planar-xy model on reduced quantities (the recursion
//! of `aba_planar`, every body in Ground's xy plane): tip to base `D = h̃ᵀ P̃ h̃`, `G̃ = P̃ h̃
//! D⁻¹`, `ν = D⁻¹ ε`, `P̃⁺ = P̃ − G̃ (P̃ h̃)ᵀ`, `z̃⁺ = z̃ + P̃ c̃ + G̃ ε`, passed to the parent
//! shifted by the in-plane offset; base to tip `u̇ = ν − G̃ᵀ Ã'`, `Ã = Ã' + h̃ u̇ + c̃`.

use super::super::aba::singular;
use super::super::aba_planar::{
    articulate_planar_many, articulate_planar_one, shift_force_planar, shift_motion_planar,
    shift_planar,
};
use crate::data::Data;
use crate::error::Result;
use crate::math::small::mul3v;
use crate::mobilizer::Mobilizer;
use crate::model::Model;
use crate::scalar::Real;
use nalgebra::{Matrix3, Vector3};

/// u̇ from the reduced quantities that `kinematics` left in `data.aba` and the body and
/// mobility forces. Writes `data.acc.udot`; `data.aba.a3` ends as the reduced body
/// accelerations. Fails if an articulated inertia along a hinge is not positive definite.
pub(super) fn aba<T: Real>(model: &Model<T>, data: &mut Data<T>) -> Result<()> {
    let nb = model.nbodies();
    let mut carried: Option<(Matrix3<T>, Vector3<T>)> = None;
    for i in (1..nb).rev() {
        let body = &model.bodies[i];
        let ws = &mut data.aba;
        let f = &data.dynamics.body_forces[i];
        let (mut p, mut z) = (ws.p3[i], ws.z3[i] - Vector3::new(f[2], f[3], f[4]));
        if let Some((p_child, z_child)) = carried.take() {
            p += p_child;
            z += z_child;
        }
        z += mul3v(&p, &ws.a3[i]);
        let us = body.u_range();
        let tau = &data.dynamics.mobility_forces.as_slice()[us.clone()];
        let parent = body.parent.0;
        if parent == 0 {
            // A body on Ground passes nothing on and its parent is at rest (Ã' = 0): u̇ = ν
            // = D⁻¹ ε, without G̃, P̃⁺ or z̃⁺.
            let ok = if body.mobilizer == Mobilizer::Planar
                && body.x_pf_is_translation
                && body.x_bm_is_identity
            {
                // H̃ = 1 (F turns with Ground, M at the body origin): D = P̃, ε = τ − z̃.
                solve_spd(3, |a, b| p[(a, b)], |a| tau[a] - z[a], &mut ws.nu[us])
            } else {
                let h = &ws.h3[us.clone()];
                let ph: [Vector3<T>; 3] =
                    std::array::from_fn(|a| h.get(a).map_or_else(Vector3::zeros, |h| mul3v(&p, h)));
                let d = |a: usize, b: usize| h[a].dot(&ph[b]);
                solve_spd(h.len(), d, |a| tau[a] - h[a].dot(&z), &mut ws.nu[us])
            };
            ok.ok_or_else(|| singular(body))?;
            continue;
        }
        match us.len() {
            0 => {}
            1 => {
                let k = us.start;
                let (ph, d, eps) = if body.hinge_is_pure_rotation_at_origin() {
                    // h̃ = (1, 0, 0): P̃ h̃ is P̃'s first column, D its first entry.
                    let ph = p.column(0).into_owned();
                    (ph, ph[0], tau[0] - z[0])
                } else {
                    let h = ws.h3[k];
                    let ph = mul3v(&p, &h);
                    (ph, h.dot(&ph), tau[0] - h.dot(&z))
                };
                let (g, nu) = articulate_planar_one(&mut p, &mut z, ph, d, eps)
                    .ok_or_else(|| singular(body))?;
                ws.g3[k] = g;
                ws.nu[k] = nu;
            }
            n => {
                // Through copies: a reference to `p` itself would keep it in memory on
                // every body's path (and its rows read back across two stores stall).
                let (mut p_many, mut z_many) = (p, z);
                let (g, nu) =
                    articulate_planar_many(&ws.h3[us.clone()], tau, &mut p_many, &mut z_many)
                        .ok_or_else(|| singular(body))?;
                (p, z) = (p_many, z_many);
                ws.g3[us.clone()].copy_from_slice(&g[..n]);
                ws.nu[us].copy_from_slice(&nu[..n]);
            }
        }
        let r = data.pos.x_gb[i].p - data.pos.x_gb[parent].p;
        let contribution = (shift_planar(&p, r.x, r.y), shift_force_planar(&z, r.x, r.y));
        if parent == i - 1 {
            carried = Some(contribution);
        } else {
            ws.p3[parent] += contribution.0;
            ws.z3[parent] += contribution.1;
        }
    }
    accelerate(model, data);
    Ok(())
}

/// Base to tip: u̇ of each mobilizer and the reduced body accelerations.
fn accelerate<T: Real>(model: &Model<T>, data: &mut Data<T>) {
    let mut a_prev = Vector3::zeros();
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let parent = body.parent.0;
        if parent == 0 {
            // u̇ = ν (solved in the tip-to-base pass, which stores no G̃ here); Ã = h̃ u̇ + c̃.
            let mut a = data.aba.a3[i];
            for k in body.u_range() {
                let udot = data.aba.nu[k];
                data.acc.udot[k] = udot;
                a += data.aba.h3[k] * udot;
            }
            data.aba.a3[i] = a;
            a_prev = a;
            continue;
        }
        let r = data.pos.x_gb[i].p - data.pos.x_gb[parent].p;
        let ap = if parent == i - 1 {
            &a_prev
        } else {
            &data.aba.a3[parent]
        };
        let a_par = shift_motion_planar(ap, r.x, r.y);
        // a3 holds this body's Coriolis term until its acceleration replaces it.
        let mut a = a_par + data.aba.a3[i];
        for k in body.u_range() {
            let udot = data.aba.nu[k] - data.aba.g3[k].dot(&a_par);
            data.acc.udot[k] = udot;
            a += data.aba.h3[k] * udot;
        }
        data.aba.a3[i] = a;
        a_prev = a;
    }
}

/// `ν = D⁻¹ ε` for a symmetric n×n `D` (n ≤ 3) given by its entries `d(a, b)` and `ε` by
/// `eps(a)`: the cofactors over the determinant; `None` if `D` is not positive definite
/// (leading minors, as `spd_inverse`).
fn solve_spd<T: Real>(
    n: usize,
    d: impl Fn(usize, usize) -> T,
    eps: impl Fn(usize) -> T,
    nu: &mut [T],
) -> Option<()> {
    match n {
        0 => {}
        1 => {
            let d00 = d(0, 0);
            if d00.re() <= 0.0 {
                return None;
            }
            nu[0] = eps(0) / d00;
        }
        2 => {
            let (d00, d01, d11) = (d(0, 0), d(0, 1), d(1, 1));
            let det = d00 * d11 - d01 * d01;
            if d00.re() <= 0.0 || det.re() <= 0.0 {
                return None;
            }
            let (e0, e1) = (eps(0), eps(1));
            nu[0] = (d11 * e0 - d01 * e1) / det;
            nu[1] = (d00 * e1 - d01 * e0) / det;
        }
        _ => {
            let m = Matrix3::from_fn(d);
            let minor2 = m[(0, 0)] * m[(1, 1)] - m[(0, 1)] * m[(1, 0)];
            let det = m.determinant();
            if m[(0, 0)].re() <= 0.0 || minor2.re() <= 0.0 || det.re() <= 0.0 {
                return None;
            }
            let adj = adjugate3(&m);
            let x = mul3v(&adj, &Vector3::new(eps(0), eps(1), eps(2))) / det;
            nu.copy_from_slice(x.as_slice());
        }
    }
    Some(())
}

/// The adjugate (transposed cofactor matrix) of a 3×3 matrix.
fn adjugate3<T: Real>(m: &Matrix3<T>) -> Matrix3<T> {
    let c = |r0: usize, r1: usize, c0: usize, c1: usize| {
        m[(r0, c0)] * m[(r1, c1)] - m[(r0, c1)] * m[(r1, c0)]
    };
    Matrix3::new(
        c(1, 2, 1, 2),
        -c(0, 2, 1, 2),
        c(0, 1, 1, 2),
        -c(1, 2, 0, 2),
        c(0, 2, 0, 2),
        -c(0, 1, 0, 2),
        c(1, 2, 0, 1),
        -c(0, 2, 0, 1),
        c(0, 1, 0, 1),
    )
}
