import { describe, expect, it } from 'vitest';
import {
  allFanPaysReadings, FAN_PAYS, FAN_PAYS_EXCLUSIONS, FAN_PAYS_FANS, fanPaysContext, getRuleset, parseHand, rulesetIds, scoreFanPays,
  type FanPaysContext, type FanPaysResult,
} from '../../src/engine/index.ts';
import { CASES } from './cases.ts';

const base = (over: Partial<FanPaysContext> = {}): FanPaysContext => fanPaysContext({ seatWind: 'S', dealer: 'E', discarder: 'W', ...over });
const score = (hand: string, over: Partial<FanPaysContext> = {}): FanPaysResult => scoreFanPays(parseHand(hand), base(over));
const fanMap = (r: FanPaysResult) => Object.fromEntries(r.fans.map((f) => [f.id, f.count]));

describe('card 002, entry by entry', () => {
  it.each(CASES.map((c) => [`${c.entry} ${c.name}`, c] as const))('%s', (_n, c) => {
    const r = score(c.hand, c.ctx);
    expect(r.error).toBeNull();
    expect(fanMap(r)).toEqual(Object.fromEntries(Object.entries(c.fans).map(([k, v]) => [Number(k), v])));
    expect(r.total).toBe(c.total);
    expect(r.fans.reduce((n, f) => n + f.points * f.count, 0)).toBe(r.total);
    for (const [id, by] of Object.entries(c.excluded ?? {})) {
      const n = r.notCounted.find((x) => x.id === Number(id));
      expect(n, `entry ${id} should be excluded`).toBeDefined();
      expect(n!.reason).toMatchObject({ kind: 'excluded', byFan: by });
    }
  });

  it('has a scoring case for every hand entry of the card', () => {
    const covered = new Set(CASES.map((c) => c.entry));
    const missing = FAN_PAYS_FANS.filter((f) => f.kind !== 'payment' && !covered.has(f.id)).map((f) => f.id);
    expect(missing).toEqual([]);
  });
});

describe('the fan table', () => {
  it('is the card: 65 entries in card order, frozen, with four names each', () => {
    expect(FAN_PAYS_FANS).toHaveLength(65);
    FAN_PAYS_FANS.forEach((f, i) => {
      expect(f.id).toBe(i + 1);
      for (const lang of ['en', 'zh', 'pl', 'sv'] as const) expect(f.names[lang].length).toBeGreaterThan(0);
    });
    expect(Object.isFrozen(FAN_PAYS_FANS)).toBe(true);
    expect(Object.isFrozen(FAN_PAYS_FANS[0])).toBe(true);
    const byName = (en: string) => FAN_PAYS_FANS.filter((f) => f.names.en === en).map((f) => f.points);
    expect(byName('Purity')).toEqual([40]);
    expect(byName('Dealer MJ')).toEqual([1, 40]);
    expect(byName('Secret Kong')).toEqual([3]);
  });

  it('every exclusion names real entries, and every card note is quoted', () => {
    for (const e of FAN_PAYS_EXCLUSIONS) {
      expect(FAN_PAYS_FANS[e.by - 1]).toBeDefined();
      for (const id of e.removes) expect(FAN_PAYS_FANS[id - 1]).toBeDefined();
      if (e.source === 'card') expect(e.why).toMatch(/"\(.*\)"/);
    }
    expect(FAN_PAYS_EXCLUSIONS.filter((e) => e.source === 'card')).toHaveLength(10);
  });
});

