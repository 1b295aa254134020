//! OpenSim's constraints as ferrobody constraints, as `Model::initSystem` builds them:
//!
//! * coordinates: `locked` → [`CoordinateLock`] at `default_value` (OpenSim's
//!   `PrescribedMotion` on a `ModifiableConstant`); `prescribed_function` →
//!   [`PrescribedCoordinate`], enabled when `prescribed` is true and the coordinate is not
//!   locked (locking takes precedence, `Coordinate::setLocked`); `clamped` only checks that the
//!   default value lies in the range (`Coordinate::extendFinalizeFromProperties`): a forward
//!   simulation does not clamp (OpenSim reads the flag in its assembler and in
//!   `Coordinate::setValue` only).
//! * `ConstraintSet`: `CoordinateCouplerConstraint` (one independent coordinate:
//!   `q_d = scale_factor · f(q_i)`), `PointConstraint` (Ball), `ConstantDistanceConstraint`
//!   (Rod), `PointOnLineConstraint` and `WeldConstraint`; `isEnforced` false adds the constraint
//!   disabled. As OpenSim does, the points and line of the first three are measured in the base
//!   body of their socket frames (an offset frame's pose is ignored, with a warning); a Weld
//!   uses its frames' poses in their bodies.

use super::build::{model_error, Skeleton};
use super::custom_joint::read_function;
use super::document::{child, tag_of, Doc, Res};
use super::frames::{socket_frame, BodyFrame};
use crate::constraints::{
    Ball, Constraint, CoordinateCoupler, CoordinateLock, CoordinateRef, PointOnLine,
    PrescribedCoordinate, Rod, Weld,
};
use crate::ids::BodyId;
use crate::model::ModelBuilder;
use nalgebra::Vector3;
use roxmltree::Node;

/// OpenSim's slack on a clamped coordinate's default value (`SimTK::SqrtEps`).
const SQRT_EPS: f64 = 1.490_116_119_384_765_6e-8;

/// The OpenSim constraint elements this reader builds.
pub(super) const SUPPORTED: [&str; 5] = [
    "CoordinateCouplerConstraint",
    "PointConstraint",
    "ConstantDistanceConstraint",
    "PointOnLineConstraint",
    "WeldConstraint",
];

/// What was added: coordinate locks by coordinate name, and the ConstraintSet's elements as
/// (name, OpenSim type).
#[derive(Default)]
pub(super) struct Added {
    pub locks: Vec<(String, crate::constraints::ConstraintId)>,
    pub elements: Vec<(String, String)>,
    /// Enforced couplers in ConstraintSet order, for the assembly of the default pose.
    pub couplers: Vec<crate::constraints::ConstraintId>,
    /// The q of each coordinate marked `is_free_to_satisfy_constraints` (no assembly goal).
    pub free: Vec<usize>,
}

/// Adds the locks and prescribed motions of the coordinates.
pub(super) fn add_coordinate_constraints(
    doc: &Doc,
    b: &mut ModelBuilder<f64>,
    sk: &Skeleton,
    added: &mut Added,
) -> Res<()> {
    for c in &sk.coordinates {
        let Some(node) = doc.at_path(&format!("/jointset/{}/{}", c.joint, c.name)) else {
            continue;
        };
        let [lo, hi] = c.range;
        let v = c.default_value;
        if doc.boolean(node, "clamped", false)? {
            if lo > hi {
                return Err(doc.err(node, format!("clamped with an inverted range [{lo}, {hi}]")));
            }
            if v <= lo - SQRT_EPS || v >= hi + SQRT_EPS {
                return Err(doc.err(
                    node,
                    format!("clamped, but its default value {v} is outside its range [{lo}, {hi}]"),
                ));
            }
        }
        let (body, k) = sk.coordinate_at[&c.path];
        let coordinate = CoordinateRef::new(body, k);
        if doc.boolean(node, "is_free_to_satisfy_constraints", false)? {
            added.free.push(c.q_index);
        }
        let locked = doc.boolean(node, "locked", false)?;
        if locked {
            if v < lo || v > hi {
                return Err(doc.err(
                    node,
                    format!("locked at its default value {v}, outside its range [{lo}, {hi}]"),
                ));
            }
            let lock = CoordinateLock::new(coordinate, v);
            let id = add(doc, b, node, Constraint::CoordinateLock(lock))?;
            added.locks.push((c.name.clone(), id));
        }
        let prescribed = doc.boolean(node, "prescribed", false)?;
        let function =
            child(node, "prescribed_function").and_then(|f| f.children().find(|n| n.is_element()));
        match function {
            Some(f) => {
                let function = read_function(doc, f)?;
                let c = Constraint::PrescribedCoordinate(PrescribedCoordinate {
                    coordinate,
                    function,
                });
                let id = add(doc, b, node, c)?;
                let enabled = prescribed && !locked;
                b.set_constraint_disabled_by_default(id, !enabled)
                    .map_err(|e| model_error(doc, node, e))?;
            }
            None if prescribed => doc.warn(
                node,
                "<prescribed>true</prescribed> without a <prescribed_function>: not prescribed, as in OpenSim",
            ),
            None => {}
        }
    }
    Ok(())
}

