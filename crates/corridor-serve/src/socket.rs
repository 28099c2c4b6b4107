//! One WebSocket connection: each text message gets one answer, in order; updates of
//! the environment the client last asked a map of are pushed to it as they happen.
//! Whatever arrives, the connection goes on until the client closes it.

use crate::app::App;
use axum::extract::ws::{Message, WebSocket};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// Numbers the connections (so that an update's author is not told twice).
static NEXT_CONNECTION: AtomicU64 = AtomicU64::new(1);

/// Serves one connection until it closes.
pub async fn run(app: Arc<App>, mut socket: WebSocket) {
    let origin = NEXT_CONNECTION.fetch_add(1, Ordering::Relaxed);
    let mut events = app.subscribe();
    // The environment whose updates this client hears (the last one it asked a map of).
    let mut watching: Option<String> = None;
    loop {
        tokio::select! {
            message = socket.recv() => {
                let Some(Ok(message)) = message else { return };
                let answer = match message {
                    Message::Text(text) => {
                        if let Some(env) = map_request_env(text.as_str()) {
                            watching = Some(env);
                        }
                        app.handle(text.as_str(), origin).await
                    }
                    Message::Binary(_) => serde_json::json!({
                        "type": "error", "id": null, "kind": "bad_request",
                        "message": "messages are JSON text, not binary",
                    })
                    .to_string(),
                    Message::Close(_) => return,
                    Message::Ping(_) | Message::Pong(_) => continue,
                };
                if socket.send(Message::Text(answer.into())).await.is_err() {
                    return;
                }
            }
            event = events.recv() => match event {
                Ok(event) => {
                    let mine = watching.as_deref() == Some(&*event.env);
                    if mine && event.origin != origin
                        && socket.send(Message::Text(event.text.to_string().into())).await.is_err()
                    {
                        return;
                    }
                }
                // A slow client missed some updates: it will see the version jump.
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            }
        }
    }
}

/// The environment a `map` request names, read loosely (a bad one gets its error from
/// the handler).
fn map_request_env(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    (v.get("type")?.as_str()? == "map").then(|| v.get("env")?.as_str().map(str::to_owned))?
}