describe('bracketed exclusions', () => {
  it('Minor Dragon Group removes the honour credit of its dragon pungs only, not of a wind pung', () => {
    const r = score('[CCC1][FFF1][EEE1]123m45p6pPP');
    expect(fanMap(r)).toMatchObject({ 2: 1, 8: 1 });
    expect(r.notCounted.find((n) => n.id === 2)?.reason).toMatchObject({ byFan: 8 });
  });
  it('Minor Dragon Group: a concealed dragon pung loses its credit too', () => {
    const r = score('[CCC1]FFF123m456p789sPP');
    expect(fanMap(r)[3]).toBeUndefined();
    expect(fanMap(r)[8]).toBe(1);
  });
  it('Big Chow removes No Flowers, No Honors and No Flowers and No Honors', () => {
    const r = score('[123m1][456p1][789s1]234s678m5p5p');
    expect(r.notCounted.map((n) => n.id).sort((a, b) => a - b)).toEqual([37, 38, 40]);
  });
  it('Small Chow keeps No Honors and the flower credits', () => {
    const r = score('[123m1][456p1][789s1]234s678m5p5p3f');
    expect(fanMap(r)).toMatchObject({ 11: 1, 37: 1, 38: 1 });
    expect(r.notCounted).toEqual([]);
  });
  it('Drawing to the Pung removes the concealed credit of the drawn pung, not of other pungs', () => {
    const r = score('[123m1][456p1]777s22p345s66m2p', { selfDrawn: true, discarder: null });
    expect(fanMap(r)).toMatchObject({ 1: 1, 4: 1 });
  });
  it('Drawing to the Pung: a drawn honour pung keeps Concealed Honor Pung (the note names "concealed Pung")', () => {
    const r = score('[123m1][456p1][789s1]NN345s66mN', { selfDrawn: true, discarder: null });
    expect(fanMap(r)).toMatchObject({ 3: 1, 4: 1 });
  });
  it('Five Families takes no honour credit', () => {
    const r = score('[EEE1][CCC1][123m1]456p78s66p9s');
    expect(fanMap(r)[2]).toBeUndefined();
    expect(r.notCounted.filter((n) => n.id === 2)).toHaveLength(1);
  });
  it('Uniquely Five removes Innie; an Innie on another rank stays', () => {
    expect(fanMap(score('[123m1][456p1][789s1]222p46s66m5s'))[50]).toBeUndefined();
    expect(fanMap(score('[123m1][456p1][789s1]222p35s66m4s'))[50]).toBe(1);
  });
  it('False One Possible and All Help MJ remove True 2', () => {
    expect(fanMap(score('[123m1][456p1][789p1]666m345s2s2s'))[52]).toBeUndefined();
    expect(fanMap(score('[123m1][456p1][789s1][222p1][345s1]6m6m'))[52]).toBeUndefined();
  });
  it('Flower Wall Win removes Self-Drawn MJ, but all three still pay', () => {
    const r = score('[123m1][456p1][789s1]222p34s66m5s', { selfDrawn: true, discarder: null, flowerWallWin: true });
    expect(fanMap(r)[48]).toBeUndefined();
    expect(r.payments).toEqual({ E: -7, S: 21, W: -7, N: -7 });
  });
  it('Purely Honors removes Pungamania', () => {
    const r = score('[EEE1][SSS1][CCC1][FFF1]WWWPP');
    expect(fanMap(r)[61]).toBeUndefined();
    expect(r.notCounted.find((n) => n.id === 61)?.reason).toMatchObject({ byFan: 64 });
  });
  it('Purely Honors needs five pungs or kongs and an honour pair, not seven pairs and a pung', () => {
    const pairs = score('EEEESSWWNNPPFFCCC');
    expect(fanMap(pairs)[62]).toBe(1);
    expect(fanMap(pairs)[64]).toBeUndefined();
    expect(pairs.total).toBe(29);
    expect(fanMap(score('[EEE1][SSS1][CCC1][FFF1]WWWPP'))[64]).toBe(1);
  });
  it('Dragon\'s Tail removes Mother and Daughter of its own suit', () => {
    const r = score('[123m1][456m1][789m1]234p66s5p5p');
    expect(fanMap(r)[26]).toBeUndefined();
  });
});

describe('readings', () => {
  it('keeps the reading with the most fans (pure double chow vs pungs)', () => {
    // 111222333m reads as three pungs or three identical chows.
    const all = allFanPaysReadings(parseHand('[456p1][789s1]111222333m5s5s'), base());
    expect(all.length).toBeGreaterThan(1);
    const r = score('[456p1][789s1]111222333m5s5s');
    expect(r.total).toBe(Math.max(...all.map((x) => x.total)));
    expect(fanMap(r)).toMatchObject({ 5: 1, 6: 1 });
    expect(all.some((x) => x.fans.some((f) => f.id === 30))).toBe(true);
  });
  it('reads 7 pairs and a pung as All Pairs Hand when that scores more', () => {
    const r = score('11223344556677888m', { selfDrawn: true, discarder: null });
    expect(r.decomposition?.kind).toBe('all-pairs-pung');
    expect(fanMap(r)).toMatchObject({ 62: 1, 65: 1, 4: 1 });
  });
  it('lists the waits before the win', () => {
    expect(score('[123m1][456p1][789s1]222p34s66m5s').waits).toEqual([19, 22]);
  });
});

