/**
 * Photo -> tiles. Environment-neutral: takes decoded pixels (from sharp in
 * Node, createImageBitmap/OffscreenCanvas in the browser) and the loaded models.
 *
 * detector (letterboxed long side 512; again on the photo shrunk, for close-ups, or at 1024 when
 * the tiles are too few or small (fine search), then zoomed in on the tiles, from the
 * full-resolution photo when they are small in the raster; the finder, a second detector, adds
 * the lone tiles the detector scores too low) -> peaks + NMS -> boxes in raster px ->
 * crops from the raster (the classifier's input size, 48x64, sideways stood up) -> one batched classifier
 * call -> a second look at tiles read as flowers (72x96 crops, flower reader) -> hand check ->
 * layout (rows, reading order, groups) -> boxes in original photo px.
 */
import { atMostFour, birdPungs, checkHandWithStrays, distinctFlowers, orderMend, DROP_BELOW, UNREAD_BELOW, UNREAD_FIRST } from './handcheck.ts';
import { clampRegion, completeCutBoxes, cropRaster, orientRaster, touchesEdge, cropTiles, cropWholeImage, letterbox, CROP_H, CROP_MARGIN, CROP_W, FLOWER_H, FLOWER_W } from './preprocess.ts';
import { STRAY_SCALE, addedFinds, claimedTiles, straddles, boxGap, largestGroup, boxToOriginal, boxToRaster, decodeDetections, flowerMass, isolatedUnsure, loneBacks, medianLongSide, softmax, strayDetections, topK, withFlowerReading, zoomRegion, closeUpFit, mergeFinds, farViewTaken, besideHand, rowOfBacks, oneTileBoxes, ZOOM_OUT_FIT, ZOOM_OUT_FIT_FAR, OUTER_HINT, outerWindows, closeUpPossible } from './postprocess.ts';
import { layoutTiles, tileAngles, type LayoutInput } from './layout.ts';
import { floatTensor, type OrtSession } from './runtime.ts';
import { modelCropSize, type Models } from './session.ts';
import type { Box, DecodedPhoto, Detection, RasterImage, ScanResult, ScannedTile, TileCode } from './types.ts';

export const DET_SIZE = 512;
/** Minimum detector peak score (chosen for the shipped detector on val-holdout and grid-holdout:
 * see model/PIPELINE.md; postprocess.ts ISOLATED_BELOW must stay above it). */
export const DET_THRESHOLD = 0.5;
/** Weaker peaks down to this score are kept when the classifier is confident (>= RESCUE_PROB). */
export const RESCUE_THRESHOLD = 0.3;
export const RESCUE_PROB = 0.9;
/**
 * Edge candidates: weaker peaks down to this detector score whose box reaches the photo's edge
 * (a tile the photo cuts, which the detector sees less surely) are taken only when the hand is
 * incomplete without them and the hand check completes it with them, reading them as the
 * classifier does. On val-holdout: one more exact hand, nothing lost (see model/PIPELINE.md).
 */
export const EDGE_RESCUE_THRESHOLD = 0.15;
/** An edge candidate's score (classifier probability x detector score) must reach this. */
export const EDGE_RESCUE_SCORE = 0.2;
/**
 * When the hand check finds no complete hand, part of the hand may lie outside the photo: an edge
 * candidate that the hand check did not take is kept when the classifier reads it at least this
 * surely and the tile verifier gives it p(tile) >= EDGE_KEEP_VERIFIED, beside the hand
 * (EDGE_KEEP_GAP; val-holdout scene 258's cut 1p: detector 0.27, classifier 0.91, verifier 0.67).
 * See model/PIPELINE.md.
 */
export const EDGE_KEEP_PROB = 0.9;
export const EDGE_KEEP_VERIFIED = 0.6;
/** ...and when its box lies within this many of the hand's tile lengths of a kept tile's box. */
export const EDGE_KEEP_GAP = 0.5;
/**
 * With a tile the photo's edge cuts, the hand check may change at most this many tiles: part of
 * the hand may lie outside the photo, and the changes that completed such hands were wrong (a
 * kong of bamboo 7s broken up for a pair; val-holdout 038, val-holdout-xl 916). No change at all
 * lost four hands of val-holdout-xl that one right change completed (see model/PIPELINE.md).
 */
export const CUT_HAND_MAX_CHANGES = 1;
/**
 * A weak candidate in line with the hand that is read as a face-down tile with at least this
 * score (back probability x detector score), beside a kept face-down tile, is kept once the hand
 * is complete: it continues a row of face-down tiles (the wall, spare tiles), which take no part
 * in the hand. Dark backs on dark cloth score low. On val-holdout, its 3k copy and
 * embed-holdout such real backs scored 0.39-0.50 and the false ones (a shadow beside a lone
 * back, a cloth patch) 0.22-0.31.
 */
export const WALL_BACK_SCORE = 0.35;
/** A box this close (raster px) to the photo's edge reaches it. */
const EDGE_PX = 2;
/** Classes at least this likely are offered as alternatives for a tile (ScannedTile.alternatives). */
export const ALT_MIN_PROB = 0.05;
/** Test-time augmentation default (see PipelineOptions.tta). */
export const TTA_DEFAULT: TtaMode = 'uncertain';
/** With tta 'uncertain', crops whose top probability is below this are classified again turned. */
export const TTA_CONFIDENT = 0.9;
/** With two classifiers (Models.classifier2), the second reads only the crops whose top probability
 * by the first is below this; a crop the first is surer of keeps its reading alone (readCrops). On
 * val-holdout, its 3k copy, grid-, close-, far- and embed-holdout and the single held-out tiles,
 * 0.9 changed no tile's reading against both networks reading every crop (only scores, by up to
 * 0.02), and took the classifier stage of the 12 MP bench photo from about 110 to 65 ms. */
export const SECOND_OPINION_BELOW = 0.9;
/** With the flower cascade (Models.flowers2), the second reader reads only the flowers whose first mix
 * (the first reader and the spotter) is less sure than this. On val-holdout that mix is at least
 * 0.8 sure of 356 of the 618 flowers, and picks the flower the two readers pick on all of them; at
 * 0.7 a winter the first mix read as orchid at 0.7-0.8 lost a hand. */
export const FLOWER_SECOND_BELOW = 0.8;
/** Crops whose flower classes together are at least this likely are read again by the flower reader. */
export const FLOWER_GATE = 0.3;
/** Weight of the flower reader's split of the flower mass against the classifier's (withFlowerReading;
 * chosen on val-holdout: see model/PIPELINE.md). The shipped flowers.onnx holds the reader and the
 * character spotter in one graph, so its split is already theirs combined (reader^(2/3) * spotter^(1/3)). */
export const FLOWER_READER_WEIGHT = 0.9;
/** A detection at least this likely a flower may lie apart from the hand without being a stray
 * (flowers are laid aside, and a hand is complete without them). */
export const FLOWER_LIES_APART = 0.5;
/**
 * A flower turned this many degrees or more (tileAngles: from its neighbours) whose reading is
 * below TTA_CONFIDENT is read again stood straight, and the two readings averaged (readFlowers; a
 * sure reading stays as it is, and costs nothing more). On the true boxes of the held-out flowers
 * the readers got those turned under 20 degrees about as often right as upright ones (val-holdout
 * 0.92 under 10 and 10-20 degrees; val-holdout-xl 0.93 and 0.90) but fewer of those turned 20-30
 * (0.81, 0.84). The straightened crop alone reads worse (the readers learned turned tiles in their
 * boxes), the mean of both better. From 12 degrees the pipeline lost 6 flowers turned 12-20 degrees
 * on the held-out sets and gained 3; from 20 it gains on every set but val-holdout-3k
 * (model/HISTORY.md, stop 44).
 */
export const FLOWER_STRAIGHTEN_FROM = 20;
/**
 * A flower whose reading is below this (after readFlowers' own looks) is read again from the photo's
 * own pixels when they show it larger than the view does (sharperView): a flower's numeral and
 * character are a few pixels high in a 1024-px view of a 12 MP photo, and sharp at full size.
 */
export const FLOWER_DETAIL_BELOW = 0.9;
/** ...at this long side in pixels (the single-tile training crops are 128 px tall)... */
export const FLOWER_DETAIL_TILE = 192;
/** ...when that is at least this many times its long side in the view. */
export const FLOWER_DETAIL_MIN_GAIN = 1.2;
/** Largest side of the region decoded for it (memory stays bounded when flowers lie far apart). */
export const FLOWER_DETAIL_MAX_SIDE = 3072;
/** ...unless it is doubtful twice over: a detector score below DROP_BELOW and no class this likely
 * (on val-holdout, patches of a cloth read as flowers scored 0.12-0.30, real flowers so weakly
 * detected 0.79 and more). */
export const FLOWER_APART_READ = 0.5;

/**
 * A tile found by the finder alone (Models.finder) is kept only when the classifier gives its
 * first guess at least this probability. On val-holdout the finder's false finds (a domino,
 * patches of camouflage and dotted cloths) were read at 0.11-0.41; its true finds on
 * apart-holdout (flowers and face-down tiles laid apart) at 0.48-0.99 (model/PIPELINE.md).
 */
export const FINDER_READ = 0.45;

/** A find read only as some flower (keptFind) is kept when its long side is within this factor of
 * the median of the detector's sure tiles (a flower is of its set's size; on the held-out sets the
 * flowers kept so were 0.84-0.96 of it, the cloth's flower-like patches 0.68). */
export const FLOWER_FIND_SCALE = 0.8;
/**
 * Whether a find (the finder's, or the look's for tiles apart) is kept, by the classifier's reading
 * `p`: a first guess of at least FINDER_READ; or, with `flowers`, flower classes together of at
 * least FINDER_READ (a flower of a design it has never seen, known for a flower but spread over the
 * eight) when the tile verifier gives it `pTile` >= LONE_VERIFIED and its long side is within
 * FLOWER_FIND_SCALE of the hand's median `handSide`, as the cloth's pattern may be flower-like.
 */
export function keptFind(p: Float32Array, f0: number, pTile: number | undefined, box: Box, handSide: number, flowers = true): boolean {
  if (topProbability(p) >= FINDER_READ) return true;
  if (!flowerOnly(p, f0, flowers) || (pTile ?? 0) < LONE_VERIFIED) return false;
  const side = Math.max(box[2], box[3]);
  return side >= FLOWER_FIND_SCALE * handSide && side * FLOWER_FIND_SCALE <= handSide;
}
/** The finds that may be kept only as some flower (keptFind), for which the tile verifier is asked. */
function flowerOnly(p: Float32Array, f0: number, flowers: boolean): boolean {
  return flowers && f0 >= 0 && topProbability(p) < FINDER_READ && flowerMass(p, f0) >= FINDER_READ;
}
/**
 * The finder's input long side on the normal pass when the tiles are large (coarseFinderTiles): 0.56
 * of the detector's pixels. On apart-holdout it found 5 more of the flowers and face-down tiles
 * laid apart than at the detector's 512 (hand exact 0.7667 -> 0.8000); val-holdout, far- and
 * close-holdout kept their hands, grid-holdout and val-holdout-3k gained one, embed-holdout lost
 * one (model/HISTORY.md, stop 37). Smaller tiles keep the detector's size: with it on every
 * pass, embed-holdout (a hand a third the size) lost five hands.
 */
export const FINDER_COARSE_SIZE = 384;
/** The coarse finder reads the normal pass when the sure tiles' median long side is at least this (raster px). */
export const FINDER_COARSE_FROM = 48;