fn add(
    doc: &Doc,
    b: &mut ModelBuilder<f64>,
    at: Node,
    c: Constraint<f64>,
) -> Res<crate::constraints::ConstraintId> {
    b.add_constraint(c).map_err(|e| model_error(doc, at, e))
}

/// Adds the elements of the ConstraintSet (unsupported ones are errors when enforced, left
/// out otherwise, as `left_out` counts them).
pub(super) fn add_constraint_set<'a, 'i>(
    doc: &Doc<'a, 'i>,
    b: &mut ModelBuilder<f64>,
    sk: &Skeleton,
    items: Vec<Node<'a, 'i>>,
    left_out: &mut std::collections::BTreeMap<String, usize>,
    added: &mut Added,
) -> Res<()> {
    for n in items {
        let tag = tag_of(n);
        let enforced = doc.boolean(n, "isEnforced", true)?;
        if !SUPPORTED.contains(&tag.as_str()) {
            if enforced {
                return Err(doc.err(n, format!("constraint <{tag}> is not supported yet")));
            }
            *left_out.entry(tag).or_insert(0) += 1;
            continue;
        }
        let c = read_constraint(doc, sk, n, &tag)?;
        let is_coupler = matches!(c, Constraint::CoordinateCoupler(_));
        let id = add(doc, b, n, c)?;
        if is_coupler && enforced {
            added.couplers.push(id);
        }
        b.set_constraint_disabled_by_default(id, !enforced)
            .map_err(|e| model_error(doc, n, e))?;
        let name = n.attribute("name").unwrap_or_default().to_string();
        added.elements.push((name, tag));
    }
    Ok(())
}

fn read_constraint(doc: &Doc, sk: &Skeleton, n: Node, tag: &str) -> Res<Constraint<f64>> {
    let vec3 = |t: &str| -> Res<Vector3<f64>> { Ok(Vector3::from(doc.fixed(n, t, [0.0; 3])?)) };
    Ok(match tag {
        "CoordinateCouplerConstraint" => Constraint::CoordinateCoupler(coupler(doc, sk, n)?),
        "PointConstraint" => Constraint::Ball(Ball {
            body1: base_body(doc, sk, n, "socket_body_1")?,
            point1: vec3("location_body_1")?,
            body2: base_body(doc, sk, n, "socket_body_2")?,
            point2: vec3("location_body_2")?,
        }),
        "ConstantDistanceConstraint" => Constraint::Rod(Rod {
            body1: base_body(doc, sk, n, "socket_body_1")?,
            point1: vec3("location_body_1")?,
            body2: base_body(doc, sk, n, "socket_body_2")?,
            point2: vec3("location_body_2")?,
            length: required(doc, n, "constant_distance")?,
        }),
        "PointOnLineConstraint" => {
            let direction = vec3("line_direction_vec")?;
            if direction.norm() == 0.0 {
                let at = child(n, "line_direction_vec").unwrap_or(n);
                return Err(doc.err(at, "<line_direction_vec> must not be zero"));
            }
            Constraint::PointOnLine(PointOnLine {
                line_body: base_body(doc, sk, n, "socket_line_body")?,
                direction: direction.normalize(),
                point_on_line: vec3("point_on_line")?,
                follower: base_body(doc, sk, n, "socket_follower_body")?,
                point: vec3("point_on_follower")?,
            })
        }
        _ => {
            let (f1, f2) = (
                socket_frame(doc, n, "socket_frame1")?,
                socket_frame(doc, n, "socket_frame2")?,
            );
            Constraint::Weld(Weld {
                body1: body_id(doc, sk, n, &f1)?,
                frame1: f1.x_bf,
                body2: body_id(doc, sk, n, &f2)?,
                frame2: f2.x_bf,
            })
        }
    })
}

fn required(doc: &Doc, n: Node, tag: &str) -> Res<f64> {
    if child(n, tag).is_none() {
        return Err(doc.err(n, format!("missing <{tag}>")));
    }
    doc.scalar(n, tag, 0.0)
}

