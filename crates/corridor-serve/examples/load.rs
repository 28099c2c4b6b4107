//! Load test of `corridor serve` on loopback: 32 clients issue path queries while one
//! client moves obstacles back and forth, for a bounded time; prints throughput, p50/p99
//! latencies, errors and the process's resident memory, then checks the shared map
//! against a full rebuild.
//!
//! `cargo run --release -p corridor-serve --example load -- [SECONDS=60] [ENV=military] [CLIENTS=32] [MOVES_PER_SECOND=20]`
//!
//! The mover sends one update at a time, at most MOVES_PER_SECOND (20: an obstacle
//! dragged on the page; 0: back to back, as fast as the server applies them).
//!
//! The server runs on its own 2-thread runtime, the clients on another; both in this
//! process, on 127.0.0.1 only. Exits with 1 on any transport error, malformed or
//! internal-error answer, or a map that differs from its rebuild.

use corridor_serve::App;
use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

#[derive(Default)]
struct Tally {
    latencies: Vec<f64>,
    /// For updates: the server's own times (plan + apply, publish), ms.
    server_ms: Vec<(f64, f64)>,
    ok: u64,
    no_path: u64,
    errors: Vec<String>,
}

/// Resident memory of this process (kB), from /proc.
fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// CPU time of this process so far (user + system), in seconds, from /proc.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which ends with ')'): utime and stime are 14 and 15.
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Sends one request and waits for its answer (skipping pushed `updated` messages).
async fn ask(ws: &mut Socket, request: &Value) -> Result<Value, String> {
    ws.send(Message::Text(request.to_string().into()))
        .await
        .map_err(|e| e.to_string())?;
    loop {
        let message = ws
            .next()
            .await
            .ok_or("closed")?
            .map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(message.to_text().map_err(|e| e.to_string())?)
            .map_err(|e| format!("malformed answer: {e}"))?;
        if v["id"] == request["id"] {
            return Ok(v);
        }
    }
}

/// Classifies an answer: Ok(true) a path, Ok(false) a legitimate "no path" (an end
/// covered by a moved obstacle), Err a failure.
fn classify(answer: &Value, expected: &str) -> Result<bool, String> {
    match answer["type"].as_str() {
        Some(t) if t == expected => Ok(true),
        Some("error") if ["no_path", "query"].contains(&answer["kind"].as_str().unwrap_or("")) => {
            Ok(false)
        }
        _ => Err(answer.to_string()),
    }
}

