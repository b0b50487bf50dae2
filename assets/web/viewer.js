// poolsim's match page: every shot of a match replayed from its stored ball states.
//
// The motion is sim/physics/timeline.py's, ported: from pooltool's state of each ball
// after each event, the closed-form motion until the next event (constant acceleration
// of the centre, linearly decaying vertical spin), and the balls' orientations
// integrated through each interval in sixth-order Magnus steps ("knots"), then one step
// from the last knot to the time asked. See the Python module for the derivation.
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

const DATA = JSON.parse(document.getElementById("poolsim-data").textContent);
const TEXTURES = JSON.parse(document.getElementById("poolsim-textures").textContent);

const FRAME = 1 / 60; // one frame step, as the desktop replay's
const SPEEDS = [0.125, 0.25, 0.5, 1.0, 1.5, 2.0];
const MAX_PLAY_STEP = 0.1;
const SNAP_SECONDS = 1e-10;
const MAX_STEP_ANGLE = 0.25;
const MAX_STEP_SPIN_CHANGE = 0.05;
const SPIN_EPS = 2.220446049250313e-16 * 100;
const SLIDING = 2, ROLLING = 3, SPINNING = 1, POCKETED = 4;
const PATH_STEP = 1 / 120; // seconds between the points of a drawn path

// -- the data -------------------------------------------------------------------------

