//! The errors of posing and solving a problem: one line each, naming what is wrong.

use std::path::PathBuf;

/// What can go wrong posing or solving an optimal-control problem.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OptimizeError {
    /// A state or control name that is not in the model.
    #[error("'{name}' is not a state or control of the model (it has: {known})")]
    UnknownName {
        /// The name given.
        name: String,
        /// The names the model has.
        known: String,
    },
    /// Bounds that no value satisfies.
    #[error("infeasible bounds: {0}")]
    InfeasibleBounds(String),
    /// A goal's parameters.
    #[error("invalid goal: {0}")]
    InvalidGoal(String),
    /// A model the transcription does not cover.
    #[error("unsupported model: {0}")]
    UnsupportedModel(String),
    /// The model failed to evaluate.
    #[error(transparent)]
    Model(#[from] ferrobody::Error),
    /// A problem file or a guess table, with its place.
    #[error("{file}{}: {message}", line_suffix(*.line))]
    File {
        /// The file.
        file: String,
        /// The line (1-based; 0 when the whole file is meant).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Reading or writing a file (the message names the file; the system's reason is the
    /// source, which `{:#}` with anyhow or [`OptimizeError::message`] appends).
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// IPOPT could not be set up (an option it refused, a malformed problem).
    #[error("IPOPT: {0}")]
    Solver(String),
    /// IPOPT ended without a solution: its status, with the last iterate.
    #[error("IPOPT did not solve the problem: {status} after {iterations} iterations")]
    NotSolved {
        /// IPOPT's return status.
        status: String,
        /// Iterations taken.
        iterations: usize,
        /// The last iterate (not a solution).
        iterate: Box<crate::Trajectory>,
    },
}

impl OptimizeError {
    /// The whole message on one line: the error and each of its sources, `: `-separated.
    pub fn message(&self) -> String {
        ferrobody::error::message_chain(self)
    }
}

/// `:LINE`, or nothing for line 0 (the whole file).
fn line_suffix(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(":{line}")
    }
}

/// `Result` with [`OptimizeError`].
pub type Result<T> = std::result::Result<T, OptimizeError>;
