/**
 * Pure preprocessing (no ORT, no DOM): area downscaling,
 * letterboxing to the detector tensor, and cropping tiles for the classifier.
 */
import { CONFIG } from './config.ts';
import type { Box, RasterImage } from './types.ts';

// ---------------------------------------------------------------- letterbox

/** Maps raster pixels to tensor pixels: t = r * scale + pad. */
export interface LetterboxTransform {
  scale: number;
  padX: number;
  padY: number;
  /** Tensor width and height. */
  width: number;
  height: number;
  /** Source raster size. */
  srcWidth: number;
  srcHeight: number;
}

export interface Letterboxed {
  /** NCHW float32 RGB in [0, 1], N = 1. */
  data: Float32Array;
  dims: [1, 3, number, number];
  transform: LetterboxTransform;
}

/**
 * Resize (area-average when shrinking) so the long side is `size`, then pad
 * right/bottom with grey up to a multiple of `multiple` (content at top-left).
 * With `fit` < 1 (zooming out), the content is shrunk to `fit` of that and
 * centred in the same tensor, grey all round.
 */
export function letterbox(img: RasterImage, size = 512, multiple = 32, fit = 1): Letterboxed {
  if (!(fit > 0 && fit <= 1)) throw new RangeError(`letterbox: fit must be in (0, 1], got ${fit}`);
  const full = size / Math.max(img.width, img.height);
  const W = Math.ceil(Math.max(1, Math.round(img.width * full)) / multiple) * multiple;
  const H = Math.ceil(Math.max(1, Math.round(img.height * full)) / multiple) * multiple;
  const scale = full * fit;
  const cw = Math.max(1, Math.round(img.width * scale));
  const ch = Math.max(1, Math.round(img.height * scale));
  const padX = fit < 1 ? Math.floor((W - cw) / 2) : 0;
  const padY = fit < 1 ? Math.floor((H - ch) / 2) : 0;
  const data = new Float32Array(3 * W * H).fill(CONFIG.crop.padValue);
  const plane = W * H;
  const k = img.width / cw;
  if (Number.isInteger(k) && k > 1 && img.height === ch * k) {
    // a whole factor each way (the 1024-px raster to the detector's 512 or 256): k x k box means, straight into the planes
    boxMeansInto(img, cw, ch, k, data, W, plane, padX, padY);
  } else if (cw === img.width && ch === img.height) {
    // at the raster's own size (the fine search at 1024) straight from its bytes
    const step = img.channels, src = img.data, mul = 1 / 255;
    for (let y = 0; y < ch; y++) {
      for (let x = 0, s = y * cw * step, d = (y + padY) * W + padX; x < cw; x++, s += step, d++) {
        data[d] = src[s] * mul;
        data[plane + d] = src[s + 1] * mul;
        data[2 * plane + d] = src[s + 2] * mul;
      }
    }
  } else {
    // else area-resized straight into the planes
    areaResizeInto(img, cw, ch, data, W, plane, padX, padY);
  }
  return {
    data,
    dims: [1, 3, H, W],
    transform: { scale: cw / img.width, padX, padY, width: W, height: H, srcWidth: img.width, srcHeight: img.height },
  };
}

/** Tensor pixel -> raster pixel. */
export function unletterboxPoint(t: LetterboxTransform, x: number, y: number): [number, number] {
  return [(x - t.padX) / t.scale, (y - t.padY) / t.scale];
}

/** Raster pixel -> tensor pixel. */
export function letterboxPoint(t: LetterboxTransform, x: number, y: number): [number, number] {
  return [x * t.scale + t.padX, y * t.scale + t.padY];
}

/** Area-average resize to w x h; returns RGB floats in [0,1], interleaved. */
export function resizeArea(img: RasterImage, w: number, h: number): Float32Array {
  const planar = new Float32Array(3 * w * h);
  // a whole factor each way (the 1024-px raster to the detector's 512, 256 or 1024): box sums
  const k = img.width / w;
  if (Number.isInteger(k) && k >= 1 && img.height === h * k) boxMeansInto(img, w, h, k, planar, w, w * h, 0, 0);
  else areaResizeInto(img, w, h, planar, w, w * h, 0, 0);
  const out = new Float32Array(3 * w * h);
  for (let i = 0, d = 0; i < w * h; i++, d += 3) {
    out[d] = planar[i]!; out[d + 1] = planar[w * h + i]!; out[d + 2] = planar[2 * w * h + i]!;
  }
  return out;
}

