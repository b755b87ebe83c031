// The page in headless Chromium, as a student opens it: drawn through WebGL2 (SwiftShader),
// compared with `pplab render` of the same frame, driven by its address, with no error in
// the browser's console. Run by ctest (web/tests/CMakeLists.txt) with
//   PPLAB_SITE   the page's folder (build/web)
//   PPLAB_NATIVE the native `pplab` (render and trace, for what the page must equal)
//   PPLAB_SCREENSHOT_DIR (optional) where to keep the pictures taken
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Browser, serve } from './browser.mjs';
import { compare, readPng } from './png.mjs';

const site = process.env.PPLAB_SITE;
const native = process.env.PPLAB_NATIVE;
const keep = process.env.PPLAB_SCREENSHOT_DIR;
const scratch = mkdtempSync(join(tmpdir(), 'pplab-page-'));
let server, browser;

before(async () => {
  assert.ok(site && native, 'PPLAB_SITE and PPLAB_NATIVE must name the page and the native pplab');
  server = await serve(site);
  browser = await Browser.launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

function kept(name, png) {
  if (!keep) return;
  mkdirSync(keep, { recursive: true });
  writeFileSync(join(keep, name), png);
}

// What the native pplab says (stderr, without "pplab: ") for a request it refuses.
function nativeMessage(args) {
  const run = spawnSync(native, args, { encoding: 'utf8' });
  assert.equal(run.status, 2, `pplab ${args.join(' ')} should refuse: ${run.stderr}`);
  const line = run.stderr.split('\n').find((l) => l.startsWith('pplab: '));
  return line.slice('pplab: '.length);
}

function nativePicture(args, name) {
  const out = join(scratch, name);
  execFileSync(native, ['render', ...args, '--out', out], { stdio: 'ignore' });
  return readFileSync(out);
}

// The same drawing, two rasterisers (Mesa's llvmpipe for pplab render, SwiftShader in the
// browser): the edges of text and arrows may differ by a shade, nothing else.
function assertSamePicture(page, expected, what) {
  const near = compare(page, expected, 8);
  const far = compare(page, expected, 48);
  assert.ok(near.fraction < 0.02 && far.fraction < 0.002,
            `${what}: ${(near.fraction * 100).toFixed(2)}% of pixels differ by more than 8, ` +
            `${(far.fraction * 100).toFixed(3)}% by more than 48 (largest ${far.largest})`);
}

const pictures = [
  { name: 'scan-blelloch-step6', args: ['--algo', 'scan-blelloch', '--input', '1,2,3,4', '--step', '6'],
    query: 'algo=scan-blelloch&input=1,2,3,4&step=6' },
  { name: 'reduce-tree-dark-step3-block2', args: ['--algo', 'reduce-tree', '--n', '64', '--block', '16', '--step', '3', '--shown-block', '2', '--theme', 'dark'],
    query: 'algo=reduce-tree&n=64&block=16&step=3&shown-block=2&theme=dark' },
  { name: 'hist-privatised-step4-scale150', args: ['--algo', 'hist-privatised', '--n', '300', '--bins', '16', '--block', '64', '--gen', 'skewed', '--step', '4', '--scale', '150'],
    query: 'algo=hist-privatised&n=300&bins=16&block=64&gen=skewed&step=4&scale=150' },
];

for (const p of pictures) {
  test(`view=picture draws ${p.name} as pplab render does`, async () => {
    const status = await browser.open(`${server.url}index.html?view=picture&${p.query}`, 1280, 800);
    assert.equal(status.state, 'ready', status.text);
    const png = await browser.screenshot(0, 0, 1280, 800);
    kept(`picture-${p.name}.png`, png);
    assertSamePicture(readPng(png), readPng(nativePicture(p.args, `${p.name}.png`)), p.name);
    assert.deepEqual(browser.problems, []);
  });
}

test('the comparison tells steps apart (it can fail)', async () => {
  const status = await browser.open(
    `${server.url}index.html?view=picture&algo=scan-blelloch&input=1,2,3,4&step=5`, 1280, 800);
  assert.equal(status.state, 'ready', status.text);
  const page = readPng(await browser.screenshot(0, 0, 1280, 800));
  const other = readPng(nativePicture(pictures[0].args, 'step6.png'));
  assert.throws(() => assertSamePicture(page, other, 'step 5 against step 6'));
});

for (const [width, height] of [[1280, 720], [1920, 1080]]) {
  test(`the window opens at the address's step, ${width}x${height}`, async () => {
    const status = await browser.open(
      `${server.url}?algo=scan-blelloch&input=1,2,3,4&step=6`, width, height);
    assert.equal(status.state, 'ready', status.text);
    assert.match(status.text, /^scan-blelloch, step 6 of 6 \(frame 5\): Downsweep/);
    const png = await browser.screenshot(0, 0, width, height);
    kept(`window-${width}x${height}.png`, png);
    const shot = readPng(png);
    assert.equal(shot.width, width);
    // Drawn, not blank: the window's panels are not one colour.
    const colours = new Set();
    for (let p = 0; p < shot.width * shot.height; p += 97) colours.add(shot.rgba.readUInt32BE(p * 4));
    assert.ok(colours.size > 20, `${colours.size} colours`);
    assert.deepEqual(browser.problems, []);
    console.log(`first frame at ${status.firstFrameMs} ms after navigation (${width}x${height})`);
  });
}

// Bad parameters: the window's own inline messages, as the native pplab words them.
const badLinks = [
  { query: 'algo=scan-blelloch&input=1,x,3', native: ['trace', '--algo', 'scan-blelloch', '--input', '1,x,3'] },
  { query: 'algo=nope', native: ['trace', '--algo', 'nope', '--n', '4'] },
  { query: 'algo=scan-blelloch&n=32&block=33', native: ['trace', '--algo', 'scan-blelloch', '--n', '32', '--block', '33'] },
  { query: 'algo=scan-blelloch&input=1,2,3,4&step=99',
    native: ['render', '--algo', 'scan-blelloch', '--input', '1,2,3,4', '--step', '99', '--out', join(scratch, 'never.png')] },
  { query: 'algo=scan-blelloch&input=1,2,3,4&shown-block=3',
    native: ['render', '--algo', 'scan-blelloch', '--input', '1,2,3,4', '--step', '1', '--shown-block', '3', '--out', join(scratch, 'never.png')] },
  { query: 'algo=reduce-tree&pitfall=sloppy', native: ['trace', '--algo', 'reduce-tree', '--n', '4', '--pitfall', 'sloppy'] },
  { query: 'algo=reduce-tree&n=abc', message: "the address's n=abc is not a whole number" },
  { query: 'algo=reduce-tree&colour=red', message: "the address asks for 'colour', which the page does not know" },
];

for (const bad of badLinks) {
  test(`?${bad.query} says what is wrong, inline`, async () => {
    const expected = bad.message ?? nativeMessage(bad.native);
    const status = await browser.open(`${server.url}?${bad.query}`, 1280, 720);
    assert.equal(status.state, 'error', status.text);
    assert.ok(status.text.includes(expected), `"${status.text}" lacks "${expected}"`);
    assert.deepEqual(browser.problems, []);
  });
}

test('a session dropped on the canvas opens as it was recorded', async () => {
  // Saved by the native pplab; the browser delivers a dropped file as a DataTransfer.
  const session = join(scratch, 'lesson.json');
  execFileSync(native, ['trace', '--algo', 'hist-per-warp', '--n', '100', '--bins', '8',
                        '--block', '64', '--format', 'json', '--out', session]);
  const status = await browser.open(`${server.url}?algo=scan-blelloch&input=1,2,3,4`, 1280, 720);
  assert.equal(status.state, 'ready', status.text);
  await browser.evaluate(`(() => {
    const files = new DataTransfer();
    files.items.add(new File([${JSON.stringify(readFileSync(session, 'utf8'))}], 'lesson.json'));
    document.getElementById('canvas').dispatchEvent(
      new DragEvent('drop', { dataTransfer: files, bubbles: true, cancelable: true }));
  })()`);
  const opened = await browser.waitForStatus((s) => s?.text.startsWith('hist-per-warp'), 10);
  assert.match(opened?.text ?? '', /^hist-per-warp, step 1 of 5 \(frame 0\)/);
  assert.deepEqual(browser.problems, []);
});

// A student's kernel runs in a child process, which a page cannot start: the tab says so
// instead of failing or vanishing, and the canvas keeps the chapter's kernel.
test('the Your kernel tab says to use the desktop app, and why', async () => {
  const status = await browser.open(`${server.url}?algo=reduce-tree&n=64&block=16&tab=your-kernel`,
                                    1600, 1000);
  assert.equal(status.state, 'ready', status.text);
  const shown = await browser.waitForStatus((s) => s?.text.includes('Your kernel:'), 10);
  assert.match(shown?.text ?? '', /^reduce-tree, step 1 of \d+/);
  assert.match(shown?.text ?? '', /Your kernel: use the desktop app\. A student's kernel is compiled and run in a separate process/);
  kept('window-your-kernel.png', await browser.screenshot(0, 0, 1600, 1000));
  const other = await browser.open(`${server.url}?algo=reduce-tree&n=64&block=16`, 1600, 1000);
  assert.ok(!other.text.includes('Your kernel'), other.text);
  assert.deepEqual(browser.problems, []);
});

test('the page is under 3 MB gzipped', () => {
  let total = 0;
  for (const file of readdirSync(site)) total += gzipSync(readFileSync(join(site, file)), { level: 9 }).length;
  console.log(`the page: ${(total / 1e6).toFixed(2)} MB gzipped (${readdirSync(site).join(', ')})`);
  assert.ok(total < 3e6, `${total} bytes gzipped`);
});
