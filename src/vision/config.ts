/**
 * Every threshold and size the recognition pipeline is tuned by, in one typed, frozen object
 * (CONFIG), grouped by stage. Each entry says what it means and the measurement that set it;
 * model/PIPELINE.md tells the whole story. "Raster px" are pixels of the decoded (maybe shrunk)
 * photo the networks read; scores are probabilities in [0, 1].
 */
import { laterStages } from './config-later.ts';

/** 'all': classify every crop also turned 180 degrees and average the probabilities;
 * 'uncertain': only crops the first pass is not sure of (top probability < read.ttaConfident);
 * 'off' (or false): one pass. true means 'all'. */
export type TtaMode = 'all' | 'uncertain' | 'off';

/** The networks' input crops: fixed by the trained models, not tuned. */
const crop = {
  /** Classifier, verifier crop width (px; session.ts modelCropSize falls back to it). */
  width: 48,
  /** Classifier, verifier crop height (px). */
  height: 64,
  /** Crop width of the flower reader (model/flowers.onnx), which looks again at tiles read as flowers. */
  flowerWidth: 72,
  /** Crop height of the flower reader. */
  flowerHeight: 96,
  /** The classifier sees the detected box enlarged by this factor. */
  margin: 1.08,
  /** cropTiles, cutting a turned tile straight, enlarges the tile's own box it estimates by this
   * factor (within the detected box): the detected box holds the tile's body too. 1.3 read the most
   * held-out flowers right of 1.15, 1.3, 1.45 and 1.6 (model/HISTORY.md, stop 44). */
  turnedEnlarge: 1.3,
  /** A box cut by the photo's edge is completed (completeCutBoxes) when it is shorter than the
   * hand's typical tile by more than this fraction along the cut side. */
  cutShortBy: 0.05,
  /** The letterbox's grey round the photo, in [0, 1]. */
  padValue: 0.5,
};

