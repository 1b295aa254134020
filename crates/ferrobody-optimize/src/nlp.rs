//! The transcribed nonlinear program: bounds, defect constraints, their sparse exact Jacobian
//! and the objective with its gradient (grid and equations: [`crate::grid`]).
//!
//! The Jacobian's sparsity pattern is computed once, from the structure of the defects and of
//! `∂f/∂(y, c)` ([`crate::dynamics`]); its values come from the same enumeration, so pattern
//! and values cannot disagree. Per interval k with points a, m, b and h = (t_f − t₀)/N:
//!
//! ```text
//!   Hermite   ∂/∂y_a = −½ I − h/8 J_a,   ∂/∂y_m = I,          ∂/∂y_b = −½ I + h/8 J_b
//!   Simpson   ∂/∂y_a = −I − h/6 J_a,     ∂/∂y_m = −4h/6 J_m,  ∂/∂y_b = I − h/6 J_b
//!   trapez.   ∂/∂y_a = −I − h/2 J_a,                          ∂/∂y_b = I − h/2 J_b
//!   ∂/∂t_f    −(f_a − f_b)/(8N),  −(f_a + 4 f_m + f_b)/(6N),  −(f_a + f_b)/(2N)
//! ```
//!
//! with J_p = ∂f/∂(y, c) at point p (the c columns through the same blocks).

use crate::contact_forces::ContactForces;
use crate::dynamics::PointDynamics;
use crate::error::{OptimizeError, Result};
use crate::goals::Goal;
use crate::goals::GridView;
use crate::grid::{Layout, Transcription};
use crate::mass_center::{Displacement, MassCenter};
use crate::path_constraints::{PathEvaluator, PathWorkspace};
use crate::problem::{Bounds, FinalTime, Problem, Variable};
use ferrobody::nalgebra::DMatrix;

/// IPOPT's infinity (`nlp_upper_bound_inf`).
pub(crate) const INFINITE: f64 = 2e19;

/// The evaluated dynamics at every grid point, for one x.
pub(crate) struct PointCache {
    /// One workspace per thread: thread w evaluates a contiguous run of points.
    dynamics: Vec<PointDynamics>,
    /// The threads, when more than one.
    pool: Option<rayon::ThreadPool>,
    /// f at every point (points × ny), valid for `x_values`.
    f: Vec<f64>,
    x_values: Option<Vec<f64>>,
    /// J at every point, valid for `x_jacobians`.
    jacobians: Vec<DMatrix<f64>>,
    x_jacobians: Option<Vec<f64>>,
    /// The centre of mass, when a goal or constraint reads its displacement.
    mass_center: Option<MassCenter>,
    /// Its displacement between the first and the last point, valid for `x_displacement`.
    displacement: Displacement,
    x_displacement: Option<Vec<f64>>,
    /// The tracked contacts' forces, when a goal tracks them, and whether they hold x.
    contact: Option<ContactForces>,
    contact_valid: bool,
}

impl PointCache {
    /// The centre of mass's displacement at x (nothing is evaluated again for the same x).
    fn update_displacement(&mut self, x: &[f64], layout: &Layout, nq: usize) -> Result<()> {
        let Some(center) = &mut self.mass_center else {
            return Ok(());
        };
        if self.x_displacement.as_deref() == Some(x) {
            return Ok(());
        }
        let last = layout.points() - 1;
        let (q_0, q_f) = (
            &x[layout.y(0)..layout.y(0) + nq],
            &x[layout.y(last)..layout.y(last) + nq],
        );
        center.displacement(q_0, q_f, &mut self.displacement)?;
        remember(&mut self.x_displacement, x);
        Ok(())
    }
}

/// The transcribed problem.
pub(crate) struct Transcribed {
    pub problem: Problem,
    pub layout: Layout,
    omega: Vec<f64>,
    /// Per row of f: the columns of (y, c) it depends on, with and without its own y column.
    cols_f: Vec<Vec<usize>>,
    cols_identity_f: Vec<Vec<usize>>,
    pub cache: std::cell::RefCell<PointCache>,
    /// The path constraints' evaluator and its rows' buffer, when there are path constraints.
    pub(crate) path: std::cell::RefCell<Option<PathWorkspace>>,
}

/// One thread's share of the grid: its workspace, its points' f (ny each) and Jacobians.
type WorkerRun<'a> = (
    (&'a mut PointDynamics, &'a mut [f64]),
    &'a mut [DMatrix<f64>],
);

/// Stores x as the point a cache holds, reusing its buffer.
fn remember(slot: &mut Option<Vec<f64>>, x: &[f64]) {
    let held = slot.get_or_insert_with(Vec::new);
    held.clear();
    held.extend_from_slice(x);
}

