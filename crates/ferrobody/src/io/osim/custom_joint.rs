//! OpenSim's `CustomJoint`: a `SpatialTransform` of three rotation and three translation
//! `TransformAxis` elements, each with an `axis`, the `coordinates` it depends on (none or
//! one of the joint's) and a `function` of them, built as Simbody's function-based mobilizer
//! (`crate::mobilizer::SpatialTransform`). Functions: `Constant`, `LinearFunction`
//! (coefficients `slope intercept`), `PolynomialFunction` (highest power first), `SimmSpline`
//! (`x`, `y`), `MultiplierFunction` (`function`, `scale`); OpenSim 4 writes a function as an
//! element named `function` inside the axis, OpenSim 3 wraps it in `<function>`.

use super::document::{child, tag_of, Doc, Res};
use super::MotionType;
use crate::math::function::{CubicSpline, Function, PiecewiseLinear};
use crate::math::gcv_spline::{GcvSpline, Smoothing};
use crate::mobilizer::{AxisFunction, SpatialTransform};
use nalgebra::Vector3;
use roxmltree::Node;

/// The axis names of a SpatialTransform, in Simbody's order.
const AXES: [&str; 6] = [
    "rotation1",
    "rotation2",
    "rotation3",
    "translation1",
    "translation2",
    "translation3",
];

/// Default axes of an axis that the file leaves out (OpenSim's defaults).
const DEFAULT_AXES: [[f64; 3]; 6] = [
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
];

/// The TransformAxis elements of a CustomJoint, in Simbody's order (None where missing).
fn transform_axes<'a, 'i>(
    doc: &Doc<'a, 'i>,
    joint: Node<'a, 'i>,
) -> Res<[Option<Node<'a, 'i>>; 6]> {
    let st = child(joint, "SpatialTransform")
        .ok_or_else(|| doc.err(joint, "a CustomJoint needs a <SpatialTransform>"))?;
    Ok(std::array::from_fn(|i| {
        st.children()
            .find(|n| n.has_tag_name("TransformAxis") && n.attribute("name") == Some(AXES[i]))
    }))
}

