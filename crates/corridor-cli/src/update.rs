//! `corridor update`: insert and remove obstacles as one dynamic update of the ECM, and
//! compare the result with a full rebuild.

use crate::draw;
use crate::environment_arg::{is_saved_ecm, load_environment, write};
use crate::error::CliError;
use crate::progress;
use corridor_ecm::{Change, DynamicEcm, Ecm, RepairMethod, UpdateError};
use corridor_geom::{Environment, NormalizeScope, Obstacle, ObstacleId, Owner};
use corridor_io::svg::SvgDocument;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Tolerance of the comparison with a full rebuild (user units), as in `corridor soak`.
pub const TOLERANCE: f64 = 1e-6;

/// Colour of inserted obstacles in pictures.
pub const INSERTED_COLOUR: &str = "#2ca02c";
/// Colour of removed obstacles in pictures.
pub const REMOVED_COLOUR: &str = "#d62728";

/// An obstacle to insert, with where it was read.
struct Insertion {
    obstacle: Obstacle,
    /// `FILE, line L, column C`.
    origin: String,
}

/// Parses an obstacle id as printed by `corridor info` and `corridor render --ids`
/// (`12`, or `#12`).
pub fn parse_id(text: &str) -> Result<ObstacleId, String> {
    let digits = text.trim().trim_start_matches('#');
    digits
        .parse::<u32>()
        .ok()
        .filter(|&id| id != u32::MAX)
        .map(ObstacleId)
        .ok_or_else(|| format!("'{text}' is not an obstacle id (a number like 12 or #12)"))
}

/// Reads the obstacles of one `--insert` file and checks their geometry against `env`.
fn read_insertions(path: &Path, env: &Environment) -> Result<Vec<Insertion>, CliError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| CliError::Io {
        path: name.clone(),
        source,
    })?;
    let records = corridor_io::read_obstacles(&text).map_err(|source| CliError::Obstacles {
        path: name.clone(),
        source,
    })?;
    if records.is_empty() {
        return Err(CliError::Usage(format!(
            "{name}: the list holds no obstacle"
        )));
    }
    let mut out = Vec::with_capacity(records.len());
    for record in records {
        let origin = format!("{name}, line {}, column {}", record.line, record.column);
        if let Err(e) = env.validate_obstacle_geometry(&record.obstacle) {
            return Err(CliError::Usage(format!(
                "{origin}: invalid {}: {}",
                record.obstacle.kind(),
                without_owner(&e.to_string(), Owner::Obstacle(env.next_id()))
            )));
        }
        if let Some(id) = record.id {
            eprintln!(
                "note: {origin}: the id {} written in the file is ignored, inserted obstacles get fresh ids",
                id.0
            );
        }
        out.push(Insertion {
            obstacle: record.obstacle,
            origin,
        });
    }
    Ok(out)
}

/// `message` without the leading `"{owner}: "` of an environment error.
fn without_owner(message: &str, owner: Owner) -> String {
    let prefix = format!("{owner}: ");
    message.strip_prefix(&prefix).unwrap_or(message).to_string()
}

fn scope_name(scope: NormalizeScope) -> &'static str {
    match scope {
        NormalizeScope::Window => "window",
        NormalizeScope::Group => "group",
        NormalizeScope::Global => "global",
        NormalizeScope::Unchanged => "unchanged",
    }
}

/// The name of a repair method in the output (`local`, `full_rebuild`, `unchanged`).
pub fn method_name(method: RepairMethod) -> &'static str {
    match method {
        RepairMethod::Local => "local",
        RepairMethod::FullRebuild => "full_rebuild",
        RepairMethod::Unchanged => "unchanged",
    }
}

fn ids_json(ids: &[ObstacleId]) -> serde_json::Value {
    ids.iter().map(|id| id.0).collect::<Vec<_>>().into()
}

fn ids_text(ids: &[ObstacleId]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    let list: Vec<String> = ids.iter().map(|id| id.0.to_string()).collect();
    list.join(", ")
}

