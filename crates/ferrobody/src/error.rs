//! The library's error type: every failure says what went wrong and where.

use thiserror::Error;

/// Errors from building a model, loading a scene or simulating.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum Error {
    /// The model description is invalid (names the body or element and the problem).
    #[error("model: {0}")]
    Model(String),
    /// A scene file could not be read or is invalid.
    #[error("{file}: {message}")]
    Scene {
        /// The scene file (path as given).
        file: String,
        /// Where in the file and what is wrong.
        message: String,
    },
    /// The simulation could not continue.
    #[error("simulation failed at t = {t}: {message}")]
    Simulation {
        /// Time of the last good state (s).
        t: f64,
        /// What happened.
        message: String,
    },
    /// An input or output operation failed.
    #[error("{0}")]
    Io(String),
}

/// Result with the library's [`Error`](enum@Error).
pub type Result<T, E = Error> = std::result::Result<T, E>;
