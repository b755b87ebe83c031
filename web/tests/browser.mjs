// Headless Chromium driven through the DevTools protocol over a pipe (--remote-debugging-pipe:
// no port, no WebSocket library), and a static server for build/web, both for the page's
// tests. Everything here is Node's own; Chromium is Debian's.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const kTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
};

// Serves `root` on 127.0.0.1 at a free port; resolves to { url, close }.
export function serve(root) {
  const server = createServer(async (req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (path.endsWith('/')) path += 'index.html';
    try {
      const body = await readFile(join(root, path));
      res.writeHead(200, { 'Content-Type': kTypes[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

let launched = 0;

// One headless Chromium with one tab, on a profile of its own (removed on close: each browser
// starts cold, with nothing cached). send(method, params) talks to the tab; `problems` collects
// what the page's console and runtime reported as errors.
export class Browser {
  static async launch(chromium = process.env.CHROMIUM ?? 'chromium') {
    const profile = `${process.env.TMPDIR ?? '/tmp'}/pplab-chromium-${process.pid}-${++launched}`;
    const args = [
      '--headless=new', '--remote-debugging-pipe', '--no-first-run', '--no-default-browser-check',
      '--disable-extensions', '--disable-background-networking', '--disable-sync',
      '--mute-audio', '--hide-scrollbars', '--force-device-scale-factor=1',
      '--disable-dev-shm-usage', // a small /dev/shm (containers) must not crash the renderer
      // No GPU here: WebGL2 through SwiftShader, Chromium's software renderer.
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      // CI runs as root, where Chromium's sandbox cannot start.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      `--user-data-dir=${profile}`,
      'about:blank',
    ];
    const child = spawn(chromium, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    const browser = new Browser(child);
    browser.profile = profile;
    const missing = new Promise((_, reject) => child.once('error', (e) => reject(new Error(
      `cannot start ${chromium} (${e.code}): install Debian's chromium with scripts/install-deps.sh web`))));
    const { targetInfos } = await Promise.race([browser.call('Target.getTargets'), missing]);
    const page = targetInfos.find((t) => t.type === 'page');
    const { sessionId } = await browser.call('Target.attachToTarget', {
      targetId: page.targetId, flatten: true,
    });
    browser.session = sessionId;
    for (const domain of ['Page', 'Runtime', 'Log']) await browser.send(`${domain}.enable`);
    return browser;
  }

  constructor(child) {
    this.child = child;
    this.next = 1;
    this.waiting = new Map();
    this.problems = [];
    this.consoleLines = [];
    this.listeners = new Set(); // (method, params) of every event, for waitForEvent
    let buffer = '';
    child.stdio[4].on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end;
      while ((end = buffer.indexOf('\0')) >= 0) {
        this.receive(JSON.parse(buffer.slice(0, end)));
        buffer = buffer.slice(end + 1);
      }
    });
    child.stderr.on('data', () => {}); // Chromium's own log (D-Bus and such): not the page's
  }

  receive(message) {
    const pending = this.waiting.get(message.id);
    if (pending) {
      this.waiting.delete(message.id);
      if (message.error) pending.reject(new Error(`${pending.method}: ${message.error.message}`));
      else pending.resolve(message.result);
      return;
    }
    const p = message.params;
    for (const listen of [...this.listeners]) listen(message.method, p);
    if (message.method === 'Runtime.consoleAPICalled') {
      const text = p.args.map((a) => a.value ?? a.description ?? '').join(' ');
      this.consoleLines.push(`${p.type}: ${text}`);
      if (p.type === 'error' || p.type === 'assert') this.problems.push(`console.${p.type}: ${text}`);
    } else if (message.method === 'Runtime.exceptionThrown') {
      const d = p.exceptionDetails;
      this.problems.push(`exception: ${d.exception?.description ?? d.text}`);
    } else if (message.method === 'Log.entryAdded' && p.entry.level === 'error') {
      this.problems.push(`log: ${p.entry.text} ${p.entry.url ?? ''}`);
    }
  }

  call(method, params = {}, sessionId = undefined) {
    const id = this.next++;
    const message = { id, method, params, ...(sessionId ? { sessionId } : {}) };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, method });
      this.child.stdio[3].write(JSON.stringify(message) + '\0');
    });
  }

  send(method, params = {}) {
    return this.call(method, params, this.session);
  }

  async evaluate(expression) {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', {
      expression, returnByValue: true, awaitPromise: true,
    });
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text}`);
    return result.value;
  }

  // Loads `url` in a viewport of width x height CSS pixels (one device pixel each) and waits
  // until the page's status line leaves `tracing` (or `seconds` pass). Resolves to the status.
  async open(url, width, height, seconds = 30) {
    this.problems = [];
    this.consoleLines = [];
    await this.send('Emulation.setDeviceMetricsOverride', {
      width, height, deviceScaleFactor: 1, mobile: false,
    });
    // The page before is marked, so its status line is never taken for the new one's.
    await this.evaluate('window.pplabTestLeft = true');
    await this.send('Page.navigate', { url });
    return this.waitForStatus((s) => s && !['loading', 'tracing'].includes(s.state), seconds);
  }

  status() {
    return this.evaluate(`(() => { const s = document.getElementById('status');
      return s && !window.pplabTestLeft && { state: s.dataset.state, text: s.textContent,
                    firstFrameMs: Number(s.dataset.firstFrameMs ?? NaN) }; })()`);
  }

  async waitForStatus(done, seconds = 30) {
    const until = Date.now() + seconds * 1000;
    for (;;) {
      const s = await this.status().catch(() => null);
      if (done(s) || Date.now() > until) return s;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  // Resolves to the params of the next event `method` for which `match` holds (`seeing` sees
  // every event before); rejects after `seconds` saying what did not come, or with what
  // `match` threw.
  waitForEvent(method, match = () => true, seconds = 30, seeing = () => {}) {
    return new Promise((resolve, reject) => {
      const listen = (m, params) => {
        seeing(m, params);
        let matched;
        try {
          matched = m === method && match(params);
        } catch (e) {
          this.listeners.delete(listen);
          clearTimeout(timer);
          reject(e);
          return;
        }
        if (!matched) return;
        this.listeners.delete(listen);
        clearTimeout(timer);
        resolve(params);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listen);
        reject(new Error(`no ${method} within ${seconds} s`));
      }, seconds * 1000);
      this.listeners.add(listen);
    });
  }

  // Waits until the page has drawn `count` more display frames (the browser's animation
  // frames, in which the window reads its input and draws).
  frames(count = 3) {
    return this.evaluate(`new Promise((done) => { let left = ${count};
      const next = () => (--left > 0 ? requestAnimationFrame(next) : done(true));
      requestAnimationFrame(next); })`);
  }

  // A click of the left button at (x, y) as a student's mouse makes it: the pointer moves
  // there, is pressed, released, each in frames of its own (ImGui 1.86 reads the button's
  // state once a frame: a press and release between two frames would be no click).
  async click(x, y) {
    const mouse = (type, extra = {}) => this.send('Input.dispatchMouseEvent',
      { type, x, y, button: 'left', ...extra });
    await mouse('mouseMoved', { button: 'none' });
    await this.frames();
    await mouse('mousePressed', { buttons: 1, clickCount: 1 });
    await this.frames();
    await mouse('mouseReleased', { buttons: 0, clickCount: 1 });
    await this.frames();
  }

  // Downloads go into `folder`, under the names the page gives them.
  downloadInto(folder) {
    return this.call('Browser.setDownloadBehavior', {
      behavior: 'allow', downloadPath: folder, eventsEnabled: true,
    });
  }

  // The next download, from its start to its end: resolves to the file's name. Called before
  // what starts it (the events may come in one message).
  nextDownload(seconds = 60) {
    let name, guid;
    return this.waitForEvent('Browser.downloadProgress', (p) => {
      if (p.guid !== guid || p.state === 'inProgress') return false;
      if (p.state !== 'completed') throw new Error(`the download of ${name} was ${p.state}`);
      return true;
    }, seconds, (method, p) => {
      if (method === 'Browser.downloadWillBegin' && !guid) ({ guid, suggestedFilename: name } = p);
    }).then(() => name);
  }

  // A PNG of the viewport's rectangle at (x, y), width x height.
  async screenshot(x, y, width, height) {
    const { data } = await this.send('Page.captureScreenshot', {
      format: 'png', clip: { x, y, width, height, scale: 1 }, captureBeyondViewport: false,
    });
    return Buffer.from(data, 'base64');
  }

  async close() {
    try {
      await Promise.race([this.call('Browser.close'), new Promise((r) => setTimeout(r, 3000))]);
    } finally {
      this.child.kill();
      await new Promise((done) => (this.child.exitCode !== null ? done() : this.child.once('exit', done)));
      try { // Chromium's helper processes may still be closing their files
        rmSync(this.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch {
        // a profile left in the temporary folder is no failure of the page
      }
    }
  }
}
