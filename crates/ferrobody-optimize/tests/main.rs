//! Tests of ferrobody-optimize, one module per file.

mod moco_problems;
