//! Auto-update discrete variables follow Simbody's sequence (notes §1.9): the value computed
//! while realizing the state at the start of a step is swapped in before the step's attempts,
//! so every stage of step n sees the value computed at the end of step n−1 (a one-step lag).

use ferrobody::prelude::*;
use ferrobody::AutoUpdateVarId;
use std::sync::{Arc, Mutex};

/// Records, at every force evaluation, the held value and the time it was last updated, and
/// requests the current time as the next value.
struct SampleAndHold {
    var: AutoUpdateVarId,
    seen: Mutex<Vec<(f64, f64, f64)>>,
}

impl ForceElement<f64> for SampleAndHold {
    fn name(&self) -> &str {
        "sample_and_hold"
    }
    fn calc_force(&self, ctx: &ForceContext<'_, f64>, out: &mut ForceAccumulator<'_, f64>) {
        let held = ctx.auto_update(self.var)[0];
        let updated_at = ctx.state.auto_update_time(self.var);
        self.seen
            .lock()
            .unwrap()
            .push((ctx.state.t, held, updated_at));
        out.set_auto_update(self.var, &[ctx.state.t]);
    }
}

#[test]
fn auto_update_values_lag_one_step() {
    let mut b = ModelBuilder::<f64>::new();
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity());
    b.add_body(BodyDef::new("mass", BodyId::GROUND, Mobilizer::Slider, mp))
        .unwrap();
    let var = b.add_auto_update_variable("held_time", &[-1.0]);
    let element = Arc::new(SampleAndHold {
        var,
        seen: Mutex::new(Vec::new()),
    });
    b.add_custom_force(element.clone());
    let model = b.build().unwrap();
    let settings = IntegratorSettings {
        initial_step: Some(0.1),
        ..IntegratorSettings::rk_merson(1e-3)
    };
    let mut sim = Simulation::new(&model, model.default_state(), settings).unwrap();
    // Initialization swaps the t = 0 value in (Simbody `Integrator::initialize`).
    assert_eq!(sim.state().auto_update(&model, var), &[0.0]);
    sim.step(10.0).unwrap();
    sim.step(10.0).unwrap();
    let seen = element.seen.lock().unwrap().clone();
    // Evaluations: init (t=0), f0 of step 1 (t=0), 4 stages of step 1, f0 of step 2 (t = t1), ...
    let t1 = seen
        .iter()
        .map(|e| e.0)
        .find(|&t| t > 0.0 && (t - 0.1).abs() < 1e-12)
        .unwrap();
    for &(t, held, updated) in &seen {
        if t <= 0.0 {
            continue;
        }
        if t <= t1 + 1e-12 {
            // Step 1's stages see the value computed at t = 0, swapped in at t = 0.
            assert_eq!((held, updated), (0.0, 0.0), "stage at t = {t}");
        } else {
            // Step 2's stages see the value computed at the end of step 1 (t1), swapped at t1.
            assert_eq!((held, updated), (t1, t1), "stage at t = {t}");
        }
    }
    assert_eq!(sim.state().auto_update(&model, var), &[t1]);
}

/// Sets its auto-update variable only in the Merson stages inside a step (never at a step's
/// start or end), so no value may ever be swapped in: a cache entry is valid only for the
/// realization that computed it.
struct StageOnlyUpdater {
    var: AutoUpdateVarId,
}

impl ForceElement<f64> for StageOnlyUpdater {
    fn name(&self) -> &str {
        "stage_only_updater"
    }
    fn calc_force(&self, ctx: &ForceContext<'_, f64>, out: &mut ForceAccumulator<'_, f64>) {
        let ticks = (ctx.state.t / 0.3).round();
        if (ctx.state.t - ticks * 0.3).abs() > 1e-9 {
            out.set_auto_update(self.var, &[ctx.state.t]);
        }
    }
}

#[test]
fn values_computed_inside_a_step_are_never_swapped_in() {
    let mut b = ModelBuilder::<f64>::new();
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity());
    b.add_body(BodyDef::new("mass", BodyId::GROUND, Mobilizer::Slider, mp))
        .unwrap();
    let var = b.add_auto_update_variable("stage_value", &[-1.0]);
    b.add_custom_force(Arc::new(StageOnlyUpdater { var }));
    let model = b.build().unwrap();
    let settings = IntegratorSettings {
        initial_step: Some(0.3),
        max_step: Some(0.3),
        ..IntegratorSettings::rk_merson(1e-3)
    };
    let mut sim = Simulation::new(&model, model.default_state(), settings).unwrap();
    for _ in 0..4 {
        sim.step(10.0).unwrap();
    }
    assert!(
        (sim.state().t - 1.2).abs() < 1e-12,
        "steps of exactly 0.3 s"
    );
    assert_eq!(sim.state().auto_update(&model, var), &[-1.0]);
}
