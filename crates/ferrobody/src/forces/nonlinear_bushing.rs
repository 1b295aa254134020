//! OpenSim's nonlinear bushings, `FunctionBasedBushingForce` and `ExpressionBasedBushingForce`:
//! six generalized forces between a frame F on body 1 and a frame M on body 2, through
//! OpenSim's `TwoFrameLinker` (not Simbody's `LinearBushing`, which OpenSim's `BushingForce`
//! uses and [`super::LinearBushing`] follows).
//!
//! ```text
//!   X_FM = (R_GFᵀ R_GM,  R_GFᵀ (p_GM − p_GF))            (TwoFrameLinker::computeRelativeOffset)
//!   dq   = [θ; p_FM]   θ: Simbody's body-fixed x-y-z angles of R_FM (rad), p_FM (m)
//!   dq̇   = [N_B(θ) R_FMᵀ w_FM^F;  v_FM^F]                 (computeDeflectionRate)
//!   f    = −k(dq) − c∘dq̇                                 (N·m for the first three, N)
//! ```
//!
//! with `k` six functions of one deflection each (`FunctionBased…`: `m_x_theta_x_function` …
//! `f_z_delta_z_function`) or six Lepton expressions of all six deflections
//! (`ExpressionBased…`: `Mx_expression` … `Fz_expression` in `theta_x, theta_y, theta_z,
//! delta_x, delta_y, delta_z`), and `c` the rotational and translational dampings (N·m·s/rad,
//! N·s/m). `f` acts on M as the moment `R_GM N_Bᵀ f_θ` and the force `R_GF f_p` at M's
//! origin, and the opposite force with its moment about F's origin on F
//! (`convertInternalForceToForcesOnFrames`), each shifted to its body's origin
//! (`producePhysicalForcesFromInternal`), body 2 first. OpenSim's arithmetic, in its order.
//! Singular where `cos θ₂ = 0`, as in OpenSim. OpenSim reports no potential energy for
//! either class: neither does this.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/TwoFrameLinker.h`,
//! `FunctionBasedBushingForce.cpp`, `ExpressionBasedBushingForce.cpp`.

use super::context::check_body;
use super::linear_bushing::n_body_xyz;
use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::error::{invalid, ModelError};
use crate::ids::BodyId;
use crate::math::expression::Expression;
use crate::math::function::Function;
use crate::math::small::{mul3, mul3tv, mul3v};
use crate::math::transform::body_fixed_xyz_angles;
use crate::math::{angular, linear, spatial, Transform};
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::{Matrix3, Vector3};

/// The stiffness part `k(dq)` of a nonlinear bushing.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BushingStiffness {
    /// `FunctionBasedBushingForce`: `kᵢ = fᵢ(dqᵢ)`, in the order m_x(θx), m_y(θy), m_z(θz),
    /// f_x(δx), f_y(δy), f_z(δz).
    Functions(Box<[Function; 6]>),
    /// `ExpressionBasedBushingForce`: `kᵢ = eᵢ(dq)`, in the order Mx, My, Mz, Fx, Fy, Fz, each
    /// parsed with the variables [`NonlinearBushing::VARIABLES`].
    Expressions(Box<[Expression; 6]>),
}

/// A nonlinear bushing between frame F (`x_b1f` on `body1`) and frame M (`x_b2m` on `body2`).
#[derive(Clone, Debug, PartialEq)]
pub struct NonlinearBushing {
    /// Its name.
    pub name: String,
    /// The body carrying F.
    pub body1: BodyId,
    /// F's pose in body 1.
    pub x_b1f: Transform<f64>,
    /// The body carrying M.
    pub body2: BodyId,
    /// M's pose in body 2.
    pub x_b2m: Transform<f64>,
    /// `k(dq)`.
    pub stiffness: BushingStiffness,
    /// Dampings: three rotational (N·m·s/rad), then three translational (N·s/m).
    pub damping: [f64; 6],
}

/// The frames' poses and the deflection, as `TwoFrameLinker` computes them.
struct Deflection<T: Real> {
    x_gf: Transform<T>,
    x_gm: Transform<T>,
    r_fm: Matrix3<T>,
    p_fm: Vector3<T>,
    theta: Vector3<T>,
}

