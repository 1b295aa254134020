//! OpenSim muscles and their paths as ferrobody [`Muscle`]s.
//!
//! | OpenSim | read as |
//! |---|---|
//! | `DeGrooteFregly2016Muscle` | [`DeGrooteFregly2016`] (explicit and implicit tendon-compliance modes) |
//! | `GeometryPath` / `PathPointSet` | [`GeometryPath`] of `PathPoint`, `ConditionalPathPoint`, `MovingPathPoint` |
//!
//! Wrap objects: `WrapCylinder` (others are refused until issue 37 adds them). The muscle's excitation
//! is its `PrescribedController` function ([`super::controllers`]), else zero. Its states are
//! z variables starting at `default_activation` and `default_normalized_tendon_force`;
//! [`super::OsimModel`]'s build then equilibrates them as `Model::equilibrateMuscles` does.

use super::document::{child, objects, tag_of, Res};
use super::forces::ForceCtx;
use super::frames::socket_frame;
use super::muscle_properties::{
    degroote_properties, millard, rigid_tendon_properties, schutte_properties, thelen_properties,
};
use crate::ids::ZId;
use crate::math::function::Function;
use crate::model::Force;
use crate::muscles::{
    CoordinateRef, Excitation, GeometryPath, Muscle, MuscleModel, PathPoint, PathWrap, Quadrant,
    WrapCylinder, WrapEllipsoid, WrapMethod, WrapObject, WrapShape, WrapSphere, WrapTorus,
};
use nalgebra::Vector3;
use roxmltree::Node;

/// The muscle tags this reader simulates.
pub(super) const SUPPORTED: [&str; 5] = [
    "DeGrooteFregly2016Muscle",
    "Millard2012EquilibriumMuscle",
    "RigidTendonMuscle",
    "Schutte1993Muscle_Deprecated",
    "Thelen2003Muscle",
];

