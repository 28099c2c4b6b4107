//! `corridor demo`: the main job on the built-in environments: build each scene's ECM,
//! plan paths for two character radii, and draw everything; then close and open a door
//! in the dungeon with dynamic updates (`door-open.svg`, `door-closed.svg`).

use crate::draw;
use crate::environment_arg::write;
use crate::error::CliError;
use crate::progress;
use crate::update::{method_name, INSERTED_COLOUR, REMOVED_COLOUR, TOLERANCE};
use corridor_asfv::Decomposition;
use corridor_ecm::{
    Change, CorridorPath, DynamicEcm, Ecm, PatchReport, PathQuery, PlanError, Planner,
};
use corridor_geom::{Aabb, Environment, Obstacle, Point};
use corridor_io::scenes::Scene;
use corridor_io::svg::SvgDocument;
use std::path::Path;
use std::time::Instant;

/// Builds every built-in scene and writes its pictures into `output`.
pub fn run(output: &Path) -> Result<(), CliError> {
    let progress = progress::bar(
        Scene::ALL.len() as u64,
        "{spinner} {msg:<10} [{bar:30}] {pos}/{len}",
    );
    let mut lines = Vec::new();
    for scene in Scene::ALL {
        progress.set_message(scene.name());
        lines.push(run_scene(scene, output)?);
        progress.inc(1);
    }
    progress.set_message("door");
    let door_line = door(output)?;
    progress.finish_and_clear();
    for line in lines {
        println!("{line}");
    }
    println!("{door_line}");
    println!("pictures in {}", output.display());
    Ok(())
}

fn run_scene(scene: Scene, output: &Path) -> Result<String, CliError> {
    let env = scene.build();
    env.validate()?;
    let name = scene.name();
    write(
        &output.join(format!("{name}.svg")),
        &SvgDocument::of_environment(&env, false)
            .with_title(name)
            .render(),
    )?;
    let started = Instant::now();
    let ecm = Ecm::build(&env)?;
    let build_ms = started.elapsed().as_secs_f64() * 1e3;
    let mut doc = SvgDocument::of_environment(&env, false)
        .with_title(&format!("{name}: explicit corridor map"));
    doc.add_ecm(&ecm);
    write(&output.join(format!("{name}-ecm.svg")), &doc.render())?;

    // Paths between opposite corners for a point and for a wide character.
    let (start, goal) = corner_points(&env, &ecm);
    let radius = 0.01 * env.bounds().size().min_element();
    let mut doc = SvgDocument::of_environment(&env, false)
        .with_title(&format!("{name}: paths for radius 0 and {radius}"));
    let mut planner = Planner::new();
    let mut summary = String::new();
    for (r, colour) in [(0.0, "#e6c300"), (radius, "#d62728")] {
        let query = PathQuery::new(start, goal).with_radius(r);
        match planner.plan(&ecm, &query) {
            Ok(path) => {
                draw::add_path(
                    &mut doc,
                    &path.points,
                    &path.corridor,
                    &format!("path-r{r}"),
                    colour,
                );
                summary.push_str(&format!("  r={r}: length {:.2}", path.length));
            }
            Err(e) => summary.push_str(&format!("  r={r}: {e}")),
        }
    }
    write(&output.join(format!("{name}-paths.svg")), &doc.render())?;

    // The adaptive space-filling volumes, before and after a crate is dropped in the
    // middle and taken out again.
    let asfv_started = Instant::now();
    let mut decomposition = Decomposition::build(&env, &Default::default())
        .map_err(|e| CliError::Usage(format!("asfv: {e}")))?;
    let asfv_ms = asfv_started.elapsed().as_secs_f64() * 1e3;
    let picture = |title: &str, file: &str, d: &Decomposition| {
        let mut doc = SvgDocument::of_environment(d.environment(), false).with_title(title);
        crate::planners::draw_asfv(&mut doc, d);
        write(&output.join(file), &doc.render())
    };
    picture(
        &format!("{name}: adaptive space-filling volumes"),
        &format!("{name}-asfv.svg"),
        &decomposition,
    )?;
    let centre = env.bounds().min.lerp(env.bounds().max, 0.5);
    let half = 0.04 * env.bounds().size().min_element();
    let crate_box = corridor_geom::Obstacle::rectangle(
        centre - Point::splat(half),
        centre + Point::splat(half),
    );
    if let Ok(id) = decomposition.insert(crate_box) {
        picture(
            &format!("{name}: after a crate is added"),
            &format!("{name}-asfv-added.svg"),
            &decomposition,
        )?;
        if decomposition.remove(id).is_ok() {
            picture(
                &format!("{name}: after it is removed"),
                &format!("{name}-asfv-removed.svg"),
                &decomposition,
            )?;
        }
    }
    summary.push_str(&format!(
        " | ASFV {} regions, {:.2} % covered, {asfv_ms:.0} ms",
        decomposition.region_count(),
        100.0 * decomposition.coverage().fraction()
    ));
    Ok(format!(
        "{name:<9} {:>4} obstacles {:>5} vertices | ECM {:>5} vertices {:>5} edges {:>2} components in {build_ms:>7.1} ms |{summary}",
        env.obstacles().count(),
        env.vertex_count(),
        ecm.vertex_count(),
        ecm.edge_count(),
        ecm.component_count(),
    ))
}