/** Whether the sure tiles (at least two) are large enough for the coarse finder (FINDER_COARSE_FROM). */
export function coarseFinderTiles(sure: readonly Box[]): boolean {
  return sure.length >= 2 && medianLongSide(sure) >= FINDER_COARSE_FROM;
}

/** Detections the detector scores below this are shown to the tile verifier (Models.verifier);
 * on val-holdout the false ones (squares of checked cloth, coloured discs, a domino) scored 0.28-0.67. */
export const VERIFY_BELOW = 0.8;
/** A verified detection whose p(tile) is below this is not a tile: it is dropped, as the weak
 * peaks and the finder's unreadable finds are (0.5 kept 4 more val-holdout hands than 0.2). */
export const VERIFY_DROP = 0.5;
/**
 * A lone detection (isolatedUnsure: far from the other tiles, and read doubtfully) stays when its
 * detector score reaches VERIFY_BELOW or the verifier's p(tile) reaches this. Before, every lone
 * doubtful detection was left out; on val-holdout and apart-holdout all nine it left out were real
 * tiles (flowers laid apart, detector scores 0.54-0.92, p(tile) 0.91-0.99 where the verifier read them).
 */
export const LONE_VERIFIED = 0.9;

/** 'all': classify every crop also turned 180 degrees and average the probabilities;
 * 'uncertain': only crops the first pass is not sure of (top probability < TTA_CONFIDENT);
 * 'off' (or false): one pass. true means 'all'. */
export type TtaMode = 'all' | 'uncertain' | 'off';

/** The crops at `indices` of a (n, 3, H, W) batch (plane = H * W), each turned 180 degrees (channel planes reversed). */
export function turnedCrops(crops: Float32Array, indices: readonly number[], plane = CROP_H * CROP_W): Float32Array {
  return pickCrops(crops, indices, plane, true);
}

/** The crops at `indices` of a (n, 3, H, W) batch (plane = H * W), copied in that order; turned 180 degrees with `turn`. */
export function pickCrops(crops: Float32Array, indices: readonly number[], plane = CROP_H * CROP_W, turn = false): Float32Array {
  const out = new Float32Array(indices.length * 3 * plane);
  indices.forEach((n, j) => {
    for (let c = 0; c < 3; c++) {
      const src = (n * 3 + c) * plane, dst = (j * 3 + c) * plane;
      if (!turn) out.set(crops.subarray(src, src + plane), dst);
      else for (let k = 0; k < plane; k++) out[dst + k] = crops[src + plane - 1 - k];
    }
  });
  return out;
}

function ttaMode(t: boolean | TtaMode | undefined): TtaMode {
  if (t === undefined) return TTA_DEFAULT;
  if (t === true) return 'all';
  if (t === false) return 'off';
  return t;
}

/**
 * Softmax per crop of (n, 3, h, w) crops from `sessions` (K classes; several networks average their
 * softmaxes), with 180-degree test-time augmentation: the crops `mode` asks for (all, or those
 * whose top probability is below TTA_CONFIDENT) are read again turned, and the two readings averaged.
 *
 * Cascade: the first network reads every crop; the others read only the crops it is less sure of
 * than `sure` (its top probability below it), and a crop it is surer of keeps its reading alone. A
 * crop read turned is read by the networks its upright reading used. `sure` >= 1: every network
 * reads every crop (the plain average).
 *
 * `confidence`: how sure the first network's reading is, for the cascade (default: its top
 * probability).
 */
export async function readCrops(sessions: readonly OrtSession[], crops: Float32Array, n: number, h: number, w: number, K: number, mode: TtaMode, sure = 1, confidence: (p: Float32Array) => number = topProbability): Promise<Float32Array[]> {
  const plane = h * w;
  const [first, ...rest] = sessions;
  if (!first) throw new Error('readCrops: no network');
  const run = async (session: OrtSession, data: Float32Array, count: number) => {
    const out = await session.run({ [session.inputNames[0]]: floatTensor(data, [count, 3, h, w]) });
    const logits = out[session.outputNames[0]].data as Float32Array;
    return Array.from({ length: count }, (_, i) => softmax(logits, i * K, K));
  };
  const upright = await run(first, crops, n);
  // the crops every network reads: all of them, or those the first is less sure of than `sure`
  const everyNet = new Set(upright.flatMap((p, i) => (rest.length && (sure >= 1 || confidence(p) < sure) ? [i] : [])));
  /** Mean reading of `idx` (crops `data` in that order) by the first network (`firstRead`, given) and, for those in everyNet, the others. */
  const readRest = async (data: Float32Array, idx: readonly number[], firstRead: Float32Array[]) => {
    const pos = idx.flatMap((i, j) => (everyNet.has(i) ? [j] : []));
    if (rest.length && pos.length) {
      const sub = pos.length === idx.length ? data : pickCrops(data, pos, plane);
      for (const s of rest) {
        const q = await run(s, sub, pos.length);
        pos.forEach((j, m) => {
          const p = firstRead[j];
          for (let k = 0; k < K; k++) p[k] += q[m][k];
        });
      }
      for (const j of pos) {
        const p = firstRead[j];
        for (let k = 0; k < K; k++) p[k] /= sessions.length;
      }
    }
    return firstRead;
  };
  const probs = await readRest(crops, upright.map((_, i) => i), upright);
  const again = toTurn(probs, mode);
  if (!again.length) return probs;
  const turnedData = turnedCrops(crops, again, plane);
  const turned = await readRest(turnedData, again, await run(first, turnedData, again.length));
  averageIn(probs, again, turned);
  return probs;
}

/** p(tile) by the tile verifier (Models.verifier) on the classifier's crops of the detections scoring
 * from `from` (weaker ones are only the hand check's candidates) to below VERIFY_BELOW; undefined
 * for the others, and for all without a verifier. */
async function verifyCrops(models: Models, crops: Float32Array, scores: readonly number[], from: number): Promise<(number | undefined)[]> {
  const out: (number | undefined)[] = scores.map(() => undefined);
  const v = models.verifier;
  const idx = scores.flatMap((s, i) => (s >= from && s < VERIFY_BELOW ? [i] : []));
  if (!v || !idx.length) return out;
  const { w, h } = modelCropSize(models);
  const p = await tileProbs(v, pickCrops(crops, idx, w * h), idx.length, h, w);
  idx.forEach((i, j) => { out[i] = p[j]!; });
  return out;
}

/** p(tile) per crop of (n, 3, h, w) crops by the tile verifier. */
async function tileProbs(verifier: OrtSession, crops: Float32Array, n: number, h: number, w: number): Promise<number[]> {
  return (await readCrops([verifier], crops, n, h, w, 2, 'off')).map((p) => p[1]!);
}

/** Classify (n, 3, h, w) crops (modelCropSize); softmax per crop, with 180-degree test-time
 * augmentation; a second classifier (Models.classifier2) reads the crops the first is less sure of
 * than SECOND_OPINION_BELOW, and the two average. */
async function classifyCrops(models: Models, crops: Float32Array, n: number, mode: TtaMode, sure = SECOND_OPINION_BELOW): Promise<Float32Array[]> {
  const { w, h } = modelCropSize(models);
  const f0 = models.labels.indexOf('f1');
  // with a flower reader, a crop the first classifier is sure is some flower needs no second
  // opinion: the reader tells which (turning it still pays: on val-holdout it read a turned
  // winter right, and without it, a West wind as summer)
  const confidence = models.flowers && f0 >= 0 ? (p: Float32Array) => Math.max(topProbability(p), flowerMass(p, f0)) : topProbability;
  return readCrops(models.classifier2 ? [models.classifier, models.classifier2] : [models.classifier], crops, n, h, w, models.labels.length, mode, sure, confidence);
}

/** Each tile's place in reading order (layoutTiles), for the hand check's order rule. */
function readingRanks(tiles: LayoutInput[]): number[] {
  const order = new Array<number>(tiles.length).fill(0);
  layoutTiles(tiles).order.forEach((i, n) => { order[i] = n; });
  return order;
}

/** A second reading of some crops averaged into their first: readings[at[m]] becomes the mean of
 * itself and other[m]. */
function averageIn(readings: Float32Array[], at: readonly number[], other: readonly Float32Array[]): void {
  at.forEach((i, m) => {
    const p = readings[i]!, q = other[m]!;
    for (let k = 0; k < p.length; k++) p[k] = (p[k]! + q[k]!) / 2;
  });
}

/** The readings to read again turned 180 degrees: with `mode` 'all' every one, else (not 'off') those
 * whose top probability is below TTA_CONFIDENT. */
function toTurn(probs: readonly Float32Array[], mode: TtaMode): number[] {
  if (mode === 'off') return [];
  return mode === 'all' ? probs.map((_, i) => i) : probs.flatMap((p, i) => (topProbability(p) < TTA_CONFIDENT ? [i] : []));
}

/** The top probability of a reading. */
function topProbability(p: ArrayLike<number>): number {
  let m = -Infinity;
  for (let k = 0; k < p.length; k++) if (p[k]! > m) m = p[k]!;
  return m;
}

/**
 * The flower reader's second look at the tiles the classifier reads as flowers (flower mass >=
 * FLOWER_GATE): larger crops (FLOWER_W x FLOWER_H), read again turned 180 degrees as the
 * classifier's crops are (`mode`: with 'uncertain', only those whose reading is below
 * TTA_CONFIDENT; on val-holdout, grid-holdout and the single held-out tiles no reading changed
 * against turning all of them), the two readings averaged; their split of the flower mass is
 * blended into the classifier's with `weight` (withFlowerReading). With `straighten`, a flower
 * turned FLOWER_STRAIGHTEN_FROM degrees or more and still read below TTA_CONFIDENT is read once
 * more cut along its own axes (cropTiles with its angle), and that reading averaged in. With
 * `sharper` (sharperView), a flower still read below FLOWER_DETAIL_BELOW is looked at again in the
 * same ways in the photo's own pixels, when they show it larger, and that reading replaces the
 * view's (averaging the two instead gave the same figures on val-holdout-3k). No-op without a
 * flower reader.
 */
async function readFlowers(models: Models, img: RasterImage, boxes: Box[], sideways: boolean[], probs: Float32Array[], mode: TtaMode, weight = FLOWER_READER_WEIGHT, margin = CROP_MARGIN, straighten = true, sharper?: SharperView): Promise<void> {
  const f0 = models.labels.indexOf('f1');
  if (!models.flowers || f0 < 0) return;
  const idx = probs.flatMap((p, i) => (flowerMass(p, f0) >= FLOWER_GATE ? [i] : []));
  if (!idx.length) return;
  const read = await flowerReadings(models, img, boxes, sideways, idx, mode, margin, straighten);
  if (sharper) {
    // unsure flowers small in the view: read again from the photo's own pixels (sharperView)
    const unsure = idx.flatMap((i, j) => (topProbability(read[j]!) < FLOWER_DETAIL_BELOW ? [j] : []));
    const view = unsure.length ? await sharper(unsure.map((j) => idx[j]!)) : null;
    if (view) {
      const again = await flowerReadings(models, view.img, view.boxes, sideways, view.at, mode, margin, straighten);
      view.at.forEach((i, m) => { read[idx.indexOf(i)] = again[m]!; });
    }
  }
  idx.forEach((i, j) => withFlowerReading(probs[i]!, read[j]!, f0, weight));
}

/** The tiles `at` (indices into `boxes`) looked at again in a sharper raster: that raster, every
 * box in its pixels, and the tiles it holds (a subset of `at`); null when the photo has no more
 * pixels to give them. */
type SharperView = (at: number[]) => Promise<{ img: RasterImage; boxes: Box[]; at: number[] } | null>;

/** The flower readers' f1..f8 readings of the tiles `idx` (indices into `boxes`) of `img`, read
 * again turned and stood straight as readFlowers says. */
