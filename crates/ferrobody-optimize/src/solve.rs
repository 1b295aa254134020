//! Solving the transcribed problem with IPOPT (Wächter & Biegler, Math. Program. 106 (2006)),
//! the solver Moco and CasADi use, through the `ipopt` crate over the system's library.
//!
//! Settings mirror Moco's `MocoCasADiSolver`: `optim_convergence_tolerance` sets `tol`,
//! `dual_inf_tol`, `compl_inf_tol` and their `acceptable_*` twins,
//! `optim_constraint_tolerance` sets `constr_viol_tol` and `acceptable_constr_viol_tol`, the
//! Hessian is IPOPT's L-BFGS (`hessian_approximation = limited-memory`, Moco's default); every
//! other IPOPT option passes through. One line per iteration goes to stderr unless IPOPT's own
//! `print_level` is asked for. A solve that does not end in `Solve_Succeeded` or
//! `Solved_To_Acceptable_Level` is an error carrying the last iterate, never a solution.

use crate::error::{OptimizeError, Result};
use crate::grid::Transcription;
use crate::guess::{initial_point, Guess};
use crate::nlp::Transcribed;
use crate::problem::Problem;
use crate::trajectory::Trajectory;
use ipopt::{BasicProblem, ConstrainedProblem, Index, Ipopt, Number, SolveStatus};
use std::cell::RefCell;
use std::time::Instant;

/// Serializes IPOPT solves (see [`solve`]).
static SOLVER_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A value of an IPOPT option.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(untagged)]
pub enum IpoptValue {
    /// An integer option (`max_iter`, `print_level`).
    Integer(i32),
    /// A numeric option (`tol`, `mu_init`).
    Number(f64),
    /// A string option (`linear_solver`, `mu_strategy`).
    Text(String),
}

/// How to transcribe and solve.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverSettings {
    /// The transcription (Moco's default: Hermite–Simpson).
    pub transcription: Transcription,
    /// Mesh intervals N.
    pub mesh_intervals: usize,
    /// `optim_convergence_tolerance` (Moco's default 1e-2... set 1e-6 for tight optima).
    pub convergence_tolerance: f64,
    /// `optim_constraint_tolerance`.
    pub constraint_tolerance: f64,
    /// `max_iter`.
    pub max_iterations: usize,
    /// Further IPOPT options, set last (they override the above).
    pub ipopt_options: Vec<(String, IpoptValue)>,
    /// Print one line per iteration on stderr.
    pub progress: bool,
    /// Threads evaluating the grid points' dynamics and Jacobians (Moco's `parallel`):
    /// `None` uses every core, `Some(1)` one thread (as Moco with `parallel = 0`). IPOPT
    /// itself runs on the calling thread.
    pub threads: Option<usize>,
    /// Continuation stages solved before the problem itself, each from the previous one's
    /// solution (the first from the guess); the last solve is always the problem as given.
    pub homotopy: Vec<HomotopyStage>,
}

/// One continuation stage of [`SolverSettings::homotopy`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HomotopyStage {
    /// Force parameters set on every element that has them
    /// ([`Problem::with_force_parameters`]): softening the smooth contacts'
    /// `hertz_smoothing` lets the feet feel the ground from a guess that floats above it.
    pub parameters: Vec<(String, f64)>,
    /// A coarser mesh for this stage (the next stage interpolates its solution onto its own
    /// grid); `None`: the settings' `mesh_intervals`.
    pub mesh_intervals: Option<usize>,
}

impl std::fmt::Display for HomotopyStage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = self
            .parameters
            .iter()
            .map(|(p, v)| format!("{p} = {v}"))
            .collect();
        if let Some(n) = self.mesh_intervals {
            parts.push(format!("{n} mesh intervals"));
        }
        f.write_str(&parts.join(", "))
    }
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self {
            transcription: Transcription::HermiteSimpson,
            mesh_intervals: 100,
            convergence_tolerance: 1e-4,
            constraint_tolerance: 1e-4,
            max_iterations: 3000,
            ipopt_options: Vec::new(),
            progress: true,
            threads: None,
            homotopy: Vec::new(),
        }
    }
}

/// The problem as IPOPT sees it.
struct IpoptProblem {
    nlp: Transcribed,
    x0: Vec<f64>,
    iterations: usize,
    progress: bool,
    /// The first model evaluation that failed (IPOPT only learns that one did).
    failure: RefCell<Option<OptimizeError>>,
}

impl IpoptProblem {
    fn record<T>(&self, r: Result<T>) -> bool {
        match r {
            Ok(_) => true,
            Err(e) => {
                self.failure.borrow_mut().get_or_insert(e);
                false
            }
        }
    }
}

impl BasicProblem for IpoptProblem {
    fn num_variables(&self) -> usize {
        self.nlp.layout.n_variables()
    }

    fn bounds(&self, x_l: &mut [Number], x_u: &mut [Number]) -> bool {
        self.nlp.bounds(x_l, x_u);
        true
    }

