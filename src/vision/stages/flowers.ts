/**
 * Flowers: a second look at the tiles the classifier reads as flowers, by the flower readers
 * (larger crops; a cascade of two readers and a character spotter), turned, stood straight, and
 * from the photo's own pixels when the view shows them small; their split of the flower mass is
 * blended into the classifier's reading.
 */
import { CONFIG, ttaMode, type TtaMode } from '../config.ts';
import { tileAngles } from '../layout.ts';
import type { PipelineOptions } from '../pipeline.ts';
import { cropTiles } from '../preprocess.ts';
import { flowerMass, softmax, withFlowerReading } from '../postprocess.ts';
import { floatTensor, type OrtSession } from '../runtime.ts';
import type { Models } from '../session.ts';
import type { Box, DecodedPhoto, RasterImage } from '../types.ts';
import { sharperView, type PhotoDecoder } from './decode.ts';
import { now } from './detect.ts';
import type { Found } from './find.ts';
import { averageIn, pickCrops, topProbability, toTurn, turnedCrops } from './read.ts';

/**
 * The flower reader's second look at the tiles the classifier reads as flowers (flower mass >=
 * flowers.gate): larger crops (crop.flowerWidth x crop.flowerHeight), read again turned 180 degrees as the
 * classifier's crops are (`mode`: with 'uncertain', only those whose reading is below
 * read.ttaConfident; on val-holdout, grid-holdout and the single held-out tiles no reading changed
 * against turning all of them), the two readings averaged; their split of the flower mass is
 * blended into the classifier's with `weight` (withFlowerReading). With `straighten`, a flower
 * turned flowers.straightenFrom degrees or more and still read below read.ttaConfident is read once
 * more cut along its own axes (cropTiles with its angle), and that reading averaged in. With
 * `sharper` (sharperView), a flower still read below flowers.detailBelow is looked at again in the
 * same ways in the photo's own pixels, when they show it larger, and that reading replaces the
 * view's (averaging the two instead gave the same figures on val-holdout-3k). No-op without a
 * flower reader.
 */
export async function readFlowers(models: Models, img: RasterImage, boxes: Box[], sideways: boolean[], probs: Float32Array[], mode: TtaMode, weight = CONFIG.flowers.readerWeight, margin = CONFIG.crop.margin, straighten = true, sharper?: SharperView, trustAbove: number = CONFIG.flowers.trustAbove): Promise<void> {
  const f0 = models.labels.indexOf('f1');
  if (!models.flowers || f0 < 0) return;
  const idx = probs.flatMap((p, i) => (flowerMass(p, f0) >= CONFIG.flowers.gate && topProbability(p) < trustAbove ? [i] : []));
  if (!idx.length) return;
  const read = await flowerReadings(models, img, boxes, sideways, idx, mode, margin, straighten);
  if (sharper) {
    // unsure flowers small in the view: read again from the photo's own pixels (sharperView)
    const unsure = idx.flatMap((i, j) => (topProbability(read[j]!) < CONFIG.flowers.detailBelow ? [j] : []));
    const view = unsure.length ? await sharper(unsure.map((j) => idx[j]!)) : null;
    if (view) {
      const again = await flowerReadings(models, view.img, view.boxes, sideways, view.at, mode, margin, straighten);
      view.at.forEach((i, m) => { read[idx.indexOf(i)] = again[m]!; });
    }
  }
  idx.forEach((i, j) => withFlowerReading(probs[i]!, read[j]!, f0, weight));
}

/** The tiles `at` (indices into `boxes`) looked at again in a sharper raster: that raster, every
 * box in its pixels, and the tiles it holds (a subset of `at`); null when the photo has no more
 * pixels to give them. */
export type SharperView = (at: number[]) => Promise<{ img: RasterImage; boxes: Box[]; at: number[] } | null>;

/** The flower readers' f1..f8 readings of the tiles `idx` (indices into `boxes`) of `img`, read
 * again turned and stood straight as readFlowers says. */
async function flowerReadings(models: Models, img: RasterImage, boxes: Box[], sideways: boolean[], idx: readonly number[], mode: TtaMode, margin: number, straighten: boolean): Promise<Float32Array[]> {
  const crops = cropTiles(img, idx.map((i) => boxes[i]!), idx.map((i) => sideways[i]!), CONFIG.crop.flowerWidth, CONFIG.crop.flowerHeight, margin);
  const read = await flowerProbs(models, crops, idx.length);
  const again = toTurn(read, mode);
  if (again.length) {
    const turned = await flowerProbs(models, turnedCrops(crops, again, CONFIG.crop.flowerHeight * CONFIG.crop.flowerWidth), again.length);
    averageIn(read, again, turned);
  }
  if (straighten) {
    // a tile photographed turned is read again stood straight, the two readings averaged
    const angles = tileAngles(boxes);
    const tilted = idx.flatMap((i, j) => (Math.abs(angles[i]!) >= CONFIG.flowers.straightenFrom && topProbability(read[j]!) < CONFIG.read.ttaConfident ? [j] : []));
    if (tilted.length) {
      const pick = <T,>(a: readonly T[]) => tilted.map((j) => a[idx[j]!]!);
      const straight = await flowerProbs(models, cropTiles(img, pick(boxes), pick(sideways), CONFIG.crop.flowerWidth, CONFIG.crop.flowerHeight, margin, pick(angles)), tilted.length);
      averageIn(read, tilted, straight);
    }
  }
  return read;
}

