//! OpenSim's `Schutte1993Muscle_Deprecated` against OpenSim 4.6 (references made by
//! `scripts/opensim/make_model_references.py` from opensim-core's files as written) and its
//! derivatives against central differences (the law's own, in `muscles::schutte1993`).

use crate::opensim_models_all::{check, run};
use crate::opensim_muscles::worst;

/// opensim-core's Schutte1993Muscle_Deprecated models, as written: Neck3dof_point_constraint
/// (OpenSim 2.0, 5 muscles with their own NaturalCubicSpline curves, point constraints) and
/// wrist_mass (OpenSim 1.9, 26 muscles on the default curves). Every muscle's activation and
/// fibre length is compared with the coordinates.
#[test]
fn schutte_muscle_models_match_opensim() {
    for (name, all, force) in [
        ("neck3dof_schutte_v20001", 1e-12, 1e-9),
        ("wrist_mass_schutte_v10905", 1e-10, 1e-7),
    ] {
        check(name, all);
        let (ours, theirs) = run(name);
        let (d, col, t) = worst(&ours, &theirs, |c| c.ends_with("tendon_force"));
        eprintln!("{name}: largest tendon-force difference {d:e} N ({col} at t = {t})");
        assert!(d < force, "{name}: {col} differs by {d:e} N at t = {t}");
    }
}
