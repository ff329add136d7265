import { describe, expect, it } from 'vitest';
import { formatHand, handFromTiles, scoreTiles, type RecognisedTile } from '../../src/engine/index.ts';

const row = (codes: string, group?: number, sidewaysAt = -1): RecognisedTile[] =>
  codes.split(' ').map((code, i) => ({ code, ...(group !== undefined ? { group } : {}), ...(i === sidewaysAt ? { sideways: true } : {}) }));

describe('recognised tiles to a hand', () => {
  it('reads melded sets from groups with a sideways tile, a concealed kong from two face-down tiles, flowers apart', () => {
    const tiles = [
      ...row('1p 2p 3p', 1, 0),
      ...row('back 9s 9s back', 2),
      ...row('f1 f5'),
      ...row('7m 8m 1z 1z 6m'),
    ];
    const hand = handFromTiles(tiles);
    expect(formatHand(hand)).toBe('[123p][9999s]78mEE6m15f');
    const { result } = scoreTiles([], { tiles: [...tiles.slice(0, 7), ...row('4p 5p 6p'), ...tiles.slice(7)] });
    // [123p] [9999s] 456p 678m EE: a complete hand; the kong scores, the two flowers count.
    expect(result.error?.code).toBe('BELOW_MINIMUM');
    expect(result.fans.map((f) => f.id)).toContain(67);
    expect(result.total - result.totalWithoutFlowers).toBe(2);
  });
  it('scores a fully concealed hand with the last tile as the winning tile', () => {
    const { hand, result } = scoreTiles('1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 5m'.split(' '), { ctx: { selfDrawn: true } });
    expect(hand.winningTile).toBe(4);
    expect(result.validWin).toBe(true);
    expect(result.fans.map((f) => f.id)).toContain(4); // Nine Gates
  });
  it('a chosen winning tile is taken out of the concealed tiles', () => {
    const hand = handFromTiles(row('1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 5m'), { winningTile: '1m' });
    expect(hand.winningTile).toBe(0);
    expect(hand.concealed.filter((t) => t === 0)).toHaveLength(2);
  });
  it('face-down tiles that are not a concealed kong are a clear error, not a guess', () => {
    expect(() => handFromTiles(row('back 1m 2m 3m'))).toThrowError(expect.objectContaining({ code: 'INVALID_MELD' }));
    expect(() => handFromTiles(row('xx'))).toThrowError(expect.objectContaining({ code: 'MALFORMED_NOTATION' }));
  });
});
