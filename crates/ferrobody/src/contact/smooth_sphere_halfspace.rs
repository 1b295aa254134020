//! Simbody's `SmoothSphereHalfSpaceForce`: a smoothed approximation of Hertz contact with
//! Hunt–Crossley dissipation and Hollars-like friction between one sphere and one half space,
//! made for gradient-based optimization (notes §2; seed documentation). The `if`s of the original
//! normal force are replaced by `tanh` blends, so the normal force is smooth (C∞) in depth, rate
//! and parameters, and derivatives flow through it exactly on dual numbers. One kink remains, as
//! in Simbody: the friction uses `min(v_s/v_tr, 1)`, so its slope in the slip speed jumps at
//! `v_s = v_tr` (docs/models/smooth-sphere-half-space.md).
//!
//! With `E` the stiffness (Pa), `R` the sphere radius (m), `δ` the indentation (m, positive
//! when overlapping), `v` the penetration rate (m/s, positive when approaching), `v_t` the
//! tangential slip velocity:
//!
//! ```text
//! k           = ½ E^(2/3)
//! fh_pos      = (4/3) k √(R k) (√(δ² + cf))^(3/2)
//! fh_smooth   = fh_pos (½ + ½ tanh(bd δ))
//! fhc_pos     = fh_smooth (1 + (3/2) c v)
//! fhc_smooth  = fhc_pos (½ + ½ tanh(bv (v + 2/(3c))))          (factor 1 when c = 0)
//! v_s         = √(|v_t|² + cf)
//! ff          = fhc_smooth [min(v_s/v_tr, 1)(μd + 2(μs − μd)/(1 + (v_s/v_tr)²)) + μv v_s]
//! F           = fhc_smooth n + ff v_t/v_s                       (on the half space; −F on the sphere)
//! PE          = (2/5) fh_smooth δ                               (an approximation, see docs)
//! ```
//!
//! Geometry: with the half-space frame's origin `p` and x axis `x̂` (solid x > 0), and the sphere
//! centre `c`: `δ = R + (c − p)·x̂`, `n = x̂` in Ground (pointing into the half space), contact
//! point `P = c + R n − ½ δ n`.
//!
//! # Exact derivatives for optimization
//!
//! Build the model on dual numbers and seed the state variable of interest. The derivative
//! parts of every force are then exact derivatives, with no finite-difference step to tune:
//!
//! ```
//! use ferrobody::contact::{SmoothContactParameters, SmoothSphereHalfSpaceForce};
//! use ferrobody::prelude::*;
//! use num_dual::Dual64;
//!
//! let c = Dual64::from;
//! let mut b = ModelBuilder::<Dual64>::new();
//! let ball = b.add_body(BodyDef::new("ball", BodyId::GROUND, Mobilizer::Free,
//!     MassProperties::solid_sphere(c(1.0), c(0.1)))).unwrap();
//! let ground = Transform::from_axis_angle(Vector3::z(), c(-std::f64::consts::FRAC_PI_2));
//! let params = SmoothContactParameters::new(c(1e6), c(0.5), c(0.8), c(0.5), c(0.0), c(0.01),
//!     c(1e-5), c(300.0), c(50.0));
//! let contact = SmoothSphereHalfSpaceForce::new(ball, Vector3::zeros(), c(0.1),
//!     BodyId::GROUND, ground, params).unwrap();
//! b.add_force(Force::SmoothSphereHalfSpace(contact)).unwrap();
//! let model = b.build().unwrap();
//!
//! // Ball centre 1 mm into the ground, moving down at 0.2 m/s; differentiate with respect to
//! // the height (q[5] is the Free mobilizer's y).
//! let mut state = model.default_state();
//! state.q[5] = c(0.099).derivative();
//! state.u[4] = c(-0.2);
//! let mut data = Data::new(&model);
//! realize(&model, &state, &mut data, Stage::Dynamics).unwrap();
//! let fy = data.body_forces().unwrap()[ball.index()][4];
//! // fy.re is the upward contact force (N); fy.eps is d(fy)/d(height) (N/m), a stiffness.
//! assert!(fy.re > 0.0 && fy.eps < 0.0);
//! ```
//!
//! Reference: A. Falisse, G. Serrancolí et al., "Algorithmic
//! differentiation improves the computational efficiency of OpenSim-based trajectory
//! optimization of human movement", PLoS ONE 14(10) e0217730 (2019); Simbody documentation.

