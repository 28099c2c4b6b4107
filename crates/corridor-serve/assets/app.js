// The Corridor demo page: draws an environment's Explicit Corridor Map on a canvas (a
// layered scene floor by floor), lets a character follow indicative routes to random or
// clicked goals, and changes obstacles through the server's local updates. The crowd and
// the visibility polygon are in views.js (loaded after this file; everything it defines
// is used only once the page runs). The server's message API is in docs/SERVE.md.
"use strict";

const canvas = document.getElementById("view");
const ctx = canvas.getContext("2d");
const $ = (id) => document.getElementById(id);

// What the browser test reads (and a curious user can look at in the console).
const corridorState = {
  ready: false, connected: false, env: null, version: null, obstacles: [],
  path: null, pathError: null, pathSeq: 0, goal: null, character: null,
  radius: 0, clearance: 0, lastUpdate: null, updateSeq: 0, updateError: null, redraws: 0, tool: "goal",
  frames: 0, layered: false, floor: null, floors: [], connections: 0,
  crowd: { running: false, count: 0, frames: 0, seq: null, version: null, changes: 0, replans: 0, minWallGap: null, goalSeq: 0, error: null },
  visibility: { requests: 0, answers: 0, origin: null, vertices: 0, kinds: [], area: null, range: null, error: null },
};
window.corridorState = corridorState;

const layers = { obstacles: true, medial: true, annotations: false, corridor: true, path: true, route: true, visibility: false, crowd: true };
let map = null;            // the last `map` message (of a layered scene: the floor shown)
let layered = null;        // the `map` message of a layered scene, or null
let floor = null;          // the floor shown (a layer number) in a layered scene
let view = { scale: 1, ox: 0, oy: 0 };
let staticLayer = null;    // the map's layers drawn once per view
let path = null;           // the last `path` message
let character = null;      // { pos: [x, y], along: distance walked on the route }
let goal = null;
let drawing = [];          // vertices of the polygon being drawn
let drag = null;           // the pointer gesture in progress
let dirty = true;

// ---- the connection ----------------------------------------------------------------

let socket = null;
let nextId = 1;
const pending = new Map();

function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  return new Promise((resolve) => {
    socket = new WebSocket(url);
    socket.onopen = () => { corridorState.connected = true; $("server-info").textContent = "connected"; resolve(); };
    socket.onclose = () => {
      corridorState.connected = false;
      $("server-info").textContent = "disconnected (reload the page)";
      for (const [, p] of pending) p.resolve({ type: "error", kind: "closed", message: "connection closed" });
      pending.clear();
    };
    socket.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.id != null && pending.has(msg.id)) {
        pending.get(msg.id).resolve(msg);
        pending.delete(msg.id);
      } else if (msg.type === "updated") {
        onUpdated(msg, false);
      } else if (msg.type === "crowd_frame") {
        onCrowdFrame(msg);
      }
    };
  });
}

// Sends a request; resolves with the answer (an `error` message is an answer too).
function request(msg) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, { resolve });
    socket.send(JSON.stringify({ ...msg, id }));
  });
}

// ---- environments and the map ------------------------------------------------------

async function loadList(select) {
  const msg = await request({ type: "list" });
  const sel = $("env");
  sel.innerHTML = "";
  for (const e of msg.environments) {
    const opt = document.createElement("option");
    opt.value = e.name;
    opt.textContent = e.layered ? e.name + " (floors)" : e.name;
    sel.appendChild(opt);
  }
  if (select) sel.value = select;
}

async function switchEnvironment(name) {
  $("map-info").textContent = "building " + name + "…";
  const msg = await request({ type: "map", env: name });
  if (msg.type === "error") { $("map-info").textContent = msg.message; return; }
  await stopCrowd();
  seen = null;
  layered = msg.layered ? msg : null;
  corridorState.layered = !!msg.layered;
  $("floor-row").hidden = !msg.layered;
  $("crowd-start").disabled = !!msg.layered;
  if (msg.layered) {
    const sel = $("floor");
    sel.innerHTML = "";
    for (const f of msg.layers) {
      const opt = document.createElement("option");
      opt.value = f.id; opt.textContent = f.name;
      sel.appendChild(opt);
    }
    corridorState.floors = msg.layers.map((f) => f.name);
    corridorState.connections = msg.connections.length;
    setFloor(0, true);
  } else {
    floor = null;
    corridorState.floor = null; corridorState.floors = []; corridorState.connections = 0;
    setMap(msg, true);
  }
  path = null; goal = null; character = null;
  corridorState.path = null; corridorState.pathError = null; corridorState.goal = null;
  setSliderRanges();
  await placeCharacter();
  if ($("walk").checked) await newRandomGoal();
}

