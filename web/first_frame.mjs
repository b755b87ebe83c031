// Not a test (tests never assert on time): how soon the page shows its first frame in headless
// Chromium, and how large it is gzipped, for bench/NOTES.md.
//   node --no-experimental-fetch web/first_frame.mjs [build/web] [loads]
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Browser, serve } from './tests/browser.mjs';

const site = process.argv[2] ?? 'build/web';
const loads = Number(process.argv[3] ?? 10);
let gzipped = 0;
for (const file of readdirSync(site)) gzipped += gzipSync(readFileSync(join(site, file)), { level: 9 }).length;
const server = await serve(site);
for (const [what, query] of [['window', '?algo=scan-blelloch&input=1,2,3,4&step=6'],
                             ['picture', '?view=picture&algo=scan-blelloch&input=1,2,3,4&step=6']]) {
  const times = [];
  for (let i = 0; i < loads; ++i) { // a new browser each time: nothing compiled or cached
    const browser = await Browser.launch();
    const status = await browser.open(server.url + query, 1280, 720);
    times.push(status.firstFrameMs);
    await browser.close();
  }
  times.sort((a, b) => a - b);
  console.log(`${what}: first frame ${times[times.length >> 1]} ms after navigation (median of ` +
              `${loads}; ${times[0]} to ${times[times.length - 1]})`);
}
console.log(`size: ${(gzipped / 1e6).toFixed(2)} MB gzipped (${readdirSync(site).join(', ')})`);
await server.close();
