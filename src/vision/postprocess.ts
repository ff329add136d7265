/**
 * Pure postprocessing: decode the detector's heatmap into boxes, NMS, and map
 * boxes back through the letterbox and the decode downscale to original
 * photo pixels. Also softmax/top-k for the classifier.
 */
import type { LetterboxTransform } from './preprocess.ts';
import { needsCheck, type Box, type Detection } from './types.ts';

export const DET_STRIDE = 4;

/**
 * Most detections one pass keeps (after NMS, surest first). A whole set laid out for a photo is
 * 144 tiles; the cap only bounds the work on a photo of some pattern that peaks everywhere.
 */
export const MAX_DETECTIONS = 256;

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
      const cx = (x + box[i]) * DET_STRIDE;
      const cy = (y + box[plane + i]) * DET_STRIDE;
      const w = Math.exp(box[2 * plane + i]) * DET_STRIDE;
      const h = Math.exp(box[3 * plane + i]) * DET_STRIDE;
      dets.push({ box: [cx - w / 2, cy - h / 2, w, h], score: s, sideways: heatmap[plane + i] > heatmap[i] });
    }
  }
  return nms(dets, opts.iou ?? 0.45, opts.maxDetections ?? MAX_DETECTIONS);
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

/**
 * Close-ups. The detector was trained on tiles up to about a sixth of the photo's long side; a
 * photo of a few tiles from close by shows them up to half of it, and the detector then misses
 * them or finds parts of them. Every photo is therefore also searched shrunk to ZOOM_OUT_FIT of the
 * detector's input (centred, grey round it). When the median tile found there is at least
 * ZOOM_OUT_TAKE of the photo's long side and the normal pass failed on those tiles (closeUpFit),
 * the photo is a close-up and those detections are taken instead; from ZOOM_OUT_FAR on, the photo
 * is searched again shrunk to ZOOM_OUT_FIT_FAR. Chosen on
 * close-tune (generator --close-ups, training styles), none of them changing a scene of
 * val-holdout or grid-holdout; see model/PIPELINE.md.
 */
export const ZOOM_OUT_FIT = 0.5;
export const ZOOM_OUT_TAKE = 0.22;
export const ZOOM_OUT_SAME = 0.95;
export const ZOOM_OUT_FAR = 0.35;
export const ZOOM_OUT_FIT_FAR = 0.35;

/** A box's centre. */
export const centre = (b: Box): readonly [number, number] => [b[0] + b[2] / 2, b[1] + b[3] / 2];

