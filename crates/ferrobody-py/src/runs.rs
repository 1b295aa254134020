//! `ferrobody.simulate` (one recorded run, as columns that `pandas.DataFrame` takes as they
//! are) and `ferrobody.rollouts` (many runs at once on all cores, as stacked arrays). Both
//! release the GIL while simulating; the physics is `ferrobody::rollout`'s.

use crate::arrays::{checked_array, shaped};
use crate::model::PyModel;
use crate::simulation::settings;
use crate::state::PyState;
use crate::to_py_err;
use ferrobody::io::MobilityNames;
use ferrobody::rollout::{self, RecordOptions, Trajectory};
use numpy::PyUntypedArrayMethods;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

fn options(
    model: &PyModel,
    duration: Option<f64>,
    report_interval: Option<f64>,
    contacts: bool,
) -> RecordOptions {
    RecordOptions {
        duration: duration.unwrap_or(model.duration),
        report_interval: Some(report_interval.unwrap_or(model.report_interval)),
        step_to_reports: model.step_to_reports,
        contacts,
        parallel_forces: false,
    }
}

fn numpy_strings<'py>(py: Python<'py>, items: Vec<String>) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?.call_method1("array", (items,))
}

/// Simulates `model` from `state` (default: the model's initial state) for `duration` s
/// (default: the scene's), reporting every `report_interval` s (default: the scene's).
/// Returns a dict of equal-length 1-D arrays: the columns of `trajectory.csv` (`t`, body
/// poses `BODY.px` … `BODY.qz`, velocities `BODY.vx` … `BODY.wz`, `ke`, `pe`, `energy`) and
/// one per coordinate, speed and z; `pandas.DataFrame(result)` turns it into a table. With
/// `contacts=True`, returns `(trajectory, contacts)`, the second the columns of
/// `contacts.csv`. (The package's `ferrobody.simulate` wraps both in one `Run`.) A run that
/// fails raises `RuntimeError` with the command line's message.
///
/// `controls` drives the model's actuators, held constant between report times (each then a
/// step boundary): a float64 array of one row of `nctrl` controls per report interval (open
/// loop), or a callable `controls(state) -> array` called at the start of each interval
/// (closed loop at the report rate). Without it the state's controls are held throughout.
///
/// Without a callable, a model of 24 muscles or more (12 or more when none is wrapped)
/// evaluates them on two or more of rayon's threads (`RAYON_NUM_THREADS`), or split with a
/// helper thread, where the run measures that this pays, as the command line does; the
/// results are bit for bit those of one thread. Process pools whose runs already fill the cores (Ray's workers,
/// multiprocessing) should set `RAYON_NUM_THREADS=1`.
#[pyfunction]
#[pyo3(signature = (model, state=None, duration=None, report_interval=None, contacts=false, integrator=None, accuracy=None, controls=None))]
#[allow(clippy::too_many_arguments)]
pub fn simulate<'py>(
    py: Python<'py>,
    model: &PyModel,
    state: Option<PyRef<'_, PyState>>,
    duration: Option<f64>,
    report_interval: Option<f64>,
    contacts: bool,
    integrator: Option<&str>,
    accuracy: Option<f64>,
    controls: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let settings = settings(model, integrator, accuracy, None)?;
    let start = match state {
        Some(s) => s.to_state(py, &model.model)?,
        None => model.initial_state.clone(),
    };
    let options = RecordOptions {
        parallel_forces: true,
        ..options(model, duration, report_interval, contacts)
    };
    let run = run_one(py, model, start, settings, &options, controls)?;
    if let Some(e) = run.error {
        return Err(PyRuntimeError::new_err(e.message()));
    }
    let columns = trajectory_columns(py, model, &run)?;
    if !contacts {
        return Ok(columns.into_any());
    }
    let c = contact_columns(py, model, &run)?;
    Ok((columns, c).into_pyobject(py)?.into_any())
}

