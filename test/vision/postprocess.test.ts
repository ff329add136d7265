import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CONFIG } from '../../src/vision/config.ts';
import { besideHand, claimedTiles, coveredShare, isolatedUnsure, loneBacks, rowOfBacks, straddles, strayDetections } from '../../src/vision/doubtful.ts';
import { boxGap, boxToOriginal, boxToRaster, decodeDetections, flowerMass, iou, medianLongSide, nms, retakeAdvice, softmax, topK, withFlowerReading } from '../../src/vision/postprocess.ts';
import { addedFinds, closeUpFit, closeUpPossible, farViewTaken, largestGroup, medianTileSide, mergeFinds, oneTileBoxes, outerWindows, zoomRegion } from '../../src/vision/regions.ts';
import { CHECK_BELOW, TILE_CODES } from '../../src/vision/types.ts';
import { cropRaster, letterbox } from '../../src/vision/preprocess.ts';
import type { Box } from '../../src/vision/types.ts';

describe('nms', () => {
  it('keeps the best of overlapping boxes and separate boxes', () => {
    const dets = [
      { box: [0, 0, 10, 10] as Box, score: 0.9 },
      { box: [1, 1, 10, 10] as Box, score: 0.8 },
      { box: [20, 0, 10, 10] as Box, score: 0.7 },
      { box: [0, 0, 10, 10] as Box, score: 0.95 },
    ];
    const kept = nms(dets, 0.45);
    expect(kept.map((d) => d.score)).toEqual([0.95, 0.7]);
  });
  it('iou of identical, disjoint and half-overlapping boxes', () => {
    expect(iou([0, 0, 10, 10], [0, 0, 10, 10])).toBe(1);
    expect(iou([0, 0, 10, 10], [20, 20, 5, 5])).toBe(0);
    expect(iou([0, 0, 10, 10], [5, 0, 10, 10])).toBeCloseTo(50 / 150);
  });
});

describe('decodeDetections', () => {
  it('finds heatmap peaks and decodes boxes at stride 4', () => {
    const gh = 8, gw = 8, plane = gh * gw;
    const hm = new Float32Array(2 * plane);
    const box = new Float32Array(4 * plane);
    // upright tile centred in cell (2,3) + (0.5,0.5); 12x16 px
    const i = 3 * gw + 2;
    hm[i] = 0.9; hm[i + 1] = 0.5; // a weaker neighbour: not a peak
    box[i] = 0.5; box[plane + i] = 0.5; box[2 * plane + i] = Math.log(12 / 4); box[3 * plane + i] = Math.log(16 / 4);
    // sideways tile at (6,6)
    const j = 6 * gw + 6;
    hm[plane + j] = 0.8;
    box[2 * plane + j] = Math.log(4); box[3 * plane + j] = Math.log(3);
    const d = decodeDetections(hm, box, gh, gw, { threshold: 0.3 });
    expect(d).toHaveLength(2);
    expect(d[0].sideways).toBe(false);
    const [x, y, w, h] = d[0].box;
    expect([x, y, w, h].map((v) => +v.toFixed(3))).toEqual([4, 6, 12, 16]);
    expect(d[1].sideways).toBe(true);
  });

  it('keeps every tile of a whole set laid out in one photo (144), up to CONFIG.detect.maxDetections', () => {
    // one peak every other cell of a 26x26 grid: 169 tiles
    const gh = 26, gw = 26, plane = gh * gw;
    const hm = new Float32Array(2 * plane);
    const box = new Float32Array(4 * plane);
    let n = 0;
    for (let y = 0; y < gh; y += 2) for (let x = 0; x < gw; x += 2, n++) hm[y * gw + x] = 0.6 + (n % 7) * 0.05;
    expect(n).toBe(169);
    expect(decodeDetections(hm, box, gh, gw, { threshold: 0.5 })).toHaveLength(169);
    expect(decodeDetections(hm, box, gh, gw, { threshold: 0.5, maxDetections: 20 })).toHaveLength(20);
    expect(CONFIG.detect.maxDetections).toBeGreaterThanOrEqual(144);
  });
});

describe('coordinate mapping', () => {
  it('maps tensor boxes back to the raster and to the original photo', () => {
    const img = { width: 1000, height: 750, channels: 3 as const, data: new Uint8Array(1000 * 750 * 3) };
    const { transform } = letterbox(img, 512);
    const b = boxToRaster([51.2, 25.6, 102.4, 51.2], transform);
    expect(b.map((v) => +v.toFixed(3))).toEqual([100, 50, 200, 100]);
    expect(boxToOriginal(b, 1000, 750, 4000, 3000).map((v) => +v.toFixed(3))).toEqual([400, 200, 800, 400]);
  });
});

describe('softmax/topK', () => {
  it('sums to one and ranks', () => {
    const p = softmax(new Float32Array([1, 3, 2]), 0, 3);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(topK(p, 2).map((x) => x.index)).toEqual([1, 2]);
  });
});

