//! `corridor`: the command line of the Corridor navigation library.
//!
//! Every command takes an environment file (`.json`, `.geojson`, `.map`, `.mesh`, an
//! any-angle `maze.txt` or its folder) or a built-in scene as `builtin:NAME`
//! (`empty`, `military`, `dungeon`, `city`); `info`, `render`, `build` and `path` also
//! take a saved ECM (`.ecm`, from `build --save`). `info`, `render`, `convert`, `build`
//! and `path` also take a layered map: `builtin:layers`, a Wavefront `.obj` level or a
//! layered `.json` (paths come back in 3D). Errors print one line and exit with 1
//! (with `--json`: one JSON object `{"error": ..., "kind": ...}` on stderr).

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod args;
mod asfv;
mod demo;
mod draw;
mod ecm;
mod environment_arg;
mod error;
mod info;
mod layered;
mod path;
mod planners;
mod progress;
mod scenarios;
mod serve;
mod simulate;
mod soak;
mod update;
mod visibility;
mod visibility_layered;

use error::CliError;
use planners::PlannerKind;

/// Navigation on Explicit Corridor Maps for worlds whose obstacles move.
#[derive(Parser)]
#[command(name = "corridor", version, about, propagate_version = true)]
struct Cli {
    /// No progress on stderr (it is shown only on a terminal, for steps over a second).
    #[arg(long, short, global = true)]
    quiet: bool,
    /// Diagonal pinches of grid maps (two blocked cells touching at a corner): closed
    /// blocks passage (Moving AI's rule), open lets a point path through the corner (the
    /// any-angle suite's rule).
    #[arg(long, global = true, value_enum, default_value_t = environment_arg::Pinch::Closed)]
    pinch: environment_arg::Pinch,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print counts, bounds and the validation result of an environment (or the counts of
    /// a saved ECM).
    Info {
        /// Environment file, builtin:NAME or saved .ecm.
        file: String,
        /// List every obstacle: its id, kind and bounding box (JSON: `obstacle_ids`).
        #[arg(long)]
        ids: bool,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Draw an environment (or a saved ECM) as SVG.
    Render {
        /// Environment file, builtin:NAME or saved .ecm.
        file: String,
        /// Output SVG file.
        #[arg(short, long)]
        output: PathBuf,
        /// Label every obstacle with its id.
        #[arg(long)]
        ids: bool,
        /// Layered maps: an isometric 3D view (floors at their heights) instead of the
        /// layers side by side.
        #[arg(long)]
        iso: bool,
    },
    /// Convert an environment to the native JSON format.
    Convert {
        /// Environment file or builtin:NAME.
        file: String,
        /// Output JSON file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Build the Explicit Corridor Map and print its counts and phase times.
    Build {
        /// Environment file, builtin:NAME (or a saved .ecm, loaded instead of built).
        file: String,
        /// Write a picture of the ECM.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Save the ECM (compact binary; `path`, `info` and `render` read it back).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Worker threads of the build (default: one per core); the ECM is the same for
        /// every count.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// Refuse, before normalizing, obstacles that overlap into more wall pieces than
        /// this (edges plus two per crossing), instead of spending time and memory on them.
        #[arg(long)]
        max_wall_pieces: Option<usize>,
        /// Build the Voronoi diagrams of this many vertical strips in parallel and stitch
        /// them where they are certified (1: one diagram); the ECM is the same.
        #[arg(long, default_value_t = 1)]
        tiles: usize,
    },
    /// Plan a path for a disk-shaped character.
    ///
    /// JSON fields: planner, route, length and points (of the chosen route), radius, ms (the
    /// query), build_ms (the planner), and for the ECM corridor_steps, clearance,
    /// shortest_route and indicative_route (each with length and points).
    Path {
        /// Environment file, builtin:NAME or saved .ecm (ECM planner only).
        file: String,
        /// Start, as x,y (negative numbers welcome: --from -5,5).
        #[arg(long, value_parser = args::parse_point, allow_hyphen_values = true)]
        from: corridor_geom::Point,
        /// Goal, as x,y.
        #[arg(long, value_parser = args::parse_point, allow_hyphen_values = true)]
        to: corridor_geom::Point,
        /// Character radius (zero or more).
        #[arg(long, default_value_t = 0.0, value_parser = args::parse_distance, allow_negative_numbers = true)]
        radius: f64,
        /// Preferred clearance of the indicative route (ECM): it keeps this far from walls
        /// where the corridor has room, and the radius elsewhere. At least the radius (a
        /// smaller value is an error); default: the radius.
        #[arg(long, value_parser = args::parse_distance, allow_negative_numbers = true)]
        clearance: Option<f64>,
        /// Which ECM route is the answer: the shortest path, or the indicative route
        /// (keeps --clearance where there is room). Both are drawn and written.
        #[arg(long, value_enum, default_value_t = path::RouteKind::Shortest)]
        route: path::RouteKind,
        /// Write a picture.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Write the path as a GeoJSON FeatureCollection: the path (LineString), and for
        /// the ECM the indicative route (LineString) and the corridor (MultiPolygon).
        #[arg(long, value_name = "FILE")]
        geojson: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Which planner answers the query.
        #[arg(long, value_enum, default_value_t = PlannerKind::Ecm)]
        planner: PlannerKind,
        /// Layered maps: the start's layer (default: the first layer whose free space
        /// holds it).
        #[arg(long)]
        from_layer: Option<u32>,
        /// Layered maps: the goal's layer.
        #[arg(long)]
        to_layer: Option<u32>,
        /// Layered maps: draw --svg as an isometric 3D view (floors at their heights).
        #[arg(long)]
        iso: bool,
    },
    /// Decompose the free space into adaptive space-filling volumes (convex regions).
    Asfv {
        /// Environment file or builtin:NAME.
        file: String,
        /// Write a picture of the regions, portals and connectivity graph.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Print one JSON object (file, regions, portals, coverage, build_ms).
        #[arg(long)]
        json: bool,
    },
    /// Plan every Moving AI scenario of a map and compare with the octile optima; refuses
    /// scenarios made for another map (name or size).
    Scen {
        /// The .map file.
        map: PathBuf,
        /// The .map.scen file.
        scen: PathBuf,
        #[command(flatten)]
        run: RunOptions,
    },
    /// Plan every any-angle problem (a folder with maze.txt + problems.csv, or their parent).
    Anyangle {
        /// The folder.
        dir: PathBuf,
        #[command(flatten)]
        run: RunOptions,
    },
    /// Plan every problem of a Polyanya mesh set (start_x,start_y,goal_x,goal_y,length).
    Meshscen {
        /// The .mesh file.
        mesh: PathBuf,
        /// The problems (.csv).
        csv: PathBuf,
        #[command(flatten)]
        run: RunOptions,
    },
    /// Insert and remove obstacles as one dynamic update of the ECM (local repair), and
    /// compare the result with a full rebuild.
    ///
    /// Prints the ids inserted and removed, the repair (local or full rebuild, edges
    /// replaced, walls of the local diagram), the time of plan and apply against a full
    /// rebuild, and whether the result equals the full rebuild (canonical comparison,
    /// tolerance 1e-6). Exits with 1 on bad input or when the result differs.
    ///
    /// JSON fields: file, inserted and removed (ids), method (local, full_rebuild or
    /// unchanged), fallback_reason, normalize_scope (window, group, global or unchanged),
    /// changed_walls, removed_edges, added_edges, local_walls, widenings,
    /// before and after {vertices, edges, components, free_area},
    /// ms {initial_build, plan, plan_walls, plan_voronoi, apply, update, full_rebuild},
    /// speedup (full rebuild time / update time), equal_to_full_rebuild, difference.
    Update {
        /// Environment file or builtin:NAME.
        file: String,
        /// A JSON file with one obstacle or a list of obstacles in the native format
        /// (`{"polygon": [[x, y], ...]}`, `{"polyline": ...}`, `{"point": [x, y]}`); repeatable.
        #[arg(long, value_name = "OBSTACLES.json")]
        insert: Vec<PathBuf>,
        /// Id of an obstacle to remove, as listed by `corridor info --ids`; repeatable.
        #[arg(long, value_name = "ID", value_parser = update::parse_id)]
        remove: Vec<corridor_geom::ObstacleId>,
        /// Write a picture of the updated ECM, inserted obstacles green, removed ones red.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Save the result: `FILE.ecm` the updated ECM (for `corridor path`), any other
        /// name the updated environment as native JSON (for any command, and further
        /// updates with the new ids); repeatable. Written also when the check fails.
        #[arg(long, value_name = "FILE")]
        save: Vec<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Run random updates (insert, remove, move, batches) on random environments and
    /// compare each with a full rebuild; exits with 1 when any differs.
    ///
    /// JSON fields: requested, seed, operations, inserts, removes, moves, batches, local,
    /// full_rebuilds, unchanged, walls_window, walls_group, walls_global, rejected, checked,
    /// mismatches, details, environments, update_seconds, rebuild_seconds, wall_seconds.
    Soak {
        /// Number of random operations.
        #[arg(long, default_value_t = 10_000)]
        ops: usize,
        /// Seed of the random operations.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Write each mismatch (the environment before the update, the changes and what
        /// differed) to `DIR/mismatch-K.json`, for `--replay`.
        #[arg(long, value_name = "DIR")]
        dump: Option<PathBuf>,
        /// Replay the mismatches written by `--dump` instead of a random run: each update
        /// alone, compared with a full rebuild.
        #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "dump")]
        replay: Vec<PathBuf>,
    },
    /// Run a crowd simulation: a built-in scenario (circle, circle-5k, circle-50k, blocks,
    /// crossing, evacuation, city, city-door, city-groups) or a scenario file (versioned
    /// JSON).
    ///
    /// JSON fields: scenario, agents, threads, route_following, steps, time_s,
    /// all_arrived, arrived, removed, mean_travel_s, max_travel_s, mean_speed,
    /// min_pairwise_distance, min_pairwise_gap, collisions, min_wall_gap, wall_pushes,
    /// undone_moves, plans, replans, shared_plans, invalidated, failed_plans, changes,
    /// pushed_out, stuck, setup_s, step_ms {median, p99, mean}, agent_steps_per_s.
    Simulate {
        /// A built-in scenario's name or a scenario file.
        scenario: String,
        /// Number of characters (built-in scenarios).
        #[arg(long)]
        agents: Option<usize>,
        /// Steps to run at most (default: the scenario's); stops when all arrived.
        #[arg(long)]
        steps: Option<u64>,
        /// Worker threads (0: one per core); the trajectories do not depend on it.
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Walk straight at the goals (as RVO2's examples) instead of following ECM routes.
        #[arg(long)]
        straight: bool,
        /// Write the trails as SVG.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Write every position at every step as CSV (step,time,id,x,y,vx,vy).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Serve the interactive demo in the browser on 127.0.0.1 (the built-in scenes and
    /// FILEs; path queries, radius and clearance, live obstacle updates). docs/SERVE.md
    /// describes its WebSocket API.
    Serve {
        /// Environment files (or builtin:NAME) to list first.
        files: Vec<String>,
        /// Port on 127.0.0.1 (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// What a point sees: its exact visibility polygon from the ECM (walls and windows),
    /// or with `--batch` the polygons of every point of a CSV (x,y per line; on a layered
    /// map x,y,layer, the layer optional).
    Visibility {
        /// Environment file, builtin:NAME or saved .ecm.
        file: String,
        /// The viewpoint, as x,y.
        #[arg(long, value_parser = args::parse_point, allow_hyphen_values = true, required_unless_present = "batch")]
        from: Option<corridor_geom::Point>,
        /// A CSV of viewpoints (x,y per line, and on a layered map an optional layer column;
        /// a header line is skipped), answered one line each (on the walls triangulated
        /// once, the fastest exact method, unless FILE is a saved .ecm or layered).
        #[arg(long, value_name = "FILE.csv", conflicts_with_all = ["from", "svg"])]
        batch: Option<PathBuf>,
        /// Write a picture of the polygon over the map.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Print JSON (one object; one per line for a batch) instead of text.
        #[arg(long)]
        json: bool,
        /// See only this far (user units): the cut parts become arcs of the range circle.
        #[arg(long, value_name = "R", allow_negative_numbers = true)]
        range: Option<f64>,
        /// Field of view in degrees (0 < deg ≤ 360), centred on --dir.
        #[arg(
            long,
            value_name = "DEG",
            requires = "dir",
            allow_negative_numbers = true
        )]
        fov: Option<f64>,
        /// The direction the viewer faces, as x,y (with --fov).
        #[arg(long, value_parser = args::parse_point, allow_hyphen_values = true, requires = "fov")]
        dir: Option<corridor_geom::Point>,
        /// Layered maps: the viewpoint's layer (default: the first layer whose free space
        /// holds it); the view goes on through connections.
        #[arg(long)]
        layer: Option<u32>,
    },
    /// Run the main job on the built-in environments and write pictures.
    Demo {
        /// Folder for the pictures.
        #[arg(short, long, default_value = "out/demo")]
        output: PathBuf,
    },
}

/// Options shared by the scenario runners.
#[derive(clap::Args)]
struct RunOptions {
    /// Which planner answers the queries.
    #[arg(long, value_enum, default_value_t = PlannerKind::Ecm)]
    planner: PlannerKind,
    /// Character radius (zero or more).
    #[arg(long, default_value_t = 0.0, value_parser = args::parse_distance, allow_negative_numbers = true)]
    radius: f64,
    /// Print one JSON object (fields: set, solved, failed, failures, ratio{mean,p50,p99,max},
    /// longer_than_optimum, shorter_than_optimum, query_ms{p50,p99}, build_ms).
    #[arg(long)]
    json: bool,
}

impl Command {
    /// Whether the command was asked for JSON output (errors then are JSON too).
    fn json(&self) -> bool {
        match self {
            Command::Info { json, .. }
            | Command::Build { json, .. }
            | Command::Path { json, .. }
            | Command::Asfv { json, .. }
            | Command::Update { json, .. }
            | Command::Soak { json, .. }
            | Command::Simulate { json, .. }
            | Command::Visibility { json, .. } => *json,
            Command::Scen { run, .. }
            | Command::Anyangle { run, .. }
            | Command::Meshscen { run, .. } => run.json,
            Command::Render { .. } | Command::Convert { .. } | Command::Demo { .. } => false,
            Command::Serve { .. } => false,
        }
    }
}

fn main() -> ExitCode {
    quiet_on_closed_stdout();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(error),
    };
    progress::set_quiet(cli.quiet);
    environment_arg::set_pinch(cli.pinch);
    let json = cli.command.json();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            if json {
                let value = serde_json::json!({ "error": error.to_string(), "kind": error.kind() });
                eprintln!("{value}");
            } else {
                eprintln!("error: {error}");
            }
            ExitCode::FAILURE
        }
    }
}

/// A reader that stops early (`corridor info --ids FILE | head`) closes stdout; the
/// next `println!` then panics. Leave quietly instead, as Unix tools do.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to stdout") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// A command line clap refuses: its own message (exit 2), or with `--json` among the
/// arguments one JSON object of kind `usage`; help and version print as usual (exit 0).
fn usage_error(error: clap::Error) -> ExitCode {
    let code = u8::try_from(error.exit_code()).unwrap_or(2);
    let wants_json = std::env::args().any(|a| a == "--json");
    if wants_json && error.use_stderr() {
        let text = error.to_string();
        let first = text.lines().next().unwrap_or_default();
        let message = first.strip_prefix("error: ").unwrap_or(first);
        eprintln!(
            "{}",
            serde_json::json!({ "error": message, "kind": "usage" })
        );
    } else {
        let _ = error.print();
    }
    ExitCode::from(code)
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Info { file, json, .. } if layered::is_layered(&file) => {
            layered::info(&file, json)
        }
        Command::Render {
            file, output, iso, ..
        } if layered::is_layered(&file) => layered::render(&file, &output, iso),
        Command::Convert { file, output } if layered::is_layered(&file) => {
            layered::convert(&file, &output)
        }
        Command::Build {
            file,
            svg,
            save,
            json,
            ..
        } if layered::is_layered(&file) => match save {
            Some(_) => Err(layered::refuse("--save")),
            None => layered::build(&file, svg.as_deref(), json),
        },
        Command::Path {
            file,
            from,
            to,
            radius,
            svg,
            json,
            from_layer,
            to_layer,
            geojson,
            iso,
            ..
        } if layered::is_layered(&file) => match geojson {
            Some(_) => Err(layered::refuse("--geojson")),
            None => layered::path(&layered::PathArgs {
                file: &file,
                from: (from, from_layer),
                to: (to, to_layer),
                radius,
                svg: svg.as_deref(),
                json,
                iso,
            }),
        },
        Command::Render { iso: true, .. } | Command::Path { iso: true, .. } => {
            Err(CliError::Usage(
                "--iso draws layered maps only (builtin:layers, .obj, layered .json)".into(),
            ))
        }
        Command::Info { file, ids, json } => info::run(&file, json, ids),
        Command::Render {
            file, output, ids, ..
        } => info::render(&file, &output, ids),
        Command::Convert { file, output } => info::convert(&file, &output),
        Command::Demo { output } => demo::run(&output),
        Command::Serve { files, port, open } => serve::run(&files, port, open),
        Command::Visibility {
            file,
            from,
            batch,
            svg,
            json,
            range,
            fov,
            dir,
            layer,
        } => {
            let args = visibility::VisibilityArgs {
                file: &file,
                from,
                batch: batch.as_deref(),
                layer,
                svg: svg.as_deref(),
                json,
                limits: visibility::limits(range, fov, dir),
            };
            if layered::is_layered(&file) {
                visibility_layered::run(&args)
            } else {
                visibility::run(&args)
            }
        }
        Command::Soak {
            ops,
            seed,
            json,
            dump,
            replay,
        } => {
            if replay.is_empty() {
                soak::run(ops, seed, json, dump.as_deref())
            } else {
                soak::replay(&replay)
            }
        }
        Command::Update {
            file,
            insert,
            remove,
            svg,
            save,
            json,
        } => update::run(&update::UpdateArgs {
            file: &file,
            inserts: &insert,
            removes: &remove,
            svg: svg.as_deref(),
            save: &save,
            json,
        }),
        Command::Simulate {
            scenario,
            agents,
            steps,
            threads,
            straight,
            svg,
            csv,
            json,
        } => simulate::run(&simulate::SimulateArgs {
            scenario: &scenario,
            agents,
            steps,
            threads,
            straight,
            svg: svg.as_deref(),
            csv: csv.as_deref(),
            json,
        }),
        Command::Asfv { file, svg, json } => asfv::run(&file, svg.as_deref(), json),
        Command::Scen { map, scen, run } => {
            scenarios::scen(&map, &scen, run.planner, run.radius, run.json)
        }
        Command::Anyangle { dir, run } => {
            scenarios::anyangle(&dir, run.planner, run.radius, run.json)
        }
        Command::Meshscen { mesh, csv, run } => {
            scenarios::meshscen(&mesh, &csv, run.planner, run.radius, run.json)
        }
        Command::Build {
            file,
            svg,
            save,
            json,
            threads,
            max_wall_pieces,
            tiles,
        } => ecm::build(
            &file,
            svg.as_deref(),
            save.as_deref(),
            json,
            threads,
            max_wall_pieces,
            tiles,
        ),
        Command::Path {
            file,
            from,
            to,
            radius,
            clearance,
            route,
            svg,
            geojson,
            json,
            planner,
            ..
        } => path::run(&path::PathArgs {
            file: &file,
            query: corridor_ecm::PathQuery::new(from, to)
                .with_radius(radius)
                .with_preferred_clearance(path::preferred_clearance(radius, clearance)?),
            planner,
            route,
            svg: svg.as_deref(),
            geojson: geojson.as_deref(),
            json,
        }),
    }
}
