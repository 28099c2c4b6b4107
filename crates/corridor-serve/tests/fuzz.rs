//! Message fuzzing: random and mutated valid messages never panic the server, every one
//! gets exactly one answer (a JSON object with a type; errors with a kind), and the
//! shared maps stay correct: afterwards each equals a full rebuild of its environment
//! (corridor-ecm's canonical comparison). `FUZZ_MESSAGES` sets the count (default
//! 10,000, a CI-sized run).

use corridor_ecm::Ecm;
use corridor_serve::{App, Session};
use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::sync::Arc;
use tokio_tungstenite::tungstenite::Message;

/// The environments the fuzzer targets (small ones: updates there take milliseconds).
const ENVS: [&str; 3] = ["empty", "military", "dungeon"];

/// A one-floor Recast-style level: a 10 × 10 floor of two upward triangles (y up).
const FLOOR_OBJ: &str = "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\nf 1 3 2\nf 1 4 3\n";

/// A small layered scene as a layered JSON file: a hall and a landing joined by a
/// doorway (its planner measures a few hundred sample pairs).
fn layered_file() -> String {
    use corridor_geom::{Environment, HeightPlane, Layer, LayeredEnvironment, Point, Segment};
    let mut world = LayeredEnvironment::new();
    let room = |x: f64, z: f64| {
        Layer::new(
            "room",
            Environment::rectangle(Point::new(x, 0.0), Point::new(x + 8.0, 6.0)),
            HeightPlane::flat(z),
        )
    };
    let hall = world.add_layer(room(0.0, 0.0));
    let landing = world.add_layer(room(8.0, 1.0));
    world
        .connect(
            hall,
            landing,
            Segment::new(Point::new(8.0, 2.0), Point::new(8.0, 4.0)),
        )
        .unwrap();
    corridor_io::write_layered_json(&world).unwrap()
}

/// An upload of a layered file (a layered JSON or an OBJ level), its text mutated now
/// and then (the envelope's mutations come on top, in [`message`]).
fn layered_upload(rng: &mut ChaCha8Rng, id: u64) -> Value {
    let (name, text) = if rng.random_bool(0.5) {
        ("t.json", layered_file())
    } else {
        ("t.obj", FLOOR_OBJ.to_owned())
    };
    let text = if rng.random_bool(0.3) {
        mutate(rng, &text)
    } else {
        text
    };
    json!({"type": "upload", "id": id, "name": name, "text": text})
}

fn number(rng: &mut ChaCha8Rng) -> Value {
    match rng.random_range(0..10) {
        0 => json!(-1.0),
        1 => json!(1e300),
        2 => json!(0),
        3 => json!("NaN"),
        4 => json!(null),
        5 => json!(-1e-9),
        _ => json!(rng.random_range(-10.0..210.0)),
    }
}

fn point(rng: &mut ChaCha8Rng) -> Value {
    if rng.random_bool(0.9) {
        json!([rng.random_range(0.0..200.0), rng.random_range(0.0..200.0)])
    } else {
        json!([number(rng), number(rng)])
    }
}

/// A polygon: often a small valid one, sometimes self-intersecting, degenerate, huge
/// or outside the map.
fn polygon(rng: &mut ChaCha8Rng) -> Value {
    let c = [rng.random_range(5.0..195.0), rng.random_range(5.0..195.0)];
    let s = rng.random_range(0.5..6.0);
    let square = |c: [f64; 2]| {
        json!([
            [c[0], c[1]],
            [c[0] + s, c[1]],
            [c[0] + s, c[1] + s],
            [c[0], c[1] + s]
        ])
    };
    match rng.random_range(0..8) {
        0 => json!([
            [c[0], c[1]],
            [c[0] + s, c[1] + s],
            [c[0] + s, c[1]],
            [c[0], c[1] + s]
        ]), // a bow tie
        1 => json!([[c[0], c[1]], [c[0] + s, c[1]]]),
        2 => json!((0..5000)
            .map(|i| {
                let a = i as f64 / 5000.0 * std::f64::consts::TAU;
                [c[0] + s * a.cos(), c[1] + s * a.sin()]
            })
            .collect::<Vec<_>>()),
        3 => json!([[-500.0, -500.0], [900.0, -500.0], [900.0, 900.0]]),
        _ => square(c),
    }
}

