//! Moco's `MocoContactTrackingGoal`: ground reaction forces of groups of smooth contacts
//! tracked against measured forces (an OpenSim `ExternalLoads` data file),
//!
//! ```text
//!   J = w/(m g) ∫ Σ_groups ‖P ((F_g(q, u) − r_g(t)) ⊘ n_g)‖² dt
//!   F_g = Σ_{e ∈ g} ±F_e         force on the group's body (N, Ground): the force on the
//!                                 sphere (−F_e) if the sphere is on `applied_to_body`, on the
//!                                 half space (+F_e) if the half space is
//! ```
//!
//! with m the model's mass and g the gravity's magnitude (the goal's denominator), r_g the
//! measured force interpolated as Moco does (OpenSim's `GCVSpline`, [`ReferenceSpline`]),
//! n_g Moco's `normalize_tracking_error` factors (each axis' peak |r|, else 1) and P the
//! projection: none (I), onto a unit vector v (v vᵀ) or onto the plane normal to v
//! (I − v vᵀ). P is symmetric and idempotent, so the integrand is eᵀ P e and its gradient
//! `∂L/∂F_g = 2 (P e) ⊘ n_g`, chained with the exact `∂F_e/∂(q, u)` of
//! [`crate::contact_forces`]. Source: opensim-core `OpenSim/Moco/MocoGoal/MocoContactTrackingGoal.cpp`.

use crate::contact_forces::ContactForces;
use crate::spline::ReferenceSpline;
use ferrobody::nalgebra::Vector3;

/// How the tracking error is projected before it is squared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Projection {
    /// The whole 3D error.
    None,
    /// Its component along this unit vector.
    Vector(Vector3<f64>),
    /// Its part in the plane normal to this unit vector.
    Plane(Vector3<f64>),
}

impl Projection {
    fn apply(&self, e: &Vector3<f64>) -> Vector3<f64> {
        match self {
            Projection::None => *e,
            Projection::Vector(v) => v * v.dot(e),
            Projection::Plane(v) => e - v * v.dot(e),
        }
    }
}

/// One contact group: the contacts whose summed force on one body tracks one measured force.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactGroup {
    /// The measured force's name (Moco's `external_force_name`).
    pub name: String,
    /// (force element index, sign): +1 for the force on the half space's body, −1 for the
    /// force on the sphere's body.
    pub elements: Vec<(usize, f64)>,
    /// The measured force's x, y and z (N, Ground).
    pub reference: [ReferenceSpline; 3],
    /// n_g: divisors of the error's x, y, z (1, or each axis' peak |r| when normalized).
    pub normalize: [f64; 3],
}

/// The goal (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct ContactTracking {
    /// Weight w.
    pub weight: f64,
    /// The groups.
    pub groups: Vec<ContactGroup>,
    /// The projection of the error.
    pub projection: Projection,
    /// m g (N): the model's weight, or its mass without gravity.
    pub denominator: f64,
}

impl ContactTracking {
    /// The force elements it reads, in order of first use.
    pub(crate) fn elements(&self) -> impl Iterator<Item = usize> + '_ {
        self.groups
            .iter()
            .flat_map(|g| g.elements.iter().map(|e| e.0))
    }

    /// w/(m g): the factor of the integral.
    pub(crate) fn scale(&self) -> f64 {
        self.weight / self.denominator
    }

    /// The group's scaled error `e = (F_g − r_g) ⊘ n_g` at point i, time t.
    fn error(&self, g: &ContactGroup, forces: &ContactForces, i: usize, t: f64) -> Vector3<f64> {
        let mut f = Vector3::zeros();
        for &(e, sign) in &g.elements {
            if let Some(slot) = forces.slot(e) {
                f += forces.force(i, slot) * sign;
            }
        }
        Vector3::from_fn(|a, _| (f[a] - g.reference[a].value(t)) / g.normalize[a])
    }

    /// The integrand at point i, time t.
    pub(crate) fn integrand(&self, forces: &ContactForces, i: usize, t: f64) -> f64 {
        self.groups
            .iter()
            .map(|g| {
                let e = self.error(g, forces, i, t);
                e.dot(&self.projection.apply(&e))
            })
            .sum()
    }

    /// Adds `factor ∂L_i/∂y` to `grad_y` (the point's states) and returns `∂L_i/∂t_i`.
    pub(crate) fn add_point_gradient(
        &self,
        forces: &ContactForces,
        i: usize,
        t: f64,
        factor: f64,
        grad_y: &mut [f64],
    ) -> f64 {
        let mut d_dt = 0.0;
        for g in &self.groups {
            let e = self.error(g, forces, i, t);
            // ∂L/∂F = 2 P e ⊘ n.
            let pe = self.projection.apply(&e);
            let d_df = Vector3::from_fn(|a, _| 2.0 * pe[a] / g.normalize[a]);
            for &(element, sign) in &g.elements {
                let Some(slot) = forces.slot(element) else {
                    continue;
                };
                for (k, column) in forces.jacobian(i, slot).iter().enumerate() {
                    grad_y[k] += factor * sign * d_df.dot(column);
                }
            }
            d_dt -= (0..3)
                .map(|a| d_df[a] * g.reference[a].slope(t))
                .sum::<f64>();
        }
        d_dt
    }
}
