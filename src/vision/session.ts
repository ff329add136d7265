/** Load, cache, warm up and dispose the detector, classifier and flower reader sessions. */
import { CONFIG } from './config.ts';
import { createSession, floatTensor, type OrtSession } from './runtime.ts';
import { VisionError, TILE_CODES } from './types.ts';

/** A URL (browser/Node http), a file path (Node), or the model bytes. */
export type ModelSource = string | URL | Uint8Array | ArrayBuffer;

export interface ModelSources {
  detector: ModelSource;
  classifier: ModelSource;
  /** A second classifier (optional), averaged with the first on the crops the first is less sure of. */
  classifier2?: ModelSource;
  /** The flower reader (optional): a second look, on larger crops, at tiles read as flowers. */
  flowers?: ModelSource;
  /** The flower cascade's second reader (optional; with a flowers.onnx of the cascade, flowerProbs). */
  flowers2?: ModelSource;
  /** The finder (optional): a second detector, whose confident finds the first missed are added. */
  finder?: ModelSource;
  /** The tile verifier (optional): tile or not, on the classifier's crops of doubtful detections. */
  verifier?: ModelSource;
}

export interface Models {
  detector: OrtSession;
  classifier: OrtSession;
  /** A second classifier of the same crop size and classes: it reads the crops the first is less
   * sure of (read.secondOpinionBelow in pipeline.ts), and the two average their softmaxes. */
  classifier2?: OrtSession;
  /** For (n, 3, crop.flowerHeight, crop.flowerWidth) crops, logits of f1..f8, or the cascade's 17 values a crop
   * (flowerProbs in pipeline.ts); absent when no flower reader was given. */
  flowers?: OrtSession;
  /** The flower cascade's second reader: f1..f8 log-probabilities of the crops the first mix is unsure of. */
  flowers2?: OrtSession;
  /** A second detector with the detector's inputs and outputs (mergeFinds in postprocess.ts). */
  finder?: OrtSession;
  /** Logits (not a tile, tile) for the classifier's crops (verify.below in pipeline.ts). */
  verifier?: OrtSession;
  labels: readonly string[];
  /** The classifier's crop size (classifierCropSize); crop.width x crop.height when absent. */
  crop?: CropSize;
  /** Total bytes of the model files. */
  bytes: number;
}

export interface CropSize {
  w: number;
  h: number;
}

/** The crop size a classifier file takes: the fixed height and width of its (n, 3, H, W) input,
 * or crop.width x crop.height when the file does not say (the shipped classifier takes 48x64 crops, one
 * trained with `train.py cls --large` 72x96). */
export function classifierCropSize(s: Pick<OrtSession, 'inputMetadata'>): CropSize {
  const meta = s.inputMetadata?.[0];
  const shape = meta && meta.isTensor ? meta.shape : undefined;
  const h = shape?.[2], w = shape?.[3];
  return typeof h === 'number' && typeof w === 'number' && h > 0 && w > 0 ? { w, h } : { w: CONFIG.crop.width, h: CONFIG.crop.height };
}

/** The crop size the models' classifier takes (Models.crop, else crop.width x crop.height). */
export const modelCropSize = (m: Models): CropSize => m.crop ?? { w: CONFIG.crop.width, h: CONFIG.crop.height };

const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

async function readSource(src: ModelSource): Promise<Uint8Array> {
  if (src instanceof Uint8Array) return src;
  if (src instanceof ArrayBuffer) return new Uint8Array(src);
  const s = String(src);
  if (isNode && !/^(https?|blob|data):/.test(s)) {
    const fsName = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs/promises');
    const { fileURLToPath } = (await import(/* @vite-ignore */ 'node:url')) as typeof import('node:url');
    const p = s.startsWith('file:') ? fileURLToPath(s) : s;
    return new Uint8Array(await fs.readFile(p));
  }
  const r = await fetch(s);
  if (!r.ok) throw new Error(`HTTP ${r.status} for ${s}`);
  return new Uint8Array(await r.arrayBuffer());
}

const cache = new Map<string, Promise<Models>>();