fn obstacle(rng: &mut ChaCha8Rng) -> Value {
    match rng.random_range(0..6) {
        0 => json!({"point": point(rng)}),
        1 => json!({"polyline": [point(rng), point(rng)]}),
        _ => json!({"polygon": polygon(rng)}),
    }
}

fn change(rng: &mut ChaCha8Rng) -> Value {
    let id = if rng.random_bool(0.8) {
        rng.random_range(0..40)
    } else {
        rng.random_range(0..100_000)
    };
    match rng.random_range(0..5) {
        0 => json!({"insert": obstacle(rng)}),
        1 => json!({"remove": id}),
        2 => json!({"move": {"id": id, "obstacle": obstacle(rng)}}),
        3 => {
            json!({"translate": {"id": id, "offset": [rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)]}})
        }
        _ => json!({"close_door": point(rng)}),
    }
}

/// A valid-looking message of the crowd, visibility and layered kinds.
fn valid_view(rng: &mut ChaCha8Rng, id: u64, env: &str) -> Value {
    match rng.random_range(0..9) {
        // Crowds are started rarely (each steps in the background while the fuzz runs).
        0 if rng.random_bool(0.1) => {
            json!({"type": "crowd_start", "id": id, "env": env, "count": rng.random_range(1..30),
                   "radius": if rng.random_bool(0.8) { json!(rng.random_range(0.3..3.0)) } else { number(rng) },
                   "wander": rng.random::<bool>()})
        }
        0 | 1 => {
            let goal = if rng.random_bool(0.5) {
                point(rng)
            } else {
                json!(null)
            };
            json!({"type": "crowd_goal", "id": id, "goal": goal})
        }
        2 if rng.random_bool(0.2) => json!({"type": "crowd_stop", "id": id}),
        3 | 4 => {
            json!({"type": "visibility", "id": id, "env": env, "at": point(rng), "range": number(rng),
                   "fov": number(rng), "dir": point(rng)})
        }
        5 if rng.random_bool(0.5) => {
            let env = *["t.json", "t.obj", "t.json (2)"].choose(rng).unwrap();
            let mut p = || json!([rng.random_range(0.0..16.0), rng.random_range(0.0..10.0)]);
            let (from, to) = (p(), p());
            json!({"type": "layered_path", "id": id, "env": env, "from_layer": rng.random_range(0..2),
                   "from": from, "to_layer": rng.random_range(0..2), "to": to,
                   "radius": *[0.0, 0.25, 0.5].choose(rng).unwrap(), "clearance": number(rng)})
        }
        5 => json!({"type": "map", "id": id, "env": "layers"}),
        6 => {
            json!({"type": "visibility", "id": id, "env": "layers", "at": point(rng), "layer": rng.random_range(0..5)})
        }
        7 => {
            json!({"type": "random_point", "id": id, "env": "layers", "radius": rng.random_range(0.0..2.0), "layer": rng.random_range(0..5)})
        }
        _ => {
            let mut p = || json!([rng.random_range(0.0..40.0), rng.random_range(0.0..20.0)]);
            let (from, to) = (p(), p());
            json!({"type": "layered_path", "id": id, "env": "layers", "from_layer": rng.random_range(0..5),
                   "from": from, "to_layer": rng.random_range(0..5), "to": to, "radius": *[0.0, 0.25, 0.5].choose(rng).unwrap()})
        }
    }
}

/// A valid-looking message of every type.
fn valid(rng: &mut ChaCha8Rng, id: u64) -> Value {
    let env = *ENVS.choose(rng).unwrap();
    match rng.random_range(0..15) {
        12..=14 => valid_view(rng, id, env),
        0 => json!({"type": "list", "id": id}),
        1 => json!({"type": "map", "id": id, "env": env}),
        2 => {
            json!({"type": "random_point", "id": id, "env": env, "radius": rng.random_range(0.0..3.0)})
        }
        3..=5 => {
            let n = rng.random_range(1..3);
            json!({"type": "update", "id": id, "env": env, "changes": (0..n).map(|_| change(rng)).collect::<Vec<_>>()})
        }
        6 if rng.random_bool(0.3) => layered_upload(rng, id),
        6 => {
            json!({"type": "upload", "id": id, "name": "t.map", "text": "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n"})
        }
        _ => json!({"type": "path", "id": id, "env": env, "from": point(rng), "to": point(rng),
                    "radius": rng.random_range(0.0..2.0), "clearance": rng.random_range(0.0..4.0)}),
    }
}

