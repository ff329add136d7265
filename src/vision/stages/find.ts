/**
 * Find: the detector's candidates after its first pass, searched again where they are too large
 * (close-up: the photo shrunk), too small (fine search, the zoom pass on their region, from the
 * full-resolution photo when it has more pixels) or too few (the finder, the look for tiles
 * apart), then cut to the candidates the later stages read: the detections of at least
 * `minScore`, and below it only the weak ones at the photo's edge or beside the hand.
 */
import { CONFIG, ttaMode } from '../config.ts';
import type { PipelineOptions } from '../pipeline.ts';
import { besideHand } from '../doubtful.ts';
import { cropRaster, touchesEdge } from '../preprocess.ts';
import { boxToOriginal, medianLongSide } from '../postprocess.ts';
import { closeUpFit, closeUpPossible, farViewTaken, largestGroup, mergeFinds, zoomRegion } from '../regions.ts';
import type { Models } from '../session.ts';
import type { Box, DecodedPhoto, Detection, RasterImage } from '../types.ts';
import { detailRegion, detailToOriginal, type PhotoDecoder } from './decode.ts';
import { detectIn, fromPart } from './detect.ts';
import { coarseFinderTiles, firstFinds, outerFinds, unreadFindsLeftOut } from './finds.ts';

/** A scan's detection thresholds, from its options (scanSettings). */
export interface ScanSettings {
  /** Detector input long side (PipelineOptions.detSize). */
  size: number;
  /** A sure detection's score (PipelineOptions.threshold). */
  thr: number;
  /** The lowest score of a detection kept as such (below `thr` with PipelineOptions.rescue). */
  minScore: number;
  /** Whether weak candidates at the photo's edge (and beside the hand) may complete the hand. */
  edgeRescue: boolean;
  /** The lowest peak score decoded: `minScore`, or edge.rescueThreshold with `edgeRescue`. */
  lowest: number;
  /** Per-stage milliseconds (PipelineOptions.timings). */
  T?: Record<string, number>;
}

export function scanSettings(opts: PipelineOptions): ScanSettings {
  const thr = opts.threshold ?? CONFIG.detect.threshold;
  const rescue = opts.rescue ?? false;
  const minScore = rescue ? Math.min(thr, CONFIG.detect.rescueThreshold) : thr;
  const edgeRescue = opts.edgeRescue ?? (opts.handCheck ?? true);
  const lowest = edgeRescue ? Math.min(minScore, CONFIG.edge.rescueThreshold) : minScore;
  return { size: opts.detSize ?? CONFIG.detect.size, thr, minScore, edgeRescue, lowest, T: opts.timings };
}

/** The candidates the find stage gives, in the pixels of `view`, the raster they are read from. */
export interface Found {
  dets: Detection[];
  view: RasterImage;
  /** `view`'s pixels to the original photo's. */
  toOriginal: (b: Box) => Box;
  /** A box this close (raster px of the photo's decode, scaled to the photo) to its edge reaches it. */
  edgePx: number;
  /** Whether a box (in `view`'s pixels) reaches the photo's edge. */
  atEdge: (b: Box) => boolean;
  /** The weak candidates beside the hand (besideHand), by their index before the weak ones were cut. */
  besideSet: Set<number>;
}

/**
 * The find stage: from the first pass's detections (`candidates`, on `photo.image` at `s.size`;
 * `hints`, its weak peaks, or undefined when not gathered), every later search, then the candidates
 * cut as the module says (none when none reaches `minScore`).
 */
export async function findTiles(photo: DecodedPhoto, models: Models, opts: PipelineOptions, s: ScanSettings, candidates: Detection[], hints: Detection[] | undefined, decodeAgain: PhotoDecoder): Promise<Found> {
  const img = photo.image;
  const { size, thr, lowest, T } = s;
  const sure = (ds: Detection[]) => ds.filter((d) => d.score >= thr).map((d) => d.box);
  const close = await closeUpPass(img, models, opts, s, candidates);
  candidates = close.candidates;
  const zoomedOut = close.zoomedOut;
  const fine = zoomedOut ? { candidates, fineTaken: false, groupOrig: null } : await fineSearch(photo, models, opts, s, candidates);
  candidates = fine.candidates;
  const { fineTaken, groupOrig } = fine;
  // the raster the tiles are cut from, and its boxes in the original photo's px
  let view = img;
  let toOriginal = (b: Box): Box => boxToOriginal(b, img.width, img.height, photo.originalWidth, photo.originalHeight);
  // the finder (Models.finder), a second detector trained on tiles lying apart, adds what the
  // first scores too low (a flower laid aside) on the same view; the first's boxes stand (mergeFinds)
  const finder = (opts.finder ?? true) && !zoomedOut && !fineTaken ? models.finder : undefined;
  const withFinds = async (on: RasterImage, ds: Detection[], weak?: Detection[], at = size) => (finder ? mergeFinds(ds, await detectIn(on, models, at, lowest, T, 1, finder, weak), thr) : ds);
  // on the normal pass, with tiles of finder.coarseFrom px and more, the finder reads the raster coarser
  const coarse = (opts.finderCoarse ?? true) && coarseFinderTiles(sure(candidates));
  candidates = await withFinds(img, candidates, hints, coarse ? Math.min(size, CONFIG.finder.coarseSize) : size);
  // a find the classifier cannot read (a domino, the cloth) would widen the zoom pass's region
  // (it is read again, and dropped, with the other tiles when there is no zoom pass)
  if (finder && (opts.zoom ?? true)) candidates = await unreadFindsLeftOut(img, models, candidates, opts, s);
  if (!zoomedOut && (opts.zoom ?? true)) {
    // a tile lying apart (a flower laid aside) may be too small at `size` for either detector, and
    // so left out of the zoom region: a look at outer.size round the normal pass's weak peaks finds it
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
    if (d && sure(found).length >= CONFIG.fine.minTiles) {
      candidates = found;
      view = d;
      toOriginal = detailToOriginal(groupOrig, d);
    }
  }
  return weakCut(photo, opts, s, candidates, view, toOriginal);
}

