//! Usage errors keep clap's whole message (issue 23, finding 6): what was expected, "did you
//! mean" hints and the usage line; a bare `ferrobody` prints the help.

use crate::common;
use common::exe;

#[test]
fn a_bare_call_prints_the_help() {
    let out = exe().output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Usage: ferrobody <COMMAND>") && text.contains("run"),
        "{text}"
    );
}

#[test]
fn usage_errors_name_what_is_missing_and_suggest_fixes() {
    let missing = exe().arg("run").output().unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.contains("<SCENE>") && err.contains("Usage: ferrobody run"),
        "{err}"
    );
    let typo = exe().args(["chek", "x.toml"]).output().unwrap();
    assert_eq!(typo.status.code(), Some(2));
    let err = String::from_utf8_lossy(&typo.stderr);
    assert!(err.contains("'check'"), "{err}");
    let option = exe()
        .args(["run", "x.toml", "--acuracy", "1e-6"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&option.stderr);
    assert!(err.contains("--accuracy"), "{err}");
}
