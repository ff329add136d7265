/**
 * Generator 1.16.0 (`--line-art`): a glyph cell printed the way engraved or one-ink sets print
 * their pictures. Many real sets cut the bird of the 1 of bamboo and the flowers and seasons as
 * line drawings, or paint them in a single ink, where our artwork paints them in colour; a reader
 * that has seen only the coloured paintings takes a black line-art bird for a character.
 *
 * - `outline`: the edges of the glyph (where the glyph over a white face changes brightness) as
 *   strokes of one ink, `stroke` px wide; filled shapes turn hollow, thin lines stay lines.
 * - `mono`: the glyph in one ink, each pixel as dark as the glyph was there (a colour painting
 *   becomes an ink painting of the same shapes).
 */
import type { Img } from './art.ts';
import type { RGB } from './render.ts';

export type InkMode = 'outline' | 'mono';

/** The glyph's darkness over a white face, 0 (white or transparent) .. 1 (black), per pixel. */
function darkness(src: Img): Float32Array {
  const { w, h, data } = src;
  const d = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const a = data[i * 4 + 3]! / 255;
    if (a === 0) continue;
    const r = data[i * 4]!, g = data[i * 4 + 1]!, b = data[i * 4 + 2]!;
    // saturated paint counts as darker than its luminance alone: a red or green fill is a shape
    const lum = (0.299 * r + 0.587 * g + 0.114 * b) / 255;
    const sat = (Math.max(r, g, b) - Math.min(r, g, b)) / 255;
    d[i] = a * Math.min(1, 1 - lum + 0.35 * sat);
  }
  return d;
}

/** Largest value within `rad` px (a square window), separably. */
function dilate(v: Float32Array, w: number, h: number, rad: number): Float32Array {
  if (rad <= 0) return v;
  const tmp = new Float32Array(w * h), out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let m = 0;
      for (let k = Math.max(0, x - rad); k <= Math.min(w - 1, x + rad); k++) m = Math.max(m, v[y * w + k]!);
      tmp[y * w + x] = m;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let m = 0;
      for (let k = Math.max(0, y - rad); k <= Math.min(h - 1, y + rad); k++) m = Math.max(m, tmp[k * w + x]!);
      out[y * w + x] = m;
    }
  }
  return out;
}

/** The cell redrawn in one ink (see the file's comment). Transparent where the glyph was blank. */
export function inkArt(src: Img, mode: InkMode, ink: RGB, stroke = 1): Img {
  const { w, h } = src;
  const d = darkness(src);
  let alpha: Float32Array;
  if (mode === 'mono') {
    alpha = new Float32Array(w * h);
    for (let i = 0; i < w * h; i++) alpha[i] = Math.min(1, 1.25 * Math.pow(d[i]!, 0.8));
  } else {
    // Sobel magnitude of the darkness; steps of 0.35 or more give a full stroke
    const g = new Float32Array(w * h);
    const at = (x: number, y: number) => d[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))]!;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
        const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
        g[y * w + x] = Math.min(1, Math.hypot(gx, gy) / (4 * 0.35));
      }
    }
    alpha = dilate(g, w, h, Math.max(0, Math.round(stroke / 2) - 1));
  }
  const out = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    out[i * 4] = ink[0]; out[i * 4 + 1] = ink[1]; out[i * 4 + 2] = ink[2];
    out[i * 4 + 3] = Math.round(255 * alpha[i]!);
  }
  return { data: out, w, h };
}