/// The names of the coordinates an axis depends on.
fn axis_coordinates(doc: &Doc, axis: Node) -> Vec<String> {
    doc.text(axis, "coordinates")
        .map(|(_, t)| t.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// The joint's coordinate names in order of first appearance in its SpatialTransform.
pub(super) fn coordinate_order(doc: &Doc, joint: Node) -> Res<Vec<String>> {
    let mut order: Vec<String> = Vec::new();
    for axis in transform_axes(doc, joint)?.into_iter().flatten() {
        for name in axis_coordinates(doc, axis) {
            if !order.contains(&name) {
                order.push(name);
            }
        }
    }
    Ok(order)
}

/// OpenSim's motion type of each coordinate: Rotational (Translational) if some rotation
/// (translation) axis is a `LinearFunction` of it with slope ±1, else Coupled
/// (`CustomJoint::constructCoordinates`).
fn motion_types(coordinates: &[String], functions: &[AxisFunction; 6]) -> Vec<MotionType> {
    (0..coordinates.len())
        .map(|k| {
            let mut motion = None;
            for (i, f) in functions.iter().enumerate() {
                if f.coordinate != Some(k) {
                    continue;
                }
                let pure = matches!(f.function, Function::Linear { slope, .. } if slope == 1.0 || slope == -1.0);
                if pure {
                    motion = Some(if i < 3 {
                        MotionType::Rotational
                    } else {
                        MotionType::Translational
                    });
                } else if motion.is_none() {
                    motion = Some(MotionType::Coupled);
                }
            }
            motion.unwrap_or(MotionType::Coupled)
        })
        .collect()
}

/// Reads the joint's SpatialTransform; `coordinates` are the joint's coordinate names in
/// mobilizer order. Also returns each coordinate's motion type.
pub(super) fn read_spatial_transform(
    doc: &Doc,
    joint: Node,
    coordinates: &[String],
) -> Res<(SpatialTransform, Vec<MotionType>)> {
    let nodes = transform_axes(doc, joint)?;
    let mut axes = [Vector3::zeros(); 6];
    let mut functions: [AxisFunction; 6] = std::array::from_fn(|_| AxisFunction {
        coordinate: None,
        function: Function::Constant(0.0),
    });
    for (i, node) in nodes.into_iter().enumerate() {
        let Some(node) = node else {
            axes[i] = Vector3::from(DEFAULT_AXES[i]);
            continue;
        };
        let a = Vector3::from(doc.fixed(node, "axis", DEFAULT_AXES[i])?);
        if a.norm() == 0.0 {
            return Err(doc.err(node, "<axis> must not be zero"));
        }
        axes[i] = a.normalize();
        functions[i] = read_axis_function(doc, node, coordinates)?;
    }
    independent_rotation_axes(&mut axes, &functions);
    let motions = motion_types(coordinates, &functions);
    let st = SpatialTransform {
        axes,
        functions,
        nq: coordinates.len(),
    };
    Ok((st, motions))
}

/// Rotation axes whose function is identically zero do not rotate anything; if one is
/// parallel to another axis, it is replaced by a perpendicular one, as OpenSim's
/// `SpatialTransform::constructIndependentAxes` does, so the axes stay independent.
fn independent_rotation_axes(axes: &mut [Vector3<f64>; 6], functions: &[AxisFunction; 6]) {
    for i in 0..3 {
        let unused =
            functions[i].coordinate.is_none() && functions[i].function == Function::Constant(0.0);
        let parallel = (0..3)
            .filter(|&j| j != i)
            .any(|j| axes[i].cross(&axes[j]).norm() < 1e-5);
        if unused && parallel {
            let (j, k) = ((i + 1) % 3, (i + 2) % 3);
            let candidate = axes[j].cross(&axes[k]);
            axes[i] = if candidate.norm() > 1e-5 {
                candidate.normalize()
            } else {
                axes[j]
                    .cross(&Vector3::from(DEFAULT_AXES[(i + 1) % 3]))
                    .normalize()
            };
        }
    }
}

fn read_axis_function(doc: &Doc, axis: Node, coordinates: &[String]) -> Res<AxisFunction> {
    let names = axis_coordinates(doc, axis);
    let coordinate = match names.as_slice() {
        [] => None,
        [name] => Some(coordinates.iter().position(|c| c == name).ok_or_else(|| {
            doc.err(
                axis,
                format!("<coordinates> '{name}' is not a coordinate of this joint"),
            )
        })?),
        _ => {
            return Err(doc.err(
                axis,
                "an axis depending on several coordinates is not supported (one at most)",
            ))
        }
    };
    let function_node = axis
        .children()
        .find(|n| n.is_element() && n.attribute("name") == Some("function"))
        .or_else(|| child(axis, "function").and_then(|f| f.children().find(|n| n.is_element())));
    let function = match function_node {
        Some(f) => read_function(doc, f)?,
        // No function: OpenSim's default is a constant zero (or identity for one coordinate).
        None if coordinate.is_some() => Function::Linear {
            slope: 1.0,
            intercept: 0.0,
        },
        None => Function::Constant(0.0),
    };
    Ok(AxisFunction {
        coordinate,
        function,
    })
}

/// The function-valued property `name` of `node`: an element named by its `name` attribute
/// (how OpenSim writes it) or the element inside a `<name>` wrapper; `None` when left out.
pub(super) fn function_property(doc: &Doc, node: Node, name: &str) -> Res<Option<Function>> {
    let named = node
        .children()
        .find(|c| c.is_element() && c.attribute("name") == Some(name));
    let wrapped = || child(node, name).and_then(|w| w.children().find(|c| c.is_element()));
    named
        .or_else(wrapped)
        .map(|f| read_function(doc, f))
        .transpose()
}

/// Reads one OpenSim function element.
pub(super) fn read_function(doc: &Doc, f: Node) -> Res<Function> {
    let numbers = |tag: &str| -> Res<Vec<f64>> {
        doc.numbers(f, tag)?
            .ok_or_else(|| doc.err(f, format!("<{}> needs <{tag}>", tag_of(f))))
    };
    Ok(match f.tag_name().name() {
        "Constant" => Function::Constant(doc.scalar(f, "value", 0.0)?),
        "LinearFunction" => match numbers("coefficients")?.as_slice() {
            [slope, intercept] => Function::Linear {
                slope: *slope,
                intercept: *intercept,
            },
            other => {
                return Err(doc.err(
                    f,
                    format!("<coefficients> of a LinearFunction: expected 2 numbers, got {}", other.len()),
                ))
            }
        },
        "PolynomialFunction" => {
            let c = numbers("coefficients")?;
            if c.is_empty() {
                return Err(doc.err(f, "<coefficients> of a PolynomialFunction is empty"));
            }
            Function::Polynomial(c)
        }
        // OpenSim's NaturalCubicSpline computes its coefficients with SimmSpline's code (the
        // same end conditions, despite the name), so both read as the same spline.
        "SimmSpline" | "NaturalCubicSpline" => {
            let spline = CubicSpline::simm(numbers("x")?, numbers("y")?)
                .map_err(|m| doc.err(f, format!("{}: {m}", tag_of(f))))?;
            Function::Spline(spline)
        }
        "MultiplierFunction" => {
            let inner = f
                .children()
                .find(|n| n.is_element() && n.attribute("name") == Some("function"))
                .or_else(|| {
                    child(f, "function").and_then(|w| w.children().find(|n| n.is_element()))
                })
                .ok_or_else(|| doc.err(f, "a MultiplierFunction needs a function"))?;
            Function::Multiplier(Box::new(read_function(doc, inner)?), doc.scalar(f, "scale", 1.0)?)
        }
        "PiecewiseLinearFunction" => {
            let p = PiecewiseLinear::new(numbers("x")?, numbers("y")?)
                .map_err(|m| doc.err(f, format!("{}: {m}", tag_of(f))))?;
            Function::PiecewiseLinear(p)
        }
        "PiecewiseConstantFunction" => {
            let p = PiecewiseLinear::new(numbers("x")?, numbers("y")?)
                .map_err(|m| doc.err(f, format!("{}: {m}", tag_of(f))))?;
            Function::PiecewiseConstant(p)
        }
        "StepFunction" => {
            let x0 = doc.scalar(f, "transition_start_time", 0.99)?;
            let x1 = doc.scalar(f, "transition_end_time", 1.01)?;
            if x0 == x1 {
                return Err(doc.err(f, format!("StepFunction: transition_start_time and transition_end_time are both {x0}")));
            }
            Function::Step {
                y0: doc.scalar(f, "start_value", 0.0)?,
                y1: doc.scalar(f, "end_value", 1.0)?,
                x0,
                x1,
            }
        }
        // OpenSim's `GCVSpline::createSimTKFunction`: Simbody's `SplineFitter` by the error
        // variance, or by GCV when it is negative; `weights` and `coefficients` are not read
        // there (the fit recomputes the coefficients with unit weights).
        "GCVSpline" => {
            let half_order = doc.scalar(f, "half_order", 0.0)?;
            if half_order < 1.0 || half_order.fract() != 0.0 {
                return Err(doc.err(
                    f,
                    format!("GCVSpline: half_order must be a positive integer, got {half_order}"),
                ));
            }
            let variance = doc.scalar(f, "error_variance", 0.0)?;
            let smoothing = if variance < 0.0 {
                Smoothing::Gcv
            } else {
                Smoothing::ErrorVariance(variance)
            };
            let degree = 2 * half_order as usize - 1;
            let spline = GcvSpline::fit(degree, numbers("x")?, &numbers("y")?, smoothing)
                .map_err(|m| doc.err(f, format!("GCVSpline: {m}")))?;
            Function::Gcv(spline)
        }
        "Sine" => Function::Sine {
            amplitude: doc.scalar(f, "amplitude", 1.0)?,
            omega: doc.scalar(f, "omega", 1.0)?,
            phase: doc.scalar(f, "phase", 0.0)?,
            offset: doc.scalar(f, "offset", 0.0)?,
        },
        _ => {
            return Err(doc.err(
                f,
                format!("function <{}> is not supported (Constant, LinearFunction, PolynomialFunction, SimmSpline, NaturalCubicSpline, MultiplierFunction, PiecewiseLinearFunction, PiecewiseConstantFunction, StepFunction, Sine, GCVSpline)", tag_of(f)),
            ))
        }
    })
}
