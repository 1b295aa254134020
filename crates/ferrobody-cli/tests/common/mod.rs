//! Helpers shared by the command-line tests: the binary under test, the example scenes and a
//! fresh temporary directory per test.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `ferrobody` binary built for these tests.
pub fn exe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ferrobody"))
}

/// The repository's `examples/scenes`.
pub fn scenes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes")
}

/// An empty directory for one test, removed when the value is dropped (the tests write whole
/// output directories, tens of MB each, which must not pile up in `/tmp` run after run).
pub struct TestDir(PathBuf);

impl std::ops::Deref for TestDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TestDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TestDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh [`TestDir`] (`name` unique within the test binary; the process id keeps concurrent
/// test binaries apart).
pub fn temp_dir(name: &str) -> TestDir {
    let dir =
        std::env::temp_dir().join(format!("ferrobody-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TestDir(dir)
}

/// Asserts that a command failed with exactly one `error: ` line on stderr containing
/// `expect`, and no panic.
pub fn assert_clean_error(out: &Output, expect: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "expected failure for {expect}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line of error output, got {stderr:?}");
    assert!(lines[0].starts_with("error: "), "{stderr}");
    assert!(lines[0].contains(expect), "'{expect}' not in {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Asserts that a command succeeded, showing its stderr otherwise.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
