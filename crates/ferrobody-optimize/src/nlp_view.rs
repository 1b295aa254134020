//! A read-only view of a transcribed problem, to check its derivatives from outside.

use crate::error::Result;
use crate::grid::Transcription;
use crate::guess::{initial_point, Guess};
use crate::nlp::Transcribed;
use crate::problem::Problem;

/// The NLP of a problem: its size, starting point, bounds, constraints and their sparse
/// Jacobian, objective and gradient.
pub struct NlpView {
    nlp: Transcribed,
}

impl NlpView {
    /// Transcribes `problem` on `intervals` mesh intervals (grid points evaluated on one
    /// thread).
    pub fn new(problem: Problem, transcription: Transcription, intervals: usize) -> Result<Self> {
        Self::with_threads(problem, transcription, intervals, 1)
    }

    /// [`Self::new`] with the grid points evaluated on `threads` threads.
    pub fn with_threads(
        problem: Problem,
        transcription: Transcription,
        intervals: usize,
        threads: usize,
    ) -> Result<Self> {
        Ok(Self {
            nlp: Transcribed::new(problem, transcription, intervals, threads)?,
        })
    }

    /// Number of variables.
    pub fn n_variables(&self) -> usize {
        self.nlp.layout.n_variables()
    }

    /// Number of constraints.
    pub fn n_constraints(&self) -> usize {
        self.nlp.layout.n_constraints()
    }

    /// The starting point a guess gives.
    pub fn initial_point(&self, guess: &Guess) -> Result<Vec<f64>> {
        initial_point(&self.nlp, guess)
    }

    /// Lower and upper bounds of the variables.
    pub fn bounds(&self) -> (Vec<f64>, Vec<f64>) {
        let n = self.n_variables();
        let (mut lo, mut hi) = (vec![0.0; n], vec![0.0; n]);
        self.nlp.bounds(&mut lo, &mut hi);
        (lo, hi)
    }

    /// g(x).
    pub fn constraints(&self, x: &[f64]) -> Result<Vec<f64>> {
        let mut g = vec![0.0; self.n_constraints()];
        self.nlp.constraints(x, &mut g)?;
        Ok(g)
    }

    /// ∂g/∂x at x as (row, column, value) triplets, in the solver's order.
    pub fn jacobian(&self, x: &[f64]) -> Result<Vec<(usize, usize, f64)>> {
        let n = self.nlp.jacobian_nonzeros();
        let (mut rows, mut cols, mut values) = (vec![0; n], vec![0; n], vec![0.0; n]);
        self.nlp.jacobian_pattern(&mut rows, &mut cols);
        self.nlp.jacobian_values(x, &mut values)?;
        Ok(rows
            .into_iter()
            .zip(cols)
            .zip(values)
            .map(|((r, c), v)| (r as usize, c as usize, v))
            .collect())
    }

    /// The objective at x.
    pub fn objective(&self, x: &[f64]) -> f64 {
        self.nlp.objective(x)
    }

    /// Each goal's value at x, labelled as in a solution's header.
    pub fn goal_values(&self, x: &[f64]) -> Vec<(&'static str, f64)> {
        self.nlp.goal_values(x)
    }

    /// The objective's gradient at x.
    pub fn objective_gradient(&self, x: &[f64]) -> Vec<f64> {
        let mut g = vec![0.0; self.n_variables()];
        self.nlp.objective_gradient(x, &mut g);
        g
    }
}