async function flowerReadings(models: Models, img: RasterImage, boxes: Box[], sideways: boolean[], idx: readonly number[], mode: TtaMode, margin: number, straighten: boolean): Promise<Float32Array[]> {
  const crops = cropTiles(img, idx.map((i) => boxes[i]!), idx.map((i) => sideways[i]!), FLOWER_W, FLOWER_H, margin);
  const read = await flowerProbs(models, crops, idx.length);
  const again = toTurn(read, mode);
  if (again.length) {
    const turned = await flowerProbs(models, turnedCrops(crops, again, FLOWER_H * FLOWER_W), again.length);
    averageIn(read, again, turned);
  }
  if (straighten) {
    // a tile photographed turned is read again stood straight, the two readings averaged
    const angles = tileAngles(boxes);
    const tilted = idx.flatMap((i, j) => (Math.abs(angles[i]!) >= FLOWER_STRAIGHTEN_FROM && topProbability(read[j]!) < TTA_CONFIDENT ? [j] : []));
    if (tilted.length) {
      const pick = <T,>(a: readonly T[]) => tilted.map((j) => a[idx[j]!]!);
      const straight = await flowerProbs(models, cropTiles(img, pick(boxes), pick(sideways), FLOWER_W, FLOWER_H, margin, pick(angles)), tilted.length);
      averageIn(read, tilted, straight);
    }
  }
  return read;
}

/**
 * The flower readers' f1..f8 probabilities of n (n, 3, FLOWER_H, FLOWER_W) crops. A flowers.onnx
 * of 8 logits a crop holds the whole mix (the readers and the character spotter in one graph).
 * One of 17 values a crop is the cascade's first file (`train.py export --flw-cascade`): the first
 * reader's log-softmax, the spotter's and the spotter's weight w, mixed as (1 - w) * reader +
 * w * spotter; the second reader (Models.flowers2) then reads only the crops that mix is less sure
 * of than FLOWER_SECOND_BELOW, and those are mixed again with the two readers' mean softmax, as
 * the one-graph file does for every crop.
 */
export async function flowerProbs(models: Pick<Models, 'flowers' | 'flowers2'>, crops: Float32Array, n: number): Promise<Float32Array[]> {
  const first = models.flowers!;
  const plane = FLOWER_H * FLOWER_W;
  const run = async (s: OrtSession, data: Float32Array, count: number) => {
    const out = (await s.run({ [s.inputNames[0]]: floatTensor(data, [count, 3, FLOWER_H, FLOWER_W]) }))[s.outputNames[0]];
    return { data: out.data as Float32Array, width: (out.data as Float32Array).length / count };
  };
  const a = await run(first, crops, n);
  if (a.width === 8) return Array.from({ length: n }, (_, j) => softmax(a.data, j * 8, 8));
  if (a.width !== 17) throw new Error(`flowers.onnx gives ${a.width} values a crop (8 or 17 expected)`);
  const mix = (j: number, reader: ArrayLike<number>) => {
    const o = j * 17, w = a.data[o + 16]!, logits = new Float32Array(8);
    for (let k = 0; k < 8; k++) logits[k] = (1 - w) * reader[k]! + w * a.data[o + 8 + k]!;
    return softmax(logits, 0, 8);
  };
  const probs = Array.from({ length: n }, (_, j) => mix(j, a.data.subarray(j * 17, j * 17 + 8)));
  const unsure = models.flowers2 ? probs.flatMap((p, j) => (topProbability(p) < FLOWER_SECOND_BELOW ? [j] : [])) : [];
  if (unsure.length) {
    const b = await run(models.flowers2!, unsure.length === n ? crops : pickCrops(crops, unsure, plane), unsure.length);
    if (b.width !== 8) throw new Error(`flowers2.onnx gives ${b.width} values a crop (8 expected)`);
    unsure.forEach((j, m) => {
      const mean = new Float32Array(8);
      for (let k = 0; k < 8; k++) mean[k] = Math.log((Math.exp(a.data[j * 17 + k]!) + Math.exp(b.data[m * 8 + k]!)) / 2);
      probs[j] = mix(j, mean);
    });
  }
  return probs;
}