/** The source pixels (`first`, `count`) and weights (`weight`, `stride` per output pixel; the partly
 * covered first and last pixels weigh their covered part) of each of m output pixels of an area
 * resize from n pixels along one axis, and their sums. `f32` rounds the edge weights to float32,
 * as the horizontal pass always has. */
type AreaTaps = ReturnType<typeof areaTaps>;

function areaTaps(n: number, m: number, f32: boolean) {
  const f = n / m;
  const stride = Math.ceil(f) + 2;
  const first = new Int32Array(m), count = new Int32Array(m);
  const weight = new Float64Array(m * stride), sum = new Float64Array(m);
  const r = f32 ? Math.fround : (v: number) => v;
  for (let i = 0; i < m; i++) {
    const a = i * f, b = Math.min(n, (i + 1) * f);
    const s0 = Math.floor(a), s1 = Math.min(n - 1, Math.ceil(b) - 1);
    const wa = r(1 - (a - s0)), wb = r(b - Math.floor(b) || 1);
    first[i] = s0;
    count[i] = s1 - s0 + 1;
    let ws = 0;
    for (let s = s0; s <= s1; s++) {
      let wt = 1;
      if (s === s0) wt = wa;
      if (s === s1) wt = s1 === s0 ? Math.min(wa, f) : wb;
      weight[i * stride + s - s0] = wt;
      ws += wt;
    }
    sum[i] = ws;
  }
  return { first, count, weight, sum, stride };
}

/** Scratch rows of the area resize's horizontal pass, kept between calls (a scan makes a few MB of
 * them each time, and fresh ones cost the garbage collector more than the copying). */
let areaScratch = new Float32Array(0);

/** Area-average resize of a raster to w x h in [0, 1], written into the three planes (`plane` apart,
 * rows `stride` long) of `out` at (padX, padY): a horizontal pass, then a vertical one, summed in
 * float32 as they always were. */
function areaResizeInto(img: RasterImage, w: number, h: number, out: Float32Array, stride: number, plane: number, padX: number, padY: number): void {
  const { width: W, height: H, channels: C, data } = img;
  const hx = areaTaps(W, w, true), vy = areaTaps(H, h, false);
  // horizontal pass: three planes of H rows x w columns
  const tp = H * w;
  if (areaScratch.length < 3 * tp + w) areaScratch = new Float32Array(3 * tp + w);
  const tmp = areaScratch;
  for (let y = 0; y < H; y++) areaRowH(data, y * W * C, C, hx, tmp, y * w, w, tp);
  // vertical pass, a row at a time in the scratch's last w values
  const acc = tmp.subarray(3 * tp, 3 * tp + w);
  for (let y = 0; y < h; y++) {
    const inv = 1 / (vy.sum[y]! * 255);
    for (let c = 0; c < 3; c++) areaRowV(tmp, c * tp, vy, y, w, acc, out, c * plane + (y + padY) * stride + padX, inv);
  }
}

/*
 * The loops over rows call a function per row (areaRowH, areaRowV, boxRow, cropRow) rather than
 * nest the row's loop inside: V8 optimizes a function called many times as soon as it is warm, but
 * an inner loop it has compiled on the stack (OSR) falls back to the interpreter at every exit, so
 * that in the browser the first scans of a page spent 100-550 ms in these loops (model/HISTORY.md,
 * stop 41).
 */

/** One raster row of the horizontal area pass: w columns of the three planes of `tmp` from `o`. */
function areaRowH(data: ArrayLike<number>, row: number, C: number, hx: AreaTaps, tmp: Float32Array, o: number, w: number, tp: number): void {
  for (let x = 0; x < w; x++, o++) {
    let r = 0, g = 0, b = 0;
    for (let t = 0, s = row + hx.first[x]! * C, k = x * hx.stride, n = hx.count[x]!; t < n; t++, s += C, k++) {
      const wt = hx.weight[k]!;
      r += data[s]! * wt; g += data[s + 1]! * wt; b += data[s + 2]! * wt;
    }
    const ws = hx.sum[x]!;
    tmp[o] = r / ws; tmp[tp + o] = g / ws; tmp[2 * tp + o] = b / ws;
  }
}