function bytes(b64) {
  const text = atob(b64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}
const f64 = (b64) => new Float64Array(bytes(b64).buffer);
const f32 = (b64) => new Float32Array(bytes(b64).buffer);

const norm3 = (x, y, z) => Math.sqrt(x * x + y * y + z * z);

// The rotation (w, x, y, z) over h seconds of a ball whose angular velocity is
// w + dw s (timeline._step_rotation).
function stepRotation(w, dw, h, out) {
  const ux = h * (w[0] + dw[0] * 0.5 * h), uy = h * (w[1] + dw[1] * 0.5 * h), uz = h * (w[2] + dw[2] * 0.5 * h);
  const h2 = h * h;
  const vx = h2 * dw[0], vy = h2 * dw[1], vz = h2 * dw[2];
  const uu = ux * ux + uy * uy + uz * uz, vv = vx * vx + vy * vy + vz * vz, uv = ux * vx + uy * vy + uz * vz;
  const px = uy * vz - uz * vy, py = uz * vx - ux * vz, pz = ux * vy - uy * vx;
  const a = 1 - vv / 240, b = uv / 240, c = 1 / 12 + uu / 720;
  const rx = ux * a + vx * b - px * c, ry = uy * a + vy * b - py * c, rz = uz * a + vz * b - pz * c;
  const angle = norm3(rx, ry, rz);
  const half = 0.5 * angle;
  const s = Math.sin(half) / Math.max(angle, 1e-300);
  out[0] = Math.cos(half); out[1] = rx * s; out[2] = ry * s; out[3] = rz * s;
  return out;
}

// Hamilton product a * b of (w, x, y, z) quaternions.
function quatMul(a, b, out) {
  const [aw, ax, ay, az] = a, [bw, bx, by, bz] = b;
  out[0] = aw * bw - ax * bx - ay * by - az * bz;
  out[1] = aw * bx + ax * bw + ay * bz - az * by;
  out[2] = aw * by - ax * bz + ay * bw + az * bx;
  out[3] = aw * bz + ax * by - ay * bx + az * bw;
  return out;
}

// One shot's timeline: built once, then "all balls at time t" for any t.
class Timeline {
  constructor(shot) {
    this.shot = shot;
    this.ids = shot.ids;
    this.times = f64(shot.t);
    const B = this.ids.length, E = this.times.length;
    this.B = B; this.E = E;
    const changed = bytes(shot.new), rows = f32(shot.rvw), modes = bytes(shot.m);
    // Every (event, ball) state: a ball at rest keeps the one before.
    const rvw = new Float64Array(E * B * 9), motion = new Uint8Array(E * B);
    let row = 0;
    for (let e = 0; e < E; e++) {
      for (let b = 0; b < B; b++) {
        const cell = e * B + b;
        if (changed[cell]) {
          for (let i = 0; i < 9; i++) rvw[cell * 9 + i] = rows[row * 9 + i];
          motion[cell] = modes[row];
          row++;
        } else {
          for (let i = 0; i < 9; i++) rvw[cell * 9 + i] = rvw[(cell - B) * 9 + i];
          motion[cell] = motion[cell - B];
        }
      }
    }
    this.motion = motion;
    this.params = shot.params.map((i) => DATA.params[i]);
    this.coefficients = [];
    for (let e = 0; e < E; e++) {
      const next = e + 1 < E ? this.times[e + 1] - this.times[e] : 0;
      for (let b = 0; b < B; b++) {
        const cell = e * B + b;
        this.coefficients.push(coefficients(rvw.subarray(cell * 9, cell * 9 + 9), motion[cell], this.params[b], next));
      }
    }
    this.integrate(f64(shot.q0));
    this.markers = shot.markers;
    this.eventTimes = [...new Set(shot.markers.map((m) => m.t))].sort((a, b) => a - b);
  }

  get duration() { return this.times[this.E - 1]; }

  // Every ball's orientation knots, ball by ball through all its intervals.
  integrate(start) {
    const knots = [];
    const step = [0, 0, 0, 0];
    for (let b = 0; b < this.B; b++) {
      let q = [start[4 * b], start[4 * b + 1], start[4 * b + 2], start[4 * b + 3]];
      for (let e = 0; e < this.E; e++) {
        const c = this.coefficients[e * this.B + b];
        c.knot = knots.length;
        const n = c.na + c.nb;
        const time = (i) => (i < c.na ? i * c.ha : c.stop + (i - c.na) * c.hb);
        for (let j = 0; j < n; j++) {
          const s0 = time(j);
          const s1 = j + 1 === n ? c.live : time(j + 1);
          const m = Math.min(s0, c.stop);
          const w = [0, 1, 2].map((i) => c.w0[i] + c.cw[i] * s0 + c.spin[i] * m);
          const dw = [0, 1, 2].map((i) => c.cw[i] + (j < c.na ? c.spin[i] : 0));
          knots.push({ q, w, dw, t: s0 });
          const next = quatMul(stepRotation(w, dw, s1 - s0, step), q, [0, 0, 0, 0]);
          const len = Math.hypot(...next);
          q = next.map((x) => x / len);
        }
      }
      knots.push({ q, w: [0, 0, 0], dw: [0, 0, 0], t: 0 }); // the ball at rest at the end
    }
    this.knots = knots;
  }

  // The last event at or before t (the last of several at the same time).
  eventAt(t) {
    let lo = 0, hi = this.E; // first index with times[i] > t
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid] > t) hi = mid; else lo = mid + 1;
    }
    return Math.max(0, lo - 1);
  }

  // All balls at time t: positions (x, y, z), orientations (w, x, y, z), pocketed.
  at(t) {
    t = Math.min(Math.max(t, 0), this.duration);
    const k = this.eventAt(t);
    let tau = t - this.times[k];
    if (tau < SNAP_SECONDS) tau = 0;
    const balls = [];
    const step = [0, 0, 0, 0];
    for (let b = 0; b < this.B; b++) {
      const c = this.coefficients[k * this.B + b];
      const te = Math.min(tau, c.live);
      const position = [0, 1, 2].map((i) => c.r0[i] + te * (c.v0[i] + 0.5 * c.acc[i] * te));
      let j;
      if (te > c.stop) j = c.na + Math.min(Math.floor((te - c.stop) * c.perB), c.nb - 1);
      else j = Math.min(Math.floor(te * c.perA), c.na - 1);
      const knot = this.knots[c.knot + Math.max(j, 0)];
      const orientation = quatMul(stepRotation(knot.w, knot.dw, te - knot.t, step), knot.q, [0, 0, 0, 0]);
      balls.push({ id: this.ids[b], position, orientation, pocketed: this.motion[k * this.B + b] === POCKETED });
    }
    return balls;
  }
}

