//! The articulated-body steps for bodies of planar subtrees ([`crate::tree::planar`]): the
//! recursion of [`super::aba`] on the reduced quantities `P̃ = Sᵀ P S` (3×3), `z̃ = Sᵀ z`,
//! `c̃ = Sᵀ c`, `h̃ = Sᵀ h`, with `S = [n 0 0; 0 e1 e2]`:
//!
//! ```text
//! D = h̃ᵀ P̃ h̃,  G̃ = P̃ h̃ D⁻¹,  ε = τ − h̃ᵀ (z̃ + P̃ c̃),  ν = D⁻¹ ε
//! P̃⁺ = P̃ − G̃ (P̃ h̃)ᵀ,  z̃⁺ = z̃ + P̃ c̃ + G̃ ε;   P̃_parent += Φ̃ P̃⁺ Φ̃ᵀ,  z̃_parent += Φ̃ z̃⁺
//! Ã' = Φ̃ᵀ Ã_parent,  u̇ = ν − G̃ᵀ Ã',  Ã = Ã' + h̃ u̇ + c̃
//! ```
//!
//! The shift by the in-plane offset `r = (r₁, r₂)` of the body from its parent is
//! `Φ̃ = [[1, −r₂, r₁], [0, 1, 0], [0, 0, 1]]` (the moment about `n` of a force moved by `r`).
//! The results are those of the 6×6 recursion, in about a quarter of the arithmetic.

use super::spd_inverse::invert_spd;
use crate::data::Data;
use crate::math::small::mul3v;
use crate::scalar::Real;
use crate::tree::planar::PlaneBasis;
use crate::tree::Body;
use nalgebra::{Matrix3, Matrix6, Vector3};

/// Reduced inertia and bias force of planar body `i`, from its rigid inertia and `z = b − F`.
#[inline(always)]
pub(super) fn start_planar<T: Real>(plane: &PlaneBasis<T>, i: usize, data: &mut Data<T>) {
    let z = data.vel.gyroscopic[i] - data.dynamics.body_forces[i];
    data.aba.p3[i] = plane.reduce_inertia(&data.pos.inertia[i]);
    data.aba.z3[i] = plane.reduce(&z);
}

/// What a planar body passes to its parent: `Φ̃ P̃⁺ Φ̃ᵀ` and `Φ̃ z̃⁺`.
pub(super) type PlanarContribution<T> = (Matrix3<T>, Vector3<T>);

/// Tip-to-base step of planar body `i`: `G̃` and `ν`, and what the body passes to its parent
/// (`None` for a body on Ground). `carried` is the contribution of the body processed just
/// before (index `i + 1`) when `i` is its parent: it arrives in registers, since reading it
/// back right after the child stored it would stall on store-to-load forwarding. Fails if `D`
/// is not positive definite.
pub(super) fn articulate_planar<T: Real>(
    body: &Body<T>,
    plane: &PlaneBasis<T>,
    i: usize,
    data: &mut Data<T>,
    carried: Option<PlanarContribution<T>>,
) -> Result<Option<PlanarContribution<T>>, ()> {
    let (mut p, mut z) = (data.aba.p3[i], data.aba.z3[i]);
    if let Some((p_child, z_child)) = carried {
        p += p_child;
        z += z_child;
    }
    let c = plane.reduce(&data.vel.coriolis[i]);
    z += mul3v(&p, &c);
    let us = body.u_range();
    let tau = &data.dynamics.mobility_forces.as_slice()[us.clone()];
    let ws = &mut data.aba;
    if us.len() == 1 {
        let k = us.start;
        let h = plane.reduce(&data.pos.h_g[k]);
        let ph = mul3v(&p, &h);
        let eps = tau[0] - h.dot(&z);
        let (g, nu) = articulate_planar_one(&mut p, &mut z, ph, h.dot(&ph), eps).ok_or(())?;
        ws.h3[k] = h;
        ws.g3[k] = g;
        ws.nu[k] = nu;
    } else if !us.is_empty() {
        let n = us.len();
        for (h3, h) in ws.h3[us.clone()].iter_mut().zip(&data.pos.h_g[us.clone()]) {
            *h3 = plane.reduce(h);
        }
        let (g, nu) = articulate_planar_many(&ws.h3[us.clone()], tau, &mut p, &mut z).ok_or(())?;
        ws.g3[us.clone()].copy_from_slice(&g[..n]);
        ws.nu[us].copy_from_slice(&nu[..n]);
    }
    let parent = body.parent.0;
    if parent == 0 {
        return Ok(None);
    }
    let (r1, r2) = plane.in_plane(&(data.pos.x_gb[i].p - data.pos.x_gb[parent].p));
    Ok(Some((
        shift_planar(&p, r1, r2),
        shift_force_planar(&z, r1, r2),
    )))
}

/// The rest of a one-dof step, given `P̃ h̃`, `D = h̃ᵀ P̃ h̃` and `ε = τ − h̃ᵀ z̃` (z̃ including
/// `P̃ c̃`): `G̃ = P̃ h̃ D⁻¹`, `P̃ −= G̃ (P̃ h̃)ᵀ`, `z̃ += G̃ ε`; returns `(G̃, ν = D⁻¹ ε)`, or
/// `None` if `D` is not positive.
#[inline(always)]
pub(super) fn articulate_planar_one<T: Real>(
    p: &mut Matrix3<T>,
    z: &mut Vector3<T>,
    ph: Vector3<T>,
    d: T,
    eps: T,
) -> Option<(Vector3<T>, T)> {
    if d.re() <= 0.0 {
        return None;
    }
    let d_inv = T::one() / d;
    let g = ph * d_inv;
    *p -= g * ph.transpose();
    *z += g * eps;
    Some((g, d_inv * eps))
}

