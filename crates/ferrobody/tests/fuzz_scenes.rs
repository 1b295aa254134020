//! Property test: 20 000 mutated scene files fed to the loader and, when they load (about one in
//! seven, so thousands), to
//! the simulator (a bounded number of steps). Nothing may panic or hang: every outcome is a
//! model or a clear error.

use ferrobody::io::{parse_scene, TrajectoryWriter};
use ferrobody::Simulation;
use proptest::prelude::*;

const SEEDS: [&str; 4] = [
    include_str!("../../../examples/scenes/p1_double_pendulum.toml"),
    include_str!("../../../examples/scenes/s1_hc_ball.toml"),
    include_str!("../../../examples/scenes/p2_free_tumble.toml"),
    r#"
gravity = [0.0, -9.81, 0.0]
[simulation]
duration = 0.05
report_interval = 0.01
[integrator]
method = "rk4"
fixed_step = 0.001
[[body]]
name = "a"
mobilizer = "gimbal"
mass = 1.0
com = [0.1, 0.2, 0.0]
inertia = [1.0, 1.0, 1.5, 0.1, 0.0, 0.0]
inboard = { translation = [0.0, 1.0, 0.0], rotation = { axis = [1.0, 0.0, 0.0], angle_deg = 30.0 } }
[[body]]
name = "b"
parent = "a"
mobilizer = "ball"
mass = 2.0
inertia = [0.5, 0.5, 0.5]
outboard = { translation = [0.0, 0.3, 0.0] }
[[force]]
type = "two_point_linear_spring"
body1 = "ground"
body2 = "b"
station2 = [0.1, 0.0, 0.0]
stiffness = 100.0
rest_length = 0.5
[[force]]
type = "mobility_linear_damper"
body = "a"
speed = 2
damping = 0.5
"#,
];

/// Replacement tokens that probe numeric and structural edge cases.
const TOKENS: [&str; 16] = [
    "nan",
    "inf",
    "-inf",
    "0",
    "-1.0",
    "1e308",
    "1e-308",
    "\"pin\"",
    "\"free\"",
    "[",
    "]",
    "=",
    "\n",
    "[[body]]",
    "\"ground\"",
    "[1.0, 2.0]",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, usize),
    ReplaceNumber(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..20).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(a, t)| Mutation::Insert(a, t)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(a, t)| Mutation::ReplaceNumber(a, t)),
    ]
}

fn char_boundary(s: &str, at: usize) -> usize {
    let mut i = at % (s.len() + 1);
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut s = text.to_string();
    match *m {
        Mutation::Delete(a, n) => {
            let start = char_boundary(&s, a);
            let end = char_boundary(&s, (start + n).min(s.len()));
            s.replace_range(start..end.max(start), "");
        }
        Mutation::Insert(a, t) => {
            let at = char_boundary(&s, a);
            s.insert_str(at, TOKENS[t]);
        }
        Mutation::ReplaceNumber(a, t) => {
            let numbers: Vec<(usize, usize)> = number_spans(&s);
            if !numbers.is_empty() {
                let (b, e) = numbers[a % numbers.len()];
                s.replace_range(b..e, TOKENS[t]);
            }
        }
    }
    s
}

fn number_spans(s: &str) -> Vec<(usize, usize)> {
    let bytes = s.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'-')
            {
                i += 1;
            }
            spans.push((start, i));
        }
        i += 1;
    }
    spans
}

/// Loads, and if the scene is valid, simulates at most 200 steps and writes the rows.
fn exercise(text: &str) {
    let Ok(scene) = parse_scene(text, "fuzz.toml", "fuzz") else {
        return;
    };
    let Ok(mut sim) = Simulation::new(&scene.model, scene.initial_state.clone(), scene.integrator)
    else {
        return;
    };
    let mut out = Vec::new();
    let mut writer = TrajectoryWriter::new(&mut out, &scene.model).unwrap();
    let t_end = scene.duration.min(0.05);
    for _ in 0..200 {
        if sim.state().t >= t_end || sim.step(t_end).is_err() {
            break;
        }
    }
    if let Ok(data) = sim.data() {
        let data = data.clone();
        writer.write_row(&scene.model, sim.state(), &data).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_scenes_never_panic(seed in 0..SEEDS.len(), mutations in prop::collection::vec(mutation(), 1..4)) {
        let mut text = SEEDS[seed].to_string();
        for m in &mutations {
            text = apply(&text, m);
        }
        exercise(&text);
    }
}