// The closed-form motion of one ball after one event (timeline._coefficients).
function coefficients(rvw, motion, p, untilNext) {
  const [R, us, ur, usp, g] = p;
  const r = [rvw[0], rvw[1], rvw[2]], v = [rvw[3], rvw[4], rvw[5]], w = [rvw[6], rvw[7], rvw[8]];
  const sliding = motion === SLIDING, rolling = motion === ROLLING, spinning = motion === SPINNING;
  const slip = [v[0] - R * w[1], v[1] + R * w[0], v[2]];
  const slipSpeed = norm3(...slip);
  const slipDir = slipSpeed > 0 ? slip.map((x) => x / slipSpeed) : [0, 0, 0];
  const speed = norm3(...v);
  const vDir = speed > 0 ? v.map((x) => x / speed) : [0, 0, 0];
  const alpha = (5 * usp * g) / (2 * R);
  let left = 0;
  if (sliding) left = (2 * slipSpeed) / (7 * us * g);
  else if (rolling) left = speed / (ur * g);
  else if (spinning) left = ((((Math.abs(w[2]) * 2) / 5) * R) / usp) / g;
  const live = Math.min(left, untilNext);
  let acc = [0, 0, 0], cw = [0, 0, 0];
  if (sliding) {
    acc = slipDir.map((x) => -(us * g) * x);
    const k = -((5 / (2 * R)) * us * g);
    cw = [k * slipDir[1], -k * slipDir[0], 0];
  } else if (rolling) {
    acc = vDir.map((x) => -(ur * g) * x);
    cw = [-acc[1] / R, acc[0] / R, 0];
  }
  const decays = (sliding || rolling || spinning) && Math.abs(w[2]) >= SPIN_EPS;
  const spin = [0, 0, decays ? -Math.sign(w[2]) * alpha : 0];
  const stop = Math.min(decays ? Math.abs(w[2]) / alpha : 0, live);
  const omega = (s) => [0, 1, 2].map((i) => w[i] + cw[i] * s + spin[i] * Math.min(s, stop));
  const steps = (length, w1, w2, dw) => {
    const turn = Math.max(norm3(...w1), norm3(...w2));
    const h = Math.min(MAX_STEP_ANGLE / turn, Math.sqrt(MAX_STEP_SPIN_CHANGE / dw));
    const n = Number.isFinite(h) ? Math.ceil(length / h) : 0;
    return length > 0 ? Math.max(n, 1) : 0;
  };
  const wStop = omega(stop);
  const dwB = norm3(...cw);
  const na = steps(stop, w, wStop, Math.hypot(dwB, spin[2]));
  const nb = steps(live - stop, wStop, omega(live), dwB);
  return {
    r0: r, v0: v, acc, w0: w, cw, spin, stop, live, na, nb,
    perA: na > 0 ? na / stop : 0, ha: na > 0 ? stop / na : 0,
    perB: nb > 0 ? nb / (live - stop) : 0, hb: nb > 0 ? (live - stop) / nb : 0,
    knot: 0,
  };
}

// -- words ---------------------------------------------------------------------------

const POCKET_NAMES = {
  lb: "head-left corner", lc: "left side", lt: "foot-left corner",
  rb: "head-right corner", rc: "right side", rt: "foot-right corner",
};
const ballWords = (b) => (b === "cue" ? "the cue ball" : `the ${b}`);
function eventWords(m) {
  const balls = m.balls.map(ballWords);
  if (m.kind === "strike") return `the cue strikes ${balls[0]}`;
  if (m.kind === "first-contact" || m.kind === "hit")
    return balls.length === 2 ? `${balls[0]} hits ${balls[1]}` : `${balls.join(" and ")} meet`;
  if (m.kind === "rail") return `${balls[0]} reaches the ${m.place} rail`;
  return `${balls[0]} drops in the ${POCKET_NAMES[m.place] || "pocket"}`;
}

// -- the scene -----------------------------------------------------------------------

const T = DATA.table;
const view = document.getElementById("view");
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
view.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x101418);
const camera = new THREE.PerspectiveCamera(40, 1, 0.02, 50);
camera.up.set(0, 0, 1);
const controls = new OrbitControls(camera, renderer.domElement);
controls.enableDamping = true;
controls.maxPolarAngle = Math.PI / 2 - 0.05;
controls.minDistance = 0.2;
controls.maxDistance = 8;

