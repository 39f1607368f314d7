// Browser test over every shipped model (models/*.xml) and every MuJoCo sample model that Gauss
// loads (/usr/share/mujoco/model, when libmujoco-samples is installed): a short recorded run
// (with contacts) is turned into a page by `gauss view`, opened in headless Chromium, and must
// draw without a page error: a non-blank canvas with its geoms and contacts, the time label at
// the last row. Models that `gauss run` refuses are listed as skipped.
//
// usage: node models_test.mjs --gauss BIN --source REPO --work DIR [--screenshots DIR]
import fs from 'node:fs';
import path from 'node:path';
import {check, colourDistance, decodePng, finish, gauss, launch, parseArgs, readCsv} from './browser.mjs';

const opts = parseArgs(process.argv.slice(2));
const models = fs.readdirSync(path.join(opts.source, 'models')).filter((f) => f.endsWith('.xml')).map((f) => path.join(opts.source, 'models', f));
const samples = '/usr/share/mujoco/model';
if (fs.existsSync(samples)) {
  for (const dir of fs.readdirSync(samples).sort()) {
    for (const f of fs.readdirSync(path.join(samples, dir)).sort()) if (f.endsWith('.xml')) models.push(path.join(samples, dir, f));
  }
}

const {context, close} = await launch(opts);
let drawn = 0;
try {
  const page = await context.newPage();
  for (const model of models) {
    const name = path.basename(path.dirname(model)) + '_' + path.basename(model, '.xml');
    const traj = path.join(opts.work, name + '.csv');
    try {
      gauss(opts, 'run', model, '--duration', '0.1', '--every', '10', '--out', traj, '--contacts');
    } catch (e) {
      console.log(`skip ${model}: gauss does not load it (${String(e.stderr).split('\n')[0]})`);
      continue;
    }
    const html = path.join(opts.work, name + '.html');
    gauss(opts, 'view', model, '--traj', traj, '--out', html);
    const errors = [];
    const onError = (e) => errors.push(String(e));
    page.on('pageerror', onError);
    await page.goto('file://' + html);
    await page.waitForFunction(() => window.gaussViewer !== undefined, null, {timeout: 30000});
    const csv = readCsv(traj);
    const tEnd = csv.rows[csv.rows.length - 1][csv.header.indexOf('time')];
    await page.evaluate((t) => window.gaussViewer.setTime(t), tEnd);
    const shot = await page.locator('#gauss-canvas').screenshot();
    const img = await decodePng(context, shot);
    let notBackground = 0;
    for (let k = 0; k < img.data.length; k += 4) {
      if (colourDistance([img.data[k], img.data[k + 1], img.data[k + 2]], [0xdf, 0xe6, 0xec]) > 20) ++notBackground;
    }
    const share = notBackground / (img.width * img.height);
    const label = await page.textContent('#gauss-time');
    page.off('pageerror', onError);
    check(errors.length === 0 && share > 0.01 && label.includes(`frame ${csv.rows.length}/${csv.rows.length}`),
          `${model}: drawn (${(100 * share).toFixed(1)}% of the canvas), "${label}"` + (errors.length ? ' errors: ' + errors.join('; ') : ''));
    if (opts.screenshots) fs.writeFileSync(path.join(opts.screenshots, name + '.png'), shot);
    ++drawn;
  }
} finally {
  await close();
}
check(drawn >= 5, `${drawn} models drawn`);
finish();
