//! Articulated-body forward dynamics, O(n): u̇ from applied forces (Featherstone 2008, §7.3,
//! in the Ground-frame form of Jain 2011, §7).
//!
//! Tip-to-base, for each body i with articulated inertia `P`, bias force `z` and Coriolis
//! acceleration `c`:
//!
//! ```text
//! D = Hᵀ P H,  G = P H D⁻¹,  ε = τ − Hᵀ (z + P c),  ν = D⁻¹ ε
//! P⁺ = P − G (P H)ᵀ,  z⁺ = z + P c + G ε;   P_parent += Φ P⁺ Φᵀ,  z_parent += Φ z⁺
//! ```
//!
//! with `z` initialized to `b − F_applied` (gyroscopic minus applied body forces). Base-to-tip:
//! `A' = Φᵀ A_parent`, `u̇ = ν − Gᵀ A'`, `A = A' + H u̇ + c`.
//!
//! Three kinds of bodies take three paths: bodies of planar subtrees run the same recursion
//! on 3×3 reduced quantities (`algorithms/aba_planar.rs`, [`crate::tree::planar`]); rigid
//! Free leaf bodies on Ground are solved in closed form; all others use the 6×6 articulated
//! inertias above.

#![allow(clippy::needless_range_loop)] // several arrays share one index: plain loops read best

use super::aba_planar::{
    accelerate_planar, articulate_planar, start_planar, store_planar_contribution,
};
use super::spd_inverse::invert_spd;
use crate::data::{AbaWorkspace, Data, Stage};
use crate::error::{Error, Result};
use crate::math::small::mul3v;
use crate::math::small::{mul6v, mul6v_pair, mul6x3v, sub_outer6};
use crate::math::spatial::{add_shifted_inertia, shift_force, shift_motion};
use crate::math::{angular, spatial, SpatialVec};
use crate::scalar::Real;
use crate::tree::Tree;
use nalgebra::{Matrix6, Vector3, Vector6};

/// Computes u̇ and body accelerations.
///
/// Reads: `data.pos`, `data.vel`, `data.dynamics`. Writes: `data.aba`, `data.acc.udot`,
/// `data.acc.a_gb`. Fails if an articulated inertia is singular (a body whose mobilizer moves no
/// mass).
pub fn aba<T: Real>(model: &Tree<T>, data: &mut Data<T>) -> Result<()> {
    data.require(Stage::Dynamics);
    let nb = model.nbodies();
    for i in 1..nb {
        let body = &model.bodies[i];
        if let Some(plane) = &body.plane {
            start_planar(plane, i, data);
            continue;
        }
        if !body.rigid_free_on_ground {
            data.pos.inertia[i].write_matrix(&mut data.aba.p[i]);
        }
        data.aba.z[i] = data.vel.gyroscopic[i] - data.dynamics.body_forces[i];
    }
    let mut carried = None;
    for i in (1..nb).rev() {
        let body = &model.bodies[i];
        if let Some(plane) = &body.plane {
            let to_parent = articulate_planar(body, plane, i, data, carried.take())
                .map_err(|()| singular(body))?;
            let parent = body.parent.0;
            match to_parent {
                Some(c) if parent == i - 1 => carried = Some(c),
                Some(c) => store_planar_contribution(parent, c, data),
                None => {}
            }
            continue;
        }
        if body.rigid_free_on_ground {
            solve_rigid_free_body(body, i, data);
            continue;
        }
        let ok = if body.hinge_is_pure_rotation_at_origin() {
            articulate_rotation(body.u_start, i, data)
        } else {
            articulate_body(body.u_range(), i, data, body.hinge_is_identity)
        };
        if !ok {
            return Err(singular(body));
        }
        let parent = body.parent.0;
        if parent != 0 {
            let r = data.pos.x_gb[i].p - data.pos.x_gb[parent].p;
            let (head, tail) = data.aba.p.split_at_mut(i);
            add_shifted_inertia(&mut head[parent], &tail[0], &r);
            let z_shifted = shift_force(&data.aba.z[i], &r);
            data.aba.z[parent] += z_shifted;
        }
    }
    data.acc.a_gb[0] = SpatialVec::zeros();
    let mut a_prev = SpatialVec::zeros();
    let mut a3_prev = Vector3::zeros();
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        if let Some(plane) = &body.plane {
            a3_prev = accelerate_planar(body, plane, i, data, &a3_prev);
            continue;
        }
        if body.rigid_free_on_ground {
            // Solved in the tip-to-base pass; a leaf, so no child reads `a_prev`.
            continue;
        }
        let parent = body.parent.0;
        let r = data.pos.x_gb[i].p - data.pos.x_gb[parent].p;
        let a_gp = if parent == i - 1 {
            a_prev
        } else {
            data.acc.a_gb[parent]
        };
        let a_par = shift_motion(&a_gp, &r);
        let mut a = a_par + data.vel.coriolis[i];
        for k in body.u_range() {
            let udot = data.aba.nu[k] - data.aba.g[k].dot(&a_par);
            data.acc.udot[k] = udot;
            a += data.pos.h_g[k] * udot;
        }
        data.acc.a_gb[i] = a;
        a_prev = a;
    }
    data.realized = Stage::Acceleration;
    Ok(())
}

