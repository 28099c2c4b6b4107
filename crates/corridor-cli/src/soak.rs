//! `corridor soak`: random updates of dynamic ECMs, each compared with a full rebuild.

use crate::environment_arg::write;
use crate::error::CliError;
use crate::progress;
use corridor_ecm::Change;
use corridor_testkit::soak::{soak_with_progress, SoakFailure, SoakOptions, SoakReport};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Runs `ops` random updates from `seed` with a progress bar on stderr and prints the
/// report; fails when any update differs from a full rebuild. With `dump`, each mismatch
/// is written there as a file that `--replay` reads.
pub fn run(ops: usize, seed: u64, json: bool, dump: Option<&Path>) -> Result<(), CliError> {
    let progress = progress::bar(
        ops as u64,
        "{spinner} soak [{bar:30}] {pos}/{len} {per_sec} eta {eta} {msg}",
    );
    // Without a terminal the bar is hidden; a line every 5 % shows how far it got
    // (unless --quiet).
    let plain = !std::io::stderr().is_terminal() && !progress::quiet();
    let step = (ops / 20).max(1);
    let started = Instant::now();
    let mut shown_mismatches = 0;
    let options = SoakOptions {
        keep_failures: dump.is_some(),
        ..SoakOptions::default()
    };
    let report = soak_with_progress(ops, seed, &options, |r| {
        let done = r.operations + r.rejected;
        progress.set_position(done as u64);
        if r.mismatches != shown_mismatches {
            shown_mismatches = r.mismatches;
            progress.set_message(format!("{} mismatches", r.mismatches));
        }
        if plain && done % step == 0 {
            eprintln!(
                "soak: {done}/{ops} operations, {} mismatches, {:.0} s",
                r.mismatches,
                started.elapsed().as_secs_f64()
            );
        }
    });
    progress.finish_and_clear();
    let wall = started.elapsed().as_secs_f64();
    if let Some(dir) = dump {
        for (k, failure) in report.failures.iter().enumerate() {
            let path = dir.join(format!("mismatch-{}.json", k + 1));
            write(&path, &failure_json(failure)?)?;
            eprintln!("soak: wrote {}", path.display());
        }
    }
    if json {
        let mut value = serde_json::to_value(&report)
            .map_err(|e| CliError::Usage(format!("cannot write the report: {e}")))?;
        if let Some(object) = value.as_object_mut() {
            object.insert("requested".into(), ops.into());
            object.insert("seed".into(), seed.into());
            object.insert("wall_seconds".into(), wall.into());
        }
        println!("{value}");
    } else {
        print_text(&report, ops, seed, wall);
    }
    if report.mismatches > 0 {
        return Err(CliError::Mismatch(format!(
            "{} of {} checked updates differ from a full rebuild",
            report.mismatches, report.checked
        )));
    }
    Ok(())
}

fn print_text(r: &SoakReport, ops: usize, seed: u64, wall: f64) {
    println!(
        "soak of {ops} random updates, seed {seed}, {} environments",
        r.environments
    );
    println!(
        "  operations   {} applied: {} inserts, {} removes, {} moves, {} batches; {} refused (a full rebuild refuses them too)",
        r.operations, r.inserts, r.removes, r.moves, r.batches, r.rejected
    );
    println!(
        "  repair       {} local, {} full rebuilds, {} without a wall change",
        r.local, r.full_rebuilds, r.unchanged
    );
    println!(
        "  walls        {} by window, {} by group, {} by full normalization",
        r.walls_window, r.walls_group, r.walls_global
    );
    println!(
        "  checked      {} against a full rebuild: {} mismatches",
        r.checked, r.mismatches
    );
    for d in &r.details {
        println!("    {d}");
    }
    let per = |s: f64| 1e3 * s / r.operations.max(1) as f64;
    println!(
        "  time         updates {:.2} s ({:.3} ms each), full rebuilds {:.2} s ({:.3} ms each), wall {:.1} s",
        r.update_seconds,
        per(r.update_seconds),
        r.rebuild_seconds,
        1e3 * r.rebuild_seconds / r.checked.max(1) as f64,
        wall
    );
}

/// A mismatch as one JSON document: `description`, `environment` (the native environment
/// format) and `changes` (`{"insert": obstacle}`, `{"remove": id}`,
/// `{"move": {"id": id, "obstacle": obstacle}}`).
fn failure_json(failure: &SoakFailure) -> Result<String, CliError> {
    let bad = |e: String| CliError::Usage(format!("cannot write the mismatch: {e}"));
    let environment: serde_json::Value = corridor_io::write_json(&failure.environment)
        .map_err(|e| bad(e.to_string()))
        .and_then(|text| serde_json::from_str(&text).map_err(|e| bad(e.to_string())))?;
    let value = serde_json::json!({
        "description": failure.description,
        "environment": environment,
        "changes": failure.changes,
    });
    serde_json::to_string_pretty(&value).map_err(|e| bad(e.to_string()))
}

/// Reads a file written by `--dump`.
fn read_failure(path: &Path) -> Result<SoakFailure, CliError> {
    let text = std::fs::read_to_string(path).map_err(|source| CliError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let bad = |what: String| CliError::Usage(format!("{}: {what}", path.display()));
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let environment = value
        .get("environment")
        .ok_or_else(|| bad("no \"environment\"".into()))?;
    let environment = corridor_io::read_json(&environment.to_string())
        .map_err(|e| bad(format!("environment: {e}")))?;
    let changes: Vec<Change> = serde_json::from_value(
        value
            .get("changes")
            .cloned()
            .ok_or_else(|| bad("no \"changes\"".into()))?,
    )
    .map_err(|e| bad(format!("changes: {e}")))?;
    let description = value
        .get("description")
        .and_then(|d| d.as_str())
        .unwrap_or_default()
        .to_string();
    Ok(SoakFailure {
        environment,
        changes,
        description,
    })
}

/// Replays mismatches written by `--dump`; fails when any still differs.
pub fn replay(files: &[PathBuf]) -> Result<(), CliError> {
    let mut still = 0;
    for path in files {
        let failure = read_failure(path)?;
        match failure.replay(&SoakOptions::default()) {
            None => println!("{}: now equal to a full rebuild", path.display()),
            Some(problem) => {
                still += 1;
                println!("{}: {problem}", path.display());
            }
        }
    }
    if still > 0 {
        return Err(CliError::Usage(format!(
            "{still} of {} replayed updates differ from a full rebuild",
            files.len()
        )));
    }
    Ok(())
}
