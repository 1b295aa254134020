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
//! OpenSim's `ExternalForce` is the same force with the force (and torque) and the point each
//! expressed in a third frame E or P of its own (`force_expressed_in_body`,
//! `point_expressed_in_body`): `f_G = R_GE f`, `p_F = X_GF⁻¹ X_GP p` ([`ExpressedIn::Frame`]).
//!
//! A set of functions is all three components or none (OpenSim refuses one or two). Work done
//! on the body is not stored: no potential energy.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/PrescribedForce.cpp`
//! (`implProduceForces`, `updateFromXMLNode`), `ExternalForce.cpp` (`implProduceForces`).

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
    /// The frame the point is expressed in.
    pub point_in: ExpressedIn,
    /// The frame the force and the torque are expressed in.
    pub force_in: ExpressedIn,
}

/// The frame a prescribed vector or point is expressed in.
#[derive(Clone, Debug, PartialEq)]
pub enum ExpressedIn {
    /// Ground (OpenSim's `forceIsGlobal`, `pointIsGlobal`).
    Ground,
    /// The frame F the force is applied to.
    Applied,
    /// Another frame, fixed to `body` at `x_bf`.
    Frame {
        /// The body the frame is fixed to.
        body: BodyId,
        /// The frame's pose in the body frame.
        x_bf: Transform<f64>,
    },
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

    /// Checks the bodies.
    pub fn validate<T: Real>(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_body(bodies, self.body)?;
        for frame in [&self.force_in, &self.point_in] {
            if let ExpressedIn::Frame { body, .. } = frame {
                check_body(bodies, *body)?;
            }
        }
        Ok(())
    }
}

/// The pose in Ground of the frame fixed to `body` at `x_bf`.
fn frame_in_ground<T: Real>(
    ctx: &ForceContext<'_, T>,
    body: BodyId,
    x_bf: &Transform<f64>,
) -> (nalgebra::Matrix3<T>, Vector3<T>) {
    let x_gb = ctx.x_gb(body);
    let x_bf = x_bf.cast::<T>();
    (x_gb.r * x_bf.r, x_gb.p + x_gb.r * x_bf.p)
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
        let in_ground = |v: Vector3<T>| match &self.force_in {
            ExpressedIn::Ground => v,
            ExpressedIn::Applied => r_gf * v,
            ExpressedIn::Frame { body, x_bf } => frame_in_ground(ctx, *body, x_bf).0 * v,
        };
        if let Some(force) = &self.force {
            let f_g = in_ground(at(force, t));
            let mut p_f = Vector3::zeros();
            if let Some(point) = &self.point {
                p_f = at(point, t);
                let p_g = match &self.point_in {
                    ExpressedIn::Applied => None,
                    ExpressedIn::Ground => Some(p_f),
                    ExpressedIn::Frame { body, x_bf } => {
                        let (r_gp, o_gp) = frame_in_ground(ctx, *body, x_bf);
                        Some(o_gp + r_gp * p_f)
                    }
                };
                if let Some(p_g) = p_g {
                    let o_gf = x_gb.p + x_gb.r * x_bf.p;
                    p_f = r_gf.transpose() * (p_g - o_gf);
                }
            }
            let p_b = x_bf.p + x_bf.r * p_f;
            out.add_station_force(self.body, &p_b, &f_g);
        }
        if let Some(torque) = &self.torque {
            out.add_torque(self.body, &in_ground(at(torque, t)));
        }
    }

    fn potential_energy(&self, _ctx: &ForceContext<'_, T>) -> T {
        T::zero()
    }
}
