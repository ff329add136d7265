/**
 * Decode: parts of the photo decoded again from its own pixels, when the raster the networks read
 * shows the tiles too small (the zoom pass's region, the fine search's group, unsure flowers), and
 * the maps between such a part's pixels and the photo's.
 */
import { CONFIG } from '../config.ts';
import { clampRegion } from '../preprocess.ts';
import { medianLongSide } from '../postprocess.ts';
import type { Box, DecodedPhoto, RasterImage } from '../types.ts';
import { now } from './detect.ts';
import type { SharperView } from './flowers.ts';

/** The region `orig` of the photo decoded again at up to `side` px; null, with a note in `notes`
 * naming `what` was read instead from the smaller copy, when it cannot be. */
export type PhotoDecoder = (orig: Box, side?: number, notes?: string[], what?: string) => Promise<RasterImage | null>;

/** A PhotoDecoder of `photo` whose notes go to `notes` unless told otherwise, timed in `T.detail`. */
export function photoDecoder(photo: DecodedPhoto, notes: string[], T?: Record<string, number>): PhotoDecoder {
  return async (orig, side = CONFIG.detail.side, into = notes, what = 'tiles') => {
    const t0 = now();
    try {
      return await photo.detail!(orig, side);
    } catch {
      into.push(`the photo could not be decoded again at full resolution: the ${what} were read from the smaller copy`);
      return null;
    } finally {
      if (T) T.detail = (T.detail ?? 0) + now() - t0;
    }
  };
}

/** The zoomed-in region in original px when the tiles are too small in the raster to be read well
 * and the photo can give them more pixels; else null. */
export function detailRegion(photo: DecodedPhoto, img: RasterImage, region: readonly [number, number, number, number], boxes: readonly Box[]): Box | null {
  if (!photo.detail || !boxes.length) return null;
  if (medianLongSide(boxes) >= CONFIG.detail.below) return null;
  const k = photo.originalWidth / img.width;
  // whole pixels inside the photo, as the decoders cut it, so that boxes map back exactly
  const orig: Box = clampRegion([region[0] * k, region[1] * k, region[2] * k, region[3] * k], photo.originalWidth, photo.originalHeight);
  const gain = Math.min(CONFIG.detail.side, Math.max(orig[2], orig[3])) / Math.max(region[2], region[3]);
  return gain >= CONFIG.detail.minGain ? orig : null;
}

/**
 * The tiles `at` decoded again from the photo's own pixels at flowers.detailTile px a tile (one region
 * round all of them), for those the photo shows at least flowers.detailMinGain times larger than
 * the view (`viewBoxes`, mapped to the photo's pixels by `toOriginal`), by `decode` (null when the photo
 * cannot be decoded again: the view's reading stays).
 */
export function sharperView(photo: DecodedPhoto, viewBoxes: readonly Box[], toOriginal: (b: Box) => Box, decode: (region: Box, side: number) => Promise<RasterImage | null>): SharperView {
  const long = (b: Box) => Math.max(b[2], b[3]);
  return async (at) => {
    const orig = viewBoxes.map(toOriginal);
    const take = at.filter((i) => Math.min(CONFIG.flowers.detailTile, long(orig[i]!)) >= CONFIG.flowers.detailMinGain * long(viewBoxes[i]!));
    if (!take.length) return null;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const i of take) {
      const [x, y, w, h] = orig[i]!, pad = long(orig[i]!) / 2;
      x0 = Math.min(x0, x - pad); y0 = Math.min(y0, y - pad); x1 = Math.max(x1, x + w + pad); y1 = Math.max(y1, y + h + pad);
    }
    const region = clampRegion([x0, y0, x1 - x0, y1 - y0], photo.originalWidth, photo.originalHeight);
    const longs = take.map((i) => long(orig[i]!)).sort((a, b) => a - b);
    const k = Math.min(1, CONFIG.flowers.detailTile / longs[longs.length >> 1]!);
    const side = Math.min(CONFIG.flowers.detailMaxSide, Math.max(1, Math.round(long(region) * k)));
    const img = await decode(region, side);
    if (!img) return null;
    const kx = region[2] / img.width, ky = region[3] / img.height;
    const boxes = orig.map(([x, y, w, h]): Box => [(x - region[0]) / kx, (y - region[1]) / ky, w / kx, h / ky]);
    return { img, boxes, at: take };
  };
}

/** Boxes in the pixels of `d`, the region `orig` of the photo decoded again, to the photo's pixels. */
export function detailToOriginal(orig: Box, d: RasterImage): (b: Box) => Box {
  const kx = orig[2] / d.width, ky = orig[3] / d.height;
  return (b) => [orig[0] + b[0] * kx, orig[1] + b[1] * ky, b[2] * kx, b[3] * ky];
}
