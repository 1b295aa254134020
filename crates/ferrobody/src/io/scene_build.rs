//! Turning a parsed scene file into a model, an initial state and run settings.

use super::scene::Scene;
use super::scene_actuators::{add_actuators, set_initial_controls};
use super::scene_contact_shape::surface_shape;
use super::scene_forces::{add_exponential_spring, build_force};
use super::scene_robot::{add_robots, check_contact_names, robot_surfaces, set_robot_states};
use super::scene_types::{
    BodySection, ContactModelKind, ContactSection, ForceSection, FrameSection, IntegratorSection,
    MaterialSection, SceneFile,
};
use crate::algorithms::position_kinematics;
use crate::contact::{ContactMaterial, FrictionModel, HuntCrossleyForce};
use crate::data::Data;
use crate::error::{invalid, Error, ModelError};
use crate::geometry::ContactSurface;
use crate::ids::{BodyId, ForceId};
use crate::integrators::IntegratorSettings;
use crate::math::{MassProperties, Transform};
use crate::model::Force;
use crate::model::{BodyDef, ModelBuilder};
use crate::simulation::check_report_rows;
use nalgebra::{Matrix3, Vector3};
use std::collections::BTreeMap;
use std::path::Path;

type Res<T> = std::result::Result<T, ModelError>;

/// Why a scene could not be built: the message, and the line of the table at fault where it
/// is known (`[[actuator]]` tables keep their place in the file).
pub(super) struct BuildError {
    pub line: Option<usize>,
    pub problem: ModelError,
}

impl From<ModelError> for BuildError {
    fn from(problem: ModelError) -> Self {
        Self {
            line: None,
            problem,
        }
    }
}