/**
 * A close-up: tiles larger than the detector was trained on are found on the photo shrunk (not
 * looked for when the normal pass found a hand of small tiles: closeUpPossible).
 */
async function closeUpPass(img: RasterImage, models: Models, opts: PipelineOptions, s: ScanSettings, candidates: Detection[]): Promise<{ candidates: Detection[]; zoomedOut: boolean }> {
  const { size, thr, lowest, T } = s;
  const sure = (ds: Detection[]) => ds.filter((d) => d.score >= thr).map((d) => d.box);
  if (!((opts.zoomOut ?? true) && closeUpPossible(sure(candidates), img.width, img.height))) return { candidates, zoomedOut: false };
  const outer = await detectIn(img, models, size, lowest, T, CONFIG.closeUp.fit);
  const outerFound = sure(outer).length > 0;
  const fit = closeUpFit(sure(outer), sure(candidates), img.width, img.height);
  if (fit === CONFIG.closeUp.fit) return { candidates: outer, zoomedOut: true };
  if (fit === CONFIG.closeUp.fitFar) {
    const far = await detectIn(img, models, size, lowest, T, CONFIG.closeUp.fitFar);
    if (farViewTaken(outerFound, sure(far), img.width, img.height)) return { candidates: far, zoomedOut: true };
    if (outerFound) return { candidates: outer, zoomedOut: true };
  }
  return { candidates, zoomedOut: false };
}

/**
 * Tiles too small for the detector at `size` (a hand shot from far off): the raster searched at
 * fine.size, taken when it finds more (most of a hand after an almost empty first pass); else, after
 * an almost empty first pass, where the photo shows its largest group of sure finds at full
 * resolution (`groupOrig`, looked at after the zoom pass).
 */
async function fineSearch(photo: DecodedPhoto, models: Models, opts: PipelineOptions, s: ScanSettings, candidates: Detection[]): Promise<{ candidates: Detection[]; fineTaken: boolean; groupOrig: Box | null }> {
  const img = photo.image;
  const { size, thr, lowest, T } = s;
  const sure = (ds: Detection[]) => ds.filter((d) => d.score >= thr).map((d) => d.box);
  const none = { candidates, fineTaken: false, groupOrig: null };
  if (!((opts.fine ?? true) && Math.max(img.width, img.height) > size)) return none;
  const confident = sure(candidates);
  const skipAt = opts.fineSkipAt ?? CONFIG.fine.skipAt;
  const region = skipAt > 0 && confident.length >= skipAt && (opts.zoom ?? true) && (opts.detail ?? true) ? zoomRegion(confident, img.width, img.height) : null;
  const zoomFinds = !!region && !!detailRegion(photo, img, region, confident);
  if (zoomFinds || !(confident.length < 2 || medianLongSide(confident) / Math.max(img.width, img.height) < CONFIG.fine.below)) return none;
  const fine = await detectIn(img, models, Math.min(CONFIG.fine.size, Math.ceil(Math.max(img.width, img.height) / 32) * 32), lowest, T);
  // with (almost) nothing found first, only most of a hand counts: a table's pattern gives a few peaks
  const enough = confident.length < 2 ? CONFIG.fine.minTiles : confident.length + 1;
  if (sure(fine).length >= enough) return { candidates: fine, fineTaken: true, groupOrig: null };
  if (confident.length < 2 && (opts.fineGroup ?? true) && (opts.zoom ?? true) && (opts.detail ?? true)) {
    // a few sure finds together: perhaps a hand, too small to be scored surely (looked at later)
    const finds = fine.filter((d) => d.score >= thr).map((d) => d.box);
    const seeds = largestGroup(finds, CONFIG.fine.groupLink).map((k) => finds[k]!);
    // only where the photo itself has more pixels to show (detailRegion)
    const region = seeds.length >= CONFIG.fine.groupMin ? zoomRegion(seeds, img.width, img.height) : null;
    const orig = region ? detailRegion(photo, img, region, seeds) : null;
    if (orig) return { ...none, groupOrig: orig };
  }
  return none;
}

/**
 * Below minScore, only peaks whose box reaches the photo's edge stay, as edge candidates, and, for
 * the hand check too, weak peaks in line with the hand (besideHand); none at all when no candidate
 * reaches minScore.
 */
function weakCut(photo: DecodedPhoto, opts: PipelineOptions, s: ScanSettings, candidates: Detection[], view: RasterImage, toOriginal: (b: Box) => Box): Found {
  const img = photo.image;
  const edgePx = (CONFIG.detect.edgePx * photo.originalWidth) / img.width;
  const atEdge = (b: Box) => touchesEdge(toOriginal(b), photo.originalWidth, photo.originalHeight, edgePx);
  const sureBoxes = candidates.filter((d) => d.score >= s.thr).map((d) => d.box);
  const weakIdx = candidates.flatMap((d, i) => (d.score < s.minScore && !atEdge(d.box) ? [i] : []));
  const beside = (opts.besideRescue ?? s.edgeRescue) ? besideHand(weakIdx.map((i) => candidates[i]!.box), sureBoxes) : weakIdx.map(() => false);
  const besideSet = new Set(weakIdx.filter((_, j) => beside[j]));
  let dets = candidates.filter((d, i) => d.score >= s.minScore || atEdge(d.box) || besideSet.has(i));
  if (!dets.some((d) => d.score >= s.minScore)) dets = [];
  return { dets, view, toOriginal, edgePx, atEdge, besideSet };
}
