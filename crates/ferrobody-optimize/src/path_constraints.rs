//! Path constraints (Moco's `MocoPathConstraint`s), enforced at the mesh points (Moco's
//! default, `enforce_path_constraint_mesh_interior_points = false`):
//!
//! ```text
//!   control bound (MocoControlBoundConstraint):   g = c_k − lower(t) ∈ [0, ∞)
//!                                                 g = c_k − upper(t) ∈ (−∞, 0]
//!                                                 (with equality_with_lower: c_k − lower(t) = 0)
//!   frame distance (MocoFrameDistanceConstraint): g = ‖P (p₂(q) − p₁(q))‖² ∈ [d_min², d_max²]
//! ```
//!
//! with p₁, p₂ points fixed on two bodies (m, Ground) and P the projection of
//! [`crate::contact_tracking::Projection`]. Derivatives: `∂g/∂c_k = 1` and, with a free final
//! time, `∂g/∂t_f = −f′(t) · i/(points − 1)` for a bound f(t); `∂g/∂q = 2 (P r)ᵀ ∂r/∂q` with
//! ∂r/∂q by dual numbers through the Position stage. Sources: opensim-core
//! `OpenSim/Moco/MocoControlBoundConstraint.cpp`, `MocoFrameDistanceConstraint.cpp`.

use crate::contact_tracking::Projection;
use crate::dual_lanes::{lanes, seeded, D, LANES};
use crate::error::Result;
use ferrobody::math::function::Function;
use ferrobody::nalgebra::Vector3;
use ferrobody::pipeline::realize;
use ferrobody::{BodyId, Data, Model, Stage, State};

/// Moco's `MocoControlBoundConstraint`: controls bounded by functions of time.
#[derive(Clone, Debug, PartialEq)]
pub struct ControlBound {
    /// The bounded controls (indices in the control vector).
    pub controls: Vec<usize>,
    /// lower(t), if any.
    pub lower: Option<Function>,
    /// upper(t), if any.
    pub upper: Option<Function>,
    /// `c = lower(t)` instead of `c ≥ lower(t)` (then no upper bound).
    pub equality_with_lower: bool,
}

/// Two points whose distance is bounded.
#[derive(Clone, Debug, PartialEq)]
pub struct FramePair {
    /// The first point's body and its position on it (m, body frame).
    pub first: (BodyId, Vector3<f64>),
    /// The second point's body and position.
    pub second: (BodyId, Vector3<f64>),
    /// The least distance (m).
    pub minimum: f64,
    /// The largest distance (m).
    pub maximum: f64,
}

/// Moco's `MocoFrameDistanceConstraint`.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameDistance {
    /// The pairs.
    pub pairs: Vec<FramePair>,
    /// The projection of the points' separation before its square is taken.
    pub projection: Projection,
}

/// One path constraint.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PathConstraint {
    /// Controls within functions of time.
    ControlBound(Box<ControlBound>),
    /// Distances between points of two bodies.
    FrameDistance(FrameDistance),
}

impl ControlBound {
    /// The bound f of each row of one control, with the row's (lower, upper).
    fn row_functions(&self) -> impl Iterator<Item = (&Function, f64, f64)> + '_ {
        let (lower, upper) = if self.equality_with_lower {
            (self.lower.as_ref().map(|f| (f, 0.0, 0.0)), None)
        } else {
            (
                self.lower.as_ref().map(|f| (f, 0.0, f64::INFINITY)),
                self.upper.as_ref().map(|f| (f, f64::NEG_INFINITY, 0.0)),
            )
        };
        lower.into_iter().chain(upper)
    }

    /// Rows per control.
    pub(crate) fn rows_per_control(&self) -> usize {
        self.row_functions().count()
    }
}

impl PathConstraint {
    /// Rows at each mesh point.
    pub(crate) fn rows(&self) -> usize {
        match self {
            PathConstraint::ControlBound(b) => b.controls.len() * b.rows_per_control(),
            PathConstraint::FrameDistance(d) => d.pairs.len(),
        }
    }

