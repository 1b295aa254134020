//! Where an element's forces go: straight into the force totals ([`ForceAccumulator`]) or,
//! for an element evaluated on another thread, into a list of additions replayed later in the
//! force set's order ([`ForceRecorder`]; see `data::force_records`).

use super::ForceAccumulator;
use crate::data::ForceOp;
use crate::ids::{BodyId, ZId};
use crate::math::SpatialVec;
#[cfg(feature = "parallel")]
use crate::math::{spatial, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

/// The additions an element makes to the force totals.
pub(crate) trait ForceSink<T: Real> {
    /// Adds a spatial force (moment about the body origin, then force; Ground) to body `b`.
    fn add_body_force(&mut self, b: BodyId, f: &SpatialVec<T>);
    /// Adds force `f_g` (Ground, N) at station `p_bs` (body frame) of body `b`.
    fn add_station_force(&mut self, b: BodyId, p_bs: &Vector3<T>, f_g: &Vector3<T>);
    /// Adds a generalized force to u number `k` of body `b`'s mobilizer.
    fn add_mobility_force(&mut self, b: BodyId, k: usize, f: T);
    /// Sets the time derivative of a continuous auxiliary variable.
    fn set_zdot(&mut self, id: ZId, value: T);
}

impl<T: Real> ForceSink<T> for ForceAccumulator<'_, T> {
    #[inline(always)]
    fn add_body_force(&mut self, b: BodyId, f: &SpatialVec<T>) {
        ForceAccumulator::add_body_force(self, b, f);
    }
    #[inline(always)]
    fn add_station_force(&mut self, b: BodyId, p_bs: &Vector3<T>, f_g: &Vector3<T>) {
        ForceAccumulator::add_station_force(self, b, p_bs, f_g);
    }
    #[inline(always)]
    fn add_mobility_force(&mut self, b: BodyId, k: usize, f: T) {
        ForceAccumulator::add_mobility_force(self, b, k, f);
    }
    #[inline(always)]
    fn set_zdot(&mut self, id: ZId, value: T) {
        ForceAccumulator::set_zdot(self, id, value);
    }
}

/// Records an element's additions (formed exactly as the accumulator forms them).
#[cfg(feature = "parallel")]
pub(crate) struct ForceRecorder<'a, T: Real> {
    /// Body poses in Ground (for station forces).
    pub x_gb: &'a [Transform<T>],
    /// The element's list, cleared by the caller.
    pub ops: &'a mut Vec<ForceOp<T>>,
}

#[cfg(feature = "parallel")]
impl<T: Real> ForceSink<T> for ForceRecorder<'_, T> {
    #[inline(always)]
    fn add_body_force(&mut self, b: BodyId, f: &SpatialVec<T>) {
        self.ops.push(ForceOp::Body(b, *f));
    }
    #[inline(always)]
    fn add_station_force(&mut self, b: BodyId, p_bs: &Vector3<T>, f_g: &Vector3<T>) {
        let r = self.x_gb[b.0].r * p_bs;
        self.ops.push(ForceOp::Body(b, spatial(r.cross(f_g), *f_g)));
    }
    #[inline(always)]
    fn add_mobility_force(&mut self, b: BodyId, k: usize, f: T) {
        self.ops.push(ForceOp::Mobility(b, k, f));
    }
    #[inline(always)]
    fn set_zdot(&mut self, id: ZId, value: T) {
        self.ops.push(ForceOp::Zdot(id, value));
    }
}

/// Adds recorded operations to the totals, in their order.
pub(crate) fn replay<T: Real>(ops: &[ForceOp<T>], out: &mut ForceAccumulator<'_, T>) {
    for op in ops {
        match *op {
            ForceOp::Body(b, f) => out.add_body_force(b, &f),
            ForceOp::Mobility(b, k, f) => out.add_mobility_force(b, k, f),
            ForceOp::Zdot(id, value) => out.set_zdot(id, value),
        }
    }
}