/** The (upper) median of the boxes' long sides, in their pixels (0 for no boxes). */
export function medianLongSide(boxes: readonly Box[]): number {
  if (!boxes.length) return 0;
  const s = boxes.map(([, , w, h]) => Math.max(w, h)).sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/**
 * The largest group of boxes linked centre to centre within `link` times their median long side
 * (single linkage), as indices in the order given; among groups of one size, the first box's. Empty
 * for no boxes.
 */
export function largestGroup(boxes: readonly Box[], link: number): number[] {
  const n = boxes.length;
  if (!n) return [];
  const reach = link * medianLongSide(boxes);
  const c = boxes.map(centre);
  const group = new Array<number>(n).fill(-1);
  let best: number[] = [];
  for (let s = 0; s < n; s++) {
    if (group[s] !== -1) continue;
    const members = [s];
    group[s] = s;
    for (let k = 0; k < members.length; k++) {
      const [ax, ay] = c[members[k]!]!;
      for (let j = 0; j < n; j++) {
        if (group[j] !== -1) continue;
        const [bx, by] = c[j]!;
        if (Math.hypot(ax - bx, ay - by) <= reach) { group[j] = s; members.push(j); }
      }
    }
    if (members.length > best.length) best = members;
  }
  return best.sort((a, b) => a - b);
}

/** Median of the boxes' long sides over the photo's long side (0 for no boxes). */
export function medianTileSide(boxes: readonly Box[], width: number, height: number): number {
  return medianLongSide(boxes) / Math.max(width, height);
}

const centreIn = ([x, y, w, h]: Box, o: Box) => x + w / 2 >= o[0] && x + w / 2 <= o[0] + o[2] && y + h / 2 >= o[1] && y + h / 2 <= o[1] + o[3];

/**
 * Given the confident boxes found on the photo shrunk to ZOOM_OUT_FIT (`outer`) and at the normal
 * scale (`normal`), the fit to detect a close-up at (ZOOM_OUT_FIT or ZOOM_OUT_FIT_FAR), or null
 * when the normal pass is to be kept:
 * - the shrunk photo's tiles must be large (median at least ZOOM_OUT_TAKE of the long side);
 * - the normal pass must have failed on them: it found none, or not most of the large tiles again
 *   (IoU >= 0.5) at their size (median at least ZOOM_OUT_SAME of theirs; finding them whole means
 *   the detector copes at that size, and sees them sharper; at larger sizes its boxes fall short),
 *   and it found no more tiles outside them than the shrunk view found in all (more would be a
 *   hand elsewhere, and the large boxes something else).
 * When neither pass found a tile, the tiles may be too large even for ZOOM_OUT_FIT:
 * ZOOM_OUT_FIT_FAR is worth a look (farViewTaken decides what it found).
 */
export function closeUpFit(outer: readonly Box[], normal: readonly Box[], width: number, height: number): number | null {
  if (!outer.length) return normal.length ? null : ZOOM_OUT_FIT_FAR;
  const m = medianTileSide(outer, width, height);
  if (m < ZOOM_OUT_TAKE) return null;
  if (normal.length) {
    const refound = outer.filter((o) => normal.some((n) => iou(o, n) >= 0.5)).length;
    if (refound > outer.length / 2 && medianTileSide(normal, width, height) >= ZOOM_OUT_SAME * m) return null;
    const elsewhere = normal.filter((n) => !outer.some((o) => centreIn(n, o))).length;
    if (elsewhere > outer.length) return null;
  }
  return m >= ZOOM_OUT_FAR ? ZOOM_OUT_FIT_FAR : ZOOM_OUT_FIT;
}

/** The zoom-out pass is skipped when the normal pass found at least ZOOM_OUT_SKIP_COUNT sure tiles
 * whose median long side is under ZOOM_OUT_SKIP_BELOW of the photo's long side: a hand of small
 * tiles, not a close-up. Where closeUpFit took the shrunk view on close-tune and close-holdout, the
 * normal pass had found fewer tiles, or tiles of 0.133 of the long side or more (model/HISTORY.md, stop 36). */
export const ZOOM_OUT_SKIP_COUNT = 4;
export const ZOOM_OUT_SKIP_BELOW = 0.11;

/** Whether the photo may be a close-up, given the normal pass's sure boxes: whether the zoom-out
 * pass is worth running (its run costs as much as the normal pass). */
export function closeUpPossible(normal: readonly Box[], width: number, height: number): boolean {
  return normal.length < ZOOM_OUT_SKIP_COUNT || medianTileSide(normal, width, height) >= ZOOM_OUT_SKIP_BELOW;
}

/**
 * After closeUpFit chose ZOOM_OUT_FIT_FAR, whether the far view's confident boxes are taken.
 * For huge tiles in the half-size view (`outerFound`): whenever it found any (else the half-size
 * view stays). When neither earlier pass found anything: only if its tiles are that huge (median
 * at least ZOOM_OUT_FAR), so that the pattern of a photo without tiles stays nothing.
 */
export function farViewTaken(outerFound: boolean, far: readonly Box[], width: number, height: number): boolean {
  return outerFound ? far.length > 0 : medianTileSide(far, width, height) >= ZOOM_OUT_FAR;
}

/** Smallest zoom worth a second detector pass, and the largest one used. */
export const ZOOM_MIN_GAIN = 1.3;
export const ZOOM_MAX_GAIN = 3;

/**
 * When the tiles found fill only part of the photo (a hand shot from further
 * away), the region [x, y, w, h] (integer raster pixels) that holds them with a
 * margin of one tile, for a second detector pass that sees the tiles larger.
 * Null when fewer than two tiles were found or the zoom would gain little.
 */
export function zoomRegion(boxes: readonly Box[], width: number, height: number): [number, number, number, number] | null {
  if (boxes.length < 2) return null;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y, w, h] of boxes) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y);
    x1 = Math.max(x1, x + w); y1 = Math.max(y1, y + h);
  }
  const m = medianLongSide(boxes);
  x0 -= m; y0 -= m; x1 += m; y1 += m;
  const long = Math.max(width, height);
  // never zoom in more than ZOOM_MAX_GAIN: grow the region around its centre
  const minSide = long / ZOOM_MAX_GAIN;
  if (Math.max(x1 - x0, y1 - y0) < minSide) {
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    const grow = (a: number, b: number, c: number) => (b - a >= minSide ? [a, b] : [c - minSide / 2, c + minSide / 2]);
    [x0, x1] = grow(x0, x1, cx);
    [y0, y1] = grow(y0, y1, cy);
  }
  const rx0 = Math.max(0, Math.floor(x0)), ry0 = Math.max(0, Math.floor(y0));
  const rx1 = Math.min(width, Math.ceil(x1)), ry1 = Math.min(height, Math.ceil(y1));
  const rw = rx1 - rx0, rh = ry1 - ry0;
  if (rw <= 0 || rh <= 0 || long / Math.max(rw, rh) < ZOOM_MIN_GAIN) return null;
  return [rx0, ry0, rw, rh];
}

