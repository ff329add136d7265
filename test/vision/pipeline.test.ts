/**
 * scanPhoto's bookkeeping with stand-in models (no ONNX runtime): a detector that "sees" the
 * boxes we place and a classifier that reads each crop as the class we choose. Checks what the
 * pipeline keeps, what it leaves out and what it reports, independent of any trained weights.
 */
import { describe, expect, it } from 'vitest';
import { CONFIG } from '../../src/vision/config.ts';
import { type PipelineOptions, scanPhoto, turnBox, unturnBox } from '../../src/vision/pipeline.ts';
import { iou } from '../../src/vision/postprocess.ts';
import { detailRegion } from '../../src/vision/stages/decode.ts';
import { coarseFinderTiles } from '../../src/vision/stages/finds.ts';
import { classifierCropSize, type CropSize, type Models } from '../../src/vision/session.ts';
import type { OrtSession } from '../../src/vision/runtime.ts';
import { TILE_CODES, type Box, type DecodedPhoto } from '../../src/vision/types.ts';
import { orientRaster } from '../../src/vision/orient.ts';

const W = 512, H = 384, STRIDE = 4;
type Placed = { cx: number; cy: number; det: number; code: string };

/** A detector whose heatmap peaks at the placed tiles (24x32 px boxes, or `size`; cell-aligned
 * centres, in its input's px); the dims of its inputs go to `seen`. With `sidewaysWhenWide`, it
 * sees them sideways (32x24), less surely, in a landscape input and upright in a portrait one (the
 * photo turned a quarter). */
function fakeDetector(tiles: Placed[], size: readonly [number, number] = [24, 32], seen: number[][] = [], sidewaysWhenWide = false): OrtSession {
  return {
    inputNames: ['image'],
    outputNames: ['heatmap', 'box'],
    run: async (feeds: Record<string, { dims: readonly number[] }>) => {
      const [, , h, w] = feeds.image!.dims as number[];
      seen.push([...feeds.image!.dims]);
      const gh = h! / STRIDE, gw = w! / STRIDE, plane = gh * gw;
      const hm = new Float32Array(2 * plane), bx = new Float32Array(4 * plane);
      const sideways = sidewaysWhenWide && w! > h!;
      for (const t of tiles) {
        const i = Math.round(t.cy / STRIDE) * gw + Math.round(t.cx / STRIDE);
        hm[(sideways ? plane : 0) + i] = sideways ? t.det * 0.9 : t.det;
        bx[2 * plane + i] = Math.log(size[sideways ? 1 : 0] / STRIDE);
        bx[3 * plane + i] = Math.log(size[sideways ? 0 : 1] / STRIDE);
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
      // 'flower?': a patch the classifier finds flower-like but cannot read (mass 0.63, each flower 0.08);
      for (let j = 0; j < n; j++) {
        if (codes[j] === 'flower?') for (let f = 1; f <= 8; f++) logits[j * K + TILE_CODES.indexOf(`f${f}` as never)] = 2;
        // 'bird?': read as the red dragon at about 0.40, with about 0.10 on the bamboo 1
        else if (codes[j] === 'bird?') { logits[j * K + TILE_CODES.indexOf('7z')] = 3.5; logits[j * K + TILE_CODES.indexOf('1s')] = 2.1; }
        // 'f3|f7': surely a flower, torn between f3 and f7 (about 0.5 each)
        else if (codes[j] === 'f3|f7') { logits[j * K + TILE_CODES.indexOf('f3')] = 12; logits[j * K + TILE_CODES.indexOf('f7')] = 12; }
        else logits[j * K + TILE_CODES.indexOf(codes[j] as never)] = 12;
      }
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

/**
 * Scan a grey photo of `tiles` (fakeDetector) whose classifier reads each tile's code: 'a' surely
 * (logit 12), or 'a|b' as a with b next (b's logit `second(a)`). Returns the codes in reading order.
 */
async function scanTwoGuesses(tiles: Placed[], second: (first: string) => number, opts: PipelineOptions = {}): Promise<string[]> {
  // the detections reach the classifier surest first
  const order = [...tiles].sort((a, b) => b.det - a.det).map((t) => t.code);
  const classifier = {
    inputNames: ['crops'],
    outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[] }>) => {
      const n = feeds.crops!.dims[0]!, K = TILE_CODES.length, logits = new Float32Array(n * K);
      for (let j = 0; j < n; j++) {
        const [a, b] = order[j]!.split('|');
        logits[j * K + TILE_CODES.indexOf(a as never)] = 12;
        if (b) logits[j * K + TILE_CODES.indexOf(b as never)] = second(a!);
      }
      return { logits: { data: logits, dims: [n, K] } };
    },
  } as unknown as OrtSession;
  const models: Models = { detector: fakeDetector(tiles), classifier, labels: TILE_CODES, bytes: 0 };
  const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: new Uint8Array(W * H * 4).fill(128) }, originalWidth: W, originalHeight: H, notes: [] };
  const r = await scanPhoto(photo, models, { zoom: false, tta: 'off', ...opts });
  return r.tiles.map((t) => t.code);
}

/** Detector scores of doubtful tiles, tied to the pipeline's thresholds so that they keep their
 * meaning when a new detector moves them: found but doubtful (the stray filter and the hand check
 * decide), and found but so weak that, far from the hand, it is dropped as background. */
const DOUBTFUL = CONFIG.verify.isolatedBelow + 0.03;
const WEAK = (CONFIG.detect.threshold + CONFIG.verify.isolatedBelow) / 2;

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

  it('sets aside a doubtful detection lying across two tiles found already, says so, and takes it back when the hand needs it', async () => {
    // tiles 28 px wide, 28 px apart, so that a box half over each of two neighbours is covered whole
    const scanTouching = (tiles: Placed[], opts: PipelineOptions = {}) => {
      const byStrength = [...tiles].sort((a, b) => b.det - a.det);
      const models: Models = { detector: fakeDetector(tiles, [28, 32]), classifier: fakeClassifier(byStrength.map((t) => t.code)), labels: TILE_CODES, bytes: 0 };
      const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: new Uint8Array(W * H * 4).fill(128) }, originalWidth: W, originalHeight: H, notes: [] };
      return scanPhoto(photo, models, { zoom: false, ...opts });
    };
    const across = (code: string): Placed => ({ cx: 40 + 28 * 4 + 12, cy: 152, det: DOUBTFUL, code });
    const r = await scanTouching([...row(), across('5z')]);
    expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    expect(r.leftOut?.map((d) => d.code)).toEqual(['5z']);
    expect(r.notes?.join(' ')).toMatch(/one doubtful detection lying over tiles found already was left out/);
    // the rule off: the hand check decides alone, and says nothing of tiles found already
    const off = await scanTouching([...row(), across('5z')], { straddling: false });
    expect(off.notes?.join(' ') ?? '').not.toMatch(/lying over tiles found already/);
    // a hand that lacks a tile the detection reads as: taken back, with its note
    const short = await scanTouching([...row(HAND.slice(0, 13)), across('5p')]);
    expect(short.tiles.map((t) => t.code).sort()).toEqual([...HAND].sort());
    expect(short.notes?.join(' ')).toMatch(/one detection lying over tiles found already was taken, as the hand needs it/);
    // a sure detection, or one read as a flower, is never set aside so
    const sure = await scanTouching([...row(), { ...across('5z'), det: CONFIG.verify.below + 0.05 }]);
    expect(sure.notes?.join(' ') ?? '').not.toMatch(/lying over tiles found already/);
    const flower = await scanTouching([...row(), across('f3')]);
    expect(flower.tiles.map((t) => t.code)).toContain('f3');
  });

  it('keeps the background rule alive: its score line lies above the detection threshold', () => {
    expect(CONFIG.verify.isolatedBelow).toBeGreaterThan(CONFIG.detect.threshold);
  });

  it('reports a lone, unsure detection far from the hand as left out too', async () => {
    const lone: Placed = { cx: 480, cy: 360, det: WEAK, code: '5z' };
    const r = await scan([...row(), lone]);
    expect(r.tiles).toHaveLength(14);
    expect(r.leftOut?.map((d) => d.code)).toEqual(['5z']);
    expect(at(r.leftOut![0]!.box, lone)).toBe(true);
    expect(r.notes?.join(' ')).toMatch(/one doubtful detection far from the other tiles was left out/);
  });

  it('keeps a lone detection far from the hand that the detector is sure of, however doubtfully it is read', async () => {
    // a flower of a design the classifier cannot place: its reading is spread over the eight
    const lone: Placed = { cx: 480, cy: 360, det: CONFIG.verify.below + 0.05, code: 'flower?' };
    const r = await scan([...row(), lone], undefined, undefined, { tta: 'off' });
    expect(r.tiles).toHaveLength(15);
    expect(r.tiles[14]!.score).toBeLessThan(CONFIG.verify.isolatedBelow);
    expect(r.tiles[14]!.code).toMatch(/^f[1-8]$/);
    expect(r.leftOut).toBeUndefined();
  });

  it('reads a pung read doubtfully as the red dragon, with some weight on the bamboo 1, as the set\'s bird, and says so', async () => {
    const sure = [...HAND.slice(0, 9), '5p', '5p'];
    const codes = [...sure, 'bird?', 'bird?', 'bird?'];
    const r = await scan(row(codes), undefined, undefined, { tta: 'off' });
    expect(r.tiles.map((t) => t.code)).toEqual([...sure, '1s', '1s', '1s']);
    expect(r.tiles.slice(11).every((t) => t.handCheck && t.alternatives?.[0]?.code === '7z')).toBe(true);
    expect(r.notes?.join(' ')).toMatch(/3 tiles read doubtfully as one honour were read as the 1 of bamboo/);
    const off = await scan(row(codes), undefined, undefined, { tta: 'off', birdPungs: false });
    expect(off.tiles.map((t) => t.code)).toEqual([...sure, '7z', '7z', '7z']);
  });

  it('reads again, as the set\'s bird, two of six tiles read as the red dragon in a set laid out, and says so', async () => {
    // a set laid out in two rows of twelve: four sure red dragons and two birds of an unseen design
    const codes = ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m', '1p', '2p', '3p', '4p', '5p', '6p', '7p', '7z', '7z', '7z', '7z', 'bird?', 'bird?', '8p', '9p'];
    const grid = codes.map((code, k) => ({ cx: 40 + 28 * (k % 12), cy: 152 + 48 * Math.floor(k / 12), det: 0.99 - 0.001 * k, code }));
    const r = await scan(grid, undefined, undefined, { tta: 'off' });
    const read = r.tiles.map((t) => t.code);
    expect(read.filter((c) => c === '7z')).toHaveLength(4);
    expect(read.filter((c) => c === '1s')).toHaveLength(2);
    expect(r.tiles.filter((t) => t.code === '1s').every((t) => t.handCheck && t.alternatives?.[0]?.code === '7z')).toBe(true);
    expect(r.notes?.join(' ')).toMatch(/2 tiles were read again, as a set has four of each tile/);
    const off = await scan(grid, undefined, undefined, { tta: 'off', atMostFour: false });
    expect(off.tiles.map((t) => t.code).filter((c) => c === '7z')).toHaveLength(6);
  });

  it('does not leave out a doubtful flower laid aside: a hand is complete without it', async () => {
    const flower: Placed = { cx: 300, cy: 280, det: DOUBTFUL, code: 'f3' };
    const r = await scan([...row(), flower]);
    expect(r.tiles.map((t) => t.code)).toEqual([...HAND, 'f3']);
    expect(r.leftOut).toBeUndefined();
  });

  it('leaves out a doubtful detection apart from the hand that it cannot read but as some flower, and keeps a sure one', async () => {
    // beside the row's end: more than stray.gap tile lengths from it, too near to be isolated
    const patch: Placed = { cx: 484, cy: 152, det: DOUBTFUL, code: 'flower?' };
    const a = await scan([...row(), patch], undefined, undefined, { tta: 'off' });
    expect(a.tiles.map((t) => t.code)).toEqual(HAND);
    expect(a.leftOut).toHaveLength(1);
    expect(a.leftOut![0]!.code).toMatch(/^f[1-8]$/);
    expect(at(a.leftOut![0]!.box, patch)).toBe(true);
    // the same reading from a detection scoring handCheck.dropBelow or more, or a flower read surely, is a flower laid aside
    const b = await scan([...row(), { ...patch, det: CONFIG.handCheck.dropBelow + 0.02 }], undefined, undefined, { tta: 'off' });
    expect(b.tiles).toHaveLength(15);
    expect(b.leftOut).toBeUndefined();
    const c = await scan([...row(), { ...patch, code: 'f3' }], undefined, undefined, { tta: 'off' });
    expect(c.tiles.map((t) => t.code)).toEqual([...HAND, 'f3']);
    expect(c.leftOut).toBeUndefined();
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
    const b = await scan([...row(HAND.slice(0, 13)), cut('5p', CONFIG.edge.rescueThreshold - 0.05)]);
    const c = await scan([...row(HAND.slice(0, 13)), cut('5p')], undefined, undefined, { handCheck: false });
    for (const r of [a, b, c]) expect(r.tiles.map((t) => t.code)).toEqual(HAND.slice(0, 13));
  });

  // a weak peak in line with the row, where the row's 14th tile would lie (a dark back on a dark
  // cloth, a blank white dragon): the detector sees it only weakly, away from the photo's edge
  const next = (code: string, det = 0.3): Placed => ({ cx: 40 + 28 * 13, cy: 152, det, code });

  it('takes a weak detection in line with the hand when the hand lacks it, and says so', async () => {
    const r = await scan([...row(HAND.slice(0, 13)), next('5p')]);
    expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    const t = r.tiles.find((x) => at(x.box, next('5p')))!;
    expect(t.code).toBe('5p');
    expect(t.score).toBeLessThan(0.45);
    expect(r.notes?.join(' ')).toMatch(/one weak detection in line with the hand was taken, as the hand needs it/);
    expect(r.notes?.join(' ')).not.toMatch(/photo's edge/);
  });

  it('does not take a weak detection in line with the hand when the hand is complete, when it does not complete it, or with besideRescue off', async () => {
    const a = await scan([...row(), { ...next('5z'), cx: 40 + 28 * 14 }]);
    expect(a.tiles.map((t) => t.code)).toEqual(HAND);
    expect(a.notes).toBeUndefined();
    const b = await scan([...row(HAND.slice(0, 13)), next('7z')]);
    expect(b.tiles.map((t) => t.code)).toEqual(HAND.slice(0, 13));
    const c = await scan([...row(HAND.slice(0, 13)), next('5p')], undefined, undefined, { besideRescue: false });
    expect(c.tiles.map((t) => t.code)).toEqual(HAND.slice(0, 13));
    expect(c.notes).toBeUndefined();
  });

  it('does not take a weak detection in line with the hand when the hand check would also leave a tile out for it', async () => {
    const doubtful: Placed = { cx: 40 + 28 * 14, cy: 152, det: DOUBTFUL, code: '7z' };
    const r = await scan([...row(HAND.slice(0, 13)), next('5p'), doubtful]);
    expect(r.tiles.map((t) => t.code)).toEqual([...HAND.slice(0, 13), '7z']);
    expect(r.notes?.join(' ') ?? '').not.toMatch(/in line with the hand/);
    // the same weak peak at the photo's edge may be taken so (a tile the photo cuts)
    const e = await scan([...row(HAND.slice(0, 13)), cut('5p'), doubtful]);
    expect(e.tiles.map((t) => t.code).sort()).toEqual([...HAND].sort());
    expect(e.notes?.join(' ')).toMatch(/at the photo's edge/);
  });

  // a row of face-down tiles apart from the hand (the wall): three sure, then a weak one
  const wall = (weakDet: number): Placed[] => [
    ...[0, 1, 2].map((k) => ({ cx: 40 + 28 * k, cy: 260, det: 0.9 - 0.01 * k, code: 'back' })),
    { cx: 40 + 28 * 3, cy: 260, det: weakDet, code: 'back' },
  ];

  it('keeps a weak face-down tile that continues a row of face-down tiles once the hand is complete, and says so', async () => {
    const r = await scan([...row(), ...wall(0.45)]);
    expect(r.tiles.filter((t) => t.code === 'back')).toHaveLength(4);
    expect(r.tiles.find((t) => at(t.box, wall(0.45)[3]!))!.score).toBeLessThan(CONFIG.backs.wallScore + 0.1);
    expect(r.notes?.join(' ')).toMatch(/one weak face-down tile in a row of face-down tiles was kept/);
  });

  it('does not keep a weak face-down tile below CONFIG.backs.wallScore, one beside faces only, or any without the hand check', async () => {
    const a = await scan([...row(), ...wall(CONFIG.backs.wallScore - 0.05)]);
    expect(a.tiles.filter((t) => t.code === 'back')).toHaveLength(3);
    expect(a.notes?.join(' ') ?? '').not.toMatch(/face-down/);
    // in line with the hand's faces, not with a face-down tile
    const b = await scan([...row(), { ...next('back', 0.45), cx: 40 + 28 * 14 }]);
    expect(b.tiles.map((t) => t.code)).toEqual(HAND);
    const c = await scan([...row(), ...wall(0.45)], undefined, undefined, { handCheck: false });
    expect(c.tiles.filter((t) => t.code === 'back')).toHaveLength(3);
  });

  it('crops at the size the classifier takes: 72x96 for a large-crop classifier, 48x64 when the models do not say', async () => {
    const large: number[][] = [], plain: number[][] = [];
    const a = await scan(row(), { w: 72, h: 96 }, large);
    const b = await scan(row(), undefined, plain);
    expect(a.tiles.map((t) => t.code)).toEqual(HAND);
    expect(b.tiles.map((t) => t.code)).toEqual(HAND);
    expect(large[0]).toEqual([14, 3, 96, 72]);
    expect(plain[0]).toEqual([14, 3, CONFIG.crop.height, CONFIG.crop.width]);
  });
});

