//! The kinds an [`Error`](super::Error) carries: what is wrong with a model, where in a file,
//! which setting, why a simulation stopped.

use thiserror::Error;

/// What is wrong with a model: its bodies, forces, contacts, constraints or actuators.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// A body's inertia no rigid body has.
    #[error("body '{body}': {problem}")]
    Inertia {
        /// The body's name.
        body: String,
        /// What is wrong with it.
        problem: InertiaProblem,
    },
    /// A body's definition (name, parent, mass, frames, mobilizer) is invalid.
    #[error("body '{body}': {problem}")]
    Body {
        /// The body's name.
        body: String,
        /// What is wrong.
        problem: String,
    },
    /// A value that must be finite is not.
    #[error("{what}: must be finite, got {value}")]
    NonFinite {
        /// The element and quantity, e.g. `force 'f'.stiffness`.
        what: String,
        /// The value given.
        value: f64,
    },
    /// Two elements of one kind with the same name.
    #[error("{kind} '{name}': a {kind} of this name already exists")]
    Duplicate {
        /// The kind of element, e.g. `body`.
        kind: &'static str,
        /// The name used twice.
        name: String,
    },
    /// Any other invalid model, in words: the element and the problem.
    #[error("{0}")]
    Invalid(String),
}

impl From<String> for ModelError {
    fn from(message: String) -> Self {
        ModelError::Invalid(message)
    }
}

impl From<&str> for ModelError {
    fn from(message: &str) -> Self {
        ModelError::Invalid(message.to_string())
    }
}

/// How an inertia fails to be a rigid body's (principal moments in kg·m², ascending).
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[non_exhaustive]
pub enum InertiaProblem {
    /// An entry is NaN or infinite.
    #[error("inertia has a non-finite entry")]
    NonFinite,
    /// The matrix is not symmetric.
    #[error("inertia is not symmetric")]
    NotSymmetric,
    /// A principal moment is negative: no mass distribution has it (singular dynamics).
    #[error(
        "inertia is not positive semi-definite (principal moments {:.6e}, {:.6e}, {:.6e})",
        .moments[0], .moments[1], .moments[2]
    )]
    NotPositiveSemiDefinite {
        /// The principal moments.
        moments: [f64; 3],
    },
    /// One principal moment exceeds the sum of the other two (OpenSim warns and runs it).
    #[error(
        "principal moments {:.6e}, {:.6e}, {:.6e} violate the triangle inequality",
        .moments[0], .moments[1], .moments[2]
    )]
    TriangleInequality {
        /// The principal moments.
        moments: [f64; 3],
    },
}

/// A problem in a file, with where it is: file, line (and column), element path.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{}", self.describe())]
#[non_exhaustive]
pub struct ParseError {
    /// The file, as given.
    pub file: String,
    /// 1-based line, where known.
    pub line: Option<u32>,
    /// 1-based column, where known.
    pub column: Option<u32>,
    /// The element, e.g. `/forceset/soleus_r` or `joint 'elbow'`.
    pub element: Option<String>,
    /// What is wrong (a model problem keeps its kind).
    pub problem: ModelError,
}

impl ParseError {
    /// A problem in `file` with no place more precise than the file.
    pub fn in_file(file: impl Into<String>, problem: impl Into<ModelError>) -> Self {
        ParseError {
            file: file.into(),
            line: None,
            column: None,
            element: None,
            problem: problem.into(),
        }
    }

    /// The same error at `line`.
    pub fn at_line(mut self, line: impl TryInto<u32>) -> Self {
        self.line = line.try_into().ok();
        self
    }

    /// The same error at `column`.
    pub fn at_column(mut self, column: impl TryInto<u32>) -> Self {
        self.column = column.try_into().ok();
        self
    }

    /// The same error in `element`.
    pub fn in_element(mut self, element: impl Into<String>) -> Self {
        self.element = Some(element.into());
        self
    }

    fn describe(&self) -> String {
        let mut s = self.file.clone();
        if let Some(line) = self.line {
            s.push_str(&format!(":{line}"));
            if let Some(column) = self.column {
                s.push_str(&format!(":{column}"));
            }
        }
        if let Some(element) = &self.element {
            s.push_str(&format!(": {element}"));
        }
        s.push_str(&format!(": {}", self.problem));
        s
    }
}

/// An integrator or run setting out of its range.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{}{key} {problem}", if .section.is_empty() { String::new() } else { format!("{} ", .section) })]
#[non_exhaustive]
pub struct SettingsError {
    /// The group of settings (`integrator`, `rigid contact`), or empty.
    pub section: &'static str,
    /// The setting, e.g. `accuracy`.
    pub key: String,
    /// What is wrong, e.g. `must be at most 1 (a relative error), got 2`.
    pub problem: String,
}

impl SettingsError {
    /// `section key problem`.
    pub fn new(section: &'static str, key: impl Into<String>, problem: impl Into<String>) -> Self {
        SettingsError {
            section,
            key: key.into(),
            problem: problem.into(),
        }
    }
}

/// Why a simulation stopped.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SimulationFailure {
    /// The error-controlled step size fell below the floor while steps kept failing.
    #[error("step size fell below {min:e} s (h = {h:e}): the integrator cannot meet accuracy {accuracy:e}; likely causes: bodies starting in deep contact, a discontinuous force, or an accuracy too tight for f64")]
    StepSizeUnderflow {
        /// The last step size tried (s).
        h: f64,
        /// The floor (s).
        min: f64,
        /// The accuracy asked for.
        accuracy: f64,
    },
    /// The state became NaN or infinite.
    #[error("the state became non-finite (NaN or infinity)")]
    NonFiniteState,
    /// The initial state is not usable (non-finite values, a zero quaternion).
    #[error("initial state {0}")]
    InitialState(String),
    /// A step or wall-time limit stopped the run (or would have, at the run's pace).
    #[error("{0}")]
    Budget(String),
    /// The constraints cannot be met (assembly, projection).
    #[error("{0}")]
    Constraints(String),
    /// The run was asked for something it cannot do (e.g. to step backwards).
    #[error("{0}")]
    Request(String),
    /// The run was interrupted by its user (e.g. Ctrl-C); the rows written so far are kept.
    #[error("interrupted ({how}); the rows so far are kept")]
    Interrupted {
        /// How, e.g. `Ctrl-C`.
        how: String,
    },
    /// Another error met while evaluating the model.
    #[error(transparent)]
    Cause(Box<super::Error>),
}
