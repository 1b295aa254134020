//! The articulated-body recursion of a planar-xy model on reduced quantities, in Simbody's own
//! operation order (`RigidBodyNodeSpec::realizeArticulatedBodyInertiasInward`,
//! `calcUDotPass1Inward`, `calcUDotPass2Outward`; `ArticulatedInertia::shift`). The reduced
//! articulated inertia keeps the in-plane entries of Simbody's `P = [[J, F], [~F, M]]`:
//! `J_zz`, `F₂₀`, `F₂₁` and the 2×2 block of `M`, stored as the symmetric
//! `[[J_zz, F₂₀, F₂₁], [F₂₀, M₀₀, M₀₁], [F₂₁, M₀₁, M₁₁]]`; forces are `(τ_z, f_x, f_y)`,
//! motions `(α_z, a_x, a_y)`. Tip to base, children in index order:
//!
//! ```text
//! P = P_rigid + Σ shift(P⁺_child, Φ_child)     (F' = F + s × M,  J' = J + s_x (F₂₁ + F'₂₁) − s_y (F₂₀ + F'₂₀))
//! PH = P H,  D = ~H PH,  DI = D⁻¹,  G = PH DI,  P⁺ = P − (sym(G_v ~PH_v), G_ω ~PH_v, G_ω ~PH_ω)
//! z = (P A + b) − F + Σ Φ_child z⁺_child,  ε = f − ~H z,  ν = DI ε,  z⁺ = z + G ε
//! ```
//!
//! and base to tip `A⁺ = Φᵀ A_parent`, `u̇ = ν − ~G A⁺`, `A_B = (A⁺ + H u̇) + A` (Jain 2011,
//! Algorithm 16.2, as Simbody writes it). Every product of an exact zero is dropped, and every
//! sum keeps Simbody's association, so u̇ is Simbody's to the last bit.

use super::super::aba::singular;
use crate::data::Data;
use crate::error::Result;
use crate::scalar::Real;
use crate::tree::Tree;
use nalgebra::{Matrix3, Vector3};

/// The in-plane entries of an articulated inertia (module docs).
#[derive(Clone, Copy)]
struct Inertia2<T: Real> {
    j: T,
    f0: T,
    f1: T,
    m00: T,
    m01: T,
    m11: T,
}

impl<T: Real> Inertia2<T> {
    #[inline(always)]
    fn of(p: &Matrix3<T>) -> Self {
        Self {
            j: p[(0, 0)],
            f0: p[(0, 1)],
            f1: p[(0, 2)],
            m00: p[(1, 1)],
            m01: p[(1, 2)],
            m11: p[(2, 2)],
        }
    }

    #[inline(always)]
    fn matrix(&self) -> Matrix3<T> {
        Matrix3::new(
            self.j, self.f0, self.f1, self.f0, self.m00, self.m01, self.f1, self.m01, self.m11,
        )
    }

    #[inline(always)]
    fn add(&self, o: &Self) -> Self {
        Self {
            j: self.j + o.j,
            f0: self.f0 + o.f0,
            f1: self.f1 + o.f1,
            m00: self.m00 + o.m00,
            m01: self.m01 + o.m01,
            m11: self.m11 + o.m11,
        }
    }

    /// `ArticulatedInertia::shift(s)`: `F' = F + s × M`, `J' = J + halfCrossDiff(s, ~F, F')`.
    #[inline(always)]
    fn shift(&self, s: &Vector3<T>) -> Self {
        let f0 = self.f0 + (s.x * self.m01 - s.y * self.m00);
        let f1 = self.f1 + (s.x * self.m11 - s.y * self.m01);
        let j = self.j + (s.x * (self.f1 + f1) - s.y * (self.f0 + f0));
        Self { j, f0, f1, ..*self }
    }

    /// `P (ω, v)` for a motion or hinge column `(ω_z, v_x, v_y)`.
    #[inline(always)]
    fn mul(&self, h: &Vector3<T>) -> Vector3<T> {
        Vector3::new(
            self.j * h.x + (self.f0 * h.y + self.f1 * h.z),
            self.f0 * h.x + (self.m00 * h.y + self.m01 * h.z),
            self.f1 * h.x + (self.m01 * h.y + self.m11 * h.z),
        )
    }
}

