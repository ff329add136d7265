/**
 * Finds: what the finder (a second detector trained on tiles lying apart) and the look for tiles
 * apart from the hand add to the detector's candidates, and which of those finds are kept (the
 * classifier must read them, or the verifier see a flower of the hand's size).
 */
import { CONFIG, ttaMode, type TtaMode } from '../config.ts';
import type { PipelineOptions } from '../pipeline.ts';
import { clampRegion, cropRaster, cropTiles } from '../preprocess.ts';
import { flowerMass, medianLongSide } from '../postprocess.ts';
import { addedFinds, mergeFinds, outerWindows } from '../regions.ts';
import { modelCropSize, type Models } from '../session.ts';
import type { Box, Detection, RasterImage } from '../types.ts';
import { detectIn, fromPart } from './detect.ts';
import type { ScanSettings } from './find.ts';
import { classifyCrops, pickCrops, tileProbs, topProbability } from './read.ts';

/**
 * Whether a find (the finder's, or the look's for tiles apart) is kept, by the classifier's reading
 * `p`: a first guess of at least finder.read; or, with `flowers`, flower classes together of at
 * least finder.read (a flower of a design it has never seen, known for a flower but spread over the
 * eight) when the tile verifier gives it `pTile` >= verify.loneVerified and its long side is within
 * finder.flowerScale of the hand's median `handSide`, as the cloth's pattern may be flower-like.
 */
export function keptFind(p: Float32Array, f0: number, pTile: number | undefined, box: Box, handSide: number, flowers = true): boolean {
  if (topProbability(p) >= CONFIG.finder.read) return true;
  if (!flowerOnly(p, f0, flowers) || (pTile ?? 0) < CONFIG.verify.loneVerified) return false;
  const side = Math.max(box[2], box[3]);
  return side >= CONFIG.finder.flowerScale * handSide && side * CONFIG.finder.flowerScale <= handSide;
}
/** The finds that may be kept only as some flower (keptFind), for which the tile verifier is asked. */
export function flowerOnly(p: Float32Array, f0: number, flowers: boolean): boolean {
  return flowers && f0 >= 0 && topProbability(p) < CONFIG.finder.read && flowerMass(p, f0) >= CONFIG.finder.read;
}

/** Whether the sure tiles (at least two) are large enough for the coarse finder (finder.coarseFrom). */
export function coarseFinderTiles(sure: readonly Box[]): boolean {
  return sure.length >= 2 && medianLongSide(sure) >= CONFIG.finder.coarseFrom;
}

/**
 * After the zoom pass, the normal pass's sure detections (`first`, in `view`'s pixels) that the
 * zoom pass did not find again, or found only weakly (mergeFinds), when the tile verifier sees a
 * tile in them (verify.loneVerified): a framed white dragon that the zoom pass's larger view loses, but
 * not a domino or a coin that only the smaller view took for a tile. Only when the zoom pass found
 * at least two sure tiles; without a verifier, none.
 */
export async function firstFinds(view: RasterImage, models: Models, candidates: Detection[], first: readonly Detection[], thr: number): Promise<Detection[]> {
  // only beside a hand that the zoom pass found (as outerFinds): not a domino's half in a photo of none
  if (!models.verifier || !first.length || candidates.filter((d) => d.score >= thr).length < 2) return candidates;
  const lost = addedFinds(candidates, first, thr);
  if (!lost.length) return candidates;
  const { w, h } = modelCropSize(models);
  const pTile = await tileProbs(models.verifier, cropTiles(view, lost.map((d) => d.box), lost.map((d) => d.sideways), w, h), lost.length, h, w);
  return mergeFinds(candidates, lost.filter((_, j) => pTile[j]! >= CONFIG.verify.loneVerified), thr);
}

