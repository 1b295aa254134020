//! Documents older than OpenSim 4.0 read as OpenSim 4.6 upgrades them: the same run as
//! OpenSim's own conversion of the file, and errors that name the line the user wrote.

use crate::opensim_errors::error_of;
use crate::opensim_muscles::simulate;
use ferrobody::io::osim;

const TUTORIAL: &str = "models/tutorial_gait10dof18musc_v30000.osim";

fn tutorial_text() -> String {
    std::fs::read_to_string(
        crate::common::repo_root()
            .join("testdata/opensim")
            .join(TUTORIAL),
    )
    .unwrap()
}

/// 1-based line of the first occurrence of `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).unwrap()].matches('\n').count() + 1
}

/// The OpenSim 3.0 file (Millard muscles, conditional and moving path points, CustomJoints,
/// six inertia elements per body) and OpenSim 4.6's own conversion of it (`printToXML`) run
/// identically, every column of every row.
#[test]
fn an_upgraded_document_runs_as_opensims_own_conversion_bit_for_bit() {
    let ours = simulate(TUTORIAL, 0.1);
    let theirs = simulate("models/tutorial_gait10dof18musc_v30000_opensim4.osim", 0.1);
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a.len(), b.len());
        for (column, value) in a {
            assert_eq!(
                value.to_bits(),
                b[column].to_bits(),
                "{column} at t = {}",
                a["t"]
            );
        }
    }
}

#[test]
fn a_path_point_on_a_missing_body_names_the_users_line() {
    let text = tutorial_text();
    let line = line_of(&text, "<PathPoint name=\"bifemlh_r-P1\">");
    let bad = text.replacen("<body>pelvis</body>", "<body>pelvic</body>", 1);
    let m = error_of(&bad);
    assert!(m.starts_with(&format!("model.osim:{line}:")), "{m}");
    assert!(m.contains("/bodyset/pelvic"), "{m}");
}

#[test]
fn a_bad_joint_location_names_its_line() {
    let text = tutorial_text();
    let from = "<location_in_parent>-0.072437806 -0.067724738 0.08555243</location_in_parent>";
    let line = line_of(&text, from);
    let m = error_of(&text.replacen(
        from,
        "<location_in_parent>-0.07 x 0.08</location_in_parent>",
        1,
    ));
    assert!(m.starts_with(&format!("model.osim:{line}:")), "{m}");
    assert!(m.contains("/jointset/hip_r"), "{m}");
    assert!(m.contains("location_in_parent"), "{m}");
}

#[test]
fn a_parent_body_that_does_not_exist_is_an_error() {
    let text = tutorial_text();
    let m = error_of(&text.replacen(
        "<parent_body>pelvis</parent_body>",
        "<parent_body>pelvic</parent_body>",
        1,
    ));
    assert!(m.contains("pelvic"), "{m}");
}

#[test]
fn documents_older_than_opensim_1_9_1_are_refused() {
    let m = error_of(&tutorial_text().replacen("Version=\"30000\"", "Version=\"10600\"", 1));
    assert!(m.contains("older than OpenSim 1.9.1"), "{m}");
}

/// The upgrade is reported as a warning, as OpenSim logs it.
#[test]
fn the_upgrade_is_reported() {
    let m = osim::parse(&tutorial_text(), "model.osim").unwrap();
    assert!(
        m.warnings
            .iter()
            .any(|w| w.contains("document version 30000")),
        "{:?}",
        m.warnings
    );
}

/// OpenSim names the model's sets after their class whatever the file says
/// (`ModelComponentSet::extendFinalizeFromProperties`), so `/bodyset/…` paths resolve in a file
/// whose BodySet is named otherwise (as many 3.x files name theirs `""`), 4.x files included.
#[test]
fn the_models_sets_go_by_their_class_names() {
    let path = crate::common::repo_root().join("testdata/opensim/osim_leg_hc.osim");
    let leg = std::fs::read_to_string(path).unwrap();
    assert!(leg.contains("/bodyset/"));
    let renamed = leg.replacen("<BodySet name=\"bodyset\">", "<BodySet name=\"Bodies\">", 1);
    assert_ne!(renamed, leg);
    osim::parse(&renamed, "leg.osim").unwrap();
}

/// A 2.x file's joints named "" take their class's name, as OpenSim 4 names them.
#[test]
fn unnamed_joints_take_their_class_name() {
    let text = tutorial_text().replacen(
        "<CustomJoint name=\"ground_pelvis\">",
        "<CustomJoint name=\"\">",
        1,
    );
    let m = osim::parse(&text, "model.osim").unwrap();
    assert!(
        m.joints.iter().any(|(name, _)| name == "customjoint"),
        "{:?}",
        m.joints
    );
}

/// Hostile old documents: 200 mutants of the 3.0 tutorial model and the 2.0 Neck model (lines
/// deleted, duplicated or cut short; numbers replaced by NaN, inf, garbage; names mangled)
/// go through the upgrade and load, or fail with one clean line, never a panic.
#[test]
fn mutated_old_documents_never_panic() {
    let neck = std::fs::read_to_string(
        crate::common::repo_root().join("testdata/opensim/models/neck3dof_schutte_v20001.osim"),
    )
    .unwrap();
    crate::opensim_errors::mutants_load_or_fail_cleanly(&[tutorial_text(), neck], 200);
}
