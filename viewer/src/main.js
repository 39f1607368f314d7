// Entry point of the viewer page: reads the scene JSON that gauss put into the page
// (<script id="gauss-scene">), draws the model with three.js and plays the trajectories, or
// (live pages served by `gauss view --serve`) polls the simulation and sends commands.
import * as THREE from 'three';
import {OrbitControls} from 'three/examples/jsm/controls/OrbitControls.js';
import {Rig} from './scene.js';
import {buildUi} from './ui.js';
import {LiveClient} from './live.js';

const scene = JSON.parse(document.getElementById('gauss-scene')?.textContent ?? '{}');
const ui = buildUi(scene);
const trajectories = scene.trajectories;
const nbody = scene.model.bodies.length;
/** Numbers per frame in a trajectory's `skins` (3 per skin vertex). */
const nskinvalues = 3 * (scene.model.skins ?? []).reduce((n, skin) => n + skin.nvert, 0);
// The picture is drawn only when something changed (`dirty`): software-rendered WebGL (and
// laptop batteries) pay for every frame.
let dirty = true;

// ---------------------------------------------------------------- scene size and camera
/** Bounding box of the moving bodies over every frame plus the non-plane world geoms. */
function sceneBounds() {
  const box = new THREE.Box3();
  const add = (poses) => {
    for (let k = 0; k + 2 < poses.length; k += 7) box.expandByPoint(new THREE.Vector3(poses[k], poses[k + 1], poses[k + 2]));
  };
  add(scene.rest);
  for (const t of trajectories) add(t.poses);
  for (const g of scene.model.geoms) {
    if (g.body === 0 && g.type !== 'plane') box.expandByPoint(new THREE.Vector3(...g.pos));
  }
  if (box.isEmpty()) box.expandByPoint(new THREE.Vector3());
  box.expandByScalar(0.2 * Math.max(0.1, box.getSize(new THREE.Vector3()).length()));
  return box;
}
const bounds = sceneBounds();
const center = bounds.getCenter(new THREE.Vector3());
const extent = Math.max(0.2, bounds.getSize(new THREE.Vector3()).length());

const renderer = new THREE.WebGLRenderer({canvas: ui.canvas, antialias: true, preserveDrawingBuffer: true});
renderer.setPixelRatio(window.devicePixelRatio);
const world = new THREE.Scene();
world.background = new THREE.Color(0xdfe6ec);
world.add(new THREE.HemisphereLight(0xffffff, 0x667788, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(1, -2, 3);
world.add(sun);
const camera = new THREE.PerspectiveCamera(45, 1, extent / 1000, extent * 100);
camera.up.set(0, 0, 1);  // MuJoCo's z is up
camera.position.copy(center).add(new THREE.Vector3(1.0, -1.6, 0.9).multiplyScalar(0.6 * extent));
const controls = new OrbitControls(camera, renderer.domElement);
controls.target.copy(center);
controls.update();

// ---------------------------------------------------------------- rigs (one per trajectory)
const rigs = (trajectories.length ? trajectories : [null]).map((_, i) => {
  const rig = new Rig(scene.model, i, 5 * extent);
  world.add(rig.root);
  return rig;
});
/** Per trajectory: index of each frame's first contact in its contact array. */
const contactStarts = trajectories.map((t) => {
  const nframe = t.time.length;
  const start = new Int32Array(nframe + 1);
  for (let k = 0; k < t.contacts.length; k += 9) start[t.contacts[k] + 1] += 9;
  for (let f = 0; f < nframe; ++f) start[f + 1] += start[f];
  return start;
});
// Arrows: a typical large normal force (the 90th percentile over all trajectories, so that one
// impact does not shrink every other arrow) is drawn 0.15 scene sizes long.
const forces = [];
for (const t of trajectories) for (let k = 7; k < t.contacts.length; k += 9) forces.push(t.contacts[k]);
forces.sort((a, b) => a - b);
let maxForce = forces.length ? forces[Math.floor(0.9 * (forces.length - 1))] : 0;
let forceScale = maxForce > 0 ? 0.15 * extent / maxForce : 0.05;
const dotRadius = extent / 250;

function applyLayout() {
  dirty = true;
  const side = ui.layout.value === 'side';
  let slot = 0;  // side by side: the shown copies in a row along y
  rigs.forEach((rig, i) => { rig.root.visible = !ui.shown[i] || ui.shown[i].checked; });
  const first = Math.max(0, rigs.findIndex((rig) => rig.root.visible));  // drawn solid
  rigs.forEach((rig, i) => {
    rig.root.position.set(0, side && rig.root.visible ? slot++ * 1.1 * (bounds.max.y - bounds.min.y) : 0, 0);
    rig.setGhost(!side && i !== first);
    // The copies share the first one's planes (overlapping floors would flicker); the other
    // world geoms are drawn once when ghosted, once per copy side by side.
    for (const o of rig.worldGeoms) {
      o.visible = (i === first || (side && !rig.planes.includes(o))) && visibleKind(o, rig);
    }
  });
}
function visibleKind(o, rig) {
  return rig.visualGeoms.includes(o) ? ui.visual.checked : ui.collision.checked;
}
function applyVisibility() {
  for (const rig of rigs) {
    for (const o of rig.collisionGeoms) o.visible = ui.collision.checked;
    for (const o of rig.visualGeoms) o.visible = ui.visual.checked;
    for (const o of rig.sites) o.visible = ui.sites.checked;
    rig.contacts.group.visible = ui.contacts.checked;
  }
  applyLayout();
}

// ---------------------------------------------------------------- playback
const endTime = trajectories.reduce((m, t) => Math.max(m, t.time[t.time.length - 1] ?? 0), 0);
let time = 0;
let playing = false;
ui.slider.max = String(endTime);

/** Index of the last frame of `times` at or before t (binary search). */
function frameAt(times, t) {
  let lo = 0, hi = times.length - 1;
  if (hi < 0 || t <= times[0]) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t + 1e-12) lo = mid; else hi = mid - 1;
  }
  return lo;
}

