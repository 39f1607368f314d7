// Browser test of the model cameras in a viewer page (`gauss view --camera`, docs/viewer.md):
// tests/models/view_cameras.xml, a box falling straight down with a camera riding on it and a
// world camera turning to keep the box in the middle of its image.
// - The page starts with the camera that --camera names; the rider's position is the box's
//   (the trajectory's qpos) plus its offset, at the start and at the end, and it looks along
//   +x: the blue ball ahead of it is drawn at the image's horizontal centre, in blue.
// - The world camera (mode targetbody) from the menu: the box is at the image centre at every
//   time shown, and the field of view is the camera's fovy.
// - Back to the free camera: the orbit view the page had before, and the orbit controls again.
//
// usage: node camera_test.mjs --gauss BIN --source REPO --work DIR [--screenshots DIR]
import fs from 'node:fs';
import path from 'node:path';
import {check, decodePng, finish, gauss, launch, meanColour, parseArgs, readCsv} from './browser.mjs';

const opts = parseArgs(process.argv.slice(2));
const traj = path.join(opts.work, 'view_cameras.csv');
const page1 = path.join(opts.work, 'view_cameras.html');
gauss(opts, 'run', 'tests/models/view_cameras.xml', '--duration', '0.6', '--every', '10', '--out', traj);
gauss(opts, 'view', 'tests/models/view_cameras.xml', '--traj', traj, '--out', page1, '--camera', 'rider');

const csv = readCsv(traj);
const col = (name) => csv.header.indexOf(name);
const boxAt = (row) => [0, 1, 2].map((i) => csv.rows[row][col('qpos' + i)]);
const last = csv.rows.length - 1;
const tEnd = csv.rows[last][col('time')];
const near = (a, b, tol) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

const {context, close} = await launch(opts);
try {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('file://' + page1);
  await page.waitForFunction(() => window.gaussViewer !== undefined, null, {timeout: 30000});
  const size = await page.evaluate(() => {
    const c = document.getElementById('gauss-canvas');
    return {w: c.clientWidth, h: c.clientHeight};
  });
  check(await page.inputValue('#gauss-camera') === '1', 'the page starts with --camera rider (camera 1)');

  for (const [row, t] of [[0, 0], [last, tEnd]]) {
    await page.evaluate((time) => window.gaussViewer.setTime(time), t);
    const pose = await page.evaluate(() => window.gaussViewer.cameraPose());
    const box = boxAt(row);
    const expected = [box[0] + 0.15, box[1], box[2]];
    check(near(pose.position, expected, 1e-4),
          `rider at t = ${t}: camera at the box + (0.15, 0, 0) = ${expected.map((v) => v.toFixed(4))} (drawn ${pose.position.map((v) => v.toFixed(4))})`);
    check(Math.abs(pose.fov - 50) < 1e-9, `rider's field of view is its fovy 50 (${pose.fov})`);
    const ball = await page.evaluate(() => window.gaussViewer.project(3, 0, 2));
    check(Math.abs(ball.x - size.w / 2) < 1, `rider looks along +x: the ball at the horizontal centre (x = ${ball.x.toFixed(1)} of ${size.w})`);
    const shot = await page.locator('#gauss-canvas').screenshot();
    if (opts.screenshots) fs.writeFileSync(path.join(opts.screenshots, `camera_rider_${row}.png`), shot);
    const image = await decodePng(context, shot);
    const scale = image.width / size.w;
    const [r, g, b] = meanColour(image, Math.round(ball.x * scale), Math.round(ball.y * scale));
    check(b > r + 40 && b > g + 40, `the ball is drawn there in blue (rgb ${r}, ${g}, ${b})`);
  }

  await page.selectOption('#gauss-camera', '0');
  for (const [row, t] of [[0, 0], [last, tEnd]]) {
    await page.evaluate((time) => window.gaussViewer.setTime(time), t);
    const box = await page.evaluate((p) => window.gaussViewer.project(...p), boxAt(row));
    check(Math.abs(box.x - size.w / 2) < 1.5 && Math.abs(box.y - size.h / 2) < 1.5,
          `watch (targetbody box) at t = ${t}: the box at the image centre (${box.x.toFixed(1)}, ${box.y.toFixed(1)} of ${size.w} x ${size.h})`);
    const pose = await page.evaluate(() => window.gaussViewer.cameraPose());
    check(near(pose.position, [0, -5, 1], 1e-6) && Math.abs(pose.fov - 30) < 1e-9,
          `watch stays at (0, -5, 1) with fovy 30 (fov ${pose.fov})`);
  }

  await page.selectOption('#gauss-camera', '-1');
  const free = await page.evaluate(() => window.gaussViewer.cameraPose());
  await page.evaluate(() => window.gaussViewer.setCamera(1));
  await page.evaluate(() => window.gaussViewer.setCamera(-1));
  const again = await page.evaluate(() => window.gaussViewer.cameraPose());
  check(Math.abs(free.fov - 45) < 1e-9 && near(again.position, free.position, 1e-9) &&
        near(again.quaternion, free.quaternion, 1e-9),
        'back to the free camera: the same orbit view (fov 45) before and after looking through a model camera');
  check(errors.length === 0, `no page errors (${errors.join('; ')})`);
} finally {
  await close();
}
finish();