/** Output row y of one plane (`base` in `tmp`) of the vertical area pass, through `acc`, into `out` at `d`. */
function areaRowV(tmp: Float32Array, base: number, vy: AreaTaps, y: number, w: number, acc: Float32Array, out: Float32Array, d: number, inv: number): void {
  acc.fill(0);
  for (let t = 0, k = y * vy.stride, n = vy.count[y]!; t < n; t++, k++) {
    const wt = vy.weight[k]!;
    const s0 = base + (vy.first[y]! + t) * w;
    for (let x = 0; x < w; x++) acc[x] += tmp[s0 + x]! * wt;
  }
  for (let x = 0; x < w; x++) out[d + x] = acc[x]! * inv;
}

/** The means of the k x k blocks of a raster (W = w * k, H = h * k) in [0, 1], written into the three
 * planes (`plane` apart, rows `stride` long) of `out` at (padX, padY). */
function boxMeansInto(img: RasterImage, w: number, h: number, k: number, out: Float32Array, stride: number, plane: number, padX: number, padY: number): void {
  const { width: W, channels: C, data } = img;
  const rs = W * C;
  const inv = 1 / (k * k * 255);
  for (let y = 0; y < h; y++) boxRow(data, y * k * rs, rs, C, k, w, out, (y + padY) * stride + padX, plane, inv);
}

/** Output row of boxMeansInto: the w blocks of k x k pixels from raster offset `top`. */
function boxRow(data: ArrayLike<number>, top: number, rs: number, C: number, k: number, w: number, out: Float32Array, d: number, plane: number, inv: number): void {
  if (k === 2) {
    // the usual case (1024 px to 512), unrolled
    for (let x = 0, s = top, t = s + rs, c2 = 2 * C; x < w; x++, s += c2, t += c2, d++) {
      out[d] = (data[s]! + data[s + C]! + data[t]! + data[t + C]!) * inv;
      out[plane + d] = (data[s + 1]! + data[s + C + 1]! + data[t + 1]! + data[t + C + 1]!) * inv;
      out[2 * plane + d] = (data[s + 2]! + data[s + C + 2]! + data[t + 2]! + data[t + C + 2]!) * inv;
    }
    return;
  }
  for (let x = 0; x < w; x++, d++) {
    let r = 0, g = 0, b = 0;
    for (let j = 0, row = top + x * k * C; j < k; j++, row += rs) {
      for (let i = 0, s = row; i < k; i++, s += C) {
        r += data[s]!; g += data[s + 1]!; b += data[s + 2]!;
      }
    }
    out[d] = r * inv;
    out[plane + d] = g * inv;
    out[2 * plane + d] = b * inv;
  }
}

// ---------------------------------------------------------------- crops

/**
 * Width and height of a tile's own box, estimated from the axis-aligned box (bw x bh) of the tile
 * turned by `deg` degrees (|deg| < 45): the w x h box turned by the angle has the axis-aligned box
 * w cos + h sin by w sin + h cos. Each side is kept to 0.45-1 of the detected box's, then enlarged
 * by `enlarge` up to the detected box's.
 */
export function turnedTileSize(bw: number, bh: number, deg: number, enlarge = CONFIG.crop.turnedEnlarge): [number, number] {
  const t = (Math.abs(deg) * Math.PI) / 180;
  const c = Math.cos(t), s = Math.sin(t), c2 = Math.cos(2 * t);
  const fit = (v: number, side: number) => Math.min(side, (v > 0.45 * side ? Math.min(v, side) : 0.45 * side) * enlarge);
  return [fit((bw * c - bh * s) / c2, bw), fit((bh * c - bw * s) / c2, bh)];
}

/** Whether a box reaches within `edgePx` of an edge of a w x h image. */
export function touchesEdge([x, y, bw, bh]: Box, w: number, h: number, edgePx: number): boolean {
  return x <= edgePx || y <= edgePx || x + bw >= w - edgePx || y + bh >= h - edgePx;
}

