//! The crowd mode end to end on the server: a crowd started by one client streams frames,
//! drops frames a slow reader did not take, and follows the shared map's updates through
//! the simulation's own update path: after a door closes across a character's route, its
//! corridor is invalidated and it plans again, and the crowd's map equals both the shared
//! map and a full rebuild, with every character at least its radius from every wall.

use corridor_ecm::Ecm;
use corridor_serve::{App, Session};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

async fn ask(session: &mut Session, message: Value) -> Value {
    serde_json::from_str(&session.handle(&message.to_string()).await).unwrap()
}

/// Reads frames until one satisfies `done` (10 s at most).
async fn frame_until(session: &mut Session, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let frame: Value = serde_json::from_str(&session.next_frame().await).unwrap();
        if done(&frame) {
            return frame;
        }
        assert!(
            Instant::now() < deadline,
            "no such frame; the last: {frame}"
        );
    }
}

fn xy(v: &Value) -> [f64; 2] {
    [v[0].as_f64().unwrap(), v[1].as_f64().unwrap()]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crowd_streams_frames_and_replans_when_a_door_closes() {
    let app = Arc::new(App::new(vec![]));
    let (mut walker, mut editor) = (Session::new(app.clone()), Session::new(app.clone()));
    let radius = 1.0;
    let started = ask(
        &mut walker,
        json!({"type": "crowd_start", "env": "military", "count": 40, "radius": radius, "wander": false}),
    )
    .await;
    assert_eq!(started["type"], "crowd_started", "{started}");
    let count = started["count"].as_u64().unwrap();
    assert!(count >= 30, "{started}");
    // Everyone to one far goal.
    let goal = ask(
        &mut editor,
        json!({"type": "random_point", "env": "military", "radius": 3.0}),
    )
    .await;
    let goal = xy(&goal["point"]);
    let answer = ask(&mut walker, json!({"type": "crowd_goal", "goal": goal})).await;
    assert_eq!(answer["count"].as_u64(), Some(count), "{answer}");
    let first = frame_until(&mut walker, |f| f["seq"].as_u64() > Some(2)).await;
    assert_eq!(
        first["positions"].as_array().unwrap().len() as u64,
        2 * count
    );
    assert_eq!(first["phases"].as_str().unwrap().len() as u64, count);

    // A slow reader gets the newest frame, not a queue of old ones.
    let seq = first["seq"].as_u64().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while walker.crowd_check().await.unwrap().seq < seq + 3 {
        assert!(Instant::now() < deadline, "the crowd stopped stepping");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let later: Value = serde_json::from_str(&walker.next_frame().await).unwrap();
    assert!(
        later["seq"].as_u64().unwrap() > seq + 2,
        "frames queued instead of dropped: {seq} then {}",
        later["seq"]
    );

    // A door across the route of the character farthest from the goal.
    let check = walker.crowd_check().await.unwrap();
    let far = check
        .characters
        .iter()
        .map(|(p, _)| *p)
        .max_by(|a, b| {
            let d =
                |p: &corridor_geom::Point| p.distance(corridor_geom::Point::new(goal[0], goal[1]));
            d(a).total_cmp(&d(b))
        })
        .unwrap();
    let path = ask(
        &mut editor,
        json!({"type": "path", "env": "military", "from": [far.x, far.y], "to": goal, "radius": radius}),
    )
    .await;
    let points: Vec<[f64; 2]> = path["points"].as_array().unwrap().iter().map(xy).collect();
    let at = points[points.len() / 2];
    let closed = ask(
        &mut editor,
        json!({"type": "update", "env": "military", "changes": [{"close_door": at}]}),
    )
    .await;
    assert_eq!(closed["type"], "updated", "{closed}");
    let version = closed["version"].as_u64().unwrap();
    // The change is applied at the end of a step, the invalidated characters plan again
    // at the start of the next.
    let frame = frame_until(&mut walker, |f| {
        f["version"].as_u64() == Some(version) && f["changes"].as_u64() >= Some(1)
    })
    .await;
    assert!(
        frame["invalidated"].as_u64().unwrap() >= 1,
        "the door touched nobody's corridor: {frame}"
    );
    frame_until(&mut walker, |f| f["replans"].as_u64() >= Some(1)).await;

    // The crowd's map is the shared map, and a full rebuild; nobody is in a wall.
    let check = walker.crowd_check().await.unwrap();
    let snapshot = app.world("military").await.unwrap().snapshot();
    assert_eq!(check.version, snapshot.version);
    assert_eq!(check.map.environment(), &snapshot.env);
    let rebuilt = Ecm::build(&snapshot.env).unwrap();
    assert_eq!(check.map.ecm().canonical_diff(&rebuilt, 1e-6), None);
    for (p, r) in &check.characters {
        let clearance = rebuilt.clearance(*p).unwrap();
        assert!(
            clearance >= r - 1e-6,
            "a character at {p:?} is {clearance} from a wall"
        );
    }

    // Stopping ends the frames; a goal then is an error.
    let stopped = ask(&mut walker, json!({"type": "crowd_stop"})).await;
    assert_eq!(stopped["was_running"], true);
    let answer = ask(&mut walker, json!({"type": "crowd_goal", "goal": null})).await;
    assert_eq!(answer["kind"], "unsupported");
}