scene.add(new THREE.HemisphereLight(0xffffff, 0x303030, 1.6));
const lamp = new THREE.DirectionalLight(0xffffff, 2.0);
lamp.position.set(T.width / 2 + 0.4, T.length / 2 - 0.6, 3);
lamp.target.position.set(T.width / 2, T.length / 2, 0);
scene.add(lamp, lamp.target);

const loader = new THREE.TextureLoader();
function texture(name) {
  const tex = loader.load(TEXTURES[name]);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.anisotropy = 4;
  return tex;
}

const RAIL = 0.06, WOOD = 0.14; // the cushions' and the wooden rails' widths (metres)
const H = T.cushion_height;
const cloth = texture("cloth");
cloth.wrapS = cloth.wrapT = THREE.RepeatWrapping;
cloth.repeat.set(T.width * 2, T.length * 2);
const clothMaterial = new THREE.MeshStandardMaterial({ map: cloth, color: 0x2f8a4c, roughness: 0.95 });
const bed = new THREE.Mesh(new THREE.PlaneGeometry(T.width + 2 * RAIL, T.length + 2 * RAIL), clothMaterial);
bed.position.set(T.width / 2, T.length / 2, 0);
scene.add(bed);

// The cushions: a prism behind each straight nose the physics uses.
const cushionMaterial = new THREE.MeshStandardMaterial({ color: 0x1f6e3a, roughness: 0.9 });
for (const [x1, y1, x2, y2] of T.cushions) {
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy);
  if (len < 0.02) continue;
  let nx = dy / len, ny = -dx / len; // a normal, turned away from the table's centre
  if ((T.width / 2 - (x1 + x2) / 2) * nx + (T.length / 2 - (y1 + y2) / 2) * ny > 0) { nx = -nx; ny = -ny; }
  const box = new THREE.Mesh(new THREE.BoxGeometry(len, RAIL, H), cushionMaterial);
  box.position.set((x1 + x2) / 2 + (nx * RAIL) / 2, (y1 + y2) / 2 + (ny * RAIL) / 2, H / 2);
  box.rotation.z = Math.atan2(dy, dx);
  scene.add(box);
}
// The wooden rails round it all.
const woodMaterial = new THREE.MeshStandardMaterial({ color: 0x6b3a1e, roughness: 0.6 });
const outer = RAIL + WOOD;
for (const [cx, cy, sx, sy] of [
  [T.width / 2, -RAIL - WOOD / 2, T.width + 2 * outer, WOOD],
  [T.width / 2, T.length + RAIL + WOOD / 2, T.width + 2 * outer, WOOD],
  [-RAIL - WOOD / 2, T.length / 2, WOOD, T.length + 2 * RAIL],
  [T.width + RAIL + WOOD / 2, T.length / 2, WOOD, T.length + 2 * RAIL],
]) {
  const box = new THREE.Mesh(new THREE.BoxGeometry(sx, sy, H + 0.01), woodMaterial);
  box.position.set(cx, cy, (H + 0.01) / 2);
  scene.add(box);
}
// The pockets: holes in the cloth and in the rails.
const hole = new THREE.MeshBasicMaterial({ color: 0x050505 });
for (const [, x, y, r] of T.pockets) {
  for (const z of [0.0006, H + 0.0106]) {
    const disc = new THREE.Mesh(new THREE.CircleGeometry(r, 40), hole);
    disc.position.set(x, y, z);
    scene.add(disc);
  }
}

// The balls: poolsim's equirectangular textures (u: longitude about the ball's z axis,
// 0.5 at +x; v: latitude, 0 at the south pole); three's sphere has its poles on y.
const R = DATA.params.length ? DATA.params[0][0] : 0.028575;
const sphere = new THREE.SphereGeometry(R, 48, 24);
sphere.rotateX(Math.PI / 2);
const ballMeshes = new Map();
function ballMesh(id) {
  if (!ballMeshes.has(id)) {
    const name = id in TEXTURES ? id : "cue";
    const mesh = new THREE.Mesh(sphere, new THREE.MeshStandardMaterial({ map: texture(name), roughness: 0.25, metalness: 0.0 }));
    scene.add(mesh);
    ballMeshes.set(id, mesh);
  }
  return ballMeshes.get(id);
}