export interface PipelineOptions {
  /** The hand check reads a tile from the hand when its first guess is below this (default UNREAD_BELOW). */
  unreadBelow?: number;
  /** Detector input long side (multiple of 32). */
  detSize?: number;
  /** Minimum detector peak score (default DET_THRESHOLD). */
  threshold?: number;
  onProgress?: (stage: 'detect' | 'classify' | 'layout', fraction: number) => void;
  /** Keep weaker detector peaks (>= RESCUE_THRESHOLD) when the classifier is confident. Default off:
   * on val-holdout it raised recall 0.977 -> 0.982 but lowered precision 0.973 -> 0.952 and hand exact. */
  rescue?: boolean;
  /** 180-degree test-time augmentation (default TTA_DEFAULT, see TtaMode). */
  tta?: boolean | TtaMode;
  /** Hand check (handcheck.ts): when the first guesses do not make a complete hand, take the
   * cheapest next guesses that do (default true). */
  handCheck?: boolean;
  /** The hand check's order rule (HandCheckOptions.order): among the mends that complete the hand,
   * prefer one that leaves the tiles, in reading order, sorted or in contiguous sets (default true). */
  handOrder?: boolean;
  /** The hand check does not read as a flower a tile lying sideways beside others, as a meld's
   * claimed tile does (claimedTiles, HandCheckOptions.claimed; default true). */
  claimedTiles?: boolean;
  /** Treat doubtful detections out of scale with the hand or apart from it as strays (strayDetections;
   * default true): left out when the hand check completes the hand without them, or always when
   * the hand check is off. */
  strayFilter?: boolean;
  /** Let the flower reader (when the models have one) read again the tiles read as flowers (default true). */
  flowerReader?: boolean;
  /** Weight of the flower reader against the classifier (default FLOWER_READER_WEIGHT; 1: the reader alone). */
  flowerReaderWeight?: number;
  /** Read each flower turned FLOWER_STRAIGHTEN_FROM degrees or more, and read below TTA_CONFIDENT,
   * again stood straight, and average the two readings (readFlowers; default true). */
  flowerStraighten?: boolean;
  /** Read unsure flowers that the view shows small again from the photo's own pixels (default true;
   * FLOWER_DETAIL_BELOW, sharperView). */
  flowerDetail?: boolean;
  /** Read each tile the photo's edge cuts again from its whole box completed beyond the edge
   * (completeCutBoxes), and average the two readings (default true). */
  cutTileView?: boolean;
  /** With a tile the photo's edge cuts (completeCutBoxes), let the hand check change at most
   * CUT_HAND_MAX_CHANGES tiles (default true). */
  cutHandLimit?: boolean;
  /** Weak detections (>= EDGE_RESCUE_THRESHOLD) of tiles the photo's edge cuts may complete an
   * incomplete hand in the hand check (default: when the hand check is on). */
  edgeRescue?: boolean;
  /** Weak detections (>= EDGE_RESCUE_THRESHOLD) beside the hand's tiles and of their size
   * (besideHand) may complete an incomplete hand in the hand check too (default: as edgeRescue). */
  besideRescue?: boolean;
  /** When the hand check finds no complete hand, edge candidates beside the hand (EDGE_KEEP_GAP),
   * read surely (EDGE_KEEP_PROB) and seen as tiles by the tile verifier (EDGE_KEEP_VERIFIED) are
   * kept (default true). */
  edgeKeep?: boolean;
  /** Let the finder (Models.finder, when the models have one) add the tiles the detector scores too
   * low, on the normal pass and the zoom pass (default true). */
  finder?: boolean;
  /** On the normal pass, when the detector's sure tiles are large (coarseFinderTiles), the finder
   * reads the raster at FINDER_COARSE_SIZE instead of the detector's size (default true). */
  finderCoarse?: boolean;
  /** A find (the finder's, or the look for tiles apart) the classifier is sure is some flower, though
   * not which, may be kept (keptFind; default true). */
  flowerFinds?: boolean;
  /** When nothing is found, look at the fine search's largest group of sure finds in the photo at
   * full resolution (FINE_GROUP_LINK; default true). */
  fineGroup?: boolean;
  /** When the tiles fill only part of the photo, detect again on that part, zoomed in (default true). */
  zoom?: boolean;
  /** Before the zoom pass, look for tiles apart from the hand on the whole raster at OUTER_SIZE
   * (outerFinds; default true; only with the zoom pass and a tile verifier). */
  outerLook?: boolean;
  /** The look for tiles apart reads only windows round the normal pass's weak peaks (outerWindows),
   * unless they cover most of the raster (default true; false: always the whole raster). */
  outerWindows?: boolean;
  /** A photo whose sure tiles mostly lie sideways (a hand photographed from the side of the table)
   * is turned a quarter and read again (TURN_MIN_TILES, TURN_SHARE; default true). */
  turnSideways?: boolean;
  /** A reading of 10-30 tiles (OVER_MIN_TILES, OVER_MAX_TILES) whose tiles make no complete hand is
   * read again on the photo turned half round, taken when that makes one and finds more tiles or
   * scores higher (default true; with the hand check). */
  turnOver?: boolean;
  /** A doubtful detection (below VERIFY_BELOW, not a flower) lying across two surer detections
   * (postprocess.ts straddles) is set aside as the tile verifier's doubted detections are (default true). */
  straddling?: boolean;
  /** After the zoom pass, the normal pass's sure detections that it does not find again stay when
   * the tile verifier sees a tile in them (firstFinds; default true). */
  keepFirst?: boolean;
  /** The hand check may not leave out, as a false detection or a stray, a detection the tile
   * verifier is sure of (LONE_VERIFIED; default true). */
  verifiedStay?: boolean;
  /** Read a set of three or four tiles read doubtfully as one honour as the 1 of bamboo, when
   * each gives it some weight (birdPungs; default true; with the hand check). */
  birdPungs?: boolean;
  /** Tiles read as the same flower or season are told apart after the hand check, the likeliest
   * distinct reading taken, and the hand check itself leaves which flower is which alone
   * (distinctFlowers, HandCheckOptions.flowerIdentity; default true; with the hand check). */
  distinctFlowers?: boolean;
  /** More tiles of one kind than a set has (four), or more flowers (eight), are read again, least
   * sure first, the set's unseen bird first (atMostFour; default true; with the hand check). */
  atMostFour?: boolean;
  /** Detect again on the photo shrunk (ZOOM_OUT_FIT), and keep that when its tiles are those of a
   * close-up (closeUpFit; default true). */
  zoomOut?: boolean;
  /** When the first pass finds few tiles or small ones, search the raster again at FINE_SIZE (default true). */
  fine?: boolean;
  /** Skip the fine search from this many first-pass tiles when the zoom pass decodes their region
   * again (default FINE_SKIP_AT: never). */
  fineSkipAt?: number;
  /** Where the tiles are small in the decoded raster and the photo has more pixels, zoom in on
   * the full-resolution photo (DecodedPhoto.detail; default true). */
  detail?: boolean;
  /** Filled with the class probabilities of each returned tile (in `tiles` order) when given. */
  probs?: number[][];
  /** Filled with per-stage milliseconds when given. */
  timings?: Record<string, number>;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

const letterboxMemo = new WeakMap<RasterImage, Map<string, ReturnType<typeof letterbox>>>();

/** Detections in a part of a raster (cropRaster at `region`), moved to the whole raster's pixels. */
const fromPart = (ds: readonly Detection[], region: readonly [number, number, number, number]): Detection[] =>
  ds.map((d) => ({ ...d, box: [d.box[0] + region[0], d.box[1] + region[1], d.box[2], d.box[3]] }));

/** Letterbox a raster, run the detector, and return the detections in that raster's pixels. */
async function detectIn(img: RasterImage, models: Models, size: number, threshold: number, T?: Record<string, number>, fit = 1, detector: OrtSession = models.detector, hints?: Detection[]): Promise<Detection[]> {
  let t = now();
  // the finder reads the same letterboxed input as the detector: made once per raster, size and fit
  const memo = letterboxMemo.get(img) ?? new Map<string, ReturnType<typeof letterbox>>();
  letterboxMemo.set(img, memo);
  const key = `${size}:${fit}`;
  const lb = memo.get(key) ?? letterbox(img, size, 32, fit);
  memo.set(key, lb);
  if (T) T.letterbox = (T.letterbox ?? 0) + now() - t;
  t = now();
  const det = await detector.run({ [detector.inputNames[0]]: floatTensor(lb.data, lb.dims) });
  const hm = det[detector.outputNames[0]];
  const bx = det[detector.outputNames[1]];
  const [, , gh, gw] = hm.dims as number[];
  const found = decodeDetections(hm.data as Float32Array, bx.data as Float32Array, gh, gw, { threshold });
  // the weak peaks too, decoded apart so that the detections stay exactly those above `threshold`
  const weak = hints ? decodeDetections(hm.data as Float32Array, bx.data as Float32Array, gh, gw, { threshold: OUTER_HINT }) : [];
  if (T) T.detect = (T.detect ?? 0) + now() - t;
  const inside = (d: Detection) => {
    // zoomed out, peaks on the grey round the photo are nothing
    const cx = d.box[0] + d.box[2] / 2, cy = d.box[1] + d.box[3] / 2;
    const { padX, padY, scale } = lb.transform;
    return cx >= padX && cy >= padY && cx <= padX + img.width * scale && cy <= padY + img.height * scale;
  };
  const toRaster = (d: Detection) => ({ ...d, box: boxToRaster(d.box, lb.transform) });
  if (hints) hints.push(...weak.filter(inside).map(toRaster));
  return found.filter(inside).map(toRaster);
}

/**
 * After the zoom pass, the normal pass's sure detections (`first`, in `view`'s pixels) that the
 * zoom pass did not find again, or found only weakly (mergeFinds), when the tile verifier sees a
 * tile in them (LONE_VERIFIED): a framed white dragon that the zoom pass's larger view loses, but
 * not a domino or a coin that only the smaller view took for a tile. Only when the zoom pass found
 * at least two sure tiles; without a verifier, none.
 */
async function firstFinds(view: RasterImage, models: Models, candidates: Detection[], first: readonly Detection[], thr: number): Promise<Detection[]> {
  // only beside a hand that the zoom pass found (as outerFinds): not a domino's half in a photo of none
  if (!models.verifier || !first.length || candidates.filter((d) => d.score >= thr).length < 2) return candidates;
  const lost = addedFinds(candidates, first, thr);
  if (!lost.length) return candidates;
  const { w, h } = modelCropSize(models);
  const pTile = await tileProbs(models.verifier, cropTiles(view, lost.map((d) => d.box), lost.map((d) => d.sideways), w, h), lost.length, h, w);
  return mergeFinds(candidates, lost.filter((_, j) => pTile[j]! >= LONE_VERIFIED), thr);
}

/** Detector input long side of the look for tiles apart from the hand (outerFinds). */
export const OUTER_SIZE = 1024;

/**
 * Tiles lying apart from the hand (flowers laid aside, a lone face-down tile) that the detector and
 * the finder miss at `size`, where they are a few pixels wide: the detector on the raster at
 * OUTER_SIZE (given the normal pass's weak peaks, `hints`, only in windows round those that no sure
 * tile covers: outerWindows; the whole raster when they cover most of it), its detections of at
 * least `thr` that no candidate covers (mergeFinds) and that are
 * of the size of the sure tiles (within STRAY_SCALE of their median; at least two sure tiles), kept
 * when the classifier can read them (FINDER_READ) and the tile verifier sees a tile (LONE_VERIFIED). Marked
 * as finds (`finder`), so that the pipeline's checks of finds apply to them too. None without a
 * verifier, when the raster is not larger than `size`, or when the sure tiles are smaller than
 * FINE_BELOW of the raster (a hand shot from far off, which the fine search looked at already).
 */
async function outerFinds(img: RasterImage, models: Models, candidates: readonly Detection[], size: number, thr: number, mode: TtaMode, T?: Record<string, number>, hints?: readonly Detection[], flowers = true): Promise<Detection[]> {
  const side = Math.min(OUTER_SIZE, Math.ceil(Math.max(img.width, img.height) / 32) * 32);
  if (!models.verifier || side <= size) return [];
  // only beside a hand: tiles of its size (STRAY_SCALE), as the tiles of one set are
  const sure = candidates.filter((d) => d.score >= thr).map((d) => d.box);
  if (sure.length < 2) return [];
  const tile = medianLongSide(sure);
  // tiles this small: the fine search has looked at the whole raster at FINE_SIZE already
  if (tile / Math.max(img.width, img.height) < FINE_BELOW) return [];
  const ofSize = (b: Box) => Math.max(b[2], b[3]) <= tile * STRAY_SCALE && Math.max(b[2], b[3]) * STRAY_SCALE >= tile;
  // only round the normal pass's weak peaks (hints) when they are few: most photos have none
  const wins = hints ? outerWindows(hints.map((d) => d.box), sure, tile, img.width, img.height) : null;
  let seen: Detection[];
  if (!wins) seen = await detectIn(img, models, side, thr, T);
  else {
    const k = side / Math.max(img.width, img.height);
    seen = [];
    for (const w of wins) {
      const region = clampRegion(w, img.width, img.height);
      const part = cropRaster(img, region);
      seen.push(...fromPart(await detectIn(part, models, Math.round(Math.max(part.width, part.height) * k), thr, T), region));
    }
  }
  // new finds, and finds that take the place of a weaker candidate
  const fresh = addedFinds(candidates, seen, thr).filter((d) => ofSize(d.box));
  if (!fresh.length) return [];
  const { w, h } = modelCropSize(models);
  const crops = cropTiles(img, fresh.map((d) => d.box), fresh.map((d) => d.sideways), w, h);
  const read = await classifyCrops(models, crops, fresh.length, mode);
  const pTile = await tileProbs(models.verifier, crops, fresh.length, h, w);
  return fresh.filter((d, j) => keptFind(read[j]!, models.labels.indexOf('f1'), pTile[j], d.box, tile, flowers) && pTile[j]! >= LONE_VERIFIED);
}

/** Detector input long side of the fine search (PipelineOptions.fine). */
export const FINE_SIZE = 1024;
/** The fine search runs when the first pass finds under two tiles, or tiles whose median long side is
 * under this fraction of the photo's long side. */
export const FINE_BELOW = 0.045;
/** When the first pass found under two tiles, the fine search must find at least this many: a hand
 * has 14 or more, and on the empty tables of the held-out sets it found at most 8 (model/PIPELINE.md). */
export const FINE_MIN_TILES = 10;
/** When the fine search does not find most of a hand after an (almost) empty first pass, and the
 * passes after it find nothing either, its largest group of sure finds linked within
 * FINE_GROUP_LINK tile lengths, of at least FINE_GROUP_MIN finds, is looked at again in the photo at
 * full resolution (a hand shot from far off on a busy cloth, whose tiles the fine search scores
 * about 0.5 among as many peaks of the cloth); what is found there is taken only when it is most of
 * a hand (FINE_MIN_TILES). */
export const FINE_GROUP_LINK = 4;
export const FINE_GROUP_MIN = 2;
/** With PipelineOptions.fineSkipAt = n > 0, the fine search is skipped when the first pass found at
 * least n tiles and the zoom pass will search their region again from the full-resolution photo.
 * Off by default: at 14 it takes the far-off bench photo from 338 to 262 ms with the same tiles, and
 * gained a hand on each tune set, but lost one on each of three held-out sets (model/HISTORY.md). */
export const FINE_SKIP_AT = 0;
/** Long side of the zoomed-in region decoded again from the full-resolution photo. */
export const DETAIL_SIDE = 1024;
/** The region is decoded again only when its median tile's long side in the raster is below this
 * (the classifier's crop height: larger tiles already fill its crops) ... */
export const DETAIL_BELOW = CROP_H;
/** ... and the region decoded again would have at least this many times the raster's pixels per side. */
export const DETAIL_MIN_GAIN = 1.25;

/** The zoomed-in region in original px when the tiles are too small in the raster to be read well
 * and the photo can give them more pixels; else null. */
export function detailRegion(photo: DecodedPhoto, img: RasterImage, region: readonly [number, number, number, number], boxes: readonly Box[]): Box | null {
  if (!photo.detail || !boxes.length) return null;
  if (medianLongSide(boxes) >= DETAIL_BELOW) return null;
  const k = photo.originalWidth / img.width;
  // whole pixels inside the photo, as the decoders cut it, so that boxes map back exactly
  const orig: Box = clampRegion([region[0] * k, region[1] * k, region[2] * k, region[3] * k], photo.originalWidth, photo.originalHeight);
  const gain = Math.min(DETAIL_SIDE, Math.max(orig[2], orig[3])) / Math.max(region[2], region[3]);
  return gain >= DETAIL_MIN_GAIN ? orig : null;
}

/**
 * The tiles `at` decoded again from the photo's own pixels at FLOWER_DETAIL_TILE px a tile (one region
 * round all of them), for those the photo shows at least FLOWER_DETAIL_MIN_GAIN times larger than
 * the view (`viewBoxes`, mapped to the photo's pixels by `toOriginal`), by `decode` (null when the photo
 * cannot be decoded again: the view's reading stays).
 */
function sharperView(photo: DecodedPhoto, viewBoxes: readonly Box[], toOriginal: (b: Box) => Box, decode: (region: Box, side: number) => Promise<RasterImage | null>): SharperView {
  const long = (b: Box) => Math.max(b[2], b[3]);
  return async (at) => {
    const orig = viewBoxes.map(toOriginal);
    const take = at.filter((i) => Math.min(FLOWER_DETAIL_TILE, long(orig[i]!)) >= FLOWER_DETAIL_MIN_GAIN * long(viewBoxes[i]!));
    if (!take.length) return null;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const i of take) {
      const [x, y, w, h] = orig[i]!, pad = long(orig[i]!) / 2;
      x0 = Math.min(x0, x - pad); y0 = Math.min(y0, y - pad); x1 = Math.max(x1, x + w + pad); y1 = Math.max(y1, y + h + pad);
    }
    const region = clampRegion([x0, y0, x1 - x0, y1 - y0], photo.originalWidth, photo.originalHeight);
    const longs = take.map((i) => long(orig[i]!)).sort((a, b) => a - b);
    const k = Math.min(1, FLOWER_DETAIL_TILE / longs[longs.length >> 1]!);
    const side = Math.min(FLOWER_DETAIL_MAX_SIDE, Math.max(1, Math.round(long(region) * k)));
    const img = await decode(region, side);
    if (!img) return null;
    const kx = region[2] / img.width, ky = region[3] / img.height;
    const boxes = orig.map(([x, y, w, h]): Box => [(x - region[0]) / kx, (y - region[1]) / ky, w / kx, h / ky]);
    return { img, boxes, at: take };
  };
}

/** Boxes in the pixels of `d`, the region `orig` of the photo decoded again, to the photo's pixels. */
function detailToOriginal(orig: Box, d: RasterImage): (b: Box) => Box {
  const kx = orig[2] / d.width, ky = orig[3] / d.height;
  return (b) => [orig[0] + b[0] * kx, orig[1] + b[1] * ky, b[2] * kx, b[3] * ky];
}

