//! The library's error type: every failure says what went wrong and where, as a kind a
//! program can match on ([`Error`](enum@Error)'s variants and the kinds they carry) and as one line a
//! person reads ([`Error::message`]).
//!
//! Display shows one level; a wrapped cause (the system's `std::io::Error`, the error a
//! simulation step met) is the [`source`](std::error::Error::source), so chain printers
//! (`anyhow`'s `{:#}`, [`Error::message`]) print each part once.

mod kinds;

pub use kinds::{InertiaProblem, ModelError, ParseError, SettingsError, SimulationFailure};

use std::path::PathBuf;
use thiserror::Error;

/// Errors from building a model, loading a scene or simulating.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The model description is invalid (names the body or element and the problem).
    #[error("model: {0}")]
    Model(ModelError),
    /// A file (scene, .osim, URDF, mesh, controls) is malformed or describes an invalid
    /// model: file, line, element path and what is wrong.
    #[error(transparent)]
    Parse(ParseError),
    /// An integrator or run setting is out of range.
    #[error(transparent)]
    Settings(SettingsError),
    /// The simulation could not continue: the time of the last good state and why.
    #[error("simulation failed at t = {t}")]
    Simulation {
        /// Time of the last good state (s).
        t: f64,
        /// Why it stopped.
        #[source]
        failure: SimulationFailure,
    },
    /// A file could not be read or written: what was being done (naming the file), with the
    /// system's error as the source.
    #[error("{context}")]
    Io {
        /// What was being done, e.g. `scene.toml: cannot read the file`.
        context: String,
        /// The file, where one is involved.
        path: Option<PathBuf>,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// A result of a computation stage was read before the data was realized to that stage
    /// (or after the state changed): the stage needed and the stage realized (Simbody's
    /// stage names).
    #[error("data read at stage {needed} but realized only to {realized}: realize it first")]
    StageNotRealized {
        /// The stage the result belongs to.
        needed: &'static str,
        /// The stage the data has reached.
        realized: &'static str,
    },
    /// The worker threads of a parallel run could not be started.
    #[cfg(feature = "parallel")]
    #[error("cannot start {threads} threads")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The thread pool's error.
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
}

// By hand, not `#[from]`: thiserror would also make the kind the source, and chain printers
// would print it twice (its text is already in the display).
impl From<ModelError> for Error {
    fn from(e: ModelError) -> Self {
        Error::Model(e)
    }
}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(e)
    }
}

impl From<SettingsError> for Error {
    fn from(e: SettingsError) -> Self {
        Error::Settings(e)
    }
}

/// Result with the library's [`Error`](enum@Error).
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The whole message on one line: the error and each of its sources, `: `-separated
    /// (what the command line prints after `error: ` and Python's exceptions carry).
    pub fn message(&self) -> String {
        message_chain(self)
    }

    /// An invalid model, described in words ([`ModelError::Invalid`]).
    pub fn model(message: impl Into<String>) -> Self {
        Error::Model(ModelError::Invalid(message.into()))
    }

    /// A simulation failure at time `t`.
    pub fn simulation(t: f64, failure: SimulationFailure) -> Self {
        Error::Simulation { t, failure }
    }

    /// The error `self` met while simulating at `t`: a simulation failure stays as it is
    /// (never "simulation failed at t: simulation failed at t: …"); anything else becomes the
    /// failure's cause.
    pub fn at_time(self, t: f64) -> Self {
        match self {
            e @ Error::Simulation { .. } => e,
            e => Error::simulation(t, SimulationFailure::Cause(Box::new(e))),
        }
    }

    /// Reading or writing `path` failed: `{path}: {doing}`, the system's error as the source.
    pub fn io(path: &std::path::Path, doing: &str, source: std::io::Error) -> Self {
        Error::Io {
            context: format!("{}: {doing}", path.display()),
            path: Some(path.to_path_buf()),
            source,
        }
    }

    /// The model problem this error describes: a [`ModelError`] as it is, any other error as
    /// [`ModelError::Invalid`] with its whole message (for importers that place a builder's
    /// error at an element of their file).
    pub fn into_model_error(self) -> ModelError {
        match self {
            Error::Model(m) => m,
            other => ModelError::Invalid(other.message()),
        }
    }

    /// Whether this is a missing file (Python raises `FileNotFoundError` for it).
    pub fn is_not_found(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// Any error and each of its sources on one line, `: `-separated (newlines become spaces):
/// what [`Error::message`] and the other crates' error types print.
pub fn message_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text.replace('\n', " ")
}

/// `ModelError::Invalid(format!(…))`: an invalid model described in words.
macro_rules! invalid {
    ($($arg:tt)*) => {
        $crate::error::ModelError::Invalid(format!($($arg)*))
    };
}
pub(crate) use invalid;
