//! `ferrobody optimize problem.toml`: solve an optimal-control problem (ferrobody-optimize's
//! TOML format) and write the solution as Moco's .sto, as CSV, plots of the states and
//! controls and a 3D replay of the optimal motion. IPOPT's progress goes to stderr, one line per iteration; a solve that does not
//! converge is an error (its last iterate is written as `unsolved_iterate.sto`, never as the
//! solution).

use crate::plots::line_plot;
use crate::recorder::Recorder;
use anyhow::{Context, Result};
use ferrobody::pipeline::forward_dynamics;
use ferrobody::Data;
use ferrobody_optimize::{solve, OptimizeError, Problem, ProblemFile, Trajectory};
use std::path::{Path, PathBuf};

/// Solves the problem file and writes `solution.sto`, `solution.csv`, `states.svg`,
/// `controls.svg` and `summary.json` into `out` (default: a folder named after the problem).
pub fn optimize(problem: &Path, out: Option<PathBuf>, quiet: bool) -> Result<()> {
    let out = &out.unwrap_or_else(|| {
        let stem = problem
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned());
        crate::run::default_out_dir(&stem.unwrap_or_default())
    });
    let mut file = ProblemFile::load(problem)?;
    file.settings.progress = !quiet;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let p = &file.problem;
    out!(
        "optimizing {}: {} states, {} controls, {} mesh intervals ({})",
        file.model_path.display(),
        p.state_names().len(),
        p.control_names().len(),
        file.settings.mesh_intervals,
        file.settings.transcription.label()
    );
    let posed = file.problem.clone();
    let solution = match solve(file.problem, &file.settings, &file.guess) {
        Ok(s) => s,
        Err(OptimizeError::NotSolved {
            status,
            iterations,
            iterate,
        }) => {
            let path = out.join("unsolved_iterate.sto");
            iterate.write_sto(&path)?;
            anyhow::bail!(
                "IPOPT did not solve the problem: {status} after {iterations} iterations \
                 (last iterate, not a solution: {})",
                path.display()
            );
        }
        Err(e) => return Err(e.into()),
    };
    solution.write_sto(&out.join("solution.sto"))?;
    solution.write_csv(&out.join("solution.csv"))?;
    write_plots(&solution, out)?;
    write_motion_replay(&posed, &solution, out)?;
    let summary = serde_json::to_string_pretty(&Summary::of(&solution))?;
    std::fs::write(out.join("summary.json"), summary + "\n")?;
    out!(
        "{}: objective {} (final time {} s) after {} iterations in {:.3} s",
        solution.status,
        solution.objective,
        solution.final_time(),
        solution.iterations,
        solution.solver_duration
    );
    out!(
        "wrote {}/solution.sto (Moco's MocoTrajectory), solution.csv, states.svg, controls.svg, \
         replay.html (the optimal motion in 3D), summary.json",
        out.display()
    );
    Ok(())
}

#[derive(serde::Serialize)]
struct Summary<'a> {
    status: &'a str,
    success: bool,
    objective: f64,
    goals: &'a [(String, f64)],
    final_time: f64,
    iterations: usize,
    solver_duration_s: f64,
}

impl<'a> Summary<'a> {
    fn of(s: &'a Trajectory) -> Self {
        Self {
            status: &s.status,
            success: s.success,
            objective: s.objective,
            goals: &s.goal_values,
            final_time: s.final_time(),
            iterations: s.iterations,
            solver_duration_s: s.solver_duration,
        }
    }
}

/// The optimal motion as the 3D replay of a run: each grid point's state realized and
/// recorded as a report.
fn write_motion_replay(problem: &Problem, s: &Trajectory, out: &Path) -> Result<()> {
    let model = problem.model();
    let mut data = Data::new(model);
    let mut rec = Recorder::new(model);
    let tau = vec![0.0; model.nu()];
    for (i, &t) in s.time.iter().enumerate() {
        let state = problem.state_at(t, &s.states[i], &s.controls[i])?;
        forward_dynamics(model, &state, &mut data, &tau)?;
        rec.record(model, &state, &data)?;
    }
    crate::replay::write_replay(out, model, &[], &rec, "optimal motion")
}

fn write_plots(s: &Trajectory, out: &Path) -> Result<()> {
    let series = |names: &[String]| -> Vec<(String, Vec<(f64, f64)>)> {
        names
            .iter()
            .map(|n| {
                let column = s.column(n).unwrap_or_default();
                (n.clone(), s.time.iter().copied().zip(column).collect())
            })
            .collect()
    };
    for (file, title, y_label, names) in [
        (
            "states.svg",
            "Optimal states",
            "state (m, rad, m/s, rad/s)",
            &s.state_names,
        ),
        (
            "controls.svg",
            "Optimal controls",
            "control",
            &s.control_names,
        ),
    ] {
        let data = series(names);
        let borrowed: Vec<(&str, Vec<(f64, f64)>)> =
            data.iter().map(|(n, p)| (n.as_str(), p.clone())).collect();
        line_plot(&out.join(file), title, "time (s)", y_label, &borrowed)?;
    }
    Ok(())
}
