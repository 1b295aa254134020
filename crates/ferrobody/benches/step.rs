//! One Runge–Kutta–Merson step of the p1 double pendulum (accepted at its first try at the
//! scene's accuracy after warm-up). Run: `cargo bench -p ferrobody --bench step`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ferrobody::io::parse_scene;
use ferrobody::Simulation;

fn bench_step(c: &mut Criterion) {
    let scene = parse_scene(
        include_str!("../../../examples/scenes/p1_double_pendulum.toml"),
        "p1",
        "p1",
    )
    .unwrap();
    // Warm up 500 steps (MuJoCo's habit) so the step size is the settled one, then time single
    // steps from that saved simulation.
    let mut warm =
        Simulation::new(&scene.model, scene.initial_state.clone(), scene.integrator).unwrap();
    for _ in 0..500 {
        warm.step(f64::INFINITY).unwrap();
    }
    let state = warm.state().clone();
    let mut settings = scene.integrator;
    settings.initial_step = Some(warm.next_step_size());
    c.bench_function("rk_merson_step_p1", |b| {
        b.iter_batched_ref(
            || Simulation::new(&scene.model, state.clone(), settings).unwrap(),
            |sim| sim.step(f64::INFINITY).unwrap(),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench_step);
criterion_main!(benches);
