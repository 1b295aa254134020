//! Composite-rigid-body algorithm: the joint-space mass matrix M(q) (Featherstone 2008, §6.2),
//! in the form Pinocchio uses (`pinocchio::crba`, Carpentier et al. 2019): every spatial
//! quantity about one fixed point, so composite inertias add without shifts and a column's
//! force needs no carrying towards the root.
//!
//! The point is the origin `o` of each tree's root body (the child of Ground it hangs from),
//! not Ground's origin: distances stay of the size of the mechanism however far it has moved,
//! so the parallel-axis terms lose no digits. With a body's mass `m`, mass centre `p_C` and
//! inertia `I_C` about it, and `d = p_C − o`:
//!
//! ```text
//! Y = (m, h = m d, I_o = I_C + m (|d|² 1 − d dᵀ))        inertia about o, in Ground
//! K_i = Σ_{j in subtree(i)} Y_j                          composite inertia (plain sums)
//! s = (ω, v_B − ω × (p_B − o))                           a hinge column moved to o
//! K s = (I_o ω + h × v, m v + ω × h)                     its force about o
//! M[l, k] = s_lᵀ K_i s_k   for every column l of body i and of each ancestor
//! ```
//!
//! Units: kg, kg·m, kg·m²; M in kg, kg·m or kg·m² by the columns' kinds.

use crate::data::{Data, Stage};
use crate::math::{angular, linear, spatial};
use crate::scalar::Real;
use crate::tree::Tree;
use nalgebra::{DMatrix, Matrix3, Vector3};

pub use crate::math::inertia::InertiaAboutPoint;

/// Fills `m` (nu × nu) with the mass matrix.
///
/// Reads: `data.pos`. Writes: `m`, and `data.aba.composite` and `data.aba.ph` (the hinge
/// columns about each tree's reference point) as workspace.
pub fn crba<T: Real>(model: &Tree<T>, data: &mut Data<T>, m: &mut DMatrix<T>) {
    data.require(Stage::Position);
    let nb = model.nbodies();
    let (pos, ws) = (&data.pos, &mut data.aba);
    // Bodies follow their parents, so a tree root's reference is set before its subtree's.
    for i in 1..nb {
        let body = &model.bodies[i];
        let root = if body.parent.0 == 0 {
            i
        } else {
            ws.tree_root[body.parent.0]
        };
        ws.tree_root[i] = root;
        let r = pos.x_gb[i].p - pos.x_gb[root].p;
        ws.composite[i] = about_point(&pos.inertia[i], &r);
        for k in body.u_range() {
            let h = &pos.h_g[k];
            let w = angular(h);
            ws.ph[k] = spatial(w, linear(h) - w.cross(&r));
        }
    }
    for i in (2..nb).rev() {
        let parent = model.bodies[i].parent.0;
        if parent != 0 {
            let (head, tail) = ws.composite.split_at_mut(i);
            head[parent].add(&tail[0]);
        }
    }
    // Through the slice: nalgebra's own `fill` walks an iterator entry by entry (a quarter of
    // the whole CRBA on an 18-dof robot); the slice's is a `memset`.
    m.as_mut_slice().fill(T::zero());
    let nu = m.nrows();
    let entries = m.as_mut_slice();
    for i in 1..nb {
        let k_i = ws.composite[i];
        for col in model.bodies[i].u_range() {
            let f = k_i.force(&ws.ph[col]);
            let mut j = i;
            while j != 0 {
                for row in model.bodies[j].u_range() {
                    let v = ws.ph[row].dot(&f);
                    entries[col * nu + row] = v;
                    entries[row * nu + col] = v;
                }
                j = model.bodies[j].parent.0;
            }
        }
    }
}

/// A body's inertia about the point `o`, given its origin's offset from it, `r = p_B − o`.
#[inline(always)]
fn about_point<T: Real>(
    inertia: &crate::math::inertia::RigidInertia<T>,
    r: &Vector3<T>,
) -> InertiaAboutPoint<T> {
    let (mass, c) = (inertia.mass, &inertia.c);
    let d = r + c;
    // I_o = I_B + m [(|d|² − |c|²) 1 − (d dᵀ − c cᵀ)]: from the body origin to the mass centre
    // and on to o (the parallel-axis theorem twice).
    let shift = Matrix3::from_diagonal_element(d.norm_squared() - c.norm_squared())
        - (d * d.transpose() - c * c.transpose());
    InertiaAboutPoint {
        mass,
        h: d * mass,
        i_o: inertia.i_b + shift * mass,
    }
}
