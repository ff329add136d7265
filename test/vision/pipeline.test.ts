/**
 * scanPhoto's bookkeeping with stand-in models (no ONNX runtime): a detector that "sees" the
 * boxes we place and a classifier that reads each crop as the class we choose. Checks what the
 * pipeline keeps, what it leaves out and what it reports, independent of any trained weights.
 */
import { describe, expect, it } from 'vitest';
import { DET_THRESHOLD, EDGE_RESCUE_THRESHOLD, scanPhoto, type PipelineOptions } from '../../src/vision/pipeline.ts';
import { ISOLATED_BELOW, iou, ZOOM_OUT_FIT } from '../../src/vision/postprocess.ts';
import { classifierCropSize, type CropSize, type Models } from '../../src/vision/session.ts';
import { CROP_H, CROP_W } from '../../src/vision/preprocess.ts';
import type { OrtSession } from '../../src/vision/runtime.ts';
import { TILE_CODES, type Box, type DecodedPhoto } from '../../src/vision/types.ts';

const W = 512, H = 384, STRIDE = 4;
type Placed = { cx: number; cy: number; det: number; code: string };

/** A detector whose heatmap peaks at the placed tiles (24x32 px boxes; cell-aligned centres). */
function fakeDetector(tiles: Placed[]): OrtSession {
  return {
    inputNames: ['image'],
    outputNames: ['heatmap', 'box'],
    run: async (feeds: Record<string, { dims: readonly number[] }>) => {
      const [, , h, w] = feeds.image!.dims as number[];
      const gh = h! / STRIDE, gw = w! / STRIDE, plane = gh * gw;
      const hm = new Float32Array(2 * plane), bx = new Float32Array(4 * plane);
      for (const t of tiles) {
        const i = Math.round(t.cy / STRIDE) * gw + Math.round(t.cx / STRIDE);
        hm[i] = t.det;
        bx[2 * plane + i] = Math.log(24 / STRIDE);
        bx[3 * plane + i] = Math.log(32 / STRIDE);
      }
      return { heatmap: { data: hm, dims: [1, 2, gh, gw] }, box: { data: bx, dims: [1, 4, gh, gw] } };
    },
  } as unknown as OrtSession;
}

/** A classifier that reads the n-th crop (detections come strongest first) as codes[n], surely;
 * the shapes of its inputs go to `seen`. */
function fakeClassifier(codes: string[], seen: number[][] = []): OrtSession {
  return {
    inputNames: ['crops'],
    outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      seen.push([...feeds.crops!.dims]);
      expect(feeds.crops!.data.length).toBe(feeds.crops!.dims.reduce((a, b) => a * b, 1));
      const n = feeds.crops!.dims[0]!, K = TILE_CODES.length;
      const logits = new Float32Array(n * K);
      for (let j = 0; j < n; j++) logits[j * K + TILE_CODES.indexOf(codes[j] as never)] = 12;
      return { logits: { data: logits, dims: [n, K] } };
    },
  } as unknown as OrtSession;
}

function scan(tiles: Placed[], crop?: CropSize, seen?: number[][], opts: PipelineOptions = {}) {
  const byStrength = [...tiles].sort((a, b) => b.det - a.det);
  const models: Models = { detector: fakeDetector(tiles), classifier: fakeClassifier(byStrength.map((t) => t.code), seen), labels: TILE_CODES, bytes: 0 };
  if (crop) models.crop = crop;
  const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: new Uint8Array(W * H * 4).fill(128) }, originalWidth: W, originalHeight: H, notes: [] };
  return scanPhoto(photo, models, { zoom: false, ...opts });
}

/** A row of 14 tiles making a complete hand, strongest first, centres 28 px apart. */
const HAND = ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m', '1p', '2p', '3p', '5p', '5p'];
const row = (codes = HAND): Placed[] => codes.map((code, k) => ({ cx: 40 + 28 * k, cy: 152, det: 0.99 - 0.001 * k, code }));
const at = (box: Box, t: Placed) => iou(box, [t.cx - 12, t.cy - 16, 24, 32]) > 0.9;

