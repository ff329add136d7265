/**
 * Read: the classifier's reading of each tile's crop (softmax over the tile codes), with 180-degree
 * test-time augmentation and a second classifier on the crops the first is unsure of; a tile the
 * photo's edge cuts read again from its completed box; and the tile verifier's p(tile) of the
 * doubtful detections.
 */
import { CONFIG, ttaMode, type TtaMode } from '../config.ts';
import type { PipelineOptions } from '../pipeline.ts';
import { completeCutBoxes, cropTiles } from '../preprocess.ts';
import { flowerMass, softmax } from '../postprocess.ts';
import { floatTensor, type OrtSession } from '../runtime.ts';
import { modelCropSize, type Models } from '../session.ts';
import { TILE_CODES, type Box, type DecodedPhoto, type TileCode } from '../types.ts';
import { codeIndex, combineReading, type ProfileScorer } from '../profile/combine.ts';
import { embedCrops } from '../profile/embed.ts';
import type { Found } from './find.ts';

/** The crops at `indices` of a (n, 3, H, W) batch (plane = H * W), each turned 180 degrees (channel planes reversed). */
export function turnedCrops(crops: Float32Array, indices: readonly number[], plane = CONFIG.crop.height * CONFIG.crop.width): Float32Array {
  return pickCrops(crops, indices, plane, true);
}