/**
 * A doubtful detection (pipeline.ts, PipelineOptions.straddling) that two surer detections' boxes
 * together cover this much of (straddles) is taken for a second look at tiles already found: a
 * box across two neighbours. At 0.85, val-holdout gained scene 039 (a false find across a 3p and a
 * 4p, 0.92 covered by the two) and embed-holdout one hand; val-holdout-xl, -3k, grid-, biggrid-,
 * far-, apart- and close-holdout read as before (model/HISTORY.md, stop 63).
 */
export const COVERED_DUPLICATE = 0.85;
/** ...each of the two covering at least this much of it. */
export const STRADDLE_EACH = 0.35;
/**
 * Whether box `b` lies across two boxes of `surer` tiles: two of them, each covering STRADDLE_EACH
 * of it, together cover COVERED_DUPLICATE. Two, each holding a good part: in a grid or a row shot
 * at an angle, the axis-aligned boxes of a tile's neighbours cover it too, but each a little
 * (grid-holdout 004: a true face-down tile covered whole by six boxes, at most 0.38 by each;
 * far-holdout 097: 0.87 by three, 0.53 by one), and a true tile whose box the detector shifted
 * onto a neighbour is mostly under that one (biggrid-holdout 019: a 5s 0.61 under one box, 0.31
 * under the next).
 */
export function straddles(b: Box, surer: readonly Box[]): boolean {
  const near = surer.filter((o) => coveredShare(b, [o]) >= STRADDLE_EACH);
  for (let i = 0; i < near.length; i++) {
    for (let j = i + 1; j < near.length; j++) if (coveredShare(b, [near[i]!, near[j]!]) >= COVERED_DUPLICATE) return true;
  }
  return false;
}
/** Samples per side of the grid coveredShare measures a box's cover on. */
const COVER_GRID = 12;

/**
 * The share of box `b` that the union of the boxes `others` covers, measured on a COVER_GRID x
 * COVER_GRID grid of points in `b` (exact enough for a threshold, and order-free).
 */
export function coveredShare(b: Box, others: readonly Box[]): number {
  const [x, y, w, h] = b;
  if (!(w > 0 && h > 0)) return 0;
  let n = 0;
  for (let r = 0; r < COVER_GRID; r++) {
    const py = y + ((r + 0.5) * h) / COVER_GRID;
    for (let c = 0; c < COVER_GRID; c++) {
      const px = x + ((c + 0.5) * w) / COVER_GRID;
      if (others.some((o) => px >= o[0] && px <= o[0] + o[2] && py >= o[1] && py <= o[1] + o[3])) n++;
    }
  }
  return n / (COVER_GRID * COVER_GRID);
}

/** A tile this many median tile sizes from its nearest neighbour is isolated. */
export const ISOLATED_FAR = 3;
/** An isolated tile scoring below this is dropped as background (a checked cloth, a polka dot).
 * Above pipeline.ts DET_THRESHOLD, or the rule never applies. */
export const ISOLATED_BELOW = 0.55;

/**
 * Which detections to drop as background: far from every other detection (centre
 * distance over ISOLATED_FAR x the median tile size, sqrt(w*h)) and unsure (score
 * below ISOLATED_BELOW). The tiles of a hand lie in rows and groups, so a lone,
 * doubtful "tile" is almost always a pattern on the table. On val-holdout this
 * removed 17 false detections and no true tile.
 */