describe('scanPhoto: the flower reader\'s second look, turned 180 degrees as the classifier\'s crops are', () => {
  /** A flower reader that reads its first batch as `first` (logits per crop, f1..f8) and every later
   * (turned) batch as sure f3; the batch sizes go to `batches`. */
  function fakeReader(first: number[][], batches: number[]): OrtSession {
    return {
      inputNames: ['crops'],
      outputNames: ['logits'],
      run: async (feeds: Record<string, { dims: readonly number[] }>) => {
        const n = feeds.crops!.dims[0]!;
        expect(feeds.crops!.dims.slice(1)).toEqual([3, CONFIG.crop.flowerHeight, CONFIG.crop.flowerWidth]);
        const logits = new Float32Array(n * 8);
        for (let j = 0; j < n; j++) logits.set(batches.length ? [0, 0, 12, 0, 0, 0, 0, 0] : first[j]!, j * 8);
        batches.push(n);
        return { logits: { data: logits, dims: [n, 8] } };
      },
    } as unknown as OrtSession;
  }
  // the hand and two flowers laid aside below it, which the classifier reads as f3 and f7
  const flowers: Placed[] = [{ cx: 100, cy: 240, det: 0.95, code: 'f3' }, { cx: 128, cy: 240, det: 0.949, code: 'f7' }];
  // the reader: the first flower surely f3, the second torn between f3 and f7
  const reading = [[0, 0, 12, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 1, 0]];
  // the fake classifier reads each flower surely: the reader is asked to read every candidate
  // (flowerTrustAbove above 1) so that its own looks are what these tests see
  const scanWith = async (tta?: PipelineOptions['tta'], opts: PipelineOptions = { flowerTrustAbove: 1.01 }, placed: Placed[] = flowers) => {
    const tiles = [...row(), ...placed], batches: number[] = [];
    const byStrength = [...tiles].sort((a, b) => b.det - a.det);
    const models: Models = { detector: fakeDetector(tiles), classifier: fakeClassifier(byStrength.map((t) => t.code)), flowers: fakeReader(reading, batches), labels: TILE_CODES, bytes: 0 };
    const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: new Uint8Array(W * H * 4).fill(128) }, originalWidth: W, originalHeight: H, notes: [] };
    const r = await scanPhoto(photo, models, { zoom: false, ...opts, ...(tta === undefined ? {} : { tta }) });
    return { r, batches };
  };

  it('leaves alone, by default, the flowers the classifiers read at least flowers.trustAbove surely', async () => {
    expect(CONFIG.flowers.trustAbove).toBeLessThan(1);
    // both flowers read surely: the reader reads none, and the classifier's readings stand
    const sure = await scanWith(undefined, {});
    expect(sure.batches).toEqual([]);
    expect(sure.r.tiles.filter((t) => t.code.startsWith('f')).map((t) => t.code).sort()).toEqual(['f3', 'f7']);
    // one torn between f3 and f7 (about 0.5 each): only that one is read
    const torn = await scanWith(undefined, {}, [flowers[0]!, { ...flowers[1]!, code: 'f3|f7' }]);
    expect(torn.batches[0]).toBe(1);
  });

  it('reads again turned only the flowers it is unsure of (by default), and averages the two readings', async () => {
    const { r, batches } = await scanWith();
    expect(batches).toEqual([2, 1]);
    // turned, the torn flower reads f3, so the averaged reading makes it less surely f7 than one look does
    const torn = (x: typeof r) => x.tiles.find((t) => at(t.box, flowers[1]!))!;
    const once = (await scanWith('off')).r;
    expect(torn(r).code).toBe('f7');
    expect(torn(r).score).toBeLessThan(torn(once).score - 0.01);
    // the sure one is read once either way
    expect(r.tiles.find((t) => at(t.box, flowers[0]!))!.score).toBeCloseTo(once.tiles.find((t) => at(t.box, flowers[0]!))!.score, 6);
  });

  it('sends on to the second classifier no crop the first is sure is some flower, but still turns it', async () => {
    // a flower the classifier is sure of but torn between f3 and f7, and a bird it reads as the red dragon at 0.4
    const extra: Placed[] = [{ cx: 100, cy: 240, det: 0.95, code: 'f3|f7' }, { cx: 128, cy: 240, det: 0.949, code: 'bird?' }];
    const run = async (withReader: boolean) => {
      const tiles = [...row(), ...extra], first: number[][] = [], second: number[][] = [];
      const codes = [...tiles].sort((a, b) => b.det - a.det).map((t) => t.code);
      const models: Models = { detector: fakeDetector(tiles), classifier: fakeClassifier(codes, first), classifier2: fakeClassifier(codes, second), labels: TILE_CODES, bytes: 0 };
      if (withReader) models.flowers = fakeReader(reading, []);
      const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: new Uint8Array(W * H * 4).fill(128) }, originalWidth: W, originalHeight: H, notes: [] };
      // one reading: a hand of 16 tiles with a bird read as the red dragon makes no complete hand,
      // and the photo turned half round would be read again (turnOver), the batches counted twice
      await scanPhoto(photo, models, { zoom: false, turnOver: false });
      return { first: first.map((d) => d[0]), second: second.map((d) => d[0]) };
    };
    // the second classifier reads the bird, upright and turned; the flower only without a reader;
    // the first reads both again turned either way
    expect(await run(true)).toEqual({ first: [16, 2], second: [1, 1] });
    expect(await run(false)).toEqual({ first: [16, 2], second: [2, 2] });
  });

  it('reads every flower again turned with tta "all", and none with tta "off"', async () => {
    expect((await scanWith('all')).batches).toEqual([2, 2]);
    expect((await scanWith('off')).batches).toEqual([2]);
  });

  it('reads the unsure flowers photographed turned again stood straight, and averages the two readings', async () => {
    // three flowers in a row turned 26.6 degrees (16 px down for every 32 across); the reader reads
    // its first batch as given and any later one (turned 180 degrees, or stood straight) as f3
    const turned: Placed[] = [0, 1, 2].map((k) => ({ cx: 100 + 32 * k, cy: 240 + 16 * k, det: 0.95 - 0.001 * k, code: `f${k + 5}` }));
    const one = (k: number, logit: number) => Array.from({ length: 8 }, (_, f) => (f === k + 4 ? logit : 0));
    const run = async (first: number[][], opts: PipelineOptions) => {
      const tiles = [...row(), ...turned], batches: number[] = [], probs: number[][] = [];
      const byStrength = [...tiles].sort((a, b) => b.det - a.det);
      const models: Models = { detector: fakeDetector(tiles), classifier: fakeClassifier(byStrength.map((t) => t.code)), flowers: fakeReader(first, batches), labels: TILE_CODES, bytes: 0 };
      const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: new Uint8Array(W * H * 4).fill(128) }, originalWidth: W, originalHeight: H, notes: [] };
      const r = await scanPhoto(photo, models, { zoom: false, probs, flowerTrustAbove: 1.01, ...opts });
      const f3 = TILE_CODES.indexOf('f3');
      return { batches, f3: (k: number) => probs[r.tiles.findIndex((t) => at(t.box, turned[k]!))]![f3]! };
    };
    // read unsurely (about 0.5 each) the first time: turned 180 degrees, then stood straight
    const unsure = [0, 1, 2].map((k) => one(k, 2));
    const on = await run(unsure, {}), off = await run(unsure, { flowerStraighten: false });
    expect(on.batches).toEqual([3, 3, 3]);
    expect(off.batches).toEqual([3, 3]);
    // the straight reading (f3) is averaged in
    for (const k of [0, 1, 2]) expect(on.f3(k)).toBeGreaterThan(off.f3(k) + 0.05);
    // read surely the first time: neither turned nor stood straight
    expect((await run([0, 1, 2].map((k) => one(k, 12)), {})).batches).toEqual([3]);
  });
});

