/** eval:vision --real: real photographs in YOLO format (issue 68), on a tiny fixture of our own scenes. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeOfClass, commonCodes, loadRealSet, parseYoloNames, RealSetError, rowCount, stretchOf } from '../../scripts/eval/real.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = join(root, 'test/fixtures/real-yolo');

describe('real photographs in YOLO format', () => {
  it('reads the class names of data.yaml as a flow list or a block list', () => {
    expect(parseYoloNames("nc: 3\nnames: ['bs1', 'sc1', \"hwn\"]\n")).toEqual(['bs1', 'sc1', 'hwn']);
    expect(parseYoloNames('names:\n  - sd1\n  - hdw\nnc: 2\n')).toEqual(['sd1', 'hdw']);
    expect(parseYoloNames('names:\n  0: sb9\n  1: bf4\n')).toEqual(['sb9', 'bf4']);
    expect(() => parseYoloNames('nc: 3\n')).toThrow(RealSetError);
  });

  it('maps the export\'s classes to tile codes (seasons bs1..4 are f5..f8), and names an unknown class', () => {
    expect(['sc1', 'sd9', 'sb5', 'hwe', 'hwn', 'hdw', 'hdg', 'hdr', 'bf1', 'bf4', 'bs1', 'bs4', '7z'].map(codeOfClass))
      .toEqual(['1m', '9p', '5s', '1z', '4z', '5z', '6z', '7z', 'f1', 'f4', 'f5', 'f8', '7z']);
    expect(() => codeOfClass('dragon')).toThrow(/unknown class name "dragon"/);
  });

  it('finds the stretch that brings boxes back to a tile\'s 4:3, standing or lying, and leaves a near one alone', () => {
    // tiles 30x40 standing and 40x30 lying, photo squeezed to 3/4 of its width
    const boxes = [{ w: 22.5, h: 40 }, { w: 22.5, h: 40 }, { w: 30, h: 30 }, { w: 22.5, h: 40 }];
    expect(stretchOf(boxes)).toBe(4 / 3);
    // a 16:9 photo squeezed to a square
    expect(stretchOf([{ w: 16.9, h: 40 }, { w: 16.9, h: 40 }, { w: 16.9, h: 40 }])).toBe(16 / 9);
    expect(stretchOf([{ w: 30, h: 40 }, { w: 31, h: 40 }, { w: 29, h: 41 }])).toBe(1);
    expect(rowCount([[0, 0, 30, 40], [30, 2, 30, 40], [0, 60, 30, 40]])).toBe(2);
  });

  it('loads the fixture: a stretched photo is read at its own shape, boxes in its pixels', async () => {
    const set = await loadRealSet(fixture);
    expect(set.map((p) => p.name)).toEqual(['holdout-0.jpg', 'holdout-1.jpg']);
    const [a, b] = set;
    expect(a).toMatchObject({ width: 800, height: 450, stretch: 1 });
    expect(a.tiles).toHaveLength(18);
    // holdout-1 was 800x600, stored stretched to 640x640: read back at 4:3
    expect(b.width / b.height).toBeCloseTo(4 / 3, 1);
    expect(b.tiles.map((t) => t.code).slice(0, 5)).toEqual(['9p', '9p', '9p', '9p', '2s']);
    // a hand is 8-20 tiles in one or two rows: holdout-0 lies in one row, holdout-1 in three
    expect(a.hand).toBe(true);
    expect(b.hand).toBe(false);
    const asStored = await loadRealSet(fixture, { unsquash: false });
    expect(asStored[1]).toMatchObject({ width: 640, height: 640, stretch: 1 });
  });

  it('gives a typed error naming a missing folder, a bad label line and an unknown class', async () => {
    await expect(loadRealSet(join(root, 'no-such-folder'))).rejects.toThrow(/must hold images\/ and labels\//);
    const dir = mkdtempSync(join(tmpdir(), 'real-'));
    mkdirSync(join(dir, 'images'));
    mkdirSync(join(dir, 'labels'));
    copyFileSync(join(fixture, 'images', 'holdout-0.jpg'), join(dir, 'images', 'a.jpg'));
    writeFileSync(join(dir, 'data.yaml'), "names: ['sc1', 'dragon']\n");
    writeFileSync(join(dir, 'labels', 'a.txt'), '0 0.5 0.5 0.1\n');
    await expect(loadRealSet(dir)).rejects.toThrow(/a\.txt line 1: expected "class cx cy w h"/);
    writeFileSync(join(dir, 'labels', 'a.txt'), '1 0.5 0.5 0.1 0.1\n');
    await expect(loadRealSet(dir)).rejects.toThrow(/unknown class name "dragon"/);
  });

  it('eval:vision --real prints recall, tile F1, per-class figures, hand exact and the time per photo', () => {
    const r = spawnSync('npx', ['tsx', 'scripts/eval/vision.ts', '--real', 'test/fixtures/real-yolo', '--json', '--confusion', join(mkdtempSync(join(tmpdir(), 'real-conf-')), 'c.png')], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(out.recall).toBeGreaterThanOrEqual(0.9);
    expect(out.tile_f1).toBeGreaterThanOrEqual(0.85);
    expect(out.hand_photos).toBeGreaterThanOrEqual(1);
    expect(out.hands_exact).toBeLessThanOrEqual(out.hand_photos);
    expect(out.codes_f1).toBeGreaterThanOrEqual(out.tile_f1);
    expect(out.hands_exact_codes).toBeGreaterThanOrEqual(out.hands_exact);
    expect(out.hands_exact_codes).toBeLessThanOrEqual(out.hand_photos);
    expect(out.median_ms).toBeGreaterThan(0);
    expect(out.p95_ms).toBeGreaterThanOrEqual(out.median_ms);
    expect(out.per_class['9p']).toMatchObject({ n: 4 });
    expect(Object.values(out.per_class as Record<string, { n: number }>).reduce((s, c) => s + c.n, 0)).toBe(34);
    expect(r.stderr).toMatch(/tile F1/);
  }, 120_000);
});

describe('commonCodes (the box-free figures of --real)', () => {
  it('counts the read codes that pair with a labelled code, each label once', () => {
    expect(commonCodes(['1m', '1m', '5z', 'f1'], ['1m', '5z', '5z', 'f2'])).toBe(2);
    expect(commonCodes(['1m', '2m'], ['2m', '1m'])).toBe(2);
    expect(commonCodes(['1m'], [])).toBe(0);
    expect(commonCodes([], ['1m'])).toBe(0);
  });
});