/// The error for a body whose articulated inertia along its hinge is not positive definite.
pub(super) fn singular<T: Real>(body: &crate::tree::Body<T>) -> Error {
    Error::model(format!(
        "articulated inertia of body '{}' is singular",
        body.name
    ))
}

/// One tip-to-base step for body `i`: replaces `P` and `z` of body i by `P⁺` and `z⁺` in place
/// and stores `G` and `ν`. Returns false if `D` is not positive definite.
fn articulate_body<T: Real>(
    us: std::ops::Range<usize>,
    i: usize,
    data: &mut Data<T>,
    free_on_ground: bool,
) -> bool {
    if free_on_ground {
        return articulate_free_on_ground(us.start, i, data);
    }
    if us.len() == 1 {
        return articulate_one(us.start, i, data);
    }
    let ws = &mut data.aba;
    let pc = mul6v(&ws.p[i], &data.vel.coriolis[i]);
    let zpc = ws.z[i] + pc;
    ws.z[i] = zpc;
    match us.len() {
        0 => true,
        n => articulate_many(us, n, i, data),
    }
}

/// A rigid Free leaf body on Ground: with `ε = τ − z` (moment `ε_m`, force `ε_f`) the
/// Newton–Euler equations `M_B [α; a] = ε` give `I_C α = ε_m − c × ε_f` and
/// `a = ε_f/m + c × α`, solved with the cached inverse central inertia (`I_C⁻¹` in Ground is
/// `R I_C,body⁻¹ Rᵀ`). Its Coriolis term is zero (no parent motion, M at the body origin).
fn solve_rigid_free_body<T: Real>(body: &crate::tree::Body<T>, i: usize, data: &mut Data<T>) {
    let k = body.u_start;
    let ws = &mut data.aba;
    let tau = &data.dynamics.mobility_forces.as_slice()[k..k + 6];
    let z = &ws.z[i];
    let eps_m = Vector3::new(tau[0] - z[0], tau[1] - z[1], tau[2] - z[2]);
    let eps_f = Vector3::new(tau[3] - z[3], tau[4] - z[4], tau[5] - z[5]);
    let inertia = &data.pos.inertia[i];
    let diagonal = body.spherical_about_origin
        || (crate::scalar::is_plain_f64::<T>() && is_diagonal_about_origin(inertia));
    let (alpha, a) = if diagonal {
        // M_B = D is diag(I_xx, I_yy, I_zz, m, m, m) (COM at the origin, the inertia in Ground
        // diagonal: a sphere's in every pose, since it re-expresses exactly; another body's
        // where its pose makes it so), and Simbody's `DI = D.invert()` (LAPACK's LU) is then
        // exactly its reciprocals: u̇ = DI·ε, a product per entry.
        let i = &inertia.i_b;
        let (ood, oom) = (
            Vector3::new(i[(0, 0)], i[(1, 1)], i[(2, 2)]).map(|x| T::one() / x),
            T::one() / inertia.mass,
        );
        (
            Vector3::new(ood.x * eps_m.x, ood.y * eps_m.y, ood.z * eps_m.z),
            eps_f * oom,
        )
    } else {
        let r = &data.pos.x_gb[i].r;
        let rhs = r.tr_mul(&(eps_m - inertia.c.cross(&eps_f)));
        let alpha = mul3v(
            r,
            &mul3v(
                &body.inverse_inertia_com,
                &Vector3::new(rhs[0], rhs[1], rhs[2]),
            ),
        );
        let a = eps_f / inertia.mass + inertia.c.cross(&alpha);
        (alpha, a)
    };
    // H = 1, no Coriolis term, parent at rest: A = u̇ = ν, stored here rather than read back
    // from `ν` in the base-to-tip pass (a read right after the stores, which would stall on
    // store-to-load forwarding). `G` is not needed: A' = 0.
    for (r, v) in [alpha.x, alpha.y, alpha.z, a.x, a.y, a.z]
        .into_iter()
        .enumerate()
    {
        ws.nu[k + r] = v;
        data.acc.udot[k + r] = v;
    }
    data.acc.a_gb[i] = spatial(alpha, a);
}