/// Free points near two opposite corners of the scene (the first point with some
/// clearance along the diagonal from each corner inwards).
fn corner_points(env: &Environment, ecm: &Ecm) -> (Point, Point) {
    let b = env.bounds();
    let wanted = 0.02 * b.size().min_element();
    let find = |from: Point, to: Point| {
        (1..200)
            .map(|k| from.lerp(to, k as f64 / 400.0))
            .find(|&p| ecm.clearance(p).is_ok_and(|c| c >= wanted))
            .unwrap_or(b.min.lerp(b.max, 0.5))
    };
    (find(b.min, b.max), find(b.max, b.min))
}

/// A doorway: a gap between two wall rectangles on one line, the door that closes it
/// (thinner than the walls and overlapping both) and a free point on each side.
struct Doorway {
    door: Obstacle,
    centre: Point,
    sides: (Point, Point),
    gap: f64,
}

/// Obstacles that are axis-parallel rectangles, as boxes.
fn rectangles(env: &Environment) -> Vec<Aabb> {
    env.obstacles()
        .filter_map(|(_, o)| match o {
            Obstacle::Polygon(p)
                if p.holes.is_empty() && p.exterior.distinct_vertex_count() == 4 =>
            {
                let b = p.aabb()?;
                let s = b.size();
                ((p.area() - s.x * s.y).abs() <= 1e-9 * s.x * s.y && s.x > 0.0 && s.y > 0.0)
                    .then_some(b)
            }
            _ => None,
        })
        .collect()
}

/// Every doorway of an environment: two wall rectangles of the same thickness on one
/// line, longer than thick, with a gap of at most three thicknesses between them.
fn doorways(env: &Environment) -> Vec<Doorway> {
    let walls = rectangles(env);
    let mut out = Vec::new();
    // Swap x and y to handle walls along y with the same code.
    let swap = |p: Point| Point::new(p.y, p.x);
    for along_x in [true, false] {
        let f = |p: Point| if along_x { p } else { swap(p) };
        for a in &walls {
            for b in &walls {
                let (a0, a1, b0, b1) = (f(a.min), f(a.max), f(b.min), f(b.max));
                let thickness = a1.y - a0.y;
                let gap = b0.x - a1.x;
                let same_line = (a0.y - b0.y).abs() < 1e-9 && (a1.y - b1.y).abs() < 1e-9;
                let elongated = a1.x - a0.x > thickness && b1.x - b0.x > thickness;
                if !same_line || !elongated || gap <= 0.0 || gap > 3.0 * thickness {
                    continue;
                }
                // No other wall on the line reaches into the gap.
                let blocked = walls.iter().any(|c| {
                    let (c0, c1) = (f(c.min), f(c.max));
                    (c0.y - a0.y).abs() < 1e-9
                        && (c1.y - a1.y).abs() < 1e-9
                        && c0.x < b0.x
                        && c1.x > a1.x
                });
                if blocked {
                    continue;
                }
                let (overlap, inset) = (thickness / 3.0, thickness / 6.0);
                let door = Obstacle::rectangle(
                    f(Point::new(a1.x - overlap, a0.y + inset)),
                    f(Point::new(b0.x + overlap, a1.y - inset)),
                );
                let centre = Point::new((a1.x + b0.x) / 2.0, (a0.y + a1.y) / 2.0);
                let normal = Point::new(0.0, thickness / 2.0 + gap / 2.0);
                out.push(Doorway {
                    door,
                    centre: f(centre),
                    sides: (f(centre - normal), f(centre + normal)),
                    gap,
                });
            }
        }
    }
    out
}

/// Plans and applies one change; returns the inserted ids, the patch's report and the
/// time of plan and apply in milliseconds.
fn timed(
    map: &mut DynamicEcm,
    change: Change,
) -> Result<(Vec<corridor_geom::ObstacleId>, PatchReport, f64), CliError> {
    let started = Instant::now();
    let patch = map.plan_update(&change)?;
    let report = patch.report().clone();
    let ids = map.apply(patch)?;
    Ok((ids, report, started.elapsed().as_secs_f64() * 1e3))
}

/// The path of a query drawn into `doc`, or the planner's reason as a label.
fn path_or_reason(
    doc: &mut SvgDocument,
    planned: &Result<CorridorPath, PlanError>,
    name: &str,
    colour: &str,
) -> String {
    match planned {
        Ok(path) => {
            draw::add_path(doc, &path.points, &path.corridor, name, colour);
            format!("length {:.2}", path.length)
        }
        Err(e) => {
            let view = doc.view();
            let size = 0.025 * view.size().max_element();
            doc.layer(
                &format!("{name}-failed"),
                corridor_io::svg::Style::filled("#222222", "none", 0.0),
            )
            .text(
                view.min + Point::new(size, 1.5 * size),
                size,
                &format!("no path: {e}"),
            );
            format!("no path ({e})")
        }
    }
}