/** A photo is read turned a quarter when it shows at least TURN_MIN_TILES sure tiles... */
export const TURN_MIN_TILES = 3;
/** ...and more than this share of them lie sideways (a hand's claimed tiles are at most 4 of 14-18). */
export const TURN_SHARE = 0.5;

/** A box of a W x H photo, where it lies in the photo turned clockwise by `quarters` quarter turns. */
export function turnBox([x, y, w, h]: Box, quarters: number, W: number, H: number): Box {
  switch (((quarters % 4) + 4) % 4) {
    case 1: return [H - y - h, x, h, w];
    case 2: return [W - x - w, H - y - h, w, h];
    case 3: return [y, W - x - w, h, w];
    default: return [x, y, w, h];
  }
}

/** A box of the W x H photo turned clockwise by `quarters` quarter turns, back in the W x H photo. */
export const unturnBox = (b: Box, quarters: number, W: number, H: number): Box => (quarters % 2 ? turnBox(b, 4 - quarters, H, W) : turnBox(b, 4 - quarters, W, H));

/** The EXIF orientation that turns a raster clockwise by 1, 2 or 3 quarter turns. */
const TURN_ORIENTATION: Record<number, number> = { 1: 6, 2: 3, 3: 8 };

/** The photo turned clockwise by 1, 2 or 3 quarter turns: its raster, its size, and its regions decoded again. */
function turnPhoto(photo: DecodedPhoto, quarters: 1 | 2 | 3): DecodedPhoto {
  const W = photo.originalWidth, H = photo.originalHeight, orientation = TURN_ORIENTATION[quarters]!;
  const turned: DecodedPhoto = { image: orientRaster(photo.image, orientation), originalWidth: quarters === 2 ? W : H, originalHeight: quarters === 2 ? H : W, notes: photo.notes };
  const detail = photo.detail;
  if (detail) turned.detail = async (region, side) => orientRaster(await detail(unturnBox(region, quarters, W, H), side), orientation);
  return turned;
}

/** Why a scan was read turned: the side of the table (a quarter either way) or across it (half round). */
const TURN_NOTES = {
  quarter: 'most tiles lay sideways in the photo (taken from the side of the table): it was read turned a quarter',
  half: 'the tiles read as the photo is make no complete hand; read turned half round (a hand photographed from across the table lies upside down), they make one, and this reading was taken',
};

/** The scan of the photo turned by `quarters` (turnPhoto), back in the W x H photo: boxes turned
 * back, and after a quarter turn sideways tiles upright and upright ones sideways; reading order
 * and groups stay as read turned, the rows of the hand as its player sees them. */
function turnedBack(r: ScanResult, quarters: 1 | 2 | 3, W: number, H: number): ScanResult {
  const back = (b: Box) => unturnBox(b, quarters, W, H).map((v) => round(v, 1)) as Box;
  const quarter = quarters !== 2;
  const out: ScanResult = { ...r, width: W, height: H, tiles: r.tiles.map(({ sideways, ...t }) => ({ ...t, box: back(t.box), ...(quarter ? (sideways ? {} : { sideways: true }) : sideways ? { sideways } : {}) })) };
  if (r.leftOut) out.leftOut = r.leftOut.map((d) => ({ ...d, box: back(d.box) }));
  out.notes = [...(r.notes ?? []), quarter ? TURN_NOTES.quarter : TURN_NOTES.half];
  out.turned = quarters;
  return out;
}

/** How well a scan reads: the sum of its tiles' scores (the photo turned the right way up finds
 * more tiles, more surely). */
const scanWeight = (r: ScanResult) => r.tiles.reduce((s, t) => s + t.score, 0);

/** The scans whose tiles the hand check found a complete hand in (scanUpright). */
const completeHands = new WeakSet<ScanResult>();
/** The scans read turned a quarter (turnSideways). */
const quarterReads = new WeakSet<ScanResult>();
/** A reading that makes no complete hand is tried turned half round when it has this many tiles... */
export const OVER_MIN_TILES = 10;
/** ...up to this many (a hand with its flowers; not a set laid out in a grid). */
export const OVER_MAX_TILES = 30;

/**
 * Read a photo of a hand. A hand photographed from across the table lies upside down in the photo,
 * and the networks, which read tiles lying the right way up with a few upside down, miss some of
 * its tiles (face-down ones most). When the tiles read make no complete hand, the photo is read
 * again turned half round, and that reading is taken when its tiles make one and it finds more
 * tiles, or scores higher (`turnOver`).
 */
export async function scanPhoto(photo: DecodedPhoto, models: Models, opts: PipelineOptions = {}): Promise<ScanResult> {
  if (!(opts.turnOver ?? true) || opts.handCheck === false) return scanUpright(photo, models, opts);
  const first = await readApart(photo, models, opts);
  const n = first.r.tiles.length;
  let best = first;
  if (!completeHands.has(first.r) && !quarterReads.has(first.r) && n >= OVER_MIN_TILES && n <= OVER_MAX_TILES) {
    const over = await readApart(turnPhoto(photo, 2), models, { ...opts, turnSideways: false });
    // a photo turned the wrong way up loses tiles, or reads them less surely: the turned reading is
    // taken when it finds more tiles or its tiles' scores sum higher (an incomplete reading the right
    // way up may be right, and the hand check complete the turned one by changing a tile)
    const more = over.r.tiles.length > n || scanWeight(over.r) > scanWeight(first.r);
    if (completeHands.has(over.r) && more) best = { probs: over.probs, r: turnedBack(over.r, 2, photo.originalWidth, photo.originalHeight) };
  }
  opts.probs?.push(...best.probs);
  return best.r;
}

/** scanUpright with a probs list of its own when the caller asked for one (opts.probs), so that only
 * the reading a turn rule takes adds its probabilities to the caller's. */
async function readApart(photo: DecodedPhoto, models: Models, opts: PipelineOptions): Promise<{ probs: number[][]; r: ScanResult }> {
  const probs: number[][] = [];
  return { probs, r: await scanUpright(photo, models, { ...opts, ...(opts.probs ? { probs } : {}) }) };
}

