//! `ferrobody`: run, benchmark and check scene files (see `shared/spec/cli-contract.md`).
//!
//! A thin shell over the library: parse arguments, load the scene, run it, write files. Every
//! failure ends with one `error: ...` line on stderr and a non-zero exit status; usage errors
//! are clap's whole message (what was expected, "did you mean" hints, the usage line), exit
//! status 2, and a bare `ferrobody` prints the help.

/// `println!` that ends the program quietly when stdout is a closed pipe
/// (`ferrobody run … | head -1`) instead of panicking; other write errors are ignored, as
/// `println!` would have panicked on them too and the files written are what counts.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        if let Err(e) = writeln!(stdout, $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    }};
}

mod bench;
mod check;
mod curves;
mod curves_args;
mod curves_models;
mod demo;
mod interrupt;
mod model_file;
mod optimize;
mod plots;
mod recorder;
mod replay;
mod replay_primitive;
mod replay_shapes;
mod run;
mod run_outputs;
mod start_checks;

use clap::{CommandFactory, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "ferrobody",
    version,
    arg_required_else_help = true,
    about = "Multibody dynamics with Simbody's contact models"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the built-in demonstration scene and explain what was written.
    Demo {
        /// Output folder.
        #[arg(long, default_value = "ferrobody-demo")]
        out: PathBuf,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Simulate a scene file or an OpenSim model (.osim) and write trajectory.csv and
    /// summary.json (and states.sto for .osim models).
    Run {
        /// The scene file (TOML), OpenSim model (.osim) or URDF robot (.urdf).
        scene: PathBuf,
        /// Output folder (default: a folder named after the scene in the working directory,
        /// the name made one safe path component).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Simulated duration in seconds (overrides the scene).
        #[arg(long)]
        duration: Option<f64>,
        /// Integrator accuracy (overrides the scene).
        #[arg(long)]
        accuracy: Option<f64>,
        /// Interval between report rows in seconds (overrides the scene).
        #[arg(long)]
        report_interval: Option<f64>,
        #[arg(long, help = integrator_help())]
        integrator: Option<String>,
        /// For .osim and .urdf models: fail if any element of the model is not simulated.
        #[arg(long)]
        strict: bool,
        /// For .urdf robots: a floating base (a Free joint between Ground and the root link).
        #[arg(long)]
        floating_base: bool,
        #[command(flatten)]
        actuators: model_file::ActuatorArgs,
        /// For .osim models: a controls file (.sto/.mot: time, then one column per muscle or
        /// actuator), interpolated linearly as OpenSim's forward tool does.
        #[arg(long)]
        controls: Option<PathBuf>,
        /// For .osim models: an ExternalLoads file (OpenSim's forward tool's external loads:
        /// ExternalForces whose data file sits beside it), added to the model's forces.
        #[arg(long)]
        external_loads: Option<PathBuf>,
        /// Stop after this many integration steps (overrides the scene's max_steps).
        #[arg(long)]
        max_steps: Option<u64>,
        /// Stop after this many seconds of wall time; the rows so far are kept.
        #[arg(long)]
        max_wall_time: Option<f64>,
        /// Also write SVG plots: heights, speeds, energy, contact forces.
        #[arg(long)]
        plot: bool,
        /// Also write a 3D replay: replay.glb and a self-contained replay.html.
        #[arg(long)]
        replay: bool,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Time the stepping of a scene or .osim model over several runs; prints one JSON line.
    Bench {
        /// The scene file (TOML), OpenSim model (.osim) or URDF robot (.urdf).
        scene: PathBuf,
        /// Number of runs.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Simulated duration in seconds (overrides the scene).
        #[arg(long)]
        duration: Option<f64>,
        /// Integrator accuracy (overrides the scene).
        #[arg(long)]
        accuracy: Option<f64>,
        #[arg(long, help = integrator_help())]
        integrator: Option<String>,
        /// For .urdf robots: a floating base (a Free joint between Ground and the root link).
        #[arg(long)]
        floating_base: bool,
    },
    /// Tabulate and plot a contact model's force law (CSV tables and SVG figures).
    #[command(allow_negative_numbers = true)]
    Curves {
        /// The model: smooth-sphere-half-space, hunt-crossley or exponential-spring.
        model: String,
        #[command(flatten)]
        params: curves::SmoothCurveArgs,
        /// Output folder (default: curves-MODEL in the working directory).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Solve an optimal-control problem (a TOML problem file, docs/optimal-control.md) with
    /// IPOPT and write solution.sto (Moco's layout), solution.csv and plots.
    Optimize {
        /// The problem file (TOML).
        problem: PathBuf,
        /// Output folder (default: a folder named after the problem in the working directory).
        #[arg(long)]
        out: Option<PathBuf>,
        /// No iteration progress on stderr.
        #[arg(long)]
        quiet: bool,
    },
    /// Load and validate a scene or .osim model and print what it contains.
    Check {
        /// The scene file (TOML), OpenSim model (.osim) or URDF robot (.urdf).
        scene: PathBuf,
        /// For .urdf robots: a floating base (a Free joint between Ground and the root link).
        #[arg(long)]
        floating_base: bool,
        #[command(flatten)]
        actuators: model_file::ActuatorArgs,
    },
}

/// Runs the command on a thread of rayon's pool, so that the parallel muscle evaluation of a
/// simulation (`Simulation::set_parallel_forces`) hands work over within the pool (from the
/// main thread each hand-over would wake the pool and cost more than it saves).
fn on_a_pool_thread<R: Send>(command: impl FnOnce() -> R + Send) -> R {
    rayon::scope(|_| command())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout as clap writes them; so does the help that a bare
        // `ferrobody` asks for.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            out!("{}", Cli::command().render_help());
            return ExitCode::SUCCESS;
        }
        // Usage errors as clap writes them: the problem, what was expected (`<SCENE>`), "did
        // you mean" hints, the usage line.
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    interrupt::install();
    let result = on_a_pool_thread(move || match cli.command {
        Command::Demo { out, quiet } => demo::demo(&out, quiet),
        Command::Run {
            scene,
            out,
            duration,
            accuracy,
            report_interval,
            integrator,
            strict,
            floating_base,
            actuators,
            controls,
            external_loads,
            max_steps,
            max_wall_time,
            plot,
            replay,
            quiet,
        } => run::run_command(
            &scene,
            out,
            run::Overrides {
                duration,
                accuracy,
                report_interval,
                integrator,
                strict,
                max_steps,
                floating_base,
                actuators: actuators.choice(),
                controls,
                external_loads,
            },
            run::Extras {
                plot,
                replay,
                quiet,
                max_wall_time,
            },
        ),
        Command::Bench {
            scene,
            runs,
            duration,
            accuracy,
            integrator,
            floating_base,
        } => bench::bench(
            &scene,
            runs,
            &run::Overrides {
                duration,
                accuracy,
                integrator,
                floating_base,
                ..Default::default()
            },
        ),
        Command::Check {
            scene,
            floating_base,
            actuators,
        } => check::check(&scene, floating_base, actuators.choice()),
        Command::Optimize {
            problem,
            out,
            quiet,
        } => optimize::optimize(&problem, out, quiet),
        Command::Curves { model, params, out } => {
            let out = out.unwrap_or_else(|| run::default_out_dir(&format!("curves-{model}")));
            curves::curves(&model, &params, &out)
        }
    });

    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let msg = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// `--integrator`'s help: the names as the library spells them (`IntegratorKind::NAMES`).
fn integrator_help() -> String {
    let (controlled, fixed): (Vec<_>, Vec<_>) = ferrobody::IntegratorKind::ALL
        .into_iter()
        .partition(|k| k.is_error_controlled());
    let names = |kinds: Vec<ferrobody::IntegratorKind>| -> String {
        kinds
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "Integration method: {} (error-controlled), {} (fixed step)",
        names(controlled),
        names(fixed)
    )
}
