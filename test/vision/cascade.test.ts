/**
 * readCrops with stand-in networks (no ONNX runtime): which crops each network reads, and how
 * the readings average, with one network, two averaged over every crop, and two as a cascade
 * (the second reads only the crops the first is not sure of).
 */
import { describe, expect, it } from 'vitest';
import { CONFIG } from '../../src/vision/config.ts';
import { flowerProbs } from '../../src/vision/stages/flowers.ts';
import { readCrops } from '../../src/vision/stages/read.ts';
import { softmax } from '../../src/vision/postprocess.ts';
import type { OrtSession } from '../../src/vision/runtime.ts';

const H = 2, W = 2, PLANE = H * W, K = 3;

/** n crops: crop i holds i + 1 in its first pixel and -1 in its last (so a turned crop shows -1 first). */
function crops(n: number): Float32Array {
  const out = new Float32Array(n * 3 * PLANE);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) {
      out[(i * 3 + c) * PLANE] = i + 1;
      out[(i * 3 + c) * PLANE + PLANE - 1] = -1;
    }
  }
  return out;
}

type Seen = { id: number; turned: boolean }[][];

/** A network that reads crop i upright as logits[i][0] and turned as logits[i][1]; each call's crops go to `seen`. */
function net(logits: number[][][], seen: Seen): OrtSession {
  return {
    inputNames: ['crops'],
    outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      const { dims, data } = feeds.crops!;
      expect(dims.slice(1)).toEqual([3, H, W]);
      const n = dims[0]!, out = new Float32Array(n * K), call: Seen[number] = [];
      for (let j = 0; j < n; j++) {
        const first = data[j * 3 * PLANE]!, last = data[j * 3 * PLANE + PLANE - 1]!;
        const turned = first === -1;
        const id = (turned ? last : first) - 1;
        call.push({ id, turned });
        out.set(logits[id]![turned ? 1 : 0]!, j * K);
      }
      seen.push(call);
      return { logits: { data: out, dims: [n, K] } };
    },
  } as unknown as OrtSession;
}

const sm = (l: number[]) => Array.from(softmax(Float32Array.from(l), 0, K));
const mean = (...ps: number[][]) => ps[0]!.map((_, k) => ps.reduce((s, p) => s + p[k]!, 0) / ps.length);
const ids = (s: Seen) => s.map((call) => call.map((c) => `${c.id}${c.turned ? 't' : ''}`));

// crop 0: both networks sure of class 0 (first 0.9999); crop 1: the first 0.92 sure of class 1, the
// second torn; crop 2: both unsure (first 0.56), upright and turned
const A = [
  [[10, 0, 0], [10, 0, 0]],
  [[0, 3.6, 0.7], [0, 3, 0]],
  [[0, 1.2, 0.5], [0, 0.5, 1]],
];
const B = [
  [[9, 0, 0], [9, 0, 0]],
  [[0, 1, 1], [0, 2, 0]],
  [[0, 0.2, 1], [0, 1, 1]],
];

