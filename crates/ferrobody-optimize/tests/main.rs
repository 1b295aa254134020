//! Tests of ferrobody-optimize, one module per file.

mod moco_problems;
mod nlp_derivatives;
mod problem_errors;