/// A random JSON value of bounded depth.
fn random_value(rng: &mut ChaCha8Rng, depth: u32) -> Value {
    match rng.random_range(0..if depth > 2 { 4 } else { 6 }) {
        0 => json!(null),
        1 => json!(rng.random::<bool>()),
        2 => number(rng),
        3 => json!([
            "list",
            "map",
            "path",
            "update",
            "x",
            "",
            "type",
            "crowd_start",
            "visibility",
            "layered_path"
        ]
        .choose(rng)
        .unwrap()),
        4 => Value::Array(
            (0..rng.random_range(0..4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => {
            let keys = [
                "type", "env", "id", "from", "to", "radius", "changes", "text", "name", "count",
                "goal", "at", "layer", "fov",
            ];
            Value::Object(
                (0..rng.random_range(0..5))
                    .map(|_| {
                        (
                            keys.choose(rng).unwrap().to_string(),
                            random_value(rng, depth + 1),
                        )
                    })
                    .collect(),
            )
        }
    }
}

/// A byte-level mutation of a text (kept valid UTF-8 by working on chars).
fn mutate(rng: &mut ChaCha8Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..4) {
        if chars.is_empty() {
            break;
        }
        let i = rng.random_range(0..chars.len());
        let noise = [
            '{', '}', '[', ']', '"', ',', ':', '-', 'e', '9', '0', '.', ' ', 'N', '\u{e9}',
        ];
        match rng.random_range(0..4) {
            0 => {
                chars.remove(i);
            }
            1 => chars.insert(i, *noise.choose(rng).unwrap()),
            2 => chars[i] = *noise.choose(rng).unwrap(),
            _ => chars.truncate(i),
        }
    }
    chars.into_iter().collect()
}

fn message(rng: &mut ChaCha8Rng, id: u64) -> String {
    match rng.random_range(0..10) {
        0 => random_value(rng, 0).to_string(),
        1 => (0..rng.random_range(0..40))
            .map(|_| rng.random_range(' '..='~'))
            .collect(),
        2..=4 => {
            let text = valid(rng, id).to_string();
            mutate(rng, &text)
        }
        _ => valid(rng, id).to_string(),
    }
}

/// Checks one answer: a JSON object with a type, an error with a kind, the id echoed.
fn check_answer(sent: &str, answer: &str) {
    let v: Value = serde_json::from_str(answer)
        .unwrap_or_else(|e| panic!("answer is not JSON ({e}): {answer}"));
    let kind = v["type"]
        .as_str()
        .unwrap_or_else(|| panic!("answer without type: {answer}"));
    if kind == "error" {
        assert!(
            v["kind"].is_string() && v["message"].is_string(),
            "{answer}"
        );
        assert_ne!(
            v["kind"], "internal",
            "an internal error for {sent}: {answer}"
        );
    }
    if let Some(id) = serde_json::from_str::<Value>(sent)
        .ok()
        .and_then(|s| s.get("id").and_then(Value::as_u64))
    {
        assert_eq!(v["id"].as_u64(), Some(id), "{sent} -> {answer}");
    }
}

/// Every built map equals a full rebuild of its environment.
async fn assert_maps_are_rebuilds(app: &App) -> usize {
    let mut updated = 0;
    for name in app.names() {
        let world = app.world(&name).await.unwrap();
        let snapshot = world.snapshot();
        if snapshot.version == 0 {
            continue;
        }
        updated += 1;
        let rebuilt = Ecm::build(&snapshot.env).unwrap();
        assert_eq!(
            snapshot.ecm.canonical_diff(&rebuilt, 1e-6),
            None,
            "{name} after {} updates",
            snapshot.version
        );
    }
    updated
}

/// If the session runs a crowd: once it has caught up with the shared map, its map is
/// the shared map and equals a full rebuild.
async fn assert_crowd_follows_the_map(session: &mut Session, app: &App) -> bool {
    let Ok(first) = session.crowd_check().await else {
        return false;
    };
    let world = app.world(&first.env).await.unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        session.next_frame().await;
        let check = session.crowd_check().await.unwrap();
        let snapshot = world.snapshot();
        if check.version == snapshot.version {
            assert_eq!(check.map.environment(), &snapshot.env);
            let rebuilt = Ecm::build(&snapshot.env).unwrap();
            assert_eq!(check.map.ecm().canonical_diff(&rebuilt, 1e-6), None);
            return true;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the crowd never caught up"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzzed_messages_get_answers_and_leave_the_maps_correct() {
    let count: u64 = std::env::var("FUZZ_MESSAGES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let app = Arc::new(App::new(vec![]));
    let mut session = Session::new(app.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let (mut updates_ok, mut errors, mut layered_uploads) = (0, 0, 0);
    let mut answered = std::collections::BTreeMap::<String, usize>::new();
    for id in 0..count {
        let text = message(&mut rng, id);
        let answer = session.handle(&text).await;
        check_answer(&text, &answer);
        if answer.contains("\"type\":\"uploaded\"")
            && (text.contains("corridor-layered") || text.contains(".obj"))
        {
            layered_uploads += 1;
        }
        if answer.contains("\"type\":\"updated\"") {
            updates_ok += 1;
        } else if answer.contains("\"type\":\"error\"") {
            errors += 1;
        }
        let kind: Value = serde_json::from_str(&answer).unwrap();
        *answered
            .entry(kind["type"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    // A crowd on military while updates go on: it follows them.
    let start = json!({"type": "crowd_start", "env": "military", "count": 30, "radius": 1.0});
    check_answer(
        &start.to_string(),
        &session.handle(&start.to_string()).await,
    );
    for id in 0..30 {
        let n = rng.random_range(1..3);
        let update = json!({"type": "update", "id": id, "env": "military",
                            "changes": (0..n).map(|_| change(&mut rng)).collect::<Vec<_>>()});
        check_answer(
            &update.to_string(),
            &session.handle(&update.to_string()).await,
        );
    }
    let updated_maps = assert_maps_are_rebuilds(&app).await;
    // A crowd left running walks on the shared map as it is now (once it caught up).
    let crowd = assert_crowd_follows_the_map(&mut session, &app).await;
    // However many layered files were dropped, the server keeps a bounded number.
    let kept = app.uploaded_layered_count();
    assert!(
        kept <= corridor_serve::MAX_LAYERED_UPLOADS
            && layered_uploads > 2 * corridor_serve::MAX_LAYERED_UPLOADS,
        "{layered_uploads} layered uploads, {kept} kept"
    );
    println!("{count} messages: {updates_ok} updates applied, {errors} errors; {layered_uploads} layered uploads, {kept} kept; {updated_maps} maps checked against a rebuild; answers {answered:?}; crowd checked: {crowd}");
    for kind in [
        "visibility",
        "layered_path",
        "crowd_started",
        "crowd_goal",
        "point",
    ] {
        assert!(
            answered.get(kind).copied().unwrap_or(0) > 0,
            "no '{kind}' answer: {answered:?}"
        );
    }
    assert!(
        updates_ok > 100 && errors > count / 10,
        "the fuzzer reached both outcomes"
    );
    assert!(updated_maps >= 2);
    assert!(crowd, "the crowd was not checked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_socket_survives_garbage() {
    let app = Arc::new(App::new(vec![]));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    tokio::spawn(corridor_serve::serve(listener, app.clone()));
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for id in 0..300 {
        if id % 50 == 0 {
            ws.send(Message::Binary(vec![0xff, 0x00, 0x7b].into()))
                .await
                .unwrap();
            let answer = ws.next().await.unwrap().unwrap().into_text().unwrap();
            assert!(answer.contains("\"kind\":\"bad_request\""), "{answer}");
            continue;
        }
        let text = message(&mut rng, id);
        ws.send(Message::Text(text.clone().into())).await.unwrap();
        let answer = ws.next().await.unwrap().unwrap().into_text().unwrap();
        check_answer(&text, &answer);
    }
    // Still serving, on this connection and on a new one.
    ws.send(Message::Text(r#"{"type":"list","id":1}"#.into()))
        .await
        .unwrap();
    let answer = ws.next().await.unwrap().unwrap().into_text().unwrap();
    assert!(answer.contains("environments"));
    let (mut other, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    other
        .send(Message::Text(
            r#"{"type":"map","id":2,"env":"military"}"#.into(),
        ))
        .await
        .unwrap();
    let answer = other.next().await.unwrap().unwrap().into_text().unwrap();
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(
        (v["id"].as_u64(), v["type"].as_str()),
        (Some(2), Some("map"))
    );
    assert_maps_are_rebuilds(&app).await;
}
