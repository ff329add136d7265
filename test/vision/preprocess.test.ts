import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CONFIG } from '../../src/vision/config.ts';
import { completeCutBoxes, cropTiles, letterbox, letterboxPoint, resizeArea, turnedTileSize, unletterboxPoint } from '../../src/vision/preprocess.ts';
import { orientedSize, orientRaster, readExifOrientation } from '../../src/vision/orient.ts';
import type { RasterImage } from '../../src/vision/types.ts';

function raster(w: number, h: number, f: (x: number, y: number) => [number, number, number]): RasterImage {
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(f(x, y), (y * w + x) * 3);
  return { width: w, height: h, channels: 3, data };
}

describe('letterbox', () => {
  it('scales the long side to the target and pads to a multiple of 32', () => {
    const img = raster(1000, 750, () => [255, 0, 0]);
    const lb = letterbox(img, 512);
    expect(lb.dims).toEqual([1, 3, 384, 512]);
    expect(lb.transform.scale).toBeCloseTo(0.512, 6);
    const portrait = letterbox(raster(300, 1000, () => [0, 0, 0]), 512);
    expect(portrait.dims).toEqual([1, 3, 512, 160]);
    // padding is grey
    expect(portrait.data[512 * 160 - 1]).toBeCloseTo(0.5);
  });

  it('round-trips points between raster and tensor pixels', () => {
    const img = raster(4000, 3000, () => [0, 0, 0]);
    const { transform: t } = letterbox(raster(400, 300, () => [0, 0, 0]), 512);
    for (const [x, y] of [[0, 0], [123.5, 77.25], [399, 299]] as const) {
      const [tx, ty] = letterboxPoint(t, x, y);
      const [bx, by] = unletterboxPoint(t, tx, ty);
      expect(bx).toBeCloseTo(x, 6);
      expect(by).toBeCloseTo(y, 6);
    }
    expect(img.width).toBe(4000);
  });

  it('zooms out: with fit < 1 the photo is shrunk and centred in the same tensor, grey all round', () => {
    const img = raster(1000, 750, () => [255, 0, 0]);
    const lb = letterbox(img, 512, 32, 0.5);
    expect(lb.dims).toEqual([1, 3, 384, 512]);
    const t = lb.transform;
    expect(t.scale).toBeCloseTo(0.256, 6);
    expect([t.padX, t.padY]).toEqual([128, 96]);
    const at = (x: number, y: number) => lb.data[y * 512 + x];
    // red inside the centred content, grey outside it
    expect(at(256, 192)).toBeCloseTo(1);
    expect(at(128, 96)).toBeCloseTo(1);
    expect(at(383, 287)).toBeCloseTo(1);
    for (const [x, y] of [[127, 192], [384, 192], [256, 95], [256, 288], [0, 0], [511, 383]] as const) expect(at(x, y)).toBeCloseTo(0.5);
    // raster corners map to the content's corners and back
    expect(letterboxPoint(t, 0, 0)).toEqual([128, 96]);
    const [x, y] = unletterboxPoint(t, ...letterboxPoint(t, 999, 749));
    expect([x, y].map((v) => +v.toFixed(6))).toEqual([999, 749]);
    // fit 1 is the plain letterbox, content at the top left
    expect(letterbox(img, 512, 32, 1).transform).toEqual(letterbox(img, 512).transform);
    expect(() => letterbox(img, 512, 32, 0)).toThrow(RangeError);
    expect(() => letterbox(img, 512, 32, 1.5)).toThrow(/fit must be in/);
  });

  it('area-averages when shrinking', () => {
    const img = raster(4, 2, (x) => (x % 2 ? [255, 255, 255] : [0, 0, 0]));
    const out = resizeArea(img, 2, 1);
    expect(out[0]).toBeCloseTo(0.5, 5);
    expect(out[3]).toBeCloseTo(0.5, 5);
  });

  it('equals the exact area average, for whole factors (box sums) and fractional ones, RGB and RGBA', () => {
    // reference: each output pixel is the mean of the source over its footprint, by pixel overlap
    const reference = (img: RasterImage, w: number, h: number) => {
      const out = new Float32Array(w * h * 3);
      const fx = img.width / w, fy = img.height / h;
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
        const sum = [0, 0, 0];
        let area = 0;
        for (let sy = Math.floor(y * fy); sy < Math.min(img.height, Math.ceil((y + 1) * fy)); sy++) {
          const oy = Math.min(sy + 1, (y + 1) * fy) - Math.max(sy, y * fy);
          for (let sx = Math.floor(x * fx); sx < Math.min(img.width, Math.ceil((x + 1) * fx)); sx++) {
            const a = oy * (Math.min(sx + 1, (x + 1) * fx) - Math.max(sx, x * fx));
            for (let c = 0; c < 3; c++) sum[c] += a * img.data[(sy * img.width + sx) * img.channels + c];
            area += a;
          }
        }
        for (let c = 0; c < 3; c++) out[(y * w + x) * 3 + c] = sum[c] / area / 255;
      }
      return out;
    };
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 4 }), fc.constantFrom(3, 4),
      fc.boolean(), fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (w, h, k, channels, whole, seed) => {
        // whole: a whole factor k each way; else a source a few pixels off it
        const W = w * k + (whole ? 0 : seed % 3), H = h * k + (whole ? 0 : (seed >> 2) % 3);
        let s = seed;
        const data = Uint8Array.from({ length: W * H * channels }, () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 24));
        const img = { width: W, height: H, channels, data };
        const got = resizeArea(img, w, h), want = reference(img, w, h);
        for (let i = 0; i < want.length; i++) expect(got[i]).toBeCloseTo(want[i]!, 4);
      },
    ), { numRuns: 300 });
  });

  it('at a whole factor, writes the area average (resizeArea) into the planes, grey padding round them', () => {
    fc.assert(fc.property(
      fc.integer({ min: 2, max: 40 }), fc.integer({ min: 2, max: 40 }), fc.integer({ min: 2, max: 4 }), fc.constantFrom(3, 4), fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (w, h, k, channels, seed) => {
        let s = seed;
        const img = { width: w * k, height: h * k, channels, data: Uint8Array.from({ length: w * k * h * k * channels }, () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 24)) };
        const lb = letterbox(img, Math.max(w, h));
        const [, , TH, TW] = lb.dims, plane = TH * TW;
        expect(lb.transform.scale).toBe(1 / k);
        const want = resizeArea(img, w, h);
        for (let y = 0; y < TH; y++) for (let x = 0; x < TW; x++) for (let c = 0; c < 3; c++) {
          expect(lb.data[c * plane + y * TW + x]).toBe(x < w && y < h ? want[(y * w + x) * 3 + c] : CONFIG.crop.padValue);
        }
      },
    ), { numRuns: 60 });
  });

  it('at the raster\'s own size, copies its pixels (RGB or RGBA) into the planes, grey padding round them', () => {
    let seed = 7;
    const W = 100, H = 60;
    const data = Uint8Array.from({ length: W * H * 4 }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24));
    const lb = letterbox({ width: W, height: H, channels: 4, data }, 100);
    expect(lb.dims).toEqual([1, 3, 64, 128]);
    expect(lb.transform.scale).toBe(1);
    const plane = 64 * 128;
    for (const [x, y] of [[0, 0], [99, 0], [37, 59], [99, 59]]) {
      for (let c = 0; c < 3; c++) expect(lb.data[c * plane + y * 128 + x]).toBeCloseTo(data[(y * W + x) * 4 + c]! / 255, 6);
    }
    expect(lb.data[60 * 128 + 5]).toBe(CONFIG.crop.padValue);
    expect(lb.data[2 * plane + 10 * 128 + 100]).toBe(CONFIG.crop.padValue);
  });

  it('keeps colour channels in NCHW order', () => {
    const lb = letterbox(raster(64, 64, () => [255, 128, 0]), 64);
    const plane = 64 * 64;
    expect(lb.data[0]).toBeCloseTo(1);
    expect(lb.data[plane]).toBeCloseTo(128 / 255, 3);
    expect(lb.data[2 * plane]).toBeCloseTo(0);
  });
});

