//! `ferrobody.Dynamics`: the rigid-body algorithms one call at a time, as Pinocchio's Python
//! bindings offer them (`pin.aba(model, data, q, v, tau)`, `pin.rnea`, `pin.crba`,
//! `pin.computeABADerivatives`). The object is the workspace (Pinocchio's `data`): its buffers
//! are made once, so a call costs the algorithm plus the array conversions.

use crate::model::PyModel;
use crate::to_py_err;
use ferrobody::algorithms::{crba, rnea_into};
use ferrobody::derivatives::ForwardDynamicsJacobian;
use ferrobody::nalgebra::{DMatrix, DVector};
use ferrobody::pipeline::{forward_dynamics, realize};
use ferrobody::simulation::StepJacobian;
use ferrobody::{Data, Model, Stage, State};
use numpy::{PyArray1, PyArray2, PyArrayMethods, ToPyArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

/// Forward and inverse dynamics, the mass matrix and the Jacobians of forward dynamics of one
/// model, with the model's forces (gravity, springs, contact) at the given state.
#[pyclass(module = "ferrobody", name = "Dynamics")]
pub struct PyDynamics {
    model: Arc<Model<f64>>,
    data: Data<f64>,
    state: State<f64>,
    tau: DVector<f64>,
    vector: DVector<f64>,
    mass: DMatrix<f64>,
    jacobian: Option<ForwardDynamicsJacobian>,
}

/// Copies a 1-D float64 array of length `n` into `target`, refusing other shapes, dtypes and
/// non-finite entries.
fn read_into(value: &Bound<'_, PyAny>, target: &mut [f64], what: &str) -> PyResult<()> {
    let array = crate::arrays::checked_array(value, target.len(), what)?;
    let view = array.as_array();
    for (k, (t, &x)) in target.iter_mut().zip(view.iter()).enumerate() {
        if !x.is_finite() {
            return Err(PyValueError::new_err(format!(
                "{what}[{k}] is {x}: must be finite"
            )));
        }
        *t = x;
    }
    Ok(())
}

impl PyDynamics {
    /// The forward-dynamics Jacobians at the given state, controls and τ.
    fn compute_jacobian(
        &mut self,
        py: Python<'_>,
        q: &Bound<'_, PyAny>,
        u: &Bound<'_, PyAny>,
        tau: Option<&Bound<'_, PyAny>>,
        t: f64,
        ctrl: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<&ForwardDynamicsJacobian> {
        self.set_state_ctrl(q, Some(u), t, ctrl)?;
        self.set_tau(tau)?;
        if self.jacobian.is_none() {
            self.jacobian = Some(ForwardDynamicsJacobian::new(&self.model).map_err(to_py_err)?);
        }
        let j = self.jacobian.as_mut().expect("made above");
        let (state, tau) = (&self.state, self.tau.as_slice());
        py.detach(|| j.compute(state, tau)).map_err(to_py_err)?;
        Ok(j)
    }

    /// Sets the applied generalized forces τ (zero when not given).
    fn set_tau(&mut self, tau: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        match tau {
            Some(tau) => read_into(tau, self.tau.as_mut_slice(), "tau"),
            None => {
                self.tau.fill(0.0);
                Ok(())
            }
        }
    }

    /// Sets q and u (and t) of the workspace state.
    fn set_state(
        &mut self,
        q: &Bound<'_, PyAny>,
        u: Option<&Bound<'_, PyAny>>,
        t: f64,
    ) -> PyResult<()> {
        self.set_state_ctrl(q, u, t, None)
    }

    /// [`Self::set_state`] with the actuators' controls (zero when not given).
    fn set_state_ctrl(
        &mut self,
        q: &Bound<'_, PyAny>,
        u: Option<&Bound<'_, PyAny>>,
        t: f64,
        ctrl: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        if !t.is_finite() {
            return Err(PyValueError::new_err(format!("t is {t}: must be finite")));
        }
        let mut controls = vec![0.0; self.model.nctrl()];
        if let Some(c) = ctrl {
            read_into(c, &mut controls, "ctrl")?;
        }
        self.model
            .set_controls(&mut self.state, &controls)
            .map_err(to_py_err)?;
        self.state.t = t;
        read_into(q, self.state.q.as_mut_slice(), "q")?;
        match u {
            Some(u) => read_into(u, self.state.u.as_mut_slice(), "u"),
            None => {
                self.state.u.fill(0.0);
                Ok(())
            }
        }
    }
}

#[pymethods]
impl PyDynamics {
    #[new]
    fn new(model: &PyModel) -> Self {
        let m = Arc::clone(&model.model);
        let nu = m.nu();
        Self {
            data: Data::new(&m),
            state: model.initial_state.clone(),
            tau: DVector::zeros(nu),
            vector: DVector::zeros(nu),
            mass: DMatrix::zeros(nu, nu),
            jacobian: None,
            model: m,
        }
    }

    /// u̇ = M⁻¹(τ + forces − bias): forward dynamics (ABA, constraints included), the
    /// actuators driven by `ctrl` (zero when not given).
    #[pyo3(signature = (q, u, tau=None, t=0.0, ctrl=None))]
    fn forward_dynamics<'py>(
        &mut self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        u: &Bound<'py, PyAny>,
        tau: Option<&Bound<'py, PyAny>>,
        t: f64,
        ctrl: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.set_state_ctrl(q, Some(u), t, ctrl)?;
        self.set_tau(tau)?;
        forward_dynamics(
            &self.model,
            &self.state,
            &mut self.data,
            self.tau.as_slice(),
        )
        .map_err(to_py_err)?;
        Ok(self
            .data
            .udot()
            .map_err(to_py_err)?
            .as_slice()
            .to_pyarray(py))
    }

    /// τ such that the model moves with accelerations `udot`: inverse dynamics (RNEA), the
    /// model's forces (gravity, springs, contact, actuators at `ctrl`, zero when not given)
    /// counted as applied. With `u = 0`, `udot = 0` and motors of gear 1, τ is the gravity
    /// compensation to put in the controls.
    #[pyo3(signature = (q, u, udot, t=0.0, ctrl=None))]
    fn inverse_dynamics<'py>(
        &mut self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        u: &Bound<'py, PyAny>,
        udot: &Bound<'py, PyAny>,
        t: f64,
        ctrl: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.set_state_ctrl(q, Some(u), t, ctrl)?;
        read_into(udot, self.vector.as_mut_slice(), "udot")?;
        realize(&self.model, &self.state, &mut self.data, Stage::Dynamics).map_err(to_py_err)?;
        rnea_into(&self.model, &mut self.data, &self.vector, &mut self.tau);
        Ok(self.tau.as_slice().to_pyarray(py))
    }

    /// The joint-space mass matrix M(q) (CRBA), nu × nu.
    fn mass_matrix<'py>(
        &mut self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        self.set_state(q, None, self.state.t)?;
        realize(&self.model, &self.state, &mut self.data, Stage::Position).map_err(to_py_err)?;
        crba(&self.model, &mut self.data, &mut self.mass);
        Ok(matrix(py, &self.mass))
    }

    /// (u̇, ∂u̇/∂q, ∂u̇/∂u, ∂u̇/∂τ): forward dynamics and its exact Jacobians (analytical
    /// where docs/derivatives.md says, dual numbers otherwise; nu × nq, nu × nu, nu × nu),
    /// the actuators driven by `ctrl` (zero when not given).
    #[pyo3(signature = (q, u, tau=None, t=0.0, ctrl=None))]
    #[allow(clippy::type_complexity)]
    fn forward_dynamics_derivatives<'py>(
        &mut self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        u: &Bound<'py, PyAny>,
        tau: Option<&Bound<'py, PyAny>>,
        t: f64,
        ctrl: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray2<f64>>,
        Bound<'py, PyArray2<f64>>,
        Bound<'py, PyArray2<f64>>,
    )> {
        let j = self.compute_jacobian(py, q, u, tau, t, ctrl)?;
        Ok((
            j.udot.as_slice().to_pyarray(py),
            matrix(py, &j.dudot_dq),
            matrix(py, &j.dudot_du),
            matrix(py, &j.dudot_dtau),
        ))
    }

    /// ∂u̇/∂ctrl (nu × nctrl), exact: ∂u̇/∂τ times the actuators' ∂τ/∂ctrl (zero where a
    /// control or force range clamps), at the state and controls given as for
    /// `forward_dynamics_derivatives`.
    #[pyo3(signature = (q, u, ctrl=None, tau=None, t=0.0))]
    fn control_derivatives<'py>(
        &mut self,
        py: Python<'py>,
        q: &Bound<'py, PyAny>,
        u: &Bound<'py, PyAny>,
        ctrl: Option<&Bound<'py, PyAny>>,
        tau: Option<&Bound<'py, PyAny>>,
        t: f64,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let j = self.compute_jacobian(py, q, u, tau, t, ctrl)?;
        Ok(matrix(py, &j.dudot_dctrl))
    }

    fn __repr__(&self) -> String {
        format!(
            "ferrobody.Dynamics(nq={}, nu={})",
            self.model.nq(),
            self.model.nu()
        )
    }
}