describe('scanPhoto: an unsure flower the view shows small, read again from the photo\'s own pixels', () => {
  // a hand of 14 tiles and a flower laid aside below it, which the classifier reads as f3 or f7
  const flower: Placed = { cx: 100, cy: 240, det: 0.95, code: 'f3|f7' };
  /** A flower reader that reads a crop whose centre is bright (> 0.8: the photo's own pixels, see
   * sharpPhoto) as `sharp`, and any other crop as `view` (by default leaning to f3: logits 1.5
   * against 1 for f7). */
  const reader = (sharp: number[], batches: number[], view = [0, 0, 1.5, 0, 0, 0, 1, 0]): OrtSession => ({
    inputNames: ['crops'],
    outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      const n = feeds.crops!.dims[0]!, plane = CONFIG.crop.flowerHeight * CONFIG.crop.flowerWidth;
      const logits = new Float32Array(n * 8);
      for (let j = 0; j < n; j++) {
        const centre = feeds.crops!.data[j * 3 * plane + (CONFIG.crop.flowerHeight >> 1) * CONFIG.crop.flowerWidth + (CONFIG.crop.flowerWidth >> 1)]!;
        logits.set(centre > 0.8 ? sharp : view, j * 8);
      }
      batches.push(n);
      return { logits: { data: logits, dims: [n, 8] } };
    },
  }) as unknown as OrtSession;
  /** A photo `k` times the raster's size whose own pixels (detail) are bright: the regions and
   * sides asked for go to `asked`; with `broken` it cannot be decoded again. */
  function sharpPhoto(k: number, asked: [Box, number][], broken = false): DecodedPhoto {
    return {
      image: { width: W, height: H, channels: 3, data: new Uint8Array(W * H * 3).fill(128) },
      originalWidth: k * W, originalHeight: k * H, notes: [],
      detail: async (region, side) => {
        asked.push([region, side]);
        if (broken) throw new Error('truncated');
        const s = Math.min(1, side / Math.max(region[2], region[3]));
        const w = Math.round(region[2] * s), h = Math.round(region[3] * s);
        return { width: w, height: h, channels: 3, data: new Uint8Array(w * h * 3).fill(230) };
      },
    };
  }
  const run = async (photo: DecodedPhoto, sharp: number[], opts: PipelineOptions = {}) => {
    const tiles = [...row(), flower], batches: number[] = [];
    const codes = [...tiles].sort((a, b) => b.det - a.det).map((t) => t.code);
    const models: Models = { detector: fakeDetector(tiles), classifier: fakeClassifier(codes), flowers: reader(sharp, batches), labels: TILE_CODES, bytes: 0 };
    const r = await scanPhoto(photo, models, { zoom: false, tta: 'off', ...opts });
    return { r, batches, read: r.tiles.find((t) => at(t.box.map((v) => (v * W) / r.width) as Box, flower))! };
  };
  const F7 = [0, 0, 0, 0, 0, 0, 12, 0];

  it('reads it again from the photo decoded again round it, and takes that reading', async () => {
    const asked: [Box, number][] = [];
    const { read, batches, r } = await run(sharpPhoto(4, asked), F7);
    expect(read.code).toBe('f7');
    expect(batches).toEqual([1, 1]);
    // one region round the flower (24x32 raster px: 96x128 in the photo), at the photo's own size
    // (its 128-px tile is under flowers.detailTile)
    expect(asked).toHaveLength(1);
    const [[ax, ay, aw, ah], side] = asked[0]!;
    const [fx, fy, fw, fh] = [4 * (flower.cx - 12), 4 * (flower.cy - 16), 96, 128];
    expect(ax <= fx && ay <= fy && ax + aw >= fx + fw && ay + ah >= fy + fh).toBe(true);
    expect(aw * ah).toBeLessThan(16 * fw * fh);
    expect(side).toBe(Math.max(aw, ah));
    expect(r.notes ?? []).toEqual([]);
    // off, the view's reading stands
    expect((await run(sharpPhoto(4, []), F7, { flowerDetail: false })).read.code).toBe('f3');
  });

  it('shrinks the region so that the flower is CONFIG.flowers.detailTile px long', async () => {
    const asked: [Box, number][] = [];
    await run(sharpPhoto(12, asked), F7);
    // the flower is 384 px long in a photo 12 times the raster's size
    const [[, , aw, ah], side] = asked[0]!;
    expect(side).toBe(Math.round((Math.max(aw, ah) * CONFIG.flowers.detailTile) / 384));
  });

  it('does not decode again a photo no larger than the view, a flower the view shows large enough, or a flower read surely', async () => {
    const asked: [Box, number][] = [];
    expect((await run(sharpPhoto(1, asked), F7)).read.code).toBe('f3');
    // 32 px in the view, 36 in the photo: under flowers.detailMinGain times more
    expect(36 / 32).toBeLessThan(CONFIG.flowers.detailMinGain);
    expect((await run(sharpPhoto(36 / 32, asked), F7)).read.code).toBe('f3');
    expect(asked).toEqual([]);
    // read surely in the view (a reader sure of f3 everywhere): no second look
    const sure = [0, 0, 12, 0, 0, 0, 0, 0];
    const tiles = [...row(), flower], batches: number[] = [];
    const codes = [...tiles].sort((a, b) => b.det - a.det).map((t) => t.code);
    await scanPhoto(sharpPhoto(4, asked), { detector: fakeDetector(tiles), classifier: fakeClassifier(codes), flowers: reader(sure, batches, sure), labels: TILE_CODES, bytes: 0 }, { zoom: false, tta: 'off' });
    expect(asked).toEqual([]);
    expect(batches).toEqual([1]);
    expect(CONFIG.flowers.detailBelow).toBeLessThan(1);
  });

  it('keeps the view\'s reading, and says so, when the photo cannot be decoded again', async () => {
    const asked: [Box, number][] = [];
    const { read, r } = await run(sharpPhoto(4, asked, true), F7);
    expect(asked).toHaveLength(1);
    expect(read.code).toBe('f3');
    expect(r.notes).toContain('the photo could not be decoded again at full resolution: the flowers were read from the smaller copy');
  });
});

describe('scanPhoto on a tile the photo\'s edge cuts', () => {
  it('reads it again from its box completed beyond the edge, and averages the two readings', async () => {
    // a tile whose box the left edge cuts to 20 of 24 px, beside 13 whole ones; the classifier
    // reads its first batch as placed and any later one as the 9m
    const tiles: Placed[] = [{ cx: 8, cy: 152, det: 0.999, code: '1m' }, ...row(HAND.slice(1))];
    const codes = [...tiles].sort((a, b) => b.det - a.det).map((t) => t.code);
    const run = async (opts: PipelineOptions) => {
      const batches: number[][] = [], probs: number[][] = [];
      let call = 0;
      const classifier = {
        inputNames: ['crops'],
        outputNames: ['logits'],
        run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
          const [n, , h, w] = feeds.crops!.dims as number[];
          batches.push([...feeds.crops!.dims]);
          const K = TILE_CODES.length, logits = new Float32Array(n! * K);
          for (let j = 0; j < n!; j++) logits[j * K + TILE_CODES.indexOf((call === 0 ? codes[j] : '9m') as never)] = 12;
          call++;
          expect([h, w]).toEqual([CONFIG.crop.height, CONFIG.crop.width]);
          return { logits: { data: logits, dims: [n!, K] } };
        },
      } as unknown as OrtSession;
      const models: Models = { detector: fakeDetector(tiles), classifier, labels: TILE_CODES, bytes: 0 };
      const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: new Uint8Array(W * H * 4).fill(128) }, originalWidth: W, originalHeight: H, notes: [] };
      const r = await scanPhoto(photo, models, { zoom: false, handCheck: false, probs, ...opts });
      const cut = r.tiles.findIndex((t) => t.box[0] === 0);
      return { batches: batches.map((d) => d[0]), cut: probs[cut]!, box: r.tiles[cut]!.box };
    };
    const on = await run({}), off = await run({ cutTileView: false });
    expect(on.batches).toEqual([14, 1]);
    expect(off.batches).toEqual([14]);
    // the cut box is reported as detected (in the photo), only read again completed
    expect(on.box).toEqual(off.box);
    expect(on.box[2]).toBeLessThan(22);
    const m1 = TILE_CODES.indexOf('1m'), m9 = TILE_CODES.indexOf('9m');
    expect(off.cut[m1]).toBeGreaterThan(0.99);
    expect(on.cut[m1]).toBeCloseTo(0.5, 2);
    expect(on.cut[m9]).toBeCloseTo(0.5, 2);
  });

  it('lets the hand check change one tile at most when a tile is cut (part of the hand may lie outside)', async () => {
    // 4m and 5m read as 4s and 5s at about 0.62, their own kinds at 0.38: two changes complete the hand
    const codes = (cutFirst: boolean) => [cutFirst ? { cx: 8, cy: 152, det: 0.999, code: '1m' } : { cx: 40, cy: 152, det: 0.999, code: '1m' },
      ...HAND.slice(1).map((code, k) => ({ cx: 68 + 28 * k, cy: 152, det: 0.99 - 0.001 * k, code: code === '4m' ? '4s|4m' : code === '5m' ? '5s|5m' : code }))];
    const run = async (tiles: Placed[], opts: PipelineOptions) =>
      (await scanTwoGuesses(tiles, () => 11.5, { cutTileView: false, ...opts })).sort().join(' ');
    const hand = [...HAND].sort().join(' ');
    // no tile cut: both changed
    expect(await run(codes(false), {})).toBe(hand);
    // the 1m cut by the edge: neither changed, as read
    const asRead = await run(codes(true), {});
    expect(asRead).not.toBe(hand);
    expect(asRead.split(' ')).toEqual(expect.arrayContaining(['4s', '5s']));
    expect(await run(codes(true), { cutHandLimit: false })).toBe(hand);
  });

  it('prefers the mend that keeps the hand in reading order (handOrder)', async () => {
    // 1m 1m | 5m 5m 5m | 8m 8m 8m | 5p 5p 5p | 2m 3m 4m laid out in a row; the second 1m read as 1m
    // or 2m alike, the 2m as 3m first: taking the 2m for the second 1m is the cheaper mend (1m 2m
    // 3m ... 3m 4m), but leaves the row out of order
    const codes = ['1m', '1m|2m', '5m', '5m', '5m', '8m', '8m', '8m', '5p', '5p', '5p', '3m|2m', '3m', '4m'];
    const tiles = codes.map((code, k) => ({ cx: 40 + 28 * k, cy: 152, det: 0.99 - 0.001 * k, code }));
    // 1m|2m nearly a tie, 3m|2m further apart (0.59 / 0.41)
    const read = async (opts: PipelineOptions) => (await scanTwoGuesses(tiles, (first) => (first === '1m' ? 11.99 : 11.64), opts)).join(' ');
    expect(await read({})).toBe('1m 1m 5m 5m 5m 8m 8m 8m 5p 5p 5p 2m 3m 4m');
    expect(await read({ handOrder: false })).toBe('1m 2m 5m 5m 5m 8m 8m 8m 5p 5p 5p 3m 3m 4m');
  });
});

