/**
 * Pure postprocessing: decode the detector's heatmap into boxes, NMS, and map
 * boxes back through the letterbox and the decode downscale to original
 * photo pixels. Also softmax/top-k for the classifier.
 */
import { CONFIG } from './config.ts';
import type { LetterboxTransform } from './preprocess.ts';
import { needsCheck, type Box, type Detection } from './types.ts';

export interface DecodeOptions {
  /** Minimum peak score. */
  threshold?: number;
  /** IoU above which the lower-scored box is dropped. */
  iou?: number;
  maxDetections?: number;
}

/**
 * heatmap: (1, 2, gh, gw) sigmoid scores (channel 0 upright, 1 sideways);
 * box: (1, 4, gh, gw) = dx, dy, log(w/stride), log(h/stride).
 * Returns detections in tensor (letterboxed) pixels, sorted by score.
 */
export function decodeDetections(heatmap: Float32Array, box: Float32Array, gh: number, gw: number, opts: DecodeOptions = {}): Detection[] {
  const thr = opts.threshold ?? 0.3;
  const plane = gh * gw;
  const score = new Float32Array(plane);
  for (let i = 0; i < plane; i++) score[i] = Math.max(heatmap[i], heatmap[plane + i]);
  const dets: Detection[] = [];
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const i = y * gw + x;
      const s = score[i];
      if (s < thr) continue;
      let peak = true;
      for (let dy = -1; dy <= 1 && peak; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (!dx && !dy) continue;
          const yy = y + dy, xx = x + dx;
          if (yy < 0 || xx < 0 || yy >= gh || xx >= gw) continue;
          const o = score[yy * gw + xx];
          // strict on one side so equal plateaus keep exactly one peak
          if (o > s || (o === s && (dy < 0 || (dy === 0 && dx < 0)))) { peak = false; break; }
        }
      }
      if (!peak) continue;
      const cx = (x + box[i]) * CONFIG.detect.stride;
      const cy = (y + box[plane + i]) * CONFIG.detect.stride;
      const w = Math.exp(box[2 * plane + i]) * CONFIG.detect.stride;
      const h = Math.exp(box[3 * plane + i]) * CONFIG.detect.stride;
      dets.push({ box: [cx - w / 2, cy - h / 2, w, h], score: s, sideways: heatmap[plane + i] > heatmap[i] });
    }
  }
  return nms(dets, opts.iou ?? 0.45, opts.maxDetections ?? CONFIG.detect.maxDetections);
}

export function iou(a: Box, b: Box): number {
  const inter = overlapArea(a, b);
  const u = a[2] * a[3] + b[2] * b[3] - inter;
  return u > 0 ? inter / u : 0;
}

/** The area two boxes share (0 when they do not overlap). */
export function overlapArea(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
  return ix * iy;
}

/** Edge-to-edge distance between two boxes (0 when they touch or overlap). */
export function boxGap(a: Box, b: Box): number {
  const dx = Math.max(0, Math.max(a[0], b[0]) - Math.min(a[0] + a[2], b[0] + b[2]));
  const dy = Math.max(0, Math.max(a[1], b[1]) - Math.min(a[1] + a[3], b[1] + b[3]));
  return Math.hypot(dx, dy);
}

/** Greedy non-maximum suppression; returns kept detections by descending score. */
export function nms<T extends { box: Box; score: number }>(dets: T[], iouThr = 0.45, max = Infinity): T[] {
  const sorted = [...dets].sort((a, b) => b.score - a.score);
  const keep: T[] = [];
  for (const d of sorted) {
    if (keep.length >= max) break;
    if (keep.every((k) => iou(k.box, d.box) <= iouThr)) keep.push(d);
  }
  return keep;
}