describe('zoomRegion (second detector pass on the part of the photo holding the tiles)', () => {
  it('frames small tiles in a large photo with one tile of margin', () => {
    // 14 tiles of 20x28 px in a row in the middle of a 1000x750 raster
    const boxes: Box[] = Array.from({ length: 14 }, (_, i) => [400 + i * 20, 360, 20, 28]);
    const r = zoomRegion(boxes, 1000, 750)!;
    expect(r).not.toBeNull();
    const [x, y, w, h] = r;
    expect(x).toBeLessThanOrEqual(400 - 28);
    expect(x + w).toBeGreaterThanOrEqual(680 + 28);
    expect(y).toBeLessThanOrEqual(360 - 28);
    expect(y + h).toBeGreaterThanOrEqual(388 + 28);
    // zoom capped at zoom.maxGain: the region's long side is at least 1000 / 3
    expect(Math.max(w, h)).toBeGreaterThanOrEqual(Math.floor(1000 / CONFIG.zoom.maxGain));
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x + w).toBeLessThanOrEqual(1000);
  });

  it('does nothing when the tiles already fill the photo, or with fewer than two tiles', () => {
    const wide: Box[] = Array.from({ length: 14 }, (_, i) => [20 + i * 68, 300, 66, 90]);
    expect(zoomRegion(wide, 1000, 750)).toBeNull();
    expect(zoomRegion([[500, 300, 20, 28]], 1000, 750)).toBeNull();
    expect(zoomRegion([], 1000, 750)).toBeNull();
  });

  it('needs a gain of at least CONFIG.zoom.minGain', () => {
    // tiles spanning 70 % of the width (with margin about 80 %): gain 1.25 < 1.3
    const boxes: Box[] = Array.from({ length: 10 }, (_, i) => [150 + i * 70, 300, 70, 40]);
    expect(1000 / (700 + 2 * 70)).toBeLessThan(CONFIG.zoom.minGain);
    expect(zoomRegion(boxes, 1000, 750)).toBeNull();
  });
});

describe('closeUpFit (close-ups: tiles larger than the detector was trained on)', () => {
  // boxes as found on the photo shrunk to closeUp.fit, in raster pixels of a 1000x750 raster
  const row = (n: number, w: number, h: number): Box[] => Array.from({ length: n }, (_, i) => [10 + i * w, 100, w, h]);

  it('measures the median tile against the photo\'s long side', () => {
    expect(medianTileSide([], 1000, 750)).toBe(0);
    expect(medianTileSide([[0, 0, 10, 300], [0, 0, 50, 20], [0, 0, 400, 100]], 1000, 750)).toBeCloseTo(0.3);
    expect(medianTileSide([[0, 0, 10, 300]], 600, 800)).toBeCloseTo(0.375);
  });

  it('leaves a hand of ordinary tiles to the normal pass', () => {
    // a hand filling the photo: both passes find the same tiles, small
    const hand = row(14, 68, 92);
    expect(closeUpFit(hand, hand, 1000, 750)).toBeNull();
    expect(closeUpFit(row(14, 40, 54), row(14, 40, 54), 1000, 750)).toBeNull();
    // just under the threshold, and just over it (the normal pass found nothing)
    const h = CONFIG.closeUp.take * 1000;
    expect(closeUpFit(row(3, 100, h - 1), [], 1000, 750)).toBeNull();
    expect(closeUpFit(row(3, 100, h + 1), [], 1000, 750)).toBe(CONFIG.closeUp.fit);
  });

  it('takes the zoomed-out view when the normal pass missed the large tiles or found parts of them', () => {
    const big = row(4, 200, 270);
    expect(closeUpFit(big, [], 1000, 750)).toBe(CONFIG.closeUp.fit);
    // the normal pass found a piece inside each of two tiles
    const parts: Box[] = [[60, 150, 60, 60], [260, 200, 60, 60]];
    expect(closeUpFit(big, parts, 1000, 750)).toBe(CONFIG.closeUp.fit);
    // the normal pass found all four, but its boxes fall short of them (the detector's largest)
    const short: Box[] = big.map(([x, y, w, h]) => [x + 0.05 * w, y + 0.05 * h, 0.82 * w, 0.82 * h]);
    expect(short.every((b, k) => iou(b, big[k]!) >= 0.5)).toBe(true);
    expect(medianTileSide(short, 1000, 750)).toBeLessThan(CONFIG.closeUp.same * medianTileSide(big, 1000, 750));
    expect(closeUpFit(big, short, 1000, 750)).toBe(CONFIG.closeUp.fit);
    // huge tiles: zoom out further
    expect(closeUpFit(row(2, 330, 450), [], 1000, 750)).toBe(CONFIG.closeUp.fitFar);
    // a lone huge tile (portrait photo: measured against the long side)
    expect(closeUpFit([[50, 100, 400, 560]], [], 750, 1000)).toBe(CONFIG.closeUp.fitFar);
  });

  it('keeps the normal pass when it found the large tiles itself, or a hand elsewhere', () => {
    const big = row(4, 200, 270);
    // three of the four found again (slightly off): the detector copes at this size
    const again: Box[] = big.slice(0, 3).map(([x, y, w, h]) => [x + 8, y + 6, w - 10, h - 8]);
    expect(closeUpFit(big, again, 1000, 750)).toBeNull();
    // two of four found again is not enough
    expect(closeUpFit(big, again.slice(0, 2), 1000, 750)).toBe(CONFIG.closeUp.fit);
    // one large false box from the shrunk photo against a hand of 14 small tiles lying elsewhere
    const hand: Box[] = Array.from({ length: 14 }, (_, i) => [100 + i * 50, 600, 48, 64]);
    expect(closeUpFit([[300, 50, 250, 330]], hand, 1000, 750)).toBeNull();
    // but a few stray finds outside the large tiles (the table, cut-off neighbours) do not count
    expect(closeUpFit(big, [[900, 600, 50, 60], [950, 680, 40, 50], [60, 150, 60, 60]], 1000, 750)).toBe(CONFIG.closeUp.fit);
    expect(closeUpFit(big, hand.slice(0, 5), 1000, 750)).toBeNull();
  });

  it('takes the far view for huge tiles when it finds any, and from nothing only if its tiles are huge', () => {
    const huge = row(2, 330, 450);
    expect(farViewTaken(true, huge, 1000, 750)).toBe(true);
    expect(farViewTaken(true, row(3, 100, 120), 1000, 750)).toBe(true);
    expect(farViewTaken(true, [], 1000, 750)).toBe(false);
    // neither earlier pass found a tile: a cloth's pattern at a small size is not taken
    expect(farViewTaken(false, huge, 1000, 750)).toBe(true);
    expect(farViewTaken(false, row(11, 80, 110), 1000, 750)).toBe(false);
    expect(farViewTaken(false, [], 1000, 750)).toBe(false);
    expect(medianLongSide([[0, 0, 10, 300], [0, 0, 50, 20], [0, 0, 400, 100]])).toBe(300);
    expect(medianLongSide([])).toBe(0);
  });

  it('looks further out when neither pass found anything', () => {
    // the tiles may be larger still (the caller then takes what the far pass finds only if it is
    // that large)
    expect(closeUpFit([], [], 1000, 750)).toBe(CONFIG.closeUp.fitFar);
    expect(closeUpFit([], row(14, 40, 54), 1000, 750)).toBeNull();
    expect(CONFIG.closeUp.fitFar).toBeLessThan(CONFIG.closeUp.fit);
    expect(CONFIG.closeUp.far).toBeGreaterThan(CONFIG.closeUp.take);
  });
});