describe('scanPhoto with a finder (a second detector for tiles lying apart)', () => {
  /** Paint each placed tile's box in its own grey level (1 + its index), so that a classifier can
   * tell the crops apart by their centre pixel, whatever order and batches they come in. */
  function paint(tiles: Placed[]): Uint8Array {
    const data = new Uint8Array(W * H * 4).fill(128);
    tiles.forEach((t, k) => {
      for (let y = t.cy - 16; y < t.cy + 16; y++) for (let x = t.cx - 12; x < t.cx + 12; x++) data.fill(1 + k, (y * W + x) * 4, (y * W + x) * 4 + 3);
    });
    return data;
  }
  /** Reads a crop by its centre pixel's grey level: codes[level - 1] surely, 'unread' as nothing in particular. */
  function readByLevel(codes: string[], calls: number[]): OrtSession {
    return {
      inputNames: ['crops'],
      outputNames: ['logits'],
      run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
        const [n, , h, w] = feeds.crops!.dims as number[];
        calls.push(n!);
        const K = TILE_CODES.length, logits = new Float32Array(n! * K);
        for (let j = 0; j < n!; j++) {
          const code = codes[Math.round(feeds.crops!.data[j * 3 * h! * w! + (h! >> 1) * w! + (w! >> 1)]! * 255) - 1];
          if (code && code !== 'unread') logits[j * K + TILE_CODES.indexOf(code as never)] = 12;
        }
        return { logits: { data: logits, dims: [n!, K] } };
      },
    } as unknown as OrtSession;
  }
  const hand = row();
  // a flower laid apart, which the detector scores too low and the finder finds
  const flower: Placed = { cx: 400, cy: 300, det: 0.3, code: 'f2' };
  // a domino on the table: the finder takes it for a tile, the classifier cannot read it
  const domino: Placed = { cx: 420, cy: 60, det: 0.3, code: 'unread' };
  const all = [...hand, flower, domino];
  const scanWith = async (opts: PipelineOptions = {}, withFinder = true) => {
    const calls: number[] = [];
    const models: Models = { detector: fakeDetector(all), classifier: readByLevel(all.map((t) => t.code), calls), labels: TILE_CODES, bytes: 0 };
    if (withFinder) models.finder = fakeDetector(all.map((t) => ({ ...t, det: t.det < 0.5 ? 0.8 : 0.7 })));
    const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: paint(all) }, originalWidth: W, originalHeight: H, notes: [] };
    return { r: await scanPhoto(photo, models, { zoom: false, ...opts }), calls };
  };

  it('adds the flower it finds, with the finder\'s score, and not what the classifier cannot read', async () => {
    const { r } = await scanWith();
    expect(r.tiles.map((t) => t.code).sort()).toEqual([...HAND, 'f2'].sort());
    const f = r.tiles.find((t) => t.code === 'f2')!;
    expect(at(f.box, flower)).toBe(true);
    expect(f.score).toBeCloseTo(0.8, 2);
    expect(r.tiles.some((t) => at(t.box, domino))).toBe(false);
    // the hand keeps the detector's own boxes and scores
    for (const t of hand) expect(r.tiles.find((x) => at(x.box, t))!.score).toBeCloseTo(t.det, 2);
    expect(CONFIG.finder.read).toBeGreaterThan(1 / TILE_CODES.length);
  });

  it('finds nothing more without a finder, or with the finder turned off', async () => {
    for (const { r } of [await scanWith({}, false), await scanWith({ finder: false })]) expect(r.tiles.map((t) => t.code)).toEqual(HAND);
  });

  it('reads the finder\'s own finds before the zoom pass, so that a domino does not widen its region', async () => {
    const { r, calls } = await scanWith({ zoom: true });
    expect(calls[0]).toBe(2);
    expect(r.tiles.map((t) => t.code).sort()).toEqual([...HAND, 'f2'].sort());
  });
});

describe('scanPhoto: a find the classifier knows only for some flower', () => {
  // a flower of a design the classifier has never seen, laid apart: the detector scores it too low,
  // the finder finds it, and the classifier spreads it over the eight flowers ('flower?': each about
  // 0.08, together about 0.63), so that its first guess is below finder.read
  const hand = row();
  const flower: Placed = { cx: 400, cy: 300, det: 0.3, code: 'flower?' };
  const all = [...hand, flower];
  const paint = () => {
    const data = new Uint8Array(W * H * 4).fill(128);
    all.forEach((t, k) => {
      for (let y = t.cy - 16; y < t.cy + 16; y++) for (let x = t.cx - 12; x < t.cx + 12; x++) data.fill(1 + k, (y * W + x) * 4, (y * W + x) * 4 + 3);
    });
    return data;
  };
  const level = (d: Float32Array, j: number, h: number, w: number) => Math.round(d[j * 3 * h * w + (h >> 1) * w + (w >> 1)]! * 255) - 1;
  const classifier: OrtSession = {
    inputNames: ['crops'], outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      const [n, , h, w] = feeds.crops!.dims as number[];
      const K = TILE_CODES.length, logits = new Float32Array(n! * K);
      for (let j = 0; j < n!; j++) {
        const code = all[level(feeds.crops!.data, j, h!, w!)]!.code;
        if (code === 'flower?') for (let f = 1; f <= 8; f++) logits[j * K + TILE_CODES.indexOf(`f${f}` as never)] = 2;
        else logits[j * K + TILE_CODES.indexOf(code as never)] = 12;
      }
      return { logits: { data: logits, dims: [n!, K] } };
    },
  } as unknown as OrtSession;
  const verifier = (p: number): OrtSession => ({
    inputNames: ['crops'], outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[] }>) => {
      const n = feeds.crops!.dims[0]!;
      const logits = new Float32Array(n * 2);
      for (let j = 0; j < n; j++) { logits[j * 2] = Math.log(1 - p); logits[j * 2 + 1] = Math.log(p); }
      return { logits: { data: logits, dims: [n, 2] } };
    },
  }) as unknown as OrtSession;
  const scanWith = async (pTile: number | null, opts: PipelineOptions = {}) => {
    // the finder scores the flower below verify.below, so that the verifier is asked about it
    const models: Models = { detector: fakeDetector(all), classifier, finder: fakeDetector(all.map((t) => ({ ...t, det: t === flower ? 0.7 : 0.9 }))), labels: TILE_CODES, bytes: 0 };
    if (pTile !== null) models.verifier = verifier(pTile);
    const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: paint() }, originalWidth: W, originalHeight: H, notes: [] };
    return scanPhoto(photo, models, { zoom: false, ...opts });
  };
  // the tile whose box is centred on the flower's (the finder's box may be smaller than the hand's)
  const flowerTile = (r: { tiles: { code: string; box: Box }[] }) => r.tiles.find(({ box: [x, y, w, h] }) => Math.hypot(x + w / 2 - flower.cx, y + h / 2 - flower.cy) < 4);

  it('keeps it as a flower when the tile verifier is sure it is a tile', async () => {
    expect(0.7).toBeLessThan(CONFIG.verify.below);
    const r = await scanWith(Math.min(0.99, CONFIG.verify.loneVerified + 0.05));
    expect(flowerTile(r)?.code).toMatch(/^f[1-8]$/);
    expect(r.tiles).toHaveLength(HAND.length + 1);
  });

  it('leaves it out when the verifier doubts it (the cloth\'s pattern may look like a flower), or without a verifier', async () => {
    for (const pTile of [CONFIG.verify.loneVerified - 0.2, null]) {
      const r = await scanWith(pTile);
      expect(flowerTile(r)).toBeUndefined();
      expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    }
  });

  it('does the same before the zoom pass, where it would widen the zoom region', async () => {
    const kept = await scanWith(0.99, { zoom: true });
    expect(flowerTile(kept)?.code).toMatch(/^f[1-8]$/);
    const doubted = await scanWith(CONFIG.verify.loneVerified - 0.2, { zoom: true });
    expect(flowerTile(doubted)).toBeUndefined();
    expect(doubted.tiles.map((t) => t.code)).toEqual(HAND);
  });

  it('leaves it out when it is not of the hand\'s size (CONFIG.finder.flowerScale)', async () => {
    const models: Models = { detector: fakeDetector(all), classifier, labels: TILE_CODES, bytes: 0, verifier: verifier(0.99) };
    const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: paint() }, originalWidth: W, originalHeight: H, notes: [] };
    // the finder finds it at 0.7 of the hand's tiles (24x32 px) and at 0.9
    const smaller = (k: number) => scanPhoto(photo, { ...models, finder: fakeDetector([{ ...flower, det: 0.7 }], [24 * k, 32 * k]) }, { zoom: false });
    expect(0.7).toBeLessThan(CONFIG.finder.flowerScale);
    expect(flowerTile(await smaller(0.7))).toBeUndefined();
    expect(flowerTile(await smaller(0.9))?.code).toMatch(/^f[1-8]$/);
  });

  it('leaves it out with the option off: only a first guess of CONFIG.finder.read counts', async () => {
    const r = await scanWith(0.99, { flowerFinds: false });
    expect(flowerTile(r)).toBeUndefined();
  });
});

describe('scanPhoto with a coarse finder (large tiles)', () => {
  // the hand's tiles placed in the detector's 512-px input (the raster's own px)
  const hand = row();
  const finderDims = async (tileSize: readonly [number, number], opts: PipelineOptions = {}) => {
    const dims: number[][] = [];
    const models: Models = { detector: fakeDetector(hand, tileSize), classifier: fakeClassifier(HAND), labels: TILE_CODES, bytes: 0 };
    models.finder = fakeDetector([], tileSize, dims);
    const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: new Uint8Array(W * H * 4).fill(128) }, originalWidth: W, originalHeight: H, notes: [] };
    await scanPhoto(photo, models, { zoom: false, ...opts });
    return dims;
  };

  it('reads the raster at CONFIG.finder.coarseSize when the sure tiles are CONFIG.finder.coarseFrom px long or more', async () => {
    expect(CONFIG.finder.coarseSize).toBeLessThan(W);
    const long = CONFIG.finder.coarseFrom + 4;
    expect(await finderDims([long * 0.75, long])).toEqual([[1, 3, (CONFIG.finder.coarseSize * H) / W, CONFIG.finder.coarseSize]]);
  });

  it('reads it at the detector\'s size for smaller tiles, or with the coarse finder turned off', async () => {
    const short = CONFIG.finder.coarseFrom - 4;
    expect(await finderDims([short * 0.75, short])).toEqual([[1, 3, H, W]]);
    const long = CONFIG.finder.coarseFrom + 4;
    expect(await finderDims([long * 0.75, long], { finderCoarse: false })).toEqual([[1, 3, H, W]]);
  });

  it('judges the tiles by their median long side, and needs two of them', () => {
    const box = (l: number): Box => [0, 0, l * 0.75, l];
    expect(coarseFinderTiles([box(CONFIG.finder.coarseFrom), box(CONFIG.finder.coarseFrom)])).toBe(true);
    expect(coarseFinderTiles([box(CONFIG.finder.coarseFrom)])).toBe(false);
    expect(coarseFinderTiles([box(CONFIG.finder.coarseFrom - 1), box(CONFIG.finder.coarseFrom - 1), box(200)])).toBe(false);
    expect(coarseFinderTiles([box(CONFIG.finder.coarseFrom - 1), box(CONFIG.finder.coarseFrom), box(200)])).toBe(true);
  });
});