/**
 * The whole tile's box for each box that the image's edge cuts, else null (boxes, `w`, `h` and
 * `edgePx` in one frame: the pipeline uses the photo's pixels). A box
 * reaching within `edgePx` of an edge of the w x h image, and shorter along that axis than the
 * median tile of the boxes that reach no edge (long and short side, sideways boxes lying), is
 * extended beyond that edge to the median size. Cutting the completed box (cropTiles samples the
 * edge's own pixels beyond it) keeps the visible part of the tile its own shape and place in the
 * crop, instead of stretching it over the whole crop. Needs at least one box off the edges.
 */
export function completeCutBoxes(boxes: readonly Box[], sideways: readonly boolean[], w: number, h: number, edgePx: number): (Box | null)[] {
  const atEdge = (b: Box) => touchesEdge(b, w, h, edgePx);
  const whole = boxes.filter((b) => !atEdge(b));
  if (!whole.length) return boxes.map(() => null);
  const median = (v: number[]) => { const s = [...v].sort((a, b) => a - b); return s[s.length >> 1]!; };
  const long = median(whole.map((b) => Math.max(b[2], b[3]))), short = median(whole.map((b) => Math.min(b[2], b[3])));
  return boxes.map((b, i) => {
    if (!atEdge(b)) return null;
    let [x, y, bw, bh] = b;
    const tw = sideways[i] ? long : short, th = sideways[i] ? short : long;
    let changed = false;
    if (bw < tw * (1 - CONFIG.crop.cutShortBy)) {
      if (x <= edgePx) { x += bw - tw; bw = tw; changed = true; } else if (x + bw >= w - edgePx) { bw = tw; changed = true; }
    }
    if (bh < th * (1 - CONFIG.crop.cutShortBy)) {
      if (y <= edgePx) { y += bh - th; bh = th; changed = true; } else if (y + bh >= h - edgePx) { bh = th; changed = true; }
    }
    return changed ? [x, y, bw, bh] : null;
  });
}

/**
 * Crop boxes (raster pixels) into an (N, 3, outH, outW) tensor, each box stretched to fill the
 * crop; sideways boxes are turned 90 degrees so the tile stands up (the classifier is trained to
 * accept either 90 or 270, and 180-degree turned tiles). Supersampled bilinear, so shrinking does
 * not alias. With `degrees` (tileAngles), each tile is also turned back by its angle: its own box
 * (turnedTileSize) is sampled along its own axes, so that a tile photographed turned stands
 * straight in its crop; at 0 (or without `degrees`) the box is cut as it is.
 */
export function cropTiles(img: RasterImage, boxes: readonly Box[], sideways: readonly boolean[], outW = CONFIG.crop.width, outH = CONFIG.crop.height, margin = CONFIG.crop.margin, degrees?: readonly number[]): Float32Array {
  const out = new Float32Array(boxes.length * 3 * outW * outH);
  const plane = outW * outH;
  boxes.forEach(([bx, by, bw, bh], n) => {
    const deg = degrees?.[n] ?? 0;
    const t = (deg * Math.PI) / 180;
    const [w, h] = deg ? turnedTileSize(bw, bh, deg) : [bw, bh];
    const hw = (w / 2) * margin, hh = (h / 2) * margin;
    const side = sideways[n]!;
    // source pixels per output pixel along each output axis: 1-3 samples each way, so that shrinking does not alias
    const ku = Math.max(1, Math.min(3, Math.round(side ? (2 * hh) / outW : (2 * hw) / outW)));
    const kv = Math.max(1, Math.min(3, Math.round(side ? (2 * hw) / outH : (2 * hh) / outH)));
    const g: CropGeometry = { cx: bx + bw / 2, cy: by + bh / 2, hw, hh, cos: Math.cos(t), sin: Math.sin(t), side, ku, kv };
    for (let v = 0; v < outH; v++) cropRow(img, v, outW, outH, g, out, n * 3 * plane + v * outW, plane, 1 / (ku * kv * 255));
  });
  return out;
}

interface CropGeometry { cx: number; cy: number; hw: number; hh: number; cos: number; sin: number; side: boolean; ku: number; kv: number }

