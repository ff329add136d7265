/**
 * Detect: a raster letterboxed for the detector (or the finder), its peaks decoded and kept by NMS,
 * as boxes in that raster's pixels. The letterbox is made once per raster, size and fit.
 */
import { CONFIG } from '../config.ts';
import { letterbox } from '../preprocess.ts';
import { boxToRaster, decodeDetections } from '../postprocess.ts';
import { floatTensor, type OrtSession } from '../runtime.ts';
import type { Models } from '../session.ts';
import type { Detection, RasterImage } from '../types.ts';

/** Milliseconds, for PipelineOptions.timings. */
export const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

const letterboxMemo = new WeakMap<RasterImage, Map<string, ReturnType<typeof letterbox>>>();

/** Detections in a part of a raster (cropRaster at `region`), moved to the whole raster's pixels. */
export const fromPart = (ds: readonly Detection[], region: readonly [number, number, number, number]): Detection[] =>
  ds.map((d) => ({ ...d, box: [d.box[0] + region[0], d.box[1] + region[1], d.box[2], d.box[3]] }));

/** Letterbox a raster, run the detector, and return the detections in that raster's pixels. */
export async function detectIn(img: RasterImage, models: Models, size: number, threshold: number, T?: Record<string, number>, fit = 1, detector: OrtSession = models.detector, hints?: Detection[]): Promise<Detection[]> {
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
  const weak = hints ? decodeDetections(hm.data as Float32Array, bx.data as Float32Array, gh, gw, { threshold: CONFIG.outer.hint }) : [];
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
