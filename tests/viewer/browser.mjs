// Shared pieces of the browser tests (tests/viewer/*_test.mjs): command-line arguments,
// running gauss, starting Debian's headless Chromium through playwright-core (never a
// downloaded browser), decoding screenshots and a tiny assertion helper.
import {execFileSync} from 'node:child_process';
import {createRequire} from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** --name value pairs of the command line. */
export function parseArgs(argv) {
  const args = {};
  for (let i = 0; i + 1 < argv.length; i += 2) args[argv[i].replace(/^--/, '')] = argv[i + 1];
  for (const key of ['gauss', 'source', 'work']) {
    if (!args[key]) throw new Error(`missing --${key}`);
  }
  args.chromium = args.chromium ?? '/usr/bin/chromium';
  fs.mkdirSync(args.work, {recursive: true});
  if (args.screenshots) fs.mkdirSync(args.screenshots, {recursive: true});
  return args;
}

/** Runs gauss with `args` from the source directory; returns stdout. Throws on failure. */
export function gauss(opts, ...args) {
  return execFileSync(opts.gauss, args, {cwd: opts.source, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']});
}

/**
 * Headless Chromium with software WebGL (SwiftShader through ANGLE), a throw-away profile and
 * no network chatter. Returns {browser, context}.
 */
export async function launch(opts) {
  const require = createRequire(path.join(opts.source, 'viewer', 'package.json'));
  const {chromium} = require('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'gauss-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: opts.chromium,
    headless: true,
    viewport: {width: 960, height: 600},
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
           '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const close = async () => {
    await context.close();
    fs.rmSync(profile, {recursive: true, force: true});
  };
  return {context, close};
}

/**
 * PNG bytes => {width, height, data (RGBA)}: decoded by the browser itself (an <img> drawn on a
 * 2D canvas), so no PNG library is needed.
 */
export async function decodePng(context, png) {
  const page = await context.newPage();
  const result = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    // base64 of the raw RGBA bytes: far cheaper to hand over than an array of numbers
    const bytes = g.getImageData(0, 0, img.width, img.height).data;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return {width: img.width, height: img.height, rgba: btoa(binary)};
  }, png.toString('base64'));
  await page.close();
  return {width: result.width, height: result.height, data: Buffer.from(result.rgba, 'base64')};
}

/** Mean RGB of the (2r+1)^2 pixels around (x, y). */
export function meanColour(image, x, y, r = 2) {
  const sum = [0, 0, 0];
  let n = 0;
  for (let j = Math.round(y) - r; j <= Math.round(y) + r; ++j) {
    for (let i = Math.round(x) - r; i <= Math.round(x) + r; ++i) {
      if (i < 0 || j < 0 || i >= image.width || j >= image.height) continue;
      const k = 4 * (j * image.width + i);
      for (let c = 0; c < 3; ++c) sum[c] += image.data[k + c];
      ++n;
    }
  }
  return sum.map((s) => s / Math.max(1, n));
}

export function colourDistance(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** Reads a CSV of numbers: {header, rows}. */
export function readCsv(file) {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  return {header: lines[0].split(','), rows: lines.slice(1).map((l) => l.split(',').map(Number))};
}

let failures = 0;
/** Records a failed check (printed with `what`), without stopping the remaining checks. */
export function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
}
export function finish() {
  if (failures) {
    console.log(`${failures} check(s) failed`);
    process.exit(1);
  }
  console.log('all checks passed');
}
