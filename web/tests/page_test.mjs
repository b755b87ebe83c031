// The page in headless Chromium, as a student opens it: drawn through WebGL2 (SwiftShader),
// compared with `pplab render` of the same frame, driven by its address, with no error in
// the browser's console. Run by ctest (web/tests/CMakeLists.txt) with
//   PPLAB_SITE   the page's folder (build/web)
//   PPLAB_NATIVE the native `pplab` (render and trace, for what the page must equal)
//   PPLAB_PYTHON Python, whose zipfile and XML parser read what the page hands out
//   PPLAB_SCREENSHOT_DIR (optional) where to keep the pictures taken
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Browser, serve } from './browser.mjs';
import { compare, readPng } from './png.mjs';

const site = process.env.PPLAB_SITE;
const native = process.env.PPLAB_NATIVE;
const python = process.env.PPLAB_PYTHON ?? 'python3';
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
  // No block nor bins in the link: render's defaults (the chapter's 256 threads, 256 bins).
  { name: 'hist-global-defaults-step2', args: ['--algo', 'hist-global', '--n', '300', '--gen', 'skewed', '--step', '2'],
    query: 'algo=hist-global&n=300&gen=skewed&step=2' },
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

// The part of `image` at (x, y), w by h.
function crop(image, x, y, w, h) {
  const rgba = Buffer.alloc(w * h * 4);
  for (let row = 0; row < h; ++row)
    image.rgba.copy(rgba, row * w * 4, ((y + row) * image.width + x) * 4,
                    ((y + row) * image.width + x + w) * 4);
  return { width: w, height: h, rgba };
}

// The window's canvas itself, not only view=picture: what the page draws where its layout put
// the canvas is the canvas of `pplab render`'s picture of the same step, drawn at the height
// that gives its canvas the window's size (the picture adds the caption and the counters;
// --layout says where its canvas is).
for (const [width, height] of [[1280, 720], [1920, 1080]]) {
  test(`the window's canvas is pplab render's canvas, ${width}x${height}`, async () => {
    const status = await browser.open(
      `${server.url}?algo=scan-blelloch&input=1,2,3,4&block=4&step=6`, width, height);
    assert.equal(status.state, 'ready', status.text);
    await new Promise((r) => setTimeout(r, 1500)); // the camera's move to the step settles
    const [x, y, w, h] = (await browser.evaluate(
      "document.getElementById('status').dataset.canvas")).split(',').map(Number);
    assert.ok(w > width / 3 && h > height / 3, `canvas ${x},${y},${w},${h}`);
    const args = ['--algo', 'scan-blelloch', '--input', '1,2,3,4', '--block', '4', '--step', '6',
                  '--scale', '100']; // the window's text, not text that grows with the picture
    const layoutOf = (pictureHeight) => {
      const file = join(scratch, `canvas-${width}.json`);
      nativePicture([...args, '--size', `${w}x${pictureHeight}`, '--layout', file], 'sizing.png');
      return JSON.parse(readFileSync(file, 'utf8')).canvas.map(Math.round);
    };
    const first = layoutOf(h);
    const pictureHeight = h + (h - first[3]);
    const canvas = layoutOf(pictureHeight);
    assert.deepEqual([canvas[2], canvas[3]], [w, h], 'the picture\'s canvas is the window\'s size');
    const expected = readPng(nativePicture([...args, '--size', `${w}x${pictureHeight}`],
                                           `canvas-${width}.png`));
    const png = await browser.screenshot(x, y, w, h);
    kept(`window-canvas-${width}x${height}.png`, png);
    // The two canvases sit at different fractions of a pixel (the window's at its layout's, the
    // picture's under its caption): every edge differs by a shade, so only pixels far apart
    // count. The same drawing measured 1.4% (1280x720); the picture's own text size instead of
    // the window's, 6.8%.
    const far = compare(readPng(png), crop(expected, canvas[0], canvas[1], w, h), 48);
    assert.ok(far.fraction < 0.03,
              `the canvas at ${width}x${height}: ${(far.fraction * 100).toFixed(2)}% of pixels ` +
              'differ by more than 48');
    assert.deepEqual(browser.problems, []);
  });
}