/// The base body of a socket's frame; warns when an offset frame's pose is dropped.
fn base_body(doc: &Doc, sk: &Skeleton, n: Node, socket: &str) -> Res<BodyId> {
    let frame = socket_frame(doc, n, socket)?;
    if frame.x_bf != crate::math::Transform::identity() {
        doc.warn(
            n,
            format!("<{socket}> is an offset frame: its locations are measured in the base body '{}', as OpenSim does", frame.body),
        );
    }
    body_id(doc, sk, n, &frame)
}

fn body_id(doc: &Doc, sk: &Skeleton, n: Node, frame: &BodyFrame) -> Res<BodyId> {
    if frame.body == "/ground" {
        return Ok(BodyId::GROUND);
    }
    sk.bodies.get(&frame.body).copied().ok_or_else(|| {
        doc.err(
            n,
            format!("body '{}' is not in the model's tree", frame.body),
        )
    })
}

fn coupler(doc: &Doc, sk: &Skeleton, n: Node) -> Res<CoordinateCoupler> {
    let coordinate = |name: &str, tag: &str| -> Res<CoordinateRef> {
        let (body, k, _) = sk.coordinate_map.get(name).ok_or_else(|| {
            let at = child(n, tag).unwrap_or(n);
            doc.err(at, format!("<{tag}>: the model has no coordinate '{name}'"))
        })?;
        Ok(CoordinateRef::new(*body, *k))
    };
    let (at, names) = doc
        .text(n, "independent_coordinate_names")
        .ok_or_else(|| doc.err(n, "missing <independent_coordinate_names>"))?;
    let names: Vec<&str> = names.split_whitespace().collect();
    if names.len() != 1 {
        return Err(doc.err(
            at,
            format!(
                "<independent_coordinate_names>: {} coordinates; only couplers with one independent coordinate are supported",
                names.len()
            ),
        ));
    }
    let independent = coordinate(names[0], "independent_coordinate_names")?;
    let (_, dependent_name) = doc
        .text(n, "dependent_coordinate_name")
        .ok_or_else(|| doc.err(n, "missing <dependent_coordinate_name>"))?;
    let dependent = coordinate(dependent_name.trim(), "dependent_coordinate_name")?;
    let function = child(n, "coupled_coordinates_function")
        .and_then(|f| f.children().find(|c| c.is_element()))
        .ok_or_else(|| doc.err(n, "missing <coupled_coordinates_function>"))?;
    Ok(CoordinateCoupler {
        independent,
        dependent,
        function: read_function(doc, function)?,
        scale: doc.scalar(n, "scale_factor", 1.0)?,
    })
}

/// Constraint tolerance of the assembly at load (OpenSim projects to 1e-10 when only locked or
/// prescribed coordinates constrain the model, and assembles to `assembly_accuracy` 1e-9).
const ASSEMBLY_TOLERANCE: f64 = 1e-10;

/// The default pose as OpenSim's `initSystem` assembles it (`Model::assemble`): the q nearest
/// the default values, each coordinate with weight 1 except a coupler's dependent coordinate
/// and one marked `is_free_to_satisfy_constraints` (no goal in OpenSim's assembler), that
/// satisfies the constraints (`pipeline::goal_assembly`). A dependent coordinate first takes
/// the value and speed its coupler gives (where the optimum puts it when only couplers
/// constrain the model); the result is then projected to 1e-10 and its speeds onto the
/// velocity constraints.
pub(super) fn assemble(
    model: &crate::Model<f64>,
    state: &mut crate::State<f64>,
    couplers: &[crate::constraints::ConstraintId],
    free: &[usize],
) -> crate::Result<()> {
    if !model.has_constraints() {
        return Ok(());
    }
    let mut weights = vec![1.0; model.nq()];
    for &q in free {
        weights[q] = 0.0;
    }
    for &id in couplers {
        if let Constraint::CoordinateCoupler(c) = model.constraint(id)? {
            weights[c.dependent.q] = 0.0;
        }
    }
    // Repeated so that a coupler whose independent coordinate is another's dependent one
    // sees its final value.
    for _ in 0..couplers.len() {
        for &id in couplers {
            if let Constraint::CoordinateCoupler(c) = model.constraint(id)? {
                let (qi, ui) = (state.q[c.independent.q], state.u[c.independent.u]);
                state.q[c.dependent.q] = c.scale * c.function.value(qi);
                state.u[c.dependent.u] = c.scale * c.function.derivative(qi) * ui;
            }
        }
    }
    crate::pipeline::goal_assembly::assemble_toward_goals(model, state, &weights)?;
    crate::pipeline::assembly::assemble(model, state, ASSEMBLY_TOLERANCE)
}
