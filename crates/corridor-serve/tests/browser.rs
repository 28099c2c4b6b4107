//! The end-to-end test of the demo page in headless Chromium, driven through WebDriver
//! (chromedriver + fantoccini). Ignored by default: `.ci/browser-test` installs Chromium
//! and runs it with `--ignored`. The server is `corridor serve --port 0` when
//! `CORRIDOR_BIN` names the binary, else the same server started in this process.
//! Screenshots go to `CORRIDOR_SCREENSHOTS` (default `target/browser-test`).
//!
//! Every step is asserted on the page's own state (`window.corridorState`), not only on
//! pixels: the page loads without console errors, switching the environment redraws, a
//! click sets a goal and a path to it appears, the radius slider changes or removes the
//! path, dragging an obstacle onto the path applies an update and changes the path, a
//! door closes and opens, a drawn triangle is inserted and deleted, a `.map` file
//! opened through the page becomes an environment; the visibility polygon follows the
//! pointer (at most one request per animation frame, cut to the range and the field of
//! view); a crowd started on the page streams frames, walks to a clicked goal and follows
//! a door closed meanwhile; the layered scene shows its floors and connections, and a
//! path from the ground floor to the upper floor comes in one piece per floor.

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Child processes killed when the test ends, however it ends.
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Starts the server; returns its page address.
async fn start_server(children: &mut Children) -> String {
    if let Ok(bin) = std::env::var("CORRIDOR_BIN") {
        let mut child = Command::new(bin)
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("start corridor serve");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        children.0.push(child);
        let url = line
            .trim()
            .strip_prefix("corridor serve: ")
            .expect("the address line");
        return url.to_owned();
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let app = Arc::new(corridor_serve::App::new(vec![]));
    tokio::spawn(corridor_serve::serve(listener, app));
    url
}

/// Starts chromedriver on a free loopback port and connects a headless Chromium.
async fn start_browser(children: &mut Children) -> Client {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    children.0.push(
        Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .spawn()
            .expect("chromedriver (apt-get install chromium-driver; .ci/browser-test does)"),
    );
    let deadline = Instant::now() + Duration::from_secs(15);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let profile = std::env::temp_dir().join(format!("corridor-browser-{}", std::process::id()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": "/usr/bin/chromium",
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--window-size=1280,800", "--force-device-scale-factor=1",
                     format!("--user-data-dir={}", profile.display())],
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session")
}

async fn js(client: &Client, script: &str) -> Value {
    client
        .execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("{script}: {e}"))
}

async fn state(client: &Client) -> Value {
    js(
        client,
        "return JSON.parse(JSON.stringify(window.corridorState));",
    )
    .await
}

/// Waits until a JavaScript condition holds (10 s at most).
async fn wait_for(client: &Client, condition: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if js(client, &format!("return !!({condition});")).await == json!(true) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {condition}; state: {}",
            state(client).await
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

async fn to_client(client: &Client, p: [f64; 2]) -> (f64, f64) {
    let v = js(
        client,
        &format!(
            "return window.corridorView.worldToClient([{}, {}]);",
            p[0], p[1]
        ),
    )
    .await;
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// Presses at `from`, moves to `to` in `steps`, releases (a click when they are equal).
async fn gesture(client: &Client, from: [f64; 2], to: [f64; 2], steps: usize) {
    let (x0, y0) = to_client(client, from).await;
    let (x1, y1) = to_client(client, to).await;
    let mut mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: x0.round(),
            y: y0.round(),
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        });
    for k in 1..=steps {
        let t = k as f64 / steps as f64;
        mouse = mouse.then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(60)),
            x: (x0 + (x1 - x0) * t).round(),
            y: (y0 + (y1 - y0) * t).round(),
        });
    }
    mouse = mouse.then(PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    });
    client.perform_actions(mouse).await.unwrap();
}

/// Clicks the element `at` finds.
async fn click(client: &Client, at: Locator<'_>) {
    client.find(at).await.unwrap().click().await.unwrap();
}

/// Picks `value` in the select element with the id `id`.
async fn select(client: &Client, id: &str, value: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

async fn screenshot(client: &Client, name: &str) -> Vec<u8> {
    let dir = std::env::var_os("CORRIDOR_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/browser-test")
        });
    std::fs::create_dir_all(&dir).unwrap();
    let png = client.screenshot().await.unwrap();
    std::fs::write(dir.join(format!("{name}.png")), &png).unwrap();
    png
}

