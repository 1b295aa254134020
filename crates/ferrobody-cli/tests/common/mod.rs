//! Helpers shared by the command-line tests: the binary under test, the example scenes and a
//! fresh temporary directory per test.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `ferrobody` binary built for these tests.
pub fn exe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ferrobody"))
}

/// The repository's `examples/scenes`.
pub fn scenes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes")
}

/// An empty directory for one test (`name` unique within the test binary; the process id
/// keeps concurrent test binaries apart).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("ferrobody-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
