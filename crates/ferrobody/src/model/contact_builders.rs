//! Contact elements that own state variables, added to a model under construction: the
//! exponential spring allocates its friction coefficients (discrete) and its anchor point and
//! Sliding value (auto-update) before its force element is listed.

use super::{Force, ModelBuilder};
use crate::contact::{ExponentialSpringForce, ExponentialSpringParameters};
use crate::ids::BodyId;
use crate::math::Transform;
use crate::scalar::Real;
use nalgebra::Vector3;

impl<T: Real> ExponentialSpringForce<T> {
    /// Adds a spring to `builder`: allocates its discrete variables (μs, μk) and auto-update
    /// variables (anchor point, Sliding = 1) and the force element.
    pub fn add_to(
        builder: &mut ModelBuilder<T>,
        name: Option<&str>,
        x_gp: Transform<T>,
        body: BodyId,
        station: Vector3<T>,
        parameters: ExponentialSpringParameters<T>,
    ) -> crate::Result<crate::ids::ForceId> {
        parameters
            .validate()
            .map_err(|m| crate::Error::model(format!("exponential spring: {m}")))?;
        if body.0 >= builder.nbodies() {
            return Err(crate::Error::model(format!(
                "exponential spring: body index {} does not exist",
                body.0
            )));
        }
        let name = name.map_or_else(
            || format!("exponential_spring{}", builder.force_count()),
            String::from,
        );
        let mu_static = builder.add_discrete_variable(
            &format!("{name}.mu_static"),
            &[parameters.initial_mu_static],
        );
        let mu_kinetic = builder.add_discrete_variable(
            &format!("{name}.mu_kinetic"),
            &[parameters.initial_mu_kinetic],
        );
        let zero = T::zero();
        let anchor =
            builder.add_auto_update_variable(&format!("{name}.anchor"), &[zero, zero, zero]);
        let sliding = builder.add_auto_update_variable(&format!("{name}.sliding"), &[T::one()]);
        let element = ExponentialSpringForce {
            name,
            x_gp,
            body,
            station,
            parameters,
            mu_static,
            mu_kinetic,
            anchor,
            sliding,
        };
        builder.add_force(Force::ExponentialSpring(element))
    }
}
