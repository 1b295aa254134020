//! Station and frame Jacobians: `v_s = J_s u` for a point fixed on a body, and `V = J_B u` for a
//! body's spatial velocity at a point, both in Ground. Only the body's ancestors contribute:
//! column k of ancestor j is `[hw_k ; hv_k + hw_k × (p_s − p_j)]`.

use crate::data::{Data, Stage};
use crate::ids::BodyId;
use crate::math::{angular, linear, spatial};
use crate::scalar::Real;
use crate::tree::Tree;
use nalgebra::{Matrix3xX, Matrix6xX, Vector3};

/// Frame Jacobian (6 × nu) of body `body` taken at station `p_bs` (in the body frame).
///
/// Reads: `data.pos`.
pub fn frame_jacobian<T: Real>(
    model: &Tree<T>,
    data: &Data<T>,
    body: BodyId,
    p_bs: &Vector3<T>,
) -> Matrix6xX<T> {
    data.require(Stage::Position);
    let p_gs = data.pos.x_gb[body.0].apply(p_bs);
    let mut jac = Matrix6xX::zeros(model.nu());
    let mut j = body.0;
    while j != 0 {
        let p_gj = data.pos.x_gb[j].p;
        for k in model.bodies[j].u_range() {
            let h = &data.pos.h_g[k];
            let hw = angular(h);
            jac.set_column(k, &spatial(hw, linear(h) + hw.cross(&(p_gs - p_gj))));
        }
        j = model.bodies[j].parent.0;
    }
    jac
}

/// Station Jacobian (3 × nu): the Ground-frame velocity of station `p_bs` of `body` is `J u`.
///
/// Reads: `data.pos`.
pub fn station_jacobian<T: Real>(
    model: &Tree<T>,
    data: &Data<T>,
    body: BodyId,
    p_bs: &Vector3<T>,
) -> Matrix3xX<T> {
    frame_jacobian(model, data, body, p_bs)
        .fixed_rows::<3>(3)
        .into_owned()
}
