// Writes the PWA icons into public/icons as real PNG files, with no image library: a dark tile with a green
// three-quarter ring (the product's ring chart) around a "T". Run: node scripts/make-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const OUT = new URL('../public/icons/', import.meta.url);

const BG = [14, 18, 23];
const TRACK = [42, 52, 64];
const RING = [76, 196, 122];
const INK = [238, 242, 246];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Colour (or null = transparent) at a point in unit coordinates (0..1). `content` is the safe-zone scale. */
function sample(x, y, { maskable }) {
  // Non-maskable icons are a rounded square; maskable ones bleed to the edge and keep content in the safe zone.
  if (!maskable) {
    const r = 0.2;
    const dx = Math.max(r - x, 0, x - (1 - r));
    const dy = Math.max(r - y, 0, y - (1 - r));
    if (dx * dx + dy * dy > r * r) return null;
  }
  const scale = maskable ? 0.72 : 0.9;
  const u = (x - 0.5) / scale;
  const v = (y - 0.5) / scale;
  const d = Math.hypot(u, v);
  if (d > 0.33 && d < 0.45) {
    // Angle clockwise from 12 o'clock, 0..1.
    const a = (Math.atan2(u, -v) / (2 * Math.PI) + 1) % 1;
    return a < 0.75 ? RING : TRACK;
  }
  // The "T": a bar and a stem.
  if (v > -0.2 && v < -0.1 && Math.abs(u) < 0.2) return INK;
  if (v >= -0.1 && v < 0.22 && Math.abs(u) < 0.055) return INK;
  return BG;
}

function render(size, opts) {
  const SS = 4; // 4×4 supersampling for smooth edges
  const out = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const c = sample((px + (sx + 0.5) / SS) / size, (py + (sy + 0.5) / SS) / size, opts);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
      const i = (py * size + px) * 4;
      if (a > 0) {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
      }
      out[i + 3] = Math.round((a / (SS * SS)) * 255);
    }
  }
  return png(size, out);
}

mkdirSync(OUT, { recursive: true });
const icons = [
  ['icon-192.png', 192, { maskable: false }],
  ['icon-512.png', 512, { maskable: false }],
  ['icon-maskable-512.png', 512, { maskable: true }],
  ['apple-touch-icon-180.png', 180, { maskable: true }],
];
for (const [name, size, opts] of icons) {
  writeFileSync(new URL(name, OUT), render(size, opts));
  console.log(`wrote public/icons/${name} (${size}×${size})`);
}