describe('EXIF orientation', () => {
  it('reads orientation from an APP1 Exif segment', () => {
    // SOI, APP1(Exif, little-endian TIFF, IFD0 with one entry 0x0112 = 6), SOS
    const tiff = [0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];
    const app1 = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00, ...tiff];
    const len = app1.length + 2;
    const b = new Uint8Array([0xff, 0xd8, 0xff, 0xe1, len >> 8, len & 255, ...app1, 0xff, 0xda, 0x00, 0x02]);
    expect(readExifOrientation(b)).toBe(6);
    expect(readExifOrientation(new Uint8Array([0xff, 0xd8, 0xff, 0xda]))).toBe(1);
    expect(orientedSize(4000, 3000, 6)).toEqual({ width: 3000, height: 4000 });
  });

  it('turns and mirrors pixels for every orientation as libvips does', async () => {
    const sharp = (await import('sharp')).default;
    const W = 5, H = 3;
    const img = raster(W, H, (x, y) => [x * 40, y * 80, (x + y) * 20]);
    const png = await sharp(Buffer.from(img.data), { raw: { width: W, height: H, channels: 3 } }).png().toBuffer();
    for (let o = 1; o <= 8; o++) {
      const { data, info } = await sharp(await sharp(png).withMetadata({ orientation: o }).png().toBuffer()).rotate().raw().toBuffer({ resolveWithObject: true });
      const r = orientRaster(img, o);
      expect([r.width, r.height], `orientation ${o}`).toEqual([info.width, info.height]);
      expect(Array.from(r.data), `orientation ${o}`).toEqual(Array.from(data));
    }
  });

  it('rotates pixels for orientation 6 (90 degrees clockwise)', () => {
    const img = raster(2, 1, (x) => (x === 0 ? [10, 10, 10] : [20, 20, 20]));
    const r = orientRaster(img, 6);
    expect([r.width, r.height]).toEqual([1, 2]);
    expect(r.data[0]).toBe(10);
    expect(r.data[3]).toBe(20);
  });
});

