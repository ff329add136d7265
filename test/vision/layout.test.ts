import { describe, expect, it } from 'vitest';
import { layoutTiles, rowAngle, type LayoutInput } from '../../src/vision/layout.ts';
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