/// Builds the scene; `line_of` turns a byte offset of the text into its line.
pub(super) fn build_scene(
    raw: SceneFile,
    default_name: &str,
    scene_dir: &Path,
    line_of: impl Fn(usize) -> usize,
) -> Result<Scene, BuildError> {
    let at_line = |(line, problem): (usize, ModelError)| BuildError {
        line: Some(line),
        problem,
    };
    let actuator_lines: Vec<usize> = raw
        .actuators
        .iter()
        .map(|a| line_of(a.span().start))
        .collect();
    let actuators: Vec<_> = raw.actuators.into_iter().map(|a| a.into_inner()).collect();
    let mut b = ModelBuilder::<f64>::new();
    for (i, body) in raw.bodies.iter().enumerate() {
        add_body(&mut b, body).map_err(|m| invalid!("body[{i}] '{}'{m}", body.name))?;
    }
    let mut left_out = BTreeMap::new();
    let robots = add_robots(&mut b, &raw.robots, scene_dir, &mut left_out)?;
    if let Some(g) = raw.gravity {
        b.add_gravity(finite3(g).map_err(|m| invalid!("gravity: {m}"))?);
    }
    for (i, f) in raw.forces.iter().enumerate() {
        let id = if let ForceSection::ExponentialSpring(spring) = f {
            add_exponential_spring(&mut b, spring).map_err(|m| invalid!("force[{i}].{m}"))?
        } else {
            let force = build_force(&b, f).map_err(|m| invalid!("force[{i}].{m}"))?;
            b.add_force(force)
                .map_err(|e| invalid!("force[{i}]: {}", e.into_model_error()))?
        };
        disable_unless(&mut b, id, f.enabled())?;
    }
    for (name, m) in &raw.materials {
        material(m)
            .validate()
            .map_err(|e| invalid!("material.{name}.{e}"))?;
    }
    let element_names: Vec<String> = raw
        .contacts
        .iter()
        .enumerate()
        .map(|(i, c)| contact_name(c, i))
        .collect();
    check_contact_names(&raw.robots, &element_names, &raw.materials)?;
    for (i, c) in raw.contacts.iter().enumerate() {
        let from_robots = robot_surfaces(&raw.robots, &robots, &element_names[i]);
        let force = if c.model == ContactModelKind::ElasticFoundation {
            if !from_robots.is_empty() {
                return Err(invalid!(
                    "contact[{i}]: robot collision spheres join Hunt-Crossley elements, not an elastic foundation"
                ).into());
            }
            super::scene_foundation::build_foundation(&b, &raw.materials, c, &element_names[i], scene_dir)
        } else {
            build_contact(&b, &raw.materials, c, &element_names[i], from_robots)
        }
        .map_err(|m| invalid!("contact[{i}].{m}"))?;
        let id = b
            .add_force(force)
            .map_err(|e| invalid!("contact[{i}]: {}", e.into_model_error()))?;
        disable_unless(&mut b, id, c.enabled.unwrap_or(true))?;
    }
    super::scene_constraints::add_constraints(&mut b, &raw.constraints)?;
    super::scene_unilateral::add_unilateral_contacts(&mut b, &raw.unilateral_contacts)?;
    add_actuators(&mut b, &actuators, &actuator_lines, &robots).map_err(at_line)?;
    let model = b.build().map_err(Error::into_model_error)?;
    let mut state = model.default_state();
    for (i, body) in raw.bodies.iter().enumerate() {
        set_initial(&model, &mut state, i + 1, body)
            .map_err(|m| invalid!("body[{i}] '{}'.{m}", body.name))?;
    }
    set_robot_states(&model, &mut state, &raw.robots, &robots)?;
    set_initial_controls(&model, &mut state, &actuators, &actuator_lines).map_err(at_line)?;
    reset_exponential_spring_anchors(&model, &mut state);
    let duration = positive("simulation.duration", raw.simulation.duration)?;
    let report_interval = positive(
        "simulation.report_interval",
        raw.simulation.report_interval.unwrap_or(0.01),
    )?;
    check_report_rows(duration, report_interval)?;
    let integrator = integrator_settings(raw.integrator.as_ref())?;
    let visuals = build_visuals(&raw.bodies)?;
    Ok(Scene {
        names: super::MobilityNames::of(&model),
        name: raw.name.unwrap_or_else(|| default_name.to_string()),
        description: raw.description.unwrap_or_default(),
        model,
        initial_state: state,
        duration,
        report_interval,
        integrator,
        step_to_reports: false,
        visuals,
        left_out,
    })
}

/// Exponential springs start with their anchor points under their stations (Simbody's
/// resetAnchorPoint after setting the initial state). One pass of position kinematics serves
/// every spring (each on its own would make the build quadratic in the springs).
fn reset_exponential_spring_anchors(
    model: &crate::model::Model<f64>,
    state: &mut crate::state::State<f64>,
) {
    if !model
        .forces()
        .iter()
        .any(|f| matches!(f, Force::ExponentialSpring(_)))
    {
        return;
    }
    let mut data = Data::new(model);
    position_kinematics(model, state, &mut data);
    for f in model.forces() {
        if let Force::ExponentialSpring(spring) = f {
            spring.reset_anchor_point_at(model, state, &data.pos.x_gb);
        }
    }
}

/// The bodies' `[[body.visual]]` shapes.
fn build_visuals(bodies: &[BodySection]) -> Res<Vec<super::scene_visual::Visual>> {
    let mut visuals = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        for (k, v) in body.visuals.iter().enumerate() {
            let visual = super::scene_visual::build_visual(BodyId(i + 1), v)
                .map_err(|m| invalid!("body[{i}] '{}'.visual[{k}]{m}", body.name))?;
            visuals.push(visual);
        }
    }
    Ok(visuals)
}

/// Applies a force's `enabled = false` (Simbody `Force::setDisabledByDefault`).
fn disable_unless(b: &mut ModelBuilder<f64>, id: ForceId, enabled: bool) -> Res<()> {
    b.set_force_disabled_by_default(id, !enabled)
        .map_err(Error::into_model_error)
}

fn positive(key: &str, v: f64) -> Res<f64> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(invalid!("{key}: must be positive and finite, got {v}"))
    }
}

