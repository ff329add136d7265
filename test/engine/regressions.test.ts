/**
 * Named regressions for the MCR scorer: hands that were scored wrongly once, or that are
 * easy to get wrong. Same shape as test/engine/fans.test.ts; each case cites its rule.
 * Add a case here whenever a scoring bug is fixed.
 */
import { describe, expect, it } from 'vitest';
import { defaultContext, parseHand, scoreMcr, type WinContext } from '../../src/engine/index.ts';

interface Case {
  name: string;
  hand: string;
  ctx: WinContext;
  /** The complete fan list, each id repeated by its count. */
  fans: number[];
  total: number;
}

const ctx = (over: Partial<WinContext> = {}): WinContext =>
  defaultContext({ seatWind: 'S', prevalentWind: 'E', ...over });

const CASES: Case[] = [
  {
    // 004 account-once ("Wyłączności": once sets are combined for a fan, each remaining set may be
    // combined with them only once). Four chows 123m 123m 123p 123p: Pure Double Chow twice (69 x2),
    // then the two pairs combine only once more: Mixed Double Chow once (70), not four times.
    // Melded Hand (52) removes Single Wait (000/004 #53=52); All Chows (63) removes No Honours (003).
    name: 'account-once: two pure double chows and one mixed double chow',
    hand: '[123m1][123m1][123p1][123p1]5s5s', ctx: ctx(),
    fans: [52, 63, 69, 69, 70], total: 11,
  },
];

describe('MCR regressions', () => {
  it.each(CASES.map((c) => [c.name, c]))('%s', (_name, c) => {
    const r = scoreMcr(parseHand(c.hand), c.ctx);
    expect(r.validWin).toBe(true);
    const counted = r.fans.flatMap((f) => Array<number>(f.count).fill(f.id)).sort((a, b) => a - b);
    expect(counted).toEqual([...c.fans].sort((a, b) => a - b));
    expect(r.total).toBe(c.total);
  });
});
