import { describe, expect, it } from 'vitest';
import { defaultContext, parseHand, scoreMcr, type WinContext } from '../../src/engine/index.ts';

const score = (hand: string, ctx: Partial<WinContext> = {}) => scoreMcr(parseHand(hand), defaultContext(ctx));

describe('bad input gets a typed error, never a throw or a guess', () => {
  it('a fifth copy of a tile', () => {
    const r = score('[9999s]7m5779s3pSNCF9s');
    expect(r.validWin).toBe(false);
    expect(r.error?.code).toBe('TOO_MANY_COPIES');
    expect(r.error?.message).toContain('9s');
  });
  it('a wrong tile count', () => {
    const r = score('123m456p789s11z2z');
    expect(r.error?.code).toBe('WRONG_TILE_COUNT');
    expect(r.error?.message).toMatch(/needs 14 tile\(s\).*has 12/);
  });
  it('more than four melds', () => {
    const r = scoreMcr({ melds: Array(5).fill({ kind: 'pung', tile: 0, concealed: false }), concealed: [], winningTile: 1 }, defaultContext());
    expect(r.error?.code).toBe('TOO_MANY_MELDS');
  });
  it('a chow of honours given as data', () => {
    const r = scoreMcr({ melds: [{ kind: 'chow', tile: 27, concealed: false }], concealed: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], winningTile: 9 }, defaultContext());
    expect(r.error?.code).toBe('HONOR_CHOW');
  });
  it('robbing the kong on a self-drawn win', () => {
    const r = score('123m456p789s11z22z2z', { selfDrawn: true, robbingKong: true });
    expect(r.error?.code).toBe('CONTRADICTORY_CONDITIONS');
    expect(r.error?.message).toMatch(/robbing the kong/);
  });
  it('the last tile of its kind while the winner holds other copies concealed', () => {
    // the other three 1m are the winner's own concealed pung: none of them is in sight
    const pung = score('[456p1]EEE111m23m99s1m', { discarder: 'N', lastOfKind: true });
    expect(pung.error?.code).toBe('CONTRADICTORY_CONDITIONS');
    expect(pung.error?.message).toMatch(/other three 1m must be in sight.*hold 3/);
    expect(score('[123m1][456p1][789s1]99sEE9s', { discarder: 'N', lastOfKind: true }).error?.code).toBe('CONTRADICTORY_CONDITIONS');
    // copies in the winner's melded sets are in sight: Last Tile scores
    const melded = score('[123m1][456p1][999s1]EE78s9s', { discarder: 'N', lastOfKind: true });
    expect(melded.error).toBeNull();
    expect(melded.fans.some((f) => f.names.en === 'Last Tile')).toBe(true);
  });
  it('a replacement tile on a discard', () => {
    const r = score('[1111m]456p789s11z22z2z', { replacementTile: true });
    expect(r.error?.code).toBe('CONTRADICTORY_CONDITIONS');
    expect(r.error?.message).toMatch(/replacement tile/);
  });
  it('a replacement tile without any kong', () => {
    const r = score('123m456p789s11z22z2z', { replacementTile: true, selfDrawn: true });
    expect(r.error?.code).toBe('CONTRADICTORY_CONDITIONS');
  });
  it('the winner named as discarder', () => {
    const r = score('123m456p789s11z22z2z', { seatWind: 'S', discarder: 'S' });
    expect(r.error?.code).toBe('CONTRADICTORY_CONDITIONS');
  });
  it('flowers out of range', () => {
    expect(score('123m456p789s11z22z2z', { flowers: 9 }).error?.code).toBe('INVALID_CONTEXT');
  });
  it('not a winning hand', () => {
    const r = score('123m456p789s1z2z3z4z5z');
    expect(r.error?.code).toBe('NOT_WIN');
  });
  it('below the 8-point minimum: the fans are still shown, flowers do not count toward it', () => {
    const r = score('[123p1][345s2][999s3]78mEE6m', { flowers: 8, discarder: 'N' });
    expect(r.validWin).toBe(false);
    expect(r.error?.code).toBe('BELOW_MINIMUM');
    expect(r.totalWithoutFlowers).toBe(1);
    expect(r.total).toBe(9);
    expect(r.payments).toBeNull();
  });
});