describe('payments', () => {
  const hand = '[123m1][456p1][789s1]222p34s66m5s'; // 4 fans for a non-dealer
  it('a discard: the discarder alone pays', () => {
    expect(score(hand).payments).toEqual({ E: 0, S: 4, W: -4, N: 0 });
  });
  it('self-drawn: all three pay', () => {
    expect(score(hand, { selfDrawn: true, discarder: null }).payments).toEqual({ E: -5, S: 15, W: -5, N: -5 });
  });
  it('the value of one fan is configurable', () => {
    expect(score(hand, { fanValue: 10 }).payments).toEqual({ E: 0, S: 40, W: -40, N: 0 });
  });
  it('robbing the kong: the robbed player pays', () => {
    const r = score('[123m1][678m1][789s1]234s66m46p5p', { robbingKong: true, discarder: 'N' });
    expect(r.payments).toEqual({ E: 0, S: 15, W: 0, N: -15 });
  });
  it('Dealer Penalty is given by the dealer alone on a self-drawn win', () => {
    const r = score(hand, { selfDrawn: true, discarder: null, dealerStreak: 2 });
    expect(r.total).toBe(7);
    expect(r.dealerPenalty).toBe(2);
    expect(r.payments).toEqual({ E: -7, S: 17, W: -5, N: -5 });
  });
  it('no Dealer Penalty when another player discards', () => {
    expect(fanMap(score(hand, { discarder: 'N', dealerStreak: 2 }))[33]).toBeUndefined();
  });
  it('a discard win with no discarder has no payments', () => {
    expect(score(hand, { discarder: null }).payments).toBeNull();
  });
  it('Secret Kong: the holder receives one fan from each other player, reported apart', () => {
    const r = score('[2222p][123m1][456p1]789s34s66m5s', { secretKongs: ['N', 'N'], fanValue: 2 });
    expect(r.payments).toEqual({ E: 0, S: 12, W: -12, N: 0 });
    // S: one kong (+6, -4 to N's two kongs); N: two kongs (+12, -2 to S's kong).
    expect(r.secretKongPayments).toEqual({ E: -6, S: 2, W: -6, N: 10 });
    expect(r.netPayments).toEqual({ E: -6, S: 14, W: -18, N: 10 });
  });
  it('payments always balance', () => {
    for (const c of CASES) {
      const r = score(c.hand, c.ctx);
      if (r.payments) expect(Object.values(r.payments).reduce((a, b) => a + b, 0)).toBe(0);
      expect(Object.values(r.secretKongPayments).reduce((a, b) => a + b, 0)).toBe(0);
    }
  });
});

