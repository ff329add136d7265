/**
 * The later stages' thresholds (hand check, turning, layout, one tile, review, priming): part of
 * the one PipelineConfig (config.ts spreads them in), in a file of their own to keep files short.
 */
import { TILE_CODES } from './types.ts';

export const laterStages = {
  handCheck: {
    /** Detector score below which a face may be left out by the hand check. */
    dropBelow: 0.6,
    /** Prior cost of leaving a doubtful detection out: on val-holdout more than half of the
     * detections scoring below dropBelow are real tiles, so a drop must buy a complete hand. */
    dropPrior: 0.7,
    /** The pipeline's unreadBelow (chosen on val-holdout, see model/PIPELINE.md): the held-out bird
     * 1s, which the classifier has never seen, gets first guesses of 0.2-0.65 spread over East, Red
     * and the flowers, and the 1 of bamboo below 0.02. 0.55 since stop 60 (0.5 before): val-holdout
     * scene 047's bird, read as East at 0.517 in a thirteen-orphans hand, is read from the hand; no
     * other held-out set loses a hand. At 0.7 a 5m read at 0.58 in a hand short of a tile was read
     * as the tile it lacked (val-holdout-xl 910). */
    unreadBelow: 0.55,
    /** The default unreadCost (HandCheckOptions), chosen with unreadBelow on val-holdout. */
    unreadCost: 2.5,
    /** The pipeline's unreadFirst: the 1 of bamboo. It is the one suited tile drawn as a picture (a
     * bird: sparrow, peacock, crane, phoenix), different in every set, while the other kinds are
     * numerals, characters and pips the classifier reads in sets it has never seen. When a tile it
     * cannot read completes the hand as the bird or as another kind, the bird is the likelier. On
     * val-holdout it changed one scene (049: a pung of the held-out bird, read as East before) and
     * no scene of the other held-out sets (see model/PIPELINE.md). */
    unreadFirst: [TILE_CODES.indexOf('1s')] as readonly number[],
    /** Unread tiles whose probability vectors are closer than this (L1) look alike: read together
     * as one kind. On val-holdout, pairs of unread tiles of the same kind were 0.30-1.04 apart, of
     * different kinds at least 1.17. */
    twinL1: 0.9,
    /** A face the detector is sure of (not to be left out) is read as a flower only when the
     * classifier gives the flowers and seasons together at least this much: a flower taken for a
     * tile keeps some flower mass, while renaming a suit tile a flower on a 1-3 % guess would leave
     * it out of a hand that lacks tiles in all but name (embed-holdout 295: a 5m cut by the photo's
     * edge, read at 0.7, became the winter). */
    flowerGuessMass: 0.1,
    /** The order rule's price (HandCheckOptions.orderCost): a mend that puts the tiles out of order
     * must be this much cheaper (in log-probability) than one that keeps them in order to be taken.
     * Players lay a finished hand out sorted or set by set: 256 of the 297 val-holdout hands whose
     * tiles were all found are (86 %), 1032 of 1186 in val-holdout-xl (87 %) (stop 65). */
    orderCost: 1,
    /** A tile of a bird pung (birdPungs) is read as an honour below this probability... */
    birdPungTop: 0.45,
    /** ...while giving the 1 of bamboo at least this. */
    birdPungBird: 0.005,
    /** Only this many of the least certain tiles may change (HandCheckOptions.maxTiles). */
    maxTiles: 8,
    /** A guess below this probability is never taken (HandCheckOptions.minProb; atMostFour's too). */
    minProb: 0.02,
    /** Largest total drop in log-probability accepted (HandCheckOptions.maxCost: about 400 times less likely). */
    maxCost: 6,
    /** Most combinations of next guesses the check tries (bounds the work). */
    maxCombos: 20000,
    /** Added to the cost of leaving a doubtful face out for reading it as a flower instead (a tie-break). */
    flowerForDrop: 0.01,
    /** Taken off the unread cost for a group of look-alikes (a tie-break, not a discount). */
    groupPreference: 0.01,
  },
  turn: {
    /** A photo is read turned a quarter when it shows at least this many sure tiles... (val-holdout's
     * first 100 scenes turned 90 degrees: 0.9913 of the tiles and 0.90 of the hands read exactly, as
     * upright; 0.9872 and 0.78 before, stop 49) */
    minTiles: 3,
    /** ...and more than this share of them lie sideways (a hand's claimed tiles are at most 4 of 14-18). */
    share: 0.5,
    /** A reading that makes no complete hand is tried turned half round when it has this many tiles
     * (a hand from across the table: val-holdout turned 180 degrees read 0.9898 of the tiles and 0.78
     * of the hands exactly, 0.9864 and 0.71 before, stop 50)... */
    overMinTiles: 10,
    /** ...up to this many (a hand with its flowers; not a set laid out in a grid). */
    overMaxTiles: 30,
  },
  layout: {
    /** Neighbours farther than this many of a tile's long side say nothing of its angle (tileAngles). */
    angleNeighbourReach: 1.6,
  },
  oneTile: {
    /** The tile verifier's p(tile) of a whole picture of one tile from which the picture is read whole. */
    whole: 0.5,
    /** The flower readers' crop of a picture of one tile read whole (classifyTileImage): its middle,
     * this share of its width and height. Such a picture is framed by the photographer, often with
     * some of the table and the neighbouring tiles round the face, where the readers were trained on
     * crops cut close round a tile's box. Measured with `eval:vision -- --tiles` on 800 single
     * flowers each (stop 53): held-out designs 0.9313 -> 0.9475 (0.9 and 0.8: 0.9475, 0.9500), plain
     * designs 0.9700 -> 0.9688. A box from the detectors keeps the scenes' margin: on the true boxes
     * of scenes' flowers, cutting closer read worse (close-holdout 0.987 -> 0.947 at 0.9). */
    flowerMargin: 0.85,
    /** The most boxes of a picture of one tile that are read (oneTileBoxes, surest first). */
    tries: 6,
    /** When no detection of a picture of one tile is sure (detect.threshold), the boxes scoring this
     * much are tried instead: a face-down tile or a blank white dragon alone on the table
     * (tiles-loose-holdout: 0.1 or 0.3 read 0.9698 top-1, 0.2 0.9721). */
    weak: 0.2,
    /** A picture of one tile (`scan --as-tile`) is either cut to the tile, and read whole, or a
     * photo with the table round the tile. A sure detection whose box covers less than this share of
     * the picture is the tile of such a photo, and is read from its box. */
    fills: 0.35,
    /** ...when its centre lies this far or more from the picture's edges (a share of the picture's
     * side), so that a neighbour's sliver at the edge of a picture cut to its tile is never taken
     * for it... */
    inset: 0.15,
    /** ...and its long side is at least this share of the picture's long side: smaller boxes are a
     * pip or the table's pattern, not the one tile a picture is taken of. */
    min: 0.15,
    /** A box lying this much (share of its own area) inside another box of the picture at least
     * `partArea` times as large is a part of that tile (a dot of a 2p or 4p read as a 1p), not a tile. */
    partInside: 0.8,
    /** See partInside. */
    partArea: 1.4,
  },
  review: {
    /** A retake is suggested (retakeAdvice) when at least this many tiles are marked "please check"... */
    retakeMinUnsure: 4,
    /** ...and they are at least this share of the hand. On val-holdout this fired on 9 of the 300
     * photos, 8 of them read wrongly (blurred, dark, steep or unseen designs); no threshold fired
     * on fewer wrong hands per right one. */
    retakeShare: 0.3,
  },
  prime: {
    /** The crops a typical hand gives the classifier at once (primeModels). */
    crops: 16,
  },
};