function showTime(t) {
  dirty = true;
  time = Math.min(Math.max(t, 0), endTime);
  if (!trajectories.length) {
    rigs[0].pose(scene.rest, 0);
    rigs[0].poseSkins(scene.restSkins ?? [], 0);
  } else {
    // model cameras follow the first trajectory
    cameraPoses = trajectories[0].cameras ?? [];
    cameraOffset = 7 * ncam * frameAt(trajectories[0].time, time);
  }
  trajectories.forEach((traj, i) => {
    const f = frameAt(traj.time, time);
    rigs[i].pose(traj.poses, 7 * (nbody - 1) * f);
    rigs[i].poseSkins(traj.skins ?? [], nskinvalues * f);
    rigs[i].contacts.show(traj.contacts, contactStarts[i][f], contactStarts[i][f + 1], dotRadius, forceScale);
  });
  ui.slider.value = String(time);
  const f0 = trajectories.length ? frameAt(trajectories[0].time, time) : 0;
  ui.time.textContent = `t = ${time.toFixed(4)} s` + (trajectories.length ? ` (frame ${f0 + 1}/${trajectories[0].time.length})` : '');
}

function setPlaying(p) {
  playing = p;
  ui.play.textContent = p ? 'pause' : 'play';
}

/** Moves one frame of the first trajectory forwards (+1) or backwards (-1). */
function stepFrame(direction) {
  setPlaying(false);
  if (!trajectories.length) return;
  const times = trajectories[0].time;
  const f = Math.min(Math.max(frameAt(times, time) + direction, 0), times.length - 1);
  showTime(times[f]);
}

// ---------------------------------------------------------------- model cameras
const ncam = (scene.model.cameras ?? []).length;
/** The camera poses of the shown instant (7 numbers per camera) and their offset. */
let cameraPoses = scene.restCameras ?? [];
let cameraOffset = 0;
/** The free camera's pose while a model camera is looked through (restored when leaving). */
let freeView = null;
/** Index of the model camera looked through, -1 for the free (orbit) camera. */
function modelCamera() { return ncam ? Number(ui.view.value) : -1; }
/** Poses `camera` as model camera c: MuJoCo cameras, like three.js ones, look along -z, y up. */
function applyModelCamera(c) {
  const k = cameraOffset + 7 * c;
  if (k + 6 >= cameraPoses.length) return;
  camera.position.set(cameraPoses[k], cameraPoses[k + 1], cameraPoses[k + 2]);
  camera.quaternion.set(cameraPoses[k + 4], cameraPoses[k + 5], cameraPoses[k + 6], cameraPoses[k + 3]);
  if (camera.fov !== scene.model.cameras[c].fovy) {
    camera.fov = scene.model.cameras[c].fovy;
    camera.updateProjectionMatrix();
  }
}
function switchCamera() {
  dirty = true;
  const c = modelCamera();
  if (c >= 0 && !freeView) {
    freeView = {position: camera.position.clone(), quaternion: camera.quaternion.clone(), fov: camera.fov};
  } else if (c < 0 && freeView) {
    camera.position.copy(freeView.position);
    camera.quaternion.copy(freeView.quaternion);
    camera.fov = freeView.fov;
    camera.updateProjectionMatrix();
    freeView = null;
  }
  controls.enabled = c < 0;
}

// ---------------------------------------------------------------- follow, render loop
let followed = -1;
const lastFollow = new THREE.Vector3();
function updateFollow() {
  if (followed < 1) return;
  const p = rigs[0].bodies[followed].getWorldPosition(new THREE.Vector3());
  const delta = p.clone().sub(lastFollow);
  camera.position.add(delta);
  controls.target.add(delta);
  lastFollow.copy(p);
}

function resize() {
  const w = ui.canvas.clientWidth, h = ui.canvas.clientHeight;
  if (ui.canvas.width !== Math.floor(w * renderer.getPixelRatio()) || ui.canvas.height !== Math.floor(h * renderer.getPixelRatio())) {
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
  }
}

