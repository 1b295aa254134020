//! Composite-rigid-body algorithm: the joint-space mass matrix M(q) (Featherstone 2008, §6.2).
//!
//! Composite inertias `K_i = M_i + Σ_children Φ K_c Φᵀ`; then for each column k of body i,
//! `F = K_i h_k` is carried towards the root and `M[l, k] = h_lᵀ F` for every column l of each
//! ancestor (and of i itself).

use crate::data::{Data, Stage};
use crate::math::small::mul6v;
use crate::math::spatial::{add_shifted_inertia, shift_force};
use crate::model::Model;
use crate::scalar::Real;
use nalgebra::DMatrix;

/// Fills `m` (nu × nu) with the mass matrix.
///
/// Reads: `data.pos`. Writes: `m`, and `data.aba.p` as the composite-inertia workspace.
pub fn crba<T: Real>(model: &Model<T>, data: &mut Data<T>, m: &mut DMatrix<T>) {
    data.require(Stage::Position);
    let nb = model.nbodies();
    let k = &mut data.aba.p;
    for (k_i, inertia) in k[1..nb].iter_mut().zip(&data.pos.inertia[1..nb]) {
        inertia.write_matrix(k_i);
    }
    for i in (1..nb).rev() {
        let parent = model.bodies[i].parent.0;
        if parent != 0 {
            let r = data.pos.x_gb[i].p - data.pos.x_gb[parent].p;
            let (head, tail) = k.split_at_mut(i);
            add_shifted_inertia(&mut head[parent], &tail[0], &r);
        }
    }
    // Through the slice: nalgebra's own `fill` walks an iterator entry by entry (a quarter of
    // the whole CRBA on an 18-dof robot); the slice's is a `memset`.
    m.as_mut_slice().fill(T::zero());
    for (i, k_i) in k.iter().enumerate().skip(1) {
        for col in model.bodies[i].u_range() {
            let mut f = mul6v(k_i, &data.pos.h_g[col]);
            let mut j = i;
            while j != 0 {
                for row in model.bodies[j].u_range() {
                    let v = data.pos.h_g[row].dot(&f);
                    m[(row, col)] = v;
                    m[(col, row)] = v;
                }
                let parent = model.bodies[j].parent.0;
                f = shift_force(&f, &(data.pos.x_gb[j].p - data.pos.x_gb[parent].p));
                j = parent;
            }
        }
    }
}
