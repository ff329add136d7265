import { describe, expect, it } from 'vitest';
import { defaultContext, mcrPayments, parseHand, scoreMcr } from '../../src/engine/index.ts';

describe('payments (rules 004 and 001)', () => {
  it('self-drawn: each of the three pays 8 + X', () => {
    expect(mcrPayments(10, { seatWind: 'N', selfDrawn: true })).toEqual({ E: -18, S: -18, W: -18, N: 54 });
  });
  it('discard: the discarder pays 8 + X, the other two pay 8', () => {
    expect(mcrPayments(22, { seatWind: 'E', selfDrawn: false, discarder: 'N' })).toEqual({ E: 46, S: -8, W: -8, N: -30 });
  });
  it('a discard win without a named discarder has no payments rather than a guess', () => {
    expect(mcrPayments(22, { seatWind: 'E', selfDrawn: false, discarder: null })).toBeNull();
  });
  it('the scorer pays out the total including flowers', () => {
    // Big Three Dragons (88) + flowers 2 = 90, self-drawn by South.
    const r = scoreMcr(parseHand('[CCC1][FFF1][PPP1]123m9m9m'), defaultContext({ seatWind: 'S', selfDrawn: true, flowers: 2 }));
    expect(r.validWin).toBe(true);
    const total = r.total;
    expect(r.payments).toEqual({ E: -(8 + total), S: 3 * (8 + total), W: -(8 + total), N: -(8 + total) });
  });
});
