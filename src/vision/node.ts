/** Node entry: default model paths, bytes -> result with sharp decoding. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { decodeNode } from './decode-node.ts';
import { classifyTileImage, scanPhoto, type PipelineOptions } from './pipeline.ts';
import { loadModels, type Models } from './session.ts';
import type { ScanResult, TileCode } from './types.ts';

export const MODEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'model');

/** The models in `dir`: detector.onnx, classifier.onnx, and flowers.onnx when there is one. */
export function loadDefaultModels(dir = MODEL_DIR): Promise<Models> {
  const flowers = path.join(dir, 'flowers.onnx');
  return loadModels({ detector: path.join(dir, 'detector.onnx'), classifier: path.join(dir, 'classifier.onnx'), ...(existsSync(flowers) ? { flowers } : {}) });
}

export async function scanBytes(bytes: Uint8Array, models: Models, opts: PipelineOptions = {}): Promise<ScanResult> {
  const t = performance.now();
  const photo = await decodeNode(bytes);
  if (opts.timings) opts.timings.decode = performance.now() - t;
  return scanPhoto(photo, models, opts);
}

export async function classifyTileBytes(bytes: Uint8Array, models: Models, k = 3): Promise<{ code: TileCode; score: number }[]> {
  const photo = await decodeNode(bytes, 512);
  return classifyTileImage(photo.image, models, k);
}
