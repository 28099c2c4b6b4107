//! Corridor's interactive demo in the browser: `corridor serve`.
//!
//! An HTTP server on the loopback address that serves one page (HTML, JavaScript and CSS
//! embedded in the binary, no build step) and a WebSocket (`/ws`) of JSON messages,
//! described in docs/SERVE.md. The page shows the built-in scenes and dropped files with
//! their Explicit Corridor Maps, plans paths for a character of any radius and
//! preferred clearance (the SoCG 2016 demo), and changes the obstacles with local
//! updates of the ECM. Beyond it: a crowd simulated on the server and streamed frame by
//! frame, the visibility polygon under the cursor, and layered scenes floor by floor.
//!
//! Every environment has one shared map ([`World`]): path queries of all clients run at
//! once on its current read-only snapshot; updates are planned and applied off the async
//! threads, one at a time, and published as a new snapshot without making a reader wait.
//! Bad messages get an `error` message ([`ServeError`]); the connection stays open.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let app = std::sync::Arc::new(corridor_serve::App::new(vec![]));
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! println!("http://{}/", listener.local_addr()?);
//! corridor_serve::serve(listener, app).await
//! # }
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

mod app;
mod assets;
mod crowd;
mod layered;
mod protocol;
mod session;
mod socket;
mod upload;
mod view;
mod world;

pub use app::{App, Event, MAX_CROWDS, MAX_LAYERED_UPLOADS, MAX_UPLOADS};
pub use crowd::{CrowdCheck, CrowdSpec, FRAME};
pub use layered::LayeredScene;
pub use protocol::{
    parse, EditRequest, Request, ServeError, MAX_CHANGES, MAX_COORDINATE, MAX_CROWD,
    MAX_OBSTACLE_VERTICES, MAX_UPLOAD_BYTES, MAX_WALL_PIECES,
};
pub use session::Session;
pub use upload::{read_upload, Uploaded, MAX_CROSSING_PAIRS, MAX_LAYERS};
pub use world::{door_across, Snapshot, UpdateOutcome, UpdateTimes, World};

use axum::extract::{State, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

/// Largest WebSocket message accepted (an uploaded file plus its envelope).
const MAX_MESSAGE_BYTES: usize = protocol::MAX_UPLOAD_BYTES + (1 << 20);

/// The routes: the page's files and the WebSocket.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/views.js", get(assets::views))
        .route("/style.css", get(assets::style))
        .route("/ws", get(websocket))
        .with_state(app)
}

async fn websocket(ws: WebSocketUpgrade, State(app): State<Arc<App>>) -> Response {
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| socket::run(app, socket))
}

/// Serves the page and the WebSocket on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, app: Arc<App>) -> std::io::Result<()> {
    axum::serve(listener, router(app)).await
}
