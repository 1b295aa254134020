//! Scene forces: the `[[force]]` tables, the smooth sphere/half-space elements and the
//! exponential springs, built from their parsed sections (docs/scene-format.md).

use super::scene_build::{body_ref, finite3, frame, station};
use super::scene_types::{ExponentialSpringSection, ForceSection, SmoothSection};
use crate::contact::{
    ExponentialSpringForce, ExponentialSpringParameters, SmoothContactParameters,
    SmoothSphereHalfSpaceForce,
};
use crate::error::{invalid, ModelError};
use crate::forces::{
    ConstantForce, ConstantTorque, MobilityConstantForce, MobilityLinearDamper,
    MobilityLinearSpring, TwoPointLinearDamper, TwoPointLinearSpring,
};
use crate::ids::ForceId;
use crate::model::Force;
use crate::model::ModelBuilder;

type Res<T> = std::result::Result<T, ModelError>;

pub(super) fn build_force(b: &ModelBuilder<f64>, f: &ForceSection) -> Res<Force<f64>> {
    Ok(match f {
        ForceSection::TwoPointLinearSpring {
            body1,
            station1,
            body2,
            station2,
            stiffness,
            rest_length,
            ..
        } => Force::TwoPointLinearSpring(TwoPointLinearSpring {
            body1: body_ref(b, "body1", body1)?,
            p1: station("station1", *station1)?,
            body2: body_ref(b, "body2", body2)?,
            p2: station("station2", *station2)?,
            stiffness: *stiffness,
            rest_length: *rest_length,
        }),
        ForceSection::TwoPointLinearDamper {
            body1,
            station1,
            body2,
            station2,
            damping,
            ..
        } => Force::TwoPointLinearDamper(TwoPointLinearDamper {
            body1: body_ref(b, "body1", body1)?,
            p1: station("station1", *station1)?,
            body2: body_ref(b, "body2", body2)?,
            p2: station("station2", *station2)?,
            damping: *damping,
        }),
        ForceSection::MobilityLinearSpring {
            body,
            coordinate,
            stiffness,
            q0,
            ..
        } => Force::MobilityLinearSpring(MobilityLinearSpring {
            body: body_ref(b, "body", body)?,
            coordinate: coordinate.unwrap_or(0),
            stiffness: *stiffness,
            q0: q0.unwrap_or(0.0),
        }),
        ForceSection::MobilityLinearDamper {
            body,
            speed,
            damping,
            ..
        } => Force::MobilityLinearDamper(MobilityLinearDamper {
            body: body_ref(b, "body", body)?,
            speed: speed.unwrap_or(0),
            damping: *damping,
        }),
        ForceSection::ConstantForce {
            body,
            station: s,
            force,
            ..
        } => Force::ConstantForce(ConstantForce {
            body: body_ref(b, "body", body)?,
            station: station("station", *s)?,
            force: finite3(*force).map_err(|m| invalid!("force: {m}"))?,
        }),
        ForceSection::ConstantTorque { body, torque, .. } => {
            Force::ConstantTorque(ConstantTorque {
                body: body_ref(b, "body", body)?,
                torque: finite3(*torque).map_err(|m| invalid!("torque: {m}"))?,
            })
        }
        ForceSection::MobilityConstantForce {
            body, speed, force, ..
        } => Force::MobilityConstantForce(MobilityConstantForce {
            body: body_ref(b, "body", body)?,
            speed: speed.unwrap_or(0),
            force: *force,
        }),
        ForceSection::SmoothSphereHalfSpace(section) => build_smooth(b, section)?,
        ForceSection::ExponentialSpring(_) => {
            unreachable!("exponential springs are added with add_exponential_spring")
        }
    })
}

fn build_smooth(b: &ModelBuilder<f64>, s: &SmoothSection) -> Res<Force<f64>> {
    let d = SmoothContactParameters::<f64>::default();
    let parameters = SmoothContactParameters::new(
        s.stiffness.unwrap_or(d.stiffness),
        s.dissipation.unwrap_or(d.dissipation),
        s.static_friction.unwrap_or(d.static_friction),
        s.dynamic_friction.unwrap_or(d.dynamic_friction),
        s.viscous_friction.unwrap_or(d.viscous_friction),
        s.transition_velocity.unwrap_or(d.transition_velocity),
        s.constant_contact_force.unwrap_or(d.constant_contact_force),
        s.hertz_smoothing.unwrap_or(d.hertz_smoothing),
        s.hunt_crossley_smoothing
            .unwrap_or(d.hunt_crossley_smoothing),
    );
    let frame = frame(s.half_space_frame.as_ref(), "half_space_frame")
        .map_err(|m| invalid!("{}", m.to_string().trim_start_matches('.')))?;
    let mut element = SmoothSphereHalfSpaceForce::new(
        body_ref(b, "sphere_body", &s.sphere_body)?,
        station("sphere_location", s.sphere_location)?,
        s.sphere_radius,
        body_ref(b, "half_space_body", &s.half_space_body)?,
        frame,
        parameters,
    )?;
    if let Some(n) = &s.name {
        element.name = n.clone();
    }
    Ok(Force::SmoothSphereHalfSpace(element))
}

pub(super) fn add_exponential_spring(
    b: &mut ModelBuilder<f64>,
    s: &ExponentialSpringSection,
) -> Res<ForceId> {
    let mut p = ExponentialSpringParameters::<f64>::default();
    let set = |field: &mut f64, v: Option<f64>| {
        if let Some(v) = v {
            *field = v;
        }
    };
    set(&mut p.d0, s.d0);
    set(&mut p.d1, s.d1);
    set(&mut p.d2, s.d2);
    set(&mut p.normal_viscosity, s.normal_viscosity);
    set(&mut p.max_normal_force, s.max_normal_force);
    set(&mut p.friction_elasticity, s.friction_elasticity);
    set(&mut p.friction_viscosity, s.friction_viscosity);
    set(&mut p.settle_velocity, s.settle_velocity);
    let (mu_s, mu_k) = (
        s.mu_static.unwrap_or(p.initial_mu_static),
        s.mu_kinetic.unwrap_or(p.initial_mu_kinetic),
    );
    p.set_initial_friction(mu_s, mu_k);
    let body = body_ref(b, "body", &s.body)?;
    let station = finite3(s.station).map_err(|m| invalid!("station: {m}"))?;
    let plane = frame(s.plane.as_ref(), "plane")
        .map_err(|m| invalid!("{}", m.to_string().trim_start_matches('.')))?;
    // Checked here so that the message names the scene's key, not the builder's element.
    p.validate()?;
    ExponentialSpringForce::add_to(b, s.name.as_deref(), plane, body, station, p)
        .map_err(crate::error::Error::into_model_error)
}