/// `dot(a, b)` of two reduced spatial vectors as Simbody sums it: angular, then linear.
#[inline(always)]
fn sdot<T: Real>(a: &Vector3<T>, b: &Vector3<T>) -> T {
    a.x * b.x + (a.y * b.y + a.z * b.z)
}

/// `Φ z⁺`: the force moved from the child origin to the parent's, `τ + s × f`.
#[inline(always)]
fn shift_force<T: Real>(z: &Vector3<T>, s: &Vector3<T>) -> Vector3<T> {
    Vector3::new(z.x + (s.x * z.z - s.y * z.y), z.y, z.z)
}

/// u̇ from the reduced quantities that `kinematics` left in `data.aba` and the body and
/// mobility forces. Writes `data.acc.udot`; `data.aba.a3` ends as the reduced body
/// accelerations. Fails if a hinge's `D` is singular (not positive for one mobility).
pub(crate) fn aba<T: Real>(model: &Tree<T>, data: &mut Data<T>) -> Result<()> {
    let nb = model.nbodies();
    data.aba.first_child.fill(0);
    // The contribution of body i + 1 when i is its parent: it is then i's first child, and it
    // arrives in registers (read back from memory right after being stored, it would stall on
    // store-to-load forwarding).
    let mut carried: Option<(Inertia2<T>, Vector3<T>)> = None;
    for i in (1..nb).rev() {
        let body = &model.bodies[i];
        let ws = &mut data.aba;
        // P = P_rigid + the children's shifted P⁺ in index order (each other child's slot of
        // p3 holds its contribution by now).
        let mut p = Inertia2::of(&ws.p3[i]);
        let carried_child = carried.take();
        let rest = match &carried_child {
            Some((p_child, _)) => {
                p = p.add(p_child);
                ws.next_sibling[i + 1]
            }
            None => ws.first_child[i],
        };
        let mut child = rest;
        while child != 0 {
            p = p.add(&Inertia2::of(&ws.p3[child]));
            child = ws.next_sibling[child];
        }
        // z = (P A + b) − F, then the children's Φ z⁺.
        let f = &data.dynamics.body_forces[i];
        let pa = p.mul(&ws.a3[i]);
        let mut z = (pa + ws.z3[i]) - Vector3::new(f[2], f[3], f[4]);
        if let Some((_, z_child)) = carried_child {
            z += z_child;
        }
        let mut child = rest;
        while child != 0 {
            z += ws.z3[child];
            child = ws.next_sibling[child];
        }
        let us = body.u_range();
        let tau = &data.dynamics.mobility_forces.as_slice()[us.clone()];
        let parent = body.parent.0;
        let plus = if us.len() == 1 {
            let k = us.start;
            let (g, nu, plus) = articulate_one(
                &p,
                &z,
                &ws.h3[k],
                tau[0],
                body.hinge_is_pure_rotation_at_origin(),
            )
            .ok_or_else(|| singular(body))?;
            ws.g3[k] = g;
            ws.nu[k] = nu;
            plus
        } else {
            let (g, nu, plus) =
                articulate_many(&p, &z, &ws.h3[us.clone()], tau).ok_or_else(|| singular(body))?;
            ws.g3[us.clone()].copy_from_slice(&g[..us.len()]);
            ws.nu[us.clone()].copy_from_slice(&nu[..us.len()]);
            plus
        };
        if parent == 0 {
            // Ground takes neither P⁺ nor z⁺.
            continue;
        }
        let (p_plus, z) = plus;
        let s = ws.shift3[i];
        let contribution = (p_plus.shift(&s), shift_force(&z, &s));
        if parent == i - 1 {
            carried = Some(contribution);
        } else {
            ws.p3[i] = contribution.0.matrix();
            ws.z3[i] = contribution.1;
        }
        ws.next_sibling[i] = ws.first_child[parent];
        ws.first_child[parent] = i;
    }
    accelerate(model, data);
    Ok(())
}

