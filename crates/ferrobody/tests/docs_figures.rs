//! The step counts the docs quote are the ones the code takes (issue 23 finding 10: the
//! docs had stale block and s1 step counts). Counts are deterministic, unlike times, so they
//! are checked here; times are re-measured with the commands the docs give.

use ferrobody::io::load_scene;
use ferrobody::Simulation;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// (accepted, rejected, force evaluations) of `ferrobody bench SCENE` (one run to the end).
fn bench_counts(scene: &str) -> (u64, u64, u64) {
    let sc = load_scene(&root().join(scene)).unwrap();
    let mut sim = Simulation::new(&sc.model, sc.initial_state.clone(), sc.integrator).unwrap();
    sim.advance_to(sc.duration).unwrap();
    let s = sim.stats();
    (s.steps_taken, s.error_test_failures, s.realizations)
}

fn number(text: &str) -> u64 {
    text.trim()
        .replace(' ', "")
        .parse()
        .unwrap_or_else(|_| panic!("a count: '{text}'"))
}

#[test]
fn the_block_table_in_performance_md_quotes_the_steps_taken() {
    let doc = std::fs::read_to_string(root().join("docs/performance.md")).unwrap();
    let mut rows = 0;
    for line in doc
        .lines()
        .filter(|l| l.starts_with("| `examples/scenes/block_"))
    {
        // | `SCENE` | contact | ACCEPTED (REJECTED) | EVALUATIONS | time |
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let scene = cells[1].trim_matches('`');
        let (accepted, rejected) = cells[3].split_once('(').expect("accepted (rejected)");
        let quoted = (
            number(accepted),
            number(rejected.trim_end_matches(')')),
            number(cells[4]),
        );
        assert_eq!(bench_counts(scene), quoted, "{scene}: docs/performance.md");
        rows += 1;
    }
    assert_eq!(rows, 3, "the three block scenes");
}

#[test]
fn s1_step_counts_in_validation_md_and_the_mujoco_readme_are_the_steps_taken() {
    let (accepted, rejected, _) = bench_counts("examples/scenes/s1_hc_ball.toml");
    let validation = std::fs::read_to_string(root().join("docs/validation.md")).unwrap();
    let row = validation
        .lines()
        .find(|l| l.starts_with("| s1_hc_ball"))
        .expect("the s1 row");
    assert!(
        row.contains(&format!("{accepted} ({rejected} rejected)")),
        "docs/validation.md: {row}"
    );
    let mujoco = std::fs::read_to_string(root().join("bench/mujoco/README.md")).unwrap();
    assert!(
        mujoco.contains(&format!("s1: {accepted} accepted + {rejected} rejected")),
        "bench/mujoco/README.md quotes s1's steps"
    );
}
