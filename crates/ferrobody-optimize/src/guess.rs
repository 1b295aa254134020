//! The initial guess: Moco's default from the bounds (`MocoProblem::createGuess("bounds")`), or
//! a table (a Moco .sto, a CSV) interpolated onto the grid.
//!
//! From bounds, every variable takes the midpoint of its bounds (the finite end if only one
//! is finite, 0 if neither), the first and last grid points their initial and final bounds,
//! and the grid runs from t₀ to the midpoint of the final-time bounds. From a table, each
//! column names a state or control (unknown names are an error), values are interpolated
//! linearly at the grid's times, a free final time starts at the table's last time, and
//! variables the table lacks come from the bounds.

use crate::error::{OptimizeError, Result};
use crate::nlp::Transcribed;
use crate::problem::{Bounds, FinalTime, Variable};
use crate::trajectory::Table;

/// Where the initial guess comes from.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub enum Guess {
    /// Moco's default guess from the bounds.
    #[default]
    Bounds,
    /// A table of states and controls over time.
    Table(Table),
}

/// The NLP's starting point.
pub(crate) fn initial_point(nlp: &Transcribed, guess: &Guess) -> Result<Vec<f64>> {
    let l = nlp.layout;
    let p = &nlp.problem;
    let mut x = vec![0.0; l.n_variables()];
    if let FinalTime::Free(b) = p.final_time {
        x[0] = match guess {
            Guess::Table(t) => t.time[t.time.len() - 1].clamp(b.lower, b.upper),
            Guess::Bounds => b.guess(),
        };
    }
    let last = l.points() - 1;
    for point in 0..l.points() {
        for (j, sb) in p.state_bounds.iter().enumerate() {
            let end: Option<Bounds> = match point {
                0 => sb.initial,
                q if q == last => sb.final_,
                _ => None,
            };
            x[l.y(point) + j] = end.unwrap_or(sb.path).guess();
        }
        for (k, b) in p.control_bounds.iter().enumerate() {
            x[l.c(point) + k] = b.guess();
        }
    }
    if let Guess::Table(table) = guess {
        let mut columns = Vec::new();
        for (col, label) in table.labels.iter().enumerate() {
            let index = match p.variable(label) {
                Ok(Variable::State(i)) => l.y(0) + i,
                Ok(Variable::Control(k)) => l.c(0) + k,
                Err(e) => {
                    return Err(OptimizeError::File {
                        file: "guess".into(),
                        line: 0,
                        message: e.message(),
                    })
                }
            };
            columns.push((col, index - l.y(0)));
        }
        for point in 0..l.points() {
            let t = nlp.time(&x, point);
            for &(col, offset) in &columns {
                x[l.y(point) + offset] = table.interpolate(col, t);
            }
        }
    }
    Ok(x)
}