/** Detector scores of doubtful tiles, tied to the pipeline's thresholds so that they keep their
 * meaning when a new detector moves them: found but doubtful (the stray filter and the hand check
 * decide), and found but so weak that, far from the hand, it is dropped as background. */
const DOUBTFUL = ISOLATED_BELOW + 0.03;
const WEAK = (DET_THRESHOLD + ISOLATED_BELOW) / 2;

describe('scanPhoto with stand-in models', () => {
  it('leaves out a doubtful detection apart from a complete hand, and reports it', async () => {
    const stray: Placed = { cx: 300, cy: 280, det: DOUBTFUL, code: '5z' };
    const r = await scan([...row(), stray]);
    expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    expect(r.leftOut).toHaveLength(1);
    expect(r.leftOut![0]!.code).toBe('5z');
    expect(at(r.leftOut![0]!.box, stray)).toBe(true);
    expect(r.notes?.join(' ')).toMatch(/one doubtful detection was left out/);
  });

  it('keeps that detection when the hand needs it', async () => {
    const tiles = row(HAND.slice(0, 13));
    const needed: Placed = { cx: 300, cy: 280, det: DOUBTFUL, code: '5p' };
    const r = await scan([...tiles, needed]);
    expect(r.tiles.map((t) => t.code).sort()).toEqual([...HAND].sort());
    expect(r.leftOut).toBeUndefined();
  });

  it('keeps the background rule alive: its score line lies above the detection threshold', () => {
    expect(ISOLATED_BELOW).toBeGreaterThan(DET_THRESHOLD);
  });

  it('reports a lone, unsure detection far from the hand as left out too', async () => {
    const lone: Placed = { cx: 480, cy: 360, det: WEAK, code: '5z' };
    const r = await scan([...row(), lone]);
    expect(r.tiles).toHaveLength(14);
    expect(r.leftOut?.map((d) => d.code)).toEqual(['5z']);
    expect(at(r.leftOut![0]!.box, lone)).toBe(true);
    expect(r.notes?.join(' ')).toMatch(/one doubtful detection far from the other tiles was left out/);
  });

  it('does not leave out a doubtful flower laid aside: a hand is complete without it', async () => {
    const flower: Placed = { cx: 300, cy: 280, det: DOUBTFUL, code: 'f3' };
    const r = await scan([...row(), flower]);
    expect(r.tiles.map((t) => t.code)).toEqual([...HAND, 'f3']);
    expect(r.leftOut).toBeUndefined();
  });

  it('keeps every detection and reports nothing left out when all are sure', async () => {
    const r = await scan(row());
    expect(r.tiles).toHaveLength(14);
    expect(r.leftOut).toBeUndefined();
    expect(r.notes).toBeUndefined();
  });

  // a tile the photo's left edge cuts: its box starts at x = 0; the detector sees it only weakly
  const cut = (code: string, det = 0.3): Placed => ({ cx: 12, cy: 152, det, code });

  it('takes a weak detection cut by the photo\'s edge when the hand lacks it, and says so', async () => {
    const r = await scan([...row(HAND.slice(0, 13)), cut('5p')]);
    expect(r.tiles.map((t) => t.code).sort()).toEqual([...HAND].sort());
    const edge = r.tiles.find((t) => t.box[0] === 0)!;
    expect(edge.code).toBe('5p');
    expect(edge.score).toBeLessThan(0.45);
    expect(r.leftOut).toBeUndefined();
    expect(r.notes?.join(' ')).toMatch(/one weak detection at the photo's edge .* was taken, as the hand needs it/);
  });

  it('does not take it when the hand is complete without it, nor report it', async () => {
    const r = await scan([...row(), cut('5z')]);
    expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    expect(r.leftOut).toBeUndefined();
    expect(r.notes).toBeUndefined();
  });

  it('does not take it when it does not complete the hand', async () => {
    const r = await scan([...row(HAND.slice(0, 13)), cut('7z')]);
    expect(r.tiles.map((t) => t.code)).toEqual(HAND.slice(0, 13));
    expect(r.notes).toBeUndefined();
  });

  it('does not take a weak detection away from the edge, nor one below the edge threshold, nor any without the hand check', async () => {
    const inside: Placed = { cx: 300, cy: 280, det: 0.3, code: '5p' };
    const a = await scan([...row(HAND.slice(0, 13)), inside]);
    const b = await scan([...row(HAND.slice(0, 13)), cut('5p', EDGE_RESCUE_THRESHOLD - 0.05)]);
    const c = await scan([...row(HAND.slice(0, 13)), cut('5p')], undefined, undefined, { handCheck: false });
    for (const r of [a, b, c]) expect(r.tiles.map((t) => t.code)).toEqual(HAND.slice(0, 13));
  });

  it('crops at the size the classifier takes: 72x96 for a large-crop classifier, 48x64 when the models do not say', async () => {
    const large: number[][] = [], plain: number[][] = [];
    const a = await scan(row(), { w: 72, h: 96 }, large);
    const b = await scan(row(), undefined, plain);
    expect(a.tiles.map((t) => t.code)).toEqual(HAND);
    expect(b.tiles.map((t) => t.code)).toEqual(HAND);
    expect(large[0]).toEqual([14, 3, 96, 72]);
    expect(plain[0]).toEqual([14, 3, CROP_H, CROP_W]);
  });
});

describe('classifierCropSize', () => {
  const meta = (shape: (number | string)[] | undefined, isTensor = true) =>
    ({ inputMetadata: shape ? [{ name: 'crops', isTensor, type: 'float32', shape }] : [] }) as unknown as Pick<OrtSession, 'inputMetadata'>;
  it('reads the fixed height and width of the input', () => {
    expect(classifierCropSize(meta(['n', 3, 96, 72]))).toEqual({ w: 72, h: 96 });
    expect(classifierCropSize(meta(['n', 3, 64, 48]))).toEqual({ w: 48, h: 64 });
  });
  it('falls back to 48x64 when the file does not say', () => {
    expect(classifierCropSize(meta(['n', 3, 'h', 'w']))).toEqual({ w: CROP_W, h: CROP_H });
    expect(classifierCropSize(meta(undefined))).toEqual({ w: CROP_W, h: CROP_H });
    expect(classifierCropSize(meta(['n', 3, 96, 72], false))).toEqual({ w: CROP_W, h: CROP_H });
    expect(classifierCropSize({} as Pick<OrtSession, 'inputMetadata'>)).toEqual({ w: CROP_W, h: CROP_H });
  });
});

/**
 * A stand-in detector that looks at its input: it finds the white rectangles (tiles) of the
 * letterboxed photo, like the trained detector, only up to SEES_UP_TO tensor pixels on their
 * long side (the scale it was trained on); larger ones it misses. Reports how it was called.
 */
const SEES_UP_TO = 100;
function rectangleDetector(calls: { content: number }[]): OrtSession {
  return {
    inputNames: ['image'],
    outputNames: ['heatmap', 'box'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      const [, , h, w] = feeds.image!.dims as [number, number, number, number];
      const img = feeds.image!.data;
      const gh = h / STRIDE, gw = w / STRIDE, plane = gh * gw;
      const hm = new Float32Array(2 * plane), bx = new Float32Array(4 * plane);
      const seen = new Uint8Array(w * h);
      let content = 0;
      for (let i = 0; i < w * h; i++) if (img[i] !== 0.5) content++;
      calls.push({ content });
      for (let y0 = 0; y0 < h; y0++) {
        for (let x0 = 0; x0 < w; x0++) {
          if (seen[y0 * w + x0] || img[y0 * w + x0]! < 0.9) continue;
          // rectangles are axis-aligned: grow right and down
          let x1 = x0, y1 = y0;
          while (x1 + 1 < w && img[y0 * w + x1 + 1]! >= 0.9) x1++;
          while (y1 + 1 < h && img[(y1 + 1) * w + x0]! >= 0.9) y1++;
          for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) seen[y * w + x] = 1;
          const bw = x1 - x0 + 1, bh = y1 - y0 + 1;
          if (Math.max(bw, bh) > SEES_UP_TO || Math.min(bw, bh) < 6) continue;
          const cx = (x0 + x1 + 1) / 2 / STRIDE, cy = (y0 + y1 + 1) / 2 / STRIDE;
          const i = Math.floor(cy) * gw + Math.floor(cx);
          hm[i] = 0.95;
          bx[i] = cx - Math.floor(cx);
          bx[plane + i] = cy - Math.floor(cy);
          bx[2 * plane + i] = Math.log(bw / STRIDE);
          bx[3 * plane + i] = Math.log(bh / STRIDE);
        }
      }
      return { heatmap: { data: hm, dims: [1, 2, gh, gw] }, box: { data: bx, dims: [1, 4, gh, gw] } };
    },
  } as unknown as OrtSession;
}

