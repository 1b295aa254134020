//! The whole model's centre of mass and its exact Jacobian, for Moco's average-speed goal and
//! the effort divided by displacement:
//!
//! ```text
//!   r(q) = Σ_b m_b (R_GB p_BC + p_GB) / Σ_b m_b          (m, in Ground)
//!   ∂r/∂q (3 × nq)                                       (dual numbers, Position stage)
//! ```
//!
//! and the displacement between two poses, `d = ‖r(q_f) − r(q_0)‖`, with `∂d/∂q_0 =
//! −êᵀ ∂r/∂q(q_0)` and `∂d/∂q_f = êᵀ ∂r/∂q(q_f)`, ê = (r_f − r_0)/d (Moco's
//! `MocoAverageSpeedGoal` and `MocoControlGoal::divide_by_displacement`, which use the
//! Euclidean norm of the centre of mass's displacement).

use crate::dual_lanes::{lanes, seeded, D, LANES};
use crate::error::Result;
use ferrobody::nalgebra::Vector3;
use ferrobody::pipeline::realize;
use ferrobody::{Data, Model, Stage, State};

/// The centre of mass's displacement between the first and the last grid point.
#[derive(Clone, Debug, Default)]
pub(crate) struct Displacement {
    /// `d = ‖r(q_f) − r(q_0)‖` (m).
    pub norm: f64,
    /// `∂d/∂q_0` (nq).
    pub d_initial: Vec<f64>,
    /// `∂d/∂q_f` (nq).
    pub d_final: Vec<f64>,
}

/// A dual-number copy of the model to evaluate r(q) and ∂r/∂q.
pub(crate) struct MassCenter {
    model: Model<D>,
    data: Data<D>,
    state: State<D>,
    total_mass: f64,
    /// ∂r/∂q at the first and at the last point (workspaces).
    jacobians: [Vec<Vector3<f64>>; 2],
}

impl MassCenter {
    /// The workspace for `model`, its discrete variables from `base`.
    pub fn new(model: &Model<f64>, base: &State<f64>) -> Result<Self> {
        let dual = model.cast::<D>()?;
        let mut state = dual.default_state();
        state.assign_from(base);
        let total_mass = model.bodies().iter().map(|b| b.mass_properties.mass).sum();
        let nq = model.nq();
        Ok(Self {
            data: Data::new(&dual),
            state,
            model: dual,
            total_mass,
            jacobians: [vec![Vector3::zeros(); nq], vec![Vector3::zeros(); nq]],
        })
    }

    /// r(q) and ∂r/∂q (3 × nq, row-major by coordinate: `jacobian[k] = ∂r/∂q_k`).
    pub fn evaluate(&mut self, q: &[f64], jacobian: &mut [Vector3<f64>]) -> Result<Vector3<f64>> {
        let nq = q.len();
        let mut r = Vector3::zeros();
        for first in (0..nq.max(1)).step_by(LANES) {
            for (k, &x) in q.iter().enumerate() {
                self.state.q[k] = seeded(x, k, first);
            }
            realize(&self.model, &self.state, &mut self.data, Stage::Position)?;
            let poses = self.data.poses()?;
            let mut sum = Vector3::<D>::zeros();
            for (body, x_gb) in self.model.bodies().iter().zip(poses) {
                let mp = &body.mass_properties;
                sum += x_gb.apply(&mp.com) * mp.mass;
            }
            let m = self.total_mass;
            for axis in 0..3 {
                let value = sum[axis] / m;
                r[axis] = value.re;
                let lanes = lanes(&value);
                for lane in 0..LANES.min(nq - first) {
                    jacobian[first + lane][axis] = lanes[lane];
                }
            }
        }
        Ok(r)
    }

    /// The displacement between `q_0` and `q_f` with its gradients.
    pub fn displacement(&mut self, q_0: &[f64], q_f: &[f64], out: &mut Displacement) -> Result<()> {
        let [mut j_0, mut j_f] = std::mem::take(&mut self.jacobians);
        let r_0 = self.evaluate(q_0, &mut j_0);
        let r_f = self.evaluate(q_f, &mut j_f);
        let result = Self::fill(r_0, r_f, &j_0, &j_f, out);
        self.jacobians = [j_0, j_f];
        result
    }

    /// The displacement and its gradients from both points' r and ∂r/∂q.
    fn fill(
        r_0: Result<Vector3<f64>>,
        r_f: Result<Vector3<f64>>,
        j_0: &[Vector3<f64>],
        j_f: &[Vector3<f64>],
        out: &mut Displacement,
    ) -> Result<()> {
        let (r_0, r_f) = (r_0?, r_f?);
        let delta = r_f - r_0;
        out.norm = delta.norm();
        let e = if out.norm > 0.0 {
            delta / out.norm
        } else {
            Vector3::zeros()
        };
        out.d_initial.clear();
        out.d_initial.extend(j_0.iter().map(|j| -e.dot(j)));
        out.d_final.clear();
        out.d_final.extend(j_f.iter().map(|j| e.dot(j)));
        Ok(())
    }
}
