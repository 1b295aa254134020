//! Which models take the two-dimensional path of the integrators' state derivative
//! ([`crate::pipeline::planar_xy`]): every mobilizer a Weld, Pin, Slider or Planar whose frames
//! turn about z only, no constraints, no unilateral contacts, no user-written force element.

use super::{Force, Model};
use crate::mobilizer::Mobilizer;
use crate::scalar::Real;
use crate::tree::planar::keeps_z_exactly;

/// Whether `model` runs on the two-dimensional path (module docs).
pub(crate) fn is_planar_xy_model<T: Real>(model: &Model<T>) -> bool {
    model.bodies.len() > 1
        && model.constraints.is_empty()
        && model.unilateral.is_empty()
        && !model.forces.iter().any(|f| matches!(f, Force::Custom(_)))
        && model.bodies[1..].iter().all(|b| {
            b.spatial_transform.is_none()
                && matches!(
                    b.mobilizer,
                    Mobilizer::Weld | Mobilizer::Pin | Mobilizer::Slider | Mobilizer::Planar
                )
                && keeps_z_exactly(&b.x_pf.r)
                && keeps_z_exactly(&b.x_bm.r)
        })
}