/// Which terms one point contributes to a defect row: `α I + β J`.
#[derive(Clone, Copy)]
struct Term {
    point: usize,
    alpha: f64,
    beta: f64,
    has_identity: bool,
    has_f: bool,
}

impl Transcribed {
    /// The transcription of `problem` on `intervals` mesh intervals, its grid points
    /// evaluated on `threads` threads (at least 1).
    pub fn new(
        problem: Problem,
        transcription: Transcription,
        intervals: usize,
        threads: usize,
    ) -> Result<Self> {
        let layout = Layout {
            ny: problem.state_names.len(),
            nc: problem.control_names.len(),
            intervals,
            transcription,
            free_time: problem.free_final_time(),
            endpoint_rows: problem.periodic_pairs.len()
                + usize::from(problem.average_speed.is_some()),
            path_rows: problem.path_constraints.iter().map(|c| c.rows()).sum(),
        };
        let path = if problem.path_constraints.is_empty() {
            None
        } else {
            Some(PathEvaluator::new(&problem.model, &problem.base_state)?)
        };
        let mass_center = if problem.needs_displacement() {
            Some(MassCenter::new(&problem.model, &problem.base_state)?)
        } else {
            None
        };
        let points = layout.points();
        let contact = tracked_contacts(&problem, points)?;
        let threads = threads.clamp(1, points);
        let mut dynamics = (0..threads)
            .map(|_| PointDynamics::new(&problem.model, &problem.base_state))
            .collect::<Result<Vec<_>>>()?;
        let pool = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| {
                    OptimizeError::Solver(format!("cannot start {threads} threads: {e}"))
                })?;
            Some(pool)
        } else {
            None
        };
        let cols_f = dynamics[0].pattern();
        let cols_identity_f = cols_f
            .iter()
            .enumerate()
            .map(|(i, cols)| {
                let mut all = cols.clone();
                all.push(i);
                all.sort_unstable();
                all.dedup();
                all
            })
            .collect();
        let (ny, nb) = (layout.ny, layout.ny + layout.nc);
        Ok(Self {
            omega: layout.quadrature(),
            cache: std::cell::RefCell::new(PointCache {
                dynamics,
                pool,
                f: vec![0.0; points * ny],
                x_values: None,
                jacobians: vec![DMatrix::zeros(ny, nb); points],
                x_jacobians: None,
                mass_center,
                displacement: Displacement::default(),
                x_displacement: None,
                contact,
                contact_valid: false,
            }),
            cols_f,
            cols_identity_f,
            layout,
            problem,
            path: std::cell::RefCell::new(path.map(|e| (e, Vec::new()))),
        })
    }

    /// (t₀, t_f) at x.
    pub fn times(&self, x: &[f64]) -> (f64, f64) {
        let tf = match self.problem.final_time {
            FinalTime::Fixed(tf) => tf,
            FinalTime::Free(_) => x[0],
        };
        (self.problem.initial_time, tf)
    }

    /// The time of grid point i at x.
    pub fn time(&self, x: &[f64], i: usize) -> f64 {
        let (t0, tf) = self.times(x);
        self.layout.time(t0, tf, i)
    }

    /// Lower and upper bounds of every variable.
    pub fn bounds(&self, lower: &mut [f64], upper: &mut [f64]) {
        let l = &self.layout;
        let mut set = |i: usize, b: Bounds| {
            lower[i] = b.lower.max(-INFINITE);
            upper[i] = b.upper.min(INFINITE);
        };
        if let FinalTime::Free(b) = self.problem.final_time {
            set(0, b);
        }
        let last = l.points() - 1;
        for p in 0..l.points() {
            for (j, sb) in self.problem.state_bounds.iter().enumerate() {
                let end = match p {
                    0 => sb.initial,
                    p if p == last => sb.final_,
                    _ => None,
                };
                let b = end.map_or(sb.path, |e| {
                    Bounds::new(e.lower.max(sb.path.lower), e.upper.min(sb.path.upper))
                });
                set(l.y(p) + j, b);
            }
            for (k, b) in self.problem.control_bounds.iter().enumerate() {
                set(l.c(p) + k, *b);
            }
        }
    }

    /// f at every grid point for x, and with `jacobians` ∂f/∂(y, c) too; nothing is
    /// evaluated again for the x it was last evaluated at.
    fn evaluate(&self, x: &[f64], jacobians: bool) -> Result<()> {
        let mut cache = self.cache.borrow_mut();
        let cache = &mut *cache;
        let valid = if jacobians {
            &cache.x_jacobians
        } else {
            &cache.x_values
        };
        if valid.as_deref() == Some(x) {
            return Ok(());
        }
        let l = self.layout;
        let workers = cache.dynamics.len();
        let chunk = l.points().div_ceil(workers);
        let (t0, tf) = self.times(x);
        let (f, jacs) = (&mut cache.f, &mut cache.jacobians);
        let work = cache
            .dynamics
            .iter_mut()
            .zip(f.chunks_mut(chunk * l.ny))
            .zip(jacs.chunks_mut(chunk))
            .enumerate();
        let evaluate_run = |(w, ((dynamics, f), jacs)): (usize, WorkerRun<'_>)| -> Result<()> {
            for (k, (f, jac)) in f.chunks_mut(l.ny).zip(jacs).enumerate() {
                let p = w * chunk + k;
                let (t, y, c) = (
                    l.time(t0, tf, p),
                    &x[l.y(p)..l.c(p)],
                    &x[l.c(p)..l.c(p) + l.nc],
                );
                if jacobians {
                    dynamics.jacobian(t, y, c, f, jac)?;
                } else {
                    dynamics.value(t, y, c, f)?;
                }
            }
            Ok(())
        };
        match &cache.pool {
            Some(pool) => {
                use rayon::prelude::*;
                let work: Vec<_> = work.collect();
                pool.install(|| work.into_par_iter().try_for_each(evaluate_run))?;
            }
            None => work.into_iter().try_for_each(evaluate_run)?,
        }
        remember(&mut cache.x_values, x);
        if jacobians {
            remember(&mut cache.x_jacobians, x);
        }
        cache.update_displacement(x, &l, self.problem.model.nq())
    }

    /// The defects g(x).
    pub fn constraints(&self, x: &[f64], g: &mut [f64]) -> Result<()> {
        self.evaluate(x, false)?;
        let cache = self.cache.borrow();
        let l = self.layout;
        let (t0, tf) = self.times(x);
        let h = (tf - t0) / l.intervals as f64;
        let y = |p: usize, i: usize| x[l.y(p) + i];
        let c = |p: usize, j: usize| x[l.c(p) + j];
        let f = |p: usize, i: usize| cache.f[p * l.ny + i];
        let mut row = 0;
        for k in 0..l.intervals {
            match l.transcription {
                Transcription::HermiteSimpson => {
                    let (a, m, b) = (2 * k, 2 * k + 1, 2 * k + 2);
                    for i in 0..l.ny {
                        g[row] =
                            y(m, i) - 0.5 * (y(a, i) + y(b, i)) - h / 8.0 * (f(a, i) - f(b, i));
                        g[row + l.ny] =
                            y(b, i) - y(a, i) - h / 6.0 * (f(a, i) + 4.0 * f(m, i) + f(b, i));
                        row += 1;
                    }
                    row += l.ny;
                    for j in 0..l.nc {
                        g[row] = c(m, j) - 0.5 * (c(a, j) + c(b, j));
                        row += 1;
                    }
                }
                Transcription::Trapezoidal => {
                    let (a, b) = (k, k + 1);
                    for i in 0..l.ny {
                        g[row] = y(b, i) - y(a, i) - 0.5 * h * (f(a, i) + f(b, i));
                        row += 1;
                    }
                }
            }
        }
        for (first, last) in self.endpoint_columns() {
            g[row] = x[first] - x[last];
            row += 1;
        }
        if let Some(speed) = self.problem.average_speed {
            g[row] = speed - cache.displacement.norm / (tf - t0);
        }
        self.path_values(x, g)
    }

    /// Per periodicity pair: the column of its initial variable at the first grid point and
    /// of its final variable at the last.
    fn endpoint_columns(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let l = self.layout;
        let last = l.points() - 1;
        let column = move |v: Variable, point: usize| match v {
            Variable::State(i) => l.y(point) + i,
            Variable::Control(k) => l.c(point) + k,
        };
        self.problem
            .periodic_pairs
            .iter()
            .map(move |&(a, b)| (column(a, 0), column(b, last)))
    }

    /// Number of nonzeros of the constraint Jacobian.
    pub fn jacobian_nonzeros(&self) -> usize {
        let mut n = 0;
        self.jacobian_entries(&[], None, &mut |_, _, _| n += 1);
        let _ = self.path_entries(&[], false, &mut |_, _, _| n += 1);
        n
    }

    /// The Jacobian's (row, column) pattern, in the order of [`Self::jacobian_values`].
    pub fn jacobian_pattern(&self, rows: &mut [i32], cols: &mut [i32]) {
        let mut n = 0;
        let mut pattern = |r: usize, c: usize, _| {
            rows[n] = r as i32;
            cols[n] = c as i32;
            n += 1;
        };
        self.jacobian_entries(&[], None, &mut pattern);
        let _ = self.path_entries(&[], false, &mut pattern);
    }

    /// The Jacobian's values at x.
    pub fn jacobian_values(&self, x: &[f64], values: &mut [f64]) -> Result<()> {
        self.evaluate(x, true)?;
        let cache = self.cache.borrow();
        let mut n = 0;
        self.jacobian_entries(x, Some(&cache), &mut |_, _, v| {
            values[n] = v;
            n += 1;
        });
        self.path_entries(x, true, &mut |_, _, v| {
            values[n] = v;
            n += 1;
        })
    }

    /// Enumerates the Jacobian's entries (row, column, value); values are 0 without a cache.
    fn jacobian_entries(
        &self,
        x: &[f64],
        cache: Option<&PointCache>,
        emit: &mut impl FnMut(usize, usize, f64),
    ) {
        let l = self.layout;
        let n = l.intervals as f64;
        let h = cache.map_or(0.0, |_| {
            let (t0, tf) = self.times(x);
            (tf - t0) / n
        });
        let f = |p: usize, i: usize| cache.map_or(0.0, |c| c.f[p * l.ny + i]);
        let term = |point, alpha: f64, beta: f64| Term {
            point,
            alpha,
            beta,
            has_identity: alpha != 0.0,
            has_f: true,
        };
        let mut row = 0;
        for k in 0..l.intervals {
            match l.transcription {
                Transcription::HermiteSimpson => {
                    let (a, m, b) = (2 * k, 2 * k + 1, 2 * k + 2);
                    for i in 0..l.ny {
                        if l.free_time {
                            emit(row, 0, -(f(a, i) - f(b, i)) / (8.0 * n));
                        }
                        let identity_only = Term {
                            has_f: false,
                            ..term(m, 1.0, 0.0)
                        };
                        for t in [
                            term(a, -0.5, -h / 8.0),
                            identity_only,
                            term(b, -0.5, h / 8.0),
                        ] {
                            self.emit_term(row, i, t, cache, emit);
                        }
                        row += 1;
                    }
                    for i in 0..l.ny {
                        if l.free_time {
                            emit(row, 0, -(f(a, i) + 4.0 * f(m, i) + f(b, i)) / (6.0 * n));
                        }
                        let f_only = term(m, 0.0, -4.0 * h / 6.0);
                        for t in [term(a, -1.0, -h / 6.0), f_only, term(b, 1.0, -h / 6.0)] {
                            self.emit_term(row, i, t, cache, emit);
                        }
                        row += 1;
                    }
                    for j in 0..l.nc {
                        emit(row, l.c(a) + j, -0.5);
                        emit(row, l.c(m) + j, 1.0);
                        emit(row, l.c(b) + j, -0.5);
                        row += 1;
                    }
                }
                Transcription::Trapezoidal => {
                    let (a, b) = (k, k + 1);
                    for i in 0..l.ny {
                        if l.free_time {
                            emit(row, 0, -(f(a, i) + f(b, i)) / (2.0 * n));
                        }
                        for t in [term(a, -1.0, -0.5 * h), term(b, 1.0, -0.5 * h)] {
                            self.emit_term(row, i, t, cache, emit);
                        }
                        row += 1;
                    }
                }
            }
        }
        for (first, last) in self.endpoint_columns() {
            emit(row, first, 1.0);
            emit(row, last, -1.0);
            row += 1;
        }
        if self.problem.average_speed.is_some() {
            self.emit_speed_row(row, x, cache, emit);
        }
    }

    /// The average-speed row `v − d/D` (D = t_f − t₀): `−(∂d/∂q)/D` at the first and the last
    /// point's coordinates, `d/D²` in t_f.
    fn emit_speed_row(
        &self,
        row: usize,
        x: &[f64],
        cache: Option<&PointCache>,
        emit: &mut impl FnMut(usize, usize, f64),
    ) {
        let l = self.layout;
        let duration = cache.map_or(1.0, |_| {
            let (t0, tf) = self.times(x);
            tf - t0
        });
        let r = cache.map(|c| &c.displacement);
        if l.free_time {
            emit(row, 0, r.map_or(0.0, |r| r.norm / (duration * duration)));
        }
        let nq = self.problem.model.nq();
        let last = l.points() - 1;
        for k in 0..nq {
            emit(
                row,
                l.y(0) + k,
                r.map_or(0.0, |r| -r.d_initial[k] / duration),
            );
        }
        for k in 0..nq {
            emit(
                row,
                l.y(last) + k,
                r.map_or(0.0, |r| -r.d_final[k] / duration),
            );
        }
    }

    /// One point's `α I + β J` entries of defect row `row` (state component i).
    fn emit_term(
        &self,
        row: usize,
        i: usize,
        t: Term,
        cache: Option<&PointCache>,
        emit: &mut impl FnMut(usize, usize, f64),
    ) {
        let start = self.layout.y(t.point);
        let cols: &[usize] = match (t.has_identity, t.has_f) {
            (true, true) => &self.cols_identity_f[i],
            (false, true) => &self.cols_f[i],
            _ => std::slice::from_ref(&i),
        };
        for &col in cols {
            let value = cache.map_or(0.0, |c| {
                let identity = if col == i { t.alpha } else { 0.0 };
                let jac = if t.has_f {
                    t.beta * c.jacobians[t.point][(i, col)]
                } else {
                    0.0
                };
                identity + jac
            });
            emit(row, start + col, value);
        }
    }

    fn grid<'a>(&'a self, x: &'a [f64], cache: &'a PointCache) -> GridView<'a> {
        let (t0, tf) = self.times(x);
        GridView {
            x,
            layout: self.layout,
            t0,
            tf,
            omega: &self.omega,
            displacement: cache.mass_center.as_ref().map(|_| &cache.displacement),
            contact: cache.contact.as_ref().filter(|_| cache.contact_valid),
        }
    }

    /// The cache with what the goals read at x: the centre of mass's displacement and the
    /// tracked contacts' forces (NaN displacement, no forces, if they could not be evaluated:
    /// the goals' values are then NaN, which IPOPT reports).
    fn cache_with_displacement(&self, x: &[f64]) -> std::cell::Ref<'_, PointCache> {
        {
            let mut cache = self.cache.borrow_mut();
            if cache
                .update_displacement(x, &self.layout, self.problem.model.nq())
                .is_err()
            {
                cache.displacement.norm = f64::NAN;
                cache.x_displacement = None;
            }
            if let Some(forces) = &mut cache.contact {
                let valid = forces.update(x, &self.layout).is_ok();
                cache.contact_valid = valid;
            }
        }
        self.cache.borrow()
    }

    /// The objective at x.
    pub fn objective(&self, x: &[f64]) -> f64 {
        let cache = self.cache_with_displacement(x);
        let g = self.grid(x, &cache);
        self.problem.goals.iter().map(|goal| goal.value(&g)).sum()
    }

    /// Each goal's value at x, by Moco's label.
    pub fn goal_values(&self, x: &[f64]) -> Vec<(&'static str, f64)> {
        let cache = self.cache_with_displacement(x);
        let g = self.grid(x, &cache);
        self.problem
            .goals
            .iter()
            .map(|goal| (goal.label(), goal.value(&g)))
            .collect()
    }

    /// The objective's gradient at x.
    pub fn objective_gradient(&self, x: &[f64], grad: &mut [f64]) {
        grad.fill(0.0);
        let cache = self.cache_with_displacement(x);
        let g = self.grid(x, &cache);
        for goal in &self.problem.goals {
            goal.add_gradient(&g, grad);
        }
    }
}

