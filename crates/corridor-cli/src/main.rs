//! `corridor`: the command line of the Corridor navigation library.
//!
//! Every command takes an environment file (`.json`, `.geojson`, `.map`, `.mesh`, an
//! any-angle `maze.txt` or its folder) or a built-in scene as `builtin:NAME`
//! (`empty`, `military`, `dungeon`, `city`). Errors print one line and exit with 1.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod asfv;
mod demo;
mod draw;
mod ecm;
mod environment_arg;
mod info;
mod roadmaps;
mod scenarios;
mod soak;
mod update;

/// Navigation on Explicit Corridor Maps for worlds whose obstacles move.
#[derive(Parser)]
#[command(name = "corridor", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print counts, bounds and the validation result of an environment.
    Info {
        /// Environment file or builtin:NAME.
        file: String,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Draw an environment as SVG.
    Render {
        /// Environment file or builtin:NAME.
        file: String,
        /// Output SVG file.
        #[arg(short, long)]
        output: PathBuf,
        /// Label every obstacle with its id.
        #[arg(long)]
        ids: bool,
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
        /// Environment file or builtin:NAME.
        file: String,
        /// Write a picture of the ECM.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Save the ECM (compact binary).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Plan a path for a disk-shaped character.
    Path {
        /// Environment file or builtin:NAME.
        file: String,
        /// Start, as x,y.
        #[arg(long, value_parser = ecm::parse_point, allow_hyphen_values = true)]
        from: corridor_geom::Point,
        /// Goal, as x,y.
        #[arg(long, value_parser = ecm::parse_point, allow_hyphen_values = true)]
        to: corridor_geom::Point,
        /// Character radius.
        #[arg(long, default_value_t = 0.0)]
        radius: f64,
        /// Preferred clearance of the indicative route.
        #[arg(long, default_value_t = 0.0)]
        clearance: f64,
        /// Write a picture.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Which planner answers the query.
        #[arg(long, value_enum, default_value_t = scenarios::PlannerKind::Ecm)]
        planner: scenarios::PlannerKind,
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
    /// Plan every Moving AI scenario of a map and compare with the octile optima.
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
        /// Id of an obstacle to remove, as printed by `corridor render --ids`; repeatable.
        #[arg(long, value_name = "ID", value_parser = update::parse_id)]
        remove: Vec<corridor_geom::ObstacleId>,
        /// Write a picture of the updated ECM, inserted obstacles green, removed ones red.
        #[arg(long)]
        svg: Option<PathBuf>,
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
    #[arg(long, value_enum, default_value_t = scenarios::PlannerKind::Ecm)]
    planner: scenarios::PlannerKind,
    /// Character radius.
    #[arg(long, default_value_t = 0.0)]
    radius: f64,
    /// Print one JSON object (fields: set, solved, failed, failures, ratio{mean,p50,p99,max},
    /// longer_than_optimum, shorter_than_optimum, query_ms{p50,p99}, build_ms).
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info { file, json } => info::run(&file, json),
        Command::Render { file, output, ids } => info::render(&file, &output, ids),
        Command::Convert { file, output } => info::convert(&file, &output),
        Command::Demo { output } => demo::run(&output),
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
            json,
        } => update::run(&file, &insert, &remove, svg.as_deref(), json),
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
        } => ecm::build(&file, svg.as_deref(), save.as_deref(), json),
        Command::Path {
            file,
            from,
            to,
            radius,
            clearance,
            svg,
            json,
            planner,
        } => match planner {
            scenarios::PlannerKind::Ecm => {
                let query = corridor_ecm::PathQuery::new(from, to)
                    .with_radius(radius)
                    .with_preferred_clearance(clearance.max(radius));
                ecm::path(&file, query, svg.as_deref(), json)
            }
            scenarios::PlannerKind::Asfv => {
                asfv::path(&file, from, to, radius, svg.as_deref(), json)
            }
            kind => roadmaps::path(&file, kind, from, to, radius, svg.as_deref(), json),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