// Bad parameters: the window's own inline messages, as the native pplab words them.
// `untraced`: the link's own request fails, so no trace is on the canvas (the window's defaults,
// traced first, stayed there as if they were the link's).
const badLinks = [
  { query: 'algo=scan-blelloch&input=1,x,3', native: ['trace', '--algo', 'scan-blelloch', '--input', '1,x,3'], untraced: true },
  { query: 'algo=nope', native: ['trace', '--algo', 'nope', '--n', '4'] },
  { query: 'algo=scan-blelloch&n=32&block=33', native: ['trace', '--algo', 'scan-blelloch', '--n', '32', '--block', '33'], untraced: true },
  { query: 'algo=scan-blelloch&input=1,2,3,4&step=99',
    native: ['render', '--algo', 'scan-blelloch', '--input', '1,2,3,4', '--step', '99', '--out', join(scratch, 'never.png')] },
  { query: 'algo=scan-blelloch&input=1,2,3,4&shown-block=3',
    native: ['render', '--algo', 'scan-blelloch', '--input', '1,2,3,4', '--step', '1', '--shown-block', '3', '--out', join(scratch, 'never.png')] },
  { query: 'algo=reduce-tree&pitfall=sloppy', native: ['trace', '--algo', 'reduce-tree', '--n', '4', '--pitfall', 'sloppy'] },
  { query: 'algo=reduce-tree&n=abc', message: "the address's n=abc is not a whole number" },
  { query: 'algo=reduce-tree&colour=red', message: "the address asks for 'colour', which the page does not know" },
  { query: 'algo=scan-blelloch&input=1,2,3,4&frame=5', message: "the address asks for 'frame': a link names a step as the window's transport counts them, step=5" },
  // Held to what 1280 pixels of menu bar hold, as Ctrl + is.
  { query: 'algo=reduce-tree&n=64&block=16&scale=300', message: "the address's scale=300 is more than this window's width holds: " },
];

for (const bad of badLinks) {
  test(`?${bad.query} says what is wrong, inline`, async () => {
    const expected = bad.message ?? nativeMessage(bad.native);
    const status = await browser.open(`${server.url}?${bad.query}`, 1280, 720);
    assert.equal(status.state, 'error', status.text);
    assert.ok(status.text.includes(expected), `"${status.text}" lacks "${expected}"`);
    if (bad.untraced)
      assert.ok(!/, step \d+ of/.test(status.text), `a trace is shown: "${status.text}"`);
    assert.deepEqual(browser.problems, []);
  });
}

test('view=picture with a mistake says it is the link\'s, and the loading line goes', async () => {
  const status = await browser.open(`${server.url}index.html?view=picture&algo=nope`, 1280, 800);
  assert.equal(status.state, 'failed', status.text);
  const box = await browser.evaluate(
    "[document.getElementById('failure').textContent, document.getElementById('loading').hidden]");
  assert.ok(box[0].startsWith('This link cannot be drawn: '), box[0]);
  assert.equal(box[1], true);
});

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

// ---- What the window writes arrives as a download; files come in through the file picker.
// Driven by the mouse as a student drives it, in a 1600x1000 window at presenter scale 100%:
// the places below are where the menus and windows put their items there (measured on the
// page's screenshots). The Export window opens where it appears with the PNG chosen.
const at = {
  exportMenu: [261, 14], exportPng: [300, 47],
  kind: { png: [520, 229], svg: [520, 264], gif: [520, 299], sequence: [520, 334] },
  write: [542, 464], writeGif: [542, 499], // the GIF's seconds per step take a row above
  classroomMenu: [110, 14], sessionTab: [160, 204],
  saveSession: [1196, 318], chooseSession: [1520, 283],
  handTraceItem: [148, 104], chooseAnswer: [1397, 265], checkAnswer: [1233, 475],
};
const scan6 = { query: 'algo=scan-blelloch&input=1,2,3,4&step=6',
                args: ['--algo', 'scan-blelloch', '--input', '1,2,3,4'] };

// The page at `query`, its downloads going into a folder of their own; resolves to it.
async function openForFiles(query) {
  const folder = mkdtempSync(join(scratch, 'downloads-'));
  await browser.downloadInto(folder);
  const status = await browser.open(`${server.url}?${query}`, 1600, 1000);
  assert.equal(status.state, 'ready', status.text);
  return folder;
}

// What the clicks were to bring (a download, the file dialog); when it does not come, the
// window as it was then, to see what the mouse missed.
async function expecting(coming, what) {
  try {
    return await coming;
  } catch (e) {
    const shot = join(scratch, `${what.replaceAll(' ', '-')}-missed.png`);
    writeFileSync(shot, await browser.screenshot(0, 0, 1600, 1000));
    throw new Error(`${what}: ${e.message}; the window then: ${shot} (have the places in \`at\` moved?)`);
  }
}