describe('cropRaster', () => {
  it('copies the region row by row, for RGB and RGBA', () => {
    for (const C of [3, 4] as const) {
      const W = 6, H = 5;
      const data = new Uint8Array(W * H * C).map((_, i) => i % 251);
      const out = cropRaster({ width: W, height: H, channels: C, data }, [2, 1, 3, 2]);
      expect([out.width, out.height, out.channels]).toEqual([3, 2, C]);
      for (let y = 0; y < 2; y++) for (let x = 0; x < 3; x++) for (let c = 0; c < C; c++) {
        expect(out.data[(y * 3 + x) * C + c]).toBe(data[((y + 1) * W + x + 2) * C + c]);
      }
    }
  });
});

describe('isolatedUnsure', () => {
  const row: Box[] = [0, 1, 2, 3, 4].map((k) => [100 + k * 62, 100, 60, 80]);
  it('drops a lone, doubtful detection far from the hand', () => {
    const boxes: Box[] = [...row, [900, 600, 60, 80]];
    expect(isolatedUnsure(boxes, [0.9, 0.9, 0.3, 0.9, 0.9, 0.3])).toEqual([false, false, false, false, false, true]);
  });
  it('keeps a lone tile the classifier is sure of, and doubtful tiles inside the hand', () => {
    const boxes: Box[] = [...row, [900, 600, 60, 80]];
    expect(isolatedUnsure(boxes, [0.2, 0.2, 0.2, 0.2, 0.2, 0.8]).some(Boolean)).toBe(false);
  });
  it('keeps a flower group set apart by a little more than a tile', () => {
    const boxes: Box[] = [...row, [100, 260, 60, 80]];
    expect(isolatedUnsure(boxes, [0.9, 0.9, 0.9, 0.9, 0.9, 0.3])[5]).toBe(false);
  });
  it('never drops the only detection', () => {
    expect(isolatedUnsure([[10, 10, 50, 70]], [0.1])).toEqual([false]);
  });
});

describe('coveredShare (a doubtful box straddling two tiles found already)', () => {
  it('measures the share of a box under the union of others', () => {
    expect(coveredShare([0, 0, 120, 120], [])).toBe(0);
    expect(coveredShare([0, 0, 120, 120], [[0, 0, 60, 120]])).toBeCloseTo(0.5, 5);
    expect(coveredShare([0, 0, 120, 120], [[0, 0, 60, 120], [60, 0, 60, 120]])).toBe(1);
    // overlapping covers count once
    expect(coveredShare([0, 0, 120, 120], [[0, 0, 90, 120], [30, 0, 60, 120]])).toBeCloseTo(0.75, 5);
    expect(coveredShare([0, 0, 0, 10], [[0, 0, 60, 120]])).toBe(0);
  });
  it('sets a box between two neighbours apart, not a tile beside them', () => {
    const a: Box = [100, 100, 60, 80], b: Box = [158, 100, 60, 80];
    expect(coveredShare([125, 100, 60, 80], [a, b])).toBeGreaterThanOrEqual(CONFIG.verify.coveredDuplicate);
    expect(coveredShare([216, 100, 60, 80], [a, b])).toBeLessThan(CONFIG.verify.coveredDuplicate);
  });
  it('straddles: a box across two tiles, not one in a row of overlapping boxes', () => {
    const a: Box = [100, 100, 60, 80], b: Box = [158, 100, 60, 80];
    expect(straddles([125, 100, 60, 80], [a, b])).toBe(true);
    // covered as much, but by one box: a second look at one tile is the NMS's business
    expect(straddles([110, 100, 40, 80], [a])).toBe(false);
    // far-holdout 097: a true tile 0.87 covered by its row's boxes, 0.53 by one and 0.19 by two others
    const t: Box = [400, 385, 71, 83];
    const row: Box[] = [[428, 437, 77, 82], [365, 390, 75, 77], [447, 357, 61, 79]];
    expect(coveredShare(t, row)).toBeGreaterThanOrEqual(CONFIG.verify.coveredDuplicate);
    expect(straddles(t, row)).toBe(false);
    // grid-holdout 004: a true face-down tile in a grid shot at an angle, covered whole by six boxes
    const g: Box = [420, 409, 95, 117];
    const grid: Box[] = [[411, 510, 95, 122], [439, 315, 86, 99], [391, 340, 87, 99], [470, 380, 93, 112], [463, 481, 91, 116], [373, 436, 91, 112]];
    expect(coveredShare(g, grid)).toBe(1);
    expect(straddles(g, grid)).toBe(false);
    // biggrid-holdout 019: a true 5s whose box the detector shifted onto its neighbour
    const shifted: Box = [416, 175, 57, 72];
    const around: Box[] = [[408, 230, 56, 73], [399, 108, 56, 77], [368, 221, 54, 76], [438, 116, 60, 79], [455, 183, 55, 74], [449, 240, 55, 71], [369, 159, 56, 75], [401, 170, 51, 71]];
    expect(coveredShare(shifted, [around[7]!, around[4]!])).toBeGreaterThanOrEqual(CONFIG.verify.coveredDuplicate);
    expect(coveredShare(shifted, [around[4]!])).toBeLessThan(CONFIG.verify.straddleEach);
    expect(straddles(shifted, around)).toBe(false);
    // val-holdout 039: a false find across a 3p and a 4p
    expect(straddles([315, 351, 66, 66], [[277, 356, 68, 78], [345, 336, 67, 72]])).toBe(true);
  });
  it('is a share in [0, 1] and grows with more covers', () => {
    const box = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 })) as fc.Arbitrary<Box>;
    fc.assert(fc.property(box, fc.array(box, { maxLength: 4 }), box, (b, others, more) => {
      const s = coveredShare(b, others);
      return s >= 0 && s <= 1 && coveredShare(b, [...others, more]) >= s;
    }));
  });
});

