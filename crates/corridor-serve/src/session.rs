//! One client's conversation: what a connection remembers between messages (its crowd,
//! the environment whose updates it hears) and the answer to each message. The socket
//! ([`crate::socket`]) carries it; tests can talk to it directly.

use crate::app::App;
use crate::crowd::{CrowdCheck, CrowdRun, CrowdSpec};
use crate::protocol::{self, Request, ServeError};
use crate::view;
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::OwnedSemaphorePermit;

/// Numbers the sessions (so that an update's author is not told twice).
static NEXT_SESSION: AtomicU64 = AtomicU64::new(1);

/// One client's state.
pub struct Session {
    app: Arc<App>,
    origin: u64,
    /// The environment whose updates this client hears (the last one it asked a map of).
    pub(crate) watching: Option<String>,
    /// The crowd this client runs, with its place among the server's crowds.
    crowd: Option<(CrowdRun, OwnedSemaphorePermit)>,
}

impl Session {
    /// A new client of `app`.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let app = std::sync::Arc::new(corridor_serve::App::new(vec![]));
    /// let mut session = corridor_serve::Session::new(app);
    /// let answer = session.handle(r#"{"type": "crowd_goal", "id": 1}"#).await;
    /// assert!(answer.contains("\"kind\":\"unsupported\"")); // no crowd yet
    /// # }
    /// ```
    pub fn new(app: Arc<App>) -> Session {
        Session {
            app,
            origin: NEXT_SESSION.fetch_add(1, Ordering::Relaxed),
            watching: None,
            crowd: None,
        }
    }

    /// This session's number (the `origin` of the updates it makes).
    pub fn origin(&self) -> u64 {
        self.origin
    }

    /// Answers one message with one message.
    pub async fn handle(&mut self, text: &str) -> String {
        let (id, request) = protocol::parse(text);
        match request {
            Ok(Request::CrowdStart {
                env,
                count,
                radius,
                clearance,
                wander,
            }) => {
                let spec = CrowdSpec {
                    count,
                    radius,
                    clearance,
                    wander,
                };
                reply(id, self_start(self, &env, spec).await)
            }
            Ok(Request::CrowdGoal { goal }) => {
                let answer = match &self.crowd {
                    Some((run, _)) => run
                        .set_goal(goal)
                        .await
                        .map(|count| json!({"type": "crowd_goal", "count": count})),
                    None => Err(no_crowd()),
                };
                reply(id, answer)
            }
            Ok(Request::CrowdStop) => {
                let was = self.crowd.take().is_some();
                reply(id, Ok(json!({"type": "crowd_stopped", "was_running": was})))
            }
            other => {
                if let Ok(Request::Map { env }) = &other {
                    self.watching = Some(env.clone());
                }
                self.app.respond(id, other, self.origin).await
            }
        }
    }

    /// The next crowd frame (waits until the crowd has stepped; never returns when no
    /// crowd runs).
    pub async fn next_frame(&mut self) -> Arc<str> {
        if let Some((run, _)) = &mut self.crowd {
            if run.frames.changed().await.is_ok() {
                return run.frames.borrow_and_update().clone();
            }
        }
        std::future::pending().await
    }

    /// The crowd's map and characters, for checks.
    pub async fn crowd_check(&self) -> Result<CrowdCheck, ServeError> {
        match &self.crowd {
            Some((run, _)) => run.check().await,
            None => Err(no_crowd()),
        }
    }

    /// The app this session talks to.
    pub fn app(&self) -> &Arc<App> {
        &self.app
    }
}

/// Starts (or restarts) a session's crowd.
async fn self_start(
    session: &mut Session,
    env: &str,
    spec: CrowdSpec,
) -> Result<serde_json::Value, ServeError> {
    // The old crowd stops first (and frees its place).
    session.crowd = None;
    let world = session.app.world(env).await?;
    let permit = session
        .app
        .crowds
        .clone()
        .try_acquire_owned()
        .map_err(|_| {
            ServeError::TooLarge(format!(
                "{} crowds run already (the server's limit)",
                crate::app::MAX_CROWDS
            ))
        })?;
    let (run, placed) = CrowdRun::start(env, world, session.app.subscribe(), spec).await?;
    session.crowd = Some((run, permit));
    Ok(json!({
        "type": "crowd_started",
        "env": env,
        "count": placed,
        "asked": spec.count,
        "max": protocol::MAX_CROWD,
        "frame_ms": crate::crowd::FRAME.as_secs_f64() * 1e3,
    }))
}

/// The message answering a request.
fn reply(id: Option<u64>, answer: Result<serde_json::Value, ServeError>) -> String {
    match answer {
        Ok(v) => view::with_id(v, id).to_string(),
        Err(e) => view::error(id, &e).to_string(),
    }
}

fn no_crowd() -> ServeError {
    ServeError::Unsupported("no crowd runs on this connection (send crowd_start)".into())
}
