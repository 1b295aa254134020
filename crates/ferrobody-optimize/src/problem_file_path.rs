//! `[[path_constraint]]` tables of a problem file:
//!
//! ```toml
//! [[path_constraint]]
//! kind = "control_bound"               # Moco's MocoControlBoundConstraint
//! controls = ["/tau0"]
//! lower = -10.0                        # a number, or { x = [t...], y = [value...] }
//! upper = { x = [0.0, 1.0], y = [5.0, 20.0] }   # (piecewise linear in time)
//! equality_with_lower = false
//! [[path_constraint]]
//! kind = "frame_distance"              # Moco's MocoFrameDistanceConstraint
//! pairs = [{ frame1 = "calcn_r", frame2 = "calcn_l", minimum_distance = 0.1,
//!            maximum_distance = 2.0 }]  # optional point1, point2 = [x, y, z] on each body
//! projection = "plane"                 # "none" (default), "vector", "plane"
//! projection_vector = [0.0, 1.0, 0.0]
//! ```

use crate::contact_tracking::Projection;
use crate::error::{OptimizeError, Result};
use crate::problem::Problem;
use ferrobody::math::function::{Function, PiecewiseLinear};
use ferrobody::nalgebra::Vector3;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PathConstraintSpec {
    pub kind: String,
    #[serde(default)]
    controls: Vec<String>,
    lower: Option<FunctionSpec>,
    upper: Option<FunctionSpec>,
    #[serde(default)]
    equality_with_lower: bool,
    #[serde(default)]
    pairs: Vec<FramePairSpec>,
    projection: Option<String>,
    projection_vector: Option<[f64; 3]>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum FunctionSpec {
    Constant(f64),
    Table { x: Vec<f64>, y: Vec<f64> },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FramePairSpec {
    frame1: String,
    frame2: String,
    minimum_distance: f64,
    maximum_distance: f64,
    point1: Option<[f64; 3]>,
    point2: Option<[f64; 3]>,
}

fn function(spec: &Option<FunctionSpec>) -> Result<Option<Function>> {
    Ok(match spec {
        None => None,
        Some(FunctionSpec::Constant(v)) => Some(Function::Constant(*v)),
        Some(FunctionSpec::Table { x, y }) => Some(Function::PiecewiseLinear(
            PiecewiseLinear::new(x.clone(), y.clone())
                .map_err(|e| OptimizeError::InvalidGoal(format!("control_bound: {e}")))?,
        )),
    })
}

fn projection(spec: &PathConstraintSpec) -> Result<Projection> {
    let vector = || {
        spec.projection_vector
            .map(|[x, y, z]| Vector3::new(x, y, z))
            .ok_or_else(|| OptimizeError::InvalidGoal("needs projection_vector".into()))
    };
    match spec.projection.as_deref().unwrap_or("none") {
        "none" => Ok(Projection::None),
        "vector" => Ok(Projection::Vector(vector()?)),
        "plane" => Ok(Projection::Plane(vector()?)),
        other => Err(OptimizeError::InvalidGoal(format!(
            "projection '{other}' is not none, vector or plane"
        ))),
    }
}

/// Adds the path constraint a `[[path_constraint]]` table states.
pub(crate) fn add_path_constraint(problem: &mut Problem, spec: &PathConstraintSpec) -> Result<()> {
    match spec.kind.as_str() {
        "control_bound" => {
            let controls: Vec<&str> = spec.controls.iter().map(String::as_str).collect();
            problem.add_control_bound(
                &controls,
                function(&spec.lower)?,
                function(&spec.upper)?,
                spec.equality_with_lower,
            )
        }
        "frame_distance" => {
            let pairs: Vec<(&str, &str, f64, f64)> = spec
                .pairs
                .iter()
                .map(|p| {
                    (
                        p.frame1.as_str(),
                        p.frame2.as_str(),
                        p.minimum_distance,
                        p.maximum_distance,
                    )
                })
                .collect();
            let points: Vec<([f64; 3], [f64; 3])> = spec
                .pairs
                .iter()
                .map(|p| (p.point1.unwrap_or_default(), p.point2.unwrap_or_default()))
                .collect();
            problem.add_frame_distance(&pairs, Some(&points), projection(spec)?)
        }
        other => Err(OptimizeError::InvalidGoal(format!(
            "unknown path constraint kind '{other}' (control_bound, frame_distance)"
        ))),
    }
}