describe('readCrops', () => {
  it('one network: the softmax of each crop, the unsure ones read again turned and averaged', async () => {
    const seen: Seen = [];
    const p = await readCrops([net(A, seen)], crops(3), 3, H, W, K, 'uncertain');
    expect(ids(seen)).toEqual([['0', '1', '2'], ['2t']]);
    expect(Math.max(...sm(A[1]![0]!))).toBeGreaterThan(CONFIG.read.ttaConfident);
    p.forEach((q, i) => {
      const want = i === 2 ? mean(sm(A[2]![0]!), sm(A[2]![1]!)) : sm(A[i]![0]!);
      want.forEach((v, k) => expect(q[k]).toBeCloseTo(v, 6));
    });
  });

  it('two networks with sure >= 1: both read every crop, and their softmaxes average', async () => {
    const sa: Seen = [], sb: Seen = [];
    const p = await readCrops([net(A, sa), net(B, sb)], crops(3), 3, H, W, K, 'off', 1);
    expect(ids(sa)).toEqual([['0', '1', '2']]);
    expect(ids(sb)).toEqual([['0', '1', '2']]);
    p.forEach((q, i) => mean(sm(A[i]![0]!), sm(B[i]![0]!)).forEach((v, k) => expect(q[k]).toBeCloseTo(v, 6)));
  });

  it('cascade: the second network reads only the crops the first is less sure of than `sure`', async () => {
    const sa: Seen = [], sb: Seen = [];
    const p = await readCrops([net(A, sa), net(B, sb)], crops(3), 3, H, W, K, 'off', 0.99);
    expect(ids(sa)).toEqual([['0', '1', '2']]);
    expect(ids(sb)).toEqual([['1', '2']]);
    sm(A[0]![0]!).forEach((v, k) => expect(p[0]![k]).toBeCloseTo(v, 6));
    for (const i of [1, 2]) mean(sm(A[i]![0]!), sm(B[i]![0]!)).forEach((v, k) => expect(p[i]![k]).toBeCloseTo(v, 6));
  });

  it('cascade with turning: a crop read turned is read by the networks its upright reading used', async () => {
    // sure 0.9: crop 1 (first 0.92) keeps the first's reading; crop 2 is read by both, both ways up
    const sa: Seen = [], sb: Seen = [];
    const p = await readCrops([net(A, sa), net(B, sb)], crops(3), 3, H, W, K, 'uncertain', 0.9);
    expect(ids(sa)).toEqual([['0', '1', '2'], ['2t']]);
    expect(ids(sb)).toEqual([['2'], ['2t']]);
    const up = mean(sm(A[2]![0]!), sm(B[2]![0]!)), turned = mean(sm(A[2]![1]!), sm(B[2]![1]!));
    mean(up, turned).forEach((v, k) => expect(p[2]![k]).toBeCloseTo(v, 6));
    // with 'all', the sure crops are turned too, by the first network alone
    const ta: Seen = [], tb: Seen = [];
    const q = await readCrops([net(A, ta), net(B, tb)], crops(3), 3, H, W, K, 'all', 0.9);
    expect(ids(ta)).toEqual([['0', '1', '2'], ['0t', '1t', '2t']]);
    expect(ids(tb)).toEqual([['2'], ['2t']]);
    mean(sm(A[1]![0]!), sm(A[1]![1]!)).forEach((v, k) => expect(q[1]![k]).toBeCloseTo(v, 6));
  });

  it('a cascade whose first reading is unsure and turned below CONFIG.read.ttaConfident still turns it once', async () => {
    // sure 0.5: crop 2 (first 0.56) is not sent on, but 0.56 < read.ttaConfident turns it, by the first alone
    const sa: Seen = [], sb: Seen = [];
    await readCrops([net(A, sa), net(B, sb)], crops(3), 3, H, W, K, 'uncertain', 0.5);
    expect(ids(sa)).toEqual([['0', '1', '2'], ['2t']]);
    expect(sb).toEqual([]);
  });

  it('`confidence` decides the cascade (here the mass of classes 1 and 2 together, as the flowers are), the top probability the turning', async () => {
    const sa: Seen = [], sb: Seen = [];
    await readCrops([net(A, sa), net(B, sb)], crops(3), 3, H, W, K, 'uncertain', 0.9, (p) => p[1]! + p[2]!);
    // crop 0, surely class 0, is unsure of the group: read by both, not turned; crop 1 is sure of
    // the group (0.999), read by the first alone; crop 2 (group 0.83) by both, and turned (top 0.41)
    expect(ids(sa)).toEqual([['0', '1', '2'], ['2t']]);
    expect(ids(sb)).toEqual([['0', '2'], ['2t']]);
  });

  it('refuses an empty list of networks', async () => {
    await expect(readCrops([], crops(1), 1, H, W, K, 'off')).rejects.toThrow(/no network/);
  });
});

