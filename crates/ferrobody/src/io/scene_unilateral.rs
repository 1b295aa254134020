//! `[[unilateral_contact]]` tables and `[integrator.rigid_contact]` of a scene file
//! (docs/scene-format.md#unilateral-contacts).

use super::scene_build::{body_ref as body, frame, station as vec3};
use super::scene_types::FrameSection;
use crate::error::{invalid, ModelError};
use crate::model::ModelBuilder;
use crate::unilateral::{
    FrictionCoefficients, ImpulseSolverKind, InducedImpactModel, PositionProjection,
    RestitutionModel, RigidContactSettings, UnilateralContact,
};
use nalgebra::Vector3;
use serde::Deserialize;

type Res<T> = std::result::Result<T, ModelError>;

/// `[integrator.rigid_contact]`: settings of the rigid-contact stepper.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RigidContactSection {
    pub restitution: Option<RestitutionModel>,
    pub induced_impacts: Option<InducedImpactModel>,
    pub max_induced_impacts: Option<usize>,
    pub position_projection: Option<PositionProjection>,
    pub solver: Option<ImpulseSolverKind>,
    pub capture_velocity: Option<f64>,
    pub min_cor_velocity: Option<f64>,
    pub transition_velocity: Option<f64>,
}

impl RigidContactSection {
    pub(super) fn settings(&self) -> RigidContactSettings {
        let d = RigidContactSettings::default();
        RigidContactSettings {
            restitution: self.restitution.unwrap_or(d.restitution),
            induced_impacts: self.induced_impacts.unwrap_or(d.induced_impacts),
            max_induced_impacts: self.max_induced_impacts.unwrap_or(d.max_induced_impacts),
            position_projection: self.position_projection.unwrap_or(d.position_projection),
            solver: self.solver.unwrap_or(d.solver),
            capture_velocity: self.capture_velocity.unwrap_or(d.capture_velocity),
            min_cor_velocity: self.min_cor_velocity.unwrap_or(d.min_cor_velocity),
            transition_velocity: self.transition_velocity.unwrap_or(d.transition_velocity),
        }
    }
}

/// μs, μd (default μs) and μv (default 0) of a table.
fn friction(mu_s: f64, mu_d: Option<f64>, mu_v: Option<f64>) -> FrictionCoefficients {
    FrictionCoefficients::new(mu_s, mu_d.unwrap_or(mu_s), mu_v.unwrap_or(0.0))
}

#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum UnilateralSection {
    HardStopUpper {
        body: String,
        coordinate: usize,
        limit: f64,
        min_cor: f64,
    },
    HardStopLower {
        body: String,
        coordinate: usize,
        limit: f64,
        min_cor: f64,
    },
    Rope {
        body1: String,
        point1: Option<[f64; 3]>,
        body2: String,
        point2: Option<[f64; 3]>,
        length: f64,
        min_cor: f64,
    },
    PointPlaneFrictionless {
        plane_body: String,
        normal: [f64; 3],
        height: Option<f64>,
        follower: String,
        point: Option<[f64; 3]>,
        min_cor: f64,
    },
    PointPlane {
        plane_body: String,
        normal: [f64; 3],
        height: Option<f64>,
        follower: String,
        point: Option<[f64; 3]>,
        min_cor: f64,
        static_friction: f64,
        dynamic_friction: Option<f64>,
        viscous_friction: Option<f64>,
    },
    SpherePlane {
        plane_body: String,
        normal: [f64; 3],
        height: Option<f64>,
        ball: String,
        center: Option<[f64; 3]>,
        radius: f64,
        min_cor: f64,
        static_friction: f64,
        dynamic_friction: Option<f64>,
        viscous_friction: Option<f64>,
    },
    SphereSphere {
        body_f: String,
        center_on_f: Option<[f64; 3]>,
        radius_on_f: f64,
        body_b: String,
        center_on_b: Option<[f64; 3]>,
        radius_on_b: f64,
        min_cor: f64,
        static_friction: f64,
        dynamic_friction: Option<f64>,
        viscous_friction: Option<f64>,
    },
    EdgeEdge {
        body_f: String,
        edge_frame_f: Option<FrameSection>,
        half_length_f: f64,
        body_b: String,
        edge_frame_b: Option<FrameSection>,
        half_length_b: f64,
        min_cor: f64,
        static_friction: f64,
        dynamic_friction: Option<f64>,
        viscous_friction: Option<f64>,
    },
}

/// Adds every `[[unilateral_contact]]`; errors name the table index and key.
pub(super) fn add_unilateral_contacts(
    b: &mut ModelBuilder<f64>,
    sections: &[UnilateralSection],
) -> Res<()> {
    for (i, s) in sections.iter().enumerate() {
        let c = build(b, s).map_err(|m| invalid!("unilateral_contact[{i}].{m}"))?;
        b.add_unilateral_contact(c)
            .map_err(|e| invalid!("unilateral_contact[{i}]: {}", e.into_model_error()))?;
    }
    Ok(())
}

