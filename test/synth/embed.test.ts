import { describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { borderColour, embedSet, parseEmbedArgs } from '../../scripts/synth/embed.ts';

describe('embed.ts (sharp far-off photos from a scene set)', () => {
  it('pastes each scene at its own resolution into a larger frame and moves its labels', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'embed-'));
    const from = path.join(dir, 'src'), out = path.join(dir, 'out');
    await mkdir(path.join(from, 'images'), { recursive: true });
    await mkdir(path.join(from, 'labels'), { recursive: true });
    // a 100x80 green scene with one white 20x30 tile at (40, 25)
    await sharp({ create: { width: 100, height: 80, channels: 3, background: { r: 30, g: 140, b: 60 } } })
      .composite([{ input: { create: { width: 20, height: 30, channels: 3, background: { r: 255, g: 255, b: 255 } } }, left: 40, top: 25 }])
      .jpeg({ quality: 95 }).toFile(path.join(from, 'images', '000000.jpg'));
    await writeFile(path.join(from, 'labels', '000000.json'), JSON.stringify({ width: 100, height: 80, tiles: [{ code: '5z', box: [40, 25, 20, 30], quad: [[40, 25], [60, 25], [60, 55], [40, 55]] }] }));
    expect(await embedSet({ from, out, scale: 3, seed: 1, limit: 0 })).toBe(1);
    const label = JSON.parse(await readFile(path.join(out, 'labels', '000000.json'), 'utf8'));
    expect([label.width, label.height]).toEqual([300, 240]);
    const [x, y, w, h] = label.tiles[0].box;
    expect([w, h]).toEqual([20, 30]);
    expect(label.tiles[0].quad[0]).toEqual([x, y]);
    const { data, info } = await sharp(path.join(out, 'images', '000000.jpg')).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([300, 240]);
    const px = (px: number, py: number) => [...data.subarray((py * info.width + px) * 3, (py * info.width + px) * 3 + 3)];
    // the tile is white where the label says; the frame round the scene is the scene's border colour
    expect(Math.min(...px(x + 10, y + 15))).toBeGreaterThan(230);
    const corner = x > 150 ? px(2, 2) : px(297, 237);
    expect(Math.abs(corner[1]! - 140)).toBeLessThan(12);
    const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.embed.scale).toBe(3);
  });

  it('names bad arguments', () => {
    expect(() => parseEmbedArgs(['--from', 'a'])).toThrow(/--from and --out are required/);
    expect(() => parseEmbedArgs(['--from', 'a', '--out', 'b', '--scale', '0.5'])).toThrow(/--scale must be in 1..8/);
    expect(() => parseEmbedArgs(['--from', 'a', '--out', 'b', '--limit', '-1'])).toThrow(/--limit/);
    expect(() => parseEmbedArgs(['--from', 'a', '--out', 'b', '--zoom', '2'])).toThrow(/unknown option --zoom/);
    expect(() => parseEmbedArgs(['--from'])).toThrow(/--from needs a value/);
  });

  it('takes the mean colour of the outermost pixels', () => {
    const data = new Uint8Array(3 * 3 * 3).fill(10);
    data.set([250, 250, 250], (1 * 3 + 1) * 3); // the centre does not count
    expect(borderColour(data, 3, 3, 3)).toEqual([10, 10, 10]);
  });
});