async function scanUpright(photo: DecodedPhoto, models: Models, opts: PipelineOptions = {}): Promise<ScanResult> {
  const T = opts.timings;
  let t: number;
  const img = photo.image;
  const size = opts.detSize ?? DET_SIZE;
  const thr = opts.threshold ?? DET_THRESHOLD;
  const rescue = opts.rescue ?? false;
  const minScore = rescue ? Math.min(thr, RESCUE_THRESHOLD) : thr;
  const edgeRescue = opts.edgeRescue ?? (opts.handCheck ?? true);
  const lowest = edgeRescue ? Math.min(minScore, EDGE_RESCUE_THRESHOLD) : minScore;
  opts.onProgress?.('detect', 0);
  const decodeNotes: string[] = [];
  /** The region `orig` of the photo decoded again at up to `side` px; null, with a note in `notes`
   * naming `what` was read instead from the smaller copy, when it cannot be. */
  const decodeAgain = async (orig: Box, side = DETAIL_SIDE, notes = decodeNotes, what = 'tiles'): Promise<RasterImage | null> => {
    const t0 = now();
    try {
      return await photo.detail!(orig, side);
    } catch {
      notes.push(`the photo could not be decoded again at full resolution: the ${what} were read from the smaller copy`);
      return null;
    } finally {
      if (T) T.detail = (T.detail ?? 0) + now() - t0;
    }
  };
  // the normal pass's weak peaks, where the look for tiles apart reads again (outerFinds)
  const hints: Detection[] | undefined = opts.outerWindows === false ? undefined : [];
  let candidates = await detectIn(img, models, size, lowest, T, 1, models.detector, hints);
  if (opts.turnSideways ?? true) {
    // the networks read tiles standing up, and a hand lies with its tiles upright but for a few
    // claimed ones: when most sure tiles lie sideways, the photo was taken from the side of the table
    const sureNow = candidates.filter((d) => d.score >= thr);
    if (sureNow.length >= TURN_MIN_TILES && sureNow.filter((d) => d.sideways).length > TURN_SHARE * sureNow.length) {
      // which way up is not known (the player sat left or right of the hand): both are read, and
      // the photo as it is (tiny tiles far off may only look sideways); the surest reading is taken
      const read = async (quarters: 0 | 1 | 3) => {
        const o = { ...opts, turnSideways: false };
        if (quarters === 0) return readApart(photo, models, o);
        const { probs, r } = await readApart(turnPhoto(photo, quarters), models, o);
        return { probs, r: turnedBack(r, quarters, photo.originalWidth, photo.originalHeight) };
      };
      const reads = [await read(0), await read(1), await read(3)];
      const best = reads.reduce((a, b) => (scanWeight(b.r) > scanWeight(a.r) ? b : a));
      opts.probs?.push(...best.probs);
      quarterReads.add(best.r);
      return best.r;
    }
  }
  const sure = (ds: Detection[]) => ds.filter((d) => d.score >= thr).map((d) => d.box);
  // the median long side of the detector's own sure tiles (keptFind)
  const handSide = (ds: Detection[]) => medianLongSide(ds.filter((d) => d.score >= thr && !d.finder).map((d) => d.box));
  let zoomedOut = false;
  // a close-up: tiles larger than the detector was trained on are found on the photo shrunk (not
  // looked for when the normal pass found a hand of small tiles: closeUpPossible)
  if ((opts.zoomOut ?? true) && closeUpPossible(sure(candidates), img.width, img.height)) {
    const outer = await detectIn(img, models, size, lowest, T, ZOOM_OUT_FIT);
    const outerFound = sure(outer).length > 0;
    const fit = closeUpFit(sure(outer), sure(candidates), img.width, img.height);
    if (fit === ZOOM_OUT_FIT) {
      candidates = outer;
      zoomedOut = true;
    } else if (fit === ZOOM_OUT_FIT_FAR) {
      const far = await detectIn(img, models, size, lowest, T, ZOOM_OUT_FIT_FAR);
      if (farViewTaken(outerFound, sure(far), img.width, img.height)) {
        candidates = far;
        zoomedOut = true;
      } else if (outerFound) {
        candidates = outer;
        zoomedOut = true;
      }
    }
  }
  let fineTaken = false;
  // where the photo shows the fine search's largest group of sure finds at full resolution
  let groupOrig: Box | null = null;
  if (!zoomedOut && (opts.fine ?? true) && Math.max(img.width, img.height) > size) {
    // tiles too small for the detector at `size` (a hand shot from far off): search the raster at FINE_SIZE
    const confident = sure(candidates);
    const skipAt = opts.fineSkipAt ?? FINE_SKIP_AT;
    const region = skipAt > 0 && confident.length >= skipAt && (opts.zoom ?? true) && (opts.detail ?? true) ? zoomRegion(confident, img.width, img.height) : null;
    const zoomFinds = !!region && !!detailRegion(photo, img, region, confident);
    if (!zoomFinds && (confident.length < 2 || medianLongSide(confident) / Math.max(img.width, img.height) < FINE_BELOW)) {
      const fine = await detectIn(img, models, Math.min(FINE_SIZE, Math.ceil(Math.max(img.width, img.height) / 32) * 32), lowest, T);
      // with (almost) nothing found first, only most of a hand counts: a table's pattern gives a few peaks
      const enough = confident.length < 2 ? FINE_MIN_TILES : confident.length + 1;
      if (sure(fine).length >= enough) {
        candidates = fine;
        fineTaken = true;
      } else if (confident.length < 2 && (opts.fineGroup ?? true) && (opts.zoom ?? true) && (opts.detail ?? true)) {
        // a few sure finds together: perhaps a hand, too small to be scored surely (looked at below)
        const finds = fine.filter((d) => d.score >= thr).map((d) => d.box);
        const seeds = largestGroup(finds, FINE_GROUP_LINK).map((k) => finds[k]!);
        // only where the photo itself has more pixels to show (detailRegion)
        const region = seeds.length >= FINE_GROUP_MIN ? zoomRegion(seeds, img.width, img.height) : null;
        const orig = region ? detailRegion(photo, img, region, seeds) : null;
        if (orig) groupOrig = orig;
      }
    }
  }
  // the raster the tiles are cut from, and its boxes in the original photo's px
  let view = img;
  let toOriginal = (b: Box): Box => boxToOriginal(b, img.width, img.height, photo.originalWidth, photo.originalHeight);
  // the finder (Models.finder), a second detector trained on tiles lying apart, adds what the
  // first scores too low (a flower laid aside) on the same view; the first's boxes stand (mergeFinds)
  const finder = (opts.finder ?? true) && !zoomedOut && !fineTaken ? models.finder : undefined;
  const withFinds = async (on: RasterImage, ds: Detection[], weak?: Detection[], at = size) => (finder ? mergeFinds(ds, await detectIn(on, models, at, lowest, T, 1, finder, weak), thr) : ds);
  // on the normal pass, with tiles of FINDER_COARSE_FROM px and more, the finder reads the raster coarser
  const coarse = (opts.finderCoarse ?? true) && coarseFinderTiles(sure(candidates));
  candidates = await withFinds(img, candidates, hints, coarse ? Math.min(size, FINDER_COARSE_SIZE) : size);
  if (finder && (opts.zoom ?? true)) {
    // a find the classifier cannot read (a domino, the cloth) would widen the zoom pass's region
    // (it is read again, and dropped, with the other tiles when there is no zoom pass)
    const finds = candidates.flatMap((d, i) => (d.finder ? [i] : []));
    if (finds.length) {
      const { w: cw, h: ch } = modelCropSize(models);
      const crops = cropTiles(img, finds.map((i) => candidates[i]!.box), finds.map((i) => candidates[i]!.sideways), cw, ch);
      const read = await classifyCrops(models, crops, finds.length, ttaMode(opts.tta));
      // one read only as some flower is shown to the tile verifier, as at the end (below VERIFY_BELOW)
      const f0 = models.labels.indexOf('f1'), flowers = opts.flowerFinds ?? true;
      const ask = finds.flatMap((i, j) => (candidates[i]!.score < VERIFY_BELOW && flowerOnly(read[j]!, f0, flowers) ? [j] : []));
      const pTile: (number | undefined)[] = finds.map(() => undefined);
      if (ask.length && models.verifier) {
        const p = await tileProbs(models.verifier, pickCrops(crops, ask, cw * ch), ask.length, ch, cw);
        ask.forEach((j, m) => { pTile[j] = p[m]; });
      }
      const side = handSide(candidates);
      const unread = new Set(finds.filter((i, j) => !keptFind(read[j]!, f0, pTile[j], candidates[i]!.box, side, flowers)));
      candidates = candidates.filter((_, i) => !unread.has(i));
    }
  }
  if (!zoomedOut && (opts.zoom ?? true)) {
    // a tile lying apart (a flower laid aside) may be too small at `size` for either detector, and
    // so left out of the zoom region: a look at OUTER_SIZE round the normal pass's weak peaks finds it
    // (outerFinds), and widens the region as a sure tile does
    const outer = fineTaken || opts.outerLook === false ? [] : await outerFinds(img, models, candidates, size, thr, ttaMode(opts.tta), T, hints, opts.flowerFinds ?? true);
    const confident = [...sure(candidates), ...outer.map((d) => d.box)];
    const first = opts.keepFirst === false ? [] : candidates.filter((d) => d.score >= thr);
    const region = zoomRegion(confident, img.width, img.height);
    const orig = region && (opts.detail ?? true) ? detailRegion(photo, img, region, confident) : null;
    // tiles too small in the raster: the region again from the full-resolution photo
    const detail = orig ? await decodeAgain(orig) : null;
    if (detail) {
      const d = detail;
      candidates = await withFinds(d, await detectIn(d, models, size, lowest, T));
      view = d;
      toOriginal = detailToOriginal(orig!, d);
      const kx = orig![2] / d.width, ky = orig![3] / d.height;
      // what the zoom pass does not find again stays, in the detail raster's pixels
      const toDetail = (b: Box): Box => {
        const [x, y, w, h] = boxToOriginal(b, img.width, img.height, photo.originalWidth, photo.originalHeight);
        return [(x - orig![0]) / kx, (y - orig![1]) / ky, w / kx, h / ky];
      };
      candidates = mergeFinds(candidates, outer.map((o) => ({ ...o, box: toDetail(o.box) })), thr);
      candidates = await firstFinds(d, models, candidates, first.map((o) => ({ ...o, box: toDetail(o.box) })), thr);
    } else if (region) {
      const part = cropRaster(img, region);
      const inner = await withFinds(part, await detectIn(part, models, size, lowest, T));
      candidates = mergeFinds(fromPart(inner, region), outer, thr);
      candidates = await firstFinds(img, models, candidates, first, thr);
    } else {
      candidates = mergeFinds(candidates, outer, thr);
    }
  }
  if (groupOrig && sure(candidates).length < 2) {
    // nothing found so far: the fine search's group, from the photo at full resolution, counts when
    // it is most of a hand
    const d = await decodeAgain(groupOrig);
    const found = d ? await detectIn(d, models, size, lowest, T) : [];
    if (d && sure(found).length >= FINE_MIN_TILES) {
      candidates = found;
      view = d;
      toOriginal = detailToOriginal(groupOrig, d);
    }
  }
  // below minScore, only peaks whose box reaches the photo's edge stay, as edge candidates
  const edgePx = (EDGE_PX * photo.originalWidth) / img.width;
  const atEdge = (b: Box) => touchesEdge(toOriginal(b), photo.originalWidth, photo.originalHeight, edgePx);
  // and, for the hand check too, weak peaks in line with the hand (besideHand)
  const sureBoxes = sure(candidates);
  const weakIdx = candidates.flatMap((d, i) => (d.score < minScore && !atEdge(d.box) ? [i] : []));
  const beside = (opts.besideRescue ?? edgeRescue) ? besideHand(weakIdx.map((i) => candidates[i]!.box), sureBoxes) : weakIdx.map(() => false);
  const besideSet = new Set(weakIdx.filter((_, j) => beside[j]));
  candidates = candidates.filter((d, i) => d.score >= minScore || atEdge(d.box) || besideSet.has(i));
  if (!candidates.some((d) => d.score >= minScore)) candidates = [];
  const result: ScanResult = { width: photo.originalWidth, height: photo.originalHeight, tiles: [] };
  if (photo.notes.length || decodeNotes.length) result.notes = [...photo.notes, ...decodeNotes];
  if (!candidates.length) {
    result.reason = 'no tiles found in the photo';
    return result;
  }
  t = now();
  opts.onProgress?.('classify', 0.5);
  const dets = candidates;
  const rasterBoxes = dets.map((d) => d.box);
  const N = dets.length;
  const { w: cw, h: ch } = modelCropSize(models);
  const crops = cropTiles(view, rasterBoxes, dets.map((d) => d.sideways), cw, ch);
  const probs = await classifyCrops(models, crops, N, ttaMode(opts.tta));
  // the tiles the photo's edge cuts: their whole boxes, completed beyond the edge (in the photo's px)
  const whole = completeCutBoxes(rasterBoxes.map(toOriginal), dets.map((d) => d.sideways), photo.originalWidth, photo.originalHeight, edgePx);
  const cut = whole.flatMap((b, i) => (b ? [i] : []));
  if (opts.cutTileView ?? true) {
    // a tile the photo's edge cuts is read again from its whole box, the two readings averaged
    // toOriginal maps each axis as o + k * v, so the unit box at the origin gives o and k
    const [ox, oy, kx, ky] = toOriginal([0, 0, 1, 1]);
    if (cut.length) {
      const boxes = cut.map((i): Box => { const [x, y, w, h] = whole[i]!; return [(x - ox) / kx, (y - oy) / ky, w / kx, h / ky]; });
      averageIn(probs, cut, await classifyCrops(models, cropTiles(view, boxes, cut.map((i) => dets[i]!.sideways), cw, ch), cut.length, ttaMode(opts.tta)));
    }
  }
  const pTile = await verifyCrops(models, crops, dets.map((d) => d.score), minScore);
  if (T) T.classify = now() - t;
  if (opts.flowerReader ?? true) {
    t = now();
    const lateNotes: string[] = [];
    const sharper = (opts.flowerDetail ?? true) && photo.detail ? sharperView(photo, rasterBoxes, toOriginal, (region, side) => decodeAgain(region, side, lateNotes, 'flowers')) : undefined;
    await readFlowers(models, view, rasterBoxes, dets.map((d) => d.sideways), probs, ttaMode(opts.tta), opts.flowerReaderWeight, CROP_MARGIN, opts.flowerStraighten ?? true, sharper);
    if (lateNotes.length) result.notes = [...(result.notes ?? []), ...lateNotes];
    if (T) T.flowers = now() - t;
  }
  t = now();
  opts.onProgress?.('layout', 0.9);
  const edgeIdx: number[] = [];
  // the detections the tile verifier sees no tile in, by index
  const noTile = new Map<number, ScannedTile>();
  const f0 = models.labels.indexOf('f1');
  const side = handSide(dets);
  const all: (ScannedTile | null)[] = dets.map((d, i) => {
    const p = probs[i];
    const [best, ...next] = topK(p, 3);
    const box = toOriginal(rasterBoxes[i]);
    const tile: ScannedTile = {
      code: models.labels[best.index] as TileCode,
      score: round(best.score * d.score, 4),
      box: box.map((v) => round(v, 1)) as ScannedTile['box'],
    };
    const alternatives = next.filter((x) => x.score >= ALT_MIN_PROB).map((x) => ({ code: models.labels[x.index] as TileCode, score: round(x.score, 4) }));
    if (alternatives.length) tile.alternatives = alternatives;
    if (d.sideways) tile.sideways = true;
    // below every threshold: a weak candidate (at the edge, or beside the hand), taken only by the hand check
    if (d.score < minScore) {
      if (best.score * d.score < EDGE_RESCUE_SCORE) return null;
      edgeIdx.push(i);
      return tile;
    }
    // weak peak: keep only when the classifier is sure it is a tile
    if (d.score < thr && best.score < RESCUE_PROB) return null;
    // the finder's own find: only a tile the classifier can read (not a domino, not the cloth)
    // (one read only as some flower: when the tile verifier is sure of it, and of the hand's size)
    if (d.finder && !keptFind(p, f0, pTile[i], d.box, side, opts.flowerFinds ?? true)) return null;
    // the tile verifier sees no tile in the box: the table's pattern, a disc, half of two tiles
    // (reported as left out, so that the player can take it back)
    if ((pTile[i] ?? 1) < VERIFY_DROP) {
      noTile.set(i, tile);
      return null;
    }
    return tile;
  });
  const edgeTiles = edgeIdx.map((i) => all[i]!);
  for (const i of edgeIdx) all[i] = null;
  // a doubtful detection mostly over tiles found surer (a box straddling two neighbours) is a second
  // look at them: set aside as the verifier's doubted detections are (the hand check may take it back)
  const straddling = new Set<number>();
  if (opts.straddling ?? true) {
    for (let i = 0; i < all.length; i++) {
      if (!all[i] || dets[i]!.score >= VERIFY_BELOW || (f0 >= 0 && flowerMass(probs[i]!, f0) >= FLOWER_LIES_APART)) continue;
      const surer = all.flatMap((t, k) => (t && k !== i && dets[k]!.score > dets[i]!.score ? [rasterBoxes[k]!] : []));
      if (straddles(rasterBoxes[i]!, surer)) straddling.add(i);
    }
    for (const i of straddling) { noTile.set(i, all[i]!); all[i] = null; }
  }
  // a lone, doubtful detection far from the hand is the table's pattern, not a tile
  const found = all.flatMap((t, i) => (t ? [i] : []));
  // ...unless the detector is sure of it, or the tile verifier is: a flower laid apart in a design the
  // classifier has never seen is read doubtfully, but is a tile
  const lone = isolatedUnsure(found.map((i) => all[i]!.box), found.map((i) => all[i]!.score))
    .map((l, j) => l && !(dets[found[j]!]!.score >= VERIFY_BELOW || (pTile[found[j]!] ?? 0) >= LONE_VERIFIED));
  const loneTiles = found.filter((_, j) => lone[j]).map((i) => all[i]!);
  found.forEach((i, j) => { if (lone[j]) all[i] = null; });
  // out of scale with the hand, or apart from it, and doubtful: probably the table, not a tile
  const live = all.flatMap((t, i) => (t ? [i] : []));
  const top = live.map((i) => Math.max(...probs[i]!));
  const stray = (opts.strayFilter ?? true)
    ? strayDetections(live.map((i) => rasterBoxes[i]!), live.map((i) => dets[i]!.score), top,
      live.map((i, j) => f0 >= 0 && flowerMass(probs[i]!, f0) >= FLOWER_LIES_APART && (dets[i]!.score >= DROP_BELOW || top[j]! >= FLOWER_APART_READ)))
    : live.map(() => false);
  let keptIdx = live;
  if (live.length && (opts.handCheck ?? true)) {
    // the strays stay out unless the hand is complete only with them; a doubtful detection
    // (DROP_BELOW) may be left out when that completes the hand, and one tile the classifier
    // cannot read (UNREAD_BELOW: an unseen design) may be read from the hand; a doubtful lone
    // face-down tile that the hand's concealed kongs cannot take is left out
    // a detection the tile verifier is sure of is a tile: a flower or a spare face-down tile lying
    // apart, which the hand does not need, is not a false detection (this holds for the
    // detections kept so far, not for the weak candidates the second look offers as strays)
    const liveSet = new Set(live);
    const verified = (i: number) => (opts.verifiedStay ?? true) && liveSet.has(i) && (pTile[i] ?? 0) >= LONE_VERIFIED;
    // with a tile the photo's edge cuts, part of the hand may lie outside the photo, which no
    // change completes: the check may change one tile (CUT_HAND_MAX_CHANGES), not more
    const cutSet = new Set(cut);
    const maxChanges = (opts.cutHandLimit ?? true) && live.some((i) => cutSet.has(i)) ? CUT_HAND_MAX_CHANGES : undefined;
    // each detection's place in reading order (layoutTiles) among those of `idx`, as first read
    const readingOrder = (idx: readonly number[]) => readingRanks(idx.map((i) => ({ box: rasterBoxes[i]!, sideways: dets[i]!.sideways, code: all[i]!.code })));
    const check = (pool: number[], strays: boolean[]) => checkHandWithStrays(pool.map((i) => probs[i]!), strays.map((s, j) => s && !verified(pool[j]!)), {
      detScores: pool.map((i) => (verified(i) ? Math.max(dets[i]!.score, DROP_BELOW) : dets[i]!.score)), unreadBelow: opts.unreadBelow ?? UNREAD_BELOW, unreadFirst: UNREAD_FIRST, dropSpareBacks: true, maxChanges,
      // which flower is which is settled afterwards (distinctFlowers), so the check spends its
      // tiles and budget on the tiles that make the hand
      flowerIdentity: !(opts.distinctFlowers ?? true),
      spareBackOk: loneBacks(pool.map((i) => rasterBoxes[i]!), pool.map((i) => all[i]!.code === 'back')),
      // a tile lying sideways beside others is a meld's claimed tile, and flowers are not claimed
      claimed: (opts.claimedTiles ?? true) ? claimedTiles(pool.map((i) => rasterBoxes[i]!)) : undefined,
      // players lay a finished hand out sorted or set by set: a mend that keeps that order is likelier
      order: (opts.handOrder ?? true) ? readingOrder(pool) : undefined,
    });
    let pool = live;
    let hc = check(pool, stray);
    // a tile the photo cuts, or a weak one in line with the hand, may be what the hand lacks: the
    // weak candidates join as strays; so do the detections the tile verifier doubted (it takes
    // some plain white dragons for the cloth), but for flowers, which no hand needs
    const doubted = [...noTile].flatMap(([i, t]) => (t.code[0] !== 'f' ? [i] : []));
    if (!hc.complete && (edgeIdx.length || doubted.length)) {
      edgeIdx.forEach((i, j) => { all[i] = edgeTiles[j]!; });
      doubted.forEach((i) => { all[i] = noTile.get(i)!; });
      const extra = [...edgeIdx, ...doubted];
      const withEdge = [...live, ...extra];
      const hc2 = check(withEdge, [...stray, ...extra.map(() => true)]);
      // taken as read: the hand check may not also change a weak candidate's class, and a weak
      // candidate in line with the hand, or a doubted one, is taken only when no other tile
      // changes or is left out
      const takenIdx = hc2.kept.filter((j) => j >= live.length).map((j) => withEdge[j]!);
      const nDoubted = takenIdx.filter((i) => doubted.includes(i)).length;
      const nEdge = takenIdx.filter((i) => !doubted.includes(i) && atEdge(dets[i]!.box)).length, nIn = takenIdx.length - nEdge - nDoubted;
      const took = hc2.complete && takenIdx.length > 0 && hc2.changed.every((j) => hc2.kept[j]! < live.length) && !((nIn || nDoubted) && (hc2.changed.length || hc2.dropped.length));
      if (took) {
        pool = withEdge;
        hc = hc2;
        // "hand check: one weak detection at ... was taken, as the hand needs it"
        const takenNote = (n: number, what: string, where: string) => `hand check: ${n === 1 ? `one ${what}` : `${n} ${what}s`} ${where} ${n === 1 ? 'was' : 'were'} taken, as the hand needs ${n === 1 ? 'it' : 'them'}`;
        const notes: string[] = [];
        if (nEdge) notes.push(takenNote(nEdge, 'weak detection', "at the photo's edge (a tile the photo cuts)"));
        if (nIn) notes.push(takenNote(nIn, 'weak detection', 'in line with the hand'));
        const nOver = takenIdx.filter((i) => straddling.has(i)).length, nVerifier = nDoubted - nOver;
        if (nVerifier) notes.push(takenNote(nVerifier, 'detection', 'that the tile verifier doubted'));
        if (nOver) notes.push(takenNote(nOver, 'detection', 'lying over tiles found already'));
        if (notes.length) result.notes = [...(result.notes ?? []), ...notes];
      }
      for (const i of extra) if (!took || !hc2.kept.some((j) => withEdge[j] === i)) all[i] = null;
    }
    keptIdx = hc.kept.map((j) => pool[j]!);
    /** Weak candidates (indices into dets, among edgeIdx) kept after all, as they were read. */
    const keepEdgeTiles = (idx: readonly number[]) => {
      for (const i of idx) {
        all[i] = edgeTiles[edgeIdx.indexOf(i)]!;
        keptIdx.push(i);
      }
    };
    if (!hc.complete && (opts.edgeKeep ?? true) && models.verifier) {
      // the hand is not complete, so part of it may lie outside the photo: a tile the photo's edge
      // cuts, beside the hand (not a pattern of the cloth at the photo's edge), that the classifier
      // reads surely and the tile verifier sees as a tile is shown, weak as it is, rather than lost
      // (the player checks an incomplete hand in any case)
      const handBoxes = keptIdx.map((i) => rasterBoxes[i]!);
      const reach = EDGE_KEEP_GAP * medianLongSide(handBoxes);
      const beside = (b: Box) => handBoxes.some((o) => boxGap(b, o) <= reach);
      const sure = edgeIdx.filter((i) => all[i] === null && atEdge(dets[i]!.box) && beside(rasterBoxes[i]!) && Math.max(...probs[i]!) >= EDGE_KEEP_PROB);
      const pEdge = sure.length ? await tileProbs(models.verifier, pickCrops(crops, sure, cw * ch), sure.length, ch, cw) : [];
      const more = sure.filter((_, j) => pEdge[j]! >= EDGE_KEEP_VERIFIED);
      keepEdgeTiles(more);
      if (more.length) result.notes = [...(result.notes ?? []), `${more.length === 1 ? 'one tile' : `${more.length} tiles`} at the photo's edge, seen weakly, ${more.length === 1 ? 'was' : 'were'} kept, as the hand is not complete (part of it may lie outside the photo)`];
    }
    if (hc.complete) {
      completeHands.add(result);
      // weak candidates in line with the hand, read as face-down tiles surely enough, that continue a
      // row of kept face-down tiles (the wall): spare tiles, outside the hand
      const backK = models.labels.indexOf('back');
      const weakBacks = edgeIdx.flatMap((i, j) => (all[i] === null && besideSet.has(i) && edgeTiles[j]!.code === 'back' && probs[i]![backK]! * dets[i]!.score >= WALL_BACK_SCORE ? [i] : []));
      const inRow = rowOfBacks(weakBacks.map((i) => rasterBoxes[i]!), keptIdx.filter((i) => all[i]!.code === 'back').map((i) => rasterBoxes[i]!));
      const more = weakBacks.filter((_, j) => inRow[j]);
      keepEdgeTiles(more);
      if (more.length) result.notes = [...(result.notes ?? []), `${more.length === 1 ? 'one weak face-down tile' : `${more.length} weak face-down tiles`} in a row of face-down tiles ${more.length === 1 ? 'was' : 'were'} kept (spare tiles, not part of the hand)`];
    }
    // the hand check's reading of kept tile j as class k; what it was read as comes first among the alternatives
    const readAs = (j: number, k: number) => {
      const i = keptIdx[j]!, tile = all[i]!, p = probs[i]!;
      const was = { code: tile.code, score: round(p[models.labels.indexOf(tile.code)]!, 4) };
      tile.code = models.labels[k] as TileCode;
      tile.score = round(p[k]! * dets[i]!.score, 4);
      tile.alternatives = [was, ...(tile.alternatives ?? []).filter((a) => a.code !== tile.code && a.code !== was.code)].slice(0, 2);
      tile.handCheck = true;
    };
    for (const j of hc.changed) readAs(j, hc.classes[j]!);
    if (hc.changed.length) {
      result.notes = [...(result.notes ?? []), `hand check: ${hc.changed.length === 1 ? 'one tile was' : `${hc.changed.length} tiles were`} changed so that the tiles make a complete hand`];
    }
    // a pung read doubtfully as an honour, with some weight on the bamboo 1: the set's bird
    const birds = (opts.birdPungs ?? true) ? birdPungs(keptIdx.map((i) => probs[i]!), hc.classes, hc.complete) : [];
    for (const j of birds) readAs(j, UNREAD_FIRST[0]!);
    if (birds.length) result.notes = [...(result.notes ?? []), `hand check: ${birds.length} tiles read doubtfully as one honour were read as the 1 of bamboo (a set of the photo's bird)`];
    // a set has four of each tile kind and eight flowers and seasons, and one of each flower:
    // tiles read as the same flower or season are told apart; the kept tiles read again as such a
    // rule moves them, with a note
    const readAgain = (rule: typeof distinctFlowers, what: (n: number) => string, setHas: string) => {
      const moves = rule(keptIdx.map((i) => probs[i]!), keptIdx.map((i) => models.labels.indexOf(all[i]!.code)));
      for (const { index, k } of moves) readAs(index, k);
      if (moves.length) result.notes = [...(result.notes ?? []), `hand check: ${what(moves.length)} read again, as a set has ${setHas}`];
    };
    // a hand the check could not complete (a tile missed, or part of the hand outside the photo)
    // whose tiles are out of reading order: one cheap change that puts them in order (orderMend)
    if ((opts.handOrder ?? true) && !hc.complete) {
      const moves = orderMend(keptIdx.map((i) => probs[i]!), keptIdx.map((i) => models.labels.indexOf(all[i]!.code)), readingOrder(keptIdx));
      for (const { index, k } of moves) readAs(index, k);
      if (moves.length) result.notes = [...(result.notes ?? []), 'hand check: one tile was read as its next guess, which lays the tiles out in order (sorted, or set by set)'];
    }
    if (opts.atMostFour ?? true) readAgain(atMostFour, (n) => (n === 1 ? 'one tile was' : `${n} tiles were`), 'four of each tile and eight flowers and seasons');
    if (opts.distinctFlowers ?? true) readAgain(distinctFlowers, (n) => (n === 1 ? 'one flower or season was' : `${n} flowers or seasons were`), 'one of each');
    const taken = new Set(keptIdx);
    const left = live.filter((i) => !taken.has(i)).length;
    if (left) result.notes = [...(result.notes ?? []), `hand check: ${left === 1 ? 'one doubtful detection was' : `${left} doubtful detections were`} left out, as the tiles make a complete hand without ${left === 1 ? 'it' : 'them'}`];
  } else {
    keptIdx = live.filter((_, j) => !stray[j]);
  }
  if (loneTiles.length) {
    const n = loneTiles.length;
    result.notes = [...(result.notes ?? []), `${n === 1 ? 'one doubtful detection' : `${n} doubtful detections`} far from the other tiles ${n === 1 ? 'was' : 'were'} left out`];
  }
  // the doubted detections the hand check did not take back
  const noTileLeft = [...noTile].flatMap(([i, t]) => (all[i] === null ? [t] : []));
  const nOver = [...straddling].filter((i) => all[i] === null).length, nNone = noTileLeft.length - nOver;
  // "one doubtful detection that shows no tile was left out"
  const leftOutNote = (n: number, what: string) => `${n === 1 ? 'one doubtful detection' : `${n} doubtful detections`} ${what} ${n === 1 ? 'was' : 'were'} left out`;
  if (nNone) result.notes = [...(result.notes ?? []), leftOutNote(nNone, `that ${nNone === 1 ? 'shows' : 'show'} no tile`)];
  if (nOver) result.notes = [...(result.notes ?? []), leftOutNote(nOver, 'lying over tiles found already')];
  const kept = new Set(keptIdx);
  const leftOut = [...loneTiles, ...noTileLeft, ...live.filter((i) => !kept.has(i)).map((i) => all[i]!)].map((t) => ({ code: t.code, score: t.score, box: t.box }));
  if (leftOut.length) result.leftOut = leftOut;
  const tiles = keptIdx.map((i) => all[i]!);
  if (!tiles.length) {
    result.reason = 'no tiles found in the photo';
    return result;
  }
  const lay = layoutTiles(tiles);
  const remap = new Map<number, number>();
  lay.order.forEach((i, k) => remap.set(i, k));
  result.tiles = lay.order.map((i) => ({ ...tiles[i], row: lay.row[i], group: lay.group[i] }));
  if (opts.probs) opts.probs.push(...lay.order.map((i) => Array.from(probs[keptIdx[i]!]!)));
  result.groups = lay.groups.map((g) => ({ ...g, tiles: g.tiles.map((i) => remap.get(i)!) }));
  if (T) T.layout = now() - t;
  return result;
}

