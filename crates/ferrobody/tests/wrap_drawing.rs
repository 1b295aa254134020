//! The replay's wrapped paths: each wrapped stretch drawn over its object's surface (helix on
//! a cylinder or a torus's tube, great-circle arc on a sphere, the wrapping plane's section of
//! an ellipsoid), along the side the path actually takes — the drawn polyline is as long as the path (a wrong side would add or
//! drop most of a turn).

use crate::common;
use ferrobody::forces::ForceContext;
use ferrobody::io::osim;
use ferrobody::model::Force;
use ferrobody::{pipeline, Data, Stage};

/// At every row of `model`'s OpenSim reference: (rows where the drawing added surface
/// points, largest relative gap between the drawn polyline's length and the path's length).
fn drawn_against_lengths(model: &str) -> (usize, f64) {
    let file = common::repo_root().join(format!("testdata/opensim/{model}.osim"));
    let m = osim::load(&file).unwrap();
    let rows = common::csv_rows(&format!("testdata/opensim/{model}.csv"));
    let (mut drawn_rows, mut worst) = (0, 0.0f64);
    for row in &rows {
        let mut s = m.default_state.clone();
        for c in &m.coordinates {
            s.q[c.q_index] = row[&c.name];
        }
        let mut data = Data::new(&m.model);
        pipeline::realize(&m.model, &s, &mut data, Stage::Velocity).unwrap();
        let ctx = ForceContext::new(&m.model, &s, &data);
        for f in m.model.forces() {
            let Force::Muscle(muscle) = f else { continue };
            let corners = muscle.path.points_in_ground(&ctx);
            let drawn = muscle.path.drawn_points_in_ground(&ctx);
            if drawn.len() > corners.len() {
                drawn_rows += 1;
            }
            let polyline: f64 = drawn.windows(2).map(|w| (w[1] - w[0]).norm()).sum();
            let length = muscle.path.kinematics(&ctx).length;
            worst = worst.max((polyline - length).abs() / length);
        }
    }
    (drawn_rows, worst)
}

/// 24 chords per wrapped stretch shorten an arc of angle θ by about θ²/(24·24²) of its
/// length (under 3e-3 for a whole turn), and the stretch is part of the path: 3e-3.
/// arm26 wraps its triceps and biceps over ellipsoids and cylinders.
#[test]
fn wrapped_stretches_are_drawn_over_cylinder_sphere_torus_and_ellipsoid() {
    for model in [
        "muscles/mus_pendulum_wrap",
        "muscles/mus_pendulum_sphere",
        "muscles/mus_pendulum_sphere_all",
        "muscles/mus_pendulum_torus",
        "models/arm26",
    ] {
        let (rows, worst) = drawn_against_lengths(model);
        eprintln!(
            "{model}: surface drawn at {rows} rows, polyline within {worst:.1e} of the length"
        );
        assert!(rows > 10, "{model}: the wrap was hardly ever drawn");
        assert!(
            worst < 3e-3,
            "{model}: drawn path {worst:.1e} off its length"
        );
    }
}