// Shows one floor of the layered scene.
function setFloor(id, fit) {
  floor = Number(id);
  corridorState.floor = floor;
  $("floor").value = String(floor);
  seen = null;
  setMap(layered.layers[floor], fit);
}

function setMap(msg, fit) {
  map = msg;
  corridorState.env = msg.env;
  corridorState.version = msg.version;
  corridorState.bounds = msg.bounds;
  corridorState.obstacles = msg.obstacles.map((o) => ({ id: o.id, kind: o.kind, door: o.door, bbox: bbox(obstaclePoints(o)) }));
  const s = msg.stats;
  $("map-info").textContent = `${msg.env} v${msg.version}: ${msg.obstacles.length} obstacles, ` +
    `${s.vertices} vertices, ${s.edges} edges, ${s.components} component${s.components === 1 ? "" : "s"}`;
  if (fit) fitView();
  staticLayer = null;
  dirty = true;
}

async function reloadMap() {
  if (layered) return;
  const msg = await request({ type: "map", env: corridorState.env });
  if (msg.type === "map" && msg.env === corridorState.env) setMap(msg, false);
}

function mapSize() {
  const [x0, y0, x1, y1] = map.bounds;
  return Math.min(x1 - x0, y1 - y0);
}

function setSliderRanges() {
  const max = (mapSize() * 0.05).toPrecision(2);
  for (const id of ["radius", "clearance"]) {
    const el = $(id);
    el.max = max;
    el.step = max / 200;
    el.value = id === "radius" ? max / 10 : max / 4;
  }
  readSliders();
}

function readSliders() {
  corridorState.radius = Number($("radius").value);
  corridorState.clearance = Math.max(Number($("clearance").value), corridorState.radius);
  $("radius-value").textContent = corridorState.radius.toPrecision(3);
  $("clearance-value").textContent = corridorState.clearance.toPrecision(3);
}

// ---- the character and its path ----------------------------------------------------

async function placeCharacter() {
  const msg = await request({ type: "random_point", env: corridorState.env, radius: corridorState.clearance, layer: floor });
  if (msg.type === "point") {
    character = { pos: msg.point, along: 0, layer: floor };
    corridorState.character = character.pos;
  }
  dirty = true;
}

async function newRandomGoal() {
  if (!character) return;
  // In a layered scene: a goal on another floor now and then, so that paths climb.
  const to = layered && Math.random() < 0.5 ? Math.floor(Math.random() * 2) : character.layer;
  const msg = await request({ type: "random_point", env: corridorState.env, radius: corridorState.radius,
    from: to === character.layer ? character.pos : null, layer: to });
  if (msg.type === "point") await setGoal(msg.point, to);
}

async function setGoal(point, layer = floor) {
  goal = point;
  goal.layer = layer;
  corridorState.goal = point;
  corridorState.goalLayer = layer;
  if (!character) character = { pos: point, along: 0, layer };
  await replan();
}

