// Browser test of a page written by `gauss view --out` (docs/viewer.md), in headless Chromium:
// the pile model (every body falls onto a ramp and the floor) with a recorded trajectory.
// Screenshots at t = 0 and t = end must show the scene (not a blank canvas), the ball must be
// drawn where the trajectory CSV puts it (its qpos projected with the page's camera) at both
// times, and the time slider, the frame step and the legend must say what the files say.
//
// usage: node page_test.mjs --gauss BIN --source REPO --work DIR [--screenshots DIR]
import fs from 'node:fs';
import path from 'node:path';
import {check, colourDistance, decodePng, finish, gauss, launch, meanColour, parseArgs, readCsv} from './browser.mjs';

const opts = parseArgs(process.argv.slice(2));
const work = opts.work;
const traj = path.join(work, 'pile.csv');
const trajPgs = path.join(work, 'pile_pgs.csv');
gauss(opts, 'run', 'models/pile.xml', '--duration', '1.5', '--every', '5', '--out', traj, '--contacts');
gauss(opts, 'run', 'models/pile.xml', '--duration', '1.5', '--every', '5', '--out', trajPgs, '--contacts',
      '--set', 'solver=pgs', '--set', 'cone=pyramidal');
const page1 = path.join(work, 'pile.html');
const page2 = path.join(work, 'pile_two.html');
gauss(opts, 'view', 'models/pile.xml', '--traj', traj, '--out', page1);
gauss(opts, 'view', 'models/pile.xml', '--traj', traj, '--traj', trajPgs, '--out', page2);

// pile.xml: box1, box2, capsule and ball each hang on one free joint (7 qpos each), so the
// ball's world position is qpos21..qpos23.
const csv = readCsv(traj);
const col = (name) => csv.header.indexOf(name);
const ballAt = (row) => [21, 22, 23].map((i) => csv.rows[row][col('qpos' + i)]);
const last = csv.rows.length - 1;
const tEnd = csv.rows[last][col('time')];

// At 1x, playback cannot run ahead of the wall clock (plus one frame of slack).
const endTimeOf = (wallMs) => wallMs / 1000 + 0.1;

