/**
 * Integration: the shipped model in onnxruntime-web (wasm) in Node recognises
 * small held-out synthetic fixture scenes (test/fixtures/scenes).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { loadDefaultModels, scanBytes } from '../../src/vision/node.ts';
import { CONFIG } from '../../src/vision/config.ts';
import { iou } from '../../src/vision/postprocess.ts';
import type { Box } from '../../src/vision/types.ts';

const dir = new URL('../fixtures/scenes/', import.meta.url);
const scenes = ['holdout-0', 'holdout-1', 'holdout-3'];

describe('vision pipeline with the shipped model', () => {
  it('loads every shipped network: the detector, the finder, both classifiers of the cascade, both flower readers of theirs and the tile verifier', async () => {
    const models = await loadDefaultModels();
    expect(models.classifier2).toBeDefined();
    expect(models.flowers).toBeDefined();
    expect(models.flowers2).toBeDefined();
    expect(models.flowers2!.inputNames).toEqual(models.flowers!.inputNames);
    expect(models.finder).toBeDefined();
    expect(models.classifier2!.inputNames).toEqual(models.classifier.inputNames);
    expect(models.finder!.inputNames).toEqual(models.detector.inputNames);
    expect(models.finder!.outputNames).toEqual(models.detector.outputNames);
    expect(models.verifier).toBeDefined();
    expect(models.verifier!.inputNames).toEqual(models.classifier.inputNames);
    // the files together, as the bench counts them (limit 10 MB)
    const files = ['detector', 'finder', 'classifier', 'classifier2', 'flowers', 'flowers2', 'verifier'].map((f) => readFileSync(new URL(`../../model/${f}.onnx`, import.meta.url)).byteLength);
    expect(models.bytes).toBe(files.reduce((a, b) => a + b, 0));
    expect(models.bytes).toBeLessThan(10e6);
  });

  it('recognises the fixture scenes', async () => {
    const models = await loadDefaultModels();
    let total = 0, right = 0, extra = 0;
    for (const s of scenes) {
      const bytes = new Uint8Array(readFileSync(new URL(`${s}.jpg`, dir)));
      const label = JSON.parse(readFileSync(new URL(`${s}.json`, dir), 'utf8')) as { width: number; height: number; tiles: { code: string; box: Box }[] };
      const r = await scanBytes(bytes, models);
      expect([r.width, r.height]).toEqual([label.width, label.height]);
      const used = new Set<number>();
      for (const g of label.tiles) {
        total++;
        let best = 0.5, bi = -1;
        r.tiles.forEach((t, i) => {
          if (used.has(i)) return;
          const v = iou(g.box, t.box);
          if (v >= best) { best = v; bi = i; }
        });
        if (bi >= 0) {
          used.add(bi);
          if (r.tiles[bi].code === g.code) right++;
        }
      }
      extra += r.tiles.length - used.size;
      // alternatives: at most two other codes, each at least read.altMinProb and no likelier than the tile's own
      for (const t of r.tiles) {
        const alts = t.alternatives ?? [];
        expect(alts.length).toBeLessThanOrEqual(2);
        for (const a of alts) {
          expect(a.code).not.toBe(t.code);
          expect(a.score).toBeGreaterThanOrEqual(CONFIG.read.altMinProb);
        }
        expect(alts.map((a) => a.score)).toEqual([...alts.map((a) => a.score)].sort((x, y) => y - x));
      }
      // reading order: rows top to bottom
      const rows = r.tiles.map((t) => t.row ?? 0);
      expect([...rows].sort((a, b) => a - b)).toEqual(rows);
    }
    expect(right / total).toBeGreaterThanOrEqual(0.9);
    expect(extra).toBeLessThanOrEqual(2);
  });

  it('loses nothing: what it keeps and what it reports as left out are all it detected', async () => {
    const models = await loadDefaultModels();
    const key = (b: Box) => b.join(',');
    for (const s of [...scenes, 'stray-36']) {
      const bytes = new Uint8Array(readFileSync(new URL(`${s}.jpg`, dir)));
      const r = await scanBytes(bytes, models);
      const raw = await scanBytes(bytes, models, { handCheck: false, strayFilter: false });
      // isolatedUnsure runs in both; its drops are reported in both
      const rawAll = [...raw.tiles, ...(raw.leftOut ?? [])].map((t) => key(t.box)).sort();
      expect([...r.tiles, ...(r.leftOut ?? [])].map((t) => key(t.box)).sort()).toEqual(rawAll);
      if (r.leftOut?.length) expect(r.notes?.some((n) => n.includes('left out'))).toBe(true);
    }
  });

  it('finds the tiles of close-ups on the photo shrunk, and the detector alone only then', async () => {
    const models = await loadDefaultModels();
    for (const s of ['close-32', 'close-66']) {
      const bytes = new Uint8Array(readFileSync(new URL(`${s}.jpg`, dir)));
      const label = JSON.parse(readFileSync(new URL(`${s}.json`, dir), 'utf8')) as { tiles: { code: string; box: Box }[] };
      const found = (tiles: { code: string; box: Box }[]) => label.tiles.filter((g) => tiles.some((t) => t.code === g.code && iou(t.box, g.box) >= 0.5)).length;
      const r = await scanBytes(bytes, models);
      expect(r.tiles.map((t) => t.code), s).toEqual(label.tiles.map((t) => t.code));
      expect(found(r.tiles), s).toBe(label.tiles.length);
      // the detector, trained on tiles up to a sixth of the photo, needs the shrunk view (the
      // finder, trained on some close-ups too, may find them at their size: it is another net)
      const off = await scanBytes(bytes, models, { zoomOut: false, finder: false });
      expect(found(off.tiles), s).toBeLessThan(label.tiles.length / 2);
    }
  });

  it('returns an empty result with a reason for a photo without tiles', async () => {
    const models = await loadDefaultModels();
    const plain = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 90, b: 50 } } }).jpeg().toBuffer();
    const r = await scanBytes(new Uint8Array(plain), models);
    expect(r.tiles).toEqual([]);
    expect(r.reason).toMatch(/no tiles/);
  });
});