// One query in flight; a change meanwhile asks again when it returns.
let planning = false, planAgain = false;
async function replan() {
  if (planning) { planAgain = true; return; }
  if (!character || !goal) return;
  planning = true;
  corridorState.planning = true;
  try {
    do {
      planAgain = false;
      const msg = await request(layered ? {
        type: "layered_path", env: corridorState.env, from_layer: character.layer, from: character.pos,
        to_layer: goal.layer, to: [goal[0], goal[1]], radius: corridorState.radius, clearance: corridorState.clearance,
      } : {
        type: "path", env: corridorState.env, from: character.pos, to: goal,
        radius: corridorState.radius, clearance: corridorState.clearance,
      });
      if (msg.type === "layered_path" && msg.env === corridorState.env) {
        path = msg;
        character.along = 0;
        const points = msg.steps.flatMap((s) => s.points);
        corridorState.path = {
          length: msg.length, points, indicativeRoute: msg.steps.flatMap((s) => s.indicative_route),
          layers: msg.steps.map((s) => s.layer), crossings: msg.crossings,
          perFloor: msg.steps.map((s) => ({ layer: s.layer, points: s.points.length, length: s.length })),
          clearance: msg.clearance, version: 0, ms: msg.ms,
        };
        corridorState.pathError = null;
        $("path-info").className = "";
        $("path-info").textContent = `length ${msg.length.toFixed(2)} over ` +
          msg.steps.map((s) => layered.layers[s.layer].name).join(" → ") + `, ${msg.ms.toFixed(1)} ms`;
      } else if (msg.type === "path" && msg.env === corridorState.env) {
        path = msg;
        character.along = 0;
        corridorState.path = { length: msg.length, points: msg.points, indicativeRoute: msg.indicative_route, version: msg.version, ms: msg.ms };
        corridorState.pathError = null;
        $("path-info").className = "";
        $("path-info").textContent = `length ${msg.length.toFixed(2)}, ${msg.points.length} points, ${msg.ms.toFixed(2)} ms`;
      } else if (msg.type === "error") {
        path = null;
        corridorState.path = null;
        corridorState.pathError = msg.message;
        $("path-info").className = "error";
        $("path-info").textContent = msg.message;
      }
      corridorState.pathSeq++;
      dirty = true;
    } while (planAgain);
  } finally {
    planning = false;
    corridorState.planning = false;
  }
}

// The pieces of the path, each on one floor (one piece, floor null, on a plain map).
function pieces() {
  if (!path) return [];
  return path.steps ? path.steps : [{ ...path, layer: floor }];
}

// Walks the character along the indicative route (from floor to floor in a layered
// scene; the view follows it).
function walk(dt) {
  if (!$("walk").checked || !path || !character) return;
  const speed = mapSize() * 0.08;
  character.along += speed * dt;
  let left = character.along;
  const all = pieces();
  for (const piece of all) {
    const route = piece.indicative_route;
    for (let i = 1; i < route.length; i++) {
      const [ax, ay] = route[i - 1], [bx, by] = route[i];
      const len = Math.hypot(bx - ax, by - ay);
      if (left <= len) {
        const t = len > 0 ? left / len : 1;
        character.pos = [ax + (bx - ax) * t, ay + (by - ay) * t];
        corridorState.character = character.pos;
        if (layered && character.layer !== piece.layer) {
          character.layer = piece.layer;
          setFloor(piece.layer, false);
        }
        dirty = true;
        return;
      }
      left -= len;
    }
  }
  // Arrived: a new random goal from here.
  const last = all[all.length - 1];
  character.pos = last.indicative_route[last.indicative_route.length - 1];
  character.layer = last.layer;
  path = null;
  newRandomGoal();
}

// ---- updates ------------------------------------------------------------------------

let updating = false;
async function update(changes) {
  updating = true;
  try {
    const msg = await request({ type: "update", env: corridorState.env, changes });
    if (msg.type === "error") {
      corridorState.updateError = msg.message;
      $("update-info").className = "error";
      $("update-info").textContent = msg.message;
      return msg;
    }
    corridorState.updateError = null;
    await onUpdated(msg, true);
    return msg;
  } finally {
    updating = false;
  }
}

async function onUpdated(msg, mine) {
  if (msg.env !== corridorState.env) return;
  corridorState.lastUpdate = { method: msg.method, ms: msg.ms, version: msg.version, mine };
  corridorState.updateSeq++;
  $("update-info").className = "";
  $("update-info").textContent = `${msg.method}, ${msg.ms.total.toFixed(2)} ms (plan ${msg.ms.plan.toFixed(2)}, ` +
    `apply ${msg.ms.apply.toFixed(2)}, publish ${msg.ms.publish.toFixed(2)})${mine ? "" : " by another client"}`;
  await reloadMap();
  await replan();
}

// ---- geometry helpers ---------------------------------------------------------------

function obstaclePoints(o) {
  if (o.kind === "point") return [o.point];
  if (o.kind === "polyline") return o.points;
  return o.rings[0];
}

function bbox(points) {
  let b = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) b = [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x), Math.max(b[3], y)];
  return b;
}