/**
 * Tiles lying apart from the hand (flowers laid aside, a lone face-down tile) that the detector and
 * the finder miss at `size`, where they are a few pixels wide: the detector on the raster at
 * outer.size (given the normal pass's weak peaks, `hints`, only in windows round those that no sure
 * tile covers: outerWindows; the whole raster when they cover most of it), its detections of at
 * least `thr` that no candidate covers (mergeFinds) and that are
 * of the size of the sure tiles (within stray.scale of their median; at least two sure tiles), kept
 * when the classifier can read them (finder.read) and the tile verifier sees a tile (verify.loneVerified). Marked
 * as finds (`finder`), so that the pipeline's checks of finds apply to them too. None without a
 * verifier, when the raster is not larger than `size`, or when the sure tiles are smaller than
 * fine.below of the raster (a hand shot from far off, which the fine search looked at already).
 */
export async function outerFinds(img: RasterImage, models: Models, candidates: readonly Detection[], size: number, thr: number, mode: TtaMode, T?: Record<string, number>, hints?: readonly Detection[], flowers = true): Promise<Detection[]> {
  const side = Math.min(CONFIG.outer.size, Math.ceil(Math.max(img.width, img.height) / 32) * 32);
  if (!models.verifier || side <= size) return [];
  // only beside a hand: tiles of its size (stray.scale), as the tiles of one set are
  const sure = candidates.filter((d) => d.score >= thr).map((d) => d.box);
  if (sure.length < 2) return [];
  const tile = medianLongSide(sure);
  // tiles this small: the fine search has looked at the whole raster at fine.size already
  if (tile / Math.max(img.width, img.height) < CONFIG.fine.below) return [];
  const ofSize = (b: Box) => Math.max(b[2], b[3]) <= tile * CONFIG.stray.scale && Math.max(b[2], b[3]) * CONFIG.stray.scale >= tile;
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
  return fresh.filter((d, j) => keptFind(read[j]!, models.labels.indexOf('f1'), pTile[j], d.box, tile, flowers) && pTile[j]! >= CONFIG.verify.loneVerified);
}

/**
 * The finder's finds in `candidates` (on `img`) that the classifier cannot read (a domino, the
 * cloth), left out before the zoom pass, whose region they would widen: a find is kept as keptFind
 * says, one read only as some flower shown to the tile verifier when it scores below verify.below.
 */
export async function unreadFindsLeftOut(img: RasterImage, models: Models, candidates: Detection[], opts: PipelineOptions, s: ScanSettings): Promise<Detection[]> {
  const finds = candidates.flatMap((d, i) => (d.finder ? [i] : []));
  if (!finds.length) return candidates;
  const { w: cw, h: ch } = modelCropSize(models);
  const crops = cropTiles(img, finds.map((i) => candidates[i]!.box), finds.map((i) => candidates[i]!.sideways), cw, ch);
  const read = await classifyCrops(models, crops, finds.length, ttaMode(opts.tta));
  // one read only as some flower is shown to the tile verifier, as at the end (below verify.below)
  const f0 = models.labels.indexOf('f1'), flowers = opts.flowerFinds ?? true;
  const ask = finds.flatMap((i, j) => (candidates[i]!.score < CONFIG.verify.below && flowerOnly(read[j]!, f0, flowers) ? [j] : []));
  const pTile: (number | undefined)[] = finds.map(() => undefined);
  if (ask.length && models.verifier) {
    const p = await tileProbs(models.verifier, pickCrops(crops, ask, cw * ch), ask.length, ch, cw);
    ask.forEach((j, m) => { pTile[j] = p[m]; });
  }
  const side = handSide(candidates, s.thr);
  const unread = new Set(finds.filter((i, j) => !keptFind(read[j]!, f0, pTile[j], candidates[i]!.box, side, flowers)));
  return candidates.filter((_, i) => !unread.has(i));
}

/** The median long side of the detector's own sure tiles (keptFind's `handSide`). */
export const handSide = (ds: Detection[], thr: number) => medianLongSide(ds.filter((d) => d.score >= thr && !d.finder).map((d) => d.box));