/** A grey 1000x750 photo with white tiles at the given raster boxes. */
function photoOf(boxes: Box[], width = 1000, height = 750): DecodedPhoto {
  const data = new Uint8Array(width * height * 3).fill(128);
  for (const [x, y, w, h] of boxes) {
    for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) data.fill(255, (yy * width + xx) * 3, (yy * width + xx) * 3 + 3);
  }
  return { image: { width, height, channels: 3, data }, originalWidth: width, originalHeight: height, notes: [] };
}

describe('scanPhoto on close-ups (zooming out)', () => {
  const readAs = (codes: string[]) => ({ classifier: fakeClassifier(codes), labels: TILE_CODES, bytes: 0 });
  const near = (a: Box, b: Box) => iou(a, b) > 0.85;

  it('finds tiles too large for the detector on the photo shrunk, in the photo\'s pixels', async () => {
    // three tiles of 240x330 raster px: 123x169 tensor px at the normal scale, too large to see
    const boxes: Box[] = [[100, 200, 240, 330], [360, 200, 240, 330], [620, 200, 240, 330]];
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(boxes), { detector: rectangleDetector(calls), ...readAs(['5z', '5z', '5z']) });
    expect(r.tiles).toHaveLength(3);
    r.tiles.forEach((t, k) => expect(near(t.box, boxes[k]!)).toBe(true));
    // the normal pass saw the whole photo and found nothing; the second saw it at ZOOM_OUT_FIT
    expect(calls).toHaveLength(2);
    expect(calls[1]!.content).toBeCloseTo(calls[0]!.content * ZOOM_OUT_FIT ** 2, -3);
    // without zooming out they are not found at all
    const off = await scanPhoto(photoOf(boxes), { detector: rectangleDetector([]), ...readAs(['5z', '5z', '5z']) }, { zoomOut: false });
    expect(off.tiles).toHaveLength(0);
    expect(off.reason).toMatch(/no tiles/);
  });

  it('zooms out further for huge tiles', async () => {
    // two tiles of 380x520: still 97x133 tensor px at ZOOM_OUT_FIT, found only at ZOOM_OUT_FIT_FAR
    const boxes: Box[] = [[100, 100, 380, 520], [500, 100, 380, 520]];
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(boxes), { detector: rectangleDetector(calls), ...readAs(['1p', '2p']) });
    expect(r.tiles.map((t) => t.code)).toEqual(['1p', '2p']);
    r.tiles.forEach((t, k) => expect(near(t.box, boxes[k]!)).toBe(true));
    expect(calls).toHaveLength(3);
    expect(calls[2]!.content).toBeLessThan(calls[1]!.content);
  });

  it('looks three times at a photo without tiles, and still finds none', async () => {
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf([]), { detector: rectangleDetector(calls), ...readAs([]) });
    expect(r.tiles).toHaveLength(0);
    expect(r.reason).toMatch(/no tiles/);
    expect(calls).toHaveLength(3);
  });

  it('keeps the normal pass for a hand of ordinary tiles', async () => {
    // 14 tiles of 60x80: found by both passes, small in the shrunk one, so the first pass counts
    const boxes: Box[] = HAND.map((_, k) => [40 + 66 * k, 300, 60, 80]);
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(boxes), { detector: rectangleDetector(calls), ...readAs(HAND) }, { zoom: false });
    expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    r.tiles.forEach((t, k) => expect(near(t.box, boxes[k]!)).toBe(true));
    expect(calls).toHaveLength(2);
    const plain = await scanPhoto(photoOf(boxes), { detector: rectangleDetector([]), ...readAs(HAND) }, { zoom: false, zoomOut: false });
    expect(r.tiles).toEqual(plain.tiles);
  });
});