/// Whether a body's COM is at its origin and its inertia in Ground is diagonal, at this state
/// (decided on values: for `f64` only, see [`crate::scalar::is_plain_f64`]).
#[inline(always)]
fn is_diagonal_about_origin<T: Real>(inertia: &crate::math::inertia::RigidInertia<T>) -> bool {
    let i = &inertia.i_b;
    let zero = |x: T| x.re() == 0.0;
    inertia.c.iter().all(|&x| zero(x)) && [i[(0, 1)], i[(0, 2)], i[(1, 2)]].into_iter().all(zero)
}

/// A Free body on Ground with identity frames: `H = 1`, so `D = P` and `P⁺ = 0` (a six-dof
/// joint passes nothing to its parent), and with the parent at rest `u̇ = ν = P⁻¹ ε` — one
/// Cholesky solve instead of the general inverse. `G` is zero here: `A' = 0` makes it unused.
fn articulate_free_on_ground<T: Real>(k: usize, i: usize, data: &mut Data<T>) -> bool {
    let ws = &mut data.aba;
    let z = ws.z[i] + mul6v(&ws.p[i], &data.vel.coriolis[i]);
    let tau = &data.dynamics.mobility_forces.as_slice()[k..k + 6];
    let eps = Vector6::from_fn(|r, _| tau[r] - z[r]);
    let Some(nu) = cholesky_solve6(&ws.p[i], &eps) else {
        return false;
    };
    for r in 0..6 {
        ws.nu[k + r] = nu[r];
        ws.g[k + r] = SpatialVec::zeros();
    }
    true
}

/// Solves `m x = b` for a symmetric positive-definite 6×6 `m` (Cholesky); `None` if a pivot
/// is not positive.
fn cholesky_solve6<T: Real>(m: &Matrix6<T>, b: &Vector6<T>) -> Option<Vector6<T>> {
    let mut l = [[T::zero(); 6]; 6];
    for j in 0..6 {
        let mut s = m[(j, j)];
        for k in 0..j {
            s -= l[j][k] * l[j][k];
        }
        if s.re() <= 0.0 {
            return None;
        }
        let d = s.sqrt();
        l[j][j] = d;
        for i in j + 1..6 {
            let mut s = m[(i, j)];
            for k in 0..j {
                s -= l[i][k] * l[j][k];
            }
            l[i][j] = s / d;
        }
    }
    let mut y = [T::zero(); 6];
    for i in 0..6 {
        let mut s = b[i];
        for k in 0..i {
            s -= l[i][k] * y[k];
        }
        y[i] = s / l[i][i];
    }
    let mut x = Vector6::zeros();
    for i in (0..6).rev() {
        let mut s = y[i];
        for k in i + 1..6 {
            s -= l[k][i] * x[k];
        }
        x[i] = s / l[i][i];
    }
    Some(x)
}