impl Transcribed {
    /// x as a trajectory (names, times, states, controls, goal values; no solver report).
    pub fn trajectory(&self, x: &[f64]) -> crate::Trajectory {
        let l = self.layout;
        let points = 0..l.points();
        crate::Trajectory {
            time: points.clone().map(|p| self.time(x, p)).collect(),
            state_names: self.problem.state_names.clone(),
            control_names: self.problem.control_names.clone(),
            states: points.clone().map(|p| x[l.y(p)..l.c(p)].to_vec()).collect(),
            controls: points.map(|p| x[l.c(p)..l.c(p) + l.nc].to_vec()).collect(),
            objective: self.objective(x),
            goal_values: self
                .goal_values(x)
                .into_iter()
                .map(|(label, v)| (label.to_string(), v))
                .collect(),
            ..Default::default()
        }
    }
}

/// The workspace for the contacts that contact-tracking goals read (None without such goals).
fn tracked_contacts(problem: &Problem, points: usize) -> Result<Option<ContactForces>> {
    let mut elements: Vec<usize> = Vec::new();
    for goal in &problem.goals {
        if let Goal::ContactTracking(ct) = goal {
            for e in ct.elements() {
                if !elements.contains(&e) {
                    elements.push(e);
                }
            }
        }
    }
    if elements.is_empty() {
        return Ok(None);
    }
    ContactForces::new(&problem.model, &problem.base_state, elements, points).map(Some)
}