describe('scanPhoto with a tile verifier (tile or not, for doubtful detections)', () => {
  // each placed box painted in its own grey level, so that stand-in networks can tell the crops apart
  const paint = (tiles: Placed[]) => {
    const data = new Uint8Array(W * H * 4).fill(128);
    tiles.forEach((t, k) => {
      for (let y = t.cy - 16; y < t.cy + 16; y++) for (let x = t.cx - 12; x < t.cx + 12; x++) data.fill(1 + k, (y * W + x) * 4, (y * W + x) * 4 + 3);
    });
    return data;
  };
  const level = (d: Float32Array, j: number, h: number, w: number) => Math.round(d[j * 3 * h * w + (h >> 1) * w + (w >> 1)]! * 255) - 1;
  /** Classifier: reads each crop as its tile's code, surely; a code ending in '?' at about 0.6, the bamboo 1 next. */
  const reader = (tiles: Placed[]): OrtSession => ({
    inputNames: ['crops'], outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      const [n, , h, w] = feeds.crops!.dims as number[];
      const K = TILE_CODES.length, logits = new Float32Array(n! * K);
      for (let j = 0; j < n!; j++) {
        const code = tiles[level(feeds.crops!.data, j, h!, w!)]!.code;
        if (!code.endsWith('?')) logits[j * K + TILE_CODES.indexOf(code as never)] = 12;
        else { logits[j * K + TILE_CODES.indexOf(code.slice(0, -1) as never)] = 12; logits[j * K + TILE_CODES.indexOf('1s')] = 11.6; }
      }
      return { logits: { data: logits, dims: [n!, K] } };
    },
  }) as unknown as OrtSession;
  /** Verifier: p(tile) as given per placed tile; the tiles it was shown go to `seen`. */
  const verifier = (tiles: Placed[], pTile: Map<Placed, number>, seen: Placed[]): OrtSession => ({
    inputNames: ['crops'], outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      const [n, , h, w] = feeds.crops!.dims as number[];
      const logits = new Float32Array(n! * 2);
      for (let j = 0; j < n!; j++) {
        const t = tiles[level(feeds.crops!.data, j, h!, w!)]!;
        seen.push(t);
        const p = pTile.get(t) ?? 0.99;
        logits[j * 2] = Math.log(1 - p);
        logits[j * 2 + 1] = Math.log(p);
      }
      return { logits: { data: logits, dims: [n!, 2] } };
    },
  }) as unknown as OrtSession;
  // 13 tiles (not a finished hand, so the hand check leaves everything as read), a square of the
  // cloth in line with them that the classifier takes for a white dragon, and a doubtful real tile
  const hand = row(HAND.slice(0, 13));
  const cloth: Placed = { cx: 40 + 28 * 13, cy: 152, det: 0.6, code: '5z' };
  const real: Placed = { cx: 40 + 28 * 14, cy: 152, det: 0.62, code: '9p' };
  const all = [...hand, cloth, real];
  const scanWith = async (withVerifier: boolean, pTile = new Map<Placed, number>([[cloth, 0.1], [real, 0.9]])) => {
    const seen: Placed[] = [];
    const models: Models = { detector: fakeDetector(all), classifier: reader(all), labels: TILE_CODES, bytes: 0 };
    if (withVerifier) models.verifier = verifier(all, pTile, seen);
    const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: paint(all) }, originalWidth: W, originalHeight: H, notes: [] };
    // one reading: 13 tiles make no complete hand, and the stand-ins cannot read the photo turned
    // half round (turnOver), where the painted levels lie elsewhere
    return { r: await scanPhoto(photo, models, { zoom: false, turnOver: false }), seen };
  };

  it('drops a doubtful detection in which the verifier sees no tile, and keeps the doubtful tile it confirms', async () => {
    const { r, seen } = await scanWith(true);
    expect(r.tiles.some((t) => at(t.box, cloth))).toBe(false);
    // not lost: reported as left out, so that the player can take it back
    expect(r.leftOut?.map((t) => t.code)).toEqual(['5z']);
    expect(at(r.leftOut![0]!.box, cloth)).toBe(true);
    expect(r.notes?.join(' ')).toMatch(/one doubtful detection that shows no tile was left out/);
    expect(r.tiles.find((t) => at(t.box, real))?.code).toBe('9p');
    expect(r.tiles).toHaveLength(14);
    // only the detections below verify.below are shown to it, each once
    expect(new Set(seen)).toEqual(new Set([cloth, real]));
    expect(seen).toHaveLength(2);
    expect(hand.every((t) => t.det >= CONFIG.verify.below)).toBe(true);
  });

  it('keeps everything as read without a verifier, or when the verifier is not sure enough it is not a tile', async () => {
    const { r } = await scanWith(false);
    expect(r.tiles).toHaveLength(15);
    expect(r.leftOut).toBeUndefined();
    expect(r.tiles.find((t) => at(t.box, cloth))?.code).toBe('5z');
    const unsure = await scanWith(true, new Map([[cloth, CONFIG.verify.drop + 0.05]]));
    expect(unsure.r.tiles.some((t) => at(t.box, cloth))).toBe(true);
  });

  it('takes back a detection the verifier doubted when the hand needs it (a plain tile it took for the cloth), and says so', async () => {
    // the hand lacks its second 5p; a doubtful 5p in line with it, which the verifier rejects, and
    // a doubtful flower it rejects too (no hand needs a flower: it stays out)
    const plain: Placed = { cx: 40 + 28 * 13, cy: 152, det: 0.6, code: '5p' };
    const flower: Placed = { cx: 40 + 28 * 14, cy: 152, det: 0.58, code: 'f3' };
    const tiles = [...row(HAND.slice(0, 13)), plain, flower];
    const models: Models = { detector: fakeDetector(tiles), classifier: reader(tiles), verifier: verifier(tiles, new Map([[plain, 0.1], [flower, 0.1]]), []), labels: TILE_CODES, bytes: 0 };
    const photo = (): DecodedPhoto => ({ image: { width: W, height: H, channels: 4, data: paint(tiles) }, originalWidth: W, originalHeight: H, notes: [] });
    const r = await scanPhoto(photo(), models, { zoom: false });
    expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    expect(r.leftOut?.map((t) => t.code)).toEqual(['f3']);
    expect(r.notes?.join(' ')).toMatch(/one detection that the tile verifier doubted was taken, as the hand needs it/);
    expect(r.notes?.join(' ')).toMatch(/one doubtful detection that shows no tile was left out/);
    // not without the hand check: then both stay left out, and reported
    const off = await scanPhoto(photo(), models, { zoom: false, handCheck: false });
    expect(off.tiles).toHaveLength(13);
    expect(off.leftOut?.map((t) => t.code)).toEqual(['5p', 'f3']);
  });

  it('keeps a lone, doubtful detection far from the hand that the verifier confirms (a flower laid apart), and leaves out one it doubts', async () => {
    // a complete hand, and a detection in the far corner scoring below verify.isolatedBelow
    const lone: Placed = { cx: 480, cy: 360, det: WEAK, code: 'f6' };
    const tiles = [...row(), lone];
    const scanLone = async (p: number) => {
      const models: Models = { detector: fakeDetector(tiles), classifier: reader(tiles), verifier: verifier(tiles, new Map([[lone, p]]), []), labels: TILE_CODES, bytes: 0 };
      const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: paint(tiles) }, originalWidth: W, originalHeight: H, notes: [] };
      return scanPhoto(photo, models, { zoom: false });
    };
    const kept = await scanLone((CONFIG.verify.loneVerified + 1) / 2);
    expect(kept.tiles.map((t) => t.code)).toEqual([...HAND, 'f6']);
    expect(kept.leftOut).toBeUndefined();
    // a tile to the verifier, but not surely enough to outweigh the doubt: left out, and reported
    const doubted = await scanLone((CONFIG.verify.drop + CONFIG.verify.loneVerified) / 2);
    expect(doubted.tiles.map((t) => t.code)).toEqual(HAND);
    expect(doubted.leftOut?.map((t) => t.code)).toEqual(['f6']);
    expect(doubted.notes?.join(' ')).toMatch(/one doubtful detection far from the other tiles was left out/);
  });

  it('keeps a sure tile cut by the photo\'s edge, seen weakly, when the hand is not complete (part of it outside the photo), and says so', async () => {
    // 12 tiles: no tile completes the hand (two more lie outside the photo); a weak detection at the left edge
    const edge: Placed = { cx: 12, cy: 152, det: 0.3, code: '7z' };
    const tiles = [...row(HAND.slice(0, 12)), edge];
    const scanEdge = async (p: number, opts: PipelineOptions = {}, placed = tiles) => {
      const models: Models = { detector: fakeDetector(placed), classifier: reader(placed), verifier: verifier(placed, new Map([[edge, p]]), []), labels: TILE_CODES, bytes: 0 };
      const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: paint(placed) }, originalWidth: W, originalHeight: H, notes: [] };
      return scanPhoto(photo, models, { zoom: false, turnOver: false, ...opts });
    };
    const kept = await scanEdge((CONFIG.edge.keepVerified + 1) / 2);
    expect(kept.tiles.map((t) => t.code).sort()).toEqual([...HAND.slice(0, 12), '7z'].sort());
    const t = kept.tiles.find((x) => x.box[0] === 0)!;
    expect(t.code).toBe('7z');
    expect(t.score).toBeLessThan(0.45);
    expect(kept.notes?.join(' ')).toMatch(/one tile at the photo's edge, seen weakly, was kept, as the hand is not complete/);
    // the verifier doubting it, the rule off, or the hand check off: not kept, and no note
    for (const r of [await scanEdge(CONFIG.edge.keepVerified - 0.1), await scanEdge(0.99, { edgeKeep: false }), await scanEdge(0.99, { handCheck: false })]) {
      expect(r.tiles.map((x) => x.code)).toEqual(HAND.slice(0, 12));
      expect(r.notes?.join(' ') ?? '').not.toMatch(/photo's edge/);
    }
    // nor read unsurely (at about 0.6, from a peak just under the threshold, so that it is an edge
    // candidate all the same), nor below the edge threshold, nor away from the edge, nor at the edge
    // but away from the hand (the cloth's pattern)
    for (const other of [{ ...edge, det: CONFIG.detect.threshold - 0.05, code: '7z?' }, { ...edge, det: CONFIG.edge.rescueThreshold - 0.05 }, { ...edge, cx: 40 + 28 * 13 }, { ...edge, cx: 400, cy: H - 16 }]) {
      const r = await scanEdge(0.99, {}, [...tiles.slice(0, 12), other]);
      expect(r.tiles.map((x) => x.code)).toEqual(HAND.slice(0, 12));
    }
  });

  it('does not let the hand check leave out a doubtful detection the verifier is sure of (a spare face-down tile, a flower read as a suit tile)', async () => {
    // a complete hand, and doubtful detections apart from it, below handCheck.dropBelow: without the verifier
    // the hand check leaves them out, as it does a square of the cloth
    for (const code of ['back', '5z']) {
      const apart: Placed = { cx: 300, cy: 280, det: DOUBTFUL, code };
      expect(apart.det).toBeLessThan(CONFIG.handCheck.dropBelow);
      const tiles = [...row(), apart];
      const scanApart = async (p: number, opts: PipelineOptions = {}) => {
        const models: Models = { detector: fakeDetector(tiles), classifier: reader(tiles), verifier: verifier(tiles, new Map([[apart, p]]), []), labels: TILE_CODES, bytes: 0 };
        const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: paint(tiles) }, originalWidth: W, originalHeight: H, notes: [] };
        // one reading: a hand and a verified tile it does not take make no complete hand, and the
        // stand-ins cannot read the photo turned half round (turnOver), where the painted levels lie elsewhere
        return scanPhoto(photo, models, { zoom: false, turnOver: false, ...opts });
      };
      const sure = await scanApart((CONFIG.verify.loneVerified + 1) / 2);
      expect(sure.tiles.map((t) => t.code).sort()).toEqual([...HAND, code].sort());
      expect(sure.tiles.some((t) => at(t.box, apart))).toBe(true);
      expect(sure.leftOut).toBeUndefined();
      // the verifier not sure enough, or the rule off: left out as before, and reported
      for (const r of [await scanApart((CONFIG.verify.drop + CONFIG.verify.loneVerified) / 2), await scanApart(0.99, { verifiedStay: false })]) {
        expect(r.tiles.map((t) => t.code)).toEqual(HAND);
        expect(r.leftOut?.map((t) => t.code)).toEqual([code]);
      }
    }
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
    expect(classifierCropSize(meta(['n', 3, 'h', 'w']))).toEqual({ w: CONFIG.crop.width, h: CONFIG.crop.height });
    expect(classifierCropSize(meta(undefined))).toEqual({ w: CONFIG.crop.width, h: CONFIG.crop.height });
    expect(classifierCropSize(meta(['n', 3, 96, 72], false))).toEqual({ w: CONFIG.crop.width, h: CONFIG.crop.height });
    expect(classifierCropSize({} as Pick<OrtSession, 'inputMetadata'>)).toEqual({ w: CONFIG.crop.width, h: CONFIG.crop.height });
  });
});