/// What a body passes on before the shift to its parent: `(P⁺, z⁺)`.
type Plus<T> = (Inertia2<T>, Vector3<T>);

/// `G` and `ν` of up to three mobilities, and `(P⁺, z⁺)`.
type Many<T> = ([Vector3<T>; 3], [T; 3], Plus<T>);

/// One mobility: `PH`, `D = ~H PH`, `DI = 1/D`, `G = PH DI`, `ν = DI ε` and `(P⁺, z⁺)`.
/// A pure turn at the origin (`H = (1, 0, 0)`) reads `PH`, `D` and `~H z` off `P` and `z`:
/// the products with its exact ones and zeros give the same numbers.
#[inline(always)]
fn articulate_one<T: Real>(
    p: &Inertia2<T>,
    z: &Vector3<T>,
    h: &Vector3<T>,
    tau: T,
    pure_turn: bool,
) -> Option<(Vector3<T>, T, Plus<T>)> {
    let (ph, d, hz) = if pure_turn {
        (Vector3::new(p.j, p.f0, p.f1), p.j, z.x)
    } else {
        let ph = p.mul(h);
        (ph, sdot(h, &ph), sdot(h, z))
    };
    if d.re() <= 0.0 {
        return None;
    }
    let di = T::one() / d;
    let eps = tau - hz;
    let g = ph * di;
    let nu = di * eps;
    let two = T::one() + T::one();
    let p_plus = Inertia2 {
        j: p.j - g.x * ph.x,
        f0: p.f0 - g.x * ph.y,
        f1: p.f1 - g.x * ph.z,
        m00: p.m00 - g.y * ph.y,
        m01: p.m01 - (g.z * ph.y + g.y * ph.z) / two,
        m11: p.m11 - g.z * ph.z,
    };
    Some((g, nu, (p_plus, z + g * eps)))
}

/// No mobility (Weld) or three (Planar): as [`articulate_one`] with `D⁻¹` by
/// Simbody's cofactors and every sum over the mobilities left to right.
#[inline(always)]
fn articulate_many<T: Real>(
    p: &Inertia2<T>,
    z: &Vector3<T>,
    h: &[Vector3<T>],
    tau: &[T],
) -> Option<Many<T>> {
    let n = h.len();
    let (o, one) = (T::zero(), T::one());
    let unit = [
        Vector3::new(one, o, o),
        Vector3::new(o, one, o),
        Vector3::new(o, o, one),
    ];
    let (ph, d, hz): ([Vector3<T>; 3], [[T; 3]; 3], [T; 3]) = if n == 3 && h[..] == unit[..] {
        // H = 1 (a Planar on Ground): PH is P's columns, D is P, ~H z is z (the products
        // with the exact ones and zeros give the same numbers).
        let ph = [p.mul(&unit[0]), p.mul(&unit[1]), p.mul(&unit[2])];
        let d = std::array::from_fn(|a| std::array::from_fn(|b| ph[b][a]));
        (ph, d, [z.x, z.y, z.z])
    } else {
        let ph: [Vector3<T>; 3] =
            std::array::from_fn(|a| h.get(a).map_or_else(Vector3::zeros, |h| p.mul(h)));
        let d = std::array::from_fn(|a| {
            std::array::from_fn(|b| {
                if a < n && b < n {
                    sdot(&h[a], &ph[b])
                } else {
                    o
                }
            })
        });
        let hz = std::array::from_fn(|a| if a < n { sdot(&h[a], z) } else { o });
        (ph, d, hz)
    };
    let di = invert_d(n, |a, b| d[a][b])?;
    let eps: [T; 3] = std::array::from_fn(|a| if a < n { tau[a] - hz[a] } else { o });
    let mut g = [Vector3::zeros(); 3];
    let mut nu = [T::zero(); 3];
    if n == 0 {
        return Some((g, nu, (*p, *z)));
    }
    for j in 0..n {
        let mut s = ph[0] * di[0][j];
        let mut v = di[j][0] * eps[0];
        for k in 1..n {
            s += ph[k] * di[k][j];
            v += di[j][k] * eps[k];
        }
        g[j] = s;
        nu[j] = v;
    }
    // Σ_k G_k[a] PH_k[b], left to right.
    let sum = |a: usize, b: usize| (1..n).fold(g[0][a] * ph[0][b], |s, k| s + g[k][a] * ph[k][b]);
    let two = T::one() + T::one();
    let p_plus = Inertia2 {
        j: p.j - sum(0, 0),
        f0: p.f0 - sum(0, 1),
        f1: p.f1 - sum(0, 2),
        m00: p.m00 - sum(1, 1),
        m01: p.m01 - (sum(2, 1) + sum(1, 2)) / two,
        m11: p.m11 - sum(2, 2),
    };
    let mut ge = g[0] * eps[0];
    for k in 1..n {
        ge += g[k] * eps[k];
    }
    Some((g, nu, (p_plus, z + ge)))
}