describe('cropTiles', () => {
  it('stretches a box to 48x64 and stands sideways tiles up', () => {
    // left half red, right half blue
    const img = raster(200, 100, (x) => (x < 100 ? [255, 0, 0] : [0, 0, 255]));
    const up = cropTiles(img, [[50, 0, 100, 100]], [false], 48, 64, 1);
    const plane = 48 * 64;
    expect(up[10 * 48 + 2]).toBeGreaterThan(0.9); // left column red
    expect(up[2 * plane + 10 * 48 + 45]).toBeGreaterThan(0.9); // right column blue
    const side = cropTiles(img, [[50, 0, 100, 100]], [true], 48, 64, 1);
    // sideways: the box's x axis becomes the crop's vertical axis
    expect(side[2 * 48 + 24]).toBeGreaterThan(0.9); // top row red
    expect(side[2 * plane + 61 * 48 + 24]).toBeGreaterThan(0.9); // bottom row blue
  });
});

describe('cropTiles of turned tiles', () => {
  it('stands a turned tile straight: a boundary along the tile\'s axis runs straight across the crop', () => {
    for (const deg of [-30, -20, 25, 35]) {
      const t = (deg * Math.PI) / 180;
      // red above the line through (100, 100) at the tile's angle, blue below it
      const img = raster(200, 200, (x, y) => (-(x - 100) * Math.sin(t) + (y - 100) * Math.cos(t) < 0 ? [255, 0, 0] : [0, 0, 255]));
      const [w, h] = [60, 80];
      const bw = w * Math.cos(Math.abs(t)) + h * Math.sin(Math.abs(t)), bh = w * Math.sin(Math.abs(t)) + h * Math.cos(Math.abs(t));
      const crop = cropTiles(img, [[100 - bw / 2, 100 - bh / 2, bw, bh]], [false], CONFIG.crop.width, CONFIG.crop.height, 1, [deg]);
      const plane = CONFIG.crop.width * CONFIG.crop.height;
      for (const x of [2, 24, 45]) {
        expect(crop[10 * CONFIG.crop.width + x]).toBeGreaterThan(0.99); // top rows red across the crop
        expect(crop[2 * plane + 53 * CONFIG.crop.width + x]).toBeGreaterThan(0.99); // bottom rows blue
      }
      // the axis-aligned crop of the same box cuts the boundary slantwise: in some middle row the
      // left and right columns differ, which no row of the straightened crop does
      const flat = cropTiles(img, [[100 - bw / 2, 100 - bh / 2, bw, bh]], [false], CONFIG.crop.width, CONFIG.crop.height, 1);
      const differs = (c: Float32Array) => [...Array(CONFIG.crop.height).keys()].some((y) => Math.abs(c[y * CONFIG.crop.width + 1]! - c[y * CONFIG.crop.width + CONFIG.crop.width - 2]!) > 0.5);
      expect(differs(flat)).toBe(true);
      expect(differs(crop)).toBe(false);
    }
  });
  it('estimates the tile\'s own box from its turned box, within the detected box', () => {
    const [w, h] = [55, 75];
    for (const deg of [-30, -15, 15, 30]) {
      const t = (Math.abs(deg) * Math.PI) / 180;
      const bw = w * Math.cos(t) + h * Math.sin(t), bh = w * Math.sin(t) + h * Math.cos(t);
      const [ew, eh] = turnedTileSize(bw, bh, deg, 1);
      expect(ew).toBeCloseTo(w, 6);
      expect(eh).toBeCloseTo(h, 6);
      const [gw, gh] = turnedTileSize(bw, bh, deg);
      expect(gw).toBeCloseTo(Math.min(bw, w * CONFIG.crop.turnedEnlarge), 6);
      expect(gh).toBeCloseTo(Math.min(bh, h * CONFIG.crop.turnedEnlarge), 6);
    }
    expect(turnedTileSize(60, 80, 0, 1)).toEqual([60, 80]);
    // a box too narrow for the angle (a tile's body, a neighbour in it) keeps 0.45-1 of each side
    const [nw, nh] = turnedTileSize(60, 100, 40, 1);
    expect(nw).toBeCloseTo(27, 6);
    expect(nh).toBe(100);
  });
});