    fn initial_point(&self, x: &mut [Number]) -> bool {
        x.copy_from_slice(&self.x0);
        true
    }

    fn objective(&self, x: &[Number], _new_x: bool, obj: &mut Number) -> bool {
        *obj = self.nlp.objective(x);
        obj.is_finite()
    }

    fn objective_grad(&self, x: &[Number], _new_x: bool, grad_f: &mut [Number]) -> bool {
        self.nlp.objective_gradient(x, grad_f);
        grad_f.iter().all(|g| g.is_finite())
    }
}

impl ConstrainedProblem for IpoptProblem {
    fn num_constraints(&self) -> usize {
        self.nlp.layout.n_constraints()
    }

    fn num_constraint_jacobian_non_zeros(&self) -> usize {
        self.nlp.jacobian_nonzeros()
    }

    fn constraint(&self, x: &[Number], _new_x: bool, g: &mut [Number]) -> bool {
        self.record(self.nlp.constraints(x, g))
    }

    fn constraint_bounds(&self, g_l: &mut [Number], g_u: &mut [Number]) -> bool {
        self.nlp.constraint_bounds(g_l, g_u);
        true
    }

    fn constraint_jacobian_indices(&self, rows: &mut [Index], cols: &mut [Index]) -> bool {
        self.nlp.jacobian_pattern(rows, cols);
        true
    }

    fn constraint_jacobian_values(&self, x: &[Number], _new_x: bool, vals: &mut [Number]) -> bool {
        self.record(self.nlp.jacobian_values(x, vals))
    }

    // The Hessian is IPOPT's limited-memory approximation: no entries.
    fn num_hessian_non_zeros(&self) -> usize {
        0
    }

    fn hessian_indices(&self, _rows: &mut [Index], _cols: &mut [Index]) -> bool {
        true
    }

    fn hessian_values(
        &self,
        _x: &[Number],
        _new_x: bool,
        _obj_factor: Number,
        _lambda: &[Number],
        _vals: &mut [Number],
    ) -> bool {
        false
    }
}

/// Counts iterations and prints progress (IPOPT calls it once per iteration).
fn on_iteration(p: &mut IpoptProblem, data: ipopt::IntermediateCallbackData) -> bool {
    p.iterations = data.iter_count.max(0) as usize;
    if p.progress {
        if data.iter_count % 10 == 0 {
            eprintln!("iter   objective        inf_pr    inf_du    lg(mu)  alpha_pr");
        }
        let restoration = if data.alg_mod == ipopt::AlgorithmMode::RestorationPhase {
            "r"
        } else {
            " "
        };
        eprintln!(
            "{:4}{restoration} {:<16.9e} {:.2e}  {:.2e}  {:5.1}  {:.2e}",
            data.iter_count,
            data.obj_value,
            data.inf_pr,
            data.inf_du,
            data.mu.log10(),
            data.alpha_pr
        );
    }
    true
}

/// Transcribes `problem`, solves it from `guess` (through the continuation stages of
/// `settings.homotopy` first, if any) and returns the solution; its iteration count and
/// duration include the stages'.
pub fn solve(problem: Problem, settings: &SolverSettings, guess: &Guess) -> Result<Trajectory> {
    let mut guess = guess.clone();
    let (mut iterations, mut duration) = (0, 0.0);
    for (k, stage) in settings.homotopy.iter().enumerate() {
        if settings.progress {
            let n = settings.homotopy.len();
            eprintln!("homotopy stage {} of {n}: {stage}", k + 1);
        }
        let staged = problem.with_force_parameters(&stage.parameters)?;
        let stage_settings = SolverSettings {
            mesh_intervals: stage.mesh_intervals.unwrap_or(settings.mesh_intervals),
            ..settings.clone()
        };
        let stage = solve_once(staged, &stage_settings, &guess).map_err(|e| match e {
            OptimizeError::NotSolved {
                status,
                iterations,
                iterate,
            } => OptimizeError::NotSolved {
                status: format!("{status} (homotopy stage {})", k + 1),
                iterations,
                iterate,
            },
            other => other,
        })?;
        iterations += stage.iterations;
        duration += stage.solver_duration;
        guess = Guess::Table(stage.to_table());
    }
    if settings.progress && !settings.homotopy.is_empty() {
        eprintln!("the problem as given");
    }
    let mut solution = solve_once(problem, settings, &guess)?;
    solution.iterations += iterations;
    solution.solver_duration += duration;
    Ok(solution)
}

