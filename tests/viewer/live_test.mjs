// Browser test of `gauss view MODEL --serve 0` (docs/viewer.md): the live page served over
// loopback answers step, pause, reset and --set commands, both when sent directly over HTTP and
// when clicked in the page in headless Chromium, and the simulation advances by exactly one
// timestep per step command.
//
// usage: node live_test.mjs --gauss BIN --source REPO --work DIR [--screenshots DIR]
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {check, finish, launch, parseArgs} from './browser.mjs';

const opts = parseArgs(process.argv.slice(2));
const server = spawn(opts.gauss, ['view', 'models/pile.xml', '--serve', '0'], {cwd: opts.source, stdio: ['ignore', 'pipe', 'inherit']});
const url = await new Promise((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (chunk) => {
    text += chunk;
    const m = text.match(/serving: (http:\/\/[^\s]+)/);
    if (m) resolve(m[1]);
  });
  server.on('exit', (code) => reject(new Error(`gauss view --serve exited with ${code}`)));
  setTimeout(() => reject(new Error('gauss view --serve printed no address in 60 s')), 60000);
});
check(url.startsWith('http://127.0.0.1:'), `listens on loopback by default (${url})`);

const get = async (query) => {
  const response = await fetch(url + query);
  return {status: response.status, body: await response.json()};
};

const {context, close} = await launch(opts);
try {
  // Over HTTP: pause, then one step advances time by one timestep (pile.xml: 0.002 s).
  const paused = await get('command?op=pause');
  check(paused.status === 200 && paused.body.paused === true, 'pause answers with a paused state');
  const stepped = await get('command?op=step');
  check(stepped.body.steps === paused.body.steps + 1, `step answers with one more step (${paused.body.steps} -> ${stepped.body.steps})`);
  check(Math.abs(stepped.body.time - paused.body.time - 0.002) < 1e-12,
        `step advances the time by the timestep (${paused.body.time} -> ${stepped.body.time})`);
  check(stepped.body.poses.length === 7 * 5, `the state holds the poses of the 5 bodies (${stepped.body.poses.length} numbers)`);
  const again = await get('state');
  check(again.body.time === stepped.body.time, 'while paused the state does not advance');
  const bad = await get('command?op=set&key=solver&value=nosuchsolver');
  check(bad.status === 400 && /nosuchsolver/.test(bad.body.error), `a bad --set is refused with a message (${bad.body.error})`);
  const set = await get('command?op=set&key=timestep&value=0.001');
  check(set.status === 200 && /timestep=0.001/.test(set.body.summary) && set.body.time === stepped.body.time,
        `--set timestep=0.001 keeps the state and shows in the summary (${set.body.summary})`);
  const step2 = await get('command?op=step');
  check(Math.abs(step2.body.time - set.body.time - 0.001) < 1e-12, 'the next step uses the new timestep');
  const reset = await get('command?op=reset');
  check(reset.body.time === 0 && reset.body.steps === 0, 'reset returns to t=0');

  // In the page: the step button sends the command and the page shows the new time.
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.gaussViewer?.live()?.state != null, null, {timeout: 30000});
  await page.selectOption('#gauss-set-solver', 'pgs');
  await page.waitForFunction(() => /solver=pgs/.test(document.getElementById('gauss-status').textContent));
  check(true, 'choosing solver pgs in the page switches the live engine (status shows solver=pgs)');
  const fields = await page.evaluate(() => ['cone', 'timestep'].map((k) => document.getElementById('gauss-set-' + k).value));
  check(fields[0] === 'elliptic' && Number(fields[1]) === 0.001,
        `the setting fields show the engine's cone and timestep set earlier over HTTP (${fields.join(', ')})`);
  await page.click('#gauss-reset');
  await page.click('#gauss-step');  // step also pauses
  await page.waitForFunction(() => window.gaussViewer.live().state.steps === 1 && window.gaussViewer.live().paused);
  await page.click('#gauss-step');
  await page.waitForFunction(() => window.gaussViewer.live().state.steps === 2);
  const label = await page.textContent('#gauss-time');
  check(label.includes('t = 0.0020 s') && label.includes('step 2'), `after reset and two steps at 0.001 s the page shows "${label}"`);
  await page.click('#gauss-play');
  await page.waitForFunction(() => window.gaussViewer.live().state.time > 0.1, null, {timeout: 30000});
  check(true, 'play: the simulation runs on in gauss and the page follows it');
  await page.click('#gauss-play');
  if (opts.screenshots) {
    fs.mkdirSync(opts.screenshots, {recursive: true});
    await page.screenshot({path: path.join(opts.screenshots, 'pile_live.png')});
  }
  check(errors.length === 0, 'no errors in the page' + (errors.length ? ': ' + errors.join('; ') : ''));
} finally {
  await close();
  server.kill();
}
finish();