/** The crops a typical hand gives the classifier at once (primeModels). */
export const PRIME_CROPS = 16;

/**
 * A grey raster of a 4:3 photo decoded at 1024 px, for primeModels: as Node's decode gives it (RGB
 * bytes) or as the browser's does (RGBA from a canvas), so that the JavaScript that cuts the inputs
 * runs on the kind of raster the scans will give it.
 */
export function primeRaster(kind: 'node' | 'browser' = 'node'): RasterImage {
  const width = 1024, height = 768;
  return kind === 'node'
    ? { width, height, channels: 3, data: new Uint8Array(width * height * 3).fill(128) }
    : { width, height, channels: 4, data: new Uint8ClampedArray(width * height * 4).fill(128) };
}

/**
 * The inputs a scan of a 4:3 photo gives each model, cut from a raster (primeRaster) as a scan cuts them
 * (so that the letterbox and the crop cutting run too): the detector's letterbox at DET_SIZE, the
 * finder's at FINDER_COARSE_SIZE, a hand's PRIME_CROPS crops for the classifier, and two crops
 * for the second classifier, the verifier and each flower reader.
 */
export function primeInputs(m: Models, img: RasterImage = primeRaster()): { session: OrtSession; data: Float32Array; dims: number[] }[] {
  const { w, h } = modelCropSize(m);
  const boxes = (n: number): Box[] => Array.from({ length: n }, (_, i) => [40 + i * 58, 300, 54, 72]);
  const crops = (s: OrtSession | undefined, n: number, cw: number, ch: number) =>
    s ? [{ session: s, data: cropTiles(img, boxes(n), Array(n).fill(false), cw, ch), dims: [n, 3, ch, cw] }] : [];
  const lb = (s: OrtSession | undefined, side: number) => {
    if (!s) return [];
    const l = letterbox(img, side);
    return [{ session: s, data: l.data, dims: [...l.dims] }];
  };
  return [
    ...lb(m.detector, DET_SIZE),
    ...lb(m.finder, FINDER_COARSE_SIZE),
    ...crops(m.classifier, PRIME_CROPS, w, h),
    ...crops(m.classifier2, 2, w, h),
    ...crops(m.verifier, 2, w, h),
    ...crops(m.flowers, 2, FLOWER_W, FLOWER_H),
    ...crops(m.flowers2, 2, FLOWER_W, FLOWER_H),
  ];
}

