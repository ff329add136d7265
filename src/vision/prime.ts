/**
 * Priming: every model run once on the inputs a scan gives it, so that the first scan after loading
 * is as quick as later ones.
 */
import { CONFIG } from './config.ts';
import { cropTiles, letterbox } from './preprocess.ts';
import { floatTensor, type OrtSession } from './runtime.ts';
import { modelCropSize, type Models } from './session.ts';
import type { Box, RasterImage } from './types.ts';

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
 * (so that the letterbox and the crop cutting run too): the detector's letterbox at detect.size, the
 * finder's at finder.coarseSize, a hand's prime.crops crops for the classifier, and two crops
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
    ...lb(m.detector, CONFIG.detect.size),
    ...lb(m.finder, CONFIG.finder.coarseSize),
    ...crops(m.classifier, CONFIG.prime.crops, w, h),
    ...crops(m.classifier2, 2, w, h),
    ...crops(m.verifier, 2, w, h),
    ...crops(m.flowers, 2, CONFIG.crop.flowerWidth, CONFIG.crop.flowerHeight),
    ...crops(m.flowers2, 2, CONFIG.crop.flowerWidth, CONFIG.crop.flowerHeight),
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
