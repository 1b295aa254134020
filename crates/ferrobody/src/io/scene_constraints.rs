//! `[[constraint]]` tables of a scene file (docs/scene-format.md#constraint).

use super::scene_build::{body_ref as body, station as vec3};
use super::scene_types::FrameSection;
use crate::constraints::*;
use crate::error::{invalid, ModelError};
use crate::model::ModelBuilder;
use serde::Deserialize;

type Res<T> = std::result::Result<T, ModelError>;

#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum ConstraintSection {
    Ball {
        body1: String,
        point1: Option<[f64; 3]>,
        body2: String,
        point2: Option<[f64; 3]>,
        enabled: Option<bool>,
    },
    Weld {
        body1: String,
        frame1: Option<FrameSection>,
        body2: String,
        frame2: Option<FrameSection>,
        enabled: Option<bool>,
    },
    Rod {
        body1: String,
        point1: Option<[f64; 3]>,
        body2: String,
        point2: Option<[f64; 3]>,
        length: f64,
        enabled: Option<bool>,
    },
    PointInPlane {
        plane_body: String,
        normal: [f64; 3],
        height: Option<f64>,
        follower: String,
        point: Option<[f64; 3]>,
        enabled: Option<bool>,
    },
    PointOnPlaneContact {
        surface_body: String,
        plane_frame: Option<FrameSection>,
        follower: String,
        point: Option<[f64; 3]>,
        enabled: Option<bool>,
    },
    SphereOnPlaneContact {
        plane_body: String,
        plane_frame: Option<FrameSection>,
        ball: String,
        center: Option<[f64; 3]>,
        radius: f64,
        enforce_rolling: bool,
        enabled: Option<bool>,
    },
    SphereOnSphereContact {
        body_f: String,
        center_on_f: Option<[f64; 3]>,
        radius_on_f: f64,
        body_b: String,
        center_on_b: Option<[f64; 3]>,
        radius_on_b: f64,
        enforce_rolling: bool,
        enabled: Option<bool>,
    },
}

impl ConstraintSection {
    fn enabled(&self) -> Option<bool> {
        use ConstraintSection as S;
        match self {
            S::Ball { enabled, .. }
            | S::Weld { enabled, .. }
            | S::Rod { enabled, .. }
            | S::PointInPlane { enabled, .. }
            | S::PointOnPlaneContact { enabled, .. }
            | S::SphereOnPlaneContact { enabled, .. }
            | S::SphereOnSphereContact { enabled, .. } => *enabled,
        }
    }
}

/// Adds every `[[constraint]]` to the builder; errors name the table index and key.
pub(super) fn add_constraints(
    b: &mut ModelBuilder<f64>,
    sections: &[ConstraintSection],
) -> Res<()> {
    for (i, s) in sections.iter().enumerate() {
        let c = build(b, s).map_err(|m| invalid!("constraint[{i}].{m}"))?;
        let enabled = s.enabled();
        let id = b
            .add_constraint(c)
            .map_err(|e| invalid!("constraint[{i}]: {}", e.into_model_error()))?;
        b.set_constraint_disabled_by_default(id, !enabled.unwrap_or(true))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn frame(key: &str, f: Option<&FrameSection>) -> Res<crate::math::Transform<f64>> {
    super::scene_build::frame(f, key)
        .map_err(|m| invalid!("{}", m.to_string().trim_start_matches('.')))
}

fn build(b: &ModelBuilder<f64>, s: &ConstraintSection) -> Res<Constraint<f64>> {
    use ConstraintSection as S;
    Ok(match s {
        S::Ball {
            body1,
            point1,
            body2,
            point2,
            ..
        } => Constraint::Ball(Ball {
            body1: body(b, "body1", body1)?,
            point1: vec3("point1", *point1)?,
            body2: body(b, "body2", body2)?,
            point2: vec3("point2", *point2)?,
        }),
        S::Weld {
            body1,
            frame1,
            body2,
            frame2,
            ..
        } => Constraint::Weld(Weld {
            body1: body(b, "body1", body1)?,
            frame1: frame("frame1", frame1.as_ref())?,
            body2: body(b, "body2", body2)?,
            frame2: frame("frame2", frame2.as_ref())?,
        }),
        S::Rod {
            body1,
            point1,
            body2,
            point2,
            length,
            ..
        } => Constraint::Rod(Rod {
            body1: body(b, "body1", body1)?,
            point1: vec3("point1", *point1)?,
            body2: body(b, "body2", body2)?,
            point2: vec3("point2", *point2)?,
            length: *length,
        }),
        S::PointInPlane {
            plane_body,
            normal,
            height,
            follower,
            point,
            ..
        } => {
            let n = vec3("normal", Some(*normal))?;
            if n.norm() == 0.0 {
                return Err("normal: must not be zero".into());
            }
            Constraint::PointInPlane(PointInPlane {
                plane_body: body(b, "plane_body", plane_body)?,
                normal: n.normalize(),
                height: height.unwrap_or(0.0),
                follower: body(b, "follower", follower)?,
                point: vec3("point", *point)?,
            })
        }
        S::PointOnPlaneContact {
            surface_body,
            plane_frame,
            follower,
            point,
            ..
        } => Constraint::PointOnPlaneContact(PointOnPlaneContact {
            surface_body: body(b, "surface_body", surface_body)?,
            plane_frame: frame("plane_frame", plane_frame.as_ref())?,
            follower: body(b, "follower", follower)?,
            point: vec3("point", *point)?,
        }),
        S::SphereOnPlaneContact {
            plane_body,
            plane_frame,
            ball,
            center,
            radius,
            enforce_rolling,
            ..
        } => Constraint::SphereOnPlaneContact(SphereOnPlaneContact {
            plane_body: body(b, "plane_body", plane_body)?,
            plane_frame: frame("plane_frame", plane_frame.as_ref())?,
            ball: body(b, "ball", ball)?,
            center: vec3("center", *center)?,
            radius: *radius,
            enforce_rolling: *enforce_rolling,
        }),
        S::SphereOnSphereContact { .. } => sphere_on_sphere(b, s)?,
    })
}

fn sphere_on_sphere(b: &ModelBuilder<f64>, s: &ConstraintSection) -> Res<Constraint<f64>> {
    use ConstraintSection as S;
    Ok(match s {
        S::SphereOnSphereContact {
            body_f,
            center_on_f,
            radius_on_f,
            body_b,
            center_on_b,
            radius_on_b,
            enforce_rolling,
            ..
        } => Constraint::SphereOnSphereContact(SphereOnSphereContact::new(
            body(b, "body_f", body_f)?,
            vec3("center_on_f", *center_on_f)?,
            *radius_on_f,
            body(b, "body_b", body_b)?,
            vec3("center_on_b", *center_on_b)?,
            *radius_on_b,
            *enforce_rolling,
        )),
        _ => return Err("internal: not a sphere_on_sphere_contact table".into()),
    })
}
