//! The library's integration tests, gathered in one test binary so that the library is linked
//! once for all of them (each file is a module; `cargo test -p ferrobody --test main MODULE`
//! runs one file's tests).
#![allow(missing_docs)]

mod common;
#[path = "support/covered_trees.rs"]
mod covered_trees;
#[path = "../../../fuzz/src/lib.rs"]
mod fuzz_inputs;
#[path = "support/mutate.rs"]
mod mutate;

mod actuators;
mod algorithms_consistency;
mod analytical_derivatives;
mod analytical_derivatives_contact;
mod auto_update;
mod closed_form;
mod conservation;
mod constraints_consistency;
mod constraints_coordinates;
mod constraints_dynamics;
mod constraints_sphere_on_sphere;
mod contact_brick;
mod contact_elastic_foundation;
mod contact_ellipsoid;
mod contact_exponential_spring;
mod contact_exponential_spring_matrix;
mod contact_hunt_crossley;
mod contact_mesh_mesh;
mod contact_scenes;
mod contact_sets;
mod contact_smooth_sphere_halfspace;
mod derivatives;
mod docs_figures;
mod dual_numbers;
mod dual_numbers_constrained;
mod error_kinds;
mod force_enable;
mod force_parameters;
mod fuzz_scenes;
mod huge_and_nan_inputs;
mod integrators_family;
mod mesh_files;
mod opensim_bushings;
mod opensim_controllers;
mod opensim_controls;
mod opensim_errors;
mod opensim_expression_path_forces;
mod opensim_gcv_spline;
mod opensim_lepton;
mod opensim_models;
mod opensim_models_all;
mod opensim_muscles;
mod opensim_schutte;
mod opensim_upgrade;
mod parser_mutations;
mod planar_subtrees;
mod rollouts;
mod scenes_all;
mod scenes_core;
mod shared_model;
mod unilateral_bounce;
mod unilateral_interface;
mod unilateral_scenes;
mod urdf_errors;
mod urdf_robots;
mod urdf_scenes;
mod wrap_drawing;
