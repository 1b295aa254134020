//! Controllers as documents before OpenSim 4.6 name their actuators: `<actuator_list>` of
//! actuator names, `ALL` for every actuator (`Controller::updateFromXMLNode` and
//! `extendConnectToModel`, `PrescribedController::extendConnectToModel`). opensim-models'
//! three ToyLanding files are such documents (version 40000) and were refused ("missing
//! <socket_actuators>"); the references of testdata are the same models re-saved by OpenSim
//! 4.6, which writes `socket_actuators`.

use crate::common;
use ferrobody::io::osim::{self, OsimModel};
use ferrobody::model::Force;
use ferrobody::muscles::Excitation;

fn model_text(name: &str) -> String {
    std::fs::read_to_string(
        common::repo_root()
            .join("testdata/opensim/models")
            .join(format!("{name}.osim")),
    )
    .unwrap()
}

/// `text` as OpenSim 4.0–4.5 wrote it: version 40000, and every `socket_actuators` of a
/// controller an `actuator_list` of the actuators' names (or `replacement` when given).
fn as_version_40000(text: &str, replacement: Option<&str>) -> String {
    let mut out = text.replace("Version=\"40600\"", "Version=\"40000\"");
    while let Some(start) = out.find("<socket_actuators>") {
        let end = out[start..].find("</socket_actuators>").unwrap() + start;
        let paths = &out[start + "<socket_actuators>".len()..end];
        let names: Vec<&str> = paths
            .split_whitespace()
            .map(|p| p.rsplit('/').next().unwrap())
            .collect();
        let list = replacement.map_or_else(|| names.join(" "), str::to_string);
        out.replace_range(
            start..end + "</socket_actuators>".len(),
            &format!("<actuator_list>{list}</actuator_list>"),
        );
    }
    out
}

fn excitations(m: &OsimModel) -> Vec<(String, Excitation)> {
    m.model
        .forces()
        .iter()
        .filter_map(|f| match f {
            Force::Muscle(muscle) => Some((muscle.name.clone(), muscle.excitation.clone())),
            _ => None,
        })
        .collect()
}

fn reflexes(m: &OsimModel) -> usize {
    excitations(m)
        .iter()
        .filter(|(_, e)| matches!(e, Excitation::Reflex { .. }))
        .count()
}

#[test]
fn toy_landing_models_in_their_opensim_4_0_form_drive_the_muscles_of_their_4_6_form() {
    for name in ["toy_landing", "toy_landing_afo", "toy_landing_active_afo"] {
        let text = model_text(name);
        let current = osim::parse(&text, name).unwrap();
        let old = osim::parse(&as_version_40000(&text, None), name).unwrap();
        assert_eq!(reflexes(&current), 70, "{name}");
        assert_eq!(excitations(&old), excitations(&current), "{name}");
        assert_eq!(old.left_out, current.left_out, "{name}");
    }
}

#[test]
fn all_in_an_actuator_list_drives_every_actuator_in_order() {
    let text = model_text("tug_of_war");
    let old = osim::parse(&as_version_40000(&text, Some("all")), "tug_of_war").unwrap();
    let current = osim::parse(&text, "tug_of_war").unwrap();
    let prescribed = excitations(&old);
    assert!(matches!(prescribed[0].1, Excitation::Prescribed(_)));
    assert_eq!(prescribed, excitations(&current));
}

#[test]
fn a_name_that_is_no_actuator_is_skipped_with_a_warning() {
    let text = model_text("toy_landing").replacen(
        "<socket_actuators>/forceset/glut_med1_r ",
        "<socket_actuators>/forceset/glut_med1_r /forceset/no_such_muscle ",
        1,
    );
    let old = osim::parse(&as_version_40000(&text, None), "toy_landing").unwrap();
    assert_eq!(reflexes(&old), 70);
    assert!(
        old.warnings
            .iter()
            .any(|w| w.contains("toy_landing:") && w.contains("'no_such_muscle'")),
        "{:?}",
        old.warnings
    );
}

#[test]
fn a_reflex_controller_of_a_non_muscle_actuator_is_refused() {
    let text = model_text("double_pendulum");
    let controller = "<objects><ToyReflexController name=\"reflexes\">\
        <actuator_list>ALL</actuator_list><gain>1</gain></ToyReflexController></objects>";
    let mut edited = as_version_40000(&text, None);
    let set = edited.find("<ControllerSet").unwrap();
    let empty = edited[set..].find("<objects />").unwrap() + set;
    edited.replace_range(empty..empty + "<objects />".len(), controller);
    let err = osim::parse(&edited, "double_pendulum.osim")
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("/controllerset/reflexes") && err.contains("not a muscle"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn an_actuator_list_in_a_4_6_document_is_ignored_with_a_warning() {
    let text = model_text("toy_landing");
    let start = text.find("<socket_actuators>").unwrap();
    let end = text[start..].find("</socket_actuators>").unwrap() + start;
    let edited = format!(
        "{}<actuator_list>glut_med1_r</actuator_list>{}",
        &text[..start],
        &text[end + "</socket_actuators>".len()..]
    );
    let m = osim::parse(&edited, "toy_landing").unwrap();
    assert_eq!(reflexes(&m), 0);
    assert!(
        m.warnings
            .iter()
            .any(|w| w.contains("<actuator_list> is ignored")),
        "{:?}",
        m.warnings
    );
}

/// A PrescribedController whose functions outnumber the actuators it found (its list names
/// actuators the model lacks, as a plugin's are when the plugin is not loaded) is an error
/// that names the skipped names.
#[test]
fn a_function_count_mismatch_names_the_skipped_actuators() {
    let text = as_version_40000(&model_text("tug_of_war"), Some("muscle1 piston"));
    let e = osim::parse(&text, "tug_of_war.osim")
        .err()
        .unwrap()
        .to_string();
    assert!(!e.contains('\n'), "{e}");
    assert!(e.contains("1 actuators but 2 control functions"), "{e}");
    assert!(
        e.contains("no simulated actuator of the model: piston"),
        "{e}"
    );
}