export function isolatedUnsure(boxes: readonly Box[], scores: readonly number[], far = ISOLATED_FAR, below = ISOLATED_BELOW): boolean[] {
  const n = boxes.length;
  if (n < 2) return new Array<boolean>(n).fill(false);
  const sizes = boxes.map((b) => Math.sqrt(Math.max(0, b[2] * b[3]))).sort((a, b) => a - b);
  const med = sizes[Math.floor(n / 2)]!;
  const cx = boxes.map((b) => b[0] + b[2] / 2), cy = boxes.map((b) => b[1] + b[3] / 2);
  return boxes.map((_, i) => {
    if (scores[i]! >= below) return false;
    let nn = Infinity;
    for (let j = 0; j < n; j++) if (j !== i) nn = Math.min(nn, Math.hypot(cx[j]! - cx[i]!, cy[j]! - cy[i]!));
    return nn > far * med;
  });
}

/** A detection is confident, and anchors the hand, when both scores reach this. */
export const STRAY_CONFIDENT = 0.7;
/** A tile whose long side differs from the hand's median by more than this factor is out of scale. */
export const STRAY_SCALE = 1.5;
/** An out-of-scale detection is a stray when its detector score is below this. */
export const STRAY_SCALE_BELOW = 0.8;
/** A detection with a gap of more than this many tile lengths to every confident tile is apart. */
export const STRAY_GAP = 1.5;
/** A detection apart from the hand is a stray when its detector score is below this. */
export const STRAY_GAP_BELOW = 0.7;

/**
 * Which boxes lie sideways, among tiles mostly standing (the box wider than tall; the detector's
 * sideways channel misses some such tiles and calls some standing flowers sideways), within half
 * a tile length (the median long side) of another box, as the claimed tile of a meld does. Flowers
 * are never claimed, so the hand check does not read such a tile as a flower
 * (HandCheckOptions.claimed; val-holdout 119's claimed 7p, read as 1p or 9p, had left its kong as
 * the autumn).
 */
export function claimedTiles(boxes: readonly Box[]): boolean[] {
  if (!boxes.length) return [];
  const reach = 0.5 * medianLongSide(boxes);
  const aspects = boxes.map((b) => b[2] / b[3]).sort((a, b) => a - b);
  const standing = aspects[aspects.length >> 1]! <= 0.85;
  return boxes.map((b, i) => standing && b[2] >= b[3] && boxes.some((o, j) => j !== i && boxGap(b, o) <= reach));
}

/** Edge-to-edge distance between two boxes (0 when they touch or overlap). */
export function boxGap(a: Box, b: Box): number {
  const dx = Math.max(0, Math.max(a[0], b[0]) - Math.min(a[0] + a[2], b[0] + b[2]));
  const dy = Math.max(0, Math.max(a[1], b[1]) - Math.min(a[1] + a[3], b[1] + b[3]));
  return Math.hypot(dx, dy);
}

/**
 * Which detections are strays, probably not part of the hand, judged against the confident
 * tiles (detector and classifier scores both >= STRAY_CONFIDENT; at least three are
 * needed, else nothing is dropped):
 *  - out of scale: the long side is more than STRAY_SCALE times longer or shorter
 *    than the confident tiles' median, and the detector score is below
 *    STRAY_SCALE_BELOW (the tiles of one hand are one size; big polka dots and the
 *    squares of a checked cloth are not);
 *  - apart: the gap to every other confident tile is more than STRAY_GAP median
 *    tile lengths, and the detector score is below STRAY_GAP_BELOW (melds set
 *    apart and flowers laid aside are read confidently; a pattern is not). Detections
 *    marked in `mayLieApart` (read as flowers: a hand is complete without its flowers,
 *    so a flower left out would never be missed by the hand check) are not judged by
 *    this rule.
 * The pipeline leaves strays out when the hand check finds a complete hand without
 * them (checkHandWithStrays). On val-holdout (phase-5 models) the rules marked 64 of
 * 131 false detections and 13 of 4548 true tiles; with that arbitration precision
 * rose 0.972 -> 0.982 and hand exact 0.557 -> 0.580.
 */