/// A column-major nalgebra matrix as a (rows, columns) numpy array.
fn matrix<'py>(py: Python<'py>, m: &DMatrix<f64>) -> Bound<'py, PyArray2<f64>> {
    m.transpose()
        .as_slice()
        .to_pyarray(py)
        .reshape([m.nrows(), m.ncols()])
        .expect("sizes match")
}

/// One step of size `h` from `state`, holding `controls` (default: the state's), and its exact
/// Jacobians:
/// (x₊ = [q, u, z] after the step, ∂x₊/∂x (ny × ny), ∂x₊/∂p (ny × np) for the
/// `(force, parameter)` pairs in `parameters`, ∂x₊/∂ctrl (ny × nctrl)).
#[pyfunction]
#[pyo3(signature = (model, state, h, parameters=Vec::new(), integrator=None, controls=None))]
#[allow(clippy::type_complexity)]
pub fn step_jacobian<'py>(
    py: Python<'py>,
    model: &PyModel,
    state: &crate::state::PyState,
    h: f64,
    parameters: Vec<(String, String)>,
    integrator: Option<&str>,
    controls: Option<&Bound<'py, PyAny>>,
) -> PyResult<(
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
)> {
    let settings = crate::simulation::settings(model, integrator, None, None)?;
    let mut start = state.to_state(py, &model.model)?;
    if let Some(c) = controls {
        let c = crate::arrays::read_vector(c, model.model.nctrl(), "controls")?;
        model
            .model
            .set_controls(&mut start, &c)
            .map_err(to_py_err)?;
    }
    let named: Vec<(&str, &str)> = parameters
        .iter()
        .map(|(f, p)| (f.as_str(), p.as_str()))
        .collect();
    let m = &model.model;
    let (x, dx, dp, dc) = py
        .detach(|| {
            let mut j = StepJacobian::new(m, settings, h, &named)?;
            j.compute(&start)?;
            Ok::<_, ferrobody::Error>((j.x_next, j.dx_dx, j.dx_dp, j.dx_dctrl))
        })
        .map_err(to_py_err)?;
    Ok((
        x.as_slice().to_pyarray(py),
        matrix(py, &dx),
        matrix(py, &dp),
        matrix(py, &dc),
    ))
}