function insideRing(ring, [x, y]) {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function segmentDistance([px, py], [ax, ay], [bx, by]) {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

// The obstacle under a world point (the last drawn wins), or null.
function obstacleAt(p) {
  if (!map) return null;
  const tolerance = 6 / view.scale;
  for (let k = map.obstacles.length - 1; k >= 0; k--) {
    const o = map.obstacles[k];
    if (o.kind === "polygon") {
      if (insideRing(o.rings[0], p) && !o.rings.slice(1).some((h) => insideRing(h, p))) return o;
      // Thin ones (a door is a few pixels wide) are hit within a few pixels of an edge.
      const ring = o.rings[0];
      for (let i = 0; i < ring.length; i++) {
        if (segmentDistance(p, ring[i], ring[(i + 1) % ring.length]) < tolerance / 2) return o;
      }
    } else {
      const pts = obstaclePoints(o);
      if (pts.length === 1 && Math.hypot(p[0] - pts[0][0], p[1] - pts[0][1]) < tolerance) return o;
      for (let i = 1; i < pts.length; i++) if (segmentDistance(p, pts[i - 1], pts[i]) < tolerance) return o;
    }
  }
  return null;
}

// ---- the view -----------------------------------------------------------------------

function resize() {
  const r = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(r.width * dpr));
  canvas.height = Math.max(1, Math.round(r.height * dpr));
  staticLayer = null;
  dirty = true;
}

function fitView() {
  const [x0, y0, x1, y1] = map.bounds;
  const w = canvas.width, h = canvas.height, margin = 20 * (window.devicePixelRatio || 1);
  view.scale = Math.min((w - 2 * margin) / (x1 - x0), (h - 2 * margin) / (y1 - y0));
  view.ox = (w - (x1 - x0) * view.scale) / 2 - x0 * view.scale;
  view.oy = (h + (y1 - y0) * view.scale) / 2 + y0 * view.scale;
}

const toScreen = ([x, y]) => [view.ox + x * view.scale, view.oy - y * view.scale];
const toWorld = ([sx, sy]) => [(sx - view.ox) / view.scale, (view.oy - sy) / view.scale];

// Client (CSS pixel) coordinates of a world point, and back: for the browser test too.
function worldToClient([x, y]) {
  const r = canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
  const [sx, sy] = toScreen([x, y]);
  return [r.left + sx / dpr, r.top + sy / dpr];
}
function clientToWorld(cx, cy) {
  const r = canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
  return toWorld([(cx - r.left) * dpr, (cy - r.top) * dpr]);
}
window.corridorView = { worldToClient, clientToWorld };

function polyline(c, points, close) {
  c.beginPath();
  points.forEach((p, i) => { const [x, y] = toScreen(p); i ? c.lineTo(x, y) : c.moveTo(x, y); });
  if (close) c.closePath();
}

function drawStatic() {
  const layer = document.createElement("canvas");
  layer.width = canvas.width; layer.height = canvas.height;
  const c = layer.getContext("2d");
  c.fillStyle = "#d8d8d4";
  c.fillRect(0, 0, layer.width, layer.height);
  c.fillStyle = "#ffffff";
  polyline(c, map.boundary, true);
  c.fill();
  c.strokeStyle = "#4d4d4d"; c.lineWidth = 1.5;
  c.stroke();
  if (layers.annotations) {
    c.strokeStyle = "#b9b9b9"; c.lineWidth = 0.7;
    c.beginPath();
    for (const [px, py, lx, ly, rx, ry] of map.annotations) {
      const p = toScreen([px, py]), l = toScreen([lx, ly]), r = toScreen([rx, ry]);
      c.moveTo(l[0], l[1]); c.lineTo(p[0], p[1]); c.lineTo(r[0], r[1]);
    }
    c.stroke();
  }
  if (layers.obstacles) {
    for (const o of map.obstacles) {
      const colour = o.door ? "#a0522d" : "#4d4d4d";
      if (o.kind === "polygon") {
        c.beginPath();
        for (const ring of o.rings) {
          ring.forEach((p, i) => { const [x, y] = toScreen(p); i ? c.lineTo(x, y) : c.moveTo(x, y); });
          c.closePath();
        }
        c.fillStyle = colour;
        c.fill("evenodd");
      } else if (o.kind === "polyline") {
        polyline(c, o.points, false);
        c.strokeStyle = colour; c.lineWidth = 2.5; c.stroke();
      } else {
        const [x, y] = toScreen(o.point);
        c.fillStyle = colour; c.beginPath(); c.arc(x, y, 3, 0, 2 * Math.PI); c.fill();
      }
    }
  }
  if (layers.medial) {
    c.strokeStyle = "#1f77b4"; c.lineWidth = 1.2;
    c.beginPath();
    for (const edge of map.medial) {
      edge.forEach((p, i) => { const [x, y] = toScreen(p); i ? c.lineTo(x, y) : c.moveTo(x, y); });
    }
    c.stroke();
  }
  if (layered) {
    // The connections of this floor, named by the floor on their other side.
    c.lineWidth = 5; c.strokeStyle = "#9467bd"; c.fillStyle = "#5b3a8a";
    c.font = `${12 * (window.devicePixelRatio || 1)}px system-ui, sans-serif`;
    for (const k of layered.connections) {
      const other = k.layers[0] === floor ? k.layers[1] : k.layers[1] === floor ? k.layers[0] : null;
      if (other === null) continue;
      polyline(c, k.segment, false); c.stroke();
      const [x, y] = toScreen([(k.segment[0][0] + k.segment[1][0]) / 2, (k.segment[0][1] + k.segment[1][1]) / 2]);
      c.fillText("→ " + layered.layers[other].name, x + 6, y - 6);
    }
  }
  return layer;
}

// The corridor: the quadrilaterals between consecutive steps' nearest obstacle points
// and the steps' clearance discs, drawn opaque once and laid over the map translucent.
let corridorCache = null;
function corridorLayer(shown) {
  const key = path && [view.scale, view.ox, view.oy, canvas.width, canvas.height, floor].join();
  if (corridorCache && corridorCache.path === path && corridorCache.key === key) return corridorCache.layer;
  const layer = document.createElement("canvas");
  layer.width = canvas.width; layer.height = canvas.height;
  const c = layer.getContext("2d");
  c.fillStyle = "rgb(44, 160, 44)";
  for (const piece of shown) {
    const { left, right, medial } = piece.corridor;
    for (let i = 0; i < medial.length; i++) {
      if (i > 0) { polyline(c, [left[i - 1], left[i], right[i], right[i - 1]], true); c.fill(); }
      const [x, y] = toScreen(medial[i]);
      const r = Math.hypot(medial[i][0] - left[i][0], medial[i][1] - left[i][1]) * view.scale;
      c.beginPath(); c.arc(x, y, r, 0, 2 * Math.PI); c.fill();
    }
  }
  const out = document.createElement("canvas");
  out.width = layer.width; out.height = layer.height;
  const o = out.getContext("2d");
  o.globalAlpha = 0.22;
  o.drawImage(layer, 0, 0);
  corridorCache = { path, key, layer: out };
  return out;
}

function draw() {
  if (!map) return;
  if (!staticLayer) staticLayer = drawStatic();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(staticLayer, 0, 0);
  if (drag && drag.kind === "move" && (drag.dx || drag.dy)) {
    // The dragged obstacle where the pointer is (the server catches up step by step).
    ctx.save();
    ctx.translate(drag.dx * view.scale, -drag.dy * view.scale);
    ctx.fillStyle = "rgba(77, 77, 77, 0.45)";
    polyline(ctx, obstaclePoints(drag.obstacle), drag.obstacle.kind === "polygon");
    if (drag.obstacle.kind === "polygon") ctx.fill(); else { ctx.strokeStyle = "rgba(77,77,77,0.45)"; ctx.lineWidth = 2.5; ctx.stroke(); }
    ctx.restore();
  }
  if (seen && layers.visibility) drawVisibility(seen);
  // The pieces of the path on the floor shown.
  const shown = pieces().filter((p) => p.layer === floor);
  if (shown.length && layers.corridor) ctx.drawImage(corridorLayer(shown), 0, 0);
  for (const piece of shown) {
    if (layers.path) {
      ctx.strokeStyle = "#d62728"; ctx.lineWidth = 2.5; ctx.setLineDash([]);
      polyline(ctx, piece.points, false); ctx.stroke();
    }
    if (layers.route) {
      ctx.strokeStyle = "#ff7f0e"; ctx.lineWidth = 2; ctx.setLineDash([7, 4]);
      polyline(ctx, piece.indicative_route, false); ctx.stroke();
      ctx.setLineDash([]);
    }
  }
  if (crowd && layers.crowd) {
    const colours = { w: "rgba(23, 190, 207, 0.85)", a: "rgba(44, 160, 44, 0.85)", b: "rgba(214, 39, 40, 0.85)" };
    for (let i = 0; i < crowd.count; i++) {
      const [x, y] = toScreen([crowd.positions[2 * i], crowd.positions[2 * i + 1]]);
      ctx.fillStyle = colours[crowd.phases[i]] || colours.w;
      ctx.beginPath(); ctx.arc(x, y, Math.max(1.5, crowd.radii[i] * view.scale), 0, 2 * Math.PI); ctx.fill();
    }
  }
  if (goal && (goal.layer === undefined || goal.layer === floor)) {
    const [x, y] = toScreen(goal);
    ctx.strokeStyle = "#111"; ctx.lineWidth = 2.5;
    ctx.beginPath(); ctx.moveTo(x - 6, y - 6); ctx.lineTo(x + 6, y + 6); ctx.moveTo(x - 6, y + 6); ctx.lineTo(x + 6, y - 6); ctx.stroke();
  }
  if (character && (!layered || character.layer === floor)) {
    const [x, y] = toScreen(character.pos);
    ctx.fillStyle = "rgba(123, 63, 191, 0.85)";
    ctx.beginPath(); ctx.arc(x, y, Math.max(3, corridorState.radius * view.scale), 0, 2 * Math.PI); ctx.fill();
  }
  if (drawing.length) {
    ctx.strokeStyle = "#2ca02c"; ctx.lineWidth = 2;
    polyline(ctx, drawing, false); ctx.stroke();
    for (const p of drawing) { const [x, y] = toScreen(p); ctx.fillStyle = "#2ca02c"; ctx.fillRect(x - 3, y - 3, 6, 6); }
  }
  corridorState.redraws++;
  corridorState.drawnPathSeq = corridorState.pathSeq;
}

let lastFrame = performance.now();
function frame(now) {
  const dt = Math.min(0.1, (now - lastFrame) / 1000);
  lastFrame = now;
  corridorState.frames++;
  lookAround();
  walk(dt);
  if (dirty) { dirty = false; draw(); }
  requestAnimationFrame(frame);
}

// ---- pointer gestures ---------------------------------------------------------------

function pointerWorld(e) { return clientToWorld(e.clientX, e.clientY); }

canvas.addEventListener("pointerdown", (e) => {
  if (!map) return;
  canvas.setPointerCapture(e.pointerId);
  const p = pointerWorld(e);
  const tool = corridorState.tool;
  const o = tool === "move" ? obstacleAt(p) : null;
  if (o && e.button === 0) {
    drag = { kind: "move", obstacle: o, start: p, dx: 0, dy: 0, sentDx: 0, sentDy: 0, sending: false };
  } else {
    drag = { kind: "pan", x: e.clientX, y: e.clientY, ox: view.ox, oy: view.oy, moved: false, button: e.button };
  }
});

canvas.addEventListener("pointermove", (e) => {
  const at = pointerWorld(e);
  const step = cursor ? [at[0] - cursor.at[0], at[1] - cursor.at[1]] : [0, 0];
  // The cone looks the way the pointer moves.
  const dir = Math.hypot(...step) > 1e-9 ? step : cursor ? cursor.dir : [1, 0];
  cursor = { at, dir };
  cursorMoved = true;
  if (!drag) return;
  const dpr = window.devicePixelRatio || 1;
  if (drag.kind === "pan") {
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.hypot(dx, dy) > 4) drag.moved = true;
    if (drag.moved) {
      view.ox = drag.ox + dx * dpr; view.oy = drag.oy + dy * dpr;
      staticLayer = null; dirty = true;
    }
  } else {
    const p = pointerWorld(e);
    drag.dx = p[0] - drag.start[0]; drag.dy = p[1] - drag.start[1];
    dirty = true;
    pumpDrag(drag);
  }
});