describe('completeCutBoxes (tiles the photo\'s edge cuts)', () => {
  // a row of upright 60 x 80 tiles, and one lying (sideways, 80 x 60), in a 1000 x 600 photo
  const row: [number, number, number, number][] = [[300, 200, 60, 80], [362, 200, 60, 80], [424, 200, 60, 80], [500, 210, 80, 60]];
  const side = [false, false, false, true];
  it('extends a box cut by each edge beyond that edge to the median tile, upright or lying', () => {
    const cuts: [number, number, number, number][] = [[0, 200, 25, 80], [975, 200, 25, 80], [300, 0, 60, 30], [300, 550, 60, 50], [0, 0, 30, 40]];
    const out = completeCutBoxes([...row, ...cuts], [...side, false, false, false, false, false], 1000, 600, 2);
    expect(out.slice(0, 4)).toEqual([null, null, null, null]);
    expect(out[4]).toEqual([-35, 200, 60, 80]); // left edge: the visible part stays at the right of the whole box
    expect(out[5]).toEqual([975, 200, 60, 80]); // right edge
    expect(out[6]).toEqual([300, -50, 60, 80]); // top edge
    expect(out[7]).toEqual([300, 550, 60, 80]); // bottom edge
    expect(out[8]).toEqual([-30, -40, 60, 80]); // a corner: both ways
    // a lying tile cut by the left edge is completed to a lying tile's width
    const lying = completeCutBoxes([...row, [0, 300, 50, 60]], [...side, true], 1000, 600, 2);
    expect(lying[4]).toEqual([-30, 300, 80, 60]);
  });
  it('leaves alone a box at the edge that is already whole, and boxes when no tile lies off the edges', () => {
    const out = completeCutBoxes([...row, [0, 200, 59, 80], [940, 200, 60, 79]], [...side, false, false], 1000, 600, 2);
    expect(out[4]).toBeNull(); // short by under crop.cutShortBy
    expect(out[5]).toBeNull();
    expect(completeCutBoxes([[0, 10, 20, 80], [980, 10, 20, 80]], [false, false], 1000, 600, 2)).toEqual([null, null]);
    expect(completeCutBoxes([], [], 1000, 600, 2)).toEqual([]);
  });
  it('completed boxes keep the visible part and reach the median size (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 5, max: 55 }), fc.integer({ min: 5, max: 75 }), fc.constantFrom('l', 'r', 't', 'b'), (vw, vh, edge) => {
      const box: [number, number, number, number] = edge === 'l' ? [0, 200, vw, 80] : edge === 'r' ? [1000 - vw, 200, vw, 80] : edge === 't' ? [300, 0, 60, vh] : [300, 600 - vh, 60, vh];
      const [b] = completeCutBoxes([box, ...row], [false, ...side], 1000, 600, 2).slice(0, 1);
      expect(b).not.toBeNull();
      const [x, y, w, h] = b!;
      expect([w, h]).toEqual([60, 80]);
      // the visible box lies inside the completed one, flush with the edge's far side
      expect(x).toBeLessThanOrEqual(box[0]);
      expect(y).toBeLessThanOrEqual(box[1]);
      expect(x + w).toBeGreaterThanOrEqual(box[0] + box[2]);
      expect(y + h).toBeGreaterThanOrEqual(box[1] + box[3]);
      if (edge === 'l') expect(x + w).toBe(box[0] + box[2]);
      if (edge === 't') expect(y + h).toBe(box[1] + box[3]);
    }));
  });
});