export function strayDetections(boxes: readonly Box[], detScores: readonly number[], clsScores: readonly number[], mayLieApart?: readonly boolean[]): boolean[] {
  const n = boxes.length;
  const stray = new Array<boolean>(n).fill(false);
  const conf = boxes.flatMap((_, i) => (detScores[i]! >= STRAY_CONFIDENT && clsScores[i]! >= STRAY_CONFIDENT ? [i] : []));
  if (conf.length < 3) return stray;
  const med = medianLongSide(conf.map((i) => boxes[i]!));
  if (!(med > 0)) return stray;
  for (let i = 0; i < n; i++) {
    const r = Math.max(boxes[i]![2], boxes[i]![3]) / med;
    if ((r > STRAY_SCALE || r < 1 / STRAY_SCALE) && detScores[i]! < STRAY_SCALE_BELOW) { stray[i] = true; continue; }
    if (detScores[i]! >= STRAY_GAP_BELOW || mayLieApart?.[i]) continue;
    let g = Infinity;
    for (const j of conf) if (j !== i) g = Math.min(g, boxGap(boxes[i]!, boxes[j]!));
    if (g > STRAY_GAP * med) stray[i] = true;
  }
  return stray;
}

/** A weak peak lies beside the hand when its centre is within this many median long sides of a sure tile's... */
export const BESIDE_NEAR = 1.6;
/** ...its long side is within this factor of the sure tiles' median... */
export const BESIDE_SCALE = 1.35;
/** ...and it overlaps no sure tile by more than this IoU. */
export const BESIDE_OVERLAP = 0.2;

/**
 * Which weak detector peaks (`weak`, below the detection threshold) lie beside the hand: next
 * to a sure tile (`sure`) and of the hand's size, without covering a sure tile. A face-down
 * tile of a dark colour on a dark cloth, or a blank white dragon on a pale body, scores low
 * although it stands in the row; such a peak is a candidate the hand check may take when the
 * hand lacks a tile (pipeline.ts), and otherwise a tile only when it is a face-down tile that
 * continues a row of them (rowOfBacks).
 */
export function besideHand(weak: readonly Box[], sure: readonly Box[], near = BESIDE_NEAR, scale = BESIDE_SCALE): boolean[] {
  if (!sure.length) return weak.map(() => false);
  const med = medianLongSide(sure);
  const sc = sure.map(centre);
  return weak.map((b) => {
    const long = Math.max(b[2], b[3]);
    if (long > med * scale || long * scale < med) return false;
    if (sure.some((o) => iou(b, o) > BESIDE_OVERLAP)) return false;
    const [x, y] = centre(b);
    return sc.some(([sx, sy]) => Math.hypot(sx - x, sy - y) <= near * med);
  });
}

/**
 * Which weak face-down tiles (`weak`) continue a row of face-down tiles (`backs`, kept): beside
 * one of them (besideHand), or beside a weak one taken so, for rows that run on past the sure
 * tiles. The wall and spare tiles lie in such rows; they take no part in the hand.
 */
export function rowOfBacks(weak: readonly Box[], backs: readonly Box[]): boolean[] {
  const row = [...backs];
  const took = weak.map(() => false);
  for (let grew = row.length > 0; grew;) {
    grew = false;
    weak.forEach((b, j) => {
      if (took[j] || !besideHand([b], row)[0]) return;
      took[j] = true;
      row.push(b);
      grew = true;
    });
  }
  return took;
}

/** Two face-down tiles whose centres are closer than this many long sides (the larger) lie side by side... */
export const BACKS_NEAR = 1.6;
/** ...when they are in one row: their boxes' heights overlap by at least this share of the shorter
 * box. A tile in the row above or below is near too, but the wall's face-down tiles lie in rows. */
export const BACKS_ROW_OVERLAP = 0.5;

/**
 * Which detections are lone face-down tiles: read as `back` (`isBack`), with no other one beside
 * them in their row (centres closer than BACKS_NEAR long sides, heights overlapping by
 * BACKS_ROW_OVERLAP). Face-down tiles that are not part of the hand (the wall) lie in rows; a lone
 * one beyond the concealed kongs is most often a square of a checked cloth. The hand check may
 * leave those out (HandCheckOptions.spareBackOk).
 */