/// The built-in dungeon with a door closing and opening again: finds a doorway whose
/// door splits a free-space component, closes it and opens it with dynamic updates,
/// plans a path through it for a character before and after, checks that the reopened
/// map equals the original, and writes `door-open.svg` and `door-closed.svg`.
fn door(output: &Path) -> Result<String, CliError> {
    let scene = Scene::Dungeon;
    let env = scene.build();
    let mut map = DynamicEcm::new(env.clone())?;
    let original = map.ecm().clone();
    let components = original.component_count();
    let bounds_centre = env.bounds().min.lerp(env.bounds().max, 0.5);
    let mut candidates = doorways(&env);
    candidates.sort_by(|a, b| {
        (a.centre - bounds_centre)
            .length()
            .total_cmp(&(b.centre - bounds_centre).length())
    });
    // The nearest doorway to the centre whose door splits a component; without one, the
    // nearest doorway (the path then takes another route).
    let mut chosen = None;
    let mut fallback = None;
    for (k, c) in candidates.iter().enumerate() {
        let radius = c.gap / 5.0;
        let free = |p: Point| original.clearance(p).is_ok_and(|d| d > radius);
        if !free(c.sides.0) || !free(c.sides.1) {
            continue;
        }
        let (id, report, ms) = timed(&mut map, Change::Insert(c.door.clone()))?;
        if map.ecm().component_count() > components {
            chosen = Some((k, id[0], report, ms));
            break;
        }
        map.remove(id[0])?;
        fallback = fallback.or(Some(k));
    }
    if let (None, Some(k)) = (&chosen, fallback) {
        let (id, report, ms) = timed(&mut map, Change::Insert(candidates[k].door.clone()))?;
        chosen = Some((k, id[0], report, ms));
    }
    let Some((k, id, close_report, close_ms)) = chosen else {
        return Err(CliError::Usage(format!(
            "door: no doorway found in the {} scene",
            scene.name()
        )));
    };
    let doorway = &candidates[k];
    let radius = doorway.gap / 5.0;
    let query = PathQuery::new(doorway.sides.0, doorway.sides.1).with_radius(radius);
    let mut planner = Planner::new();

    // Open: the original map.
    let open_path = planner.plan(&original, &query);
    let mut doc = SvgDocument::of_environment(&env, false).with_title(&format!(
        "{}: door open, path for radius {radius}",
        scene.name()
    ));
    doc.add_ecm(&original);
    draw::add_obstacles(&mut doc, "door", [&doorway.door], INSERTED_COLOUR, false);
    let open_text = path_or_reason(&mut doc, &open_path, "path-open", "#e6c300");
    write(&output.join("door-open.svg"), &doc.render())?;

    // Closed.
    let closed_path = planner.plan(map.ecm(), &query);
    let started = Instant::now();
    let full = Ecm::build(map.environment())?;
    let rebuild_ms = started.elapsed().as_secs_f64() * 1e3;
    let closed_equal = map.ecm().canonical_diff(&full, TOLERANCE).is_none();
    let mut doc = SvgDocument::of_environment(map.environment(), false).with_title(&format!(
        "{}: door closed, path for radius {radius}",
        scene.name()
    ));
    doc.add_ecm(map.ecm());
    draw::add_obstacles(&mut doc, "door", [&doorway.door], REMOVED_COLOUR, true);
    let closed_text = path_or_reason(&mut doc, &closed_path, "path-closed", "#e6c300");
    let closed_components = map.ecm().component_count();
    write(&output.join("door-closed.svg"), &doc.render())?;

    // Reopened: must be the original map.
    let (_, open_report, open_ms) = timed(&mut map, Change::Remove(id))?;
    let reopened = map.ecm().canonical_diff(&original, TOLERANCE);
    let reopened_text = match &reopened {
        None => "yes".to_string(),
        Some(d) => format!("NO ({d})"),
    };
    let line = [
        format!(
            "door      {} doorway at ({:.1}, {:.1})",
            scene.name(),
            doorway.centre.x,
            doorway.centre.y
        ),
        format!(
            "closing {close_ms:.2} ms ({}), opening {open_ms:.2} ms ({}), full rebuild {rebuild_ms:.1} ms",
            method_name(close_report.method),
            method_name(open_report.method)
        ),
        format!("components {components} → {closed_components}"),
        format!("path r={radius}: open {open_text}, closed {closed_text}"),
        format!(
            "closed = full rebuild: {}, reopened = original: {reopened_text}",
            if closed_equal { "yes" } else { "NO" }
        ),
    ]
    .join(" | ");
    if !closed_equal || reopened.is_some() || open_path.is_err() {
        return Err(CliError::Usage(format!("door demo failed: {line}")));
    }
    Ok(line)
}