/// `Φ̃ z̃` for the in-plane offset `(r1, r2)`: a reduced force moved to the parent's origin
/// gains the moment `r₁ f₂ − r₂ f₁`.
#[inline(always)]
pub(super) fn shift_force_planar<T: Real>(z: &Vector3<T>, r1: T, r2: T) -> Vector3<T> {
    Vector3::new(z[0] - r2 * z[1] + r1 * z[2], z[1], z[2])
}

/// `Φ̃ᵀ a` for the in-plane offset `(r1, r2)`: the parent's reduced acceleration carried to
/// the child's origin (`α × r` added to the linear part).
#[inline(always)]
pub(super) fn shift_motion_planar<T: Real>(a: &Vector3<T>, r1: T, r2: T) -> Vector3<T> {
    Vector3::new(a[0], a[1] - a[0] * r2, a[2] + a[0] * r1)
}

/// Adds a planar body's contribution to its parent's reduced inertia and bias force in memory
/// (when the parent is not the next body processed).
pub(super) fn store_planar_contribution<T: Real>(
    parent: usize,
    (p, z): PlanarContribution<T>,
    data: &mut Data<T>,
) {
    data.aba.p3[parent] += p;
    data.aba.z3[parent] += z;
}

/// The several-dof step (a Planar mobilizer, n = 3; n ≤ 3 in a plane): `D = H̃ᵀ P̃ H̃`, then
/// `G̃`, `ν`, and `P̃`, `z̃` updated in place. `None` if `D` is not positive definite.
#[allow(clippy::type_complexity)]
pub(super) fn articulate_planar_many<T: Real>(
    h: &[Vector3<T>],
    tau: &[T],
    p: &mut Matrix3<T>,
    z: &mut Vector3<T>,
) -> Option<([Vector3<T>; 3], [T; 3])> {
    let n = h.len();
    let ph: Vec3Array<T> = std::array::from_fn(|a| {
        if a < n {
            mul3v(p, &h[a])
        } else {
            Vector3::zeros()
        }
    });
    let mut d = Matrix6::<T>::zeros();
    for a in 0..n {
        for b in 0..n {
            d[(a, b)] = h[a].dot(&ph[b]);
        }
    }
    let d_inv = invert_spd(&d, n)?;
    let eps: [T; 3] = std::array::from_fn(|a| {
        if a < n {
            tau[a] - h[a].dot(z)
        } else {
            T::zero()
        }
    });
    let mut g = [Vector3::zeros(); 3];
    let mut nu = [T::zero(); 3];
    for a in 0..n {
        for b in 0..n {
            g[a] += ph[b] * d_inv[(b, a)];
            nu[a] += d_inv[(a, b)] * eps[b];
        }
    }
    for a in 0..n {
        *p -= g[a] * ph[a].transpose();
        *z += g[a] * eps[a];
    }
    Some((g, nu))
}

type Vec3Array<T> = [Vector3<T>; 3];

/// `Φ̃ p Φ̃ᵀ` for the in-plane offset `(r1, r2)`: row 0 of `Φ̃ p` and then column 0 of the
/// product take `x₀ − r₂ x₁ + r₁ x₂`; the other entries pass through.
#[inline(always)]
pub(super) fn shift_planar<T: Real>(p: &Matrix3<T>, r1: T, r2: T) -> Matrix3<T> {
    let shift = |x0: T, x1: T, x2: T| x0 - r2 * x1 + r1 * x2;
    let mut q = *p;
    for j in 0..3 {
        q[(0, j)] = shift(p[(0, j)], p[(1, j)], p[(2, j)]);
    }
    for i in 0..3 {
        q[(i, 0)] = shift(q[(i, 0)], q[(i, 1)], q[(i, 2)]);
    }
    q
}

/// Base-to-tip step of planar body `i`: `u̇` of its mobilizer and its acceleration (reduced,
/// for the children, and as a spatial vector in `a_gb`).
///
/// `a_prev` is the reduced acceleration of body `i − 1`, used when it is the parent (in
/// registers, like the carried contribution of the tip-to-base pass). Returns this body's.
pub(super) fn accelerate_planar<T: Real>(
    body: &Body<T>,
    plane: &PlaneBasis<T>,
    i: usize,
    data: &mut Data<T>,
    a_prev: &Vector3<T>,
) -> Vector3<T> {
    let parent = body.parent.0;
    let a_par = if parent == 0 {
        Vector3::zeros()
    } else {
        let (r1, r2) = plane.in_plane(&(data.pos.x_gb[i].p - data.pos.x_gb[parent].p));
        let ap = if parent == i - 1 {
            a_prev
        } else {
            &data.aba.a3[parent]
        };
        shift_motion_planar(ap, r1, r2)
    };
    let mut a = a_par + plane.reduce(&data.vel.coriolis[i]);
    for k in body.u_range() {
        let udot = data.aba.nu[k] - data.aba.g3[k].dot(&a_par);
        data.acc.udot[k] = udot;
        a += data.aba.h3[k] * udot;
    }
    data.aba.a3[i] = a;
    data.acc.a_gb[i] = plane.lift(&a);
    a
}