export function loneBacks(boxes: readonly Box[], isBack: readonly boolean[], near = BACKS_NEAR): boolean[] {
  const c = boxes.map(centre);
  const long = boxes.map((b) => Math.max(b[2], b[3]));
  const inRow = (a: Box, b: Box) => Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]) >= BACKS_ROW_OVERLAP * Math.min(a[3], b[3]);
  return boxes.map((_, i) => isBack[i]! && !boxes.some((_, j) => j !== i && isBack[j]! &&
    Math.hypot(c[j]![0] - c[i]![0], c[j]![1] - c[i]![1]) < near * Math.max(long[i]!, long[j]!) && inRow(boxes[i]!, boxes[j]!)));
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

/** A retake is suggested when at least this many tiles are marked "please check"... */
export const RETAKE_MIN_UNSURE = 4;
/** ...and they are at least this share of the hand. On val-holdout this fired on 9 of the 300
 * photos, 8 of them read wrongly (blurred, dark, steep or unseen designs); no threshold fired
 * on fewer wrong hands per right one. */
export const RETAKE_SHARE = 0.3;

/**
 * Whether so many tiles of a scan are uncertain (score below CHECK_BELOW) that the photo is
 * better taken again: `{ unsure, of }` when at least RETAKE_MIN_UNSURE of them and RETAKE_SHARE
 * of all tiles are, else null. Tiles without a score (added or confirmed by the player) count as
 * sure, so the advice goes once the player has checked enough of them.
 */
export function retakeAdvice(scores: readonly (number | undefined)[]): { unsure: number; of: number } | null {
  const unsure = scores.filter(needsCheck).length;
  return unsure >= RETAKE_MIN_UNSURE && unsure >= RETAKE_SHARE * scores.length ? { unsure, of: scores.length } : null;
}

/** A finder's detection overlapping a primary one this much (IoU) is the same tile. */
export const FINDER_SAME_IOU = 0.3;

/**
 * Merge a second detector's finds (the finder) into the primary detector's. The primary's
 * confident detections stand as they are (their boxes are what the classifier and the flower
 * readers were tuned on). A confident find (score >= `threshold`) that no primary detection
 * overlaps (IoU >= FINDER_SAME_IOU, or the find's centre inside it) is added; one that overlaps
 * only weak primary detections (below `threshold`) replaces the most overlapping of them. The
 * finder's weak finds are ignored. Returns a new list (primary order, then the added finds); the
 * finds taken are flagged `finder`.
 */
export function mergeFinds<T extends { box: Box; score: number; finder?: boolean }>(primary: readonly T[], finds: readonly T[], threshold: number, sameIou = FINDER_SAME_IOU): T[] {
  const out = [...primary];
  for (const f of finds) {
    if (f.score < threshold) continue;
    const over = out.flatMap((p, i) => {
      const o = iou(p.box, f.box);
      return o >= sameIou || centreIn(f.box, p.box) ? [{ i, o }] : [];
    });
    if (!over.length) out.push({ ...f, finder: true });
    else if (over.every(({ i }) => out[i]!.score < threshold)) {
      const best = over.reduce((a, b) => (b.o > a.o ? b : a));
      out[best.i] = { ...f, finder: true };
    }
  }
  return out;
}

/** The finds that mergeFinds adds to `primary` or puts in place of a weaker candidate (new objects,
 * so not in `primary`): what a later look found that the candidates lack. */
export function addedFinds<T extends { box: Box; score: number; finder?: boolean }>(primary: readonly T[], finds: readonly T[], threshold: number): T[] {
  return mergeFinds(primary, finds, threshold).filter((d) => !primary.includes(d));
}

/** Peaks of at least this score in the normal pass (detector or finder) are hints of a tile that the
 * look for tiles apart (outerFinds) reads again at the raster's resolution. */
export const OUTER_HINT = 0.05;
/** Side of the window round each hint, in the sure tiles' median long sides. */
export const OUTER_WINDOW = 5;
/** When the windows cover more than this share of the raster, the whole raster is read instead. */
export const OUTER_WINDOW_MAX = 0.5;