impl NonlinearBushing {
    /// The variables of an `ExpressionBasedBushingForce`'s expressions, in `dq`'s order.
    pub const VARIABLES: [&'static str; 6] = [
        "theta_x", "theta_y", "theta_z", "delta_x", "delta_y", "delta_z",
    ];

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Checks the bodies (two, different) and the dampings (finite).
    pub fn validate<T: Real>(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_body(bodies, self.body1)?;
        check_body(bodies, self.body2)?;
        if self.body1 == self.body2 {
            return Err("a bushing needs two different bodies".into());
        }
        if self.damping.iter().any(|c| !c.is_finite()) {
            return Err(invalid!("every damping must be finite"));
        }
        Ok(())
    }

    fn deflection<T: Real>(&self, ctx: &ForceContext<'_, T>) -> Deflection<T> {
        let x_gf = ctx.x_gb(self.body1) * &self.x_b1f.cast::<T>();
        let x_gm = ctx.x_gb(self.body2) * &self.x_b2m.cast::<T>();
        // Simbody's `~X_GF * X_GM`: (R_FG R_GM, R_FG (p_GM − p_GF)).
        let r_fg = x_gf.r.transpose();
        let r_fm = mul3(&r_fg, &x_gm.r);
        let p_fm = mul3tv(&x_gf.r, &(x_gm.p - x_gf.p));
        let theta = body_fixed_xyz_angles(&r_fm);
        Deflection {
            x_gf,
            x_gm,
            r_fm,
            p_fm,
            theta,
        }
    }

    /// `−k(dq)`.
    fn stiffness_force<T: Real>(&self, dq: &[T; 6]) -> [T; 6] {
        match &self.stiffness {
            BushingStiffness::Functions(f) => std::array::from_fn(|i| -f[i].value(dq[i])),
            BushingStiffness::Expressions(e) => std::array::from_fn(|i| -e[i].eval(dq)),
        }
    }
}

impl<T: Real> ForceElement<T> for NonlinearBushing {
    fn name(&self) -> &str {
        NonlinearBushing::name(self)
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let d = self.deflection(ctx);
        let (x_gb1, x_gb2) = (ctx.x_gb(self.body1), ctx.x_gb(self.body2));
        let p_b1f_g = mul3v(&x_gb1.r, &self.x_b1f.p.map(T::c));
        let p_b2m_g = mul3v(&x_gb2.r, &self.x_b2m.p.map(T::c));
        let p_fm_g = mul3v(&d.x_gf.r, &d.p_fm);
        // computeRelativeVelocity: V_FM taken in F.
        let (v1, v2) = (ctx.v_gb(self.body1), ctx.v_gb(self.body2));
        let (w1, w2) = (angular(v1), angular(v2));
        let v_gf = linear(v1) + w1.cross(&p_b1f_g);
        let v_gm = linear(v2) + w2.cross(&p_b2m_g);
        let w_fm_f = mul3tv(&d.x_gf.r, &(w2 - w1));
        let v_fm_f = mul3tv(&d.x_gf.r, &((v_gm - v_gf) - w1.cross(&p_fm_g)));
        // computeDeflectionRate.
        let w_fm_m = mul3tv(&d.r_fm, &w_fm_f);
        let n_fm = n_body_xyz(&d.theta);
        let theta_dot = mul3v(&n_fm, &w_fm_m);
        let dq = [
            d.theta.x, d.theta.y, d.theta.z, d.p_fm.x, d.p_fm.y, d.p_fm.z,
        ];
        let dq_dot = [
            theta_dot.x,
            theta_dot.y,
            theta_dot.z,
            v_fm_f.x,
            v_fm_f.y,
            v_fm_f.z,
        ];
        let fk = self.stiffness_force(&dq);
        let f: [T; 6] = std::array::from_fn(|i| fk[i] + -(T::c(self.damping[i]) * dq_dot[i]));
        // convertInternalForceToForcesOnFrames.
        let m_b2_m = mul3tv(&n_fm, &Vector3::new(f[0], f[1], f[2]));
        let m_b2_g = mul3v(&d.x_gm.r, &m_b2_m);
        let f_m_g = mul3v(&d.x_gf.r, &Vector3::new(f[3], f[4], f[5]));
        let on_f_moment = -(m_b2_g + p_fm_g.cross(&f_m_g));
        let on_f_force = -f_m_g;
        // producePhysicalForcesFromInternal: shifted to the body origins, body 2 first.
        out.add_body_force(self.body2, &spatial(m_b2_g + p_b2m_g.cross(&f_m_g), f_m_g));
        out.add_body_force(
            self.body1,
            &spatial(on_f_moment + p_b1f_g.cross(&on_f_force), on_f_force),
        );
    }

    fn potential_energy(&self, _ctx: &ForceContext<'_, T>) -> T {
        T::zero()
    }
}
