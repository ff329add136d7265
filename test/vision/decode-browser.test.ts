/**
 * The browser decode's JPEG fast path (decodeJpegScaled): the scale it asks ImageDecoder for, and
 * its refusals. In Chromium it runs in the end-to-end tests (test/e2e/app.e2e.ts: a 12 MP photo with
 * EXIF orientation 6).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeJpegScaled, jpegScale } from '../../src/vision/decode-browser.ts';

describe('jpegScale', () => {
  it('is the smallest n/8 of the stored size that is at least the target', () => {
    expect(jpegScale(4000, 3000, 1024, 768)).toBe(3); // 1500x1125
    expect(jpegScale(4000, 3000, 1000, 750)).toBe(2); // exactly 1/4
    expect(jpegScale(1280, 960, 1024, 768)).toBe(7); // 1120x840
    expect(jpegScale(12000, 9000, 1024, 768)).toBe(1); // 1500x1125
    expect(jpegScale(1024, 768, 1024, 768)).toBe(8); // no scaling
    expect(jpegScale(800, 600, 1024, 768)).toBe(8); // never above 1
  });

  it('takes the larger need of the two sides', () => {
    // the width would do with 1/8, the height needs 3/8; and the other way round
    expect(jpegScale(8000, 2000, 900, 600)).toBe(3);
    expect(jpegScale(2000, 8000, 600, 900)).toBe(3);
  });
});

/** A stand-in for WebCodecs' ImageDecoder giving a frame of the given display size. */
function fakeDecoder(frame: { displayWidth: number; displayHeight: number; rotation?: number }, seen: unknown[]) {
  return class {
    static isTypeSupported = async () => true;
    constructor(init: unknown) {
      seen.push(init);
    }
    async decode() {
      return { image: { ...frame, close: () => undefined } };
    }
    close() {}
  };
}

describe('decodeJpegScaled', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('gives way to createImageBitmap where there is no ImageDecoder (Node, Safari)', async () => {
    expect(await decodeJpegScaled(new Uint8Array(8), 4000, 3000, 1, [0, 0, 4000, 3000], 1024, 768)).toBeNull();
  });

  it('asks for the stored size at the scale, turned for orientations 5-8', async () => {
    const seen: unknown[] = [];
    vi.stubGlobal('ImageDecoder', fakeDecoder({ displayWidth: 1125, displayHeight: 1500 }, seen));
    // no OffscreenCanvas in Node: refused after the checks, but the request was made
    vi.stubGlobal('OffscreenCanvas', class { getContext() { return null; } });
    await decodeJpegScaled(new Uint8Array(8), 4000, 3000, 1, [0, 0, 4000, 3000], 1024, 768);
    await decodeJpegScaled(new Uint8Array(8), 3000, 4000, 6, [0, 0, 4000, 3000], 1024, 768);
    expect(seen).toEqual([
      expect.objectContaining({ type: 'image/jpeg', desiredWidth: 1500, desiredHeight: 1125 }),
      expect.objectContaining({ type: 'image/jpeg', desiredWidth: 1125, desiredHeight: 1500 }),
    ]);
  });

  it('refuses a rotated photo whose frame does not say it was turned, and a frame of the wrong shape or too small', async () => {
    const seen: unknown[] = [];
    const draws: number[] = [];
    vi.stubGlobal('OffscreenCanvas', class {
      getContext() {
        return { fillRect() {}, drawImage() { draws.push(1); }, getImageData: (_x: number, _y: number, w: number, h: number) => ({ data: new Uint8ClampedArray(w * h * 4) }) };
      }
    });
    // an engine without VideoFrame.rotation, which leaves EXIF orientation out
    vi.stubGlobal('ImageDecoder', fakeDecoder({ displayWidth: 1125, displayHeight: 1500 }, seen));
    expect(await decodeJpegScaled(new Uint8Array(8), 3000, 4000, 6, [0, 0, 4000, 3000], 1024, 768)).toBeNull();
    // turned, but still on its side
    vi.stubGlobal('ImageDecoder', fakeDecoder({ displayWidth: 1125, displayHeight: 1500, rotation: 0 }, seen));
    expect(await decodeJpegScaled(new Uint8Array(8), 3000, 4000, 6, [0, 0, 4000, 3000], 1024, 768)).toBeNull();
    // smaller than asked
    vi.stubGlobal('ImageDecoder', fakeDecoder({ displayWidth: 1000, displayHeight: 750 }, seen));
    expect(await decodeJpegScaled(new Uint8Array(8), 4000, 3000, 1, [0, 0, 4000, 3000], 1024, 768)).toBeNull();
    expect(draws).toEqual([]);
    // right: upright, and turned with the frame saying so
    vi.stubGlobal('ImageDecoder', fakeDecoder({ displayWidth: 1500, displayHeight: 1125 }, seen));
    expect((await decodeJpegScaled(new Uint8Array(8), 4000, 3000, 1, [0, 0, 4000, 3000], 1024, 768))?.length).toBe(1024 * 768 * 4);
    vi.stubGlobal('ImageDecoder', fakeDecoder({ displayWidth: 1500, displayHeight: 1125, rotation: 90 }, seen));
    expect((await decodeJpegScaled(new Uint8Array(8), 3000, 4000, 6, [0, 0, 4000, 3000], 1024, 768))?.length).toBe(1024 * 768 * 4);
    expect(draws).toEqual([1, 1]);
  });

  it('draws a region of the photo from its place in the decoded frame, asking for the scale the region needs', async () => {
    const seen: unknown[] = [];
    const draws: number[][] = [];
    vi.stubGlobal('OffscreenCanvas', class {
      getContext() {
        return { fillRect() {}, drawImage: (_f: unknown, ...a: number[]) => { draws.push(a); }, getImageData: (_x: number, _y: number, w: number, h: number) => ({ data: new Uint8ClampedArray(w * h * 4) }) };
      }
    });
    // the region 1600x1200 of a 4000x3000 photo, to 1024x768: the photo at 0.64 needs 6/8 (3000x2250)
    vi.stubGlobal('ImageDecoder', fakeDecoder({ displayWidth: 3000, displayHeight: 2250 }, seen));
    expect((await decodeJpegScaled(new Uint8Array(8), 4000, 3000, 1, [800, 400, 1600, 1200], 1024, 768))?.length).toBe(1024 * 768 * 4);
    expect(seen).toEqual([expect.objectContaining({ desiredWidth: 3000, desiredHeight: 2250 })]);
    expect(draws).toEqual([[600, 300, 1200, 900, 0, 0, 1024, 768]]);
  });

  it('gives way when the decoder throws (a file the browser cannot read)', async () => {
    vi.stubGlobal('OffscreenCanvas', class {});
    vi.stubGlobal('ImageDecoder', class {
      static isTypeSupported = async () => true;
      async decode() { throw new Error('EncodingError'); }
      close() {}
    });
    expect(await decodeJpegScaled(new Uint8Array(8), 4000, 3000, 1, [0, 0, 4000, 3000], 1024, 768)).toBeNull();
  });
});
