/**
 * Shared vision types. Coordinates are pixels of the original photo after EXIF
 * rotation ("as displayed"), top-left origin, boxes as [x, y, width, height].
 */

export const TILE_CODES = [
  '1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m',
  '1p', '2p', '3p', '4p', '5p', '6p', '7p', '8p', '9p',
  '1s', '2s', '3s', '4s', '5s', '6s', '7s', '8s', '9s',
  '1z', '2z', '3z', '4z', '5z', '6z', '7z',
  'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8',
  'back',
] as const;
export type TileCode = (typeof TILE_CODES)[number];

export type Box = [x: number, y: number, w: number, h: number];

/** Decoded pixels, possibly downscaled from the original photo. */
export interface RasterImage {
  width: number;
  height: number;
  /** Interleaved 8-bit pixels, `channels` per pixel, row-major, no padding. */
  data: Uint8Array | Uint8ClampedArray;
  channels: 3 | 4;
}

/** A raster plus how it relates to the original (EXIF-rotated) photo. */
export interface DecodedPhoto {
  image: RasterImage;
  /** Size of the original photo after EXIF rotation. */
  originalWidth: number;
  originalHeight: number;
  /** Notes about decoding (e.g. alpha flattened, downscaled huge photo). */
  notes: string[];
  /**
   * The region [x, y, w, h] of the original photo (after EXIF rotation, original px) decoded again
   * from the full-resolution photo, scaled to at most `maxSide` on its long side (never enlarged).
   * For tiles too small in `image`: a hand photographed from far off. Absent when the decoder
   * cannot (then the pipeline zooms into `image`).
   */
  detail?: (region: Box, maxSide: number) => Promise<RasterImage>;
}

export interface Detection {
  /** Box in the coordinate space it was produced in (see the producing function). */
  box: Box;
  score: number;
  sideways: boolean;
  /** Found by the finder alone (mergeFinds): the detector missed it or scored it weak. */
  finder?: boolean;
}

export interface ScannedTile {
  code: TileCode;
  score: number;
  box: Box;
  /** The classifier's next guesses (probability >= ALT_MIN_PROB, at most two), most likely first. */
  alternatives?: { code: TileCode; score: number }[];
  sideways?: boolean;
  /** Set when the hand check changed this tile from the classifier's first guess (which is then
   * the first of `alternatives`): the player should look at it. */
  handCheck?: boolean;
  group?: number;
  row?: number;
}

export type GroupKind = 'meld' | 'concealed-kong' | 'flowers' | 'tiles';

export interface TileGroup {
  /** Indices into `tiles`. */
  tiles: number[];
  kind: GroupKind;
  /** Why the group was proposed. */
  reason: string;
}

export interface ScanResult {
  width: number;
  height: number;
  /** Tiles in reading order (rows top to bottom, each left to right). */
  tiles: ScannedTile[];
  groups?: TileGroup[];
  /** Set when `tiles` is empty. */
  reason?: string;
  notes?: string[];
  /** Set when the photo was read turned (pipeline.ts turnSideways, turnOver): by how many quarter
   * turns clockwise, 1 or 3 for a photo taken from the side of the table, 2 from across it. The
   * boxes are in the photo's own pixels all the same. */
  turned?: 1 | 2 | 3;
  /** Doubtful detections left out (a lone one far from the hand, strays the hand check did not
   * need, faces it left out): the table's pattern, most likely. Returned so that the app can show
   * them and the player can add one back. */
  leftOut?: { code: TileCode; score: number; box: Box }[];
}

export type VisionErrorCode =
  | 'empty-file'
  | 'not-an-image'
  | 'unsupported-format'
  | 'truncated'
  | 'too-large'
  | 'decode-failed'
  | 'model-load-failed'
  | 'inference-failed';

/** Why a photo could not be scanned: `code` for the app and the CLI, `message` for the player. */
export class VisionError extends Error {
  override readonly name = 'VisionError';
  constructor(readonly code: VisionErrorCode, message: string) {
    super(message);
  }
}

/** Photos above this are downscaled while decoding (never fully decoded at full size). */
export const HUGE_PIXELS = 100_000_000;
/** Photos above this are refused without decoding. */
export const MAX_PIXELS = 400_000_000;

/**
 * A recognised tile scoring below this is marked "please check" for the player (the review
 * screen), and `eval:vision` counts how many misreads carry that mark.
 */
export const CHECK_BELOW = 0.6;

/** Whether a tile with this score is marked "please check" (no score: set or confirmed by the player). */
export const needsCheck = (score: number | undefined): boolean => score !== undefined && score < CHECK_BELOW;
