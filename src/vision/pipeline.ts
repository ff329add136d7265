/**
 * Photo -> tiles. Environment-neutral: takes decoded pixels (from sharp in
 * Node, createImageBitmap/OffscreenCanvas in the browser) and the loaded models.
 *
 * The stages (src/vision/stages/), each reading its thresholds from CONFIG (config.ts):
 * detect (letterboxed long side 512: peaks + NMS -> boxes in raster px) -> find (again on the
 * photo shrunk, for close-ups, or at 1024 when the tiles are too few or small (fine search), then
 * zoomed in on the tiles, from the full-resolution photo (decode) when they are small in the
 * raster; the finder, a second detector, adds the lone tiles the detector scores too low) -> read
 * (crops from the raster at the classifier's input size, 48x64, sideways stood up; one batched
 * classifier call; the tile verifier) -> flowers (a second look at tiles read as flowers, 72x96
 * crops, flower readers) -> verify (doubtful detections set apart) -> hand check -> layout (rows,
 * reading order, groups; boxes in original photo px). A photo whose tiles mostly lie sideways, or
 * whose reading makes no complete hand, is read turned too (scanPhoto).
 */
import { CONFIG, type TtaMode } from './config.ts';
import { orientRaster } from './orient.ts';
import { round } from './postprocess.ts';
import type { ProfileScorer } from './profile/combine.ts';
import type { Models } from './session.ts';
import type { Box, DecodedPhoto, Detection, ScanResult } from './types.ts';
import { photoDecoder } from './stages/decode.ts';
import { detectIn, now } from './stages/detect.ts';
import { findTiles, scanSettings } from './stages/find.ts';
import { flowerStage } from './stages/flowers.ts';
import { handCheckStage } from './stages/handcheck.ts';
import { layoutStage } from './stages/layout.ts';
import { readTiles } from './stages/read.ts';
import { verifyTiles } from './stages/verify.ts';