describe('boxGap', () => {
  it('is the edge-to-edge distance, 0 for touching or overlapping boxes', () => {
    expect(boxGap([0, 0, 10, 10], [13, 0, 10, 10])).toBe(3);
    expect(boxGap([0, 0, 10, 10], [13, 14, 10, 10])).toBe(5);
    expect(boxGap([0, 0, 10, 10], [10, 0, 10, 10])).toBe(0);
    expect(boxGap([0, 0, 10, 10], [5, 5, 10, 10])).toBe(0);
  });
});

describe('strayDetections', () => {
  // a row of five confident 60x80 tiles
  const row: Box[] = [0, 1, 2, 3, 4].map((k) => [100 + k * 62, 100, 60, 80]);
  const sure = [0.95, 0.95, 0.95, 0.95, 0.95];
  it('marks a doubtful detection twice the size of the tiles (a big polka dot)', () => {
    const boxes: Box[] = [...row, [100 + 5 * 62, 100, 120, 160]];
    expect(strayDetections(boxes, [...sure, 0.6], [...sure, 0.9])).toEqual([false, false, false, false, false, true]);
  });
  it('keeps an out-of-scale detection the detector is sure of, and a sideways tile of the same size', () => {
    const big: Box[] = [...row, [100 + 5 * 62, 100, 120, 160]];
    expect(strayDetections(big, [...sure, 0.9], [...sure, 0.9])[5]).toBe(false);
    const side: Box[] = [...row, [100 + 5 * 62, 120, 80, 60]];
    expect(strayDetections(side, [...sure, 0.5], [...sure, 0.5])[5]).toBe(false);
  });
  it('marks a doubtful detection apart from every confident tile, keeps a confident group set apart', () => {
    const apart: Box[] = [...row, [100, 400, 60, 80]]; // gap 220 px = 2.75 tile lengths
    expect(strayDetections(apart, [...sure, 0.6], [...sure, 0.9])[5]).toBe(true);
    expect(strayDetections(apart, [...sure, 0.75], [...sure, 0.3])[5]).toBe(false);
  });
  it('lets a doubtful flower lie apart (flowers are laid aside), but not out of scale', () => {
    const apart: Box[] = [...row, [100, 400, 60, 80]];
    expect(strayDetections(apart, [...sure, 0.6], [...sure, 0.9], [false, false, false, false, false, true])[5]).toBe(false);
    const big: Box[] = [...row, [100, 400, 120, 160]];
    expect(strayDetections(big, [...sure, 0.6], [...sure, 0.9], [false, false, false, false, false, true])[5]).toBe(true);
  });
  it('keeps a doubtful tile next to the hand (a neighbour within a tile length)', () => {
    const near: Box[] = [...row, [100 + 5 * 62 + 40, 100, 60, 80]];
    expect(strayDetections(near, [...sure, 0.5], [...sure, 0.5])[5]).toBe(false);
  });
  it('judges nothing with fewer than three confident tiles', () => {
    const boxes: Box[] = [[0, 0, 60, 80], [62, 0, 60, 80], [900, 900, 200, 200]];
    expect(strayDetections(boxes, [0.9, 0.9, 0.5], [0.9, 0.9, 0.5])).toEqual([false, false, false]);
  });
});

