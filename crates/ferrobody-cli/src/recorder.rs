//! Collects what the plots and the 3D replay need at each report time. Only used when plots or a
//! replay are requested: a plain `ferrobody run` streams everything to disk and keeps nothing.

use ferrobody::algorithms::kinetic_energy;
use ferrobody::forces::ForceContext;
use ferrobody::math::quaternion::quaternion_from_rotation;
use ferrobody::model::potential_energy;
use ferrobody::model::Force;
use ferrobody::pipeline::contact_reports;
use ferrobody::{Data, Model, State};

/// A body's pose at one report time.
#[derive(Clone, Copy, Debug)]
pub struct Pose {
    /// Body origin in Ground (m).
    pub position: [f64; 3],
    /// Orientation quaternion, scalar first.
    pub quaternion: [f64; 4],
}

/// Per-report series.
#[derive(Default)]
pub struct Recorder {
    /// Names of the bodies (Ground excluded).
    pub body_names: Vec<String>,
    /// Whether the model has contact elements.
    pub has_contact: bool,
    /// Report times (s).
    pub times: Vec<f64>,
    /// Poses, per report, per body.
    pub poses: Vec<Vec<Pose>>,
    /// Speeds of the body origins (m/s), per report, per body.
    pub speeds: Vec<Vec<f64>>,
    /// (kinetic, potential, total) energy (J) per report.
    pub energies: Vec<[f64; 3]>,
    /// (normal, friction) contact force magnitudes summed over all contacts (N) per report.
    pub contact_forces: Vec<[f64; 2]>,
    /// Names of the muscles and the other path forces (path actuators, path springs), in
    /// force order.
    pub muscle_names: Vec<String>,
    /// Per report, per muscle or path force: its path's points in Ground and its activation
    /// (a path actuator's control and a path spring's "taut" 1 or slack 0, clamped to 0–1).
    pub muscle_paths: Vec<Vec<(Vec<[f64; 3]>, f64)>>,
}

impl Recorder {
    /// An empty recorder for `model`.
    pub fn new(model: &Model<f64>) -> Self {
        Self {
            body_names: model.bodies()[1..].iter().map(|b| b.name.clone()).collect(),
            has_contact: model.has_contact(),
            muscle_names: model
                .forces()
                .iter()
                .filter_map(|f| match f {
                    Force::Muscle(m) => Some(m.name.clone()),
                    Force::PathForce(p) => Some(p.name.clone()),
                    _ => None,
                })
                .collect(),
            ..Self::default()
        }
    }

    /// Records one realized report state (an error if `data` is not realized to Velocity).
    pub fn record(
        &mut self,
        model: &Model<f64>,
        state: &State<f64>,
        data: &Data<f64>,
    ) -> ferrobody::Result<()> {
        let (x_gb, v_gb) = (data.poses()?, data.velocities()?);
        self.times.push(state.t);
        let n = model.nbodies();
        self.poses.push(
            (1..n)
                .map(|i| {
                    let x = &x_gb[i];
                    Pose {
                        position: [x.p.x, x.p.y, x.p.z],
                        quaternion: quaternion_from_rotation(&x.r),
                    }
                })
                .collect(),
        );
        self.speeds
            .push((1..n).map(|i| v_gb[i].fixed_rows::<3>(3).norm()).collect());
        let (ke, pe) = (
            kinetic_energy(model, data),
            potential_energy(model, state, data),
        );
        self.energies.push([ke, pe, ke + pe]);
        if !self.muscle_names.is_empty() {
            let ctx = ForceContext::new(model, state, data);
            let paths = model
                .forces()
                .iter()
                .filter_map(|f| match f {
                    Force::Muscle(m) => {
                        let points = m.path.drawn_points_in_ground(&ctx);
                        let points = points.iter().map(|p| [p.x, p.y, p.z]).collect();
                        Some((points, m.state(&ctx).activation))
                    }
                    Force::PathForce(p) => {
                        let points = p.path.drawn_points_in_ground(&ctx);
                        let points = points.iter().map(|p| [p.x, p.y, p.z]).collect();
                        Some((points, path_force_drive(p, &ctx)))
                    }
                    _ => None,
                })
                .collect();
            self.muscle_paths.push(paths);
        }
        if self.has_contact {
            let reports = contact_reports(model, state, data);
            let normal = reports.iter().map(|c| c.normal_force.abs()).sum();
            let friction = reports.iter().map(|c| c.friction_force.norm()).sum();
            self.contact_forces.push([normal, friction]);
        }
        Ok(())
    }
}

/// How hard a path force pulls, 0–1, for the replay's colour: a path actuator's control, a
/// path spring's 1 when taut (0 when slack).
fn path_force_drive(p: &ferrobody::muscles::PathForce, ctx: &ForceContext<'_, f64>) -> f64 {
    let path = p.path.kinematics(ctx);
    match &p.law {
        ferrobody::muscles::PathForceLaw::Actuator { control, .. } => control
            .at(ctx.state.t, path.speed, ctx.force_controls())
            .clamp(0.0, 1.0),
        ferrobody::muscles::PathForceLaw::Spring { resting_length, .. } => {
            f64::from(u8::from(path.length > *resting_length))
        }
        _ => 0.0,
    }
}