const config = {
  crop,
  detect: {
    /** Detector input long side (raster px, a multiple of 32). */
    size: 512,
    /** Minimum detector peak score (chosen for the shipped detector on val-holdout and grid-holdout,
     * 0.45 up to detector phase 4; verify.isolatedBelow must stay above it). */
    threshold: 0.5,
    /** With PipelineOptions.rescue, weaker peaks down to this score are kept when the classifier is
     * confident (>= rescueProb). Off by default: on val-holdout it raised recall 0.977 -> 0.982 but
     * lowered precision 0.973 -> 0.952 and hand exact. */
    rescueThreshold: 0.3,
    /** ...the classifier's top probability a rescued weak peak needs. */
    rescueProb: 0.9,
    /** The detector's output stride (heatmap cell in tensor px): fixed by the model. */
    stride: 4,
    /** Most detections one pass keeps (after NMS, surest first). A whole set laid out for a photo is
     * 144 tiles; the cap only bounds the work on a photo of some pattern that peaks everywhere. Up
     * to stop 48 it was 64, and such a set lost the rest (biggrid-holdout recall 0.8539 -> 0.9931
     * at 256, no other set changed). */
    maxDetections: 256,
    /** A box this close (raster px) to the photo's edge reaches it. */
    edgePx: 2,
  },
  closeUp: {
    /**
     * Close-ups. The detector was trained on tiles up to about a sixth of the photo's long side; a
     * photo of a few tiles from close by shows them up to half of it, and the detector then misses
     * them or finds parts of them. Every photo is therefore also searched shrunk to `fit` of the
     * detector's input (centred, grey round it). When the median tile found there is at least
     * `take` of the photo's long side and the normal pass failed on those tiles (closeUpFit), the
     * photo is a close-up and those detections are taken instead; from `far` on, the photo is
     * searched again shrunk to `fitFar`. Chosen on close-tune (generator --close-ups, training
     * styles), none of them changing a scene of val-holdout or grid-holdout; see model/PIPELINE.md.
     */
    fit: 0.5,
    /** See `fit`: the shrunk view's median tile, as a share of the long side, that makes a close-up. */
    take: 0.22,
    /** See `fit`: the normal pass found the large tiles whole when its median is this share of theirs. */
    same: 0.95,
    /** See `fit`: from this median tile share on, the photo is searched shrunk to `fitFar`. */
    far: 0.35,
    /** See `fit`: the second, smaller fit. */
    fitFar: 0.35,
    /** The zoom-out pass is skipped when the normal pass found at least `skipCount` sure tiles
     * whose median long side is under `skipBelow` of the photo's long side: a hand of small tiles,
     * not a close-up. Where closeUpFit took the shrunk view on close-tune and close-holdout, the
     * normal pass had found fewer tiles, or tiles of 0.133 of the long side or more
     * (model/HISTORY.md, stop 36). */
    skipCount: 4,
    /** See `skipCount`. */
    skipBelow: 0.11,
  },
  zoom: {
    /** Smallest zoom worth a second detector pass on the tiles' region (zoomRegion). */
    minGain: 1.3,
    /** Largest zoom used. */
    maxGain: 3,
  },
  fine: {
    /** Detector input long side of the fine search (PipelineOptions.fine). */
    size: 1024,
    /** The fine search runs when the first pass finds under two tiles, or tiles whose median long
     * side is under this fraction of the photo's long side. */
    below: 0.045,
    /** When the first pass found under two tiles, the fine search must find at least this many: a
     * hand has 14 or more, and on the empty tables of the held-out sets it found at most 8
     * (model/PIPELINE.md). */
    minTiles: 10,
    /** When the fine search does not find most of a hand after an (almost) empty first pass, and
     * the passes after it find nothing either, its largest group of sure finds linked within
     * `groupLink` tile lengths, of at least `groupMin` finds, is looked at again in the photo at
     * full resolution (a hand shot from far off on a busy cloth, whose tiles the fine search scores
     * about 0.5 among as many peaks of the cloth); what is found there is taken only when it is
     * most of a hand (`minTiles`). */
    groupLink: 4,
    /** See `groupLink`. */
    groupMin: 2,
    /** With PipelineOptions.fineSkipAt = n > 0, the fine search is skipped when the first pass found
     * at least n tiles and the zoom pass will search their region again from the full-resolution
     * photo. Off by default (0): at 14 it takes the far-off bench photo from 338 to 262 ms with the
     * same tiles, and gained a hand on each tune set, but lost one on each of three held-out sets
     * (model/HISTORY.md). */
    skipAt: 0,
  },
  detail: {
    /** Long side of the zoomed-in region decoded again from the full-resolution photo. */
    side: 1024,
    /** The region is decoded again only when its median tile's long side in the raster is below
     * this (the classifier's crop height: larger tiles already fill its crops)... */
    below: crop.height,
    /** ...and the region decoded again would have at least this many times the raster's pixels per side. */
    minGain: 1.25,
  },
  finder: {
    /** A tile found by the finder alone (Models.finder) is kept only when the classifier gives its
     * first guess at least this probability. On val-holdout the finder's false finds (a domino,
     * patches of camouflage and dotted cloths) were read at 0.11-0.41; its true finds on
     * apart-holdout (flowers and face-down tiles laid apart) at 0.48-0.99 (model/PIPELINE.md). */
    read: 0.45,
    /** A find read only as some flower (keptFind) is kept when its long side is within this factor
     * of the median of the detector's sure tiles (a flower is of its set's size; on the held-out
     * sets the flowers kept so were 0.84-0.96 of it, the cloth's flower-like patches 0.68). */
    flowerScale: 0.8,
    /** The finder's input long side on the normal pass when the tiles are large
     * (coarseFinderTiles): 0.56 of the detector's pixels. On apart-holdout it found 5 more of the
     * flowers and face-down tiles laid apart than at the detector's 512 (hand exact 0.7667 ->
     * 0.8000); val-holdout, far- and close-holdout kept their hands, grid-holdout and
     * val-holdout-3k gained one, embed-holdout lost one (model/HISTORY.md, stop 37). Smaller tiles
     * keep the detector's size: with it on every pass, embed-holdout (a hand a third the size)
     * lost five hands. */
    coarseSize: 384,
    /** The coarse finder reads the normal pass when the sure tiles' median long side is at least this (raster px). */
    coarseFrom: 48,
    /** A finder's detection overlapping a primary one this much (IoU) is the same tile (mergeFinds). */
    sameIou: 0.3,
  },
  outer: {
    /** Detector input long side of the look for tiles apart from the hand (outerFinds). */
    size: 1024,
    /** Peaks of at least this score in the normal pass (detector or finder) are hints of a tile
     * that the look for tiles apart reads again at the raster's resolution. */
    hint: 0.05,
    /** Side of the window round each hint, in the sure tiles' median long sides. */
    window: 5,
    /** When the windows cover more than this share of the raster, the whole raster is read instead. */
    windowMax: 0.5,
  },
  read: {
    /** Classes at least this likely are offered as alternatives for a tile (ScannedTile.alternatives). */
    altMinProb: 0.05,
    /** Test-time augmentation default (see PipelineOptions.tta). */
    tta: 'uncertain' as TtaMode,
    /** With tta 'uncertain', crops whose top probability is below this are classified again turned. */
    ttaConfident: 0.9,
    /** With two classifiers (Models.classifier2), the second reads only the crops whose top
     * probability by the first is below this; a crop the first is surer of keeps its reading alone
     * (readCrops). On val-holdout, its 3k copy, grid-, close-, far- and embed-holdout and the single
     * held-out tiles, 0.9 changed no tile's reading against both networks reading every crop (only
     * scores, by up to 0.02), and took the classifier stage of the 12 MP bench photo from about 110
     * to 65 ms. */
    secondOpinionBelow: 0.9,
  },
  profile: {
    /** With a tile-set profile (PipelineOptions.profile), a profile example whose embedding's cosine
     * similarity to a crop's is at most this says nothing of it: a crop unlike every example, and a
     * kind without examples, keep their reading (src/vision/profile/combine.ts). The loosest that
     * changes no hand of a taught or another set on val-holdout's even designs (eval:learn
     * --calibrate, classifier real-1): 0.85 cost 2-4 of 142 hands, 0.8 3-7, 0.75 6-19. */
    tau: 0.9,
    /** ...and a kind whose example is identical to the crop gains this much log-probability (linear
     * from tau; 2, 4 and 8 read every set alike at tau 0.9). */
    weight: 4,
  },
  flowers: {
    /** Crops whose flower classes together are at least this likely are read again by the flower reader. */
    gate: 0.3,
    /** ...unless the classifiers read the crop at least this surely: the flower readers learned
     * synthetic flowers only, and on real photos they turned sure, right readings wrong. Measured
     * against reading every candidate (1.01): real `test` tile accuracy 0.9952 -> 0.9971, hand photos
     * exact 34 -> 36 of 46; val-holdout unchanged (0.9920 / 0.9987 / 0.9873 / 0.8367). */
    trustAbove: 0.9,
    /** Weight of the flower reader's split of the flower mass against the classifier's
     * (withFlowerReading; chosen on val-holdout: see model/PIPELINE.md). The shipped flowers.onnx
     * holds the reader and the character spotter in one graph, so its split is already theirs
     * combined (reader^(2/3) * spotter^(1/3)). */
    readerWeight: 0.9,
    /** With the flower cascade (Models.flowers2), the second reader reads only the flowers whose
     * first mix (the first reader and the spotter) is less sure than this. On val-holdout that mix
     * is at least 0.8 sure of 356 of the 618 flowers, and picks the flower the two readers pick on
     * all of them; at 0.7 a winter the first mix read as orchid at 0.7-0.8 lost a hand. */
    secondBelow: 0.8,
    /** A detection at least this likely a flower may lie apart from the hand without being a stray
     * (flowers are laid aside, and a hand is complete without them). */
    liesApart: 0.5,
    /** ...unless it is doubtful twice over: a detector score below handCheck.dropBelow and no class
     * this likely (on val-holdout, patches of a cloth read as flowers scored 0.12-0.30, real flowers
     * so weakly detected 0.79 and more). */
    apartRead: 0.5,
    /**
     * A flower turned this many degrees or more (tileAngles: from its neighbours) whose reading is
     * below read.ttaConfident is read again stood straight, and the two readings averaged
     * (readFlowers; a sure reading stays as it is, and costs nothing more). On the true boxes of
     * the held-out flowers the readers got those turned under 20 degrees about as often right as
     * upright ones (val-holdout 0.92 under 10 and 10-20 degrees; val-holdout-xl 0.93 and 0.90) but
     * fewer of those turned 20-30 (0.81, 0.84). The straightened crop alone reads worse (the
     * readers learned turned tiles in their boxes), the mean of both better. From 12 degrees the
     * pipeline lost 6 flowers turned 12-20 degrees on the held-out sets and gained 3; from 20 it
     * gains on every set but val-holdout-3k (model/HISTORY.md, stop 44).
     */
    straightenFrom: 20,
    /** A flower whose reading is below this (after readFlowers' own looks) is read again from the
     * photo's own pixels when they show it larger than the view does (sharperView): a flower's
     * numeral and character are a few pixels high in a 1024-px view of a 12 MP photo, and sharp at
     * full size. */
    detailBelow: 0.9,
    /** ...at this long side in pixels (the single-tile training crops are 128 px tall)... */
    detailTile: 192,
    /** ...when that is at least this many times its long side in the view. */
    detailMinGain: 1.2,
    /** Largest side of the region decoded for it (memory stays bounded when flowers lie far apart). */
    detailMaxSide: 3072,
  },
  verify: {
    /** Detections the detector scores below this are shown to the tile verifier (Models.verifier);
     * on val-holdout the false ones (squares of checked cloth, coloured discs, a domino) scored 0.28-0.67. */
    below: 0.8,
    /** A verified detection whose p(tile) is below this is not a tile: it is dropped, as the weak
     * peaks and the finder's unreadable finds are (0.5 kept 4 more val-holdout hands than 0.2). */
    drop: 0.5,
    /** A lone detection (isolatedUnsure: far from the other tiles, and read doubtfully) stays when
     * its detector score reaches `below` or the verifier's p(tile) reaches this. Before, every lone
     * doubtful detection was left out; on val-holdout and apart-holdout all nine it left out were
     * real tiles (flowers laid apart, detector scores 0.54-0.92, p(tile) 0.91-0.99 where the
     * verifier read them). */
    loneVerified: 0.9,
    /** A doubtful detection (PipelineOptions.straddling) that two surer detections' boxes together
     * cover this much of (straddles) is taken for a second look at tiles already found: a box across
     * two neighbours. At 0.85, val-holdout gained scene 039 (a false find across a 3p and a 4p, 0.92
     * covered by the two) and embed-holdout one hand; val-holdout-xl, -3k, grid-, biggrid-, far-,
     * apart- and close-holdout read as before (model/HISTORY.md, stop 63). */
    coveredDuplicate: 0.85,
    /** ...each of the two covering at least this much of it. */
    straddleEach: 0.35,
    /** A tile this many median tile sizes from its nearest neighbour is isolated (isolatedUnsure). */
    isolatedFar: 3,
    /** An isolated tile scoring below this is dropped as background (a checked cloth, a polka dot;
     * on val-holdout this removed 17 false detections and no true tile). Above detect.threshold, or
     * the rule never applies. */
    isolatedBelow: 0.55,
  },
  stray: {
    /** A detection is confident, and anchors the hand, when both scores reach this (strayDetections:
     * strays are big polka dots, the squares of a checked cloth; left out when the hand check finds
     * a complete hand without them). */
    confident: 0.7,
    /** A tile whose long side differs from the hand's median by more than this factor is out of scale. */
    scale: 1.5,
    /** An out-of-scale detection is a stray when its detector score is below this. */
    scaleBelow: 0.8,
    /** A detection with a gap of more than this many tile lengths to every confident tile is apart. */
    gap: 1.5,
    /** A detection apart from the hand is a stray when its detector score is below this. */
    gapBelow: 0.7,
  },
  edge: {
    /** Edge candidates: weaker peaks down to this detector score whose box reaches the photo's edge
     * (a tile the photo cuts, which the detector sees less surely) are taken only when the hand is
     * incomplete without them and the hand check completes it with them, reading them as the
     * classifier does. On val-holdout: one more exact hand, nothing lost (see model/PIPELINE.md). */
    rescueThreshold: 0.15,
    /** An edge candidate's score (classifier probability x detector score) must reach this. */
    rescueScore: 0.2,
    /** When the hand check finds no complete hand, part of the hand may lie outside the photo: an
     * edge candidate that the hand check did not take is kept when the classifier reads it at least
     * this surely and the tile verifier gives it p(tile) >= keepVerified, beside the hand (keepGap;
     * val-holdout scene 258's cut 1p: detector 0.27, classifier 0.91, verifier 0.67). See
     * model/PIPELINE.md. */
    keepProb: 0.9,
    /** See keepProb. */
    keepVerified: 0.6,
    /** ...and when its box lies within this many of the hand's tile lengths of a kept tile's box. */
    keepGap: 0.5,
    /** With a tile the photo's edge cuts, the hand check may change at most this many tiles: part of
     * the hand may lie outside the photo, and the changes that completed such hands were wrong (a
     * kong of bamboo 7s broken up for a pair; val-holdout 038, val-holdout-xl 916). No change at all
     * lost four hands of val-holdout-xl that one right change completed (see model/PIPELINE.md). */
    cutHandMaxChanges: 1,
  },
  beside: {
    /** A weak peak lies beside the hand (besideHand) when its centre is within this many median long
     * sides of a sure tile's... (a dark face-down tile on a dark cloth, a blank white dragon on a
     * pale body, scores low though it stands in the row; on val-holdout the rule raised recall
     * 0.9957 -> 0.9972, two more exact hands, missed face-down tiles 10 -> 6, no hand lost; stop 26) */
    near: 1.6,
    /** ...its long side is within this factor of the sure tiles' median... */
    scale: 1.35,
    /** ...and it overlaps no sure tile by more than this IoU. */
    overlap: 0.2,
  },
  backs: {
    /** Two face-down tiles whose centres are closer than this many long sides (the larger) lie side
     * by side (loneBacks, rowOfBacks)... */
    near: 1.6,
    /** ...when they are in one row: their boxes' heights overlap by at least this share of the
     * shorter box. A tile in the row above or below is near too, but the wall's face-down tiles lie
     * in rows. */
    rowOverlap: 0.5,
    /** A weak candidate in line with the hand that is read as a face-down tile with at least this
     * score (back probability x detector score), beside a kept face-down tile, is kept once the hand
     * is complete: it continues a row of face-down tiles (the wall, spare tiles), which take no part
     * in the hand. Dark backs on dark cloth score low. On val-holdout, its 3k copy and embed-holdout
     * such real backs scored 0.39-0.50 and the false ones (a shadow beside a lone back, a cloth
     * patch) 0.22-0.31. */
    wallScore: 0.35,
  },
  ...laterStages,
};

type DeepReadonly<T> = T extends readonly (infer U)[] ? readonly U[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** The pipeline's configuration: every threshold, by stage (see CONFIG). */
export type PipelineConfig = DeepReadonly<typeof config>;

function deepFreeze<T>(o: T): DeepReadonly<T> {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o as DeepReadonly<T>;
}

/** The shipped configuration (frozen). */
export const CONFIG: PipelineConfig = deepFreeze(config);

/** The test-time augmentation a PipelineOptions.tta asks for (read.tta when not given). */
export function ttaMode(t: boolean | TtaMode | undefined): TtaMode {
  if (t === undefined) return CONFIG.read.tta;
  if (t === true) return 'all';
  if (t === false) return 'off';
  return t;
}