fn unit(key: &str, v: [f64; 3]) -> Res<Vector3<f64>> {
    let n = vec3(key, Some(v))?;
    if n.norm() == 0.0 {
        return Err(invalid!("{key}: must not be zero"));
    }
    Ok(n.normalize())
}

fn edge_frame(key: &str, f: Option<&FrameSection>) -> Res<crate::math::Transform<f64>> {
    frame(f, key).map_err(|m| invalid!("{}", m.to_string().trim_start_matches('.')))
}

fn build(b: &ModelBuilder<f64>, s: &UnilateralSection) -> Res<UnilateralContact<f64>> {
    use UnilateralSection as S;
    Ok(match s {
        S::HardStopUpper {
            body: n,
            coordinate,
            limit,
            min_cor,
        } => UnilateralContact::hard_stop_upper(body(b, "body", n)?, *coordinate, *limit, *min_cor),
        S::HardStopLower {
            body: n,
            coordinate,
            limit,
            min_cor,
        } => UnilateralContact::hard_stop_lower(body(b, "body", n)?, *coordinate, *limit, *min_cor),
        S::Rope {
            body1,
            point1,
            body2,
            point2,
            length,
            min_cor,
        } => UnilateralContact::rope(
            body(b, "body1", body1)?,
            vec3("point1", *point1)?,
            body(b, "body2", body2)?,
            vec3("point2", *point2)?,
            *length,
            *min_cor,
        ),
        S::PointPlaneFrictionless {
            plane_body,
            normal,
            height,
            follower,
            point,
            min_cor,
        } => UnilateralContact::point_plane_frictionless(
            body(b, "plane_body", plane_body)?,
            unit("normal", *normal)?,
            height.unwrap_or(0.0),
            body(b, "follower", follower)?,
            vec3("point", *point)?,
            *min_cor,
        ),
        S::PointPlane {
            plane_body,
            normal,
            height,
            follower,
            point,
            min_cor,
            static_friction,
            dynamic_friction,
            viscous_friction,
        } => UnilateralContact::point_plane(
            body(b, "plane_body", plane_body)?,
            unit("normal", *normal)?,
            height.unwrap_or(0.0),
            body(b, "follower", follower)?,
            vec3("point", *point)?,
            *min_cor,
            friction(*static_friction, *dynamic_friction, *viscous_friction),
        ),
        S::SpherePlane {
            plane_body,
            normal,
            height,
            ball,
            center,
            radius,
            min_cor,
            static_friction,
            dynamic_friction,
            viscous_friction,
        } => UnilateralContact::sphere_plane(
            body(b, "plane_body", plane_body)?,
            unit("normal", *normal)?,
            height.unwrap_or(0.0),
            body(b, "ball", ball)?,
            vec3("center", *center)?,
            *radius,
            *min_cor,
            friction(*static_friction, *dynamic_friction, *viscous_friction),
        ),
        S::SphereSphere { .. } | S::EdgeEdge { .. } => build_pair(b, s)?,
    })
}

fn build_pair(b: &ModelBuilder<f64>, s: &UnilateralSection) -> Res<UnilateralContact<f64>> {
    use UnilateralSection as S;
    Ok(match s {
        S::SphereSphere {
            body_f,
            center_on_f,
            radius_on_f,
            body_b,
            center_on_b,
            radius_on_b,
            min_cor,
            static_friction,
            dynamic_friction,
            viscous_friction,
        } => UnilateralContact::sphere_sphere(
            body(b, "body_f", body_f)?,
            vec3("center_on_f", *center_on_f)?,
            *radius_on_f,
            body(b, "body_b", body_b)?,
            vec3("center_on_b", *center_on_b)?,
            *radius_on_b,
            *min_cor,
            friction(*static_friction, *dynamic_friction, *viscous_friction),
        ),
        S::EdgeEdge {
            body_f,
            edge_frame_f,
            half_length_f,
            body_b,
            edge_frame_b,
            half_length_b,
            min_cor,
            static_friction,
            dynamic_friction,
            viscous_friction,
        } => UnilateralContact::edge_edge(
            body(b, "body_f", body_f)?,
            edge_frame("edge_frame_f", edge_frame_f.as_ref())?,
            *half_length_f,
            body(b, "body_b", body_b)?,
            edge_frame("edge_frame_b", edge_frame_b.as_ref())?,
            *half_length_b,
            *min_cor,
            friction(*static_friction, *dynamic_friction, *viscous_friction),
        ),
        _ => return Err("internal: not a pair contact table".into()),
    })
}