/** Tensor pixels -> raster pixels (undo the letterbox), clipped to the raster. */
export function boxToRaster(b: Box, t: LetterboxTransform): Box {
  const x0 = Math.max(0, (b[0] - t.padX) / t.scale);
  const y0 = Math.max(0, (b[1] - t.padY) / t.scale);
  const x1 = Math.min(t.srcWidth, (b[0] + b[2] - t.padX) / t.scale);
  const y1 = Math.min(t.srcHeight, (b[1] + b[3] - t.padY) / t.scale);
  return [x0, y0, Math.max(0, x1 - x0), Math.max(0, y1 - y0)];
}

/** Raster pixels -> original photo pixels (the raster may be a downscaled decode). */
export function boxToOriginal(b: Box, rasterW: number, rasterH: number, origW: number, origH: number): Box {
  const sx = origW / rasterW, sy = origH / rasterH;
  return [b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy];
}

export function softmax(logits: Float32Array, offset: number, n: number): Float32Array {
  let m = -Infinity;
  for (let i = 0; i < n; i++) m = Math.max(m, logits[offset + i]);
  const out = new Float32Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) { out[i] = Math.exp(logits[offset + i] - m); s += out[i]; }
  for (let i = 0; i < n; i++) out[i] /= s;
  return out;
}

export function topK(p: Float32Array, k: number): { index: number; score: number }[] {
  return [...p].map((score, index) => ({ index, score })).sort((a, b) => b.score - a.score).slice(0, k);
}

/** A box's centre. */
export const centre = (b: Box): readonly [number, number] => [b[0] + b[2] / 2, b[1] + b[3] / 2];

/** The (upper) median of the boxes' long sides, in their pixels (0 for no boxes). */
export function medianLongSide(boxes: readonly Box[]): number {
  if (!boxes.length) return 0;
  const s = boxes.map(([, , w, h]) => Math.max(w, h)).sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** Total probability of the flower and season classes, labels f0 .. f0 + 7 (f1..f8). */
export function flowerMass(p: ArrayLike<number>, f0: number): number {
  let m = 0;
  for (let k = 0; k < 8; k++) m += p[f0 + k]!;
  return m;
}

/**
 * The flower reader's verdict `q` (probabilities of f1..f8) blended into the classifier's split
 * of its flower mass m: p[f0 + k] = m * normalised(split[k]^(1 - w) * q[k]^w), w = `weight` (1:
 * the reader alone). Whether the tile is a flower at all stays the classifier's call; the other
 * classes keep their probabilities.
 */
export function withFlowerReading(p: Float32Array, q: ArrayLike<number>, f0: number, weight = 1): void {
  const m = flowerMass(p, f0);
  let zq = 0;
  for (let k = 0; k < 8; k++) zq += q[k]!;
  if (!(zq > 0) || !(m > 0)) return;
  const g = new Float64Array(8);
  let z = 0;
  for (let k = 0; k < 8; k++) {
    g[k] = Math.pow(Math.max(p[f0 + k]! / m, 1e-6), 1 - weight) * Math.pow(q[k]! / zq, weight);
    z += g[k]!;
  }
  if (!(z > 0)) return;
  for (let k = 0; k < 8; k++) p[f0 + k] = (m * g[k]!) / z;
}

/**
 * Whether so many tiles of a scan are uncertain (score below CHECK_BELOW) that the photo is
 * better taken again: `{ unsure, of }` when at least review.retakeMinUnsure of them and review.retakeShare
 * of all tiles are, else null. Tiles without a score (added or confirmed by the player) count as
 * sure, so the advice goes once the player has checked enough of them.
 */
export function retakeAdvice(scores: readonly (number | undefined)[]): { unsure: number; of: number } | null {
  const unsure = scores.filter(needsCheck).length;
  return unsure >= CONFIG.review.retakeMinUnsure && unsure >= CONFIG.review.retakeShare * scores.length ? { unsure, of: scores.length } : null;
}

/** `v` rounded to `d` decimals (scores to 4, boxes to 1 in a ScanResult). */
export function round(v: number, d: number): number {
  const f = 10 ** d;
  return Math.round(v * f) / f;
}