pub(super) fn finite3(v: [f64; 3]) -> Res<Vector3<f64>> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(Vector3::from(v))
    } else {
        Err(invalid!("every component must be finite, got {v:?}"))
    }
}

fn integrator_settings(s: Option<&IntegratorSection>) -> Res<IntegratorSettings> {
    let mut out = IntegratorSettings::rk_merson(1e-3);
    if let Some(s) = s {
        out.kind = s.method.unwrap_or(out.kind);
        out.accuracy = s.accuracy.unwrap_or(out.accuracy);
        out.constraint_tolerance = s.constraint_tolerance;
        out.initial_step = s.initial_step;
        out.min_step = s.min_step;
        out.max_step = s.max_step;
        out.fixed_step = s.fixed_step.unwrap_or(out.fixed_step);
        out.max_steps = s.max_steps.unwrap_or(out.max_steps);
        if let Some(r) = &s.rigid_contact {
            out.rigid_contact = r.settings();
        }
    }
    out.validate().map_err(|e| match e {
        Error::Settings(s) if s.section == "rigid contact" => {
            invalid!("integrator.rigid_contact.{} {}", s.key, s.problem)
        }
        Error::Settings(s) => invalid!("integrator.{} {}", s.key, s.problem),
        other => other.into_model_error(),
    })?;
    Ok(out)
}

pub(super) fn frame(f: Option<&FrameSection>, key: &str) -> Res<Transform<f64>> {
    let Some(f) = f else {
        return Ok(Transform::identity());
    };
    let mut x = Transform::from_rotation(super::frame_rotation::rotation(f, key)?);
    if let Some(p) = f.translation {
        x.p = finite3(p).map_err(|m| invalid!(".{key}.translation: {m}"))?;
    }
    Ok(x)
}

fn inertia(v: Option<&Vec<f64>>) -> Res<Matrix3<f64>> {
    let Some(v) = v else {
        return Ok(Matrix3::zeros());
    };
    if !v.iter().all(|x| x.is_finite()) {
        return Err(".inertia: every entry must be finite".into());
    }
    match v.len() {
        3 => Ok(Matrix3::from_diagonal(&Vector3::new(v[0], v[1], v[2]))),
        6 => Ok(Matrix3::new(
            v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2],
        )),
        n => Err(invalid!(
            ".inertia: give 3 (Ixx, Iyy, Izz) or 6 (Ixx, Iyy, Izz, Ixy, Ixz, Iyz) numbers, got {n}"
        )),
    }
}

fn add_body(b: &mut ModelBuilder<f64>, s: &BodySection) -> Res<()> {
    let parent_name = s.parent.as_deref().unwrap_or("ground");
    let parent = b
        .body_id(parent_name)
        .ok_or_else(|| invalid!(".parent: no body named '{parent_name}' before this one"))?;
    if !s.mass.is_finite() || s.mass < 0.0 {
        return Err(invalid!(
            ".mass: must be finite and non-negative, got {}",
            s.mass
        ));
    }
    let com = finite3(s.com.unwrap_or([0.0; 3])).map_err(|m| invalid!(".com: {m}"))?;
    let mp = MassProperties::new(s.mass, com, inertia(s.inertia.as_ref())?);
    let def = BodyDef::new(&s.name, parent, s.mobilizer, mp)
        .with_x_pf(frame(s.inboard.as_ref(), "inboard")?)
        .with_x_bm(frame(s.outboard.as_ref(), "outboard")?);
    b.add_body(def)
        .map(|_| ())
        .map_err(|e| match e.into_model_error() {
            ModelError::Inertia { problem, .. } => invalid!(".inertia: {problem}"),
            ModelError::Body { problem, .. } => invalid!(": {problem}"),
            other => invalid!(": {other}"),
        })
}

