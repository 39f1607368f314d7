// Browser test of MJCF materials and skins in a `gauss view --out` page (docs/viewer.md), in
// headless Chromium, on tests/models/compile_skin.xml: a two-link pendulum in a red sleeve skin
// (its material), a tetrahedral tag skin from a .skn file, a yellow post (material), a blue floor
// (material) and links coloured green (own rgba, which wins over the material) and red
// (material). The screenshot pixels where those parts project must have their colours, and the
// sleeve must follow the links as they swing: its drawn far ring is at the lower link's tip as
// the trajectory CSV's joint angles put it, and the screenshot shows it there. Then a height
// field (tests/models/view_hfield.xml) is drawn where the physics has its surface.
//
// usage: node visual_test.mjs --gauss BIN --source REPO --work DIR [--screenshots DIR]
import fs from 'node:fs';
import path from 'node:path';
import {check, decodePng, finish, gauss, launch, meanColour, parseArgs, readCsv} from './browser.mjs';

const opts = parseArgs(process.argv.slice(2));
const traj = path.join(opts.work, 'skin.csv');
gauss(opts, 'run', 'tests/models/compile_skin.xml', '--duration', '0.6', '--every', '10', '--out', traj);
const html = path.join(opts.work, 'skin.html');
gauss(opts, 'view', 'tests/models/compile_skin.xml', '--traj', traj, '--out', html);

const csv = readCsv(traj);
const col = (name) => csv.header.indexOf(name);
const last = csv.rows.length - 1;
const tEnd = csv.rows[last][col('time')];
// The lower link's tip: the shoulder at (0, 0, 1), two 0.5 m links turning about y (a turn by q
// takes x to (cos q, 0, -sin q)).
const tipAt = (row) => {
  const q0 = csv.rows[row][col('qpos0')], q1 = q0 + csv.rows[row][col('qpos1')];
  return [0.5 * Math.cos(q0) + 0.5 * Math.cos(q1), 0, 1 - 0.5 * Math.sin(q0) - 0.5 * Math.sin(q1)];
};

/** Which channel dominates a pixel colour, by at least `margin` (0..255). */
const dominant = (rgb, margin = 40) => {
  const [r, g, b] = rgb;
  if (r > g + margin && r > b + margin) return 'red';
  if (g > r + margin && g > b + margin) return 'green';
  if (b > r + margin && b > g + margin) return 'blue';
  if (r > b + margin && g > b + margin) return 'yellow';
  return 'none';
};

