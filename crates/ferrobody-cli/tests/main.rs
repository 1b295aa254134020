//! The command line's integration tests, gathered in one test binary (each file is a module;
//! `cargo test -p ferrobody-cli --test main MODULE` runs one file's tests).
#![allow(missing_docs)]

mod common;
#[path = "../../ferrobody/tests/support/mutate.rs"]
mod mutate;

mod cli;
mod cli_budgets;
mod cli_check;
mod cli_curves;
mod cli_hangs;
mod cli_interrupt;
mod cli_mutations;
mod cli_optimize;
mod cli_osim;
mod cli_replay;
mod cli_robot_scene;
mod cli_safety;
mod cli_scale;
mod cli_usage;