function render() {
  resize();
  const c = modelCamera();
  if (c >= 0) {
    applyModelCamera(c);
  } else {
    updateFollow();
    controls.update();
  }
  renderer.render(world, camera);
}

const redraw = () => { dirty = true; };
controls.addEventListener('change', redraw);
window.addEventListener('resize', redraw);

let live = null;
let lastWall = performance.now();
function frame(now) {
  const wall = (now - lastWall) / 1000;
  lastWall = now;
  if (playing && !live) {
    showTime(time + wall * Number(ui.speed.value));
    if (time >= endTime) setPlaying(false);
    dirty = true;
  }
  if (dirty) {
    dirty = false;
    render();
  }
  requestAnimationFrame(frame);
}

// ---------------------------------------------------------------- wiring
ui.play.addEventListener('click', () => live ? live.command(live.paused ? 'play' : 'pause') : setPlaying(!playing && (time < endTime || (showTime(0), true))));
ui.step.addEventListener('click', () => live ? live.command('step') : stepFrame(1));
if (scene.live) { ui.step.textContent = 'step ▶'; ui.back.hidden = true; ui.speed.hidden = true; }  // live runs in real time
ui.back.addEventListener('click', () => stepFrame(-1));
ui.reset.addEventListener('click', () => live ? live.command('reset') : (setPlaying(false), showTime(0)));
ui.slider.addEventListener('input', () => { setPlaying(false); showTime(Number(ui.slider.value)); });
ui.follow.addEventListener('change', () => {
  dirty = true;
  followed = Number(ui.follow.value);
  if (followed > 0) rigs[0].bodies[followed].getWorldPosition(lastFollow);
});
ui.layout.addEventListener('change', applyLayout);
ui.view.addEventListener('change', switchCamera);
for (const box of [ui.collision, ui.visual, ui.sites, ui.contacts, ...ui.shown]) box.addEventListener('change', applyVisibility);
window.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
  if (e.key === ' ') { ui.play.click(); e.preventDefault(); }
  if (e.key === 'ArrowRight') ui.step.click();
  if (e.key === 'ArrowLeft') ui.back.click();
});

applyVisibility();
switchCamera();
showTime(0);
if (scene.live) {
  live = new LiveClient(ui, (state) => {
    rigs[0].pose(state.poses, 0);
    rigs[0].poseSkins(state.skins ?? [], 0);
    cameraPoses = state.cameras ?? [];
    cameraOffset = 0;
    dirty = true;
    rigs[0].contacts.show(state.contacts, 0, state.contacts.length, dotRadius, forceScale);
    ui.play.textContent = state.paused ? 'play' : 'pause';
  }, (force) => { if (maxForce === 0 && force > 0) { maxForce = force; forceScale = 0.15 * extent / force; } });
  live.start();
}
requestAnimationFrame(frame);

// Hooks for tests and scripting: set the time, render now, project a world point to canvas
// pixels (CSS pixels from the canvas's top left).
window.gaussViewer = {
  endTime,
  get time() { return time; },
  setTime(t) { setPlaying(false); showTime(t); render(); },
  render,
  project(x, y, z) {
    render();
    const v = new THREE.Vector3(x, y, z).project(camera);
    return {x: (v.x + 1) / 2 * ui.canvas.clientWidth, y: (1 - v.y) / 2 * ui.canvas.clientHeight};
  },
  bodyPosition(name, rig = 0) {
    const b = scene.model.bodies.findIndex((body) => body.name === name);
    return b < 0 ? null : rigs[rig].bodies[b].getWorldPosition(new THREE.Vector3()).toArray();
  },
  /** The height (world z) of the highest drawn surface of geom `name` under (x, y), or null. */
  surfaceHeight(name, x, y, rig = 0) {
    render();
    const object = rigs[rig].root.getObjectByName(name);
    if (!object) return null;
    object.updateWorldMatrix(true, true);
    const ray = new THREE.Raycaster(new THREE.Vector3(x, y, 1e3), new THREE.Vector3(0, 0, -1));
    const hits = ray.intersectObject(object, true);
    return hits.length ? hits[0].point.z : null;
  },
  /** The drawn vertices of skin `k` (world x y z, 3 numbers per vertex). */
  skinVertices(k, rig = 0) { return Array.from(rigs[rig].skins[k].geometry.getAttribute('position').array); },
  /** The view's camera after rendering: world position, quaternion (w x y z), vertical fov. */
  cameraPose() {
    render();
    const q = camera.quaternion;
    return {position: camera.position.toArray(), quaternion: [q.w, q.x, q.y, q.z], fov: camera.fov};
  },
  /** Looks through model camera c (-1: the free camera), as the camera menu does. */
  setCamera(c) { if (ncam) { ui.view.value = String(c); switchCamera(); } render(); },
  live: () => live,
};