/// One recorded run, with the controls `simulate` was given (its docs).
fn run_one(
    py: Python<'_>,
    model: &PyModel,
    start: ferrobody::State<f64>,
    settings: ferrobody::IntegratorSettings,
    options: &RecordOptions,
    controls: Option<&Bound<'_, PyAny>>,
) -> PyResult<Trajectory> {
    let m = &model.model;
    let Some(controls) = controls.filter(|c| !c.is_none()) else {
        return py
            .detach(|| on_a_pool_thread(|| rollout::simulate(m, start, settings, options)))
            .map_err(to_py_err);
    };
    if controls.is_callable() {
        return run_with_policy(py, model, start, settings, options, controls);
    }
    let intervals = expected_rows(options) - 1;
    let schedule = control_rows(controls, model.model.nctrl(), "controls")?;
    if schedule.len() / model.model.nctrl().max(1) < intervals {
        return Err(PyValueError::new_err(format!(
            "controls: {intervals} rows needed (one per report interval), got {}",
            schedule.len() / model.model.nctrl().max(1)
        )));
    }
    py.detach(|| {
        on_a_pool_thread(|| rollout::simulate_schedule(m, start, settings, options, &schedule))
    })
    .map_err(to_py_err)
}

/// Runs `run` on a thread of rayon's global pool, where a simulation's parallel muscle
/// evaluation (`RecordOptions::parallel_forces`) hands work over within the pool (from
/// another thread it does not run in parallel: each hand-over would cost more than it saves).
fn on_a_pool_thread<R: Send>(run: impl FnOnce() -> R + Send) -> R {
    rayon::scope(|_| run())
}

/// A run whose controls a Python callable gives from the state at each report time.
fn run_with_policy(
    py: Python<'_>,
    model: &PyModel,
    start: ferrobody::State<f64>,
    settings: ferrobody::IntegratorSettings,
    options: &RecordOptions,
    policy: &Bound<'_, PyAny>,
) -> PyResult<Trajectory> {
    let policy = policy.clone().unbind();
    let n = model.model.nctrl();
    let mut raised: Option<PyErr> = None;
    let controller = |_: usize, state: &ferrobody::State<f64>, out: &mut [f64]| {
        Python::attach(|py| -> PyResult<()> {
            let s = PyState::from_state(py, state)?;
            let value = policy.bind(py).call1((s,))?;
            out.copy_from_slice(&read_controls(&value, n)?);
            Ok(())
        })
        .map_err(|e| {
            raised = Some(e);
            ferrobody::Error::model("the controls callable failed")
        })
    };
    let m = &model.model;
    let run = py
        .detach(|| rollout::simulate_controlled(m, start, settings, options, controller))
        .map_err(to_py_err)?;
    match raised {
        Some(e) => Err(e),
        None => Ok(run),
    }
}