/**
 * Runs every model once on the inputs of a scan (primeInputs). The wasm engine compiles a kernel
 * well only once it has run for a while, the runtime plans memory per input shape, and the
 * JavaScript that cuts the inputs is compiled as it runs: after loading (and its tiny warm-up
 * runs) the first scan took 2-3 times as long as later ones (`npm run bench:first`). The app's
 * worker primes while the player frames the photo.
 */
export async function primeModels(m: Models, img?: RasterImage): Promise<void> {
  for (const { session, data, dims } of primeInputs(m, img)) await session.run({ [session.inputNames[0]!]: floatTensor(data, dims) });
}

/** The tile verifier's p(tile) of a whole picture of one tile from which the picture is read whole. */
export const ONE_TILE_WHOLE = 0.5;
/** The flower readers' crop of a picture of one tile read whole (classifyTileImage): its middle, this
 * share of its width and height. Such a picture is framed by the photographer, often with some of
 * the table and the neighbouring tiles round the face, where the readers were trained on crops cut
 * close round a tile's box. Measured with `eval:vision -- --tiles` on 800 single flowers each
 * (stop 53): held-out designs 0.9313 -> 0.9475 (0.9 and 0.8: 0.9475, 0.9500), plain designs
 * 0.9700 -> 0.9688. A box from the detectors keeps the scenes' margin: on the true boxes of
 * scenes' flowers, cutting closer read worse (close-holdout 0.987 -> 0.947 at 0.9). */
export const WHOLE_TILE_FLOWER_MARGIN = 0.85;
/** The most boxes of a picture of one tile that are read (oneTileBoxes, surest first). */
export const ONE_TILE_TRIES = 6;
/** When no detection of a picture of one tile is sure (DET_THRESHOLD), the boxes scoring this much
 * are tried instead: a face-down tile or a blank white dragon alone on the table. */
export const ONE_TILE_WEAK = 0.2;

/**
 * A picture of one tile; top-k classes (both ways up averaged, as tiles lie either way). A photo with
 * the table round the tile is read from the tile's box: the detector and the finder look at the
 * normal and the zoomed-out fits (a photo of one tile is a close-up), each box of oneTileBoxes is
 * read (the sure ones, or when none is sure those scoring ONE_TILE_WEAK), and the surest reading is
 * taken. A picture cut to the tile (no box, a box that fills it, or the tile verifier sees a tile
 * in the whole picture) is read whole, and a flower in it from its middle (WHOLE_TILE_FLOWER_MARGIN).
 */
export async function classifyTileImage(img: RasterImage, models: Models, k = 3, tta: boolean | TtaMode = 'all'): Promise<{ code: TileCode; score: number }[]> {
  const { w, h } = modelCropSize(models);
  const dets: Detection[] = [];
  for (const fit of [1, ZOOM_OUT_FIT, ZOOM_OUT_FIT_FAR]) {
    dets.push(...(await detectIn(img, models, DET_SIZE, ONE_TILE_WEAK, undefined, fit)));
    if (models.finder) dets.push(...(await detectIn(img, models, DET_SIZE, ONE_TILE_WEAK, undefined, fit, models.finder)));
  }
  const sure = oneTileBoxes(dets.filter((d) => d.score >= DET_THRESHOLD), img.width, img.height);
  let boxes = (sure.length ? sure : oneTileBoxes(dets, img.width, img.height)).slice(0, ONE_TILE_TRIES);
  if (boxes.length && models.verifier) {
    // the tile verifier sees a tile in the whole picture: it is cut to the tile (a detection inside it is a pip)
    const pWhole = (await tileProbs(models.verifier, cropWholeImage(img, w, h), 1, h, w))[0]!;
    if (pWhole >= ONE_TILE_WHOLE) boxes = [];
  }
  // each box the detectors give is read with the scenes' margin round it, and the surest reading is
  // the tile's; a picture cut to the tile is one box, the whole picture, with none (cropWholeImage),
  // and its flower readers read its middle
  const reads = boxes.length ? boxes : [{ box: [0, 0, img.width, img.height] as Box, sideways: img.width > img.height }];
  const [margin, flowerMargin] = boxes.length ? [CROP_MARGIN, CROP_MARGIN] : [1.0, WHOLE_TILE_FLOWER_MARGIN];
  const read = await classifyCrops(models, cropTiles(img, reads.map((d) => d.box), reads.map((d) => d.sideways), w, h, margin), reads.length, ttaMode(tta));
  const j = read.reduce((b, q, i) => (Math.max(...q) > Math.max(...read[b]!) ? i : b), 0);
  const p = read[j]!;
  await readFlowers(models, img, [reads[j]!.box], [reads[j]!.sideways], [p], ttaMode(tta), undefined, flowerMargin);
  return topK(p, k).map((x) => ({ code: models.labels[x.index] as TileCode, score: round(x.score, 4) }));
}

/** Browser-style input: RGBA ImageData (already EXIF-oriented), maybe downscaled from the original. */
export function photoFromImageData(
  data: { width: number; height: number; data: Uint8ClampedArray | Uint8Array },
  originalWidth = data.width,
  originalHeight = data.height,
  notes: string[] = [],
): DecodedPhoto {
  return { image: { width: data.width, height: data.height, data: data.data, channels: 4 }, originalWidth, originalHeight, notes };
}

function round(v: number, d: number): number {
  const f = 10 ** d;
  return Math.round(v * f) / f;
}
