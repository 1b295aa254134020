//! Uniform gravity (Simbody `Force::Gravity`): force `m g` at each body's centre of mass;
//! potential energy `−m g·p_C` (zero at the Ground origin; `m g y` for g = (0, −g, 0)).

use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::ids::BodyId;
use crate::math::spatial;
use crate::scalar::Real;
use nalgebra::Vector3;

/// Uniform gravitational field acting on every body.
#[derive(Clone, Debug)]
pub struct Gravity<T: Real> {
    /// Gravitational acceleration in Ground (m/s²).
    pub g: Vector3<T>,
}

impl<T: Real> Gravity<T> {
    pub(crate) fn cast<U: Real>(&self) -> Gravity<U> {
        Gravity {
            g: self.g.map(|x| U::c(x.re())),
        }
    }
}

impl<T: Real> ForceElement<T> for Gravity<T> {
    fn name(&self) -> &str {
        "gravity"
    }

    #[inline(always)]
    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        for (i, body) in ctx.model.bodies().iter().enumerate().skip(1) {
            let f = self.g * body.mass_properties.mass;
            let c = ctx.pos.inertia[i].c;
            out.add_body_force(BodyId(i), &spatial(c.cross(&f), f));
        }
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        let mut pe = T::zero();
        for (i, body) in ctx.model.bodies().iter().enumerate().skip(1) {
            let p_gc = ctx.pos.x_gb[i].p + ctx.pos.inertia[i].c;
            pe -= self.g.dot(&p_gc) * body.mass_properties.mass;
        }
        pe
    }
}
