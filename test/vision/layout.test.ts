import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CONFIG } from '../../src/vision/config.ts';
import { type LayoutInput, layoutTiles, rowAngle, tileAngles } from '../../src/vision/layout.ts';
import type { Box } from '../../src/vision/types.ts';

const W = 30, H = 40;
function row(y: number, xs: number[], extra: Partial<LayoutInput>[] = []): LayoutInput[] {
  return xs.map((x, i) => ({ box: [x, y, W, H] as Box, code: '1m', ...(extra[i] ?? {}) }));
}

describe('layoutTiles', () => {
  it('sorts two rows into reading order regardless of input order', () => {
    const tiles = [...row(100, [0, 31, 62, 93]), ...row(0, [0, 31, 62])];
    const shuffled = [tiles[5], tiles[0], tiles[3], tiles[6], tiles[1], tiles[4], tiles[2]];
    const l = layoutTiles(shuffled);
    const ordered = l.order.map((i) => shuffled[i].box);
    expect(ordered.map((b) => [b[0], b[1]])).toEqual([[0, 0], [31, 0], [62, 0], [0, 100], [31, 100], [62, 100], [93, 100]]);
    expect(l.order.map((i) => l.row[i])).toEqual([0, 0, 0, 1, 1, 1, 1]);
  });

  it('splits groups at gaps and marks melds with sideways tiles', () => {
    const tiles: LayoutInput[] = [
      ...row(0, [0, 31, 62]),
      ...row(0, [120, 151, 182]),
      { box: [213, 10, H, W], sideways: true, code: '5p' },
    ];
    const l = layoutTiles(tiles);
    expect(l.groups).toHaveLength(2);
    expect(l.groups[0].tiles).toEqual([0, 1, 2]);
    expect(l.groups[1].tiles).toEqual([3, 4, 5, 6]);
    expect(l.groups[1].kind).toBe('meld');
    expect(l.groups[0].kind).toBe('tiles');
  });

  it('recognises a concealed kong and flowers', () => {
    const tiles: LayoutInput[] = [
      ...row(0, [0, 31, 62, 93], [{ code: 'back' }, { code: '3s' }, { code: '3s' }, { code: 'back' }]),
      ...row(0, [160, 191], [{ code: 'f1' }, { code: 'f6' }]),
    ];
    const l = layoutTiles(tiles);
    expect(l.groups.map((g) => g.kind)).toEqual(['concealed-kong', 'flowers']);
  });

  it('handles tilted rows', () => {
    const a = (20 * Math.PI) / 180;
    const tiles: LayoutInput[] = [0, 1, 2, 3, 4].map((k) => ({ box: [k * 31 * Math.cos(a), k * 31 * Math.sin(a), W, H] as Box }));
    const l = layoutTiles([...tiles].reverse());
    expect(l.row.every((r) => r === 0)).toBe(true);
    expect(l.order).toEqual([4, 3, 2, 1, 0]);
    expect(rowAngle(tiles.map((t) => [t.box[0], t.box[1]]))).toBeCloseTo(a, 3);
  });

  it('returns empty for no tiles', () => {
    expect(layoutTiles([]).order).toEqual([]);
  });
});

describe('tileAngles', () => {
  const at = (deg: number, k: number, step = 50, x0 = 500, y0 = 400): Box => {
    const a = (deg * Math.PI) / 180;
    return [x0 + k * step * Math.cos(a) - W / 2, y0 + k * step * Math.sin(a) - H / 2, W, H];
  };
  it('gives every tile of a turned row the row\'s angle, either way round', () => {
    for (const deg of [-38, -25, -8, 0, 12, 25, 40]) {
      const boxes = [0, 1, 2, 3, 4, 5].map((k) => at(deg, k));
      for (const a of tileAngles(boxes)) expect(a).toBeCloseTo(deg, 6);
      for (const a of tileAngles([...boxes].reverse())) expect(a).toBeCloseTo(deg, 6);
    }
  });
  it('folds angles modulo 90 degrees: a row running down the photo, and a grid, are not turned', () => {
    const column = [0, 1, 2, 3].map((k) => at(90, k));
    for (const a of tileAngles(column)) expect(Math.abs(a)).toBeLessThan(1e-9);
    const grid: Box[] = [];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) grid.push([c * 31, r * 41, W, H]);
    for (const a of tileAngles(grid)) expect(Math.abs(a)).toBeLessThan(1e-9);
    // a row turned 70 degrees is a row turned -20 degrees seen from its side
    for (const a of tileAngles([0, 1, 2].map((k) => at(70, k)))) expect(a).toBeCloseTo(-20, 6);
  });
  it('gives 0 to a tile with no neighbour within reach, and takes only the two nearest', () => {
    const far = CONFIG.layout.angleNeighbourReach * H + 5;
    const boxes: Box[] = [at(25, 0), at(25, 1), [1000, 50, W, H], [1000 + far, 50 + far, W, H]];
    const a = tileAngles(boxes);
    expect(a[0]).toBeCloseTo(25, 6);
    expect(a[2]).toBe(0);
    expect(a[3]).toBe(0);
    expect(tileAngles([[0, 0, W, H]])).toEqual([0]);
    expect(tileAngles([])).toEqual([]);
  });
  it('always lies in (-45, 45]', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 })), { minLength: 1, maxLength: 12 }), (xy) => {
      for (const a of tileAngles(xy.map(([x, y]) => [x, y, W, H] as Box))) {
        expect(a).toBeGreaterThan(-45);
        expect(a).toBeLessThanOrEqual(45);
      }
    }));
  });
});