/** The crops at `indices` of a (n, 3, H, W) batch (plane = H * W), copied in that order; turned 180 degrees with `turn`. */
export function pickCrops(crops: Float32Array, indices: readonly number[], plane = CONFIG.crop.height * CONFIG.crop.width, turn = false): Float32Array {
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

/**
 * Softmax per crop of (n, 3, h, w) crops from `sessions` (K classes; several networks average their
 * softmaxes), with 180-degree test-time augmentation: the crops `mode` asks for (all, or those
 * whose top probability is below read.ttaConfident) are read again turned, and the two readings averaged.
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
 * from `from` (weaker ones are only the hand check's candidates) to below verify.below; undefined
 * for the others, and for all without a verifier. */
export async function verifyCrops(models: Models, crops: Float32Array, scores: readonly number[], from: number): Promise<(number | undefined)[]> {
  const out: (number | undefined)[] = scores.map(() => undefined);
  const v = models.verifier;
  const idx = scores.flatMap((s, i) => (s >= from && s < CONFIG.verify.below ? [i] : []));
  if (!v || !idx.length) return out;
  const { w, h } = modelCropSize(models);
  const p = await tileProbs(v, pickCrops(crops, idx, w * h), idx.length, h, w);
  idx.forEach((i, j) => { out[i] = p[j]!; });
  return out;
}

/** p(tile) per crop of (n, 3, h, w) crops by the tile verifier. */
export async function tileProbs(verifier: OrtSession, crops: Float32Array, n: number, h: number, w: number): Promise<number[]> {
  return (await readCrops([verifier], crops, n, h, w, 2, 'off')).map((p) => p[1]!);
}

/** Classify (n, 3, h, w) crops (modelCropSize); softmax per crop, with 180-degree test-time
 * augmentation; a second classifier (Models.classifier2) reads the crops the first is less sure of
 * than read.secondOpinionBelow, and the two average. */
export async function classifyCrops(models: Models, crops: Float32Array, n: number, mode: TtaMode, sure = CONFIG.read.secondOpinionBelow): Promise<Float32Array[]> {
  const { w, h } = modelCropSize(models);
  const f0 = models.labels.indexOf('f1');
  // with a flower reader, a crop the first classifier is sure is some flower needs no second
  // opinion: the reader tells which (turning it still pays: on val-holdout it read a turned
  // winter right, and without it, a West wind as summer)
  const confidence = models.flowers && f0 >= 0 ? (p: Float32Array) => Math.max(topProbability(p), flowerMass(p, f0)) : topProbability;
  return readCrops(models.classifier2 ? [models.classifier, models.classifier2] : [models.classifier], crops, n, h, w, models.labels.length, mode, sure, confidence);
}

/** A second reading of some crops averaged into their first: readings[at[m]] becomes the mean of
 * itself and other[m]. */
export function averageIn(readings: Float32Array[], at: readonly number[], other: readonly Float32Array[]): void {
  at.forEach((i, m) => {
    const p = readings[i]!, q = other[m]!;
    for (let k = 0; k < p.length; k++) p[k] = (p[k]! + q[k]!) / 2;
  });
}

/** The readings to read again turned 180 degrees: with `mode` 'all' every one, else (not 'off') those
 * whose top probability is below read.ttaConfident. */
export function toTurn(probs: readonly Float32Array[], mode: TtaMode): number[] {
  if (mode === 'off') return [];
  return mode === 'all' ? probs.map((_, i) => i) : probs.flatMap((p, i) => (topProbability(p) < CONFIG.read.ttaConfident ? [i] : []));
}

/** The top probability of a reading. */
export function topProbability(p: ArrayLike<number>): number {
  let m = -Infinity;
  for (let k = 0; k < p.length; k++) if (p[k]! > m) m = p[k]!;
  return m;
}

/** The read stage's output: each candidate's reading, the crops they were read from, the candidates
 * the photo's edge cuts, and the tile verifier's p(tile) of the doubtful ones. */
export interface Reading {
  /** Classifier crops of Found.dets, (n, 3, h, w) at modelCropSize. */
  crops: Float32Array;
  /** Softmax over the model's labels per candidate (mutable: later stages blend readings in). */
  probs: Float32Array[];
  /** Indices of the candidates the photo's edge cuts (completeCutBoxes). */
  cut: number[];
  /** p(tile) of the candidates scoring from minScore to below verify.below (verifyCrops). */
  pTile: (number | undefined)[];
  /** With a tile-set profile (PipelineOptions.profile): how many candidates' first guess it changed. */
  profiled?: number;
}

/**
 * A tile-set profile's bonus (combine.ts) added to the readings of (n, 3, h, w) crops, in place,
 * before any later stage sees them. Each crop is embedded by the first classifier (its `embedding`
 * output, upright and turned 180 degrees: embed.ts embedCrops). A reading whose first guess is a
 * kind the profile has no example of is left as it is (the profile cannot tell how like that kind
 * the crop is), and so is a crop near no example (bonus 0 everywhere). Returns how many first
 * guesses changed. Throws NoEmbeddingError when the classifier has no embedding output.
 */
export async function profileReadings(models: Models, crops: Float32Array, probs: Float32Array[], scorer: ProfileScorer): Promise<number> {
  const labels = models.labels;
  const at = probs.flatMap((p, i) => (scorer.kinds.has(codeIndex(labels[argMax(p)] as TileCode)) ? [i] : []));
  if (!at.length) return 0;
  const { w, h } = modelCropSize(models);
  const readings = await embedCrops(models, pickCrops(crops, at, w * h), at.length);
  // the bonus is over TILE_CODES; the readings over the models' labels
  const slot = labels.map((c) => codeIndex(c as TileCode));
  let changed = 0;
  at.forEach((i, j) => {
    const bonus = scorer(readings[j]!.views);
    if (!bonus.some((b) => b > 0)) return;
    const p = probs[i]!;
    const before = argMax(p);
    const base = new Float32Array(TILE_CODES.length);
    slot.forEach((s, k) => { base[s] = p[k]!; });
    const q = combineReading(base, bonus);
    slot.forEach((s, k) => { p[k] = q[s]!; });
    if (argMax(p) !== before) changed++;
  });
  return changed;
}

/** Index of a reading's largest probability (the first of equals). */
export function argMax(p: ArrayLike<number>): number {
  let best = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[best]!) best = k;
  return best;
}

/**
 * The read stage: every candidate's crop classified; a tile the photo's edge cuts read again from
 * its whole box completed beyond the edge, the two readings averaged (PipelineOptions.cutTileView);
 * the doubtful ones shown to the tile verifier.
 */
export async function readTiles(photo: DecodedPhoto, models: Models, opts: PipelineOptions, found: Found, minScore: number): Promise<Reading> {
  const { dets, view, toOriginal, edgePx } = found;
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
  // the club's own set, taught to a profile, weighs in before the flower readers, the verifier's
  // doubts, the hand check and the layout see the reading
  const profiled = opts.profile ? await profileReadings(models, crops, probs, opts.profile) : undefined;
  const pTile = await verifyCrops(models, crops, dets.map((d) => d.score), minScore);
  return { crops, probs, cut, pTile, ...(profiled === undefined ? {} : { profiled }) };
}