async fn query_client(
    url: String,
    env: String,
    points: Arc<Vec<[f64; 2]>>,
    seed: u64,
    stop: Arc<AtomicBool>,
) -> Tally {
    let mut tally = Tally::default();
    let (mut ws, _) = match tokio_tungstenite::connect_async(&url).await {
        Ok(c) => c,
        Err(e) => {
            tally.errors.push(e.to_string());
            return tally;
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut id = 0u64;
    while !stop.load(Ordering::Relaxed) {
        id += 1;
        let (a, b) = (
            points[rng.random_range(0..points.len())],
            points[rng.random_range(0..points.len())],
        );
        let request = json!({"type": "path", "id": id, "env": env, "from": a, "to": b, "radius": 0.5, "clearance": 1.5});
        let start = Instant::now();
        let answer = ask(&mut ws, &request).await;
        if let Some(ms) = answer.as_ref().ok().and_then(|v| v["ms"].as_f64()) {
            tally.server_ms.push((ms, 0.0));
        }
        match answer.and_then(|v| classify(&v, "path")) {
            Ok(true) => tally.ok += 1,
            Ok(false) => tally.no_path += 1,
            Err(e) => tally.errors.push(e),
        }
        tally.latencies.push(start.elapsed().as_secs_f64() * 1e3);
    }
    tally
}

async fn mover(
    url: String,
    env: String,
    ids: Vec<u64>,
    rate: f64,
    stop: Arc<AtomicBool>,
) -> (Tally, u64) {
    let mut ticks =
        (rate > 0.0).then(|| tokio::time::interval(Duration::from_secs_f64(1.0 / rate)));
    let mut tally = Tally::default();
    let (mut ws, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("connect");
    let (mut id, mut refused) = (0u64, 0u64);
    while !stop.load(Ordering::Relaxed) {
        // Each obstacle goes 1 unit east and back: the map returns to where it started.
        for sign in [1.0, -1.0] {
            if let Some(ticks) = &mut ticks {
                ticks.tick().await;
            }
            let obstacle = ids[(id as usize / 2) % ids.len()];
            id += 1;
            let request = json!({"type": "update", "id": id, "env": env,
                                 "changes": [{"translate": {"id": obstacle, "offset": [sign, 0.0]}}]});
            let start = Instant::now();
            match ask(&mut ws, &request).await {
                Ok(v) if v["type"] == "updated" => {
                    tally.ok += 1;
                    let ms = |k: &str| v["ms"][k].as_f64().unwrap_or(f64::NAN);
                    tally
                        .server_ms
                        .push((ms("plan") + ms("apply"), ms("publish")));
                }
                // A move into another obstacle's way may be refused; it is an answer.
                Ok(v) if v["type"] == "error" && v["kind"] != "internal" => refused += 1,
                Ok(v) => tally.errors.push(v.to_string()),
                Err(e) => tally.errors.push(e),
            }
            tally.latencies.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    (tally, refused)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(60.0);
    let env = args.get(1).cloned().unwrap_or_else(|| "military".into());
    let clients: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(32);
    let rate: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20.0);

    let app = Arc::new(App::new(vec![]));
    let server = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let listener = server
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    server.spawn(corridor_serve::serve(listener, app.clone()));

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // Query points: free points with room for the character, and the obstacles to move.
    let world = runtime.block_on(app.world(&env)).expect("environment");
    let snapshot = world.snapshot();
    let bounds = snapshot.env.bounds();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut points = Vec::new();
    while points.len() < 500 {
        let p = corridor_geom::Point::new(
            rng.random_range(bounds.min.x..bounds.max.x),
            rng.random_range(bounds.min.y..bounds.max.y),
        );
        if snapshot.ecm.clearance(p).is_ok_and(|c| c >= 1.0) {
            points.push([p.x, p.y]);
        }
    }
    let movable: Vec<u64> = snapshot
        .env
        .obstacles()
        .filter(|(_, o)| {
            matches!(o, corridor_geom::Obstacle::Polygon(_))
                && o.aabb().is_some_and(|b| b.size().max_element() < 25.0)
        })
        .map(|(id, _)| id.0 as u64)
        .take(8)
        .collect();
    let points = Arc::new(points);
    let rss_start = rss_kb();
    let stop = Arc::new(AtomicBool::new(false));

    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let (tallies, (moves, refused), rss_max) = runtime.block_on(async {
        let mut handles = Vec::new();
        for k in 0..clients {
            handles.push(tokio::spawn(query_client(
                url.clone(),
                env.clone(),
                points.clone(),
                k,
                stop.clone(),
            )));
        }
        let mover = tokio::spawn(mover(
            url.clone(),
            env.clone(),
            movable.clone(),
            rate,
            stop.clone(),
        ));
        let mut rss_max = rss_kb();
        let deadline = Instant::now() + Duration::from_secs_f64(seconds);
        let mut samples = Vec::new();
        let mut tick = 0u64;
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(500)).await;
            rss_max = rss_max.max(rss_kb());
            tick += 1;
            if tick.is_multiple_of(20) {
                samples.push(rss_kb() / 1024);
            }
        }
        println!("  resident memory every 10 s (MB): {samples:?}");
        stop.store(true, Ordering::Relaxed);
        let mut tallies = Vec::new();
        for h in handles {
            tallies.push(h.await.expect("a client panicked"));
        }
        (tallies, mover.await.expect("the mover panicked"), rss_max)
    });
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_start;

    let mut latencies: Vec<f64> = tallies
        .iter()
        .flat_map(|t| t.latencies.iter().copied())
        .collect();
    latencies.sort_by(f64::total_cmp);
    let ok: u64 = tallies.iter().map(|t| t.ok).sum();
    let no_path: u64 = tallies.iter().map(|t| t.no_path).sum();
    let errors: Vec<&String> = tallies
        .iter()
        .flat_map(|t| &t.errors)
        .chain(&moves.errors)
        .collect();
    let mut plan_ms: Vec<f64> = tallies
        .iter()
        .flat_map(|t| t.server_ms.iter().map(|m| m.0))
        .collect();
    plan_ms.sort_by(f64::total_cmp);
    let mut update_ms = moves.latencies.clone();
    update_ms.sort_by(f64::total_cmp);
    let mut work: Vec<f64> = moves.server_ms.iter().map(|m| m.0).collect();
    let mut publish: Vec<f64> = moves.server_ms.iter().map(|m| m.1).collect();
    work.sort_by(f64::total_cmp);
    publish.sort_by(f64::total_cmp);
    let final_snapshot = world.snapshot();
    let rebuilt = corridor_ecm::Ecm::build(&final_snapshot.env).expect("rebuild");
    let diff = final_snapshot.ecm.canonical_diff(&rebuilt, 1e-6);

    let pace = if rate > 0.0 {
        format!("at most {rate} moves/s")
    } else {
        "moves back to back".into()
    };
    println!("load test on '{env}': {clients} query clients + 1 mover ({pace}), {elapsed:.1} s, loopback");
    println!(
        "  path queries: {} ({ok} paths, {no_path} no-path answers), {:.0} per second, latency p50 {:.3} ms, p99 {:.3} ms",
        latencies.len(),
        latencies.len() as f64 / elapsed,
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99)
    );
    println!(
        "  planning time on the server: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        percentile(&plan_ms, 0.5),
        percentile(&plan_ms, 0.99),
        plan_ms.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "  updates: {} applied ({refused} refused), {:.1} per second, latency p50 {:.3} ms, p99 {:.3} ms; map version {}",
        moves.ok,
        moves.ok as f64 / elapsed,
        percentile(&update_ms, 0.5),
        percentile(&update_ms, 0.99),
        final_snapshot.version
    );
    println!(
        "  on the server: plan + apply p50 {:.3} ms, publish (copy of the snapshot) p50 {:.3} ms",
        percentile(&work, 0.5),
        percentile(&publish, 0.5)
    );
    println!(
        "  CPU time of the process (server and clients): {cpu:.1} s, {:.2} ms per request",
        cpu * 1e3 / (latencies.len() as f64 + update_ms.len() as f64)
    );
    println!(
        "  errors: {}; resident memory: {} MB at start, {} MB at most, {} MB at the end",
        errors.len(),
        rss_start / 1024,
        rss_max / 1024,
        rss_kb() / 1024
    );
    println!(
        "  map equals a full rebuild: {}",
        if diff.is_none() { "yes" } else { "NO" }
    );
    for e in errors.iter().take(5) {
        println!("  error: {e}");
    }
    if !errors.is_empty() || diff.is_some() {
        std::process::exit(1);
    }
}