pub use super::smooth_law::{
    hertz_factor, smooth_friction, smooth_normal_force, smooth_normal_force_with,
    SmoothContactParameters, SmoothNormalForce,
};
use crate::error::{invalid, ModelError};
use crate::forces::{ForceAccumulator, ForceContext, ForceElement};
use crate::ids::BodyId;
use crate::math::spatial::shift_motion;
use crate::math::{linear, Transform};
use crate::scalar::Real;
use nalgebra::Vector3;

/// A sphere on one body against a half space on another.
#[derive(Clone, Debug)]
pub struct SmoothSphereHalfSpaceForce<T: Real = f64> {
    /// Name for outputs.
    pub name: String,
    /// The body carrying the sphere.
    pub sphere_body: BodyId,
    /// Sphere centre in the sphere body's frame (m).
    pub sphere_location: Vector3<T>,
    /// Sphere radius (m); read with [`SmoothSphereHalfSpaceForce::sphere_radius`], set through
    /// `Model::set_force_parameter` (which keeps `hertz_factor` in step).
    pub(crate) sphere_radius: T,
    /// The body carrying the half space.
    pub half_space_body: BodyId,
    /// Half-space frame in its body's frame; the solid is x > 0 of this frame.
    pub half_space_frame: Transform<T>,
    /// The nine parameters; read with [`SmoothSphereHalfSpaceForce::parameters`].
    pub(crate) parameters: SmoothContactParameters<T>,
    /// [`hertz_factor`] of `parameters` and `sphere_radius`, computed once: a `powf` and a
    /// square root fewer in every evaluation (about 5 % of the OpenSim ball's run).
    hertz_factor: T,
}

/// The state of one smooth contact: geometry, velocities and forces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothContact<T: Real> {
    /// Indentation δ (m); negative when separated.
    pub depth: T,
    /// Penetration rate (m/s), positive when approaching.
    pub rate: T,
    /// Normal in Ground, pointing into the half space.
    pub normal: Vector3<T>,
    /// Contact point in Ground.
    pub point: Vector3<T>,
    /// Tangential velocity of the sphere relative to the half space (m/s, Ground).
    pub tangential_velocity: Vector3<T>,
    /// Normal-force parts.
    pub normal_force: SmoothNormalForce<T>,
    /// Friction force magnitude (N).
    pub friction: T,
    /// Regularized slip speed (m/s).
    pub slip_speed: T,
    /// Total force F on the half-space body (N, Ground); the sphere body gets −F.
    pub force_on_half_space: Vector3<T>,
}

impl<T: Real> SmoothSphereHalfSpaceForce<T> {
    /// A sphere of radius `radius` at `location` on `sphere_body` against the half space
    /// `frame` (solid x > 0) on `half_space_body`, with the given parameters.
    pub fn new(
        sphere_body: BodyId,
        location: Vector3<T>,
        radius: T,
        half_space_body: BodyId,
        frame: Transform<T>,
        parameters: SmoothContactParameters<T>,
    ) -> Result<Self, ModelError> {
        parameters.validate()?;
        if !(radius.re().is_finite() && radius.re() > 0.0) {
            return Err(invalid!(
                "sphere_radius: must be positive and finite, got {}",
                radius.re()
            ));
        }
        Ok(Self {
            name: "smooth_sphere_half_space".to_string(),
            sphere_body,
            sphere_location: location,
            sphere_radius: radius,
            half_space_body,
            half_space_frame: frame,
            hertz_factor: hertz_factor(&parameters, radius),
            parameters,
        })
    }

    /// The sphere's radius (m).
    pub fn sphere_radius(&self) -> T {
        self.sphere_radius
    }

