//! The path constraints' rows of the transcribed problem: their values, bounds and Jacobian
//! entries at each mesh point, after the defects and the endpoint constraints
//! ([`crate::path_constraints`] has the constraints' equations).

use crate::error::Result;
use crate::nlp::{Transcribed, INFINITE};
use crate::path_constraints::{PathConstraint, RowValue};

impl Transcribed {
    /// Lower and upper bounds of every constraint row: 0 for the defects and endpoint rows,
    /// each path constraint's own bounds for its rows.
    pub fn constraint_bounds(&self, lower: &mut [f64], upper: &mut [f64]) {
        let l = self.layout;
        let start = l.path_row_start();
        lower[..start].fill(0.0);
        upper[..start].fill(0.0);
        let per_point: Vec<(f64, f64)> = self
            .problem
            .path_constraints
            .iter()
            .flat_map(PathConstraint::bounds)
            .collect();
        let mut row = start;
        for _ in l.mesh_points() {
            for &(lo, hi) in &per_point {
                lower[row] = lo.max(-INFINITE);
                upper[row] = hi.min(INFINITE);
                row += 1;
            }
        }
    }

    /// The path constraints' values at x, into their rows of g.
    pub(crate) fn path_values(&self, x: &[f64], g: &mut [f64]) -> Result<()> {
        let mut row = self.layout.path_row_start();
        self.for_each_path_row(x, true, &mut |_, _, value| {
            g[row] = value.map_or(0.0, |v| v.value);
            row += 1;
        })
    }

    /// The path rows' Jacobian entries (row, column, value), in a fixed order; values are 0
    /// unless `with_values`.
    pub(crate) fn path_entries(
        &self,
        x: &[f64],
        with_values: bool,
        emit: &mut impl FnMut(usize, usize, f64),
    ) -> Result<()> {
        let l = self.layout;
        let nq = self.problem.model.nq();
        let mut row = l.path_row_start();
        self.for_each_path_row(x, with_values, &mut |point, column, value| {
            match column {
                RowColumns::Control(k) => {
                    if l.free_time {
                        let d_tf = value.map_or(0.0, |v| v.d_time * l.fraction(point));
                        emit(row, 0, d_tf);
                    }
                    emit(
                        row,
                        l.c(point) + k,
                        value.map_or(0.0, |v| v.control.map_or(0.0, |c| c.1)),
                    );
                }
                RowColumns::Coordinates => {
                    for k in 0..nq {
                        emit(row, l.y(point) + k, value.map_or(0.0, |v| v.d_q[k]));
                    }
                }
            }
            row += 1;
        })
    }

    /// Calls `visit(point, columns, value)` for every path row in order; the rows are
    /// evaluated at x when `evaluate`.
    fn for_each_path_row(
        &self,
        x: &[f64],
        evaluate: bool,
        visit: &mut dyn FnMut(usize, RowColumns, Option<&RowValue>),
    ) -> Result<()> {
        let mut workspace = self.path.borrow_mut();
        let Some((evaluator, buffer)) = workspace.as_mut() else {
            return Ok(());
        };
        let l = self.layout;
        let nq = self.problem.model.nq();
        for point in l.mesh_points() {
            for constraint in &self.problem.path_constraints {
                buffer.clear();
                if evaluate {
                    let t = self.time(x, point);
                    let q = &x[l.y(point)..l.y(point) + nq];
                    let c = &x[l.c(point)..l.c(point) + l.nc];
                    evaluator.evaluate(constraint, t, q, c, buffer)?;
                }
                for j in 0..constraint.rows() {
                    let columns = match constraint {
                        PathConstraint::ControlBound(b) => {
                            RowColumns::Control(b.controls[j / b.rows_per_control()])
                        }
                        PathConstraint::FrameDistance(_) => RowColumns::Coordinates,
                    };
                    visit(point, columns, buffer.get(j));
                }
            }
        }
        Ok(())
    }
}

/// The columns a path row depends on.
#[derive(Clone, Copy)]
enum RowColumns {
    /// One control (and t_f when it is free).
    Control(usize),
    /// The point's coordinates.
    Coordinates,
}