/// One row of controls: a 1-D float64 array of `n` finite values (ValueError otherwise).
fn read_controls(value: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<f64>> {
    let values = checked_array(value, n, "controls")?.as_array().to_vec();
    finite_controls(&values)?;
    Ok(values)
}

/// Rows of controls: a float64 array whose last axis has `n` entries, flattened row-major.
fn control_rows(value: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<Vec<f64>> {
    let array: numpy::PyReadonlyArrayDyn<'_, f64> = value
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{what}: expected a float64 numpy array")))?;
    let shape = array.shape().to_vec();
    if shape.last() != Some(&n) {
        return Err(PyValueError::new_err(format!(
            "{what}: the last axis must have nctrl = {n} entries, got shape {shape:?}"
        )));
    }
    let values: Vec<f64> = array.as_array().iter().copied().collect();
    finite_controls(&values)?;
    Ok(values)
}

fn finite_controls(values: &[f64]) -> PyResult<()> {
    match values.iter().position(|c| !c.is_finite()) {
        Some(k) => Err(PyValueError::new_err(format!(
            "controls: entry {k} (flat) is {}: controls must be finite",
            values[k]
        ))),
        None => Ok(()),
    }
}

fn trajectory_columns<'py>(
    py: Python<'py>,
    model: &PyModel,
    run: &Trajectory,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let n = run.time.len();
    let column = |data: &[f64], width: usize, k: usize| -> Vec<f64> {
        (0..n).map(|r| data[r * width + k]).collect()
    };
    d.set_item("t", shaped(py, run.time.clone(), &[n])?)?;
    let nb = model.model.nbodies() - 1;
    for (i, b) in model.model.bodies()[1..].iter().enumerate() {
        for (k, c) in ["px", "py", "pz"].iter().enumerate() {
            let col = column(&run.position, nb * 3, i * 3 + k);
            d.set_item(format!("{}.{c}", b.name), shaped(py, col, &[n])?)?;
        }
        for (k, c) in ["qw", "qx", "qy", "qz"].iter().enumerate() {
            let col = column(&run.quaternion, nb * 4, i * 4 + k);
            d.set_item(format!("{}.{c}", b.name), shaped(py, col, &[n])?)?;
        }
        // trajectory.csv's order: linear, then angular.
        for (k, c) in [
            (3, "vx"),
            (4, "vy"),
            (5, "vz"),
            (0, "wx"),
            (1, "wy"),
            (2, "wz"),
        ] {
            let col = column(&run.velocity, nb * 6, i * 6 + k);
            d.set_item(format!("{}.{c}", b.name), shaped(py, col, &[n])?)?;
        }
    }
    let energy: Vec<f64> = run
        .kinetic_energy
        .iter()
        .zip(&run.potential_energy)
        .map(|(k, p)| k + p)
        .collect();
    d.set_item("ke", shaped(py, run.kinetic_energy.clone(), &[n])?)?;
    d.set_item("pe", shaped(py, run.potential_energy.clone(), &[n])?)?;
    d.set_item("energy", shaped(py, energy, &[n])?)?;
    let (nq, nu, nz) = (model.model.nq(), model.model.nu(), model.model.nz());
    for (k, name) in model.coordinate_names_ref().iter().enumerate() {
        let key = MobilityNames::coordinate_column(name);
        d.set_item(key, shaped(py, column(&run.q, nq, k), &[n])?)?;
    }
    for (k, name) in model.speed_names_ref().iter().enumerate() {
        let key = MobilityNames::speed_column(name);
        d.set_item(key, shaped(py, column(&run.u, nu, k), &[n])?)?;
    }
    for (k, name) in model.auxiliary_names_ref().iter().enumerate().take(nz) {
        d.set_item(name, shaped(py, column(&run.z, nz, k), &[n])?)?;
    }
    let recorded = [&run.q[..], &run.u[..], &run.z[..], &run.controls[..]];
    let muscles = ferrobody::io::muscles_csv::muscle_columns(
        &model.model,
        &run.final_state,
        &run.time,
        recorded,
    )
    .map_err(to_py_err)?;
    for (name, values) in muscles {
        d.set_item(name, shaped(py, values, &[n])?)?;
    }
    Ok(d)
}

fn contact_columns<'py>(
    py: Python<'py>,
    model: &PyModel,
    run: &Trajectory,
) -> PyResult<Bound<'py, PyDict>> {
    let c = &run.contacts;
    let k = c.report.len();
    let d = PyDict::new(py);
    let m = &model.model;
    let t: Vec<f64> = c.report.iter().map(|&r| run.time[r]).collect();
    d.set_item("t", shaped(py, t, &[k])?)?;
    let element_names: Vec<String> = c
        .element
        .iter()
        .map(|&e| m.forces()[e].name().to_string())
        .collect();
    d.set_item("element", numpy_strings(py, element_names)?)?;
    for (side, key) in [(0, "body1"), (1, "body2")] {
        let names = c
            .bodies
            .iter()
            .map(|b| m.bodies()[b[side]].name.clone())
            .collect();
        d.set_item(key, numpy_strings(py, names)?)?;
    }
    for (vectors, keys) in [
        (&c.point, ["px", "py", "pz"]),
        (&c.normal, ["nx", "ny", "nz"]),
        (&c.force, ["fx", "fy", "fz"]),
    ] {
        for (a, key) in keys.iter().enumerate() {
            let col: Vec<f64> = vectors.iter().map(|v| v[a]).collect();
            d.set_item(*key, shaped(py, col, &[k])?)?;
        }
    }
    for (key, values) in [
        ("depth", &c.depth),
        ("normal_force", &c.normal_force),
        ("friction_force", &c.friction_force),
        ("slip_speed", &c.slip_speed),
    ] {
        d.set_item(key, shaped(py, values.clone(), &[k])?)?;
    }
    Ok(d)
}