describe('turnedCrops (180-degree test-time augmentation)', () => {
  it('turns only the chosen crops, each channel plane reversed', async () => {
    const { turnedCrops } = await import('../../src/vision/stages/read.ts');
    const plane = CONFIG.crop.height * CONFIG.crop.width;
    const n = 3;
    const crops = new Float32Array(n * 3 * plane);
    for (let i = 0; i < crops.length; i++) crops[i] = i;
    const out = turnedCrops(crops, [2, 0]);
    expect(out.length).toBe(2 * 3 * plane);
    // first output crop = input crop 2 turned: its first pixel is crop 2's last pixel of the same channel
    for (let c = 0; c < 3; c++) {
      expect(out[c * plane]).toBe((2 * 3 + c) * plane + plane - 1);
      expect(out[c * plane + plane - 1]).toBe((2 * 3 + c) * plane);
      expect(out[(3 + c) * plane + 5]).toBe(c * plane + plane - 1 - 5);
    }
    // turning twice gives the crop back
    const twice = turnedCrops(turnedCrops(crops, [1]), [0]);
    expect(Array.from(twice)).toEqual(Array.from(crops.subarray(3 * plane, 6 * plane)));
  });
  it('turns crops of another size (the flower reader\'s) when given their plane', async () => {
    const { turnedCrops } = await import('../../src/vision/stages/read.ts');
    const plane = CONFIG.crop.flowerHeight * CONFIG.crop.flowerWidth;
    const crops = new Float32Array(2 * 3 * plane);
    for (let i = 0; i < crops.length; i++) crops[i] = i;
    const out = turnedCrops(crops, [1], plane);
    expect(out.length).toBe(3 * plane);
    for (let c = 0; c < 3; c++) expect(out[c * plane]).toBe((3 + c) * plane + plane - 1);
    expect(Array.from(turnedCrops(out, [0], plane))).toEqual(Array.from(crops.subarray(3 * plane)));
  });
});
