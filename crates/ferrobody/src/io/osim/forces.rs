//! OpenSim force elements as ferrobody forces.
//!
//! | OpenSim | ferrobody | as OpenSim computes it |
//! |---|---|---|
//! | `SpringGeneralizedForce` | `MobilityLinearSpring` + `MobilityLinearDamper` | `τ = −k (q − q_rest) − c u` on the coordinate's speed |
//! | `PointToPointSpring` | `TwoPointLinearSpring` | Simbody `Force::TwoPointLinearSpring` between the two points |
//! | `HuntCrossleyForce` | `HuntCrossleyForce` (Hollars friction) | one Simbody contact set per force; surfaces in parameter-set order |
//! | `ElasticFoundationForce` | `ElasticFoundationForce` (`elastic_foundation.rs`) | one contact set per force; meshes carry their parameter set's values, half spaces and spheres none |
//! | `SmoothSphereHalfSpaceForce` | `SmoothSphereHalfSpaceForce` | sphere centre `X_BF · location`; half-space frame `X_BF · X(location, orientation)` |
//!
//! `appliesForce = false` makes the element start disabled, as in OpenSim.

use super::contact::{contact_surface, ContactGeometry};
use super::document::{child, objects, Doc, OsimError, Res};
use super::frames::offset_from;
use super::frames::socket_frame;
use super::MotionType;
use crate::contact::{
    ContactMaterial, ExponentialSpringForce, ExponentialSpringParameters, FrictionModel,
    HuntCrossleyForce, SmoothContactParameters, SmoothSphereHalfSpaceForce,
};
use crate::forces::{
    CoordinateLimitForce, MobilityLinearDamper, MobilityLinearSpring, TwoPointLinearSpring,
};
use crate::ids::{BodyId, ForceId};
use crate::model::Force;
use crate::model::ModelBuilder;
use nalgebra::Vector3;
use roxmltree::Node;
use std::collections::HashMap;

/// What force building needs: the document, the builder, and name → index maps.
pub(super) struct ForceCtx<'b, 'a, 'i> {
    pub doc: &'b Doc<'a, 'i>,
    pub builder: &'b mut ModelBuilder<f64>,
    /// Body component path → body id.
    pub bodies: &'b HashMap<String, BodyId>,
    /// Coordinate name → (body, index within its mobilizer, motion type).
    pub coordinates: &'b HashMap<String, (BodyId, usize, MotionType)>,
    /// Prescribed excitations by actuator name (`super::controllers`).
    pub excitations: &'b HashMap<String, crate::math::function::Function>,
    /// `ToyReflexController` gains by muscle name (`super::controllers`).
    pub reflex_gains: &'b HashMap<String, f64>,
    /// Coordinate name → its `range`.
    pub ranges: &'b HashMap<String, [f64; 2]>,
    /// Actuator name → `[min_control, max_control]`, as read.
    pub control_bounds: HashMap<String, [f64; 2]>,
    /// The Millard curves read so far, shared by muscles with equal curves.
    pub curves: Vec<crate::muscles::smooth_curve::SmoothCurve>,
    /// The auxiliary states of the forces read so far (a bushing's or a limit force's
    /// dissipated energy) by OpenSim path.
    pub state_variables: Vec<(String, crate::ids::ZId)>,
}

/// The force tags this reader simulates.
pub(super) const SUPPORTED: [&str; 13] = [
    "PrescribedForce",
    "ExpressionBasedCoordinateForce",
    "ExpressionBasedPointToPointForce",
    "ElasticFoundationForce",
    "SpringGeneralizedForce",
    "BushingForce",
    "FunctionBasedBushingForce",
    "ExpressionBasedBushingForce",
    "ExponentialContactForce",
    "CoordinateLimitForce",
    "PointToPointSpring",
    "HuntCrossleyForce",
    "SmoothSphereHalfSpaceForce",
];

/// OpenSim 4.6's own force classes (every registered `Force` subclass) that change the
/// dynamics and that the reader cannot simulate: an error naming the element, not a silent
/// omission. A class OpenSim does not know (a plugin's, such as `BodyDragForce`) is left out
/// and listed, as OpenSim itself skips an object type it does not recognise.
const NEEDED_BUT_UNSUPPORTED: [&str; 9] = [
    "BodyActuator",
    "ClutchedPathSpring",
    "Delp1990Muscle_Deprecated",
    "ExternalForce",
    "McKibbenActuator",
    "MeyerFregly2016Force",
    "MeyerFregly2016Muscle",
    "Millard2012AccelerationMuscle",
    "Thelen2003Muscle_Deprecated",
];