fn set_initial(
    model: &crate::model::Model<f64>,
    state: &mut crate::state::State<f64>,
    i: usize,
    s: &BodySection,
) -> Res<()> {
    let id = BodyId(i);
    let kind = model.body(id).mobilizer;
    for (key, values, n) in [("q", &s.q, kind.nq()), ("u", &s.u, kind.nu())] {
        if let Some(v) = values {
            if v.len() != n {
                return Err(invalid!(
                    "{key}: the {kind} mobilizer needs {n} values, got {}",
                    v.len()
                ));
            }
            if !v.iter().all(|x| x.is_finite()) {
                return Err(invalid!("{key}: every value must be finite"));
            }
        }
    }
    if let Some(q) = &s.q {
        if let Some(k) = kind.quaternion_offset() {
            if q[k..k + 4].iter().map(|x| x * x).sum::<f64>() == 0.0 {
                return Err("q: the quaternion must not be zero".into());
            }
        }
        state.set_body_q(model, id, q);
    }
    if let Some(u) = &s.u {
        state.set_body_u(model, id, u);
    }
    Ok(())
}

/// A contact element's name: its `name`, else its model and index (`hunt_crossley0`).
fn contact_name(c: &ContactSection, index: usize) -> String {
    let model = match c.model {
        ContactModelKind::HuntCrossley => "hunt_crossley",
        ContactModelKind::Compliant => "compliant",
        ContactModelKind::ElasticFoundation => "elastic_foundation",
    };
    c.name.clone().unwrap_or_else(|| format!("{model}{index}"))
}

pub(super) fn material(m: &MaterialSection) -> ContactMaterial {
    ContactMaterial {
        stiffness: m.stiffness,
        dissipation: m.dissipation.unwrap_or(0.0),
        static_friction: m.static_friction.unwrap_or(0.0),
        dynamic_friction: m.dynamic_friction.unwrap_or(0.0),
        viscous_friction: m.viscous_friction.unwrap_or(0.0),
    }
}

/// A contact element: its own surfaces, then the robots' collision spheres that join it.
fn build_contact(
    b: &ModelBuilder<f64>,
    materials: &BTreeMap<String, MaterialSection>,
    c: &ContactSection,
    name: &str,
    from_robots: Vec<(ContactSurface<f64>, &str)>,
) -> Res<Force<f64>> {
    let mut surfaces = Vec::with_capacity(c.surfaces.len());
    let mut mats = Vec::with_capacity(c.surfaces.len());
    for (k, s) in c.surfaces.iter().enumerate() {
        let key = format!("surface[{k}]");
        let body = body_ref(b, &format!("{key}.body"), &s.body)?;
        let shape = surface_shape(&key, s)?;
        let x_bs = frame(s.frame.as_ref(), "frame").map_err(|m| invalid!("{key}{m}"))?;
        let m = materials
            .get(&s.material)
            .ok_or_else(|| invalid!("{key}.material: no [material.{}] table", s.material))?;
        surfaces.push(ContactSurface { body, x_bs, shape });
        mats.push(material(m));
    }
    for (surface, m) in from_robots {
        surfaces.push(surface);
        mats.push(material(&materials[m]));
    }
    let friction = match c.model {
        ContactModelKind::HuntCrossley => FrictionModel::Hollars,
        ContactModelKind::Compliant => FrictionModel::Stribeck,
        ContactModelKind::ElasticFoundation => {
            return Err("model: elastic foundations are built by scene_foundation".into())
        }
    };
    let vt = c.transition_velocity.unwrap_or(0.01);
    HuntCrossleyForce::new(name, surfaces, mats, vt, friction).map(Force::HuntCrossley)
}

pub(super) fn body_ref(b: &ModelBuilder<f64>, key: &str, name: &str) -> Res<BodyId> {
    b.body_id(name)
        .ok_or_else(|| invalid!("{key}: no body named '{name}'"))
}

pub(super) fn station(key: &str, v: Option<[f64; 3]>) -> Res<Vector3<f64>> {
    finite3(v.unwrap_or([0.0; 3])).map_err(|m| invalid!("{key}: {m}"))
}