// The Export window's `kind`, written: resolves to the downloaded file's path.
async function exportAs(folder, kind) {
  await browser.click(...at.exportMenu);
  await browser.click(...at.exportPng);
  if (kind !== 'png') await browser.click(...at.kind[kind]);
  const download = browser.nextDownload(120);
  await browser.click(...(kind === 'gif' ? at.writeGif : at.write));
  return join(folder, await expecting(download, `export ${kind}`));
}

// The button at `place` opens the browser's file dialog; `file` is chosen in it.
async function chooseFile(place, file, what) {
  await browser.send('Page.setInterceptFileChooserDialog', { enabled: true });
  try {
    const chooser = browser.waitForEvent('Page.fileChooserOpened');
    await browser.click(...place);
    const { backendNodeId } = await expecting(chooser, what);
    await browser.send('DOM.setFileInputFiles', { files: [file], backendNodeId });
  } finally {
    await browser.send('Page.setInterceptFileChooserDialog', { enabled: false });
  }
}

// Runs `script` (Python) with `args`; resolves to what it printed, as JSON.
function pythonReads(script, ...args) {
  const run = spawnSync(python, ['-c', script, ...args], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

// An animated GIF's size, and its pictures' delays (hundredths of a second), from its blocks.
function gifFrames(bytes) {
  assert.equal(bytes.toString('latin1', 0, 6), 'GIF89a');
  const width = bytes.readUInt16LE(6), height = bytes.readUInt16LE(8);
  const table = (flags) => (flags & 0x80 ? 3 << ((flags & 7) + 1) : 0);
  const skipBlocks = (i) => { while (bytes[i]) i += bytes[i] + 1; return i + 1; };
  const delays = [];
  let delay = null;
  for (let i = 13 + table(bytes[10]); ;) {
    const kind = bytes[i];
    if (kind === 0x3b) break; // the trailer
    if (kind === 0x21) { // an extension: a graphic control one holds the next picture's delay
      if (bytes[i + 1] === 0xf9) delay = bytes.readUInt16LE(i + 4);
      i = skipBlocks(i + 2);
    } else if (kind === 0x2c) { // a picture: its descriptor, local colours, LZW data
      delays.push(delay);
      i = skipBlocks(i + 10 + table(bytes[i + 9]) + 1);
    } else {
      throw new Error(`not a GIF block: 0x${kind?.toString(16)} at byte ${i}`);
    }
  }
  return { width, height, delays };
}

test('Export, PNG of this step: the download is the picture pplab render draws', async () => {
  const folder = await openForFiles(scan6.query);
  const file = await exportAs(folder, 'png');
  assert.equal(basename(file), 'scan-blelloch-step06.png');
  const png = readFileSync(file);
  kept('export-scan-blelloch-step06.png', png);
  const expected = nativePicture([...scan6.args, '--step', '6', '--size', '1600x1000'], 'export.png');
  assertSamePicture(readPng(png), readPng(expected), 'the exported PNG');
  assert.deepEqual(readdirSync(folder), ['scan-blelloch-step06.png']);
  assert.deepEqual(browser.problems, []);
});

test('Export, SVG of this step: well-formed XML titled with the caption, as pplab render writes it', async () => {
  const folder = await openForFiles(scan6.query);
  const caption = (await browser.status()).text.replace(/^[^:]*: /, '');
  const file = await exportAs(folder, 'svg');
  assert.equal(basename(file), 'scan-blelloch-step06.svg');
  const svg = pythonReads(`import json, sys, xml.etree.ElementTree as T
root = T.parse(sys.argv[1]).getroot()
ns = '{http://www.w3.org/2000/svg}'
print(json.dumps({'tag': root.tag, 'size': [root.get('width'), root.get('height')],
                  'title': root.find(ns + 'title').text}))`, file);
  assert.deepEqual(svg, { tag: '{http://www.w3.org/2000/svg}svg', size: ['1600', '1000'], title: caption });
  const expected = join(scratch, 'export.svg');
  execFileSync(native, ['render', ...scan6.args, '--step', '6', '--size', '1600x1000', '--svg', expected],
               { stdio: 'ignore' });
  assert.ok(readFileSync(file).equals(readFileSync(expected)), 'the SVG differs from pplab render --svg');
  assert.deepEqual(browser.problems, []);
});

test('Export, PNG sequence: one zip holding every step, as pplab render --all-steps draws them', async () => {
  const folder = await openForFiles(scan6.query);
  const file = await exportAs(folder, 'sequence');
  // One download, the whole run: not a file a frame besides it.
  assert.equal(basename(file), 'scan-blelloch-steps.zip');
  assert.deepEqual(readdirSync(folder), ['scan-blelloch-steps.zip']);
  const unzipped = join(scratch, 'unzipped');
  const names = pythonReads(`import json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None, 'a CRC is wrong'
    z.extractall(sys.argv[2])
    print(json.dumps(z.namelist()))`, file, unzipped);
  const steps = [1, 2, 3, 4, 5, 6];
  assert.deepEqual(names, steps.map((s) => `scan-blelloch-steps/step_000${s}.png`));
  const drawn = join(scratch, 'all-steps');
  execFileSync(native, ['render', ...scan6.args, '--size', '1600x1000', '--all-steps', drawn],
               { stdio: 'ignore' });
  for (const s of steps) {
    const page = readPng(readFileSync(join(unzipped, names[s - 1])));
    const expected = readPng(readFileSync(join(drawn, `step_000${s}.png`)));
    assertSamePicture(page, expected, `the sequence's step ${s}`);
  }
  assert.deepEqual(browser.problems, []);
});

test('Export, GIF of the whole run: one picture a step, timed as pplab render --gif times them', async () => {
  const folder = await openForFiles(scan6.query);
  const file = await exportAs(folder, 'gif');
  assert.equal(basename(file), 'scan-blelloch.gif');
  const gif = gifFrames(readFileSync(file));
  // Six steps (the status line's "step 6 of 6"), 1.2 s each; the last stays longer.
  assert.equal(gif.delays.length, 6, `${gif.delays.length} pictures`);
  const expected = join(scratch, 'export.gif');
  execFileSync(native, ['render', ...scan6.args, '--size', '1600x1000', '--gif', expected], { stdio: 'ignore' });
  assert.deepEqual(gif, gifFrames(readFileSync(expected)));
  assert.deepEqual(gif.delays.slice(0, 5), [120, 120, 120, 120, 120]);
  assert.deepEqual(browser.problems, []);
});

test('a session saved as a download is the native trace, and opens through the file picker', async () => {
  const folder = await openForFiles(scan6.query);
  await browser.click(...at.classroomMenu);
  await browser.click(...at.sessionTab);
  const download = browser.nextDownload();
  await browser.click(...at.saveSession);
  const file = join(folder, await expecting(download, 'save session'));
  assert.equal(basename(file), 'pplab-session.json');
  // What pplab trace --format json saves for the same request: a session the desktop opens.
  const expected = execFileSync(native, ['trace', ...scan6.args, '--backend', 'cpu', '--format', 'json']);
  assert.equal(readFileSync(file, 'utf8'), expected.toString('utf8'));

  // Another trace on screen; the saved one chosen in the browser's file dialog.
  await browser.open(`${server.url}?algo=reduce-tree&n=64&block=16`, 1600, 1000);
  await browser.click(...at.classroomMenu);
  await browser.click(...at.sessionTab);
  await chooseFile(at.chooseSession, file, 'choose session');
  const opened = await browser.waitForStatus((s) => s?.text.startsWith('scan-blelloch'), 10);
  assert.match(opened?.text ?? '', /^scan-blelloch, step 1 of 6 \(frame 0\): /);
  assert.deepEqual(browser.problems, []);
});

test('a hand-trace opened through the file picker is checked as pplab check checks it', async () => {
  // Exercise 3 worked by hand, one value wrong in the last level.
  const answer = join(scratch, 'exercise3.txt');
  writeFileSync(answer, 'load: 1 2 3 4\nupsweep 0: 1 3 3 7\nupsweep 1: 1 3 3 10\n' +
                        'clear-root: 1 3 3 0\ndownsweep 0: 1 0 3 3\ndownsweep 1: 0 1 3 7\n');
  const run = spawnSync(native, ['check', ...scan6.args, '--answer', answer], { encoding: 'utf8' });
  assert.equal(run.status, 1, run.stderr);
  const lines = run.stdout.trim().split('\n');
  const summary = lines.find((l) => / levels? (is|are) (right|wrong)\.$/.test(l));
  const mistake = lines.find((l) => l.startsWith('First mistake, line '));
  assert.ok(summary && mistake, run.stdout);

  await openForFiles(scan6.query);
  await browser.click(...at.classroomMenu);
  await browser.click(...at.handTraceItem);
  await chooseFile(at.chooseAnswer, answer, 'choose a hand-trace');
  await browser.frames();
  await browser.click(...at.checkAnswer);
  const checked = await browser.waitForStatus((s) => s?.text.includes('\nHand-trace: '), 10);
  const said = (checked?.text ?? '').split('\nHand-trace: ')[1] ?? '';
  // The window's words are the CLI's: the summary, then the first mistake with its line.
  assert.equal(said, `${summary} The first mistake, line ${mistake.slice('First mistake, line '.length)}`);
  assert.deepEqual(browser.problems, []);
});