/// Whether `tag` is a force the reader refuses (instead of leaving out).
pub(super) fn is_unsupported_force(tag: &str) -> bool {
    NEEDED_BUT_UNSUPPORTED.contains(&tag)
}

impl ForceCtx<'_, '_, '_> {
    /// The excitation of the actuator `name` at `at`: its `PrescribedController`'s function
    /// where one drives it, else a new entry of the model's control vector (zero until set,
    /// OpenSim's excitation without a controller; what Moco and `--controls` set).
    pub(super) fn excitation_of(
        &mut self,
        at: Node,
        name: &str,
    ) -> Res<crate::muscles::Excitation> {
        use crate::muscles::Excitation;
        match self.excitations.get(name) {
            Some(f) => Ok(Excitation::Prescribed(f.clone())),
            None => self
                .builder
                .add_force_control(name)
                .map(Excitation::Control)
                .map_err(|e| super::build::model_error(self.doc, at, e)),
        }
    }

    pub(super) fn body(&self, at: Node, path: &str) -> Res<BodyId> {
        if path == "/ground" {
            return Ok(BodyId::GROUND);
        }
        self.bodies.get(path).copied().ok_or_else(|| {
            self.doc
                .err(at, format!("{path} is not a body of the model"))
        })
    }

    /// The coordinate a force names in its `<coordinate>`: body, index, motion type.
    pub(super) fn coordinate(&self, node: Node) -> Res<(BodyId, usize, MotionType)> {
        let doc = self.doc;
        let (el, name) = doc
            .text(node, "coordinate")
            .ok_or_else(|| doc.err(node, "missing <coordinate>"))?;
        self.coordinates.get(name.as_str()).copied().ok_or_else(|| {
            doc.err(
                el,
                format!("<coordinate> '{name}' is not a coordinate of the model"),
            )
        })
    }

    /// Applies `appliesForce = false` (the element starts disabled).
    fn apply_enabled(&mut self, node: Node, id: ForceId) -> Res<()> {
        if !self.doc.boolean(node, "appliesForce", true)? {
            self.builder
                .set_force_disabled_by_default(id, true)
                .map_err(|e| self.doc.err(node, e.to_string()))?;
        }
        Ok(())
    }

    pub(super) fn push(&mut self, node: Node, force: Force<f64>) -> Res<ForceId> {
        let id = self
            .builder
            .add_force(force)
            .map_err(|e| self.doc.err(node, e.into_model_error()))?;
        self.apply_enabled(node, id)?;
        Ok(id)
    }

    /// Adds one supported force element.
    pub fn add(&mut self, node: Node, geometry: &HashMap<String, ContactGeometry>) -> Res<()> {
        match node.tag_name().name() {
            "SpringGeneralizedForce" => self.spring_generalized(node),
            "CoordinateLimitForce" => self.coordinate_limit(node),
            "ExponentialContactForce" => self.exponential_contact(node),
            "BushingForce" => self.bushing(node),
            "FunctionBasedBushingForce" | "ExpressionBasedBushingForce" => {
                self.nonlinear_bushing(node)
            }
            "PointToPointSpring" => self.point_to_point(node),
            "HuntCrossleyForce" => self.hunt_crossley(node, geometry),
            "SmoothSphereHalfSpaceForce" => self.smooth(node, geometry),
            "ElasticFoundationForce" => self.elastic_foundation(node, geometry),
            "PrescribedForce" => self.prescribed_force(node),
            "ExpressionBasedCoordinateForce" => self.coordinate_expression(node),
            "ExpressionBasedPointToPointForce" => self.point_to_point_expression(node),
            tag => Err(self
                .doc
                .err(node, format!("force <{tag}> is not supported"))),
        }
    }

    fn spring_generalized(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let (body, k, _) = self.coordinate(node)?;
        let stiffness = doc.non_negative(node, "stiffness", 0.0)?;
        let q0 = doc.scalar(node, "rest_length", 0.0)?;
        let damping = doc.non_negative(node, "viscosity", 0.0)?;
        let spring = MobilityLinearSpring {
            body,
            coordinate: k,
            stiffness,
            q0,
        };
        self.push(node, Force::MobilityLinearSpring(spring))?;
        let damper = MobilityLinearDamper {
            body,
            speed: k,
            damping,
        };
        self.push(node, Force::MobilityLinearDamper(damper))?;
        Ok(())
    }

    /// OpenSim's `CoordinateLimitForce`: limits and transition in degrees (stiffness and
    /// damping per degree) for rotational coordinates, converted to SI as OpenSim does.
    fn coordinate_limit(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let (body, k, motion) = self.coordinate(node)?;
        let w = if motion == MotionType::Rotational {
            std::f64::consts::PI / 180.0
        } else {
            1.0
        };
        let dissipated_energy = doc
            .boolean(node, "compute_dissipation_energy", false)?
            .then(|| self.builder.add_z(0.0));
        if let Some(z) = dissipated_energy {
            let path = format!("{}/dissipatedEnergy", doc.path_of(node));
            self.state_variables.push((path, z));
        }
        let limit = CoordinateLimitForce {
            name: node
                .attribute("name")
                .unwrap_or("CoordinateLimitForce")
                .to_string(),
            body,
            coordinate: k,
            upper_limit: w * doc.scalar(node, "upper_limit", 0.0)?,
            upper_stiffness: doc.scalar(node, "upper_stiffness", 1.0)? / w,
            lower_limit: w * doc.scalar(node, "lower_limit", 0.0)?,
            lower_stiffness: doc.scalar(node, "lower_stiffness", 1.0)? / w,
            damping: doc.scalar(node, "damping", 0.001)? / w,
            transition: w * doc.scalar(node, "transition", 0.1)?,
            dissipated_energy,
        };
        self.push(node, Force::CoordinateLimit(limit))?;
        Ok(())
    }

    /// OpenSim's `ExponentialContactForce` (a Simbody `ExponentialSpringForce`): the contact
    /// plane's pose in Ground as six numbers (body-fixed x-y-z angles, then the origin), the
    /// parameters, and a `Station` on a body (not Ground).
    fn exponential_contact(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let x = doc.fixed(node, "contact_plane_transform", [0.0; 6])?;
        let plane = offset_from(&Vector3::new(x[3], x[4], x[5]), &[x[0], x[1], x[2]]);
        let mut p = ExponentialSpringParameters::<f64>::default();
        let [d0, d1, d2] = doc.fixed(node, "exponential_shape_parameters", [p.d0, p.d1, p.d2])?;
        (p.d0, p.d1, p.d2) = (d0, d1, d2);
        p.normal_viscosity = doc.scalar(node, "normal_viscosity", p.normal_viscosity)?;
        p.max_normal_force = doc.scalar(node, "max_normal_force", p.max_normal_force)?;
        p.friction_elasticity = doc.scalar(node, "friction_elasticity", p.friction_elasticity)?;
        p.friction_viscosity = doc.scalar(node, "friction_viscosity", p.friction_viscosity)?;
        p.settle_velocity = doc.scalar(node, "settle_velocity", p.settle_velocity)?;
        let mu_s = doc.scalar(node, "initial_mu_static", p.initial_mu_static)?;
        let mu_k = doc.scalar(node, "initial_mu_kinetic", p.initial_mu_kinetic)?;
        p.set_initial_friction(mu_s, mu_k);
        let station = child(node, "Station")
            .ok_or_else(|| doc.err(node, "an ExponentialContactForce needs a <Station>"))?;
        let frame = socket_frame(doc, station, "socket_parent_frame")?;
        if frame.body == "/ground" {
            return Err(doc.err(station, "the station must be on a body, not on Ground"));
        }
        let location = frame
            .x_bf
            .apply(&Vector3::from(doc.fixed(station, "location", [0.0; 3])?));
        let body = self.body(station, &frame.body)?;
        let name = node.attribute("name");
        let id = ExponentialSpringForce::add_to(self.builder, name, plane, body, location, p)
            .map_err(|e| doc.err(node, e.into_model_error()))?;
        self.apply_enabled(node, id)?;
        Ok(())
    }

    fn point_to_point(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let f1 = socket_frame(doc, node, "socket_body1")?;
        let f2 = socket_frame(doc, node, "socket_body2")?;
        let p1 = f1
            .x_bf
            .apply(&Vector3::from(doc.fixed(node, "point1", [0.0; 3])?));
        let p2 = f2
            .x_bf
            .apply(&Vector3::from(doc.fixed(node, "point2", [0.0; 3])?));
        let spring = TwoPointLinearSpring {
            body1: self.body(node, &f1.body)?,
            p1,
            body2: self.body(node, &f2.body)?,
            p2,
            stiffness: doc.non_negative(node, "stiffness", 1.0)?,
            rest_length: doc.non_negative(node, "rest_length", 0.0)?,
        };
        self.push(node, Force::TwoPointLinearSpring(spring))?;
        Ok(())
    }

    fn hunt_crossley(
        &mut self,
        node: Node,
        geometry: &HashMap<String, ContactGeometry>,
    ) -> Res<()> {
        let doc = self.doc;
        let mut surfaces = Vec::new();
        let mut materials = Vec::new();
        let params = child(node, "HuntCrossleyForce__ContactParametersSet")
            .or_else(|| child(node, "contact_parameters"))
            .map(objects)
            .unwrap_or_default();
        for p in params {
            let material = ContactMaterial {
                stiffness: doc.non_negative(p, "stiffness", 0.0)?,
                dissipation: doc.non_negative(p, "dissipation", 0.0)?,
                static_friction: doc.non_negative(p, "static_friction", 0.0)?,
                dynamic_friction: doc.non_negative(p, "dynamic_friction", 0.0)?,
                viscous_friction: doc.non_negative(p, "viscous_friction", 0.0)?,
            };
            let (el, names) = doc
                .text(p, "geometry")
                .ok_or_else(|| doc.err(p, "contact parameters without <geometry>"))?;
            for name in names.split_whitespace() {
                let g = geometry.get(name).ok_or_else(|| {
                    doc.err(
                        el,
                        format!("<geometry> '{name}' is not in the ContactGeometrySet"),
                    )
                })?;
                surfaces.push(contact_surface(doc, el, g, self.bodies)?);
                materials.push(material);
            }
        }
        let vt = doc.scalar(node, "transition_velocity", 0.01)?;
        let name = node.attribute("name").unwrap_or("HuntCrossleyForce");
        let force = HuntCrossleyForce::new(name, surfaces, materials, vt, FrictionModel::Hollars)
            .map_err(|m| doc.err(node, m))?;
        self.push(node, Force::HuntCrossley(force))?;
        Ok(())
    }

    fn smooth(&mut self, node: Node, geometry: &HashMap<String, ContactGeometry>) -> Res<()> {
        let doc = self.doc;
        let target = |tag: &str| -> Res<&ContactGeometry> {
            let (el, path) = doc
                .text(node, tag)
                .ok_or_else(|| doc.err(node, format!("missing <{tag}>")))?;
            let target = doc.resolve(node, el, &path)?;
            let name = target.attribute("name").unwrap_or_default();
            geometry
                .get(name)
                .ok_or_else(|| doc.err(el, format!("<{tag}> '{path}' is not a contact geometry")))
        };
        let (sphere, half) = (target("socket_sphere")?, target("socket_half_space")?);
        let (
            ContactGeometry::Sphere {
                frame: sf,
                location,
                radius,
                ..
            },
            ContactGeometry::HalfSpace { frame: hf, x_fs },
        ) = (sphere, half)
        else {
            return Err(doc.err(
                node,
                "socket_sphere must name a ContactSphere and socket_half_space a ContactHalfSpace",
            ));
        };
        let d = SmoothContactParameters::<f64>::default();
        let p = SmoothContactParameters::new(
            doc.non_negative(node, "stiffness", 1.0)?,
            doc.non_negative(node, "dissipation", 0.0)?,
            doc.non_negative(node, "static_friction", 0.0)?,
            doc.non_negative(node, "dynamic_friction", 0.0)?,
            doc.non_negative(node, "viscous_friction", 0.0)?,
            doc.scalar(node, "transition_velocity", d.transition_velocity)?,
            doc.scalar(node, "constant_contact_force", d.constant_contact_force)?,
            doc.scalar(node, "hertz_smoothing", d.hertz_smoothing)?,
            doc.scalar(node, "hunt_crossley_smoothing", d.hunt_crossley_smoothing)?,
        );
        let mut force = SmoothSphereHalfSpaceForce::new(
            self.body(node, &sf.body)?,
            sf.x_bf.apply(location),
            *radius,
            self.body(node, &hf.body)?,
            &hf.x_bf * x_fs,
            p,
        )
        .map_err(|m| doc.err(node, m))?;
        if let Some(n) = node.attribute("name") {
            force.name = n.to_string();
        }
        self.push(node, Force::SmoothSphereHalfSpace(force))?;
        Ok(())
    }
}

/// An error for a force that changes the dynamics but cannot be simulated.
pub(super) fn unsupported(doc: &Doc, node: Node) -> OsimError {
    let tag = node.tag_name().name();
    doc.err(
        node,
        format!("force <{tag}> changes the motion and is not supported yet; remove it or set <appliesForce>false</appliesForce>"),
    )
}
