//! The command line never writes outside its folder (issue 23): the default output folder is
//! the scene's name made one safe path component.

use std::path::Path;

use crate::common;
use common::{exe, temp_dir};

/// Without `--out`, the output folder is the scene's name made one safe path component in the
/// working directory: `../escape` and `/abs/path` must not write outside it (issue 23).
#[test]
fn a_scene_name_never_chooses_where_files_go() {
    let dir = temp_dir("names");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    for (name, expected) in [
        ("../escape", "_escape"),
        ("/abs/path", "_abs_path"),
        ("..", "ferrobody-run"),
    ] {
        let scene = format!(
            "name = \"{name}\"\n[simulation]\nduration = 0.01\n[[body]]\nname = \"b\"\nmobilizer = \"slider\"\nmass = 1.0\n"
        );
        let path = work.join("scene.toml");
        std::fs::write(&path, scene).unwrap();
        let out = exe()
            .arg("run")
            .arg(&path)
            .current_dir(&work)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            work.join(expected).join("trajectory.csv").exists(),
            "{name}"
        );
    }
    assert!(
        !dir.join("escape").exists(),
        "wrote outside the working directory"
    );
    assert!(!Path::new("/abs/path").exists());
}