// The number labels over the balls, as the desktop scene has them: a disc facing the
// camera just in front of each ball, shown while the camera looks down more steeply than
// LABEL_PITCH on balls narrower than LABEL_BELOW_PIXELS on the screen; but not on balls
// narrower than LABEL_ABOVE_PIXELS (a phone's overhead view), where the white disc would
// hide the ball's colour and its number could not be read anyway.
const LABEL_PITCH = 40, LABEL_BELOW_PIXELS = 36, LABEL_ABOVE_PIXELS = 16, LABEL_SIZE = 0.45;
const labels = new Map();
function ballLabel(id) {
  if (!labels.has(id) && `label-${id}` in TEXTURES) {
    const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture(`label-${id}`), depthWrite: false, transparent: true }));
    sprite.scale.set(2 * LABEL_SIZE * R, 2 * LABEL_SIZE * R, 1);
    sprite.visible = false;
    scene.add(sprite);
    labels.set(id, sprite);
  }
  return labels.get(id);
}
function labelsFar() {
  const forward = new THREE.Vector3();
  camera.getWorldDirection(forward);
  const down = -forward.z, height = camera.position.z;
  if (!(down > Math.sin(THREE.MathUtils.degToRad(LABEL_PITCH)) && height > 0)) return false;
  const distance = height / down;
  const perMetre = view.clientHeight / (2 * distance * Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2));
  const pixels = 2 * R * perMetre;
  return pixels < LABEL_BELOW_PIXELS && pixels >= LABEL_ABOVE_PIXELS;
}
function showLabels() {
  const far = labelsFar();
  for (const [id, sprite] of labels) {
    const mesh = ballMeshes.get(id);
    sprite.visible = far && mesh !== undefined && mesh.visible;
    if (sprite.visible) {
      const toEye = camera.position.clone().sub(mesh.position).normalize();
      sprite.position.copy(mesh.position).addScaledVector(toEye, 1.05 * R);
    }
  }
}

// The balls' paths, in their colours.
const pathGroup = new THREE.Group();
scene.add(pathGroup);

// -- the viewer ----------------------------------------------------------------------

const shots = DATA.shots;
const cache = new Map();
function timeline(i) {
  if (!cache.has(i)) {
    if (cache.size > 8) cache.delete(cache.keys().next().value);
    cache.set(i, new Timeline(shots[i]));
  }
  return cache.get(i);
}

const state = { shot: 0, t: 0, playing: true, speed: 3, loop: false, paths: true, view: "broadcast" };
let tl = null;
let paths = [];
const $ = (id) => document.getElementById(id);

function buildPaths() {
  pathGroup.clear();
  paths = [];
  const n = Math.ceil(tl.duration / PATH_STEP);
  const times = [];
  for (let i = 0; i <= n; i++) times.push(Math.min(i * PATH_STEP, tl.duration));
  for (const t of tl.times) times.push(t);
  times.sort((a, b) => a - b);
  const samples = times.map((t) => tl.at(t));
  for (let b = 0; b < tl.B; b++) {
    const id = tl.ids[b];
    const points = new Float32Array(times.length * 3);
    let moved = false;
    samples.forEach((balls, i) => {
      const p = balls[b].position;
      points.set([p[0], p[1], Math.max(p[2], 0) - R + 0.0015], i * 3);
      if (i && (p[0] !== points[0] || p[1] !== points[1])) moved = true;
    });
    if (!moved) continue;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(points, 3));
    const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: DATA.colours[id] || "#bbbbbb", transparent: true, opacity: 0.9 }));
    pathGroup.add(line);
    paths.push({ line, times });
  }
}

// A pocketed ball drops: for DROP_SECONDS after its pocket event it slides from where it
// met the pocket to the pocket's centre, sinking below the cloth (only the drawing does;
// the timeline has it in the pocket from the event on, as pooltool does).
const DROP_SECONDS = 0.3;
function dropping(ball) {
  const marker = tl.markers.find((m) => m.kind === "pocket" && m.balls[0] === ball.id && m.t <= state.t);
  if (!marker || state.t - marker.t >= DROP_SECONDS) return null;
  const before = tl.at(Math.max(marker.t - 1e-6, 0)).find((b) => b.id === ball.id).position;
  const f = (state.t - marker.t) / DROP_SECONDS;
  const [x, y, z] = ball.position;
  return [before[0] + (x - before[0]) * f, before[1] + (y - before[1]) * f, before[2] - 2.2 * R * f * f];
}