/// What `corridor update` was asked.
pub struct UpdateArgs<'a> {
    /// The environment argument.
    pub file: &'a str,
    /// `--insert` files.
    pub inserts: &'a [PathBuf],
    /// `--remove` ids.
    pub removes: &'a [ObstacleId],
    /// `--svg` picture.
    pub svg: Option<&'a Path>,
    /// `--save` files: `.ecm` for the updated ECM, anything else for the updated
    /// environment in the native JSON format.
    pub save: &'a [PathBuf],
    /// One JSON object instead of text.
    pub json: bool,
}

/// Applies `--remove` and `--insert` as one batch and prints what changed.
pub fn run(args: &UpdateArgs) -> Result<(), CliError> {
    let UpdateArgs {
        file,
        inserts,
        removes,
        svg,
        save,
        json,
    } = *args;
    if inserts.is_empty() && removes.is_empty() {
        return Err(CliError::Usage(
            "nothing to update: give --insert OBSTACLES.json and/or --remove ID".into(),
        ));
    }
    let env = load_environment(file, "corridor update")?;
    env.validate()?;
    for (k, id) in removes.iter().enumerate() {
        if env.obstacle(*id).is_none() {
            return Err(CliError::Usage(format!(
                "{file} has no obstacle with id {} (the ids are listed by `corridor info --ids` and drawn by `corridor render --ids`; the largest is {})",
                id.0,
                env.obstacles().map(|(i, _)| i.0).max().map_or("none".into(), |m| m.to_string())
            )));
        }
        if removes[..k].contains(id) {
            return Err(CliError::Usage(format!(
                "obstacle {} is removed twice",
                id.0
            )));
        }
    }
    let mut insertions = Vec::new();
    for path in inserts {
        insertions.extend(read_insertions(path, &env)?);
    }
    let removed_obstacles: Vec<Obstacle> = removes
        .iter()
        .filter_map(|id| env.obstacle(*id).cloned())
        .collect();
    let first_new = env.next_id().0;

    let spinner = progress::spinner("building the ECM");
    let started = Instant::now();
    let mut map = DynamicEcm::new(env)?;
    let initial_ms = started.elapsed().as_secs_f64() * 1e3;
    let before = map.ecm().clone();

    let mut changes: Vec<Change> = removes.iter().map(|&id| Change::Remove(id)).collect();
    changes.extend(
        insertions
            .iter()
            .map(|i| Change::Insert(i.obstacle.clone())),
    );
    // An error about an inserted obstacle names the file and line it came from.
    let locate = |e: UpdateError| -> CliError {
        if let UpdateError::InvalidObstacle { id, source } = &e {
            if let Some(i) =
                id.0.checked_sub(first_new)
                    .and_then(|k| insertions.get(k as usize))
            {
                return CliError::Usage(format!(
                    "{}: cannot insert the {}: {}",
                    i.origin,
                    i.obstacle.kind(),
                    without_owner(&source.to_string(), Owner::Obstacle(*id))
                ));
            }
        }
        CliError::Update(e)
    };
    let clock = Instant::now();
    let patch = map.plan_batch(&changes).map_err(locate)?;
    let plan_ms = clock.elapsed().as_secs_f64() * 1e3;
    let report = patch.report().clone();
    let clock = Instant::now();
    let inserted = map.apply(patch).map_err(locate)?;
    let apply_ms = clock.elapsed().as_secs_f64() * 1e3;
    let update_ms = plan_ms + apply_ms;

    spinner.set_message("rebuilding the ECM to compare");
    let clock = Instant::now();
    let full = Ecm::build(map.environment())?;
    let rebuild_ms = clock.elapsed().as_secs_f64() * 1e3;
    let difference = map.ecm().canonical_diff(&full, TOLERANCE);
    drop(spinner);
    let ecm = map.ecm();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let speedup = rebuild_ms / update_ms.max(1e-9);

    if json {
        let counts = |e: &Ecm| {
            serde_json::json!({
                "vertices": e.vertex_count(),
                "edges": e.edge_count(),
                "components": e.component_count(),
                "free_area": e.free_area(),
            })
        };
        let value = serde_json::json!({
            "file": file,
            "inserted": ids_json(&inserted),
            "removed": ids_json(removes),
            "method": method_name(report.method),
            "fallback_reason": report.fallback_reason,
            "normalize_scope": scope_name(report.normalize_scope),
            "changed_walls": report.changed_walls,
            "removed_edges": report.removed_edges,
            "added_edges": report.added_edges,
            "local_walls": report.local_walls,
            "widenings": report.widenings,
            "before": counts(&before),
            "after": counts(ecm),
            "ms": {
                "initial_build": initial_ms,
                "plan": plan_ms,
                "plan_walls": ms(report.walls_time),
                "plan_voronoi": ms(report.voronoi_time),
                "apply": apply_ms,
                "update": update_ms,
                "full_rebuild": rebuild_ms,
            },
            "speedup": speedup,
            "equal_to_full_rebuild": difference.is_none(),
            "difference": difference,
        });
        println!("{value}");
    } else {
        println!(
            "{file}: inserted {}; removed {}",
            ids_text(&inserted),
            ids_text(removes)
        );
        let region = match report.method {
            RepairMethod::Local => format!(
                "local: {} of {} edges replaced by {}, local diagram of {} walls, {} widenings",
                report.removed_edges,
                before.edge_count(),
                report.added_edges,
                report.local_walls,
                report.widenings
            ),
            RepairMethod::FullRebuild => format!(
                "full rebuild ({})",
                report
                    .fallback_reason
                    .as_deref()
                    .filter(|r| !r.is_empty())
                    .unwrap_or("local repair off")
            ),
            RepairMethod::Unchanged => "unchanged: no wall changed".to_string(),
        };
        println!("  repair       {region}");
        println!(
            "  walls        {} segments and points changed ({} normalization)",
            report.changed_walls,
            scope_name(report.normalize_scope)
        );
        println!(
            "  ECM          {} → {} vertices, {} → {} edges, {} → {} components",
            before.vertex_count(),
            ecm.vertex_count(),
            before.edge_count(),
            ecm.edge_count(),
            before.component_count(),
            ecm.component_count()
        );
        println!(
            "  time (ms)    plan {plan_ms:.3} (walls {:.3}, voronoi {:.3}), apply {apply_ms:.3}, update {update_ms:.3}; full rebuild {rebuild_ms:.1} ({speedup:.1}× the update); initial build {initial_ms:.1}",
            ms(report.walls_time),
            ms(report.voronoi_time),
        );
        match &difference {
            None => {
                println!("  full rebuild equal (canonical comparison, tolerance {TOLERANCE:e})")
            }
            Some(d) => println!("  full rebuild DIFFERENT: {d}"),
        }
    }
    if let Some(out) = svg {
        let mut doc = SvgDocument::of_environment(map.environment(), false)
            .with_title(&format!("{file}: after the update"));
        doc.add_ecm(ecm);
        let new: Vec<&Obstacle> = inserted
            .iter()
            .filter_map(|id| map.environment().obstacle(*id))
            .collect();
        draw::add_obstacles(
            &mut doc,
            "removed-obstacles",
            &removed_obstacles,
            REMOVED_COLOUR,
            false,
        );
        draw::add_obstacles(&mut doc, "inserted-obstacles", new, INSERTED_COLOUR, true);
        write(out, &doc.render())?;
    }
    for out in save {
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| CliError::Io {
                path: parent.display().to_string(),
                source,
            })?;
        }
        if is_saved_ecm(&out.to_string_lossy()) {
            ecm.save(out)?;
        } else {
            write(out, &corridor_io::write_json(map.environment())?)?;
        }
    }
    match difference {
        None => Ok(()),
        Some(d) => Err(CliError::Mismatch(format!(
            "the updated ECM differs from a full rebuild: {d}"
        ))),
    }
}
