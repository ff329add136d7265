/**
 * Where to look: groups of boxes, close-ups (the photo searched shrunk), the zoom pass's region,
 * the windows of the look for tiles apart, the finder's finds merged into the detector's, and the
 * boxes of a picture of one tile. Pure functions of boxes in raster px.
 */
import { CONFIG } from './config.ts';
import { boxGap, centre, iou, medianLongSide, overlapArea } from './postprocess.ts';
import type { Box, Detection } from './types.ts';

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
 * Given the confident boxes found on the photo shrunk to closeUp.fit (`outer`) and at the normal
 * scale (`normal`), the fit to detect a close-up at (closeUp.fit or closeUp.fitFar), or null
 * when the normal pass is to be kept:
 * - the shrunk photo's tiles must be large (median at least closeUp.take of the long side);
 * - the normal pass must have failed on them: it found none, or not most of the large tiles again
 *   (IoU >= 0.5) at their size (median at least closeUp.same of theirs; finding them whole means
 *   the detector copes at that size, and sees them sharper; at larger sizes its boxes fall short),
 *   and it found no more tiles outside them than the shrunk view found in all (more would be a
 *   hand elsewhere, and the large boxes something else).
 * When neither pass found a tile, the tiles may be too large even for closeUp.fit:
 * closeUp.fitFar is worth a look (farViewTaken decides what it found).
 */
export function closeUpFit(outer: readonly Box[], normal: readonly Box[], width: number, height: number): number | null {
  if (!outer.length) return normal.length ? null : CONFIG.closeUp.fitFar;
  const m = medianTileSide(outer, width, height);
  if (m < CONFIG.closeUp.take) return null;
  if (normal.length) {
    const refound = outer.filter((o) => normal.some((n) => iou(o, n) >= 0.5)).length;
    if (refound > outer.length / 2 && medianTileSide(normal, width, height) >= CONFIG.closeUp.same * m) return null;
    const elsewhere = normal.filter((n) => !outer.some((o) => centreIn(n, o))).length;
    if (elsewhere > outer.length) return null;
  }
  return m >= CONFIG.closeUp.far ? CONFIG.closeUp.fitFar : CONFIG.closeUp.fit;
}

/** Whether the photo may be a close-up, given the normal pass's sure boxes: whether the zoom-out
 * pass is worth running (its run costs as much as the normal pass). */
export function closeUpPossible(normal: readonly Box[], width: number, height: number): boolean {
  return normal.length < CONFIG.closeUp.skipCount || medianTileSide(normal, width, height) >= CONFIG.closeUp.skipBelow;
}

/**
 * After closeUpFit chose closeUp.fitFar, whether the far view's confident boxes are taken.
 * For huge tiles in the half-size view (`outerFound`): whenever it found any (else the half-size
 * view stays). When neither earlier pass found anything: only if its tiles are that huge (median
 * at least closeUp.far), so that the pattern of a photo without tiles stays nothing.
 */
export function farViewTaken(outerFound: boolean, far: readonly Box[], width: number, height: number): boolean {
  return outerFound ? far.length > 0 : medianTileSide(far, width, height) >= CONFIG.closeUp.far;
}

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
  // never zoom in more than zoom.maxGain: grow the region around its centre
  const minSide = long / CONFIG.zoom.maxGain;
  if (Math.max(x1 - x0, y1 - y0) < minSide) {
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    const grow = (a: number, b: number, c: number) => (b - a >= minSide ? [a, b] : [c - minSide / 2, c + minSide / 2]);
    [x0, x1] = grow(x0, x1, cx);
    [y0, y1] = grow(y0, y1, cy);
  }
  const rx0 = Math.max(0, Math.floor(x0)), ry0 = Math.max(0, Math.floor(y0));
  const rx1 = Math.min(width, Math.ceil(x1)), ry1 = Math.min(height, Math.ceil(y1));
  const rw = rx1 - rx0, rh = ry1 - ry0;
  if (rw <= 0 || rh <= 0 || long / Math.max(rw, rh) < CONFIG.zoom.minGain) return null;
  return [rx0, ry0, rw, rh];
}

/**
 * Merge a second detector's finds (the finder) into the primary detector's. The primary's
 * confident detections stand as they are (their boxes are what the classifier and the flower
 * readers were tuned on). A confident find (score >= `threshold`) that no primary detection
 * overlaps (IoU >= finder.sameIou, or the find's centre inside it) is added; one that overlaps
 * only weak primary detections (below `threshold`) replaces the most overlapping of them. The
 * finder's weak finds are ignored. Returns a new list (primary order, then the added finds); the
 * finds taken are flagged `finder`.
 */
export function mergeFinds<T extends { box: Box; score: number; finder?: boolean }>(primary: readonly T[], finds: readonly T[], threshold: number, sameIou = CONFIG.finder.sameIou): T[] {
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

/**
 * Where the look for tiles apart reads: a window outer.window tile lengths square round each hint
 * (a weak peak of the normal pass) that no sure tile covers (IoU >= finder.sameIou or its centre
 * inside one), inside the `width` x `height` raster; overlapping windows merged into the box round
 * them, so that no part is read twice. Null when the windows together cover more than `maxShare` of the
 * raster: the whole raster is then read (one run costs less than many that cover most of it).
 */
export function outerWindows(hints: readonly Box[], sure: readonly Box[], tile: number, width: number, height: number, side = CONFIG.outer.window, maxShare = CONFIG.outer.windowMax): Box[] | null {
  const half = (side * tile) / 2;
  let wins: Box[] = [];
  for (const h of hints) {
    if (sure.some((s) => iou(s, h) >= CONFIG.finder.sameIou || centreIn(h, s))) continue;
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
 * Where the one tile of a picture of one tile may be: the sure detections (raster px) whose centres
 * lie in the picture's middle (oneTile.inset), that are not too small (oneTile.min) and that are
 * not a part of a larger box (oneTile.partInside, oneTile.partArea), surest first; none when
 * one of them covers oneTile.fills of the picture or more (the picture is cut to the tile, and is
 * read whole).
 */
export function oneTileBoxes(dets: readonly Detection[], width: number, height: number): Detection[] {
  const long = Math.max(width, height);
  const middle = dets.filter((d) => {
    const x = d.box[0] + d.box[2] / 2, y = d.box[1] + d.box[3] / 2;
    return x >= width * CONFIG.oneTile.inset && x <= width * (1 - CONFIG.oneTile.inset) && y >= height * CONFIG.oneTile.inset && y <= height * (1 - CONFIG.oneTile.inset)
      && Math.max(d.box[2], d.box[3]) >= CONFIG.oneTile.min * long;
  });
  if (middle.some((d) => d.box[2] * d.box[3] >= CONFIG.oneTile.fills * width * height)) return [];
  const area = (d: Detection) => d.box[2] * d.box[3];
  const part = (d: Detection) => middle.some((o) => area(o) >= CONFIG.oneTile.partArea * area(d) && overlapArea(d.box, o.box) >= CONFIG.oneTile.partInside * area(d));
  return middle.filter((d) => !part(d)).sort((a, b) => b.score - a.score);
}