/**
 * A stand-in detector that looks at its input: it finds the white rectangles (tiles) of the
 * letterboxed photo, like the trained detector, only up to SEES_UP_TO tensor pixels on their
 * long side (the scale it was trained on); larger ones it misses. Reports how it was called.
 */
const SEES_UP_TO = 100;
/** Grey level of a faint tile (photoOf's `faint`): the stand-in detector sees it surely only from
 * `faintFrom` tensor pixels on its long side (a tile lying apart, which the trained detector
 * scores too low at the normal scale), and smaller as a weak peak of FAINT_WEAK. */
const FAINT = 220;
/** A weak peak: a hint for the look for tiles apart (outer.hint), below every other threshold. */
const FAINT_WEAK = 0.1;
function rectangleDetector(calls: { content: number }[], faintFrom = Infinity): OrtSession {
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
      // white (>= 0.9), or faint (0.8-0.9)
      const kind = (v: number) => (v >= 0.9 ? 2 : v >= 0.8 ? 1 : 0);
      for (let y0 = 0; y0 < h; y0++) {
        for (let x0 = 0; x0 < w; x0++) {
          const k = kind(img[y0 * w + x0]!);
          if (seen[y0 * w + x0] || !k) continue;
          // rectangles are axis-aligned: grow right and down
          let x1 = x0, y1 = y0;
          while (x1 + 1 < w && kind(img[y0 * w + x1 + 1]!) === k) x1++;
          while (y1 + 1 < h && kind(img[(y1 + 1) * w + x0]!) === k) y1++;
          for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) seen[y * w + x] = 1;
          const bw = x1 - x0 + 1, bh = y1 - y0 + 1;
          if (Math.max(bw, bh) > SEES_UP_TO || Math.min(bw, bh) < 6) continue;
          const cx = (x0 + x1 + 1) / 2 / STRIDE, cy = (y0 + y1 + 1) / 2 / STRIDE;
          const i = Math.floor(cy) * gw + Math.floor(cx);
          hm[i] = k === 1 && Math.max(bw, bh) < faintFrom ? FAINT_WEAK : 0.95;
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

/** A grey 1000x750 photo with white tiles at the given raster boxes (and faint ones: FAINT). */
function photoOf(boxes: Box[], width = 1000, height = 750, faint: Box[] = []): DecodedPhoto {
  const data = new Uint8Array(width * height * 3).fill(128);
  for (const [v, bs] of [[255, boxes], [FAINT, faint]] as const) {
    for (const [x, y, w, h] of bs) {
      for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) data.fill(v, (yy * width + xx) * 3, (yy * width + xx) * 3 + 3);
    }
  }
  return { image: { width, height, channels: 3, data }, originalWidth: width, originalHeight: height, notes: [] };
}

/** A tile verifier that gives every crop p(tile) = p. */
const verifierOf = (p: number): OrtSession => ({
  inputNames: ['crops'], outputNames: ['logits'],
  run: async (feeds: Record<string, { dims: readonly number[] }>) => {
    const n = feeds.crops!.dims[0]!, logits = new Float32Array(2 * n);
    for (let j = 0; j < n; j++) { logits[2 * j] = Math.log(1 - p); logits[2 * j + 1] = Math.log(p); }
    return { logits: { data: logits, dims: [n, 2] } };
  },
}) as unknown as OrtSession;

describe('scanPhoto: the look for tiles apart from the hand (outerFinds)', () => {
  // a hand of 40x54 raster px tiles (large enough not to call for the fine search), and a tile of
  // its size far from it that the detector sees only at the raster's resolution (a weak peak at 512)
  const hand: Box[] = HAND.map((_, k) => [150 + 44 * k, 300, 40, 54]);
  const lone: Box = [880, 620, 40, 54];
  // the stand-in detector sees the lone tile (40x54) at the raster's resolution, not at half of it
  const models = (p: number, calls: { content: number }[] = [], faintFrom = 40): Models =>
    ({ detector: rectangleDetector(calls, faintFrom), classifier: fakeClassifier(new Array(20).fill('f3')), verifier: verifierOf(p), labels: TILE_CODES, bytes: 0 });

  it('finds a tile apart from the hand that the normal pass misses, when the verifier sees a tile in it', async () => {
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(hand, 1000, 750, [lone]), models((CONFIG.verify.loneVerified + 1) / 2, calls), { handCheck: false });
    expect(r.tiles).toHaveLength(15);
    expect(r.tiles.filter((t) => iou(t.box, lone) > 0.8)).toHaveLength(1);
    // normal (no zoom-out for a hand of small tiles), then the look at the raster's resolution, only
    // in a window round the weak peak: outer.window tile lengths square, less than the normal pass's input
    expect(calls[1]!.content).toBeLessThanOrEqual((CONFIG.outer.window * 54 + 1) ** 2);
    expect(calls[1]!.content).toBeGreaterThan((2 * 54) ** 2);
    expect(calls[1]!.content).toBeLessThan(calls[0]!.content);
  });

  it('reads the whole raster at CONFIG.outer.size with outerWindows off, and finds the same tile', async () => {
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(hand, 1000, 750, [lone]), models(0.99, calls), { handCheck: false, outerWindows: false });
    expect(r.tiles.filter((t) => iou(t.box, lone) > 0.8)).toHaveLength(1);
    expect(r.tiles).toHaveLength(15);
    expect(calls[1]!.content).toBeGreaterThan(3 * calls[0]!.content);
  });

  it('does not look again where the normal pass saw no peak at all', async () => {
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(hand), models(0.99, calls), { handCheck: false });
    expect(r.tiles).toHaveLength(14);
    // the normal pass and the zoom pass (its input holds the hand only)
    expect(calls).toHaveLength(2);
    expect(calls[1]!.content).toBeLessThan(calls[0]!.content);
  });

  it('does not add it when the verifier doubts it, with outerLook off, or when it is not of the hand\'s size', async () => {
    const doubted = await scanPhoto(photoOf(hand, 1000, 750, [lone]), models(CONFIG.verify.loneVerified - 0.1), { handCheck: false });
    expect(doubted.tiles).toHaveLength(14);
    const off = await scanPhoto(photoOf(hand, 1000, 750, [lone]), models(0.99), { handCheck: false, outerLook: false });
    expect(off.tiles).toHaveLength(14);
    expect(off.tiles.some((t) => iou(t.box, lone) > 0.1)).toBe(false);
    // a domino's half, a coin: larger or smaller than the hand's tiles by more than stray.scale
    const big: Box = [820, 560, 90, 122], small: Box = [880, 620, 16, 22];
    // (each seen at the raster's resolution only, as the lone tile)
    for (const [b, from] of [[big, 64], [small, 16]] as const) {
      const calls: { content: number }[] = [];
      expect((await scanPhoto(photoOf(hand, 1000, 750, [b]), models(0.99, calls, from), { handCheck: false })).tiles).toHaveLength(14);
      // normal, the look round the weak peak, the zoom pass
      expect(calls).toHaveLength(3);
    }
  });

  it('does not look without a hand beside which a tile could lie', async () => {
    const r = await scanPhoto(photoOf([hand[0]!], 1000, 750, [lone]), models(0.99), { handCheck: false });
    expect(r.tiles).toHaveLength(1);
  });

  it('keeps the find in the photo\'s pixels when the zoom pass reads the full-resolution photo and does not find it again', async () => {
    // a 1000x750 raster of a 3000x2250 photo; tiles under detail.below raster px, so the zoom pass
    // decodes their region again, at detail.side: there the detector's input is smaller than outer.size
    const small: Box[] = HAND.map((_, k) => [100 + 44 * k, 300, 40, 56]);
    const apart: Box = [400, 620, 40, 56];
    const photo = photoOf(small, 1000, 750, [apart]);
    photo.originalWidth = 3000; photo.originalHeight = 2250;
    const asked: Box[] = [];
    photo.detail = async (region, side) => {
      asked.push(region);
      const k = Math.min(1, side / Math.max(region[2], region[3]));
      const w = Math.round(region[2] * k), h = Math.round(region[3] * k);
      const data = new Uint8Array(w * h * 3).fill(128);
      for (const [v, bs] of [[255, small], [FAINT, [apart]]] as const) {
        for (const [x, y, bw, bh] of bs) {
          for (let yy = Math.max(0, Math.round((3 * y - region[1]) * k)); yy < Math.min(h, Math.round((3 * (y + bh) - region[1]) * k)); yy++) {
            for (let xx = Math.max(0, Math.round((3 * x - region[0]) * k)); xx < Math.min(w, Math.round((3 * (x + bw) - region[0]) * k)); xx++) data.fill(v, (yy * w + xx) * 3, (yy * w + xx) * 3 + 3);
          }
        }
      }
      return { width: w, height: h, channels: 3, data };
    };
    const r = await scanPhoto(photo, models(0.99), { handCheck: false });
    // the region decoded again takes in the tile apart
    expect(asked).toHaveLength(1);
    expect(asked[0]![1] + asked[0]![3]).toBeGreaterThanOrEqual(3 * (apart[1] + apart[3]));
    expect(r.tiles).toHaveLength(15);
    const x3 = (b: Box): Box => [3 * b[0], 3 * b[1], 3 * b[2], 3 * b[3]];
    expect(r.tiles.filter((t) => iou(t.box, x3(apart)) > 0.8)).toHaveLength(1);
    small.forEach((b) => expect(r.tiles.some((t) => iou(t.box, x3(b)) > 0.8)).toBe(true));
  });
});