    /// Each row's (lower, upper) bounds on g.
    pub(crate) fn bounds(&self) -> Vec<(f64, f64)> {
        match self {
            PathConstraint::ControlBound(b) => b
                .controls
                .iter()
                .flat_map(|_| b.row_functions().map(|(_, lo, hi)| (lo, hi)))
                .collect(),
            PathConstraint::FrameDistance(d) => d
                .pairs
                .iter()
                .map(|p| (p.minimum * p.minimum, p.maximum * p.maximum))
                .collect(),
        }
    }
}

/// One row's value and its derivatives at one mesh point.
#[derive(Clone, Debug, Default)]
pub(crate) struct RowValue {
    pub value: f64,
    /// ∂g/∂c_k: (control, derivative).
    pub control: Option<(usize, f64)>,
    /// ∂g/∂t at the point (s⁻¹), for the t_f column.
    pub d_time: f64,
    /// ∂g/∂q (nq), empty when g does not depend on q.
    pub d_q: Vec<f64>,
}

/// The evaluator and a buffer for one constraint's rows at one point.
pub(crate) type PathWorkspace = (PathEvaluator, Vec<RowValue>);

/// Evaluates the path constraints' rows (a dual-number copy of the model for the frames).
pub(crate) struct PathEvaluator {
    model: Model<D>,
    data: Data<D>,
    state: State<D>,
}

impl PathEvaluator {
    /// The evaluator for `model`, its discrete variables from `base`.
    pub fn new(model: &Model<f64>, base: &State<f64>) -> Result<Self> {
        let dual = model.cast::<D>()?;
        let mut state = dual.default_state();
        state.assign_from(base);
        Ok(Self {
            data: Data::new(&dual),
            state,
            model: dual,
        })
    }

    /// The rows of `constraint` at time t, coordinates q and controls c, appended to `out`.
    pub fn evaluate(
        &mut self,
        constraint: &PathConstraint,
        t: f64,
        q: &[f64],
        c: &[f64],
        out: &mut Vec<RowValue>,
    ) -> Result<()> {
        match constraint {
            PathConstraint::ControlBound(b) => {
                for &k in &b.controls {
                    for (f, _, _) in b.row_functions() {
                        out.push(RowValue {
                            value: c[k] - f.value(t),
                            control: Some((k, 1.0)),
                            d_time: -f.derivative(t),
                            d_q: Vec::new(),
                        });
                    }
                }
                Ok(())
            }
            PathConstraint::FrameDistance(d) => self.frame_rows(d, q, out),
        }
    }

    fn frame_rows(&mut self, d: &FrameDistance, q: &[f64], out: &mut Vec<RowValue>) -> Result<()> {
        let nq = q.len();
        let start = out.len();
        out.extend(d.pairs.iter().map(|_| RowValue {
            d_q: vec![0.0; nq],
            ..RowValue::default()
        }));
        for first in (0..nq.max(1)).step_by(LANES) {
            for (k, &x) in q.iter().enumerate() {
                self.state.q[k] = seeded(x, k, first);
            }
            realize(&self.model, &self.state, &mut self.data, Stage::Position)?;
            let poses = self.data.poses()?;
            let point =
                |(body, p): &(BodyId, Vector3<f64>)| poses[body.0].apply(&p.map(D::from_re));
            for (row, pair) in out[start..].iter_mut().zip(&d.pairs) {
                let r = point(&pair.second) - point(&pair.first);
                let projected = match d.projection {
                    Projection::None => r,
                    Projection::Vector(v) => {
                        let v = v.map(D::from_re);
                        v * v.dot(&r)
                    }
                    Projection::Plane(v) => {
                        let v = v.map(D::from_re);
                        r - v * v.dot(&r)
                    }
                };
                let g = projected.norm_squared();
                row.value = g.re;
                let lanes = lanes(&g);
                for lane in 0..LANES.min(nq - first) {
                    row.d_q[first + lane] = lanes[lane];
                }
            }
        }
        Ok(())
    }
}
