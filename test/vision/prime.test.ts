/**
 * primeModels: after loading, each model runs once on the inputs a scan gives it, so that the
 * player's first scan is not the one that pays for compiling and planning (npm run bench:first).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadDefaultModels, scanBytes } from '../../src/vision/node.ts';
import { CONFIG } from '../../src/vision/config.ts';
import { primeInputs, primeModels, primeRaster } from '../../src/vision/prime.ts';
import type { Models } from '../../src/vision/session.ts';
import type { OrtSession } from '../../src/vision/runtime.ts';

type Calls = Map<string, number[][]>;

/** A session that records the dims of each run under `name` and answers with zeros. */
function recorder(name: string, calls: Calls): OrtSession {
  return {
    inputNames: ['x'],
    outputNames: ['y'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      const { dims, data } = feeds.x!;
      expect(data.length).toBe(dims.reduce((a, b) => a * b, 1));
      calls.set(name, [...(calls.get(name) ?? []), [...dims]]);
      return { y: { data: new Float32Array(1), dims: [1] } };
    },
  } as unknown as OrtSession;
}

const names = ['detector', 'finder', 'classifier', 'classifier2', 'verifier', 'flowers', 'flowers2'] as const;

function fakeModels(calls: Calls, only: readonly (typeof names)[number][] = names): Models {
  const m: Record<string, unknown> = { labels: [], bytes: 0 };
  for (const n of only) m[n] = recorder(n, calls);
  return m as unknown as Models;
}

describe('primeModels', () => {
  it('runs each model once, on a 4:3 photo\'s letterboxes and on crops of the models\' sizes', async () => {
    const calls: Calls = new Map();
    await primeModels(fakeModels(calls));
    expect(Object.fromEntries(calls)).toEqual({
      detector: [[1, 3, 384, 512]],
      finder: [[1, 3, 288, 384]],
      classifier: [[CONFIG.prime.crops, 3, CONFIG.crop.height, CONFIG.crop.width]],
      classifier2: [[2, 3, CONFIG.crop.height, CONFIG.crop.width]],
      verifier: [[2, 3, CONFIG.crop.height, CONFIG.crop.width]],
      flowers: [[2, 3, CONFIG.crop.flowerHeight, CONFIG.crop.flowerWidth]],
      flowers2: [[2, 3, CONFIG.crop.flowerHeight, CONFIG.crop.flowerWidth]],
    });
  });

  it('leaves out the models that are not there, and cuts crops at the classifier file\'s own size', async () => {
    const calls: Calls = new Map();
    const m = fakeModels(calls, ['detector', 'classifier']);
    m.crop = { w: 72, h: 96 };
    await primeModels(m);
    expect(Object.fromEntries(calls)).toEqual({ detector: [[1, 3, 384, 512]], classifier: [[CONFIG.prime.crops, 3, 96, 72]] });
  });

  it('cuts the same inputs from the browser\'s kind of raster (RGBA from a canvas) as from Node\'s (RGB bytes)', () => {
    const calls: Calls = new Map();
    const m = fakeModels(calls);
    const browser = primeRaster('browser'), node = primeRaster('node');
    expect([browser.channels, browser.data instanceof Uint8ClampedArray, node.channels, node.data instanceof Uint8Array]).toEqual([4, true, 3, true]);
    const a = primeInputs(m, browser), b = primeInputs(m, node);
    expect(a.map((x) => x.dims)).toEqual(b.map((x) => x.dims));
    a.forEach((x, i) => expect(x.data.length === b[i]!.data.length && x.data.every((v, j) => v === b[i]!.data[j])).toBe(true));
    // grey, not the letterbox's padding alone: the crops hold the raster's 128
    expect(a[2]!.data[0]).toBeCloseTo(128 / 255, 5);
  });

  it('gives the shipped detector and finder the inputs a scan of a 4:3 photo gives them, and the other models inputs of the same sizes', async () => {
    const models = await loadDefaultModels();
    const primed = new Map(primeInputs(models).map((p) => [p.session, p.dims]));
    const seen = new Map<OrtSession, number[][]>();
    const originals = new Map<OrtSession, OrtSession['run']>();
    for (const s of primed.keys()) {
      const run = s.run.bind(s);
      originals.set(s, s.run);
      s.run = (async (feeds: Record<string, { dims: readonly number[] }>, ...rest: unknown[]) => {
        seen.set(s, [...(seen.get(s) ?? []), [...Object.values(feeds)[0]!.dims]]);
        return (run as (...a: unknown[]) => unknown)(feeds, ...rest);
      }) as OrtSession['run'];
    }
    try {
      // 800x600 with a flower, tiles about 70 px tall: the normal pass, and the finder at its coarse
      // size; the flower readers read the flower even when the classifiers are sure of it
      const r = await scanBytes(new Uint8Array(readFileSync(new URL('../fixtures/scenes/holdout-3.jpg', import.meta.url))), models, { flowerTrustAbove: 1.01 });
      expect(r.tiles.length).toBeGreaterThan(10);
    } finally {
      for (const [s, run] of originals) s.run = run;
    }
    expect(seen.get(models.detector)![0]).toEqual(primed.get(models.detector));
    expect(seen.get(models.finder!)![0]).toEqual(primed.get(models.finder!));
    for (const s of [models.classifier, models.flowers!]) {
      expect(seen.get(s)!.length).toBeGreaterThan(0);
      for (const dims of seen.get(s)!) expect(dims.slice(1)).toEqual(primed.get(s)!.slice(1));
    }
    // and priming the shipped models runs
    await primeModels(models);
  });
});