const {context, close} = await launch(opts);
try {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('file://' + html);
  await page.waitForFunction(() => window.gaussViewer !== undefined, null, {timeout: 30000});
  const shoot = async (name) => {
    const png = await page.locator('#gauss-canvas').screenshot();
    if (opts.screenshots) fs.writeFileSync(path.join(opts.screenshots, name), png);
    return decodePng(context, png);
  };
  const project = (p) => page.evaluate((q) => window.gaussViewer.project(...q), p);
  const colourAt = async (img, p, what, want) => {
    const s = await project(p);
    const rgb = meanColour(img, s.x, s.y, 2);
    check(dominant(rgb) === want, `${what} is drawn ${want} at pixel (${s.x.toFixed(0)}, ${s.y.toFixed(0)}): rgb ${rgb.map((v) => v.toFixed(0)).join(' ')}`);
  };

  // t = 0: the sleeve (red material) hides the links; the post and floor take their materials
  await page.evaluate(() => window.gaussViewer.setTime(0));
  const img0 = await shoot('skin_t0.png');
  await colourAt(img0, [0.25, 0, 1.09], 'the sleeve skin (material sleeve_red)', 'red');
  await colourAt(img0, [0, 0, 0.3], 'the post (material yellow)', 'yellow');
  await colourAt(img0, [0.6, 1.2, 0], 'the floor (material blue)', 'blue');
  await colourAt(img0, [0.95, 0, 1.2], 'the tag skin (.skn file, own rgba green)', 'green');

  // without the visual layer (skins), the links show: own rgba beats the material, else the
  // material's colour
  await page.click('#gauss-show-visual');
  const links = await shoot('skin_links_t0.png');
  await colourAt(links, [0.25, 0, 1.04], 'the upper link (rgba 0 1 0 over material blue)', 'green');
  await colourAt(links, [0.75, 0, 1.04], 'the lower link (material sleeve_red)', 'red');
  await page.click('#gauss-show-visual');

  // the sleeve follows its bones: the far ring (vertices 8..11) is at the lower link's tip
  for (const [row, t] of [[0, 0], [last, tEnd]]) {
    await page.evaluate((time) => window.gaussViewer.setTime(time), t);
    const v = await page.evaluate(() => window.gaussViewer.skinVertices(0));
    const ring = [0, 1, 2].map((c) => (v[24 + c] + v[27 + c] + v[30 + c] + v[33 + c]) / 4);
    const tip = tipAt(row);
    const error = Math.max(...ring.map((x, i) => Math.abs(x - tip[i])));
    // 0.01: the skin's inflate pushes the end ring outwards along the link
    check(error < 0.012, `t=${t.toFixed(2)}: the sleeve's far ring is at the link tip (${tip.map((x) => x.toFixed(3)).join(' ')}; off by ${error.toFixed(4)} m)`);
  }
  const imgEnd = await shoot('skin_tend.png');
  const tip0 = tipAt(0), tipEnd = tipAt(last);
  check(Math.hypot(tipEnd[0] - tip0[0], tipEnd[2] - tip0[2]) > 0.3, 'the pendulum swung (tip moved over 0.3 m)');
  // just inside the end ring, on the sleeve's surface facing the camera
  const inward = (tip, row) => {
    const q1 = csv.rows[row][col('qpos0')] + csv.rows[row][col('qpos1')];
    return [tip[0] - 0.05 * Math.cos(q1), -0.09, tip[2] + 0.05 * Math.sin(q1)];
  };
  await colourAt(imgEnd, inward(tipEnd, last), 'at t=end the sleeve at the tip', 'red');
  const leftBehind = await project(inward(tip0, 0));
  const rgbLeft = meanColour(imgEnd, leftBehind.x, leftBehind.y, 2);
  check(dominant(rgbLeft) !== 'red', `at t=end the sleeve has left its t=0 place (rgb ${rgbLeft.map((x) => x.toFixed(0)).join(' ')})`);
  check(errors.length === 0, 'no errors in the page console' + (errors.length ? ': ' + errors.join('; ') : ''));

  // Height fields are drawn where the physics has them: a green pyramid (elevation 0, 0.5, 1
  // rings times size_z 0.5 m; the peak at the origin 0.5 m high).
  const hfTraj = path.join(opts.work, 'hfield.csv');
  gauss(opts, 'run', 'tests/models/view_hfield.xml', '--duration', '0.2', '--out', hfTraj);
  const hfHtml = path.join(opts.work, 'hfield.html');
  gauss(opts, 'view', 'tests/models/view_hfield.xml', '--traj', hfTraj, '--out', hfHtml);
  await page.goto('file://' + hfHtml);
  await page.waitForFunction(() => window.gaussViewer !== undefined, null, {timeout: 30000});
  await page.evaluate(() => window.gaussViewer.setTime(0));
  const hf = await shoot('hfield_t0.png');
  // the drawn surface's height at grid points and on grid lines (where it does not depend on
  // which diagonal splits a cell) against the field: 0.5 m at the peak, 0.25 m on the ring
  // around it, 0 on the border, linear in between
  for (const [x, y, z] of [[0, 0, 0.5], [0.5, 0, 0.25], [-0.5, 0.5, 0.25], [0.25, 0, 0.375],
                           [0.75, 0, 0.125], [0, -0.75, 0.125], [-0.98, -0.25, 0.01]]) {
    const drawn = await page.evaluate((p) => window.gaussViewer.surfaceHeight('terrain', ...p), [x, y]);
    check(drawn !== null && Math.abs(drawn - z) < 1e-6,
          `the height field is drawn at height ${z} under (${x}, ${y}) (drawn ${drawn})`);
  }
  await colourAt(hf, [0, -0.02, 0.49], 'the height field at its peak', 'green');
  await colourAt(hf, [-0.5, -0.5, 0.24], 'the height field half way up its slope', 'green');
  const air = await project([0, 0, 0.9]);
  const rgbAir = meanColour(hf, air.x, air.y, 2);
  check(dominant(rgbAir) !== 'green', `above the peak is not terrain (rgb ${rgbAir.map((x) => x.toFixed(0)).join(' ')})`);
} finally {
  await close();
}
finish();
