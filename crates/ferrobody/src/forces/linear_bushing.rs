//! Linear bushing (Simbody `Force::LinearBushing`, OpenSim `BushingForce`): six uncoupled
//! springs and dampers between a frame F on body 1 and a frame M on body 2.
//!
//! The deflection is `dq = [θ; p]`: `θ` the body-fixed x-y-z angles of `R_FM` (Simbody's
//! `convertRotationToBodyFixedXYZ`, [`body_fixed_xyz_angles`]) and `p = p_FM` (in F). Its rate is `dq̇ = [N_B(θ) w_FM^M; v_FM^F]` with `N_B` the body-frame x-y-z
//! kinematic matrix `[[c₂/c₁, −s₂/c₁, 0], [s₂, c₂, 0], [−s₁c₂/c₁, s₁s₂/c₁, 1]]` and the velocity
//! of M in F taken in F. The generalized force `f = −k∘dq − c∘dq̇` acts on M as the moment
//! `R_GM N_Bᵀ f_θ` and the force `R_GF f_p` at M's origin; the equal and opposite force, with
//! its moment about F's origin, acts on F. Energy `½ Σ kᵢ dqᵢ²` (J). Singular where
//! `cos θ₁ = 0`, as in Simbody. Simbody also integrates the dissipated energy, an auxiliary
//! state with rate `Σ cᵢ dq̇ᵢ²` (W) that enters the integrator's error control (OpenSim's
//! `/forceset/NAME/dissipated_energy`). Source: Simbody `Force_LinearBushing.cpp`; OpenSim
//! `TwoFrameLinker::convertInternalForceToForcesOnFrames`.

use super::context::check_body;
use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::error::{invalid, ModelError};
use crate::ids::{BodyId, ZId};
use crate::math::transform::body_fixed_xyz_angles;
use crate::math::{angular, linear, spatial, SpatialVec, Transform};
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::{Matrix3, Vector3, Vector6};

/// A linear bushing between frame F (`x_b1f` on `body1`) and frame M (`x_b2m` on `body2`).
#[derive(Clone, Debug)]
pub struct LinearBushing<T: Real> {
    /// A name for messages.
    pub name: String,
    /// Body carrying F.
    pub body1: BodyId,
    /// Pose of F in body 1.
    pub x_b1f: Transform<T>,
    /// Body carrying M.
    pub body2: BodyId,
    /// Pose of M in body 2.
    pub x_b2m: Transform<T>,
    /// Stiffnesses: three rotational (N·m/rad), then three translational (N/m).
    pub stiffness: [T; 6],
    /// Dampings: three rotational (N·m·s/rad), then three translational (N·s/m).
    pub damping: [T; 6],
    /// The auxiliary state integrating the dissipated power (J), if any: Simbody allocates
    /// one for every bushing.
    pub dissipated_energy: Option<ZId>,
}

/// `N_B(θ)`: body-XYZ angle rates from the angular velocity in the body frame (Simbody's
/// `Rotation::calcNForBodyXYZInBodyFrame`; the first angle is not used).
pub(super) fn n_body_xyz<T: Real>(theta: &Vector3<T>) -> Matrix3<T> {
    let (s1, c1) = theta[1].sin_cos();
    let (s2, c2) = theta[2].sin_cos();
    let oo = T::one() / c1;
    let (s2oc1, c2oc1) = (s2 * oo, c2 * oo);
    let (o, l) = (T::zero(), T::one());
    Matrix3::new(c2oc1, -s2oc1, o, s2, c2, o, -(s1 * c2oc1), s1 * s2oc1, l)
}

impl<T: Real> LinearBushing<T> {
    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_body(bodies, self.body1)?;
        check_body(bodies, self.body2)?;
        if self.body1 == self.body2 {
            return Err("a bushing needs two different bodies".into());
        }
        for (what, values) in [("stiffness", &self.stiffness), ("damping", &self.damping)] {
            if values.iter().any(|v| !v.re().is_finite() || v.re() < 0.0) {
                return Err(invalid!("every {what} must be finite and non-negative"));
            }
        }
        Ok(())
    }

    pub(crate) fn cast<U: Real>(&self) -> LinearBushing<U> {
        LinearBushing {
            name: self.name.clone(),
            body1: self.body1,
            x_b1f: self.x_b1f.cast(),
            body2: self.body2,
            x_b2m: self.x_b2m.cast(),
            stiffness: self.stiffness.map(|v| U::c(v.re())),
            damping: self.damping.map(|v| U::c(v.re())),
            dissipated_energy: self.dissipated_energy,
        }
    }

    /// `X_GF`, `X_GM` and the deflection `dq`.
    fn deflection(&self, ctx: &ForceContext<'_, T>) -> (Transform<T>, Transform<T>, Vector6<T>) {
        let x_gf = ctx.x_gb(self.body1) * &self.x_b1f;
        let x_gm = ctx.x_gb(self.body2) * &self.x_b2m;
        let x_fm = x_gf.inverse() * x_gm;
        let theta = body_fixed_xyz_angles(&x_fm.r);
        let dq = Vector6::new(theta.x, theta.y, theta.z, x_fm.p.x, x_fm.p.y, x_fm.p.z);
        (x_gf, x_gm, dq)
    }
}

