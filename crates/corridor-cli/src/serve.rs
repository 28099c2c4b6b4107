//! `corridor serve`: the interactive demo in the browser (crate corridor-serve) on the
//! loopback address, with the given files listed before the built-in scenes (layered
//! ones, a layered JSON or an `.obj` level, before the built-in layered scene).

use crate::environment_arg::load_environment;
use crate::error::CliError;
use std::sync::Arc;

/// Loads the files, binds 127.0.0.1:`port` (0: any free port), prints the address and
/// serves until the process is stopped.
pub fn run(files: &[String], port: u16, open: bool) -> Result<(), CliError> {
    let (mut given, mut layered) = (Vec::new(), Vec::new());
    for file in files {
        let name = std::path::Path::new(file)
            .file_name()
            .map_or_else(|| file.clone(), |n| n.to_string_lossy().into_owned());
        if corridor_io::is_layered_map(file) {
            layered.push((name, corridor_io::load_layered(file)?));
        } else {
            given.push((name, load_environment(file, "corridor serve")?));
        }
    }
    let app = Arc::new(corridor_serve::App::new(given).with_layered(layered));
    let io = |source| CliError::Io {
        path: format!("127.0.0.1:{port}"),
        source,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(io)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .map_err(io)?;
        let url = format!("http://{}/", listener.local_addr().map_err(io)?);
        println!("corridor serve: {url}");
        if open {
            if let Err(e) = open::that_detached(&url) {
                eprintln!("could not open a browser ({e}); open {url} yourself");
            }
        }
        corridor_serve::serve(listener, app).await.map_err(io)
    })
}
