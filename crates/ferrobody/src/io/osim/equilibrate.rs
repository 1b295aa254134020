//! OpenSim's `Model::equilibrateMuscles` at the default state: each compliant-tendon muscle's
//! normalized tendon force (DeGroote) or fibre length (Thelen, Millard) solved from the default pose and
//! speeds with the muscle's default activation (`computeInitialFiberEquilibrium`). Activations are
//! not touched, as in OpenSim.

use crate::data::{Data, Stage};
use crate::error::ModelError;
use crate::forces::ForceContext;
use crate::model::{Force, Model};
use crate::muscles::MuscleModel;
use crate::pipeline::realize;
use crate::state::State;

/// Sets every compliant muscle's tendon-force state in `state`; on failure, the muscle's name
/// and why.
pub(super) fn equilibrate_muscles(
    model: &Model<f64>,
    state: &mut State<f64>,
) -> Result<(), (String, ModelError)> {
    let mut solved = Vec::new();
    {
        let mut data = Data::new(model);
        realize(model, state, &mut data, Stage::Velocity)
            .map_err(|e| ("(all)".to_string(), e.into_model_error()))?;
        let ctx = ForceContext::new(model, state, &data);
        for force in model.forces() {
            let Force::Muscle(m) = force else { continue };
            let path = m.path.kinematics(&ctx);
            let excitation = m.excitation.at(state.t, path.speed, ctx.force_controls());
            let activation = m.activation.map_or(excitation, |a| state.z[a.0]);
            match (&m.model, m.norm_tendon_force, m.fiber_length) {
                (MuscleModel::DeGrooteFregly2016(law), Some(z), _) => {
                    let f = law
                        .equilibrium_norm_tendon_force(path.length, path.speed, activation)
                        .map_err(|e| (m.name.clone(), e))?;
                    solved.push((z, f));
                }
                (MuscleModel::Thelen2003(law), _, Some(z)) => {
                    let a = law.clamp_activation(activation);
                    let l = law
                        .equilibrium_fiber_length(path.length, path.speed, a)
                        .map_err(|e| (m.name.clone(), e))?;
                    solved.push((z, l));
                }
                (MuscleModel::Schutte1993(law), _, Some(z)) => {
                    solved.push((z, law.equilibrium_fiber_length(path.length, activation)));
                }
                (MuscleModel::Millard2012(law), _, Some(z)) => {
                    let a = law.clamp_activation(activation);
                    let l = law
                        .equilibrium_fiber_length(path.length, a)
                        .map_err(|e| (m.name.clone(), e))?;
                    solved.push((z, l));
                }
                _ => {}
            }
        }
    }
    for (z, f) in solved {
        state.z[z.0] = f;
    }
    Ok(())
}
