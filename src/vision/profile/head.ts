/**
 * The other way to learn a set, measured against the nearest neighbours (combine.ts knnScorer): a
 * small head, one linear layer with a softmax over the kinds the profile has examples of, trained
 * with `@tensorflow/tfjs` on the profile's embeddings. Its probabilities give the bonus, gated by
 * how near the crop is to any example (the same tau), so that a crop unlike everything taught keeps
 * its base reading. tfjs, on its wasm backend, is imported only when a head is trained (the app
 * never loads it: the neighbours ship; the evaluation loads it on demand).
 *
 * Measured with classifier real-1 (scripts/eval/learn.ts --methods knn,head, model/MODEL_CARD.md):
 * the head reads as the nearest neighbours do (real photos the same at 1, 2 and 5 taught, held-out
 * designs within a hand), but needs a training for every profile (1.0-1.8 s on average for a
 * profile of 43 examples in Node on a busy 2-core machine), so the neighbours ship.
 */
import type { Scalar } from '@tensorflow/tfjs';
import { TILE_CODES } from '../types.ts';
import { indexProfile, kindSimilarities, profileKinds, PROFILE_COMBINE, type CombineConfig, type ProfileScorer } from './combine.ts';
import type { Profile } from './format.ts';

/** Embeddings are unit vectors; scaled up, the head's logits reach a useful range quickly. */
const INPUT_SCALE = 10;

export interface HeadOptions {
  epochs: number;
  learningRate: number;
  l2: number;
  /** Where tfjs's wasm backend finds its .wasm files (a folder URL, or one URL per file name), in
   * the browser; Node finds them beside the package. */
  wasmPaths?: string | Record<string, string>;
}
export const HEAD_DEFAULTS: HeadOptions = { epochs: 80, learningRate: 0.05, l2: 1e-3 };

type Tf = typeof import('@tensorflow/tfjs');
let backend: Promise<Tf> | null = null;
/** tfjs on its wasm backend (prebuilt SIMD wasm; its plain-JS backend took 0.6-1.3 s a profile in
 * Node, the wasm one 0.2-0.3 s), loaded on the first head trained. */
function tfjs(wasmPaths: HeadOptions['wasmPaths']): Promise<Tf> {
  backend ??= (async () => {
    const tf = await import('@tensorflow/tfjs');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    if (wasmPaths) wasm.setWasmPaths(wasmPaths as Parameters<typeof wasm.setWasmPaths>[0]);
    if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not start');
    return tf;
  })();
  backend.catch(() => { backend = null; });
  return backend;
}

/** A trained head's weights, run in plain TypeScript (no tfjs needed to score). */
export interface TrainedHead { kinds: number[]; dim: number; w: Float32Array; b: Float32Array }

export async function trainHead(p: Pick<Profile, 'dim' | 'examples'>, o: HeadOptions = HEAD_DEFAULTS): Promise<TrainedHead> {
  const kinds = [...new Set(p.examples.map((e) => TILE_CODES.indexOf(e.code)))].sort((a, b) => a - b);
  const nk = kinds.length, n = p.examples.length, dim = p.dim;
  if (nk < 2) return { kinds, dim, w: new Float32Array(dim * nk), b: new Float32Array(nk) };
  const tf = await tfjs(o.wasmPaths);
  const x = new Float32Array(n * dim);
  p.examples.forEach((e, i) => { for (let d = 0; d < dim; d++) x[i * dim + d] = e.embedding[d]! * INPUT_SCALE; });
  const y = new Float32Array(n * nk);
  p.examples.forEach((e, i) => { y[i * nk + kinds.indexOf(TILE_CODES.indexOf(e.code))] = 1; });
  const X = tf.tensor2d(x, [n, dim]), Y = tf.tensor2d(y, [n, nk]);
  const W = tf.variable(tf.zeros([dim, nk])), B = tf.variable(tf.zeros([nk]));
  const opt = tf.train.adam(o.learningRate);
  for (let e = 0; e < o.epochs; e++) {
    opt.minimize(() => tf.losses.softmaxCrossEntropy(Y, tf.add(tf.matMul(X, W), B)).add(tf.mul(o.l2, tf.sum(tf.square(W)))) as Scalar);
  }
  const w = (await W.data()) as Float32Array, b = (await B.data()) as Float32Array;
  tf.dispose([X, Y, W, B]);
  opt.dispose();
  return { kinds, dim, w: Float32Array.from(w), b: Float32Array.from(b) };
}

/** The head's softmax over its kinds for one unit embedding. */
export function headProbs(h: TrainedHead, v: Float32Array): Float32Array {
  const nk = h.kinds.length;
  const z = new Float32Array(nk);
  let m = -Infinity;
  for (let k = 0; k < nk; k++) {
    let s = h.b[k]!;
    for (let d = 0; d < h.dim; d++) s += v[d]! * INPUT_SCALE * h.w[d * nk + k]!;
    z[k] = s;
    if (s > m) m = s;
  }
  let t = 0;
  for (let k = 0; k < nk; k++) { z[k] = Math.exp(z[k]! - m); t += z[k]!; }
  for (let k = 0; k < nk; k++) z[k] = nk === 1 ? 1 : z[k]! / t;
  return z;
}

/** The bonus from a trained head: weight x its probability x the gate (how far above tau the nearest example is). */
export async function headScorer(p: Pick<Profile, 'dim' | 'examples'>, c: CombineConfig = PROFILE_COMBINE, o: HeadOptions = HEAD_DEFAULTS): Promise<ProfileScorer> {
  return scorerOfHead(await trainHead(p, o), p, c);
}

/** headScorer with the head already trained (on `p`). */
export function scorerOfHead(h: TrainedHead, p: Pick<Profile, 'dim' | 'examples'>, c: CombineConfig = PROFILE_COMBINE): ProfileScorer {
  const ix = indexProfile(p);
  return Object.assign((views: readonly Float32Array[]) => {
    const out = new Float32Array(TILE_CODES.length);
    const sims = kindSimilarities(ix, views);
    let best = -1, view = 0;
    for (const s of sims) best = Math.max(best, s);
    if (best <= c.tau) return out;
    // the view (upright or turned) nearest to the examples is the one the head reads
    let vb = -1;
    views.forEach((v, i) => { const s = Math.max(...kindSimilarities(ix, [v])); if (s > vb) { vb = s; view = i; } });
    const gate = (best - c.tau) / (1 - c.tau);
    const q = headProbs(h, views[view]!);
    h.kinds.forEach((k, j) => { out[k] = c.weight * q[j]! * gate; });
    return out;
  }, { kinds: profileKinds(p) });
}