function keyOf(src: ModelSources): string | null {
  const k = (s: ModelSource) => (typeof s === 'string' || s instanceof URL ? String(s) : null);
  const opt = (s: ModelSource | undefined) => (s === undefined ? '' : k(s));
  const a = k(src.detector), b = k(src.classifier), b2 = opt(src.classifier2), c = opt(src.flowers), c2 = opt(src.flowers2), f = opt(src.finder), v = opt(src.verifier);
  return a && b && b2 !== null && c !== null && c2 !== null && f !== null && v !== null ? `${a}|${b}|${b2}|${c}|${c2}|${f}|${v}` : null;
}

/** Load the models (cached by source when given as URLs/paths) and warm them up. */
export function loadModels(src: ModelSources): Promise<Models> {
  const key = keyOf(src);
  const hit = key ? cache.get(key) : undefined;
  if (hit) return hit;
  const p = (async () => {
    try {
      const opt = (s: ModelSource | undefined) => (s === undefined ? undefined : readSource(s));
      const [db, cb, cb2, fb, fb2, nb, vb] = await Promise.all([readSource(src.detector), readSource(src.classifier), opt(src.classifier2), opt(src.flowers), opt(src.flowers2), opt(src.finder), opt(src.verifier)]);
      const detector = await createSession(db);
      const classifier = await createSession(cb);
      const crop = classifierCropSize(classifier);
      const m: Models = { detector, classifier, labels: TILE_CODES, crop, bytes: db.byteLength + cb.byteLength + (cb2?.byteLength ?? 0) + (fb?.byteLength ?? 0) + (fb2?.byteLength ?? 0) + (nb?.byteLength ?? 0) + (vb?.byteLength ?? 0) };
      if (cb2) {
        m.classifier2 = await createSession(cb2);
        const c2 = classifierCropSize(m.classifier2);
        if (c2.w !== crop.w || c2.h !== crop.h) throw new Error(`the second classifier takes ${c2.w}x${c2.h} crops, the first ${crop.w}x${crop.h}`);
      }
      if (fb) m.flowers = await createSession(fb);
      if (fb2) {
        if (!fb) throw new Error('a second flower reader was given without a first');
        m.flowers2 = await createSession(fb2);
      }
      if (nb) m.finder = await createSession(nb);
      if (vb) {
        m.verifier = await createSession(vb);
        const v = classifierCropSize(m.verifier);
        if (v.w !== crop.w || v.h !== crop.h) throw new Error(`the verifier takes ${v.w}x${v.h} crops, the classifier ${crop.w}x${crop.h}`);
      }
      await warmUp(m);
      return m;
    } catch (e) {
      if (key) cache.delete(key);
      throw new VisionError('model-load-failed', `could not load the vision models: ${(e as Error).message}`);
    }
  })();
  if (key) cache.set(key, p);
  return p;
}

/** One tiny run of each model so the first real photo does not pay for kernel setup. */
export async function warmUp(m: Models): Promise<void> {
  for (const d of m.finder ? [m.detector, m.finder] : [m.detector]) await d.run({ [d.inputNames[0]]: floatTensor(new Float32Array(3 * 64 * 64).fill(0.5), [1, 3, 64, 64]) });
  const { w, h } = modelCropSize(m);
  for (const c of [m.classifier, ...(m.classifier2 ? [m.classifier2] : []), ...(m.verifier ? [m.verifier] : [])]) await c.run({ [c.inputNames[0]]: floatTensor(new Float32Array(3 * h * w), [1, 3, h, w]) });
  for (const f of [m.flowers, m.flowers2]) if (f) await f.run({ [f.inputNames[0]]: floatTensor(new Float32Array(3 * CONFIG.crop.flowerHeight * CONFIG.crop.flowerWidth), [1, 3, CONFIG.crop.flowerHeight, CONFIG.crop.flowerWidth]) });
}

export async function disposeModels(m?: Models): Promise<void> {
  const all = m ? [Promise.resolve(m)] : [...cache.values()];
  if (!m) cache.clear();
  for (const p of all) {
    try {
      const x = await p;
      await x.detector.release();
      await x.classifier.release();
      await x.classifier2?.release();
      await x.flowers?.release();
      await x.flowers2?.release();
      await x.finder?.release();
      await x.verifier?.release();
    } catch {
      /* already failed or released */
    }
  }
  if (m) for (const [k, v] of cache) if ((await v) === m) cache.delete(k);
}
