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