impl ForceCtx<'_, '_, '_> {
    /// The muscle's law and properties, with its minimum activation (the least `min_control`
    /// OpenSim accepts).
    fn muscle_model(&mut self, node: Node) -> Res<(MuscleModel, f64)> {
        let doc = self.doc;
        Ok(match tag_of(node).as_str() {
            "Thelen2003Muscle" => {
                let m = thelen_properties(doc, node)?;
                m.validate().map_err(|e| doc.err(node, e))?;
                let a_min = m.minimum_activation;
                (MuscleModel::Thelen2003(m), a_min)
            }
            "Schutte1993Muscle_Deprecated" => {
                let m = schutte_properties(doc, node)?;
                m.validate().map_err(|e| doc.err(node, e))?;
                (MuscleModel::Schutte1993(Box::new(m)), 0.0)
            }
            "RigidTendonMuscle" => {
                let m = rigid_tendon_properties(doc, node)?;
                m.validate().map_err(|e| doc.err(node, e))?;
                (MuscleModel::RigidTendon(Box::new(m)), 0.0)
            }
            "Millard2012EquilibriumMuscle" => {
                let mut m = millard(doc, node)?;
                m.share_curves(&mut self.curves);
                let a_min = m.properties.minimum_activation;
                (MuscleModel::Millard2012(Box::new(m)), a_min)
            }
            _ => {
                let m = degroote_properties(doc, node)?;
                m.validate().map_err(|e| doc.err(node, e))?;
                (MuscleModel::DeGrooteFregly2016(m), 0.0)
            }
        })
    }

    /// Adds a supported muscle; returns its state variables by OpenSim path.
    pub(super) fn muscle(&mut self, node: Node) -> Res<Vec<(String, ZId)>> {
        let doc = self.doc;
        let name = node.attribute("name").unwrap_or("muscle").to_string();
        let (model, min_control_default) = self.muscle_model(node)?;
        let min_control = doc.bound(node, "min_control", min_control_default)?;
        let max_control = doc.bound(node, "max_control", 1.0)?;
        let bounds_at = child(node, "min_control").unwrap_or(node);
        if min_control > max_control {
            return Err(doc.err(
                bounds_at,
                format!("excitation bounds inverted: min_control {min_control} > max_control {max_control}"),
            ));
        }
        if min_control < min_control_default {
            return Err(doc.err(
                bounds_at,
                format!("min_control {min_control} is below the minimum activation {min_control_default} (OpenSim refuses it)"),
            ));
        }
        self.control_bounds
            .insert(name.clone(), [min_control, max_control]);
        let path = self.geometry_path(node)?;
        let component = doc.path_of(node);
        let mut states = Vec::new();
        let mut state =
            |builder: &mut crate::model::ModelBuilder<f64>, suffix: &str, value: f64| {
                let z = builder.add_z(value);
                states.push((format!("{component}/{suffix}"), z));
                z
            };
        let (mut activation, mut norm_tendon_force, mut fiber_length) = (None, None, None);
        match &model {
            MuscleModel::DeGrooteFregly2016(m) => {
                if !m.ignore_activation_dynamics {
                    activation = Some(state(self.builder, "activation", m.default_activation));
                }
                if !m.ignore_tendon_compliance {
                    let f = m.default_normalized_tendon_force;
                    norm_tendon_force = Some(state(self.builder, "normalized_tendon_force", f));
                }
            }
            MuscleModel::Thelen2003(m) => {
                activation = Some(state(self.builder, "activation", m.default_activation));
                fiber_length = Some(state(self.builder, "fiber_length", m.default_fiber_length));
            }
            // `ActivationFiberLengthMuscle_Deprecated` starts both states at zero (no
            // properties); the fibre length is then equilibrated.
            MuscleModel::Schutte1993(_) => {
                activation = Some(state(self.builder, "activation", 0.0));
                fiber_length = Some(state(self.builder, "fiber_length", 0.0));
            }
            MuscleModel::Millard2012(m) => {
                let p = &m.properties;
                if !p.ignore_activation_dynamics {
                    let a = m.clamp_activation(p.default_activation);
                    activation = Some(state(self.builder, "activation", a));
                }
                if !p.ignore_tendon_compliance {
                    let l = p.default_fiber_length.max(m.minimum_fiber_length());
                    fiber_length = Some(state(self.builder, "fiber_length", l));
                }
            }
            // No states: the activation is the control, the tendon rigid.
            MuscleModel::RigidTendon(_) => {}
        }
        let mut excitation = self.excitation_of(node, &name)?;
        if let Some(&gain) = self.reflex_gains.get(&name) {
            excitation = Excitation::Reflex {
                base: Box::new(excitation),
                gain,
                max_speed: model.max_shortening_speed(),
            };
        }
        let mut muscle = Muscle::new(name, path, model, excitation);
        muscle.activation = activation;
        muscle.norm_tendon_force = norm_tendon_force;
        muscle.fiber_length = fiber_length;
        self.push(node, Force::Muscle(Box::new(muscle)))?;
        Ok(states)
    }

    /// The `GeometryPath` of a muscle or other path force (its points and wrap objects).
    pub(super) fn geometry_path(&self, owner: Node) -> Res<GeometryPath> {
        let doc = self.doc;
        let path = child(owner, "GeometryPath")
            .ok_or_else(|| doc.err(owner, format!("a {} needs a <GeometryPath>", tag_of(owner))))?;
        let set = child(path, "PathPointSet")
            .ok_or_else(|| doc.err(path, "a GeometryPath needs a <PathPointSet>"))?;
        let points = objects(set)
            .into_iter()
            .map(|p| self.path_point(p))
            .collect::<Res<Vec<_>>>()?;
        if points.len() < 2 {
            return Err(doc.err(
                set,
                format!("a path needs at least 2 points, got {}", points.len()),
            ));
        }
        let wraps = match child(path, "PathWrapSet") {
            Some(set) => objects(set)
                .into_iter()
                .map(|w| self.path_wrap(w))
                .collect::<Res<Vec<_>>>()?,
            None => Vec::new(),
        };
        Ok(GeometryPath { points, wraps })
    }

    fn path_point(&self, node: Node) -> Res<PathPoint> {
        let doc = self.doc;
        let frame = socket_frame(doc, node, "socket_parent_frame")?;
        let body = self.body(node, &frame.body)?;
        let fixed = || -> Res<Vector3<f64>> {
            Ok(frame
                .x_bf
                .apply(&Vector3::from(doc.fixed(node, "location", [0.0; 3])?)))
        };
        Ok(match tag_of(node).as_str() {
            "PathPoint" => PathPoint::Fixed {
                body,
                p_bs: fixed()?,
            },
            "ConditionalPathPoint" => {
                let [min, max] = doc.fixed(node, "range", [0.0, 0.0])?;
                if min > max {
                    return Err(doc.err(node, format!("<range> {min} {max} is inverted")));
                }
                PathPoint::Conditional {
                    body,
                    p_bs: fixed()?,
                    coordinate: self.coordinate_socket(node, "socket_coordinate")?,
                    range: [min, max],
                }
            }
            "MovingPathPoint" => {
                let mut functions = Vec::new();
                let mut coordinate = None;
                for axis in ["x", "y", "z"] {
                    let c = self.coordinate_socket(node, &format!("socket_{axis}_coordinate"))?;
                    if coordinate.is_some_and(|first| first != c) {
                        return Err(doc.err(node, "x, y and z locations must depend on the same coordinate (as OpenSim requires)"));
                    }
                    coordinate = Some(c);
                    let holder = child(node, &format!("{axis}_location"))
                        .ok_or_else(|| doc.err(node, format!("missing <{axis}_location>")))?;
                    let f = holder
                        .children()
                        .find(|n| n.is_element())
                        .ok_or_else(|| doc.err(holder, format!("<{axis}_location> has no function")))?;
                    functions.push(super::custom_joint::read_function(doc, f)?);
                }
                let [fx, fy, fz]: [Function; 3] = functions.try_into().expect("three axes");
                let (el, path) = doc.text(node, "socket_x_coordinate").expect("read above");
                let name = path.rsplit('/').next().unwrap_or(&path);
                let range = *self.ranges.get(name).ok_or_else(|| doc.err(el, "no range"))?;
                PathPoint::Moving {
                    body,
                    coordinate: coordinate.expect("three axes"),
                    range,
                    location: Box::new([fx, fy, fz]),
                    x_bf: frame.x_bf,
                }
            }
            other => {
                return Err(doc.err(
                    node,
                    format!("path point <{other}> is not supported (PathPoint, ConditionalPathPoint, MovingPathPoint)"),
                ))
            }
        })
    }

    /// A `PathWrap`: the wrap object it names (on any body or Ground) and its point range.
    fn path_wrap(&self, node: Node) -> Res<PathWrap> {
        let doc = self.doc;
        let (el, name) = doc
            .text(node, "wrap_object")
            .ok_or_else(|| doc.err(node, "a PathWrap needs <wrap_object>"))?;
        let object = doc
            .model
            .descendants()
            .filter(|n| n.is_element() && n.attribute("name") == Some(name.as_str()))
            .find(|n| {
                n.parent()
                    .and_then(|p| p.parent())
                    .is_some_and(|set| set.has_tag_name("WrapObjectSet"))
            })
            .ok_or_else(|| {
                doc.err(
                    el,
                    format!("<wrap_object> '{name}' is not a wrap object of the model"),
                )
            })?;
        let range = match doc.numbers(node, "range")? {
            None => [-1, -1],
            Some(v) => match v.as_slice() {
                [a, b] => [*a as i32, *b as i32],
                _ => return Err(doc.err(node, "<range> needs two point numbers")),
            },
        };
        let method = match doc.text(node, "method") {
            None => WrapMethod::Hybrid,
            Some((el, m)) => match m.trim() {
                "hybrid" => WrapMethod::Hybrid,
                "midpoint" => WrapMethod::Midpoint,
                "axial" => WrapMethod::Axial,
                other => {
                    return Err(doc.err(
                        el,
                        format!("<method> '{other}' is not one of hybrid, midpoint, axial"),
                    ))
                }
            },
        };
        Ok(PathWrap {
            object: self.wrap_object(object)?,
            range,
            method,
        })
    }

    /// A wrap object on the body (or Ground) whose `WrapObjectSet` holds it.
    fn wrap_object(&self, node: Node) -> Res<WrapObject> {
        let doc = self.doc;
        let owner = node
            .ancestors()
            .find(|n| n.has_tag_name("Body") || n.has_tag_name("Ground"))
            .ok_or_else(|| doc.err(node, "a wrap object must be on a Body or Ground"))?;
        let body = self.body(node, &doc.path_of(owner))?;
        let translation = Vector3::from(doc.fixed(node, "translation", [0.0; 3])?);
        let rotation = doc.fixed(node, "xyz_body_rotation", [0.0; 3])?;
        let quadrant_name = doc
            .text(node, "quadrant")
            .map_or("all".to_string(), |t| t.1);
        let quadrant = match quadrant_name.as_str() {
            "all" | "ALL" | "All" | "Unassigned" => Quadrant::All,
            q => {
                let (sign, axis) = match q.strip_prefix('-') {
                    Some(rest) => (-1, rest),
                    None => (1, q.strip_prefix('+').unwrap_or(q)),
                };
                let axis = match axis {
                    "x" | "X" => 0,
                    "y" | "Y" => 1,
                    "z" | "Z" => 2,
                    _ => {
                        return Err(doc.err(
                            node,
                            format!("<quadrant> '{q}' is not one of +x, -x, +y, -y, +z, -z, all"),
                        ))
                    }
                };
                Quadrant::Half { axis, sign }
            }
        };
        let shape = match tag_of(node).as_str() {
            "WrapCylinder" => {
                let radius = doc.scalar(node, "radius", 1.0)?;
                let length = doc.scalar(node, "length", 1.0)?;
                if !(radius > 0.0 && length > 0.0) {
                    return Err(doc.err(
                        node,
                        format!("radius {radius} and length {length} must be positive"),
                    ));
                }
                WrapShape::Cylinder(WrapCylinder { radius, length })
            }
            "WrapEllipsoid" => {
                let dimensions = doc.fixed(node, "dimensions", [-1.0; 3])?;
                if !dimensions.iter().all(|d| d.is_finite() && *d > 0.0) {
                    return Err(doc.err(
                        node,
                        format!("<dimensions> {dimensions:?} must be three positive lengths"),
                    ));
                }
                WrapShape::Ellipsoid(WrapEllipsoid { dimensions })
            }
            "WrapSphere" => {
                let radius = doc.scalar(node, "radius", -1.0)?;
                if !(radius.is_finite() && radius > 0.0) {
                    return Err(doc.err(node, format!("<radius> {radius} must be positive")));
                }
                WrapShape::Sphere(WrapSphere { radius })
            }
            "WrapTorus" => {
                // OpenSim's defaults: inner 0.01 m, outer 0.05 m.
                let inner_radius = doc.scalar(node, "inner_radius", 0.01)?;
                let outer_radius = doc.scalar(node, "outer_radius", 0.05)?;
                if !(inner_radius.is_finite() && inner_radius > 0.0 && outer_radius.is_finite() && outer_radius > 0.0) {
                    return Err(doc.err(
                        node,
                        format!("<inner_radius> {inner_radius} and <outer_radius> {outer_radius} must be positive"),
                    ));
                }
                WrapShape::Torus(WrapTorus {
                    inner_radius,
                    outer_radius,
                })
            }
            other => {
                return Err(doc.err(
                    node,
                    format!(
                        "wrap object <{other}> is not an OpenSim wrap object: WrapCylinder, WrapEllipsoid, WrapSphere and WrapTorus are"
                    ),
                ))
            }
        };
        Ok(WrapObject {
            name: node.attribute("name").unwrap_or_default().to_string(),
            body,
            x_bw: super::frames::offset_from(&translation, &rotation),
            quadrant,
            active: doc.boolean(node, "active", true)?,
            shape,
        })
    }

    /// The coordinate a socket names (`/jointset/J/C` or `C`).
    fn coordinate_socket(&self, node: Node, tag: &str) -> Res<CoordinateRef> {
        let doc = self.doc;
        let (el, path) = doc
            .text(node, tag)
            .ok_or_else(|| doc.err(node, format!("missing <{tag}>")))?;
        let name = path.rsplit('/').next().unwrap_or(&path);
        let (body, index, _) = self.coordinates.get(name).copied().ok_or_else(|| {
            doc.err(
                el,
                format!("<{tag}> '{path}' is not a coordinate of the model"),
            )
        })?;
        Ok(CoordinateRef { body, index })
    }
}