/**
 * Where the look for tiles apart reads: a window OUTER_WINDOW tile lengths square round each hint
 * (a weak peak of the normal pass) that no sure tile covers (IoU >= FINDER_SAME_IOU or its centre
 * inside one), inside the `width` x `height` raster; overlapping windows merged into the box round
 * them, so that no part is read twice. Null when the windows together cover more than `maxShare` of the
 * raster: the whole raster is then read (one run costs less than many that cover most of it).
 */
export function outerWindows(hints: readonly Box[], sure: readonly Box[], tile: number, width: number, height: number, side = OUTER_WINDOW, maxShare = OUTER_WINDOW_MAX): Box[] | null {
  const half = (side * tile) / 2;
  let wins: Box[] = [];
  for (const h of hints) {
    if (sure.some((s) => iou(s, h) >= FINDER_SAME_IOU || centreIn(h, s))) continue;
    const [cx, cy] = centre(h);
    const x0 = Math.max(0, cx - half), y0 = Math.max(0, cy - half);
    const x1 = Math.min(width, cx + half), y1 = Math.min(height, cy + half);
    if (x1 > x0 && y1 > y0) wins.push([x0, y0, x1 - x0, y1 - y0]);
  }
  for (let merged = true; merged;) {
    merged = false;
    const out: Box[] = [];
    for (const w of wins) {
      const j = out.findIndex((o) => boxGap(o, w) === 0);
      if (j < 0) { out.push(w); continue; }
      const o = out[j]!;
      const x0 = Math.min(o[0], w[0]), y0 = Math.min(o[1], w[1]);
      out[j] = [x0, y0, Math.max(o[0] + o[2], w[0] + w[2]) - x0, Math.max(o[1] + o[3], w[1] + w[3]) - y0];
      merged = true;
    }
    wins = out;
  }
  const area = wins.reduce((a, w) => a + w[2] * w[3], 0);
  return area > maxShare * width * height ? null : wins;
}

/**
 * A picture of one tile (`scan --as-tile`) is either cut to the tile, and read whole, or a photo with
 * the table round the tile. A sure detection whose box covers less than this share of the picture
 * is the tile of such a photo, and is read from its box.
 */
export const ONE_TILE_FILLS = 0.35;
/** ...when its centre lies this far or more from the picture's edges (a share of the picture's side),
 * so that a neighbour's sliver at the edge of a picture cut to its tile is never taken for it... */
export const ONE_TILE_INSET = 0.15;
/** ...and its long side is at least this share of the picture's long side: smaller boxes are a pip
 * or the table's pattern, not the one tile a picture is taken of. */
export const ONE_TILE_MIN = 0.15;
/** A box lying this much (share of its own area) inside another box of the picture at least
 * ONE_TILE_PART_AREA times as large is a part of that tile (a dot of a 2p or 4p read as a 1p), not
 * a tile. */
export const ONE_TILE_PART_INSIDE = 0.8;
export const ONE_TILE_PART_AREA = 1.4;

/**
 * Where the one tile of a picture of one tile may be: the sure detections (raster px) whose centres
 * lie in the picture's middle (ONE_TILE_INSET), that are not too small (ONE_TILE_MIN) and that are
 * not a part of a larger box (ONE_TILE_PART_INSIDE, ONE_TILE_PART_AREA), surest first; none when
 * one of them covers ONE_TILE_FILLS of the picture or more (the picture is cut to the tile, and is
 * read whole).
 */
export function oneTileBoxes(dets: readonly Detection[], width: number, height: number): Detection[] {
  const long = Math.max(width, height);
  const middle = dets.filter((d) => {
    const x = d.box[0] + d.box[2] / 2, y = d.box[1] + d.box[3] / 2;
    return x >= width * ONE_TILE_INSET && x <= width * (1 - ONE_TILE_INSET) && y >= height * ONE_TILE_INSET && y <= height * (1 - ONE_TILE_INSET)
      && Math.max(d.box[2], d.box[3]) >= ONE_TILE_MIN * long;
  });
  if (middle.some((d) => d.box[2] * d.box[3] >= ONE_TILE_FILLS * width * height)) return [];
  const area = (d: Detection) => d.box[2] * d.box[3];
  const part = (d: Detection) => middle.some((o) => area(o) >= ONE_TILE_PART_AREA * area(d) && overlapArea(d.box, o.box) >= ONE_TILE_PART_INSIDE * area(d));
  return middle.filter((d) => !part(d)).sort((a, b) => b.score - a.score);
}