const {context, close} = await launch(opts);
try {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  // The page must not fetch anything: it is self-contained.
  const requests = [];
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
  await page.goto('file://' + page1);
  await page.waitForFunction(() => window.gaussViewer !== undefined, null, {timeout: 30000});
  check(await page.evaluate(() => !!document.getElementById('gauss-canvas').getContext('webgl2')),
        'the canvas has a WebGL2 context (software rendering)');

  await page.evaluate(() => window.gaussViewer.setTime(0));
  const shot0 = await page.locator('#gauss-canvas').screenshot();
  await page.evaluate((t) => window.gaussViewer.setTime(t), tEnd);
  const shotEnd = await page.locator('#gauss-canvas').screenshot();
  if (opts.screenshots) {
    fs.mkdirSync(opts.screenshots, {recursive: true});
    fs.writeFileSync(path.join(opts.screenshots, 'pile_t0.png'), shot0);
    fs.writeFileSync(path.join(opts.screenshots, 'pile_tend.png'), shotEnd);
  }
  const img0 = await decodePng(context, shot0);
  const imgEnd = await decodePng(context, shotEnd);

  // Not blank: many distinct colours, and a good share of the pixels are not the background.
  for (const [name, img] of [['t=0', img0], ['t=end', imgEnd]]) {
    const colours = new Set();
    let notBackground = 0;
    const background = [0xdf, 0xe6, 0xec];
    for (let k = 0; k < img.data.length; k += 4) {
      colours.add((img.data[k] << 16) | (img.data[k + 1] << 8) | img.data[k + 2]);
      if (colourDistance([img.data[k], img.data[k + 1], img.data[k + 2]], background) > 20) ++notBackground;
    }
    const share = notBackground / (img.width * img.height);
    check(colours.size > 200 && share > 0.1,
          `${name} screenshot is a drawn scene: ${colours.size} colours, ${(100 * share).toFixed(1)}% not background`);
  }

  // The page poses the ball as the trajectory says (its own kinematics of the CSV's qpos).
  for (const [row, t] of [[0, 0], [last, tEnd]]) {
    await page.evaluate((time) => window.gaussViewer.setTime(time), t);
    const drawn = await page.evaluate(() => window.gaussViewer.bodyPosition('ball'));
    const want = ballAt(row);
    const error = Math.max(...drawn.map((v, i) => Math.abs(v - want[i])));
    check(error < 1e-5, `ball drawn at the CSV position at t=${t} (max error ${error.toExponential(1)} m)`);
  }

  // The ball is in the screenshots where the CSV positions project: at t=0 its pixels change
  // between the two screenshots (it left), and at t=end too (it arrived); it moved on screen.
  const p0 = await page.evaluate((p) => window.gaussViewer.project(...p), ballAt(0));
  const p1 = await page.evaluate((p) => window.gaussViewer.project(...p), ballAt(last));
  const moved = Math.hypot(p1.x - p0.x, p1.y - p0.y);
  check(moved > 40, `the ball's projection moved ${moved.toFixed(0)} px on screen (start ${p0.x.toFixed(0)},${p0.y.toFixed(0)}; end ${p1.x.toFixed(0)},${p1.y.toFixed(0)})`);
  const left = colourDistance(meanColour(img0, p0.x, p0.y), meanColour(imgEnd, p0.x, p0.y));
  const arrived = colourDistance(meanColour(img0, p1.x, p1.y), meanColour(imgEnd, p1.x, p1.y));
  check(left > 25, `pixels at the ball's start change when it leaves (colour distance ${left.toFixed(0)})`);
  check(arrived > 25, `pixels at the ball's end change when it arrives (colour distance ${arrived.toFixed(0)})`);
  // Control: a corner of the view far from every body is the same in both screenshots.
  const still = colourDistance(meanColour(img0, 20, 20), meanColour(imgEnd, 20, 20));
  check(still < 5, `a corner away from the bodies stays the same (colour distance ${still.toFixed(1)})`);

  // Time slider and frame step.
  const sliderEnd = await page.evaluate(() => Number(document.getElementById('gauss-time-slider').value));
  check(Math.abs(sliderEnd - tEnd) < 1e-9, `the slider shows t=end (${sliderEnd} vs ${tEnd})`);
  check(Math.abs(await page.evaluate(() => Number(document.getElementById('gauss-time-slider').max)) - tEnd) < 1e-9,
        'the slider ends at the last row');
  const label = await page.textContent('#gauss-time');
  check(label.includes(tEnd.toFixed(4)) && label.includes(`frame ${last + 1}/${last + 1}`), `the time label says "${label}"`);
  const middle = Math.floor(last / 2);
  await page.evaluate((t) => {
    const s = document.getElementById('gauss-time-slider');
    s.value = String(t);
    s.dispatchEvent(new Event('input'));
  }, csv.rows[middle][col('time')]);
  await page.click('#gauss-step');
  const afterStep = await page.evaluate(() => window.gaussViewer.time);
  check(Math.abs(afterStep - csv.rows[middle + 1][col('time')]) < 1e-9,
        `dragging the slider to row ${middle} then stepping shows row ${middle + 1} (t=${afterStep})`);
  const stepped = await page.evaluate(() => window.gaussViewer.bodyPosition('ball'));
  const wantStepped = ballAt(middle + 1);
  check(Math.max(...stepped.map((v, i) => Math.abs(v - wantStepped[i]))) < 1e-5, 'and the ball is where that row puts it');

  // Following the ball keeps it at the same place on screen while it falls and rolls.
  await page.evaluate(() => window.gaussViewer.setTime(0));
  await page.selectOption('#gauss-follow', {label: 'follow: ball'});
  const f0 = await page.evaluate((p) => window.gaussViewer.project(...p), ballAt(0));
  await page.evaluate((t) => window.gaussViewer.setTime(t), tEnd);
  const f1 = await page.evaluate((p) => window.gaussViewer.project(...p), ballAt(last));
  const drift = Math.hypot(f1.x - f0.x, f1.y - f0.y);
  check(drift < 1, `follow: ball stays at the same pixel from t=0 to t=end (moved ${drift.toFixed(2)} px)`);
  await page.selectOption('#gauss-follow', '-1');

  // Playing moves time forward.
  await page.evaluate(() => window.gaussViewer.setTime(0));
  const wallStart = Date.now();  // before the click: playing may start before click() returns
  await page.click('#gauss-play');
  await page.waitForFunction(() => window.gaussViewer.time > 0.05, null, {timeout: 20000}).catch(() => {});
  const played = await page.evaluate(() => window.gaussViewer.time);
  check(played > 0.05 && played < endTimeOf(Date.now() - wallStart),
        `play advances the time at most at real time (t=${played.toFixed(3)} after ${Date.now() - wallStart} ms)`);
  check(errors.length === 0, 'no errors in the page console' + (errors.length ? ': ' + errors.join('; ') : ''));
  check(requests.length === 0, 'the page loads nothing from the network' + (requests.length ? ': ' + requests.join(' ') : ''));

  // Two trajectories: the legend names each file with its resolved configuration.
  await page.goto('file://' + page2);
  await page.waitForFunction(() => window.gaussViewer !== undefined);
  const legend = await page.textContent('#gauss-legend');
  check(legend.includes('pile.csv') && legend.includes('solver=newton') && legend.includes('cone=elliptic'),
        'legend: pile.csv with solver=newton cone=elliptic');
  check(legend.includes('pile_pgs.csv') && legend.includes('solver=pgs') && legend.includes('cone=pyramidal'),
        'legend: pile_pgs.csv with solver=pgs cone=pyramidal');
  await page.selectOption('#gauss-layout', 'side');
  await page.evaluate((t) => window.gaussViewer.setTime(t), tEnd);
  const side = await page.locator('#gauss-canvas').screenshot();
  if (opts.screenshots) fs.writeFileSync(path.join(opts.screenshots, 'pile_side_by_side.png'), side);
  const pgsCsv = readCsv(trajPgs);
  const pgsBall = [21, 22, 23].map((i) => pgsCsv.rows[pgsCsv.rows.length - 1][pgsCsv.header.indexOf('qpos' + i)]);
  const drawnPgs = await page.evaluate(() => window.gaussViewer.bodyPosition('ball', 1));
  const offset = drawnPgs.map((v, i) => v - pgsBall[i]);
  check(Math.abs(offset[0]) < 1e-5 && offset[1] > 0.5 && Math.abs(offset[2]) < 1e-5,
        `side by side: the second copy is the pgs trajectory shifted along y (by ${offset[1].toFixed(2)} m)`);
} finally {
  await close();
}
finish();