/// Simulates `model` from every state of `states` independently, on `threads` threads
/// (default: all cores), with the GIL released. Returns stacked arrays named and ordered as
/// trajectory.csv's columns: `t` (runs × rows), `q`, `u`, `z` (runs × rows × n), `position`
/// (runs × rows × bodies × 3, bodies in `Model.body_names` order, Ground first),
/// `quaternion` (… × 4, `[w, x, y, z]`), `velocity` (… × 6: `vx vy vz wx wy wz`, linear
/// then angular), `ke`, `pe`, `energy` (runs × rows),
/// and per run `ok` (bool), `error` (the message or None) and `steps`. Rows after a failed
/// run's last report are NaN. Results equal those of separate `simulate` calls bit for bit.
/// `controls` (runs × report intervals × nctrl, float64) gives each run an open-loop
/// control sequence, as `simulate(controls=array)` does.
#[pyfunction]
#[pyo3(signature = (model, states, duration=None, report_interval=None, threads=None, integrator=None, accuracy=None, controls=None))]
#[allow(clippy::too_many_arguments)]
pub fn rollouts<'py>(
    py: Python<'py>,
    model: &PyModel,
    states: &Bound<'py, PyAny>,
    duration: Option<f64>,
    report_interval: Option<f64>,
    threads: Option<usize>,
    integrator: Option<&str>,
    accuracy: Option<f64>,
    controls: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let settings = settings(model, integrator, accuracy, None)?;
    let mut starts = Vec::new();
    for (i, item) in states.try_iter()?.enumerate() {
        let item = item?;
        let s: PyRef<'_, PyState> = item.extract().map_err(|_| {
            PyValueError::new_err(format!("states[{i}]: expected a ferrobody.State"))
        })?;
        starts.push(
            s.to_state(py, &model.model)
                .map_err(|e| PyValueError::new_err(format!("states[{i}]: {}", e.value(py))))?,
        );
    }
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads: must be at least 1"));
    }
    let options = options(model, duration, report_interval, false);
    let m = &model.model;
    let schedules = match controls.filter(|c| !c.is_none()) {
        Some(c) => {
            let flat = control_rows(c, m.nctrl(), "controls")?;
            let per_run = flat.len() / starts.len().max(1);
            let shape = c.getattr("shape")?.extract::<Vec<usize>>()?;
            if shape.len() != 3 || shape[0] != starts.len() {
                return Err(PyValueError::new_err(format!(
                    "controls: expected shape (runs = {}, report intervals, nctrl = {}), got {shape:?}",
                    starts.len(),
                    m.nctrl()
                )));
            }
            Some((flat, per_run))
        }
        None => None,
    };
    let runs = py
        .detach(|| match &schedules {
            Some((flat, per_run)) => {
                let rows: Vec<&[f64]> = if *per_run == 0 {
                    vec![&[]; starts.len()]
                } else {
                    flat.chunks(*per_run).collect()
                };
                rollout::rollouts_with_schedules(m, &starts, &rows, settings, &options, threads)
            }
            None => rollout::rollouts(m, &starts, settings, &options, threads),
        })
        .map_err(to_py_err)?;
    let runs: Vec<Trajectory> = runs
        .into_iter()
        .collect::<Result<_, _>>()
        .map_err(to_py_err)?;
    stack(py, model, &runs, expected_rows(&options))
}