impl<T: Real> ForceElement<T> for LinearBushing<T> {
    fn name(&self) -> &str {
        &self.name
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let (x_gf, x_gm, dq) = self.deflection(ctx);
        let (x_gb1, x_gb2) = (ctx.x_gb(self.body1), ctx.x_gb(self.body2));
        let (v1, v2) = (ctx.v_gb(self.body1), ctx.v_gb(self.body2));
        let p_b1f_g = x_gb1.r * self.x_b1f.p;
        let p_b2m_g = x_gb2.r * self.x_b2m.p;
        let p_fm_g = x_gm.p - x_gf.p;
        let (w1, w2) = (angular(v1), angular(v2));
        let v_gf = linear(v1) + w1.cross(&p_b1f_g);
        let v_gm = linear(v2) + w2.cross(&p_b2m_g);
        let r_fg = x_gf.r.transpose();
        let w_fm_f = r_fg * (w2 - w1);
        let v_fm_f = r_fg * (v_gm - v_gf - w1.cross(&p_fm_g));
        let theta = Vector3::new(dq[0], dq[1], dq[2]);
        let n = n_body_xyz(&theta);
        let r_fm = x_gf.r.transpose() * x_gm.r;
        let theta_dot = n * (r_fm.transpose() * w_fm_f);
        let rate = [
            theta_dot.x,
            theta_dot.y,
            theta_dot.z,
            v_fm_f.x,
            v_fm_f.y,
            v_fm_f.z,
        ];
        let f: [T; 6] =
            std::array::from_fn(|i| -(self.stiffness[i] * dq[i]) - self.damping[i] * rate[i]);
        let m_m = n.transpose() * Vector3::new(f[0], f[1], f[2]);
        let m_g = x_gm.r * m_m;
        let f_g = x_gf.r * Vector3::new(f[3], f[4], f[5]);
        let on_m: SpatialVec<T> = spatial(m_g + p_b2m_g.cross(&f_g), f_g);
        let m1 = -(m_g + p_fm_g.cross(&f_g));
        let on_f: SpatialVec<T> = spatial(m1 - p_b1f_g.cross(&f_g), -f_g);
        out.add_body_force(self.body2, &on_m);
        out.add_body_force(self.body1, &on_f);
        if let Some(z) = self.dissipated_energy {
            // Simbody's `fc.power += (fv[i] = c[i]*qd[i])*qd[i]`, in that order.
            let power = (0..6).fold(T::zero(), |p, i| p + self.damping[i] * rate[i] * rate[i]);
            out.set_zdot(z, power);
        }
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        let (_, _, dq) = self.deflection(ctx);
        (0..6).fold(T::zero(), |e, i| e + self.stiffness[i] * dq[i] * dq[i]) * T::c(0.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angles_round_trip_and_n_inverts_the_body_rates() {
        let (a, b, c) = (0.3f64, -0.4, 1.1);
        let r = crate::math::transform::rotation_body_xyz(a, b, c);
        let t = body_fixed_xyz_angles(&r);
        assert!((t - Vector3::new(a, b, c)).norm() < 1e-14);
        // Near gimbal lock Simbody's atan2 form keeps the middle angle to round-off, where
        // asin(r₀₂) would lose half the digits (1e-10 at 1e-6 rad from π/2).
        let near_lock = std::f64::consts::FRAC_PI_2 - 1e-6;
        let locked = crate::math::transform::rotation_body_xyz(a, near_lock, c);
        let t_lock = body_fixed_xyz_angles(&locked);
        assert!(
            (t_lock.y - near_lock).abs() < 1e-15,
            "{:e}",
            t_lock.y - near_lock
        );
        // w_B from rates: finite differences of R along (ȧ, ḃ, ċ).
        let rates = Vector3::new(0.7, -0.2, 0.5);
        let h = 1e-6;
        let rp = crate::math::transform::rotation_body_xyz(
            a + h * rates.x,
            b + h * rates.y,
            c + h * rates.z,
        );
        let rm = crate::math::transform::rotation_body_xyz(
            a - h * rates.x,
            b - h * rates.y,
            c - h * rates.z,
        );
        let w_skew = r.transpose() * (rp - rm) / (2.0 * h);
        let w_b = Vector3::new(w_skew[(2, 1)], w_skew[(0, 2)], w_skew[(1, 0)]);
        assert!((n_body_xyz(&t) * w_b - rates).norm() < 1e-8);
    }
}