fn solve_once(problem: Problem, settings: &SolverSettings, guess: &Guess) -> Result<Trajectory> {
    if settings.mesh_intervals == 0 {
        return Err(OptimizeError::Solver(
            "mesh_intervals must be at least 1".into(),
        ));
    }
    let threads = settings.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let nlp = Transcribed::new(
        problem,
        settings.transcription,
        settings.mesh_intervals,
        threads,
    )?;
    let x0 = initial_point(&nlp, guess)?;
    let start = Instant::now();
    let problem = IpoptProblem {
        nlp,
        x0,
        iterations: 0,
        progress: settings.progress,
        failure: RefCell::new(None),
    };
    // Debian's IPOPT solves with sequential MUMPS, whose MPI stub keeps global state: two
    // solves at once corrupt the heap (seen: "malloc(): mismatching next->prev_size" with
    // parallel tests). One solve at a time per process.
    let _one_at_a_time = SOLVER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut ipopt = Ipopt::new(problem).map_err(|e| OptimizeError::Solver(e.to_string()))?;
    set_options(&mut ipopt, settings)?;
    ipopt.set_intermediate_callback(Some(on_iteration));
    let result = ipopt.solve();
    let status = result.status;
    let objective = result.objective_value;
    let x = result.solver_data.solution.primal_variables.to_vec();
    let p = &*result.solver_data.problem;
    if let Some(e) = p.failure.borrow_mut().take() {
        if !matches!(
            status,
            SolveStatus::SolveSucceeded | SolveStatus::SolvedToAcceptableLevel
        ) {
            return Err(e);
        }
    }
    let success = matches!(
        status,
        SolveStatus::SolveSucceeded | SolveStatus::SolvedToAcceptableLevel
    );
    let trajectory = Trajectory {
        objective,
        status: moco_status(status),
        success,
        iterations: p.iterations,
        solver_duration: start.elapsed().as_secs_f64(),
        ..p.nlp.trajectory(&x)
    };
    if success {
        Ok(trajectory)
    } else {
        Err(OptimizeError::NotSolved {
            status: trajectory.status.clone(),
            iterations: trajectory.iterations,
            iterate: Box::new(trajectory),
        })
    }
}

fn set_options(ipopt: &mut Ipopt<IpoptProblem>, s: &SolverSettings) -> Result<()> {
    let mut set = |name: &str, value: IpoptValue| {
        let ok = match &value {
            IpoptValue::Integer(i) => ipopt.set_option(name, *i).is_some(),
            IpoptValue::Number(v) => ipopt.set_option(name, *v).is_some(),
            IpoptValue::Text(t) => ipopt.set_option(name, t.as_str()).is_some(),
        };
        if ok {
            Ok(())
        } else {
            Err(OptimizeError::Solver(format!(
                "option {name} = {value:?} was refused"
            )))
        }
    };
    let conv = IpoptValue::Number(s.convergence_tolerance);
    for name in [
        "tol",
        "dual_inf_tol",
        "compl_inf_tol",
        "acceptable_tol",
        "acceptable_dual_inf_tol",
        "acceptable_compl_inf_tol",
    ] {
        set(name, conv.clone())?;
    }
    let constr = IpoptValue::Number(s.constraint_tolerance);
    set("constr_viol_tol", constr.clone())?;
    set("acceptable_constr_viol_tol", constr)?;
    set(
        "hessian_approximation",
        IpoptValue::Text("limited-memory".into()),
    )?;
    let max_iter = i32::try_from(s.max_iterations).unwrap_or(i32::MAX);
    set("max_iter", IpoptValue::Integer(max_iter))?;
    set("print_level", IpoptValue::Integer(0))?;
    set("sb", IpoptValue::Text("yes".into()))?;
    for (name, value) in &s.ipopt_options {
        set(name, value.clone())?;
    }
    Ok(())
}

/// IPOPT's `ApplicationReturnStatus` as Moco spells it.
fn moco_status(status: SolveStatus) -> String {
    use SolveStatus as S;
    let name = match status {
        S::SolveSucceeded => "Solve_Succeeded",
        S::SolvedToAcceptableLevel => "Solved_To_Acceptable_Level",
        S::FeasiblePointFound => "Feasible_Point_Found",
        S::InfeasibleProblemDetected => "Infeasible_Problem_Detected",
        S::SearchDirectionBecomesTooSmall => "Search_Direction_Becomes_Too_Small",
        S::DivergingIterates => "Diverging_Iterates",
        S::UserRequestedStop => "User_Requested_Stop",
        S::MaximumIterationsExceeded => "Maximum_Iterations_Exceeded",
        S::MaximumCpuTimeExceeded => "Maximum_CpuTime_Exceeded",
        S::RestorationFailed => "Restoration_Failed",
        S::ErrorInStepComputation => "Error_In_Step_Computation",
        S::InvalidOption => "Invalid_Option",
        S::NotEnoughDegreesOfFreedom => "Not_Enough_Degrees_Of_Freedom",
        S::InvalidProblemDefinition => "Invalid_Problem_Definition",
        S::InvalidNumberDetected => "Invalid_Number_Detected",
        S::UnrecoverableException => "Unrecoverable_Exception",
        S::NonIpoptExceptionThrown => "NonIpopt_Exception_Thrown",
        S::InsufficientMemory => "Insufficient_Memory",
        S::InternalError => "Internal_Error",
        S::UnknownError => "Unknown_Error",
    };
    name.to_string()
}