/**
 * The flower readers' f1..f8 probabilities of n (n, 3, crop.flowerHeight, crop.flowerWidth) crops. A flowers.onnx
 * of 8 logits a crop holds the whole mix (the readers and the character spotter in one graph).
 * One of 17 values a crop is the cascade's first file (`train.py export --flw-cascade`): the first
 * reader's log-softmax, the spotter's and the spotter's weight w, mixed as (1 - w) * reader +
 * w * spotter; the second reader (Models.flowers2) then reads only the crops that mix is less sure
 * of than flowers.secondBelow, and those are mixed again with the two readers' mean softmax, as
 * the one-graph file does for every crop.
 */
export async function flowerProbs(models: Pick<Models, 'flowers' | 'flowers2'>, crops: Float32Array, n: number): Promise<Float32Array[]> {
  const first = models.flowers!;
  const plane = CONFIG.crop.flowerHeight * CONFIG.crop.flowerWidth;
  const run = async (s: OrtSession, data: Float32Array, count: number) => {
    const out = (await s.run({ [s.inputNames[0]]: floatTensor(data, [count, 3, CONFIG.crop.flowerHeight, CONFIG.crop.flowerWidth]) }))[s.outputNames[0]];
    return { data: out.data as Float32Array, width: (out.data as Float32Array).length / count };
  };
  const a = await run(first, crops, n);
  if (a.width === 8) return Array.from({ length: n }, (_, j) => softmax(a.data, j * 8, 8));
  if (a.width !== 17) throw new Error(`flowers.onnx gives ${a.width} values a crop (8 or 17 expected)`);
  const mix = (j: number, reader: ArrayLike<number>) => {
    const o = j * 17, w = a.data[o + 16]!, logits = new Float32Array(8);
    for (let k = 0; k < 8; k++) logits[k] = (1 - w) * reader[k]! + w * a.data[o + 8 + k]!;
    return softmax(logits, 0, 8);
  };
  const probs = Array.from({ length: n }, (_, j) => mix(j, a.data.subarray(j * 17, j * 17 + 8)));
  const unsure = models.flowers2 ? probs.flatMap((p, j) => (topProbability(p) < CONFIG.flowers.secondBelow ? [j] : [])) : [];
  if (unsure.length) {
    const b = await run(models.flowers2!, unsure.length === n ? crops : pickCrops(crops, unsure, plane), unsure.length);
    if (b.width !== 8) throw new Error(`flowers2.onnx gives ${b.width} values a crop (8 expected)`);
    unsure.forEach((j, m) => {
      const mean = new Float32Array(8);
      for (let k = 0; k < 8; k++) mean[k] = Math.log((Math.exp(a.data[j * 17 + k]!) + Math.exp(b.data[m * 8 + k]!)) / 2);
      probs[j] = mix(j, mean);
    });
  }
  return probs;
}

/**
 * The flower stage: the flower readers' look at the candidates read as flowers (readFlowers),
 * blended into `reading.probs` in place, unsure ones read again from the photo's own pixels
 * (PipelineOptions.flowerDetail). Returns the notes of parts of the photo that could not be decoded
 * again. Nothing with PipelineOptions.flowerReader false.
 */
export async function flowerStage(photo: DecodedPhoto, models: Models, opts: PipelineOptions, found: Found, probs: Float32Array[], decodeAgain: PhotoDecoder, T?: Record<string, number>): Promise<string[]> {
  if (!(opts.flowerReader ?? true)) return [];
  const t = now();
  const { dets, view, toOriginal } = found;
  const rasterBoxes = dets.map((d) => d.box);
  const lateNotes: string[] = [];
  const sharper = (opts.flowerDetail ?? true) && photo.detail ? sharperView(photo, rasterBoxes, toOriginal, (region, side) => decodeAgain(region, side, lateNotes, 'flowers')) : undefined;
  await readFlowers(models, view, rasterBoxes, dets.map((d) => d.sideways), probs, ttaMode(opts.tta), opts.flowerReaderWeight, CONFIG.crop.margin, opts.flowerStraighten ?? true, sharper, opts.flowerTrustAbove);
  if (T) T.flowers = now() - t;
  return lateNotes;
}