/** Output row v of one crop of cropTiles, written from `d`. */
function cropRow(img: RasterImage, v: number, outW: number, outH: number, g: CropGeometry, out: Float32Array, d: number, plane: number, norm: number): void {
  const { width: W, height: H, channels: C, data } = img;
  const { cx, cy, hw, hh, cos, sin, side, ku, kv } = g;
  const rowStride = W * C;
  for (let u = 0; u < outW; u++, d++) {
    let r = 0, gr = 0, b = 0;
    for (let j = 0; j < kv; j++) {
      const uy = ((v + (j + 0.5) / kv) / outH) * 2 - 1;
      for (let i = 0; i < ku; i++) {
        const ux = ((u + (i + 0.5) / ku) / outW) * 2 - 1;
        // offset along the tile's own axes (a sideways tile turned 90 degrees so that it stands), then turned by its angle
        const ox = side ? uy * hw : ux * hw;
        const oy = side ? -ux * hh : uy * hh;
        const fx = cx + ox * cos - oy * sin - 0.5;
        const fy = cy + ox * sin + oy * cos - 0.5;
        let x0 = Math.floor(fx), y0 = Math.floor(fy);
        const ax = fx - x0, ay = fy - y0;
        let x1 = x0 + 1, y1 = y0 + 1;
        if (x0 < 0) x0 = 0; else if (x0 > W - 1) x0 = W - 1;
        if (x1 < 0) x1 = 0; else if (x1 > W - 1) x1 = W - 1;
        if (y0 < 0) y0 = 0; else if (y0 > H - 1) y0 = H - 1;
        if (y1 < 0) y1 = 0; else if (y1 > H - 1) y1 = H - 1;
        const i00 = y0 * rowStride + x0 * C, i01 = y0 * rowStride + x1 * C;
        const i10 = y1 * rowStride + x0 * C, i11 = y1 * rowStride + x1 * C;
        const w00 = (1 - ax) * (1 - ay), w01 = ax * (1 - ay), w10 = (1 - ax) * ay, w11 = ax * ay;
        r += data[i00]! * w00 + data[i01]! * w01 + data[i10]! * w10 + data[i11]! * w11;
        gr += data[i00 + 1]! * w00 + data[i01 + 1]! * w01 + data[i10 + 1]! * w10 + data[i11 + 1]! * w11;
        b += data[i00 + 2]! * w00 + data[i01 + 2]! * w01 + data[i10 + 2]! * w10 + data[i11 + 2]! * w11;
      }
    }
    out[d] = r * norm;
    out[plane + d] = gr * norm;
    out[2 * plane + d] = b * norm;
  }
}

/** Whole image as one tile (for --as-tile): a landscape picture is stood up. */
export function cropWholeImage(img: RasterImage, outW = CONFIG.crop.width, outH = CONFIG.crop.height): Float32Array {
  const side = img.width > img.height;
  return cropTiles(img, [[0, 0, img.width, img.height]], [side], outW, outH, 1.0);
}

/** The part [x, y, w, h] (integer raster pixels, inside the image) of a raster, copied. */
export function cropRaster(img: RasterImage, region: readonly [number, number, number, number]): RasterImage {
  const [x, y, w, h] = region;
  const C = img.channels;
  const out = new Uint8Array(w * h * C);
  for (let r = 0; r < h; r++) {
    const s = ((y + r) * img.width + x) * C;
    out.set(img.data.subarray(s, s + w * C), r * w * C);
  }
  return { width: w, height: h, channels: C, data: out };
}

/** Whole pixels of a region, inside a w x h photo and at least 1 px each way. */
export function clampRegion(region: Box, w: number, h: number): [number, number, number, number] {
  const x0 = Math.min(w - 1, Math.max(0, Math.floor(region[0]))), y0 = Math.min(h - 1, Math.max(0, Math.floor(region[1])));
  const x1 = Math.max(x0 + 1, Math.min(w, Math.ceil(region[0] + region[2]))), y1 = Math.max(y0 + 1, Math.min(h, Math.ceil(region[1] + region[3])));
  return [x0, y0, x1 - x0, y1 - y0];
}