describe('flower reader verdict (withFlowerReading)', () => {
  const f0 = TILE_CODES.indexOf('f1');
  it('has the flower classes in order f1..f8 after the 34 tiles', () => {
    expect(f0).toBe(34);
    expect(TILE_CODES.slice(f0, f0 + 8)).toEqual(['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8']);
  });
  it('splits the classifier\'s flower mass as the reader says and leaves the other classes alone', () => {
    const p = new Float32Array(TILE_CODES.length);
    p[TILE_CODES.indexOf('1s')] = 0.2;
    p[TILE_CODES.indexOf('f2')] = 0.5; // the classifier: orchid
    p[TILE_CODES.indexOf('f5')] = 0.3;
    expect(flowerMass(p, f0)).toBeCloseTo(0.8, 6);
    const q = [0, 0, 0, 0, 0.9, 0.1, 0, 0]; // the reader: spring
    withFlowerReading(p, q, f0);
    expect(p[TILE_CODES.indexOf('f5')]).toBeCloseTo(0.72, 6);
    expect(p[TILE_CODES.indexOf('f6')]).toBeCloseTo(0.08, 6);
    expect(p[TILE_CODES.indexOf('f2')]).toBe(0);
    expect(p[TILE_CODES.indexOf('1s')]).toBeCloseTo(0.2, 6);
    expect(flowerMass(p, f0)).toBeCloseTo(0.8, 6);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  });
  it('normalises the reader\'s numbers and ignores an empty verdict', () => {
    const p = new Float32Array(TILE_CODES.length);
    p[f0] = 1;
    withFlowerReading(p, [0, 0, 0, 0, 0, 0, 0, 0], f0);
    expect(p[f0]).toBe(1);
    withFlowerReading(p, [0, 0, 2, 2, 0, 0, 0, 0], f0);
    expect(p[f0 + 2]).toBeCloseTo(0.5, 6);
    expect(p[f0 + 3]).toBeCloseTo(0.5, 6);
    expect(p[f0]).toBe(0);
  });
  it('blends the two splits geometrically when the reader has a weight below 1', () => {
    const p = new Float32Array(TILE_CODES.length);
    p[f0] = 0.6; // the classifier: plum 0.6, orchid 0.2 (flower mass 0.8)
    p[f0 + 1] = 0.2;
    p[TILE_CODES.indexOf('5z')] = 0.2;
    withFlowerReading(p, [0.25, 0.75, 0, 0, 0, 0, 0, 0], f0, 0.5); // the reader: orchid 3:1
    // sqrt(0.75 * 0.25) = sqrt(0.25 * 0.75): an even split of the mass between plum and orchid
    expect(p[f0]).toBeCloseTo(0.4, 4);
    expect(p[f0 + 1]).toBeCloseTo(0.4, 4);
    expect(p[f0 + 2]).toBe(0);
    expect(p[TILE_CODES.indexOf('5z')]).toBeCloseTo(0.2, 6);
  });
});

describe('loneBacks', () => {
  // tiles 40x60 in a row at x = 0, 42, 84, ...; index 5 is a back far off, 1 and 2 are backs side by side
  const row = (n: number): [number, number, number, number][] => Array.from({ length: n }, (_, i) => [i * 42, 0, 40, 60]);
  it('marks a face-down tile with no other one beside it', () => {
    const boxes = [...row(5), [400, 300, 40, 60] as [number, number, number, number]];
    expect(loneBacks(boxes, [false, true, true, false, false, true])).toEqual([false, false, false, false, false, true]);
  });
  it('never marks a face tile, and a back beside another back is not lone (the wall lies in rows)', () => {
    const boxes = row(4);
    expect(loneBacks(boxes, [false, false, false, false])).toEqual([false, false, false, false]);
    expect(loneBacks(boxes, [true, true, false, false])).toEqual([false, false, false, false]);
    // the two backs of a concealed kong shown back, face, face, back: three tiles apart, each lone
    expect(loneBacks(boxes, [true, false, false, true])).toEqual([true, false, false, true]);
  });
  it('takes a back only in its own row as beside it: near it in the row below, each is lone (two squares of a checked cloth in the gaps of two rows)', () => {
    // a back in the upper row's gap and one in the lower row's, 45 px down and 20 across: within
    // backs.near long sides, but their heights overlap by a quarter of a tile
    const rows: [number, number, number, number][] = [[0, 0, 40, 60], [20, 45, 40, 60], [60, 0, 40, 60]];
    expect(Math.hypot(20, 45)).toBeLessThan(CONFIG.backs.near * 60);
    expect(15 / 60).toBeLessThan(CONFIG.backs.rowOverlap);
    expect(loneBacks(rows, [true, true, false])).toEqual([true, true, false]);
    // side by side in a row turned 30 degrees (the next one 21 px lower): not lone
    const turned: [number, number, number, number][] = [[0, 0, 40, 60], [36, 21, 40, 60]];
    expect(loneBacks(turned, [true, true])).toEqual([false, false]);
  });
});

describe('besideHand (weak peaks in line with the hand, for the hand check)', () => {
  type B = [number, number, number, number];
  // sure tiles 40x60 in a row at x = 0, 42, ..., 210; median long side 60
  const sure: B[] = Array.from({ length: 6 }, (_, i) => [i * 42, 0, 40, 60]);
  it('takes a peak of the hand\'s size next to the row, as the row\'s next tile or in the row below', () => {
    expect(besideHand([[252, 0, 40, 60], [0, 64, 40, 60]], sure)).toEqual([true, true]);
  });
  it('takes a sideways tile of the hand\'s size (long side counts, not orientation)', () => {
    expect(besideHand([[254, 10, 60, 40]], sure)).toEqual([true]);
  });
  it('refuses a peak farther than CONFIG.beside.near long sides from every sure centre', () => {
    const gap = CONFIG.beside.near * 60; // centre distance from the last tile (centre x = 230)
    expect(besideHand([[230 + gap - 20 - 1, 0, 40, 60]], sure)).toEqual([true]);
    expect(besideHand([[230 + gap - 20 + 1, 0, 40, 60]], sure)).toEqual([false]);
    expect(besideHand([[100, 300, 40, 60]], sure)).toEqual([false]);
  });
  it('refuses a peak much larger or smaller than the hand\'s tiles (a box round two tiles, a pip)', () => {
    const big = 60 * CONFIG.beside.scale + 2, small = 60 / CONFIG.beside.scale - 2;
    expect(besideHand([[252, 0, big * 0.66, big], [252, 0, small * 0.66, small]], sure)).toEqual([false, false]);
  });
  it('refuses a peak that covers a sure tile (a second peak on the same tile)', () => {
    expect(iou([10, 0, 40, 60], sure[0]!)).toBeGreaterThan(CONFIG.beside.overlap);
    expect(besideHand([[10, 0, 40, 60]], sure)).toEqual([false]);
  });
  it('takes nothing when there is no sure tile', () => {
    expect(besideHand([[0, 0, 40, 60]], [])).toEqual([false]);
  });
});

