// Reads a PNG into RGBA pixels: 8 bits per channel, grey, RGB or RGBA, not interlaced (what
// stb_image_write and Chromium write). Node's zlib inflates; the filters are undone here.
import { inflateSync } from 'node:zlib';

const kChannels = { 0: 1, 2: 3, 4: 2, 6: 4 };

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function readPng(bytes) {
  if (bytes.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let width = 0, height = 0, channels = 0;
  const data = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      channels = kChannels[body[9]];
      if (body[8] !== 8 || !channels || body[12] !== 0)
        throw new Error(`unsupported PNG: depth ${body[8]}, colour ${body[9]}, interlace ${body[12]}`);
    } else if (type === 'IDAT') {
      data.push(body);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = Buffer.alloc(height * stride);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; ++i) {
      const left = i >= channels ? rows[y * stride + i - channels] : 0;
      const up = y > 0 ? rows[(y - 1) * stride + i] : 0;
      const corner = y > 0 && i >= channels ? rows[(y - 1) * stride + i - channels] : 0;
      const predict = [0, left, up, (left + up) >> 1, paeth(left, up, corner)][filter];
      rows[y * stride + i] = (line[i] + predict) & 0xff;
    }
  }
  const rgba = Buffer.alloc(width * height * 4);
  for (let p = 0; p < width * height; ++p) {
    const src = rows.subarray(p * channels, (p + 1) * channels);
    const grey = channels <= 2;
    rgba[p * 4] = src[0];
    rgba[p * 4 + 1] = grey ? src[0] : src[1];
    rgba[p * 4 + 2] = grey ? src[0] : src[2];
    rgba[p * 4 + 3] = channels === 4 ? src[3] : channels === 2 ? src[1] : 255;
  }
  return { width, height, rgba };
}

// How two pictures of the same size differ: the largest channel difference, and how many
// pixels differ by more than `tolerance` in any channel.
export function compare(a, b, tolerance) {
  if (a.width !== b.width || a.height !== b.height)
    throw new Error(`sizes differ: ${a.width}x${a.height} and ${b.width}x${b.height}`);
  let largest = 0, beyond = 0;
  for (let p = 0; p < a.width * a.height; ++p) {
    let worst = 0;
    for (let c = 0; c < 3; ++c) worst = Math.max(worst, Math.abs(a.rgba[p * 4 + c] - b.rgba[p * 4 + c]));
    largest = Math.max(largest, worst);
    if (worst > tolerance) ++beyond;
  }
  return { largest, beyond, fraction: beyond / (a.width * a.height) };
}