    /// The contact parameters.
    pub fn parameters(&self) -> &SmoothContactParameters<T> {
        &self.parameters
    }

    /// Recomputes the cached Hertz factor after `parameters` or `sphere_radius` changed in
    /// place (`Model::set_force_parameter`).
    pub(crate) fn refresh(&mut self) {
        self.hertz_factor = hertz_factor(&self.parameters, self.sphere_radius);
    }

    /// Checks the bodies against the model's body count.
    pub(crate) fn validate(&self, nbodies: usize) -> Result<(), ModelError> {
        self.parameters.validate()?;
        if !(self.sphere_radius.re().is_finite() && self.sphere_radius.re() > 0.0) {
            return Err(invalid!(
                "sphere_radius: must be positive and finite, got {}",
                self.sphere_radius.re()
            ));
        }
        for (what, b) in [
            ("sphere body", self.sphere_body),
            ("half-space body", self.half_space_body),
        ] {
            if b.0 >= nbodies {
                return Err(invalid!("{what} index {} does not exist", b.0));
            }
        }
        if self.sphere_body == self.half_space_body {
            return Err("the sphere and the half space are on the same body".into());
        }
        Ok(())
    }

    /// Converts to another scalar type through `f64`.
    pub fn cast<U: Real>(&self) -> SmoothSphereHalfSpaceForce<U> {
        let (parameters, radius) = (self.parameters.cast(), U::c(self.sphere_radius.re()));
        SmoothSphereHalfSpaceForce {
            name: self.name.clone(),
            sphere_body: self.sphere_body,
            sphere_location: self.sphere_location.map(|x| U::c(x.re())),
            sphere_radius: radius,
            half_space_body: self.half_space_body,
            half_space_frame: self.half_space_frame.cast(),
            hertz_factor: hertz_factor(&parameters, radius),
            parameters,
        }
    }

    /// Evaluates the contact at the context's state (Velocity stage). Inlined: returned
    /// through memory, the force element read its point and force back across the stores
    /// that wrote them and stalled.
    #[inline(always)]
    pub fn evaluate(&self, ctx: &ForceContext<'_, T>) -> SmoothContact<T> {
        let x_gh = ctx.x_gb(self.half_space_body) * &self.half_space_frame;
        let centre = ctx.station_position(self.sphere_body, &self.sphere_location);
        let normal = x_gh.r.column(0).into_owned();
        let r = self.sphere_radius;
        let depth = r + (centre - x_gh.p).dot(&normal);
        let point = centre + normal * r - normal * (T::c(0.5) * depth);
        let v = point_velocity(ctx, self.sphere_body, &point)
            - point_velocity(ctx, self.half_space_body, &point);
        let rate = v.dot(&normal);
        let tangential_velocity = v - normal * rate;
        let normal_force =
            smooth_normal_force_with(&self.parameters, self.hertz_factor, depth, rate);
        let (friction, slip_speed) = smooth_friction(
            &self.parameters,
            normal_force.hunt_crossley,
            &tangential_velocity,
        );
        let force_on_half_space =
            normal * normal_force.hunt_crossley + tangential_velocity * (friction / slip_speed);
        SmoothContact {
            depth,
            rate,
            normal,
            point,
            tangential_velocity,
            normal_force,
            friction,
            slip_speed,
            force_on_half_space,
        }
    }
}

/// Velocity in Ground of the material point of `body` at Ground point `p`.
#[inline]
fn point_velocity<T: Real>(ctx: &ForceContext<'_, T>, body: BodyId, p: &Vector3<T>) -> Vector3<T> {
    linear(&shift_motion(ctx.v_gb(body), &(p - ctx.x_gb(body).p)))
}

impl<T: Real> ForceElement<T> for SmoothSphereHalfSpaceForce<T> {
    fn name(&self) -> &str {
        &self.name
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let c = self.evaluate(ctx);
        out.add_force_at_point(self.half_space_body, &c.point, &c.force_on_half_space);
        out.add_force_at_point(self.sphere_body, &c.point, &(-c.force_on_half_space));
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        self.evaluate(ctx).normal_force.potential_energy
    }
}