/// The common one-degree-of-freedom case: scalar D, rank-one update.
fn articulate_one<T: Real>(k: usize, i: usize, data: &mut Data<T>) -> bool {
    let ws = &mut data.aba;
    let h = &data.pos.h_g[k];
    // z + P c and P h in one pass over P.
    let (pc, ph) = mul6v_pair(&ws.p[i], &data.vel.coriolis[i], h);
    let z = ws.z[i] + pc;
    let eps = data.dynamics.mobility_forces[k] - h.dot(&z);
    rank_one_step(ws, k, i, z, ph, h.dot(&ph), eps)
}

/// A one-dof hinge whose column is a pure rotation `h = [w; 0]` (a Pin with M at the body
/// origin): as [`articulate_one`], but `P h` reads only the first three columns of `P`, and
/// `hᵀ x` only the first three entries of `x`.
fn articulate_rotation<T: Real>(k: usize, i: usize, data: &mut Data<T>) -> bool {
    let ws = &mut data.aba;
    let w = angular(&data.pos.h_g[k]);
    let pc = mul6v(&ws.p[i], &data.vel.coriolis[i]);
    let ph = mul6x3v(&ws.p[i], &w);
    let z = ws.z[i] + pc;
    let eps = data.dynamics.mobility_forces[k] - w.dot(&angular(&z));
    rank_one_step(ws, k, i, z, ph, w.dot(&angular(&ph)), eps)
}

/// The rest of a one-dof step, given `z + P c`, `P h`, `D = hᵀ P h` and `ε = τ − hᵀ (z + P c)`:
/// `G = P h D⁻¹`, `ν = D⁻¹ ε`, `P⁺ = P − G (P h)ᵀ`, `z⁺ = z + P c + G ε`. Returns false if `D`
/// is not positive.
#[inline(always)]
fn rank_one_step<T: Real>(
    ws: &mut AbaWorkspace<T>,
    k: usize,
    i: usize,
    z: SpatialVec<T>,
    ph: SpatialVec<T>,
    d: T,
    eps: T,
) -> bool {
    if d.re() <= 0.0 {
        return false;
    }
    let d_inv = T::one() / d;
    let g = ph * d_inv;
    sub_outer6(&mut ws.p[i], &g, &ph);
    ws.z[i] = z + g * eps;
    ws.g[k] = g;
    ws.nu[k] = d_inv * eps;
    true
}

/// The general case, n = 2..6 degrees of freedom.
fn articulate_many<T: Real>(
    us: std::ops::Range<usize>,
    n: usize,
    i: usize,
    data: &mut Data<T>,
) -> bool {
    let ws = &mut data.aba;
    let h = &data.pos.h_g[us.clone()];
    for a in 0..n {
        ws.ph[us.start + a] = mul6v(&ws.p[i], &h[a]);
    }
    let mut d = Matrix6::<T>::zeros();
    for a in 0..n {
        for b in 0..n {
            d[(a, b)] = h[a].dot(&ws.ph[us.start + b]);
        }
    }
    let Some(d_inv) = invert_spd(&d, n) else {
        return false;
    };
    let mut eps = [T::zero(); 6];
    for a in 0..n {
        eps[a] = data.dynamics.mobility_forces[us.start + a] - h[a].dot(&ws.z[i]);
    }
    for a in 0..n {
        let mut g = SpatialVec::zeros();
        let mut nu = T::zero();
        for b in 0..n {
            g += ws.ph[us.start + b] * d_inv[(b, a)];
            nu += d_inv[(a, b)] * eps[b];
        }
        ws.g[us.start + a] = g;
        ws.nu[us.start + a] = nu;
    }
    for a in 0..n {
        let g = ws.g[us.start + a];
        sub_outer6(&mut ws.p[i], &g, &ws.ph[us.start + a]);
        ws.z[i] += g * eps[a];
    }
    true
}
