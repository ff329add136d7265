/**
 * How a tile-set profile changes a reading: nearest neighbours among the profile's examples give
 * each kind the profile has examples of a bonus in log-probability, growing from nothing at
 * similarity `tau` to `weight` at 1, added to the base reading's log-probabilities.
 *
 * So a crop no example is close to (similarity under tau to every one) keeps its base reading
 * exactly, and a kind the profile has no example of never gains. A tile whose reading is a kind
 * the profile has no example of keeps that reading too (apply.ts): the profile cannot tell how
 * like its own kind the crop is, and on held-out designs changing such tiles cost more than it
 * gained. When the profile has not seen a kind, the base reading stands. The two numbers were calibrated on held-out designs
 * (`scripts/eval/learn.ts`, model/MODEL_CARD.md "Learning a club's set"): the largest gain on the
 * sets taught, with no loss on the other sets.
 */
import { CONFIG } from '../config.ts';
import { TILE_CODES, type TileCode } from '../types.ts';
import type { ProfileExample } from './format.ts';

/** What scoring needs of a profile: its width and its examples' codes and embeddings. */
export interface ProfileExamples { dim: number; examples: readonly Pick<ProfileExample, 'code' | 'embedding'>[] }

export interface CombineConfig {
  /** Cosine similarity of a crop's embedding to an example below which that example says nothing. */
  tau: number;
  /** Log-probability added to a kind whose example is identical to the crop (similarity 1). */
  weight: number;
}

/** The pipeline's CONFIG.profile (its meaning and measurement there). */
export const PROFILE_COMBINE: Readonly<CombineConfig> = CONFIG.profile;

const K = TILE_CODES.length;
const INDEX = new Map<string, number>(TILE_CODES.map((c, i) => [c, i]));

/** A profile's examples by kind index, for fast scoring. */
export interface ProfileIndex {
  dim: number;
  /** Kind index of each example. */
  kinds: Int32Array;
  /** Unit embeddings, one after another (examples x dim). */
  vectors: Float32Array;
  /** How many examples each kind has (K). */
  perKind: Int32Array;
}

export function indexProfile(p: ProfileExamples): ProfileIndex {
  const n = p.examples.length;
  const vectors = new Float32Array(n * p.dim);
  const kinds = new Int32Array(n);
  const perKind = new Int32Array(K);
  p.examples.forEach((e, i) => {
    vectors.set(e.embedding, i * p.dim);
    kinds[i] = INDEX.get(e.code)!;
    perKind[kinds[i]!]!++;
  });
  return { dim: p.dim, kinds, vectors, perKind };
}

/**
 * Per kind, the highest cosine similarity of any of the crop's views (unit embeddings: upright,
 * and turned 180 degrees, since a tile may lie either way up) to that kind's examples; -1 for a
 * kind without examples.
 */
export function kindSimilarities(ix: ProfileIndex, views: readonly Float32Array[]): Float32Array {
  const best = new Float32Array(K).fill(-1);
  const n = ix.kinds.length;
  for (let i = 0; i < n; i++) {
    const off = i * ix.dim;
    for (const q of views) {
      let s = 0;
      for (let d = 0; d < ix.dim; d++) s += q[d]! * ix.vectors[off + d]!;
      const k = ix.kinds[i]!;
      if (s > best[k]!) best[k] = s;
    }
  }
  return best;
}

/** The log-probability bonus per kind from its similarity (kindSimilarities): 0 at tau or less. */
export function similarityBonus(sims: Float32Array, c: CombineConfig = PROFILE_COMBINE): Float32Array {
  const out = new Float32Array(K);
  for (let k = 0; k < K; k++) out[k] = sims[k]! > c.tau ? (c.weight * (sims[k]! - c.tau)) / (1 - c.tau) : 0;
  return out;
}

/**
 * The base reading (probabilities over TILE_CODES) with the bonus added to its log-probabilities,
 * renormalised. With no bonus the base reading is returned unchanged (the same array).
 */
export function combineReading(base: Float32Array, bonus: Float32Array): Float32Array {
  if (!bonus.some((b) => b > 0)) return base;
  const logs = new Float64Array(K);
  let m = -Infinity;
  for (let k = 0; k < K; k++) {
    logs[k] = Math.log(Math.max(base[k]!, 1e-9)) + bonus[k]!;
    if (logs[k]! > m) m = logs[k]!;
  }
  let s = 0;
  for (let k = 0; k < K; k++) s += Math.exp(logs[k]! - m);
  const out = new Float32Array(K);
  for (let k = 0; k < K; k++) out[k] = Math.exp(logs[k]! - m) / s;
  return out;
}

/** Something that gives a crop's bonus per kind from its views' embeddings: the nearest
 * neighbours (knnScorer) or a trained head (head.ts); `kinds` are the kind indices the profile
 * has examples of (a tile read as another kind is left as read: apply.ts profileTile). */
export type ProfileScorer = ((views: readonly Float32Array[]) => Float32Array) & { kinds: ReadonlySet<number> };

/** The kind indices a profile has examples of. */
export const profileKinds = (p: Pick<ProfileExamples, 'examples'>): ReadonlySet<number> => new Set(p.examples.map((e) => INDEX.get(e.code)!));

export function knnScorer(p: ProfileExamples, c: CombineConfig = PROFILE_COMBINE): ProfileScorer {
  const ix = indexProfile(p);
  return Object.assign((views: readonly Float32Array[]) => similarityBonus(kindSimilarities(ix, views), c), { kinds: profileKinds(p) });
}

export const codeIndex = (code: TileCode): number => INDEX.get(code)!;

/** The nearest-neighbour scorer of a scan request's profile (protocol.ts ScanProfile); codes that
 * are no tile code are left out. */
export function scanProfileScorer(sp: { dim: number; codes: readonly string[]; embeddings: Float32Array }): ProfileScorer {
  const examples = sp.codes.flatMap((code, i) => (INDEX.has(code) ? [{ code: code as TileCode, embedding: sp.embeddings.subarray(i * sp.dim, (i + 1) * sp.dim) }] : []));
  return knnScorer({ dim: sp.dim, examples });
}
