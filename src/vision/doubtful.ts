/**
 * Which detections are doubtful: lying across two surer ones, lone and unsure, strays out of scale
 * with the hand or apart from it; and where weak ones lie (beside the hand, in a row of face-down
 * tiles, claimed sideways in a meld). Pure functions of boxes in raster px and scores.
 */
import { CONFIG } from './config.ts';
import { boxGap, centre, iou, medianLongSide } from './postprocess.ts';
import type { Box } from './types.ts';

/**
 * Whether box `b` lies across two boxes of `surer` tiles: two of them, each covering verify.straddleEach
 * of it, together cover verify.coveredDuplicate. Two, each holding a good part: in a grid or a row shot
 * at an angle, the axis-aligned boxes of a tile's neighbours cover it too, but each a little
 * (grid-holdout 004: a true face-down tile covered whole by six boxes, at most 0.38 by each;
 * far-holdout 097: 0.87 by three, 0.53 by one), and a true tile whose box the detector shifted
 * onto a neighbour is mostly under that one (biggrid-holdout 019: a 5s 0.61 under one box, 0.31
 * under the next).
 */
export function straddles(b: Box, surer: readonly Box[]): boolean {
  const near = surer.filter((o) => coveredShare(b, [o]) >= CONFIG.verify.straddleEach);
  for (let i = 0; i < near.length; i++) {
    for (let j = i + 1; j < near.length; j++) if (coveredShare(b, [near[i]!, near[j]!]) >= CONFIG.verify.coveredDuplicate) return true;
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

/**
 * Which detections to drop as background: far from every other detection (centre
 * distance over verify.isolatedFar x the median tile size, sqrt(w*h)) and unsure (score
 * below verify.isolatedBelow). The tiles of a hand lie in rows and groups, so a lone,
 * doubtful "tile" is almost always a pattern on the table. On val-holdout this
 * removed 17 false detections and no true tile.
 */
export function isolatedUnsure(boxes: readonly Box[], scores: readonly number[], far = CONFIG.verify.isolatedFar, below = CONFIG.verify.isolatedBelow): boolean[] {
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


/**
 * Which detections are strays, probably not part of the hand, judged against the confident
 * tiles (detector and classifier scores both >= stray.confident; at least three are
 * needed, else nothing is dropped):
 *  - out of scale: the long side is more than stray.scale times longer or shorter
 *    than the confident tiles' median, and the detector score is below
 *    stray.scaleBelow (the tiles of one hand are one size; big polka dots and the
 *    squares of a checked cloth are not);
 *  - apart: the gap to every other confident tile is more than stray.gap median
 *    tile lengths, and the detector score is below stray.gapBelow (melds set
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
  const conf = boxes.flatMap((_, i) => (detScores[i]! >= CONFIG.stray.confident && clsScores[i]! >= CONFIG.stray.confident ? [i] : []));
  if (conf.length < 3) return stray;
  const med = medianLongSide(conf.map((i) => boxes[i]!));
  if (!(med > 0)) return stray;
  for (let i = 0; i < n; i++) {
    const r = Math.max(boxes[i]![2], boxes[i]![3]) / med;
    if ((r > CONFIG.stray.scale || r < 1 / CONFIG.stray.scale) && detScores[i]! < CONFIG.stray.scaleBelow) { stray[i] = true; continue; }
    if (detScores[i]! >= CONFIG.stray.gapBelow || mayLieApart?.[i]) continue;
    let g = Infinity;
    for (const j of conf) if (j !== i) g = Math.min(g, boxGap(boxes[i]!, boxes[j]!));
    if (g > CONFIG.stray.gap * med) stray[i] = true;
  }
  return stray;
}

/**
 * Which weak detector peaks (`weak`, below the detection threshold) lie beside the hand: next
 * to a sure tile (`sure`) and of the hand's size, without covering a sure tile. A face-down
 * tile of a dark colour on a dark cloth, or a blank white dragon on a pale body, scores low
 * although it stands in the row; such a peak is a candidate the hand check may take when the
 * hand lacks a tile (pipeline.ts), and otherwise a tile only when it is a face-down tile that
 * continues a row of them (rowOfBacks).
 */
export function besideHand(weak: readonly Box[], sure: readonly Box[], near = CONFIG.beside.near, scale = CONFIG.beside.scale): boolean[] {
  if (!sure.length) return weak.map(() => false);
  const med = medianLongSide(sure);
  const sc = sure.map(centre);
  return weak.map((b) => {
    const long = Math.max(b[2], b[3]);
    if (long > med * scale || long * scale < med) return false;
    if (sure.some((o) => iou(b, o) > CONFIG.beside.overlap)) return false;
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

/**
 * Which detections are lone face-down tiles: read as `back` (`isBack`), with no other one beside
 * them in their row (centres closer than backs.near long sides, heights overlapping by
 * backs.rowOverlap). Face-down tiles that are not part of the hand (the wall) lie in rows; a lone
 * one beyond the concealed kongs is most often a square of a checked cloth. The hand check may
 * leave those out (HandCheckOptions.spareBackOk).
 */
export function loneBacks(boxes: readonly Box[], isBack: readonly boolean[], near = CONFIG.backs.near): boolean[] {
  const c = boxes.map(centre);
  const long = boxes.map((b) => Math.max(b[2], b[3]));
  const inRow = (a: Box, b: Box) => Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]) >= CONFIG.backs.rowOverlap * Math.min(a[3], b[3]);
  return boxes.map((_, i) => isBack[i]! && !boxes.some((_, j) => j !== i && isBack[j]! &&
    Math.hypot(c[j]![0] - c[i]![0], c[j]![1] - c[i]![1]) < near * Math.max(long[i]!, long[j]!) && inRow(boxes[i]!, boxes[j]!)));
}