fn xy(v: &Value) -> [f64; 2] {
    [v[0].as_f64().unwrap(), v[1].as_f64().unwrap()]
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// The point halfway along a polyline.
fn halfway(points: &[[f64; 2]]) -> [f64; 2] {
    let total: f64 = points.windows(2).map(|w| dist(w[0], w[1])).sum();
    let mut left = total / 2.0;
    for w in points.windows(2) {
        let d = dist(w[0], w[1]);
        if left <= d {
            let t = left / d.max(1e-12);
            return [
                w[0][0] + (w[1][0] - w[0][0]) * t,
                w[0][1] + (w[1][1] - w[0][1]) * t,
            ];
        }
        left -= d;
    }
    points[points.len() - 1]
}

/// A free point at least `away` from `from` and reachable from it, asked of the server on
/// a connection of the test's own.
async fn far_goal(ws_url: &str, env: &str, from: [f64; 2], radius: f64, away: f64) -> [f64; 2] {
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_url).await.unwrap();
    for k in 0..100 {
        // From a sealed room (the dungeon has two) any reachable point will do.
        let away = if k < 50 { away } else { 0.0 };
        let ask =
            json!({"type": "random_point", "env": env, "radius": radius + 0.25, "from": from});
        ws.send(ask.to_string().into()).await.unwrap();
        let answer: Value =
            serde_json::from_str(&ws.next().await.unwrap().unwrap().into_text().unwrap()).unwrap();
        // An error (no such point in the server's tries) is asked again.
        if answer["point"].is_array() && dist(xy(&answer["point"]), from) >= away {
            return xy(&answer["point"]);
        }
    }
    panic!("no far goal found from {from:?}");
}

/// A free point with clearance `radius` (on `layer` of a layered scene), asked of the server.
async fn free_point_on(ws_url: &str, env: &str, radius: f64, layer: Option<u32>) -> [f64; 2] {
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_url).await.unwrap();
    for _ in 0..20 {
        let ask = json!({"type": "random_point", "env": env, "radius": radius, "layer": layer});
        ws.send(ask.to_string().into()).await.unwrap();
        let answer: Value =
            serde_json::from_str(&ws.next().await.unwrap().unwrap().into_text().unwrap()).unwrap();
        if answer["point"].is_array() {
            return xy(&answer["point"]);
        }
    }
    panic!("no free point of clearance {radius} in {env}");
}

/// Moves the pointer (no button) through `points`.
async fn hover(client: &Client, points: &[[f64; 2]]) {
    let mut mouse = MouseActions::new("mouse".into());
    for p in points {
        let (x, y) = to_client(client, *p).await;
        mouse = mouse.then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(40)),
            x: x.round(),
            y: y.round(),
        });
    }
    client.perform_actions(mouse).await.unwrap();
}

/// Sets an input's value as typing would (an `input` event).
async fn set_input(client: &Client, id: &str, value: f64) {
    js(
        client,
        &format!(
            "const e = document.getElementById('{id}'); e.value = '{value}'; \
             e.dispatchEvent(new Event('input')); return null;"
        ),
    )
    .await;
}

/// A free point with clearance 2 (reachable or not), asked of the server.
async fn free_point(ws_url: &str, env: &str) -> [f64; 2] {
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_url).await.unwrap();
    let ask = json!({"type": "random_point", "env": env, "radius": 2.0});
    ws.send(ask.to_string().into()).await.unwrap();
    let answer: Value =
        serde_json::from_str(&ws.next().await.unwrap().unwrap().into_text().unwrap()).unwrap();
    xy(&answer["point"])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver: run by .ci/browser-test"]