describe('flowerProbs: the flower readers, in one graph or as a cascade', () => {
  const FP = CONFIG.crop.flowerHeight * CONFIG.crop.flowerWidth;
  /** n flower crops; crop j holds j + 1 in its first pixel. */
  const flowerCrops = (n: number) => {
    const out = new Float32Array(n * 3 * FP);
    for (let j = 0; j < n; j++) out[j * 3 * FP] = j + 1;
    return out;
  };
  /** A network giving rows[id] for crop id (by its first pixel); the ids of each call go to `seen`. */
  const rowsNet = (rows: number[][], seen: number[][]) => ({
    inputNames: ['crops'],
    outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      const { dims, data } = feeds.crops!;
      expect(dims.slice(1)).toEqual([3, CONFIG.crop.flowerHeight, CONFIG.crop.flowerWidth]);
      const n = dims[0]!, width = rows[0]!.length, out = new Float32Array(n * width), ids: number[] = [];
      for (let j = 0; j < n; j++) {
        const id = data[j * 3 * FP]! - 1;
        ids.push(id);
        out.set(rows[id]!, j * width);
      }
      seen.push(ids);
      return { logits: { data: out, dims: [n, width] } };
    },
  }) as unknown as OrtSession;
  const smN = (l: number[]) => Array.from(softmax(Float32Array.from(l), 0, l.length));
  // the first reader: crop 0 surely f3, crop 1 torn between f3 and f7; the spotter leans to f7 on both
  const reader1 = [[0, 0, 9, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 1, 0]].map((l) => smN(l).map(Math.log));
  const spot = [[0, 0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0, 1, 0]].map((l) => smN(l).map(Math.log));
  const reader2 = [[0, 0, 0, 0, 0, 0, 5, 0], [0, 0, 0, 0, 0, 0, 3, 0]].map((l) => smN(l).map(Math.log));
  const w = 0.4;
  const parts = reader1.map((r, j) => [...r, ...spot[j]!, w]);
  const mixOf = (reader: number[], s: number[]) => smN(reader.map((v, k) => (1 - w) * v + w * s[k]!));

  it('a graph of 8 logits a crop is the whole mix: its softmax', async () => {
    const seen: number[][] = [];
    const p = await flowerProbs({ flowers: rowsNet([[0, 0, 2, 0, 0, 0, 1, 0]], seen) }, flowerCrops(1), 1);
    smN([0, 0, 2, 0, 0, 0, 1, 0]).forEach((v, k) => expect(p[0]![k]).toBeCloseTo(v, 6));
  });

  it('the cascade: the second reader reads only the crops the first mix is unsure of, then the two readers\' mean softmax is mixed', async () => {
    const s1: number[][] = [], s2: number[][] = [];
    const p = await flowerProbs({ flowers: rowsNet(parts, s1), flowers2: rowsNet(reader2, s2) }, flowerCrops(2), 2);
    const first = mixOf(reader1[0]!, spot[0]!);
    expect(Math.max(...first)).toBeGreaterThanOrEqual(CONFIG.flowers.secondBelow);
    expect(Math.max(...mixOf(reader1[1]!, spot[1]!))).toBeLessThan(CONFIG.flowers.secondBelow);
    expect(s1).toEqual([[0, 1]]);
    expect(s2).toEqual([[1]]);
    first.forEach((v, k) => expect(p[0]![k]).toBeCloseTo(v, 6));
    const mean = reader1[1]!.map((v, k) => Math.log((Math.exp(v) + Math.exp(reader2[1]![k]!)) / 2));
    mixOf(mean, spot[1]!).forEach((v, k) => expect(p[1]![k]).toBeCloseTo(v, 6));
    // the second reader turned the torn flower to f7
    expect(p[1]!.indexOf(Math.max(...p[1]!))).toBe(6);
  });

  it('without the second file, the first mix stands for every crop', async () => {
    const p = await flowerProbs({ flowers: rowsNet(parts, []) }, flowerCrops(2), 2);
    mixOf(reader1[1]!, spot[1]!).forEach((v, k) => expect(p[1]![k]).toBeCloseTo(v, 6));
  });

  it('refuses files of another width', async () => {
    await expect(flowerProbs({ flowers: rowsNet([[1, 2, 3]], []) }, flowerCrops(1), 1)).rejects.toThrow(/3 values a crop/);
    await expect(flowerProbs({ flowers: rowsNet([[0, 0, 1, 0, 0, 0, 1, 0, ...spot[1]!, w]], []), flowers2: rowsNet([[1, 2]], []) }, flowerCrops(1), 1)).rejects.toThrow(/flowers2.onnx gives 2 values/);
  });
});