describe('scanPhoto: what the zoom pass does not find again (keepFirst)', () => {
  // four tiles of 40x54 raster px, and three of 100x130: 51x67 tensor px in the normal pass, but
  // about 86x112 in the zoom pass (a region of about 620 px), over what the stand-in detector sees
  // (SEES_UP_TO); the small ones it sees in both
  const small: Box[] = [0, 1, 2, 3].map((k) => [100 + 44 * k, 300, 40, 54]);
  const large: Box[] = [[300, 250, 100, 130], [404, 250, 100, 130], [508, 250, 100, 130]];
  const models = (p: number, calls: { content: number }[] = []): Models =>
    ({ detector: rectangleDetector(calls), classifier: fakeClassifier(new Array(7).fill('1m')), verifier: verifierOf(p), labels: TILE_CODES, bytes: 0 });
  const opts: PipelineOptions = { handCheck: false, strayFilter: false, zoomOut: false, outerLook: false };

  it('keeps the normal pass\'s sure tiles that the zoom pass misses, when the verifier sees tiles, in the raster\'s pixels', async () => {
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf([...small, ...large]), models((CONFIG.verify.loneVerified + 1) / 2, calls), opts);
    // the normal pass, then the zoom pass (on a smaller part of the photo)
    expect(calls).toHaveLength(2);
    expect(calls[1]!.content).toBeLessThan(calls[0]!.content);
    expect(r.tiles).toHaveLength(7);
    [...small, ...large].forEach((b) => expect(r.tiles.filter((t) => iou(t.box, b) > 0.8)).toHaveLength(1));
  });

  it('drops them when the verifier doubts them, with keepFirst off, or when the zoom pass found no hand beside them', async () => {
    const onlySmall = (r: { tiles: { box: Box }[] }) => r.tiles.length === 4 && small.every((b) => r.tiles.some((t) => iou(t.box, b) > 0.8));
    expect(onlySmall(await scanPhoto(photoOf([...small, ...large]), models(CONFIG.verify.loneVerified - 0.05), opts))).toBe(true);
    expect(onlySmall(await scanPhoto(photoOf([...small, ...large]), models(0.99), { ...opts, keepFirst: false }))).toBe(true);
    // the large ones alone: the zoom pass finds nothing, and a lone find of the smaller view is not trusted
    expect((await scanPhoto(photoOf(large), models(0.99), opts)).tiles).toHaveLength(0);
  });
});

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
    // the normal pass saw the whole photo and found nothing; the second saw it at closeUp.fit
    expect(calls).toHaveLength(2);
    expect(calls[1]!.content).toBeCloseTo(calls[0]!.content * CONFIG.closeUp.fit ** 2, -3);
    // without zooming out they are not found at all
    const off = await scanPhoto(photoOf(boxes), { detector: rectangleDetector([]), ...readAs(['5z', '5z', '5z']) }, { zoomOut: false });
    expect(off.tiles).toHaveLength(0);
    expect(off.reason).toMatch(/no tiles/);
  });

  it('zooms out further for huge tiles', async () => {
    // two tiles of 380x520: still 97x133 tensor px at closeUp.fit, found only at closeUp.fitFar
    const boxes: Box[] = [[100, 100, 380, 520], [500, 100, 380, 520]];
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(boxes), { detector: rectangleDetector(calls), ...readAs(['1p', '2p']) });
    expect(r.tiles.map((t) => t.code)).toEqual(['1p', '2p']);
    r.tiles.forEach((t, k) => expect(near(t.box, boxes[k]!)).toBe(true));
    expect(calls).toHaveLength(3);
    expect(calls[2]!.content).toBeLessThan(calls[1]!.content);
  });

  it('looks four times at a photo without tiles (normal, two zoomed out, fine), and still finds none', async () => {
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf([]), { detector: rectangleDetector(calls), ...readAs([]) });
    expect(r.tiles).toHaveLength(0);
    expect(r.reason).toMatch(/no tiles/);
    expect(calls).toHaveLength(4);
    // the fine search sees the photo at fine.size: 1000 px across become 1000 * fine.size / 1000 tensor px
    expect(calls[3]!.content).toBeGreaterThan(3 * calls[0]!.content);
  });

  it('keeps the normal pass for a hand of ordinary tiles', async () => {
    // 14 tiles of 90x120 in two rows (over closeUp.skipBelow of the long side, so the shrunk view
    // is searched too): found by both passes, small in the shrunk one, so the first pass counts
    const boxes: Box[] = HAND.map((_, k) => [40 + 96 * (k % 7), k < 7 ? 150 : 400, 90, 120]);
    expect(120 / 1000).toBeGreaterThanOrEqual(CONFIG.closeUp.skipBelow);
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(boxes), { detector: rectangleDetector(calls), ...readAs(HAND) }, { zoom: false });
    expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    r.tiles.forEach((t, k) => expect(near(t.box, boxes[k]!)).toBe(true));
    expect(calls).toHaveLength(2);
    const plain = await scanPhoto(photoOf(boxes), { detector: rectangleDetector([]), ...readAs(HAND) }, { zoom: false, zoomOut: false });
    expect(r.tiles).toEqual(plain.tiles);
  });

  it('does not search the shrunk photo when the normal pass found a hand of small tiles (closeUpPossible)', async () => {
    // 14 tiles of 60x80: 0.08 of the long side, under closeUp.skipBelow
    const boxes: Box[] = HAND.map((_, k) => [40 + 66 * k, 300, 60, 80]);
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(boxes), { detector: rectangleDetector(calls), ...readAs(HAND) }, { zoom: false });
    expect(calls).toHaveLength(1);
    expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    // three such tiles (under closeUp.skipCount) may be parts of a close-up: the shrunk photo is searched
    const few: { content: number }[] = [];
    await scanPhoto(photoOf(boxes.slice(0, CONFIG.closeUp.skipCount - 1)), { detector: rectangleDetector(few), ...readAs(HAND.slice(0, 3)) }, { zoom: false, fine: false });
    expect(few).toHaveLength(2);
    expect(few[1]!.content).toBeLessThan(few[0]!.content);
  });
});

describe('scanPhoto on hands shot from far off (fine search, full-resolution detail)', () => {
  const readAs = (codes: string[]) => ({ classifier: fakeClassifier(codes), labels: TILE_CODES, bytes: 0 });
  const near = (a: Box, b: Box) => iou(a, b) > 0.8;

  it('searches the photo at CONFIG.fine.size when the first pass finds too few tiles, then zooms in', async () => {
    // 14 tiles of 9x12 raster px: 4.6x6.1 tensor px at the normal scale, under what the detector sees
    const boxes: Box[] = HAND.map((_, k) => [300 + 12 * k, 400, 9, 12]);
    const calls: { content: number }[] = [];
    const r = await scanPhoto(photoOf(boxes), { detector: rectangleDetector(calls), ...readAs(HAND) });
    expect(r.tiles.map((t) => t.code)).toEqual(HAND);
    r.tiles.forEach((t, k) => expect(near(t.box, boxes[k]!)).toBe(true));
    // normal, zoomed out twice (nothing), fine, zoomed in on the tiles
    expect(calls).toHaveLength(5);
    expect(calls[3]!.content).toBeGreaterThan(3 * calls[0]!.content);
    const off = await scanPhoto(photoOf(boxes), { detector: rectangleDetector([]), ...readAs(HAND) }, { fine: false });
    expect(off.tiles).toHaveLength(0);
  });

  it('takes the fine search after an empty first pass only when it finds most of a hand', async () => {
    // fine.minTiles - 1 tiny tile-like spots on an empty table are not a hand; fine.minTiles are
    const spots = (n: number): Box[] => Array.from({ length: n }, (_, k) => [200 + 40 * k, 500, 9, 12]);
    const few = await scanPhoto(photoOf(spots(CONFIG.fine.minTiles - 1)), { detector: rectangleDetector([]), ...readAs(HAND) });
    expect(few.tiles).toHaveLength(0);
    const enough = await scanPhoto(photoOf(spots(CONFIG.fine.minTiles)), { detector: rectangleDetector([]), ...readAs(HAND) }, { handCheck: false });
    expect(enough.tiles).toHaveLength(CONFIG.fine.minTiles);
  });

  it('does not search again when the first pass finds tiles of an ordinary size', async () => {
    const boxes: Box[] = HAND.map((_, k) => [40 + 66 * k, 300, 60, 80]);
    const calls: { content: number }[] = [];
    await scanPhoto(photoOf(boxes), { detector: rectangleDetector(calls), ...readAs(HAND) }, { zoom: false });
    // the normal pass alone (a hand of small tiles is not a close-up: no zoom-out pass either)
    expect(calls).toHaveLength(1);
  });

  /** A 1000x750 raster of a 3000x2250 photo: small plain white tiles. Decoded again at full
   * resolution (detail), each tile shows a dark pip at its centre, too small for the raster. */
  function farPhoto(boxes: Box[], asked: Box[]): DecodedPhoto {
    const photo = photoOf(boxes);
    photo.originalWidth = 3000; photo.originalHeight = 2250;
    photo.detail = async (region, side) => {
      asked.push(region);
      const s = Math.min(1, side / Math.max(region[2], region[3]));
      const w = Math.round(region[2] * s), h = Math.round(region[3] * s);
      const data = new Uint8Array(w * h * 3).fill(128);
      const paint = (x0: number, y0: number, bw: number, bh: number, v: number) => {
        for (let y = Math.max(0, Math.round(y0)); y < Math.min(h, Math.round(y0 + bh)); y++) {
          for (let x = Math.max(0, Math.round(x0)); x < Math.min(w, Math.round(x0 + bw)); x++) data.fill(v, (y * w + x) * 3, (y * w + x) * 3 + 3);
        }
      };
      for (const [x, y, bw, bh] of boxes) {
        const X = (3 * x - region[0]) * s, Y = (3 * y - region[1]) * s, BW = 3 * bw * s, BH = 3 * bh * s;
        paint(X, Y, BW, BH, 255);
        paint(X + 0.35 * BW, Y + 0.35 * BH, 0.3 * BW, 0.3 * BH, 20);
      }
      return { width: w, height: h, channels: 3, data };
    };
    return photo;
  }
  /** A classifier that reads a crop with a dark centre as 1p, any other as 5z. */
  const pipReader: OrtSession = {
    inputNames: ['crops'],
    outputNames: ['logits'],
    run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
      const [n, , h, w] = feeds.crops!.dims as number[];
      const K = TILE_CODES.length, plane = h! * w!;
      const logits = new Float32Array(n! * K);
      for (let j = 0; j < n!; j++) {
        const centre = feeds.crops!.data[j * 3 * plane + (h! >> 1) * w! + (w! >> 1)]!;
        logits[j * K + TILE_CODES.indexOf(centre < 0.5 ? '1p' : '5z')] = 12;
      }
      return { logits: { data: logits, dims: [n!, K] } };
    },
  } as unknown as OrtSession;

  it('reads small tiles from the photo decoded again at full resolution, boxes in the photo\'s pixels', async () => {
    // 14 tiles of 20x28 raster px (60x84 in the photo): found, but under the classifier's crop size
    const boxes: Box[] = HAND.map((_, k) => [300 + 26 * k, 400, 20, 28]);
    const asked: Box[] = [];
    const models = { detector: rectangleDetector([]), classifier: pipReader, labels: TILE_CODES, bytes: 0 };
    const r = await scanPhoto(farPhoto(boxes, asked), models, { handCheck: false });
    expect(asked).toHaveLength(1);
    const [ax, ay, aw, ah] = asked[0]!;
    for (const [x, y, w, h] of boxes) {
      expect(ax <= 3 * x && ay <= 3 * y && ax + aw >= 3 * (x + w) && ay + ah >= 3 * (y + h)).toBe(true);
    }
    expect(r.width).toBe(3000);
    expect(r.tiles.map((t) => t.code)).toEqual(HAND.map(() => '1p'));
    r.tiles.forEach((t, k) => expect(near(t.box, boxes[k]!.map((v) => 3 * v) as Box)).toBe(true));
    // without it the pips are not seen, and the boxes are the same
    const plain = await scanPhoto(farPhoto(boxes, []), models, { handCheck: false, detail: false });
    expect(plain.tiles.map((t) => t.code)).toEqual(HAND.map(() => '5z'));
    plain.tiles.forEach((t, k) => expect(near(t.box, r.tiles[k]!.box)).toBe(true));
  });

  describe('a hand the fine search scores too low (a busy cloth): the zoom pass looks round its group of sure finds', () => {
    // tiles of 9x12 raster px, which the normal pass cannot see and the fine search can; in the raster
    // 3 of the hand's tiles are white (sure) and the others faint (FAINT_WEAK), and two white spots of
    // the cloth lie far off; decoded again at full resolution every tile of the hand is plain
    const handOf = (n: number): Box[] => Array.from({ length: n }, (_, k) => [300 + 12 * k, 400, 9, 12]);
    const spots: Box[] = [[50, 50, 9, 12], [900, 650, 9, 12]];
    const photoWith = (hand: Box[], asked: Box[]) => {
      const photo = farPhoto(hand, asked);
      photo.image = photoOf([...hand.slice(0, 3), ...spots], 1000, 750, hand.slice(3)).image;
      return photo;
    };
    const models = { detector: rectangleDetector([]), classifier: pipReader, labels: TILE_CODES, bytes: 0 };

    it('finds the whole hand there, from the photo decoded again', async () => {
      const hand = handOf(14);
      // fewer sure finds than a hand, so that the fine search alone is not taken
      expect(3 + spots.length).toBeLessThan(CONFIG.fine.minTiles);
      expect(CONFIG.fine.groupMin).toBeLessThanOrEqual(3);
      const asked: Box[] = [];
      const r = await scanPhoto(photoWith(hand, asked), models, { handCheck: false });
      expect(r.tiles.map((t) => t.code)).toEqual(HAND.map(() => '1p'));
      r.tiles.forEach((t, k) => expect(near(t.box, hand[k]!.map((v) => 3 * v) as Box)).toBe(true));
      // one region decoded again, round the hand and not the spots
      expect(asked).toHaveLength(1);
      const [ax, ay, aw, ah] = asked[0]!;
      for (const [x, y, w, h] of hand) expect(ax <= 3 * x && ay <= 3 * y && ax + aw >= 3 * (x + w) && ay + ah >= 3 * (y + h)).toBe(true);
      for (const [x, y] of spots) expect(3 * x >= ax && 3 * x <= ax + aw && 3 * y >= ay && 3 * y <= ay + ah).toBe(false);
      const off = await scanPhoto(photoWith(hand, []), models, { handCheck: false, fineGroup: false });
      expect(off.tiles).toHaveLength(0);
    });

    it('takes nothing from it when it is not most of a hand', async () => {
      const r = await scanPhoto(photoWith(handOf(CONFIG.fine.minTiles - 1), []), models, { handCheck: false });
      expect(r.tiles).toHaveLength(0);
      expect(r.reason).toBe('no tiles found in the photo');
    });
  });

  it('with fineSkipAt, skips the fine search when the first pass found enough small tiles for the full-resolution zoom', async () => {
    // 14 tiles of 20x28 raster px: seen by the normal pass, but small enough (under fine.below) to ask for the fine search
    const boxes: Box[] = HAND.map((_, k) => [300 + 26 * k, 400, 20, 28]);
    expect(28 / 1000).toBeLessThan(CONFIG.fine.below);
    const skipAt = 14;
    const models = (calls: { content: number }[]) => ({ detector: rectangleDetector(calls), classifier: pipReader, labels: TILE_CODES, bytes: 0 });
    const calls: { content: number }[] = [];
    const r = await scanPhoto(farPhoto(boxes, []), models(calls), { handCheck: false, fineSkipAt: skipAt });
    // normal, zoomed in on the region decoded again: no fine search (and no zoom-out for small tiles)
    expect(calls).toHaveLength(2);
    expect(r.tiles.map((t) => t.code)).toEqual(HAND.map(() => '1p'));
    // by default (fine.skipAt: never) the fine search runs, with the same tiles in the end
    expect(CONFIG.fine.skipAt).toBe(0);
    const full: { content: number }[] = [];
    const withFine = await scanPhoto(farPhoto(boxes, []), models(full), { handCheck: false });
    expect(full).toHaveLength(3);
    expect(full[1]!.content).toBeGreaterThan(3 * full[0]!.content);
    expect(r.tiles).toEqual(withFine.tiles);
    // one tile fewer than fineSkipAt, or no photo to decode again: the fine search runs
    const fewer: { content: number }[] = [];
    await scanPhoto(farPhoto(boxes.slice(0, skipAt - 1), []), models(fewer), { handCheck: false, fineSkipAt: skipAt });
    expect(fewer).toHaveLength(3);
    const raster: { content: number }[] = [];
    await scanPhoto(photoOf(boxes), models(raster), { handCheck: false, fineSkipAt: skipAt });
    expect(raster).toHaveLength(3);
  });

  it('falls back on the raster, and says so, when the photo cannot be decoded again', async () => {
    const boxes: Box[] = HAND.map((_, k) => [300 + 26 * k, 400, 20, 28]);
    const photo = farPhoto(boxes, []);
    photo.detail = async () => { throw new Error('gone'); };
    const r = await scanPhoto(photo, { detector: rectangleDetector([]), classifier: pipReader, labels: TILE_CODES, bytes: 0 }, { handCheck: false });
    expect(r.tiles.map((t) => t.code)).toEqual(HAND.map(() => '5z'));
    expect(r.notes?.some((n) => /full resolution/.test(n))).toBe(true);
  });

  it('decodes again only small tiles of a photo that has more pixels than the raster', () => {
    const img = photoOf([]).image;
    const small: Box[] = [[0, 0, 20, 28], [30, 0, 20, 28], [60, 0, 20, 28]];
    const big: Box[] = small.map(([x, y]) => [x, y, 60, 80]);
    const region = [100, 100, 300, 200] as const;
    const far = { ...photoOf([]), originalWidth: 3000, originalHeight: 2250, detail: async () => img };
    expect(detailRegion(far, img, region, small)).toEqual([300, 300, 900, 600]);
    expect(detailRegion(far, img, region, big)).toBeNull();
    expect(detailRegion({ ...far, detail: undefined }, img, region, small)).toBeNull();
    // a photo no larger than the raster, or a region already at detail.side, gains nothing
    expect(detailRegion({ ...far, originalWidth: 1000, originalHeight: 750 }, img, region, small)).toBeNull();
    expect(detailRegion(far, img, [0, 0, 1000, 750], small)).toBeNull();
    expect(CONFIG.detail.side / 1000).toBeLessThan(CONFIG.detail.minGain);
  });
});

