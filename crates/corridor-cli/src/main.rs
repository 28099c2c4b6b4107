//! `corridor`: the command line of the Corridor navigation library.
//!
//! Every command takes an environment file (`.json`, `.geojson`, `.map`, `.mesh`, an
//! any-angle `maze.txt` or its folder) or a built-in scene as `builtin:NAME`
//! (`empty`, `military`, `dungeon`, `city`). Errors print one line and exit with 1.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod demo;
mod environment_arg;
mod info;

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
    /// Run the main job on the built-in environments and write pictures.
    Demo {
        /// Folder for the pictures.
        #[arg(short, long, default_value = "out/demo")]
        output: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info { file, json } => info::run(&file, json),
        Command::Render { file, output, ids } => info::render(&file, &output, ids),
        Command::Convert { file, output } => info::convert(&file, &output),
        Command::Demo { output } => demo::run(&output),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
