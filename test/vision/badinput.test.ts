import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { decodeNode } from '../../src/vision/decode-node.ts';
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
