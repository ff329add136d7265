/** The tile-set profile inside the read stage (issue 69): profileReadings changes a reading before
 * any later stage sees it, and only where the profile has something to say. The classifier is a
 * stand-in that gives each crop the embedding written in its first pixel. */
import { describe, expect, it } from 'vitest';
import { TILE_CODES, type TileCode } from '../../src/vision/types.ts';
import { addExamples, emptyProfile, unit } from '../../src/vision/profile/format.ts';
import { knnScorer, scanProfileScorer } from '../../src/vision/profile/combine.ts';
import { argMax, profileReadings } from '../../src/vision/stages/read.ts';
import { NoEmbeddingError } from '../../src/vision/profile/embed.ts';
import type { Models } from '../../src/vision/session.ts';
import type { OrtSession } from '../../src/vision/runtime.ts';

const DIM = 8, W = 4, H = 4, K = TILE_CODES.length;
const ci = (c: TileCode) => TILE_CODES.indexOf(c);
const axis = (a: number) => { const v = new Float32Array(DIM); v[a] = 1; return v; };

/** A classifier whose embedding of a crop is the axis given by the crop's first pixel (x 10). */
function models(withEmbedding = true): Models {
  const run = async (feeds: Record<string, { data: unknown; dims: readonly number[] }>) => {
    const x = feeds.input!.data as Float32Array;
    const n = feeds.input!.dims[0]!;
    const plane = 3 * W * H;
    const emb = new Float32Array(n * DIM);
    for (let i = 0; i < n; i++) emb[i * DIM + Math.round(x[i * plane]! * 10)] = 1;
    return { logits: { data: new Float32Array(n * K), dims: [n, K] }, embedding: { data: emb, dims: [n, DIM] } };
  };
  const classifier = { inputNames: ['input'], outputNames: withEmbedding ? ['logits', 'embedding'] : ['logits'], run } as unknown as OrtSession;
  return { classifier, labels: TILE_CODES, crop: { w: W, h: H } } as unknown as Models;
}
/** n crops whose embeddings are the given axes (every pixel of a crop holds axis / 10, so turned it is the same). */
function crops(axes: number[]): Float32Array {
  const c = new Float32Array(axes.length * 3 * W * H);
  axes.forEach((a, i) => c.fill(a / 10, i * 3 * W * H, (i + 1) * 3 * W * H));
  return c;
}
function reading(top: TileCode, p: number, second: TileCode, q: number): Float32Array {
  const r = new Float32Array(K).fill((1 - p - q) / (K - 2));
  r[ci(top)] = p;
  r[ci(second)] = q;
  return r;
}
const profile = (...ex: [TileCode, number][]) => addExamples(emptyProfile(DIM), ex.map(([code, a], i) => ({ code, embedding: unit(axis(a)), at: i })));

describe('profileReadings (the read stage with a tile-set profile)', () => {
  it('a North the classifier reads as a flower, like a taught North, is read North; the note counts it', async () => {
    const scorer = knnScorer(profile(['4z', 1], ['f1', 2]));
    const probs = [reading('f1', 0.6, '4z', 0.3)];
    expect(await profileReadings(models(), crops([1]), probs, scorer)).toBe(1);
    expect(TILE_CODES[argMax(probs[0]!)]).toBe('4z');
    expect(probs[0]!.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });

  it('leaves alone a crop near no example, and a reading of a kind the profile has no example of', async () => {
    const scorer = knnScorer(profile(['4z', 1], ['f1', 2]));
    const near = reading('f1', 0.6, '4z', 0.3), untaught = reading('3p', 0.6, '4z', 0.3);
    const probs = [Float32Array.from(near), Float32Array.from(untaught)];
    // crop 0 is like no example (axis 5); crop 1 is like the taught North, but read as 3p
    expect(await profileReadings(models(), crops([5, 1]), probs, scorer)).toBe(0);
    expect(Array.from(probs[0]!)).toEqual(Array.from(near));
    expect(Array.from(probs[1]!)).toEqual(Array.from(untaught));
  });

  it('a scan request\'s profile (codes and embeddings one after another) scores as the profile does; unknown codes are left out', async () => {
    const emb = new Float32Array(3 * DIM);
    emb.set(axis(1), 0);
    emb.set(axis(2), DIM);
    emb.set(axis(3), 2 * DIM);
    const scorer = scanProfileScorer({ dim: DIM, codes: ['4z', 'f1', 'xx'], embeddings: emb });
    expect([...scorer.kinds].sort()).toEqual([ci('4z'), ci('f1')].sort());
    const probs = [reading('f1', 0.6, '4z', 0.3)];
    expect(await profileReadings(models(), crops([1]), probs, scorer)).toBe(1);
  });

  it('a classifier without the embedding output is a NoEmbeddingError', async () => {
    const probs = [reading('f1', 0.6, '4z', 0.3)];
    await expect(profileReadings(models(false), crops([1]), probs, knnScorer(profile(['f1', 1])))).rejects.toBeInstanceOf(NoEmbeddingError);
  });
});