function showBalls() {
  const balls = tl.at(state.t);
  const seen = new Set();
  for (const ball of balls) {
    const mesh = ballMesh(ball.id);
    ballLabel(ball.id);
    seen.add(ball.id);
    const drop = ball.pocketed ? dropping(ball) : null;
    mesh.visible = !ball.pocketed || drop !== null;
    mesh.position.set(...(drop || ball.position));
    const [w, x, y, z] = ball.orientation;
    mesh.quaternion.set(x, y, z, w);
  }
  for (const [id, mesh] of ballMeshes) if (!seen.has(id)) mesh.visible = false;
  pathGroup.visible = state.paths;
  for (const { line, times } of paths) {
    let count = 0;
    while (count < times.length && times[count] <= state.t + 1e-9) count++;
    line.geometry.setDrawRange(0, count);
  }
}

function showWords() {
  const shot = shots[state.shot];
  const passed = tl.markers.filter((m) => m.t <= state.t + 1e-9);
  $("event-line").textContent = passed.length ? passed[passed.length - 1] && capital(eventWords(passed[passed.length - 1])) : "";
  $("clock").textContent = `${state.t.toFixed(2)} / ${tl.duration.toFixed(2)} s`;
  if (document.activeElement !== $("scrub") || state.playing) $("scrub").value = String(state.t);
  $("play").textContent = state.playing ? "❚❚" : "▶";
  $("speed").textContent = `${SPEEDS[state.speed]}×`;
  $("loop").checked = state.loop;
  $("paths").checked = state.paths;
  const done = state.t >= tl.duration - 1e-9;
  $("score").textContent = done ? shot.score : shot.score_before;
  $("said").textContent = shot.said ? (done ? shot.said : "The referee rules when the balls stop.") : "";
  $("said").classList.toggle("waiting", !done);
  $("details").hidden = !(done && shot.details.length);
}
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function select(i) {
  state.shot = Math.max(0, Math.min(shots.length - 1, i));
  tl = timeline(state.shot);
  const shot = shots[state.shot];
  state.t = 0;
  state.playing = true;
  $("scrub").max = String(tl.duration);
  $("ticks").replaceChildren(...tl.markers.map((m) => {
    const tick = document.createElement("div");
    tick.className = `tick ${m.kind}`;
    tick.style.left = `${(100 * m.t) / (tl.duration || 1)}%`;
    tick.title = eventWords(m);
    return tick;
  }));
  $("shot-label").textContent = shot.label + (shot.call ? ` · ${shot.call}` : "");
  $("shooter").textContent = shot.rack ? `${shot.shooter} at the table${shot.call ? ` · ${shot.call}` : ""}` : shot.label;
  $("reasons").replaceChildren(...shot.details.map(([text, foul]) => {
    const li = document.createElement("li");
    li.textContent = text;
    if (foul) li.className = "foul";
    return li;
  }));
  document.querySelectorAll("#shot-list li").forEach((li, j) => li.classList.toggle("current", j === state.shot));
  scrollToCurrent();
  buildPaths();
  if (state.view === "behind") setView("behind");
  refresh();
}