describe('bad input: the same typed errors as MCR', () => {
  const code = (hand: string, over: Partial<FanPaysContext> = {}) => score(hand, over).error?.code;
  it.each([
    ['a 14-tile MCR hand', '[123p1][345s2][999s3]78mEE6m', 'WRONG_TILE_COUNT'],
    ['16 tiles', '123m456p789s222p34s66m', 'WRONG_TILE_COUNT'],
    ['18 tiles', '123m456p789s222p34s66m5s5s', 'WRONG_TILE_COUNT'],
    ['five copies', '[1111m][123m1]456p789s66m5s55s', 'TOO_MANY_COPIES'],
    ['six declared sets', '[123m1][456p1][789s1][222p1][345s1][678s1]6m6m', 'TOO_MANY_MELDS'],
    ['17 tiles that are no win', '123m456p789s222p34s67m9m', 'NOT_WIN'],
  ])('%s', (_n, hand, want) => {
    expect(code(hand)).toBe(want);
  });
  it('honour chows and bad notation', () => {
    expect(() => parseHand('[ESW]')).toThrow(expect.objectContaining({ code: 'HONOR_CHOW' }));
    expect(() => parseHand('123x')).toThrow(expect.objectContaining({ code: 'MALFORMED_NOTATION' }));
  });
  it.each<[string, Partial<FanPaysContext>, string]>([
    ['flower wall win not self-drawn', { flowerWallWin: true }, 'CONTRADICTORY_CONDITIONS'],
    ['heavenly blessing on a discard', { firstDrawWin: true }, 'CONTRADICTORY_CONDITIONS'],
    ['terrestrial blessing by the dealer', { seatWind: 'E', firstDiscardWin: true, discarder: 'S' }, 'CONTRADICTORY_CONDITIONS'],
    ['dealer opening for a non-dealer', { dealerOpensWithMj: true, selfDrawn: true, discarder: null }, 'CONTRADICTORY_CONDITIONS'],
    ['winner listed in secretKongs', { secretKongs: ['S'] }, 'CONTRADICTORY_CONDITIONS'],
    ['negative dealer streak', { dealerStreak: -1 }, 'INVALID_CONTEXT'],
    ['zero fan value', { fanValue: 0 }, 'INVALID_CONTEXT'],
    ['a flower held twice', { flowersBySeat: { N: [34], W: [34] } }, 'CONTRADICTORY_CONDITIONS'],
    ['a non-flower as flower', { flowersBySeat: { N: [3] } }, 'INVALID_CONTEXT'],
    ['self-drawn with a discarder', { selfDrawn: true }, 'CONTRADICTORY_CONDITIONS'],
  ])('%s', (_n, over, want) => {
    expect(code('123m456p789s222p34s66m5s', over)).toBe(want);
  });
  it('the hand\'s flowers must agree with the flower count', () => {
    expect(code('[EEE1][123m1][456p1]789s34s66m5s13f', { flowers: 3 })).toBe('CONTRADICTORY_CONDITIONS');
    expect(code('[EEE1][123m1][456p1]789s34s66m5s13f', { flowers: 2 })).toBeUndefined();
    expect(code('[EEE1][123m1][456p1]789s34s66m5s13f', { flowersBySeat: { W: [34] } })).toBe('CONTRADICTORY_CONDITIONS');
  });
  it('a flower count must fit in what the other seats hold, and eight is every flower', () => {
    const hand = '[123m1][456p1][789s1]222p34s66m5s';
    const r = score(hand, { flowers: 5, flowersBySeat: { N: [34, 35, 36, 37] } });
    expect(r.error?.code).toBe('CONTRADICTORY_CONDITIONS');
    expect(r.error?.message).toMatch(/at most 4/);
    expect(code(hand, { flowers: 4, flowersBySeat: { N: [34, 35, 36, 37] } })).toBeUndefined();
    expect(code(hand, { flowers: 8, flowersBySeat: { N: [34] } })).toBe('CONTRADICTORY_CONDITIONS');
    // eight flowers given as a count are all eight tiles: the same fans as the tiles written out
    const counted = score(hand, { flowers: 8 }), written = score(`${hand}12345678f`);
    expect(fanMap(counted)).toEqual(fanMap(written));
    expect(fanMap(counted)[44]).toBe(1);
    expect(counted.total).toBe(40);
  });
  it('a flower written twice in the hand is named as such', () => {
    const r = score('[123m1][456p1][789s1]222p34s66m5s11f');
    expect(r.error?.code).toBe('CONTRADICTORY_CONDITIONS');
    expect(r.error?.message).toBe('flower f1 is written twice in the hand; each flower exists once');
  });
  it('never throws for a malformed object', () => {
    const r = scoreFanPays({ melds: [], concealed: [99], winningTile: 0 }, base());
    expect(r.validWin).toBe(false);
    expect(r.error?.code).toBe('MALFORMED_NOTATION');
  });
});

describe('registry', () => {
  it('registers fan-pays beside mcr', () => {
    expect(rulesetIds()).toEqual(expect.arrayContaining(['mcr', 'fan-pays']));
    const rs = getRuleset('fan-pays');
    expect(rs).toBe(FAN_PAYS);
    expect(rs.shape.sets).toBe(5);
    expect(rs.score(parseHand('123m456p789s222p34s66m5s'), { ...base() }).total).toBe(6);
    expect(rs.waits({ melds: [], concealed: parseHand('123m456p789s222p34s66m5s').concealed })).toEqual([19, 22]);
  });
  it('scores a plain WinContext with the card defaults (East deals)', () => {
    const r = getRuleset('fan-pays').score(parseHand('123m456p789s222p34s66m5s'), { seatWind: 'E', prevalentWind: 'E', selfDrawn: false, discarder: 'S', lastOfKind: false, lastTileOfWall: false, replacementTile: false, robbingKong: false, flowers: 0 });
    expect(r.fans.map((f) => f.id)).toContain(32);
  });
});