describe('rowOfBacks (weak face-down tiles that continue a row of them)', () => {
  type B = [number, number, number, number];
  // kept face-down tiles 40x60 at x = 0, 42, 84
  const backs: B[] = [0, 1, 2].map((i) => [i * 42, 0, 40, 60]);
  it('takes the next tile of the row, and the one after it through the first', () => {
    // x = 126 and 168 are beside the row's last tile; x = 216 only beside those weak ones
    expect(rowOfBacks([[216, 0, 40, 60], [168, 0, 40, 60], [126, 0, 40, 60]], backs)).toEqual([true, true, true]);
  });
  it('refuses a tile beside nothing in the row, and takes nothing without a kept face-down tile', () => {
    expect(rowOfBacks([[400, 0, 40, 60]], backs)).toEqual([false]);
    expect(rowOfBacks([[126, 0, 40, 60]], [])).toEqual([false]);
  });
});

describe('retakeAdvice (so many uncertain tiles that the photo is better taken again)', () => {
  const sure = 0.95, unsure = CHECK_BELOW - 0.01;
  const hand = (nUnsure: number, n: number) => Array.from({ length: n }, (_, i) => (i < nUnsure ? unsure : sure));

  it('suggests a retake from the share and count of tiles marked "please check"', () => {
    const need = Math.max(CONFIG.review.retakeMinUnsure, Math.ceil(CONFIG.review.retakeShare * 14));
    expect(retakeAdvice(hand(need, 14))).toEqual({ unsure: need, of: 14 });
    expect(retakeAdvice(hand(need - 1, 14))).toBeNull();
    expect(retakeAdvice(hand(14, 14))).toEqual({ unsure: 14, of: 14 });
  });

  it('needs a minimum count, so that a short scan with a few doubts is not sent back', () => {
    expect(retakeAdvice(hand(CONFIG.review.retakeMinUnsure - 1, CONFIG.review.retakeMinUnsure - 1))).toBeNull();
    expect(retakeAdvice(hand(CONFIG.review.retakeMinUnsure, CONFIG.review.retakeMinUnsure))).toEqual({ unsure: CONFIG.review.retakeMinUnsure, of: CONFIG.review.retakeMinUnsure });
  });

  it('counts a score of exactly CHECK_BELOW as sure, and tiles the player set or confirmed (no score) as sure', () => {
    expect(retakeAdvice(Array(14).fill(CHECK_BELOW))).toBeNull();
    const scanned = hand(8, 14);
    expect(retakeAdvice(scanned)).toEqual({ unsure: 8, of: 14 });
    const checked = scanned.map((s, i) => (i < 5 ? undefined : s));
    expect(retakeAdvice(checked)).toBeNull();
    expect(retakeAdvice([])).toBeNull();
  });
});

describe('mergeFinds (the finder adds what the detector missed)', () => {
  const d = (box: Box, score: number): { box: Box; score: number; sideways: boolean; finder?: boolean } => ({ box, score, sideways: false });
  const hand = [d([100, 100, 30, 40], 0.9), d([131, 100, 30, 40], 0.85), d([162, 100, 30, 40], 0.4)];

  it('keeps the detector\'s confident boxes and adds a confident find lying apart, flagged', () => {
    const found = [d([102, 101, 30, 40], 0.95), d([300, 220, 30, 40], 0.7)];
    const out = mergeFinds(hand, found, 0.5);
    expect(out.slice(0, 2)).toEqual(hand.slice(0, 2));
    expect(out).toHaveLength(4);
    expect(out[3]).toEqual({ ...found[1], finder: true });
    expect(out.filter((x) => x.finder)).toHaveLength(1);
  });

  it('replaces a weak detection of the same tile with the confident find', () => {
    const out = mergeFinds(hand, [d([163, 102, 29, 39], 0.8)], 0.5);
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual({ box: [163, 102, 29, 39], score: 0.8, sideways: false, finder: true });
  });

  it('ignores weak finds, and a find whose centre lies in a confident box even at a small IoU', () => {
    // a find twice the tile's size, centred on the first tile: IoU below finder.sameIou
    const big: Box = [85, 80, 60, 80];
    expect(iou(big, hand[0]!.box)).toBeLessThan(CONFIG.finder.sameIou);
    expect(mergeFinds(hand, [d([300, 220, 30, 40], 0.45), d(big, 0.9)], 0.5)).toEqual(hand);
  });

  it('takes one find per tile when the finder reports it twice', () => {
    const out = mergeFinds(hand, [d([300, 220, 30, 40], 0.7), d([303, 222, 30, 40], 0.6)], 0.5);
    expect(out).toHaveLength(4);
  });
  it('addedFinds: only what the merge puts in place of a weak candidate or adds, in the merge\'s order', () => {
    const apart = d([300, 220, 30, 40], 0.7), same = d([102, 101, 30, 40], 0.95), onWeak = d([163, 102, 29, 39], 0.8);
    expect(addedFinds(hand, [same, apart, onWeak], 0.5)).toEqual([{ ...onWeak, finder: true }, { ...apart, finder: true }]);
    expect(addedFinds(hand, [same], 0.5)).toEqual([]);
  });
});