// Sends the part of a drag the server has not had yet, one update at a time, until
// nothing is left (the pointer may move on while an update is on its way).
async function pumpDrag(d) {
  if (d.sending) return;
  d.sending = true;
  corridorState.sendingDrag = true;
  for (;;) {
    const dx = d.dx - d.sentDx, dy = d.dy - d.sentDy;
    if (!dx && !dy) break;
    d.sentDx = d.dx; d.sentDy = d.dy;
    const msg = await update([{ translate: { id: d.obstacle.id, offset: [dx, dy] } }]);
    if (msg.type === "error") { d.sentDx -= dx; d.sentDy -= dy; break; }
  }
  d.sending = false;
  corridorState.sendingDrag = false;
}

canvas.addEventListener("pointerup", async (e) => {
  const d = drag;
  drag = null;
  if (!d || !map) return;
  dirty = true;
  if (d.kind === "move") { await pumpDrag(d); return; }
  if (d.moved || d.button !== 0) return;
  await click(pointerWorld(e), e.detail);
});

async function click(p, clicks) {
  switch (corridorState.tool) {
    case "goal":
      if (corridorState.crowd.running) await crowdGoal(p);
      else await setGoal(p);
      break;
    case "delete": {
      const o = obstacleAt(p);
      if (o) await update([{ remove: o.id }]);
      break;
    }
    case "door": {
      const o = obstacleAt(p);
      if (o && o.door) await update([{ remove: o.id }]);
      else if (!o) await update([{ close_door: p }]);
      break;
    }
    case "draw": {
      const close = drawing.length >= 3 && (clicks >= 2 ||
        Math.hypot(...toScreen(p).map((v, i) => v - toScreen(drawing[0])[i])) < 8);
      if (close) {
        const polygon = drawing;
        drawing = [];
        await update([{ insert: { polygon } }]);
      } else {
        drawing.push(p);
      }
      dirty = true;
      break;
    }
  }
}

