//! Tests of ferrobody-optimize, one module per file.

mod gait_tracking;
mod goals_closed_form;
mod moco_problems;
mod nlp_derivatives;
mod path_constraints;
mod predictive_walking;
mod problem_errors;
mod reference_spline;