export interface PipelineOptions {
  /** The hand check reads a tile from the hand when its first guess is below this (default handCheck.unreadBelow). */
  unreadBelow?: number;
  /** Detector input long side (multiple of 32). */
  detSize?: number;
  /** Minimum detector peak score (default detect.threshold). */
  threshold?: number;
  onProgress?: (stage: 'detect' | 'classify' | 'layout', fraction: number) => void;
  /** Keep weaker detector peaks (>= detect.rescueThreshold) when the classifier is confident. Default off:
   * on val-holdout it raised recall 0.977 -> 0.982 but lowered precision 0.973 -> 0.952 and hand exact. */
  rescue?: boolean;
  /** 180-degree test-time augmentation (default read.tta, see TtaMode). */
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
  /** The flower reader leaves alone a tile the classifier reads this surely (default flowers.trustAbove). */
  flowerTrustAbove?: number;
  /** Weight of the flower reader against the classifier (default flowers.readerWeight; 1: the reader alone). */
  flowerReaderWeight?: number;
  /** Read each flower turned flowers.straightenFrom degrees or more, and read below read.ttaConfident,
   * again stood straight, and average the two readings (readFlowers; default true). */
  flowerStraighten?: boolean;
  /** Read unsure flowers that the view shows small again from the photo's own pixels (default true;
   * flowers.detailBelow, sharperView). */
  flowerDetail?: boolean;
  /** Read each tile the photo's edge cuts again from its whole box completed beyond the edge
   * (completeCutBoxes), and average the two readings (default true). */
  cutTileView?: boolean;
  /** With a tile the photo's edge cuts (completeCutBoxes), let the hand check change at most
   * edge.cutHandMaxChanges tiles (default true). */
  cutHandLimit?: boolean;
  /** Weak detections (>= edge.rescueThreshold) of tiles the photo's edge cuts may complete an
   * incomplete hand in the hand check (default: when the hand check is on). */
  edgeRescue?: boolean;
  /** Weak detections (>= edge.rescueThreshold) beside the hand's tiles and of their size
   * (besideHand) may complete an incomplete hand in the hand check too (default: as edgeRescue). */
  besideRescue?: boolean;
  /** When the hand check finds no complete hand, edge candidates beside the hand (edge.keepGap),
   * read surely (edge.keepProb) and seen as tiles by the tile verifier (edge.keepVerified) are
   * kept (default true). */
  edgeKeep?: boolean;
  /** Let the finder (Models.finder, when the models have one) add the tiles the detector scores too
   * low, on the normal pass and the zoom pass (default true). */
  finder?: boolean;
  /** On the normal pass, when the detector's sure tiles are large (coarseFinderTiles), the finder
   * reads the raster at finder.coarseSize instead of the detector's size (default true). */
  finderCoarse?: boolean;
  /** A find (the finder's, or the look for tiles apart) the classifier is sure is some flower, though
   * not which, may be kept (keptFind; default true). */
  flowerFinds?: boolean;
  /** When nothing is found, look at the fine search's largest group of sure finds in the photo at
   * full resolution (fine.groupLink; default true). */
  fineGroup?: boolean;
  /** When the tiles fill only part of the photo, detect again on that part, zoomed in (default true). */
  zoom?: boolean;
  /** Before the zoom pass, look for tiles apart from the hand on the whole raster at outer.size
   * (outerFinds; default true; only with the zoom pass and a tile verifier). */
  outerLook?: boolean;
  /** The look for tiles apart reads only windows round the normal pass's weak peaks (outerWindows),
   * unless they cover most of the raster (default true; false: always the whole raster). */
  outerWindows?: boolean;
  /** A photo whose sure tiles mostly lie sideways (a hand photographed from the side of the table)
   * is turned a quarter and read again (turn.minTiles, turn.share; default true). */
  turnSideways?: boolean;
  /** A reading of 10-30 tiles (turn.overMinTiles, turn.overMaxTiles) whose tiles make no complete hand is
   * read again on the photo turned half round, taken when that makes one and finds more tiles or
   * scores higher (default true; with the hand check). */
  turnOver?: boolean;
  /** A doubtful detection (below verify.below, not a flower) lying across two surer detections
   * (postprocess.ts straddles) is set aside as the tile verifier's doubted detections are (default true). */
  straddling?: boolean;
  /** After the zoom pass, the normal pass's sure detections that it does not find again stay when
   * the tile verifier sees a tile in them (firstFinds; default true). */
  keepFirst?: boolean;
  /** The hand check may not leave out, as a false detection or a stray, a detection the tile
   * verifier is sure of (verify.loneVerified; default true). */
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
  /** Detect again on the photo shrunk (closeUp.fit), and keep that when its tiles are those of a
   * close-up (closeUpFit; default true). */
  zoomOut?: boolean;
  /** When the first pass finds few tiles or small ones, search the raster again at fine.size (default true). */
  fine?: boolean;
  /** Skip the fine search from this many first-pass tiles when the zoom pass decodes their region
   * again (default fine.skipAt: never). */
  fineSkipAt?: number;
  /** Where the tiles are small in the decoded raster and the photo has more pixels, zoom in on
   * the full-resolution photo (DecodedPhoto.detail; default true). */
  detail?: boolean;
  /** A club's tile-set profile (src/vision/profile): the read stage adds its bonus to each tile's
   * reading (profileReadings), so the flower readers, the hand check and the layout work on the
   * profiled reading. Without it nothing changes. */
  profile?: ProfileScorer;
  /** Filled with the class probabilities of each returned tile (in `tiles` order) when given. */
  probs?: number[][];
  /** Filled with per-stage milliseconds when given. */
  timings?: Record<string, number>;
}

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
  if (!completeHands.has(first.r) && !quarterReads.has(first.r) && n >= CONFIG.turn.overMinTiles && n <= CONFIG.turn.overMaxTiles) {
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
  const s = scanSettings(opts);
  const { T } = s;
  const img = photo.image;
  opts.onProgress?.('detect', 0);
  const decodeNotes: string[] = [];
  const decodeAgain = photoDecoder(photo, decodeNotes, T);
  // the normal pass's weak peaks, where the look for tiles apart reads again (outerFinds)
  const hints: Detection[] | undefined = opts.outerWindows === false ? undefined : [];
  const candidates = await detectIn(img, models, s.size, s.lowest, T, 1, models.detector, hints);
  if (opts.turnSideways ?? true) {
    // the networks read tiles standing up, and a hand lies with its tiles upright but for a few
    // claimed ones: when most sure tiles lie sideways, the photo was taken from the side of the table
    const sureNow = candidates.filter((d) => d.score >= s.thr);
    if (sureNow.length >= CONFIG.turn.minTiles && sureNow.filter((d) => d.sideways).length > CONFIG.turn.share * sureNow.length) {
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
  const found = await findTiles(photo, models, opts, s, candidates, hints, decodeAgain);
  const result: ScanResult = { width: photo.originalWidth, height: photo.originalHeight, tiles: [] };
  if (photo.notes.length || decodeNotes.length) result.notes = [...photo.notes, ...decodeNotes];
  if (!found.dets.length) {
    result.reason = 'no tiles found in the photo';
    return result;
  }
  let t = now();
  opts.onProgress?.('classify', 0.5);
  const reading = await readTiles(photo, models, opts, found, s.minScore);
  if (T) T.classify = now() - t;
  if (reading.profiled) result.notes = [...(result.notes ?? []), `tile-set profile: ${reading.profiled} tile${reading.profiled === 1 ? '' : 's'} read as the set was taught`];
  const lateNotes = await flowerStage(photo, models, opts, found, reading.probs, decodeAgain, T);
  if (lateNotes.length) result.notes = [...(result.notes ?? []), ...lateNotes];
  t = now();
  opts.onProgress?.('layout', 0.9);
  const verified = verifyTiles(models, opts, s, found, reading);
  const checked = await handCheckStage(models, opts, found, reading, verified);
  if (checked.complete) completeHands.add(result);
  if (checked.notes.length) result.notes = [...(result.notes ?? []), ...checked.notes];
  layoutStage(result, opts, verified, checked.keptIdx, reading.probs);
  if (T && result.tiles.length) T.layout = now() - t;
  return result;
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
