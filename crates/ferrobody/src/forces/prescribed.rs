//! OpenSim's `PrescribedForce`: a force and a torque on a frame F of a body, each three
//! functions of time, the force applied at a point that is also three functions of time.
//!
//! At time t, with `X_GF = X_GB X_BF` the frame's pose:
//! * force `f = (f_x(t), f_y(t), f_z(t))` in Ground (`forceIsGlobal`, the default) or in F
//!   (then `f_G = R_GF f`), applied at the point `p_F = (p_x(t), p_y(t), p_z(t))` of F (F's
//!   origin without point functions), or at the Ground point p (`pointIsGlobal`: then
//!   `p_F = X_GF⁻¹ p`); the body gets `(R_GB p_B × f_G, f_G)` with `p_B = X_BF p_F`
//!   (Simbody's `applyForceToBodyPoint`), N;
//! * torque `τ = (τ_x(t), τ_y(t), τ_z(t))` in Ground, or in F when the force is not global
//!   (`R_GF τ`), N·m.
//!
//! A set of functions is all three components or none (OpenSim refuses one or two). Work done
//! on the body is not stored: no potential energy.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/PrescribedForce.cpp`
//! (`implProduceForces`, `updateFromXMLNode`).

use super::context::check_body;
use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::error::ModelError;
use crate::ids::BodyId;
use crate::math::function::Function;
use crate::math::Transform;
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::Vector3;

/// A force, its point and a torque on one body frame, as functions of time.
#[derive(Clone, Debug, PartialEq)]
pub struct PrescribedForce {
    /// Its name.
    pub name: String,
    /// The body the frame is fixed to.
    pub body: BodyId,
    /// The frame's pose in the body frame.
    pub x_bf: Transform<f64>,
    /// The force's three components (N), if any.
    pub force: Option<[Function; 3]>,
    /// The point's three components (m), if any (else F's origin).
    pub point: Option<[Function; 3]>,
    /// The torque's three components (N·m), if any.
    pub torque: Option<[Function; 3]>,
    /// Whether the point is in Ground (else in F).
    pub point_is_global: bool,
    /// Whether the force and the torque are in Ground (else in F).
    pub force_is_global: bool,
}

/// The three functions at `t`.
fn at<T: Real>(f: &[Function; 3], t: T) -> Vector3<T> {
    Vector3::new(f[0].value(t), f[1].value(t), f[2].value(t))
}

impl PrescribedForce {
    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Checks the body.
    pub fn validate<T: Real>(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_body(bodies, self.body)
    }
}

impl<T: Real> ForceElement<T> for PrescribedForce {
    fn name(&self) -> &str {
        PrescribedForce::name(self)
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let t = T::c(ctx.state.t);
        let x_gb = ctx.x_gb(self.body);
        let x_bf = self.x_bf.cast::<T>();
        let r_gf = x_gb.r * x_bf.r;
        if let Some(force) = &self.force {
            let mut f_g = at(force, t);
            if !self.force_is_global {
                f_g = r_gf * f_g;
            }
            let mut p_f = Vector3::zeros();
            if let Some(point) = &self.point {
                p_f = at(point, t);
                if self.point_is_global {
                    let o_gf = x_gb.p + x_gb.r * x_bf.p;
                    p_f = r_gf.transpose() * (p_f - o_gf);
                }
            }
            let p_b = x_bf.p + x_bf.r * p_f;
            out.add_station_force(self.body, &p_b, &f_g);
        }
        if let Some(torque) = &self.torque {
            let mut m_g = at(torque, t);
            if !self.force_is_global {
                m_g = r_gf * m_g;
            }
            out.add_torque(self.body, &m_g);
        }
    }

    fn potential_energy(&self, _ctx: &ForceContext<'_, T>) -> T {
        T::zero()
    }
}
