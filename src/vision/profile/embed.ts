/**
 * Crop embeddings for a tile-set profile: the given boxes cut from the photo's raster exactly as
 * the pipeline cuts a tile for the classifier (enlarged by crop.margin, stretched to the
 * classifier's crop size, a box lying sideways turned to stand), read by `classifier.onnx`, which
 * returns its logits and, as its second output `embedding`, the pooled features before its last
 * layer. One run gives both; the crop turned 180 degrees is read too (a tile may lie either way up).
 */
import { cropTiles } from '../preprocess.ts';
import { softmax } from '../postprocess.ts';
import { floatTensor } from '../runtime.ts';
import { modelCropSize, type Models } from '../session.ts';
import type { Box, DecodedPhoto } from '../types.ts';
import { unit } from './unit.ts';

export const EMBEDDING_OUTPUT = 'embedding';

/** What embedding needs of the models: the first classifier (the app's learning worker loads only it). */
export type EmbedModels = Pick<Models, 'classifier' | 'labels' | 'crop'>;
const cropSize = (m: EmbedModels) => modelCropSize(m as Models);

export interface CropReading {
  /** Classifier softmax over Models.labels (the first network only, read upright). */
  probs: Float32Array;
  /** Unit embeddings: [upright, turned 180 degrees]. */
  views: [Float32Array, Float32Array];
}

export class NoEmbeddingError extends Error {
  constructor() {
    super(`this classifier.onnx has no "${EMBEDDING_OUTPUT}" output; export it again with \`npm run train -- export classifier CKPT FILE\` (scripts/train/README.md)`);
    this.name = 'NoEmbeddingError';
  }
}

/** Whether the models' first classifier gives embeddings. */
export const hasEmbedding = (m: EmbedModels): boolean => m.classifier.outputNames.includes(EMBEDDING_OUTPUT);

/** A box lies sideways when it is clearly wider than tall (a tile stands taller than wide). */
export const isSidewaysBox = ([, , w, h]: Box): boolean => w > h * 1.1;

/** Boxes in the original photo's pixels mapped to its raster's. */
export function toRaster(photo: DecodedPhoto, boxes: readonly Box[]): Box[] {
  const sx = photo.image.width / photo.originalWidth, sy = photo.image.height / photo.originalHeight;
  return boxes.map(([x, y, w, h]) => [x * sx, y * sy, w * sx, h * sy]);
}

/** The classifier crops (n, 3, H, W) of `boxes` (the original photo's pixels). */
export function profileCrops(photo: DecodedPhoto, models: EmbedModels, boxes: readonly Box[]): Float32Array {
  const { w, h } = cropSize(models);
  return cropTiles(photo.image, toRaster(photo, boxes), boxes.map(isSidewaysBox), w, h);
}

/** Each crop of a (n, 3, H, W) batch read by the first classifier: softmax and unit embeddings. */
export async function embedCrops(models: EmbedModels, crops: Float32Array, n: number): Promise<CropReading[]> {
  if (!n) return [];
  if (!hasEmbedding(models)) throw new NoEmbeddingError();
  const { w, h } = cropSize(models);
  const plane = w * h;
  const turned = new Float32Array(crops.length);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      const o = (i * 3 + c) * plane;
      for (let k = 0; k < plane; k++) turned[o + k] = crops[o + plane - 1 - k]!;
    }
  }
  const both = new Float32Array(crops.length * 2);
  both.set(crops, 0);
  both.set(turned, crops.length);
  const s = models.classifier;
  const out = await s.run({ [s.inputNames[0]!]: floatTensor(both, [2 * n, 3, h, w]) });
  const logits = out[s.outputNames[0]!]!.data as Float32Array;
  const emb = out[EMBEDDING_OUTPUT]!;
  const dim = emb.dims[1]!;
  const e = emb.data as Float32Array;
  const K = models.labels.length;
  return Array.from({ length: n }, (_, i) => ({
    probs: softmax(logits, i * K, K),
    views: [unit(e.subarray(i * dim, (i + 1) * dim)), unit(e.subarray((n + i) * dim, (n + i + 1) * dim))],
  }));
}

/** The readings of `boxes` (the original photo's pixels) of a decoded photo. */
export async function embedBoxes(photo: DecodedPhoto, models: EmbedModels, boxes: readonly Box[]): Promise<CropReading[]> {
  return embedCrops(models, profileCrops(photo, models, boxes), boxes.length);
}

/** The embedding width of the models' classifier (512 for the shipped one). */
export async function embeddingDim(models: EmbedModels): Promise<number> {
  const { w, h } = cropSize(models);
  const r = await embedCrops(models, new Float32Array(3 * w * h).fill(0.5), 1);
  return r[0]!.views[0].length;
}