/** A 40 x 30 raster, black but for a white box. */
function paintedBox() {
  const w = 40, h = 30, img = { width: w, height: h, channels: 3 as const, data: new Uint8Array(w * h * 3) };
  const box: Box = [5, 7, 12, 9];
  for (let y = box[1]; y < box[1] + box[3]; y++) for (let x = box[0]; x < box[0] + box[2]; x++) img.data.fill(255, (y * w + x) * 3, (y * w + x) * 3 + 3);
  return { w, h, img, box };
}

/** The box round the white pixels of a raster (paintedBox, turned). */
function brightBox(t: { width: number; height: number; data: ArrayLike<number> }): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = 0; y < t.height; y++) for (let x = 0; x < t.width; x++) if (t.data[(y * t.width + x) * 3] === 255) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  return [x0, y0, x1 - x0 + 1, y1 - y0 + 1];
}

describe('a photo whose tiles lie sideways (taken from the side of the table)', () => {
  const tiles: Placed[] = HAND.map((code, k) => ({ cx: 100 + 16 * (k % 7), cy: 120 + 60 * Math.floor(k / 7), det: 0.99 - 0.001 * k, code }));
  const scanTurning = (opts: PipelineOptions = {}) => {
    const seen: number[][] = [];
    const models: Models = { detector: fakeDetector(tiles, undefined, seen, true), classifier: fakeClassifier(tiles.map((t) => t.code)), labels: TILE_CODES, bytes: 0 };
    const photo: DecodedPhoto = { image: { width: W, height: H, channels: 4, data: new Uint8Array(W * H * 4).fill(128) }, originalWidth: W, originalHeight: H, notes: [] };
    return { seen, result: scanPhoto(photo, models, { zoom: false, tta: 'off', ...opts }) };
  };

  it('reads the photo turned a quarter, both ways, and gives the boxes back in the photo, the tiles sideways', async () => {
    const { seen, result } = scanTurning();
    const r = await result;
    expect(r.notes?.join(' ')).toMatch(/read turned a quarter/);
    expect([1, 3]).toContain(r.turned);
    // the photo as it is (read whole, too), then turned each way (portrait inputs)
    expect(seen[0]![3]).toBeGreaterThan(seen[0]![2]!);
    expect(seen.slice(1).some((d) => d[2]! > d[3]!)).toBe(true);
    expect([r.width, r.height]).toEqual([W, H]);
    expect(r.tiles).toHaveLength(14);
    for (const t of r.tiles) {
      expect(t.sideways).toBe(true);
      // upright 24 x 32 in the turned photo: 32 x 24 in the photo, inside it
      expect(t.box[2]).toBeGreaterThan(t.box[3]);
      expect(t.box[0]).toBeGreaterThanOrEqual(0);
      expect(t.box[1]).toBeGreaterThanOrEqual(0);
      expect(t.box[0] + t.box[2]).toBeLessThanOrEqual(W + 0.5);
      expect(t.box[1] + t.box[3]).toBeLessThanOrEqual(H + 0.5);
    }
  });

  it('reads the photo as it is with the option off', async () => {
    const off = await scanTurning({ turnSideways: false }).result;
    expect(off.notes?.join(' ') ?? '').not.toMatch(/turned a quarter/);
    expect(off.turned).toBeUndefined();
    expect(off.tiles.every((t) => t.sideways)).toBe(true);
    expect(CONFIG.turn.minTiles).toBeGreaterThanOrEqual(3);
    expect(CONFIG.turn.share).toBeGreaterThanOrEqual(0.5);
  });

  it('turns boxes back: a box found in the raster turned either way is the box in the photo', () => {
    const { w, h, img, box } = paintedBox();
    for (const clockwise of [true, false]) {
      const t = orientRaster(img, clockwise ? 6 : 8);
      expect(unturnBox(brightBox(t), clockwise ? 1 : 3, w, h)).toEqual(box);
    }
  });
});

describe('a photo of a hand upside down (taken from across the table)', () => {
  // the photo's top left corner is marked white, so that the stand-in detector knows which way up
  // its input is: the right way up it misses the two weakest tiles (the face-down tiles of a real
  // photo), turned half round it finds all 14, at their places in the turned photo
  const hand = row();
  const missedUpright = 2;
  const markedPhoto = (): DecodedPhoto => {
    const data = new Uint8Array(W * H * 4).fill(128);
    for (let y = 0; y < 8; y++) data.fill(255, y * W * 4, (y * W + 8) * 4);
    return { image: { width: W, height: H, channels: 4, data }, originalWidth: W, originalHeight: H, notes: [] };
  };
  const scanOver = (codes: string[], opts: PipelineOptions = {}, tiles: Placed[] = hand.slice(0, codes.length)) => {
    const ways: ('upright' | 'turned')[] = [];
    const upright = tiles.slice(0, tiles.length - missedUpright);
    const turned = tiles.map((t) => ({ ...t, cx: W - t.cx, cy: H - t.cy }));
    const sees = { upright: fakeDetector(upright), turned: fakeDetector(turned) };
    const detector = {
      inputNames: ['image'],
      outputNames: ['heatmap', 'box'],
      run: async (feeds: Record<string, { dims: readonly number[]; data: Float32Array }>) => {
        const way = feeds.image!.data[0]! > 0.9 ? 'upright' : 'turned';
        ways.push(way);
        return sees[way].run(feeds as never);
      },
    } as unknown as OrtSession;
    const models: Models = { detector, classifier: fakeClassifier(codes), labels: TILE_CODES, bytes: 0 };
    return { ways, result: scanPhoto(markedPhoto(), models, { zoom: false, tta: 'off', ...opts }) };
  };

  it('reads the photo turned half round when the tiles read make no complete hand, and takes that reading when they make one', async () => {
    const { ways, result } = scanOver(HAND);
    const r = await result;
    expect(ways).toContain('upright');
    expect(ways).toContain('turned');
    expect(r.notes?.join(' ')).toMatch(/turned half round/);
    expect(r.turned).toBe(2);
    expect(r.tiles.map((t) => t.code).sort()).toEqual([...HAND].sort());
    expect([r.width, r.height]).toEqual([W, H]);
    // every box back where the tile lies in the photo
    for (const t of hand) expect(r.tiles.filter((s) => at(s.box, t))).toHaveLength(1);
  });

  it('keeps the reading the right way up when the turned one makes no complete hand either', async () => {
    const codes = [...HAND.slice(0, 13), '7z'];
    const r = await scanOver(codes).result;
    expect(r.notes?.join(' ') ?? '').not.toMatch(/turned half round/);
    expect(r.turned).toBeUndefined();
    expect(r.tiles).toHaveLength(HAND.length - missedUpright);
    for (const s of r.tiles) expect(hand.slice(0, HAND.length - missedUpright).some((t) => at(s.box, t))).toBe(true);
  });

  it('does not look again at a complete hand, at too few tiles for a hand, or with the option off', async () => {
    const complete = scanOver(HAND, {}, [...hand, { cx: 40, cy: 250, det: 0.5, code: '9s' }, { cx: 70, cy: 250, det: 0.5, code: '9s' }]);
    // 14 tiles found the right way up (the two weak ones missed) make the hand: no second look
    const rc = await complete.result;
    expect(rc.tiles).toHaveLength(14);
    expect(complete.ways.every((w) => w === 'upright')).toBe(true);
    const few = CONFIG.turn.overMinTiles - 1 + missedUpright;
    const small = scanOver(HAND.slice(0, few));
    await small.result;
    expect(small.ways.every((w) => w === 'upright')).toBe(true);
    const off = scanOver(HAND, { turnOver: false });
    expect((await off.result).tiles).toHaveLength(HAND.length - missedUpright);
    expect(off.ways.every((w) => w === 'upright')).toBe(true);
    expect(CONFIG.turn.overMaxTiles).toBeGreaterThanOrEqual(26);
  });

  it('turns boxes back: a box found in the raster turned half round is the box in the photo', () => {
    const { w, h, img, box } = paintedBox();
    const t = orientRaster(img, 3);
    expect(unturnBox(brightBox(t), 2, w, h)).toEqual(box);
  });
});

describe('turnBox (the boxes of a photo turned by quarters, as eval:vision --turn turns its labels)', () => {
  it('puts a box where the raster turned clockwise by 1, 2 or 3 quarters shows it, and unturnBox brings it back', () => {
    const { w, h, img, box } = paintedBox();
    for (const [quarters, orientation] of [[1, 6], [2, 3], [3, 8]] as const) {
      const t = orientRaster(img, orientation);
      expect(turnBox(box, quarters, w, h)).toEqual(brightBox(t));
      expect(unturnBox(turnBox(box, quarters, w, h), quarters, w, h)).toEqual(box);
    }
    expect(turnBox(box, 0, w, h)).toEqual(box);
  });
});
