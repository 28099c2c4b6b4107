//! What the command-line tests share: running the built `corridor` binary and reading what
//! it printed.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the built binary.
pub fn corridor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_corridor"))
        .args(args)
        .output()
        .expect("the corridor binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A scratch folder of the tests (created), under cargo's temporary directory.
pub fn scratch_dir(folder: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Fails with both outputs shown unless the command succeeded.
pub fn assert_success(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        stdout(o),
        stderr(o)
    );
}

/// Fails unless the command failed with `code` (not a panic) and its stderr says `needles`.
#[allow(dead_code)] // Only the test files that check failing commands call it.
pub fn assert_error(o: &Output, code: i32, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{err}",
        stdout(o)
    );
    assert!(!err.contains("panicked"), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "'{needle}' not in: {err}");
    }
}
