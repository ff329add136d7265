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

/**
 * "Considered but not counted" must name the rule that removed each fan the hand shows
 * (issue 2: every fan considered but not counted, with the rule that removed it).
 */
interface NotCountedCase { name: string; hand: string; ctx: WinContext; total: number; notCounted: { id: number; kind: string; by?: number }[] }

const NOT_COUNTED: NotCountedCase[] = [
  {
    // 003 Three Kongs "Får ej poäng för: Melded Kong, Two Melded Kongs".
    name: 'Three Kongs lists Two Melded Kongs and Melded Kong as excluded',
    hand: '[2222m1][5555p2][7777s3]345s8m8m', ctx: ctx({ discarder: 'W' }), total: 35,
    notCounted: [{ id: 57, kind: 'excluded', by: 17 }, { id: 74, kind: 'excluded', by: 17 }],
  },
  {
    // 001/003 Four Kongs excludes Three Kongs (and All Pungs, Single Wait).
    name: 'Four Kongs lists Three Kongs as excluded',
    hand: '[2222m1][6666p2][4444s3][8888m1]7s7s', ctx: ctx({ selfDrawn: true }), total: 91, // 88 + All Simples 2 + Self-Drawn 1
    notCounted: [{ id: 17, kind: 'excluded', by: 5 }, { id: 48, kind: 'excluded', by: 5 }],
  },
  {
    // 001 Four Concealed Pungs excludes Three and Two Concealed Pungs; 000/004 #12 All Pungs, Concealed Hand.
    name: 'Four Concealed Pungs lists the smaller concealed-pung fans as excluded',
    hand: '222m444p666s888m5m5m', ctx: ctx({ discarder: 'N' }), total: 67, // 64 + All Simples 2 + Single Wait 1
    notCounted: [{ id: 33, kind: 'excluded', by: 12 }, { id: 66, kind: 'excluded', by: 12 }, { id: 48, kind: 'excluded', by: 12 }],
  },
  {
    // 000/004 #19 Seven Pairs excludes Single Wait (the hand waits only on the Red Dragon).
    name: 'Seven Pairs lists Single Wait as excluded',
    hand: '1199m5577p2233sCC', ctx: ctx({ discarder: 'N' }), total: 24,
    notCounted: [{ id: 79, kind: 'excluded', by: 19 }, { id: 62, kind: 'excluded', by: 19 }],
  },
  {
    // 004 account-once: the further Mixed Double Chow pairings are listed with that principle.
    name: 'account-once lists the Mixed Double Chows it did not count',
    hand: '[123m1][123m1][123p1][123p1]5s5s', ctx: ctx({ discarder: 'N' }), total: 11,
    notCounted: [{ id: 70, kind: 'account-once' }],
  },
];

describe('MCR: fans considered but not counted', () => {
  it.each(NOT_COUNTED.map((c) => [c.name, c]))('%s', (_name, c) => {
    const r = scoreMcr(parseHand(c.hand), c.ctx);
    expect(r.validWin).toBe(true);
    expect(r.total).toBe(c.total);
    for (const want of c.notCounted) {
      const got = r.notCounted.find((n) => n.id === want.id && n.reason.kind === want.kind);
      expect(got, `fan ${want.id} should be listed as ${want.kind}`).toBeDefined();
      if (want.by) expect(got!.reason).toMatchObject({ byFan: want.by });
      expect(r.fans.some((f) => f.id === want.id && want.kind === 'excluded')).toBe(false);
    }
  });
  it('a wait on two tiles is listed as not unique (dispute 8)', () => {
    // 1234m waits on 1m and 4m: winning on 4m for the pair is no Single Wait.
    const r = scoreMcr(parseHand('[789p1][789s1][EEE1]12344m'), ctx({ discarder: 'N' }));
    expect(r.fans.map((f) => f.id)).not.toContain(79);
    expect(r.notCounted.find((n) => n.id === 79)?.reason.kind).toBe('wait-not-unique');
  });
});