/// `D⁻¹` of the n×n `D` (n = 0 or 3: `articulate_one` takes one mobility, and no planar-xy
/// mobilizer has two) with entries `d(a, b)`, as Simbody's `Mat<3,3>::invert` forms it:
/// cofactors times the inverse determinant. `None` unless positive definite.
fn invert_d<T: Real>(n: usize, d: impl Fn(usize, usize) -> T) -> Option<[[T; 3]; 3]> {
    let o = T::zero();
    let mut di = [[o; 3]; 3];
    match n {
        0 => {}
        _ => {
            let m: [[T; 3]; 3] = std::array::from_fn(|a| std::array::from_fn(|b| d(a, b)));
            let d00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
            let nd01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
            let d02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
            let det = m[0][0] * d00 + m[0][1] * nd01 + m[0][2] * d02;
            let minor2 = m[0][0] * m[1][1] - m[0][1] * m[1][0];
            if m[0][0].re() <= 0.0 || minor2.re() <= 0.0 || det.re() <= 0.0 {
                return None;
            }
            let ood = T::one() / det;
            let nd10 = m[0][2] * m[2][1] - m[0][1] * m[2][2];
            let d11 = m[0][0] * m[2][2] - m[0][2] * m[2][0];
            let nd12 = m[0][1] * m[2][0] - m[0][0] * m[2][1];
            let d20 = m[0][1] * m[1][2] - m[0][2] * m[1][1];
            let nd21 = m[0][2] * m[1][0] - m[0][0] * m[1][2];
            let d22 = minor2;
            di = [
                [ood * d00, ood * nd10, ood * d20],
                [ood * nd01, ood * d11, ood * nd21],
                [ood * d02, ood * nd12, ood * d22],
            ];
        }
    }
    Some(di)
}

/// Base to tip: `A⁺ = Φᵀ A_parent`, `u̇ = ν − ~G A⁺`, `A_B = (A⁺ + H u̇) + A`.
fn accelerate<T: Real>(model: &Tree<T>, data: &mut Data<T>) {
    // The previous body's acceleration stays in registers for its child (store-to-load
    // forwarding, as in `aba`).
    let mut a_prev = Vector3::zeros();
    for (i, body) in model.bodies.iter().enumerate().skip(1) {
        let parent = body.parent.0;
        let ws = &mut data.aba;
        let ap = match parent {
            0 => Vector3::zeros(),
            p if p == i - 1 => a_prev,
            p => ws.a3[p],
        };
        let s = ws.shift3[i];
        let a_plus = Vector3::new(ap.x, ap.y + -(ap.x * s.y), ap.z + ap.x * s.x);
        let us = body.u_range();
        let mut hu = Vector3::zeros();
        for k in us {
            let udot = ws.nu[k] - sdot(&ws.g3[k], &a_plus);
            data.acc.udot[k] = udot;
            hu = if k == body.u_start {
                ws.h3[k] * udot
            } else {
                hu + ws.h3[k] * udot
            };
        }
        a_prev = (a_plus + hu) + ws.a3[i];
        ws.a3[i] = a_prev;
    }
}