describe('outerWindows: where the look for tiles apart reads again', () => {
  const sure: Box[] = [[100, 100, 40, 54], [144, 100, 40, 54], [188, 100, 40, 54]];
  it('puts an CONFIG.outer.window-tile square round a weak peak no sure tile covers, inside the raster', () => {
    const w = outerWindows([[600, 400, 30, 40]], sure, 54, 1000, 750);
    const half = (CONFIG.outer.window * 54) / 2;
    expect(w).toEqual([[615 - half, 420 - half, 2 * half, 2 * half]]);
    // cut by the raster's edge
    expect(outerWindows([[960, 700, 30, 40]], sure, 54, 1000, 750)).toEqual([[975 - half, 720 - half, 1000 - (975 - half), 750 - (720 - half)]]);
  });
  it('skips peaks on a sure tile (overlap or centre inside), and gives no window without hints', () => {
    expect(outerWindows([[102, 101, 38, 50], [150, 110, 20, 20]], sure, 54, 1000, 750)).toEqual([]);
    expect(outerWindows([], sure, 54, 1000, 750)).toEqual([]);
  });
  it('merges overlapping windows into the box round them, again until none overlap', () => {
    const w = outerWindows([[600, 400, 30, 40], [700, 400, 30, 40], [300, 600, 30, 40]], sure, 54, 1000, 750)!;
    expect(w).toHaveLength(2);
    const half = (CONFIG.outer.window * 54) / 2;
    expect(w).toContainEqual([615 - half, 420 - half, 100 + 2 * half, 2 * half]);
    // a chain: a and c overlap only through b's window, and b comes last
    const chain = outerWindows([[100, 500, 30, 40], [700, 500, 30, 40], [400, 500, 30, 40]], sure, 54, 1000, 750, 6)!;
    expect(chain).toHaveLength(1);
  });
  it('gives null (read the whole raster) when the windows cover more than the share allowed', () => {
    const many: Box[] = [];
    for (let x = 50; x < 1000; x += 150) for (let y = 250; y < 750; y += 150) many.push([x, y, 30, 40]);
    expect(outerWindows(many, sure, 54, 1000, 750)).toBeNull();
    expect(outerWindows([[600, 400, 30, 40]], sure, 54, 1000, 750, CONFIG.outer.window, 0.01)).toBeNull();
  });
});

describe('closeUpPossible: whether the zoom-out pass is worth running', () => {
  const row = (n: number, side: number): Box[] => Array.from({ length: n }, (_, k) => [10 + k * side, 100, side * 0.75, side]);
  it('is false for a hand of small tiles: at least CONFIG.closeUp.skipCount, median under CONFIG.closeUp.skipBelow of the long side', () => {
    expect(closeUpPossible(row(CONFIG.closeUp.skipCount, 80), 1000, 750)).toBe(false);
    expect(closeUpPossible(row(14, 45), 512, 384)).toBe(false);
  });
  it('is true with fewer tiles, larger ones, or none', () => {
    expect(closeUpPossible(row(CONFIG.closeUp.skipCount - 1, 80), 1000, 750)).toBe(true);
    expect(closeUpPossible(row(8, CONFIG.closeUp.skipBelow * 1000), 1000, 750)).toBe(true);
    expect(closeUpPossible([], 1000, 750)).toBe(true);
  });
});

describe('oneTileBoxes (a picture of one tile)', () => {
  const det = (box: Box, score = 0.8, sideways = false) => ({ box, score, sideways });
  it('offers the boxes in the middle of a photo with the table round the tile, surest first', () => {
    // a 600 x 800 photo: the tile, a second box of it, a pip inside it and a neighbour's sliver at the edge
    const tile = det([220, 300, 150, 200], 0.7), again = det([230, 310, 140, 190], 0.9);
    const pip = det([280, 380, 30, 30], 0.95), sliver = det([0, 320, 50, 180], 0.99);
    expect(oneTileBoxes([tile, pip, again, sliver], 600, 800)).toEqual([again, tile]);
  });
  it('drops a box lying inside a much larger one: a dot of a 2p is part of the tile, not a 1p', () => {
    // a 2p photographed large: the tile, and each of its two dots found as a tile of about half its size
    const tile = det([141, 154, 267, 264], 0.73), dot1 = det([120, 136, 184, 215], 0.67), dot2 = det([204, 164, 191, 255], 0.65);
    expect(oneTileBoxes([dot1, tile, dot2], 512, 512)).toEqual([tile]);
    // a second box of the same tile, a little smaller, is not a part of it
    const again = det([150, 160, 250, 240], 0.9);
    expect(CONFIG.oneTile.partArea * 250 * 240).toBeGreaterThan(267 * 264);
    expect(oneTileBoxes([tile, again], 512, 512)).toEqual([again, tile]);
    // nor is a box half outside the larger one
    const beside = det([300, 154, 200, 200], 0.95);
    expect(oneTileBoxes([tile, beside], 512, 512)).toEqual([beside, tile]);
  });
  it('offers nothing when a box fills the picture: it is cut to the tile and read whole', () => {
    const whole = det([10, 10, 580, 780], 0.6), pip = det([280, 380, 60, 60], 0.95);
    expect(oneTileBoxes([pip, whole], 600, 800)).toEqual([]);
    expect(oneTileBoxes([], 600, 800)).toEqual([]);
  });
  it('keeps only boxes centred in the middle, not too small and not filling the picture', () => {
    const box = fc.tuple(fc.double({ min: 0, max: 900, noNaN: true }), fc.double({ min: 0, max: 900, noNaN: true }), fc.double({ min: 1, max: 900, noNaN: true }), fc.double({ min: 1, max: 900, noNaN: true }));
    fc.assert(fc.property(fc.array(fc.record({ box, score: fc.double({ min: 0.5, max: 1, noNaN: true }), sideways: fc.boolean() }), { maxLength: 12 }), fc.integer({ min: 50, max: 1000 }), fc.integer({ min: 50, max: 1000 }), (ds, w, h) => {
      const out = oneTileBoxes(ds as { box: Box; score: number; sideways: boolean }[], w, h);
      for (const d of out) {
        expect(ds).toContain(d);
        const cx = d.box[0] + d.box[2] / 2, cy = d.box[1] + d.box[3] / 2;
        expect(cx).toBeGreaterThanOrEqual(w * CONFIG.oneTile.inset);
        expect(cx).toBeLessThanOrEqual(w * (1 - CONFIG.oneTile.inset));
        expect(cy).toBeGreaterThanOrEqual(h * CONFIG.oneTile.inset);
        expect(cy).toBeLessThanOrEqual(h * (1 - CONFIG.oneTile.inset));
        expect(Math.max(d.box[2], d.box[3])).toBeGreaterThanOrEqual(CONFIG.oneTile.min * Math.max(w, h));
        expect(d.box[2] * d.box[3]).toBeLessThan(CONFIG.oneTile.fills * w * h);
      }
      for (let i = 1; i < out.length; i++) expect(out[i]!.score).toBeLessThanOrEqual(out[i - 1]!.score);
      // no box offered lies inside another offered box oneTile.partArea times its size
      const area = (b: Box) => b[2] * b[3];
      for (const a of out) for (const o of out) {
        if (area(o.box) < CONFIG.oneTile.partArea * area(a.box)) continue;
        const iw = Math.max(0, Math.min(a.box[0] + a.box[2], o.box[0] + o.box[2]) - Math.max(a.box[0], o.box[0]));
        const ih = Math.max(0, Math.min(a.box[1] + a.box[3], o.box[1] + o.box[3]) - Math.max(a.box[1], o.box[1]));
        expect((iw * ih) / area(a.box)).toBeLessThan(CONFIG.oneTile.partInside);
      }
    }));
  });
});