// The shot shown in view in the shot list when the list scrolls by itself (beside the
// table); on a phone the list is part of the page, which is left where the reader has it.
function scrollToCurrent() {
  const list = $("shots"), current = document.querySelector("#shot-list li.current");
  if (!current || list.scrollHeight <= list.clientHeight + 1) return;
  const top = current.offsetTop - list.offsetTop, bottom = top + current.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

function setTime(t) {
  state.t = Math.min(Math.max(t, 0), tl.duration);
  refresh();
}
function refresh() { showBalls(); showWords(); }
function togglePlay() {
  if (!state.playing && state.t >= tl.duration) state.t = 0;
  state.playing = !state.playing;
  refresh();
}
function stepFrames(n) {
  state.playing = false;
  setTime(Math.round(state.t / FRAME) * FRAME + n * FRAME);
}
function stepEvent(direction) {
  state.playing = false;
  if (direction > 0) {
    const later = tl.eventTimes.filter((t) => t > state.t + 1e-9);
    setTime(later.length ? later[0] : tl.duration);
  } else {
    const earlier = tl.eventTimes.filter((t) => t < state.t - 1e-9);
    setTime(earlier.length ? earlier[earlier.length - 1] : 0);
  }
}
function changeSpeed(n) { state.speed = Math.max(0, Math.min(SPEEDS.length - 1, state.speed + n)); showWords(); }

// -- the camera ----------------------------------------------------------------------

// The distance along ``direction`` (from the target to the camera) at which every
// corner of the table's rails is in the picture, under the shot's words at the top of
// it (a bisection on the distance).
function framedDistance(target, direction) {
  const words = ($("overlay").offsetHeight + 12) / (view.clientHeight || 1);
  const top = Math.max(0.5, 0.97 - 2 * words);
  const corners = [];
  for (const x of [-outer, T.width + outer]) for (const y of [-outer, T.length + outer]) for (const z of [0, H]) corners.push(new THREE.Vector3(x, y, z));
  const fits = (d) => {
    camera.position.copy(target).addScaledVector(direction, d);
    camera.lookAt(target);
    camera.updateMatrixWorld();
    return corners.every((p) => {
      const q = p.clone().project(camera);
      return q.z < 1 && Math.abs(q.x) <= 0.97 && q.y >= -0.97 && q.y <= top;
    });
  };
  let lo = 0.3, hi = 30;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) hi = mid; else lo = mid;
  }
  return hi;
}

function setView(name) {
  state.view = name;
  document.querySelectorAll("#views button").forEach((b) => b.classList.toggle("on", b.dataset.view === name));
  const centre = new THREE.Vector3(T.width / 2, T.length / 2, 0);
  let target = centre, direction;
  if (name === "overhead") {
    // Straight down, the table's long side along the window's long side.
    direction = camera.aspect < 1 ? new THREE.Vector3(0, -0.001, 1) : new THREE.Vector3(-0.001, 0, 1);
  } else if (name === "broadcast") {
    const pitch = THREE.MathUtils.degToRad(40);
    direction = new THREE.Vector3(0, -Math.cos(pitch), Math.sin(pitch));
  } else {
    // Behind the cue ball, along the way it was struck.
    const start = tl.at(0);
    const cue = start.find((b) => b.id === "cue") || start[0];
    const strike = tl.markers.find((m) => m.kind === "strike");
    let dir = [0, 1];
    if (strike) {
      const after = tl.at(Math.min(strike.t + 0.02, tl.duration)).find((b) => b.id === cue.id);
      const dx = after.position[0] - cue.position[0], dy = after.position[1] - cue.position[1];
      const len = Math.hypot(dx, dy);
      if (len > 1e-6) dir = [dx / len, dy / len];
    }
    const [x, y] = cue.position;
    target = new THREE.Vector3(x + dir[0] * 0.45, y + dir[1] * 0.45, 0);
    direction = new THREE.Vector3(-dir[0] * 0.93, -dir[1] * 0.93, 0.37).normalize();
  }
  direction.normalize();
  const distance = name === "behind" ? 1.5 : framedDistance(target, direction);
  controls.target.copy(target);
  camera.position.copy(target).addScaledVector(direction, distance);
  camera.lookAt(target);
  controls.update();
}

function resize() {
  const w = view.clientWidth || 1, h = view.clientHeight || 1;
  renderer.setSize(w, h, false);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
}

// -- the page ------------------------------------------------------------------------