canvas.addEventListener("wheel", (e) => {
  e.preventDefault();
  const dpr = window.devicePixelRatio || 1;
  const r = canvas.getBoundingClientRect();
  const sx = (e.clientX - r.left) * dpr, sy = (e.clientY - r.top) * dpr;
  const k = Math.exp(-e.deltaY * 0.0015);
  view.ox = sx - (sx - view.ox) * k; view.oy = sy - (sy - view.oy) * k; view.scale *= k;
  staticLayer = null; dirty = true;
}, { passive: false });

window.addEventListener("keydown", (e) => {
  if (e.key === "Escape") { drawing = []; dirty = true; }
});

// ---- files --------------------------------------------------------------------------

async function uploadFile(file) {
  const text = await file.text();
  $("map-info").textContent = "loading " + file.name + "…";
  const msg = await request({ type: "upload", name: file.name, text });
  if (msg.type === "error") { $("map-info").textContent = msg.message; return; }
  await loadList(msg.env);
  await switchEnvironment(msg.env);
}

window.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dragging"); });
window.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
window.addEventListener("drop", (e) => {
  e.preventDefault();
  document.body.classList.remove("dragging");
  for (const f of e.dataTransfer.files) uploadFile(f);
});
$("file").addEventListener("change", (e) => { for (const f of e.target.files) uploadFile(f); });

// ---- controls -----------------------------------------------------------------------

$("env").addEventListener("change", (e) => switchEnvironment(e.target.value));
$("floor").addEventListener("change", (e) => { setFloor(e.target.value, false); dirty = true; });
for (const id of ["radius", "clearance"]) {
  $(id).addEventListener("input", () => { readSliders(); dirty = true; replan(); });
}
for (const input of document.querySelectorAll("#layers input")) {
  input.addEventListener("change", () => {
    layers[input.dataset.layer] = input.checked;
    if (input.dataset.layer === "visibility") cursorMoved = true;
    staticLayer = null; dirty = true;
  });
}
for (const input of document.querySelectorAll("#tools input")) {
  input.addEventListener("change", () => { corridorState.tool = input.value; drawing = []; dirty = true; });
}
$("walk").addEventListener("change", () => { if ($("walk").checked && !path) newRandomGoal(); });
window.addEventListener("resize", () => { resize(); });

async function start() {
  resize();
  await connect();
  const params = new URLSearchParams(location.search);
  if (params.get("walk") === "0") $("walk").checked = false;
  await loadList(params.get("env"));
  await switchEnvironment($("env").value);
  corridorState.ready = true;
  requestAnimationFrame(frame);
}
start();