/// Rows of `nb` bodies × `width` values (Ground left out, one row per entry of `t`) with
/// Ground's `ground` values put first in each, so that body k of the result is
/// `Model.body_names[k]`. Rows after a failed run's end (`t` NaN) are NaN for Ground too.
fn with_ground(rows: &[f64], t: &[f64], nb: usize, width: usize, ground: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(t.len() * (nb + 1) * width);
    for (k, time) in t.iter().enumerate() {
        if time.is_nan() {
            out.extend(std::iter::repeat_n(f64::NAN, width));
        } else {
            out.extend_from_slice(ground);
        }
        out.extend_from_slice(&rows[k * nb * width..(k + 1) * nb * width]);
    }
    out
}

fn expected_rows(o: &RecordOptions) -> usize {
    rollout::expected_reports(o.duration, o.report_interval.unwrap_or(0.0))
}

/// Stacks runs into (runs × rows × …) arrays, NaN after a failed run's last row.
fn stack<'py>(
    py: Python<'py>,
    model: &PyModel,
    runs: &[Trajectory],
    expected: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let rows = runs
        .iter()
        .map(|r| r.time.len())
        .max()
        .unwrap_or(0)
        .max(expected);
    let nb = model.model.nbodies() - 1;
    let d = PyDict::new(py);
    let fill = |get: &dyn Fn(&Trajectory) -> &Vec<f64>, width: usize| -> Vec<f64> {
        let mut out = Vec::with_capacity(runs.len() * rows * width);
        for r in runs {
            let data = get(r);
            out.extend_from_slice(data);
            out.resize(out.len() + rows * width - data.len(), f64::NAN);
        }
        out
    };
    let n = runs.len();
    let (nq, nu, nz) = (model.model.nq(), model.model.nu(), model.model.nz());
    let t = fill(&|r| &r.time, 1);
    d.set_item("t", shaped(py, t.clone(), &[n, rows])?)?;
    d.set_item("q", shaped(py, fill(&|r| &r.q, nq), &[n, rows, nq])?)?;
    d.set_item("u", shaped(py, fill(&|r| &r.u, nu), &[n, rows, nu])?)?;
    d.set_item("z", shaped(py, fill(&|r| &r.z, nz), &[n, rows, nz])?)?;
    let nbodies = nb + 1;
    let position = with_ground(&fill(&|r| &r.position, nb * 3), &t, nb, 3, &[0.0; 3]);
    d.set_item("position", shaped(py, position, &[n, rows, nbodies, 3])?)?;
    let quaternion = fill(&|r| &r.quaternion, nb * 4);
    let quaternion = with_ground(&quaternion, &t, nb, 4, &[1.0, 0.0, 0.0, 0.0]);
    d.set_item(
        "quaternion",
        shaped(py, quaternion, &[n, rows, nbodies, 4])?,
    )?;
    let mut velocity = fill(&|r| &r.velocity, nb * 6);
    for v in velocity.chunks_exact_mut(6) {
        v.rotate_left(3); // [ω; v] → trajectory.csv's [v; ω]
    }
    let velocity = with_ground(&velocity, &t, nb, 6, &[0.0; 6]);
    d.set_item("velocity", shaped(py, velocity, &[n, rows, nbodies, 6])?)?;
    let ke = fill(&|r| &r.kinetic_energy, 1);
    let pe = fill(&|r| &r.potential_energy, 1);
    let energy: Vec<f64> = ke.iter().zip(&pe).map(|(k, p)| k + p).collect();
    d.set_item("ke", shaped(py, ke, &[n, rows])?)?;
    d.set_item("pe", shaped(py, pe, &[n, rows])?)?;
    d.set_item("energy", shaped(py, energy, &[n, rows])?)?;
    let ok: Vec<bool> = runs.iter().map(|r| r.error.is_none()).collect();
    d.set_item("ok", numpy::PyArray1::from_vec(py, ok))?;
    let errors: Vec<Option<String>> = runs
        .iter()
        .map(|r| r.error.as_ref().map(|e| e.message()))
        .collect();
    d.set_item("error", PyList::new(py, errors)?)?;
    let steps: Vec<u64> = runs.iter().map(|r| r.stats.steps_taken).collect();
    d.set_item("steps", numpy::PyArray1::from_vec(py, steps))?;
    Ok(d)
}
