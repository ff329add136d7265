import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { colourOf, decodeNode, iccDescription, isSrgbProfile } from '../../src/vision/decode-node.ts';
import { inspectImage } from '../../src/vision/sniff.ts';
import { VisionError } from '../../src/vision/types.ts';

const fixture = new Uint8Array(readFileSync(new URL('../fixtures/scenes/holdout-0.jpg', import.meta.url)));

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    expect(e).toBeInstanceOf(VisionError);
    return (e as VisionError).code;
  }
}

function pngChunk(type: string, data: number[]): number[] {
  const len = data.length;
  return [len >>> 24, (len >>> 16) & 255, (len >>> 8) & 255, len & 255, ...[...type].map((c) => c.charCodeAt(0)), ...data, 0, 0, 0, 0];
}

describe('EXIF orientation', () => {
  it('decodes in display orientation and reports the rotated size', async () => {
    const oriented = await sharp(fixture).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const meta = await sharp(fixture).metadata();
    const d = await decodeNode(new Uint8Array(oriented));
    expect([d.originalWidth, d.originalHeight]).toEqual([meta.height, meta.width]);
    expect(d.image.height).toBeGreaterThan(d.image.width);
  });
});

describe('colour profiles', () => {
  // a colourful photo, so that a colour transform shows
  const colourful = () => sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 30, g: 160, b: 90 } } })
    .composite([
      { input: { create: { width: 500, height: 500, channels: 3, background: { r: 220, g: 30, b: 40 } } }, left: 100, top: 100 },
      { input: { create: { width: 500, height: 500, channels: 3, background: { r: 40, g: 60, b: 230 } } }, left: 900, top: 500 },
    ]).png().toBuffer();
  const tagged = async (profile: string) => new Uint8Array(await sharp(await colourful()).withMetadata({ orientation: 6 }).withIccProfile(profile).jpeg({ quality: 95 }).toBuffer());
  // what libvips gives when it converts the whole photo to sRGB while loading
  const converted = async (bytes: Uint8Array) => sharp(bytes).rotate().resize({ width: 1024, height: 1024, fit: 'inside', withoutEnlargement: true }).removeAlpha().toColourspace('srgb').raw().toBuffer();
  const profileOf = async (bytes: Uint8Array) => new Uint8Array((await sharp(bytes).metadata()).icc!);

  it('reads the description of v2 and v4 profiles, and nothing from bytes that are not one', async () => {
    const srgb = await profileOf(await tagged('srgb')), p3 = await profileOf(await tagged('p3'));
    expect(iccDescription(srgb)).toBe('sRGB');
    expect(isSrgbProfile(srgb)).toBe(true);
    expect(iccDescription(p3)).toMatch(/P3/);
    expect(isSrgbProfile(p3)).toBe(false);
    expect(iccDescription(new Uint8Array(0))).toBeUndefined();
    expect(iccDescription(srgb.slice(0, 140))).toBeUndefined();
    expect(isSrgbProfile(new Uint8Array(300).fill(7))).toBe(false);
  });

  it('chooses how the colours become sRGB from the colour space and the profile', async () => {
    expect(colourOf({ space: 'srgb' })).toBe('as-is');
    expect(colourOf({ space: 'srgb', icc: await profileOf(await tagged('srgb')) })).toBe('as-is');
    expect(colourOf({ space: 'srgb', icc: await profileOf(await tagged('p3')) })).toBe('after');
    expect(colourOf({ space: 'cmyk' })).toBe('convert');
    expect(colourOf({ space: 'b-w' })).toBe('convert');
  });

  it('reads an sRGB-tagged photo exactly as the converting decode does', async () => {
    const bytes = await tagged('srgb');
    const d = await decodeNode(bytes);
    expect([d.image.width, d.image.height]).toEqual([768, 1024]);
    expect(Buffer.from(d.image.data).equals(await converted(bytes))).toBe(true);
  });

  it('turns a Display P3 photo into sRGB (as converting the whole photo while loading does, but at the edges)', async () => {
    const bytes = await tagged('p3');
    const d = await decodeNode(bytes);
    const want = await converted(bytes);
    expect([d.image.width, d.image.height]).toEqual([768, 1024]);
    let sum = 0, off = 0;
    for (let i = 0; i < want.length; i++) {
      const e = Math.abs(want[i]! - d.image.data[i]!);
      sum += e;
      if (e > 2) off++;
    }
    expect(sum / want.length).toBeLessThan(0.1);
    // only at the squares' edges, where the transform before or after the shrink differs
    expect(off / want.length).toBeLessThan(0.01);
    // and the colours did change: read as sRGB without its profile, the red square is another red
    const raw = await sharp(bytes, { ignoreIcc: true }).rotate().resize({ width: 1024, height: 1024, fit: 'inside' }).removeAlpha().raw().toBuffer();
    let moved = 0;
    for (let i = 0; i < want.length; i++) moved = Math.max(moved, Math.abs(raw[i]! - want[i]!));
    expect(moved).toBeGreaterThan(8);
  });
});

