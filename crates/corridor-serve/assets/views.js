// The Corridor demo page, second part: the crowd simulated on the server (its frames
// drawn as they stream in) and the visibility polygon under the cursor. Loaded after
// app.js, whose state and helpers it uses.
"use strict";

let crowd = null;          // the last `crowd_frame` message
let seen = null;           // the last `visibility` message
let cursor = null;         // the pointer's world position and heading, for the visibility
let cursorMoved = false, seeing = false;

// ---- the crowd ----------------------------------------------------------------------

function crowdRadius() {
  return Math.max(corridorState.radius, mapSize() * 0.004);
}

async function startCrowd() {
  const count = Number($("crowd-count").value);
  $("crowd-info").textContent = `placing ${count}…`;
  const msg = await request({ type: "crowd_start", env: corridorState.env, count, radius: crowdRadius(),
    clearance: Math.max(corridorState.clearance, crowdRadius()), wander: true });
  if (msg.type === "error") {
    corridorState.crowd.error = msg.message;
    $("crowd-info").className = "error"; $("crowd-info").textContent = msg.message;
    return;
  }
  corridorState.crowd = { ...corridorState.crowd, running: true, count: msg.count, frames: 0, seq: null, error: null };
  $("crowd-info").className = "";
  $("crowd-info").textContent = `${msg.count} characters`;
}

async function stopCrowd() {
  if (!corridorState.crowd.running) return;
  corridorState.crowd.running = false;
  crowd = null;
  await request({ type: "crowd_stop" });
  $("crowd-info").textContent = "–";
  dirty = true;
}

async function crowdGoal(goal) {
  const msg = await request({ type: "crowd_goal", goal });
  if (msg.type === "crowd_goal") {
    corridorState.crowd.goal = goal;
    corridorState.crowd.goalSeq++;
  }
}

function onCrowdFrame(msg) {
  if (!corridorState.crowd.running || msg.env !== corridorState.env) return;
  crowd = msg;
  const c = corridorState.crowd;
  c.frames++; c.seq = msg.seq; c.version = msg.version; c.count = msg.count;
  c.changes = msg.changes; c.replans = msg.replans; c.minWallGap = msg.min_wall_gap;
  c.walking = [...msg.phases].filter((p) => p === "w").length;
  c.positions = msg.positions;
  $("crowd-info").textContent = `${msg.count} characters, t = ${msg.time.toFixed(1)} s, step ${msg.step_ms.toFixed(1)} ms, ` +
    `${msg.replans} re-plans`;
  dirty = true;
}

// ---- visibility under the cursor ----------------------------------------------------

// At most one request per animation frame, and one in flight: the newest cursor wins.
async function lookAround() {
  if (!layers.visibility || !cursor || !cursorMoved || seeing || !map) return;
  cursorMoved = false;
  seeing = true;
  const v = corridorState.visibility;
  v.requests++;
  try {
    const range = Number($("view-range").value) || 0, fov = Number($("view-fov").value) || 360;
    const msg = await request({ type: "visibility", env: corridorState.env, at: cursor.at, layer: floor,
      range, fov, dir: cursor.dir });
    v.answers++;
    if (msg.type === "visibility" && msg.env === corridorState.env && (floor === null || msg.layer === floor)) {
      seen = msg;
      Object.assign(v, { origin: msg.origin, vertices: msg.vertices.length, kinds: msg.kinds, area: msg.area, range: msg.range, error: null });
      $("visibility-info").textContent = `${msg.vertices.length} corners, area ${msg.area.toFixed(1)}, ${msg.ms.toFixed(2)} ms`;
    } else if (msg.type === "error") {
      seen = null;
      v.error = msg.message;
      $("visibility-info").textContent = msg.message;
    }
    dirty = true;
  } finally {
    seeing = false;
  }
}

// The visibility polygon: straight edges, arcs of the range circle, cone sides.
function drawVisibility(v) {
  const n = v.vertices.length;
  ctx.beginPath();
  const [ox, oy] = toScreen(v.origin);
  if (n === 1 && v.kinds[0] === "arc") {
    ctx.arc(ox, oy, v.range * view.scale, 0, 2 * Math.PI);
  } else {
    v.vertices.forEach((p, i) => {
      const [x, y] = toScreen(p);
      if (i === 0) ctx.moveTo(x, y);
      const [bx, by] = toScreen(v.vertices[(i + 1) % n]);
      if (v.kinds[i] === "arc") {
        // Counter-clockwise in the map is clockwise on the screen (y points down).
        ctx.arc(ox, oy, v.range * view.scale, Math.atan2(y - oy, x - ox), Math.atan2(by - oy, bx - ox), true);
      } else {
        ctx.lineTo(bx, by);
      }
    });
  }
  ctx.closePath();
  ctx.fillStyle = "rgba(255, 215, 0, 0.28)"; ctx.fill();
  ctx.strokeStyle = "#c9a800"; ctx.lineWidth = 1.2; ctx.stroke();
  ctx.fillStyle = "#c9a800"; ctx.beginPath(); ctx.arc(ox, oy, 3, 0, 2 * Math.PI); ctx.fill();
}

$("crowd-count").addEventListener("input", () => { $("crowd-count-value").textContent = $("crowd-count").value; });
$("crowd-start").addEventListener("click", () => startCrowd());
$("crowd-stop").addEventListener("click", () => stopCrowd());
$("crowd-random").addEventListener("click", () => { if (corridorState.crowd.running) crowdGoal(null); });
for (const id of ["view-range", "view-fov"]) $(id).addEventListener("input", () => { cursorMoved = true; });
