/** Node entry: default model paths, bytes -> result with sharp decoding. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { decodeNode } from './decode-node.ts';
import { scanPhoto, type PipelineOptions } from './pipeline.ts';
import { classifyTileImage } from './stages/onetile.ts';
import { configureRuntime, MAX_THREADS } from './runtime.ts';
import { loadModels, type Models } from './session.ts';
import type { ScanResult, TileCode } from './types.ts';

export const MODEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'model');

/**
 * wasm threads for Node: the machine's cores, at most MAX_THREADS; `MAHJONG_THREADS` (1..MAX_THREADS)
 * overrides, so a benchmark can be run on one thread. On this project's 2-core machine two threads
 * take the 12 MP bench photo from about 390 to 280 ms (model/HISTORY.md, Speed by stop).
 */
export function nodeThreads(env: Record<string, string | undefined> = process.env, cores = availableParallelism()): number {
  const given = env.MAHJONG_THREADS;
  if (given !== undefined && given !== '') {
    const n = Number(given);
    if (!Number.isInteger(n) || n < 1 || n > MAX_THREADS) throw new RangeError(`MAHJONG_THREADS must be a whole number from 1 to ${MAX_THREADS}, got "${given}"`);
    return n;
  }
  return Math.max(1, Math.min(MAX_THREADS, cores));
}

/** The models in `dir`: detector.onnx, classifier.onnx, and classifier2.onnx, flowers.onnx, flowers2.onnx, finder.onnx and verifier.onnx when there are. The
 * runtime is set to nodeThreads() threads unless it was configured before. */
export function loadDefaultModels(dir = MODEL_DIR): Promise<Models> {
  configureRuntime({ numThreads: nodeThreads() });
  const flowers = path.join(dir, 'flowers.onnx'), flowers2 = path.join(dir, 'flowers2.onnx'), classifier2 = path.join(dir, 'classifier2.onnx'), finder = path.join(dir, 'finder.onnx'), verifier = path.join(dir, 'verifier.onnx');
  return loadModels({ detector: path.join(dir, 'detector.onnx'), classifier: path.join(dir, 'classifier.onnx'), ...(existsSync(classifier2) ? { classifier2 } : {}), ...(existsSync(flowers) ? { flowers } : {}), ...(existsSync(flowers2) ? { flowers2 } : {}), ...(existsSync(finder) ? { finder } : {}), ...(existsSync(verifier) ? { verifier } : {}) });
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