$("title").textContent = DATA.title;
$("shot-list").replaceChildren(...shots.map((shot, i) => {
  const li = document.createElement("li");
  const mark = shot.depth ? `${"\u00a0\u00a0".repeat(shot.depth - 1)}\u21b3 ` : "";
  li.style.paddingLeft = `${12 + 14 * shot.depth}px`;
  li.textContent = `${mark}${shot.short} `;
  if (shot.depth) li.classList.add("branch");
  const said = document.createElement("span");
  said.textContent = shot.said ? `— ${shot.said}` : "";
  if (shot.details.some(([, foul]) => foul)) said.className = "foul";
  li.append(said);
  li.title = shot.label;
  li.addEventListener("click", () => select(i));
  return li;
}));

$("play").onclick = togglePlay;
$("prev-frame").onclick = () => stepFrames(-1);
$("next-frame").onclick = () => stepFrames(1);
$("prev-event").onclick = () => stepEvent(-1);
$("next-event").onclick = () => stepEvent(1);
$("prev-shot").onclick = () => select(state.shot - 1);
$("next-shot").onclick = () => select(state.shot + 1);
$("slower").onclick = () => changeSpeed(-1);
$("faster").onclick = () => changeSpeed(1);
$("loop").onchange = (e) => { state.loop = e.target.checked; };
$("paths").onchange = (e) => { state.paths = e.target.checked; refresh(); };
$("scrub").addEventListener("input", (e) => { state.playing = false; setTime(Number(e.target.value)); });
document.querySelectorAll("#views button").forEach((b) => { b.onclick = () => setView(b.dataset.view); });

// The desktop replay's keys (sim/app/replay.py), and the table's 1 2 3 for the views.
const KEYS = {
  " ": togglePlay,
  ArrowLeft: () => stepFrames(-1),
  ArrowRight: () => stepFrames(1),
  "[": () => stepEvent(-1),
  "]": () => stepEvent(1),
  "-": () => changeSpeed(-1),
  "=": () => changeSpeed(1),
  "+": () => changeSpeed(1),
  l: () => { state.loop = !state.loop; showWords(); },
  t: () => { state.paths = !state.paths; refresh(); },
  PageUp: () => select(state.shot - 1),
  PageDown: () => select(state.shot + 1),
  1: () => setView("behind"),
  2: () => setView("overhead"),
  3: () => setView("broadcast"),
};
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const action = KEYS[e.key.length === 1 ? e.key.toLowerCase() : e.key];
  if (!action) return;
  e.preventDefault();
  if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) document.activeElement.blur();
  action();
});

let last = performance.now();
function frame(now) {
  const dt = Math.min((now - last) / 1000, MAX_PLAY_STEP);
  last = now;
  if (state.playing) {
    let t = state.t + dt * SPEEDS[state.speed];
    if (t >= tl.duration) {
      if (state.loop) t = 0;
      else { t = tl.duration; state.playing = false; }
    }
    state.t = t;
    refresh();
  }
  controls.update();
  showLabels();
  renderer.render(scene, camera);
  requestAnimationFrame(frame);
}

new ResizeObserver(() => {
  const before = camera.aspect;
  resize();
  if (before !== camera.aspect && state.view !== "behind") setView(state.view);
}).observe(view);
resize();
select(0);
setView(state.view);
requestAnimationFrame(frame);

// A small API for tests and for the curious: where the balls are, and the controls.
window.poolsim = {
  format: DATA.format,
  shots: shots.length,
  ready: true,
  state: () => ({ shot: state.shot, t: state.t, playing: state.playing, speed: SPEEDS[state.speed], loop: state.loop, duration: tl.duration }),
  positions(shot, t) {
    const out = {};
    for (const ball of timeline(shot).at(t)) out[ball.id] = ball.position;
    return out;
  },
  orientations(shot, t) {
    const out = {};
    for (const ball of timeline(shot).at(t)) out[ball.id] = ball.orientation;
    return out;
  },
  camera: () => ({ position: camera.position.toArray(), target: controls.target.toArray() }),
  paths: () => state.paths && pathGroup.visible,
  events: (shot) => timeline(shot).markers.map((m) => ({ ...m })),
  select, seek: (t) => { state.playing = false; setTime(t); },
  play: () => { if (!state.playing) togglePlay(); },
  pause: () => { state.playing = false; refresh(); },
  stepFrames, stepEvent, setView,
  labels: () => [...labels.values()].filter((s) => s.visible).length,
  render: () => { renderer.render(scene, camera); },
};