describe('decoding a region again at full resolution (DecodedPhoto.detail)', () => {
  it('cuts the region from the EXIF-rotated photo, at up to the size asked, never enlarged', async () => {
    // displayed 2000x3000 (stored 3000x2000, orientation 6), grey, with a red square at (1500, 300)
    const shown = await sharp({ create: { width: 2000, height: 3000, channels: 3, background: { r: 128, g: 128, b: 128 } } })
      .composite([{ input: { create: { width: 200, height: 200, channels: 3, background: { r: 220, g: 0, b: 0 } } }, left: 1500, top: 300 }])
      .png().toBuffer();
    const stored = await sharp(shown).rotate(-90).jpeg({ quality: 95 }).toBuffer();
    const bytes = new Uint8Array(await sharp(stored).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer());
    const d = await decodeNode(bytes);
    expect([d.originalWidth, d.originalHeight]).toEqual([2000, 3000]);
    expect(Math.max(d.image.width, d.image.height)).toBe(1024);
    const px = (img: { width: number; data: ArrayLike<number>; channels: number }, x: number, y: number) => {
      const o = (y * img.width + x) * img.channels;
      return [img.data[o]!, img.data[o + 1]!, img.data[o + 2]!];
    };
    const region = await d.detail!([1400, 200, 400, 400], 1024);
    expect([region.width, region.height]).toEqual([400, 400]);
    const red = px(region, 200, 200), grey = px(region, 50, 50);
    expect(red[0]).toBeGreaterThan(180);
    expect(red[1]).toBeLessThan(60);
    expect(Math.abs(grey[0]! - 128)).toBeLessThan(20);
    const small = await d.detail!([1400, 200, 400, 400], 100);
    expect([small.width, small.height]).toEqual([100, 100]);
    expect(px(small, 50, 50)[0]).toBeGreaterThan(180);
    // a region partly outside the photo is cut at its edge
    const edge = await d.detail!([1900, 2900, 300, 300], 1024);
    expect([edge.width, edge.height]).toEqual([100, 100]);
  });

  it('gives a typed error when the bytes no longer decode', async () => {
    const bytes = new Uint8Array(fixture);
    const d = await decodeNode(bytes);
    bytes.fill(0, 0, 64);
    expect(await codeOf(d.detail!([0, 0, 100, 100], 512))).not.toBe('ok');
  });
});

describe('bad input', () => {
  it('0-byte file', async () => {
    expect(await codeOf(decodeNode(new Uint8Array(0)))).toBe('empty-file');
  });
  it('text file', async () => {
    expect(await codeOf(decodeNode(new TextEncoder().encode('hello, this is not a photo\n')))).toBe('not-an-image');
  });
  it('truncated JPEG', async () => {
    expect(await codeOf(decodeNode(fixture.slice(0, Math.floor(fixture.length * 0.6))))).toBe('truncated');
    expect(await codeOf(decodeNode(fixture.slice(0, 200)))).toBe('truncated');
  });
  it('PNG with alpha is flattened, with a note', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const d = await decodeNode(new Uint8Array(png));
    expect(d.image.channels).toBe(3);
    expect(d.image.data[0]).toBe(255); // transparent -> white
    expect(d.notes.join(' ')).toMatch(/flattened/);
  });
  it('refuses a photo above 400 MP from its header without decoding', () => {
    const ihdr = [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30, 8, 2, 0, 0, 0]; // 30000 x 30000 RGB
    const b = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...pngChunk('IHDR', ihdr), ...pngChunk('IEND', [])]);
    expect(() => inspectImage(b)).toThrow(/refused/);
  });
  it('downscales a > 100 MP photo while decoding, memory bounded', async () => {
    const big = await sharp({ create: { width: 10240, height: 10240, channels: 3, background: { r: 40, g: 120, b: 60 } } }).jpeg({ quality: 50 }).toBuffer();
    const before = process.memoryUsage().rss;
    const d = await decodeNode(new Uint8Array(big));
    const grew = process.memoryUsage().rss - before;
    expect(Math.max(d.image.width, d.image.height)).toBeLessThanOrEqual(1024);
    expect([d.originalWidth, d.originalHeight]).toEqual([10240, 10240]);
    expect(d.notes.join(' ')).toMatch(/100 MP/);
    expect(grew).toBeLessThan(250e6); // a full RGB decode would be 315 MB
  });
});