describe('largestGroup', () => {
  const tile = (x: number, y: number): Box => [x, y, 20, 30];

  it('gives the largest group of boxes linked within link x their median long side, in the given order', () => {
    // a row of 4 tiles 25 px apart, a pair 40 px apart far off, and a lone box
    const boxes = [tile(500, 500), tile(0, 0), tile(100, 100), tile(525, 500), tile(140, 100), tile(550, 500), tile(575, 500), tile(900, 0)];
    expect(largestGroup(boxes, 1)).toEqual([0, 3, 5, 6]);
    // links chain: 575 and 500 are 75 px apart, more than one link of 30 px
    expect(largestGroup(boxes.slice(1, 5), 1.5)).toEqual([1, 3]);
    // at 40 px the pair links but the row does not reach it
    expect(largestGroup(boxes, 40 / 30)).toEqual([0, 3, 5, 6]);
    // at 200 px the pair and the box at the origin join (3), the row stays the largest; wide enough, all join
    expect(largestGroup(boxes, 200 / 30)).toEqual([0, 3, 5, 6]);
    expect(largestGroup(boxes.slice(1, 5), 200 / 30)).toEqual([0, 1, 3]);
    expect(largestGroup(boxes, 30)).toHaveLength(8);
  });

  it('gives the first box alone when none links, and nothing for no boxes', () => {
    expect(largestGroup([tile(0, 0), tile(300, 0), tile(600, 0)], 2)).toEqual([0]);
    expect(largestGroup([], 4)).toEqual([]);
  });

  it('is a group: every box in it is within reach of another in it, and none outside is within reach of it', () => {
    const box = fc.tuple(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 5, max: 40 }), fc.integer({ min: 5, max: 40 }));
    fc.assert(fc.property(fc.array(box, { minLength: 1, maxLength: 25 }), fc.double({ min: 0.5, max: 5, noNaN: true }), (boxes, link) => {
      const g = largestGroup(boxes, link);
      const reach = link * medianLongSide(boxes);
      const c = (b: Box) => [b[0] + b[2] / 2, b[1] + b[3] / 2] as const;
      const near = (a: Box, b: Box) => Math.hypot(c(a)[0] - c(b)[0], c(a)[1] - c(b)[1]) <= reach;
      expect(g.length).toBeGreaterThan(0);
      expect([...g].sort((a, b) => a - b)).toEqual(g);
      const inG = new Set(g);
      for (const i of g) if (g.length > 1) expect(g.some((j) => j !== i && near(boxes[i]!, boxes[j]!))).toBe(true);
      boxes.forEach((b, j) => { if (!inG.has(j)) expect(g.some((i) => near(b, boxes[i]!))).toBe(false); });
    }));
  });
});

describe('claimedTiles (a meld\'s claimed tile lies sideways beside its set)', () => {
  // a row of standing tiles 30x40, 2 px apart, the fourth lying (40x30)
  const row: Box[] = [[0, 0, 30, 40], [32, 0, 30, 40], [64, 0, 30, 40], [96, 10, 40, 30], [138, 0, 30, 40]];
  it('marks a box wider than tall among standing tiles, beside another', () => {
    expect(claimedTiles(row)).toEqual([false, false, false, true, false]);
  });
  it('leaves a sideways tile lying alone (a flower laid apart) and a hand photographed from the side', () => {
    const apart: Box[] = [...row.slice(0, 3), [300, 200, 40, 30]];
    expect(claimedTiles(apart)).toEqual([false, false, false, false]);
    // the row seen from the side of the table (turned a quarter): wider than tall is no sign when
    // most boxes are, and the claimed tile, standing there, is not marked either
    const lying: Box[] = row.map(([x, y, w, h]) => [y, x, h, w]);
    expect(claimedTiles(lying)).toEqual([false, false, false, false, false]);
    expect(claimedTiles([])).toEqual([]);
  });
});
