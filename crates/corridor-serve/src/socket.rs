//! One WebSocket connection: each text message gets one answer, in order; updates of
//! the environment the client last asked a map of are pushed to it as they happen, and
//! so are its crowd's frames (the newest only: a slow client skips frames). Whatever
//! arrives, the connection goes on until the client closes it.

use crate::app::App;
use crate::session::Session;
use axum::extract::ws::{Message, WebSocket};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// Serves one connection until it closes.
pub async fn run(app: Arc<App>, mut socket: WebSocket) {
    let mut events = app.subscribe();
    let mut session = Session::new(app);
    loop {
        tokio::select! {
            message = socket.recv() => {
                let Some(Ok(message)) = message else { return };
                let answer = match message {
                    Message::Text(text) => session.handle(text.as_str()).await,
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
            frame = session.next_frame() => {
                if socket.send(Message::Text(frame.to_string().into())).await.is_err() {
                    return;
                }
            }
            event = events.recv() => match event {
                Ok(event) => {
                    let mine = session.watching.as_deref() == Some(&*event.env);
                    if mine && event.origin != session.origin()
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
