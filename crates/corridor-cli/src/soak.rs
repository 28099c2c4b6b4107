//! `corridor soak`: random updates of dynamic ECMs, each compared with a full rebuild.

use crate::environment_arg::CliError;
use corridor_ecm::{soak_with_progress, SoakOptions, SoakReport};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;

/// Runs `ops` random updates from `seed` with a progress bar on stderr and prints the
/// report; fails when any update differs from a full rebuild.
pub fn run(ops: usize, seed: u64, json: bool) -> Result<(), CliError> {
    let progress = ProgressBar::with_draw_target(Some(ops as u64), ProgressDrawTarget::stderr())
        .with_style(
            ProgressStyle::with_template(
                "{spinner} soak [{bar:30}] {pos}/{len} {per_sec} eta {eta} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
    // Without a terminal the bar is hidden; a line every 5 % shows how far it got.
    let plain = !std::io::stderr().is_terminal();
    let step = (ops / 20).max(1);
    let started = Instant::now();
    let mut shown_mismatches = 0;
    let report = soak_with_progress(ops, seed, &SoakOptions::default(), |r| {
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
        return Err(CliError::Usage(format!(
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