async fn the_demo_works_in_headless_chromium() {
    let started = Instant::now();
    let mut children = Children(Vec::new());
    let url = start_server(&mut children).await;
    let ws_url = format!("{}ws", url.replacen("http://", "ws://", 1));
    let client = start_browser(&mut children).await;

    // The page loads without errors (with the first environment, `empty`).
    client.goto(&format!("{url}?walk=0")).await.unwrap();
    wait_for(
        &client,
        "window.corridorState && window.corridorState.ready",
    )
    .await;
    let first = state(&client).await;
    assert_eq!(first["env"], "empty");
    let before = screenshot(&client, "1-loaded").await;

    // Switching the environment redraws (on the next animation frame after the
    // character is placed, so wait for the frame rather than race it).
    select(&client, "env", "military").await;
    let first_redraws = first["redraws"].as_u64().unwrap();
    wait_for(
        &client,
        &format!(
            "corridorState.env === 'military' && corridorState.character \
             && corridorState.redraws > {first_redraws}"
        ),
    )
    .await;
    let s = state(&client).await;
    assert_eq!(s["obstacles"].as_array().unwrap().len(), 26);
    assert_ne!(
        screenshot(&client, "2-military").await,
        before,
        "the picture did not change"
    );

    // A click sets the goal; a path from the character to it appears.
    let character = xy(&s["character"]);
    let radius = s["radius"].as_f64().unwrap();
    let goal = far_goal(&ws_url, "military", character, radius, 60.0).await;
    let seq = s["pathSeq"].as_u64().unwrap();
    gesture(&client, goal, goal, 0).await;
    wait_for(
        &client,
        &format!("corridorState.pathSeq > {seq} && corridorState.path"),
    )
    .await;
    let s = state(&client).await;
    let clicked = xy(&s["goal"]);
    assert!(
        dist(clicked, goal) < 1.0,
        "the goal {clicked:?} is not where the click was, {goal:?}"
    );
    let points: Vec<[f64; 2]> = s["path"]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(xy)
        .collect();
    let length = s["path"]["length"].as_f64().unwrap();
    assert!(dist(points[0], character) < 1e-6 && dist(*points.last().unwrap(), clicked) < 1e-6);
    assert!(
        length >= dist(character, clicked) - 1e-9,
        "shorter than the straight line"
    );
    screenshot(&client, "3-goal").await;

    // The radius slider at its maximum: the path gets longer or goes away.
    let seq = s["pathSeq"].as_u64().unwrap();
    let slider = client.find(Locator::Id("radius")).await.unwrap();
    slider.send_keys(&Key::End).await.unwrap();
    wait_for(
        &client,
        &format!("corridorState.pathSeq > {seq} && corridorState.radius > {radius}"),
    )
    .await;
    // The last query landed (none in flight, none asked again).
    wait_for(&client, "!corridorState.planning").await;
    let s = state(&client).await;
    match s["path"].as_object() {
        None => assert!(s["pathError"].is_string()),
        Some(p) => assert!(
            p["length"].as_f64().unwrap() > length + 1e-9,
            "a wider character, the same path"
        ),
    }
    screenshot(&client, "4-radius").await;
    let seq = s["pathSeq"].as_u64().unwrap();
    slider.send_keys(&Key::Home).await.unwrap();
    wait_for(
        &client,
        &format!(
            "corridorState.pathSeq > {seq} && corridorState.radius === 0 && corridorState.path"
        ),
    )
    .await;
    wait_for(&client, "!corridorState.planning").await;

    // Drag a building onto the middle of the path: an update, and the path changes.
    click(&client, Locator::Css("#tools input[value=move]")).await;
    let s = state(&client).await;
    let points: Vec<[f64; 2]> = s["path"]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(xy)
        .collect();
    let length = s["path"]["length"].as_f64().unwrap();
    let middle = halfway(&points);
    let (ends, version) = (
        [points[0], *points.last().unwrap()],
        s["version"].as_u64().unwrap(),
    );
    let mut candidates: Vec<(f64, u64, [f64; 2], [f64; 4])> = s["obstacles"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["kind"] == "polygon")
        .map(|o| {
            let b: Vec<f64> = o["bbox"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let c = [(b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0];
            (
                dist(c, middle),
                o["id"].as_u64().unwrap(),
                c,
                [b[0], b[1], b[2], b[3]],
            )
        })
        // Small buildings whose moved box keeps clear of the path's ends.
        .filter(|(_, _, c, b)| {
            let (hw, hh) = ((b[2] - b[0]) / 2.0 + 2.0, (b[3] - b[1]) / 2.0 + 2.0);
            b[2] - b[0] < 30.0
                && b[3] - b[1] < 30.0
                && ends
                    .iter()
                    .all(|e| (e[0] - middle[0]).abs() > hw || (e[1] - middle[1]).abs() > hh)
                && c[0] > 0.0
        })
        .collect();
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (_, id, centre, _) = *candidates.first().expect("a building to drag");
    let (updates, seq) = (
        s["updateSeq"].as_u64().unwrap(),
        s["pathSeq"].as_u64().unwrap(),
    );
    gesture(&client, centre, middle, 8).await;
    wait_for(&client, &format!("corridorState.updateSeq > {updates} && corridorState.version > {version} && corridorState.pathSeq > {seq}")).await;
    // The drag's last steps sent, and the path planned on the last version.
    wait_for(
        &client,
        "!corridorState.sendingDrag && !corridorState.planning && (corridorState.path === null \
         || corridorState.path.version === corridorState.version)",
    )
    .await;
    let s = state(&client).await;
    assert!(
        s["updateError"].is_null(),
        "update refused: {}",
        s["updateError"]
    );
    let moved = s["obstacles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"].as_u64() == Some(id))
        .unwrap();
    let b: Vec<f64> = moved["bbox"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let now = [(b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0];
    assert!(
        dist(now, middle) < 2.0,
        "the building is at {now:?}, dragged to {middle:?}"
    );
    let update = &s["lastUpdate"];
    assert!(
        ["local", "full_rebuild"].contains(&update["method"].as_str().unwrap()),
        "{update}"
    );
    assert!(update["ms"]["total"].as_f64().unwrap() > 0.0);
    match s["path"].as_object() {
        None => assert!(s["pathError"].is_string()),
        Some(p) => assert!(
            (p["length"].as_f64().unwrap() - length).abs() > 1e-9,
            "the path did not change"
        ),
    }
    screenshot(&client, "5-dragged").await;

    // Door: a click closes the passage with a door; a click on the door opens it.
    click(&client, Locator::Css("#tools input[value=door]")).await;
    let s = state(&client).await;
    let obstacles = s["obstacles"].as_array().unwrap().len();
    let at = free_point(&ws_url, "military").await;
    gesture(&client, at, at, 0).await;
    wait_for(
        &client,
        &format!(
            "corridorState.obstacles.length === {} && corridorState.obstacles.some(o => o.door)",
            obstacles + 1
        ),
    )
    .await;
    let s = state(&client).await;
    let door = s["obstacles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["door"] == true)
        .unwrap();
    let b: Vec<f64> = door["bbox"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    screenshot(&client, "5b-door").await;
    let centre = [(b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0];
    gesture(&client, centre, centre, 0).await;
    wait_for(&client, &format!("corridorState.obstacles.length === {obstacles} && !corridorState.obstacles.some(o => o.door)")).await;

    // Draw a triangle (three clicks and one on the first vertex), then Delete it.
    click(&client, Locator::Css("#tools input[value=draw]")).await;
    let c = free_point(&ws_url, "military").await;
    let triangle = [
        [c[0] - 1.5, c[1] - 1.0],
        [c[0] + 1.5, c[1] - 1.0],
        [c[0], c[1] + 1.5],
    ];
    for p in triangle.iter().chain([&triangle[0]]) {
        gesture(&client, *p, *p, 0).await;
        // Not a result to wait for: clicks this close in time and space would count as a
        // double click, which closes the polygon early.
        tokio::time::sleep(Duration::from_millis(600)).await;
    }
    wait_for(
        &client,
        &format!("corridorState.obstacles.length === {}", obstacles + 1),
    )
    .await;
    let drawn = state(&client).await["obstacles"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()["id"]
        .as_u64()
        .unwrap();
    click(&client, Locator::Css("#tools input[value=delete]")).await;
    gesture(&client, c, c, 0).await;
    wait_for(&client, &format!("corridorState.obstacles.length === {obstacles} && !corridorState.obstacles.some(o => o.id === {drawn})")).await;

    // A file picked with "Open file" becomes an environment of its own.
    let file = std::env::temp_dir().join(format!("corridor-upload-{}.map", std::process::id()));
    let map = "type octile\nheight 8\nwidth 12\nmap\n............\n....@@......\n....@@......\n............\n.........@..\n............\n..@@@.......\n............\n";
    std::fs::write(&file, map).unwrap();
    client
        .find(Locator::Id("file"))
        .await
        .unwrap()
        .send_keys(&file.display().to_string())
        .await
        .unwrap();
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    wait_for(
        &client,
        &format!("corridorState.env === '{name}' && corridorState.obstacles.length === 3"),
    )
    .await;
    let _ = std::fs::remove_file(&file);

    // The dungeon with its nearest-obstacle annotations and a long path (the README's picture).
    click(&client, Locator::Css("#tools input[value=goal]")).await;
    select(&client, "env", "dungeon").await;
    wait_for(
        &client,
        "corridorState.env === 'dungeon' && corridorState.character",
    )
    .await;
    click(
        &client,
        Locator::Css("#layers input[data-layer=annotations]"),
    )
    .await;
    let s = state(&client).await;
    let character = xy(&s["character"]);
    let goal = far_goal(
        &ws_url,
        "dungeon",
        character,
        s["radius"].as_f64().unwrap(),
        60.0,
    )
    .await;
    let seq = s["pathSeq"].as_u64().unwrap();
    gesture(&client, goal, goal, 0).await;
    wait_for(
        &client,
        &format!("corridorState.pathSeq > {seq} && corridorState.path"),
    )
    .await;
    wait_for(
        &client,
        "corridorState.drawnPathSeq === corridorState.pathSeq",
    )
    .await;
    screenshot(&client, "6-dungeon").await;

    // Visibility under the cursor, with a range and a 120° field of view.
    click(
        &client,
        Locator::Css("#layers input[data-layer=visibility]"),
    )
    .await;
    let s = state(&client).await;
    let b: Vec<f64> = s["bounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let range = 0.2 * (b[2] - b[0]).min(b[3] - b[1]);
    set_input(&client, "view-range", range).await;
    set_input(&client, "view-fov", 120.0).await;
    let (frames, requests) = (
        s["frames"].as_u64().unwrap(),
        s["visibility"]["requests"].as_u64().unwrap(),
    );
    let at = free_point_on(&ws_url, "dungeon", 1.0, None).await;
    let trail: Vec<[f64; 2]> = (0..6)
        .map(|k| [at[0] - 0.6 * (5 - k) as f64, at[1]])
        .collect();
    hover(&client, &trail).await;
    // The polygon of where the pointer stopped (within the pixel the pointer is on).
    let (px, py) = to_client(&client, at).await;
    wait_for(
        &client,
        &format!(
            "corridorState.visibility.origin && !corridorState.visibility.error && (() => {{ \
             const [x, y] = corridorView.worldToClient(corridorState.visibility.origin); \
             return Math.hypot(x - {}, y - {}) < 1.5; }})()",
            px.round(),
            py.round()
        ),
    )
    .await;
    let s = state(&client).await;
    let v = &s["visibility"];
    let asked = v["requests"].as_u64().unwrap() - requests;
    let frames = s["frames"].as_u64().unwrap() - frames;
    assert!(
        asked >= 1 && asked <= frames,
        "{asked} visibility requests in {frames} frames"
    );
    let kinds: Vec<&str> = v["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"cone"), "no cone side: {kinds:?}");
    let area = v["area"].as_f64().unwrap();
    let sector = std::f64::consts::PI * range * range / 3.0;
    assert!(
        area > 0.0 && area <= sector * (1.0 + 1e-9),
        "area {area} beyond the 120° sector {sector}"
    );
    screenshot(&client, "7-visibility").await;
    click(
        &client,
        Locator::Css("#layers input[data-layer=visibility]"),
    )
    .await;

    // A crowd of 60 on the server: frames stream in; a click sends it to a goal; a door
    // closed meanwhile reaches its map.
    set_input(&client, "crowd-count", 60.0).await;
    click(&client, Locator::Id("crowd-start")).await;
    wait_for(
        &client,
        "corridorState.crowd.running && corridorState.crowd.frames > 3",
    )
    .await;
    let s = state(&client).await;
    let count = s["crowd"]["count"].as_u64().unwrap();
    assert!(count >= 40, "{}", s["crowd"]);
    let positions = s["crowd"]["positions"].as_array().unwrap();
    assert_eq!(positions.len() as u64, 2 * count);
    for p in positions.chunks(2) {
        let (x, y) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
        assert!(
            x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3],
            "a character outside the map"
        );
    }
    let gap = s["crowd"]["minWallGap"].as_f64().unwrap_or(0.0);
    assert!(gap >= -1e-6, "a character entered a wall: gap {gap}");
    let goal = free_point_on(&ws_url, "dungeon", 1.0, None).await;
    gesture(&client, goal, goal, 0).await;
    wait_for(&client, "corridorState.crowd.goalSeq > 0").await;
    click(&client, Locator::Css("#tools input[value=door]")).await;
    let door_at = free_point_on(&ws_url, "dungeon", 1.0, None).await;
    let version = s["version"].as_u64().unwrap();
    gesture(&client, door_at, door_at, 0).await;
    wait_for(
        &client,
        &format!(
            "corridorState.version > {version} && corridorState.crowd.version === corridorState.version \
             && corridorState.crowd.changes >= 1"
        ),
    )
    .await;
    screenshot(&client, "8-crowd").await;
    click(&client, Locator::Id("crowd-stop")).await;
    wait_for(&client, "!corridorState.crowd.running").await;
    click(&client, Locator::Css("#tools input[value=goal]")).await;

    // The layered scene: floors, connections, and a path from the ground floor upstairs.
    select(&client, "env", "layers").await;
    wait_for(
        &client,
        "corridorState.env === 'layers' && corridorState.layered && corridorState.character \
         && corridorState.floor === 0",
    )
    .await;
    let s = state(&client).await;
    assert_eq!(s["floors"].as_array().unwrap().len(), 4);
    assert_eq!(s["connections"], 4);
    select(&client, "floor", "1").await;
    wait_for(&client, "corridorState.floor === 1").await;
    let upstairs = free_point_on(
        &ws_url,
        "layers",
        s["radius"].as_f64().unwrap() + 0.25,
        Some(1),
    )
    .await;
    let seq = s["pathSeq"].as_u64().unwrap();
    gesture(&client, upstairs, upstairs, 0).await;
    wait_for(
        &client,
        &format!(
            "corridorState.pathSeq > {seq} && (corridorState.path || corridorState.pathError)"
        ),
    )
    .await;
    let s = state(&client).await;
    let path = &s["path"];
    assert!(path.is_object(), "no layered path: {}", s["pathError"]);
    let floors: Vec<u64> = path["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_u64().unwrap())
        .collect();
    assert!(
        floors.len() >= 3 && floors[0] == 0 && *floors.last().unwrap() == 1,
        "the path's floors: {floors:?}"
    );
    assert!(
        floors[1..floors.len() - 1]
            .iter()
            .all(|f| *f == 2 || *f == 3),
        "upstairs by the stairs: {floors:?}"
    );
    let last = xy(path["points"].as_array().unwrap().last().unwrap());
    assert!(
        dist(last, upstairs) < 1.0,
        "the path ends at {last:?}, the click was at {upstairs:?}"
    );
    // The frame that drew this path.
    wait_for(
        &client,
        "corridorState.drawnPathSeq === corridorState.pathSeq",
    )
    .await;
    screenshot(&client, "9-layers-upper").await;
    select(&client, "floor", "0").await;
    wait_for(&client, "corridorState.floor === 0").await;

    // A layered file dropped on the page (a drop event with the file, as a drag from the
    // desktop gives) opens floor by floor, and its paths honour the preferred clearance.
    let world = corridor_io::scenes::layers();
    let house = corridor_io::write_layered_json(&world).unwrap();
    js(
        &client,
        &format!(
            "const dt = new DataTransfer(); \
             dt.items.add(new File([{}], 'house.json', {{type: 'application/json'}})); \
             window.dispatchEvent(new DragEvent('drop', {{dataTransfer: dt, cancelable: true}})); \
             return null;",
            serde_json::to_string(&house).unwrap()
        ),
    )
    .await;
    wait_for(
        &client,
        "corridorState.env === 'house.json' && corridorState.layered && corridorState.character \
         && corridorState.floor === 0",
    )
    .await;
    let s = state(&client).await;
    let floors: Vec<String> = world.layers().map(|(_, l)| l.name.clone()).collect();
    assert_eq!(s["floors"], json!(floors));
    assert_eq!(s["connections"], world.connections().count());
    select(&client, "floor", "1").await;
    wait_for(&client, "corridorState.floor === 1").await;
    let seq = s["pathSeq"].as_u64().unwrap();
    gesture(&client, upstairs, upstairs, 0).await;
    wait_for(
        &client,
        &format!(
            "corridorState.pathSeq > {seq} && corridorState.path && corridorState.path.layers"
        ),
    )
    .await;
    let s = state(&client).await;
    let layers = s["path"]["layers"].as_array().unwrap();
    assert_eq!((&layers[0], layers.last().unwrap()), (&json!(0), &json!(1)));
    let wide = js(
        &client,
        "return Number(document.getElementById('clearance').max);",
    )
    .await
    .as_f64()
    .unwrap();
    set_input(&client, "clearance", wide).await;
    wait_for(
        &client,
        &format!("corridorState.path && corridorState.path.clearance >= {wide} - 1e-9 && !corridorState.planning"),
    )
    .await;
    let s = state(&client).await;
    assert_ne!(
        s["path"]["indicativeRoute"], s["path"]["points"],
        "the indicative route keeps clearance {wide}"
    );
    screenshot(&client, "10-dropped-layered").await;

    let errors = js(&client, "return window.corridorErrors;").await;
    assert_eq!(errors, json!([]), "the page logged errors");
    client.close().await.unwrap();
    println!("browser test: {:.1} s", started.elapsed().as_secs_f64());
}
