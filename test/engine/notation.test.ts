import { describe, expect, it } from 'vitest';
import { formatHand, formatMpsz, MahjongError, parseHand, parseWaitingHand, tileId } from '../../src/engine/index.ts';

const t = (c: string) => tileId(c)!;

describe('notation: ChineseOfficialMahjongHelper form', () => {
  it('reads melds with claim digits, concealed tiles and the winning tile (README example)', () => {
    const h = parseHand('[123p1][345s2][999s3]78mEE6m');
    expect(h.melds).toEqual([
      { kind: 'chow', tile: t('1p'), concealed: false, claimedFrom: 'left', claimedIndex: 0 },
      { kind: 'chow', tile: t('3s'), concealed: false, claimedFrom: 'left', claimedIndex: 1 },
      { kind: 'pung', tile: t('9s'), concealed: false, claimedFrom: 'right' },
    ]);
    expect(h.concealed).toEqual([t('7m'), t('8m'), t('1z'), t('1z')]);
    expect(h.winningTile).toBe(t('6m'));
  });
  it('reads concealed, melded and promoted kongs', () => {
    const h = parseHand('[1111m][2222p2][3333s5]EEEN');
    expect(h.melds).toEqual([
      { kind: 'kong', tile: t('1m'), concealed: true },
      { kind: 'kong', tile: t('2p'), concealed: false, claimedFrom: 'opposite' },
      { kind: 'kong', tile: t('3s'), concealed: false, promoted: true, claimedFrom: 'left' },
    ]);
    expect(h.winningTile).toBe(t('4z'));
  });
  it('honour letters: C Red, F Green, P White (Tenhou 7z 6z 5z)', () => {
    const h = parseHand('CFP');
    expect([...h.concealed, h.winningTile]).toEqual([t('7z'), t('6z'), t('5z')]);
  });
});

describe('notation: MPSZ form', () => {
  it('reads 123m456p789s1122z with Tenhou honour order', () => {
    const h = parseWaitingHand('123m456p789s1122z');
    expect(h.concealed.length).toBe(13);
    expect(h.concealed.slice(9)).toEqual([t('1z'), t('1z'), t('2z'), t('2z')]);
  });
  it('formats and re-parses the same hand', () => {
    const h = parseHand('[555z1]123m456p78s99s9s');
    expect(formatMpsz(h)).toBe('[555z1]123m456p7899s9s');
    expect(parseHand(formatMpsz(h))).toEqual(h);
    expect(formatHand(h)).toBe('[PPP1]123m456p7899s9s');
    expect(parseHand(formatHand(h))).toEqual(h);
  });
  it('reads flowers as digits + f', () => {
    const h = parseHand('123m456p789s1122z13f2z');
    expect(h.flowers).toEqual([34, 36]);
    expect(h.winningTile).toBe(t('2z'));
  });
});

describe('notation errors name the problem and its position', () => {
  const cases: [string, string, number][] = [
    ['123x', 'unexpected character "x"', 3],
    ['123', 'have no suit letter', 0],
    ['[123m', 'never closed', 0],
    ['0m', '"0m" is not a tile', 0],
    ['8z', '"8z" is not a tile', 0],
    ['12m]3m', '"]" without "["', 3],
    ['m', 'has no digits before it', 0],
    ['[123m4]1m', 'claim digit must be 1-3', 5],
  ];
  it.each(cases)('%s', (input, message, position) => {
    let err: unknown;
    try { parseHand(input); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(MahjongError);
    const m = err as MahjongError;
    expect(m.code).toBe('MALFORMED_NOTATION');
    expect(m.message).toContain(message);
    expect(m.position).toBe(position);
  });
  it('a chow of honours is its own error', () => {
    expect(() => parseHand('[ESW]1m')).toThrowError(expect.objectContaining({ code: 'HONOR_CHOW' }));
    expect(() => parseHand('[123z]1m')).toThrowError(expect.objectContaining({ code: 'HONOR_CHOW' }));
  });
  it('a broken declared set is an invalid meld', () => {
    expect(() => parseHand('[135m]1m')).toThrowError(expect.objectContaining({ code: 'INVALID_MELD' }));
    expect(() => parseHand('[89m1p]1m')).toThrowError(expect.objectContaining({ code: 'INVALID_MELD' }));
  });
  it('an empty hand is malformed', () => {
    expect(() => parseHand('')).toThrowError(expect.objectContaining({ code: 'MALFORMED_NOTATION' }));
  });
});
