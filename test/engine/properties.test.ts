import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatHand, formatMpsz, parseHand, scoreMcr, waitingTiles, whatIf,
  type Hand, type Meld, type WinContext, type Wind,
} from '../../src/engine/index.ts';

const WINDS: Wind[] = ['E', 'S', 'W', 'N'];

/** A random legal winning hand: four sets and a pair, at most four copies of any tile. */
const arbHand: fc.Arbitrary<Hand> = fc
  .record({
    sets: fc.array(fc.record({ kind: fc.constantFrom('chow', 'pung', 'kong'), tile: fc.integer({ min: 0, max: 33 }), declared: fc.boolean(), concealedKong: fc.boolean() }), { minLength: 4, maxLength: 4 }),
    pair: fc.integer({ min: 0, max: 33 }),
    winPick: fc.nat(),
    claim: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ sets, pair, winPick, claim }) => {
    const counts = new Array(34).fill(0);
    const melds: Meld[] = [];
    const concealed: number[] = [];
    for (const s of sets) {
      let kind = s.kind;
      let tile = s.tile;
      if (kind === 'chow' && (tile >= 27 || tile % 9 > 6)) tile = tile >= 27 ? tile - 27 : tile - 2;
      const tiles = kind === 'chow' ? [tile, tile + 1, tile + 2] : Array(kind === 'kong' ? 4 : 3).fill(tile);
      if (kind === 'kong' && !s.declared) kind = 'pung';
      const use = kind === 'pung' && !s.declared ? tiles.slice(0, 3) : tiles.slice(0, kind === 'kong' ? 4 : 3);
      for (const t of use) counts[t]++;
      if (s.declared) {
        if (kind === 'chow') melds.push({ kind, tile, concealed: false, claimedFrom: 'left', claimedIndex: claim });
        else if (kind === 'pung') melds.push({ kind, tile, concealed: false, claimedFrom: 'opposite' });
        else melds.push(s.concealedKong ? { kind: 'kong', tile, concealed: true } : { kind: 'kong', tile, concealed: false, claimedFrom: 'right' });
      } else concealed.push(...use);
    }
    concealed.push(pair, pair);
    counts[pair] += 2;
    if (counts.some((n) => n > 4)) return null;
    const winningTile = concealed.splice(winPick % concealed.length, 1)[0]!;
    return { melds, concealed, winningTile } as Hand;
  })
  .filter((h): h is Hand => h !== null);

const arbCtx: fc.Arbitrary<WinContext> = fc
  .record({
    seatWind: fc.constantFrom(...WINDS), prevalentWind: fc.constantFrom(...WINDS), selfDrawn: fc.boolean(),
    lastOfKind: fc.boolean(), lastTileOfWall: fc.boolean(), replacementTile: fc.boolean(), robbingKong: fc.boolean(),
    flowers: fc.integer({ min: 0, max: 8 }), discarderOffset: fc.integer({ min: 1, max: 3 }),
  })
  .map(({ discarderOffset, ...c }) => ({
    ...c,
    replacementTile: c.replacementTile && c.selfDrawn,
    robbingKong: c.robbingKong && !c.selfDrawn && !c.lastTileOfWall,
    discarder: c.selfDrawn ? null : WINDS[(WINDS.indexOf(c.seatWind) + discarderOffset) % 4]!,
  }));

const shuffle = <T>(a: T[], seed: number): T[] => {
  const r = [...a];
  let s = seed >>> 0 || 1;
  for (let i = r.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    [r[i], r[j]] = [r[j]!, r[i]!];
  }
  return r;
};

describe('property: random legal winning hands', () => {
  it('never throw, are recognised as wins, and the fans sum to the total', () => {
    fc.assert(fc.property(arbHand, arbCtx, (hand, ctx) => {
      const r = scoreMcr(hand, ctx);
      // Conditions the hand cannot meet (a replacement tile with no kong, robbing a tile the
      // winner holds) are refused with a typed error; everything else is a win.
      if (r.error && r.error.code === 'CONTRADICTORY_CONDITIONS') return;
      expect(r.error === null || r.error.code === 'BELOW_MINIMUM').toBe(true);
      const sum = r.fans.reduce((s, f) => s + f.points * f.count, 0);
      expect(sum).toBe(r.total);
      expect(r.total - r.totalWithoutFlowers).toBe(ctx.flowers);
      expect(r.validWin).toBe(r.totalWithoutFlowers >= 8);
      if (r.validWin && r.payments) expect(Object.values(r.payments).reduce((a, b) => a + b, 0)).toBe(0);
    }), { numRuns: 1500 });
  });

  it('score the same whatever order the concealed tiles are given in', () => {
    fc.assert(fc.property(arbHand, arbCtx, fc.integer(), (hand, ctx, seed) => {
      const a = scoreMcr(hand, ctx);
      const b = scoreMcr({ ...hand, concealed: shuffle(hand.concealed, seed), melds: shuffle(hand.melds, seed + 1) }, ctx);
      expect(b.total).toBe(a.total);
      expect(b.fans.map((f) => [f.id, f.count])).toEqual(a.fans.map((f) => [f.id, f.count]));
      expect(b.error).toEqual(a.error);
    }), { numRuns: 800 });
  });

  it('re-parsing the formatted notation gives back the same hand', () => {
    fc.assert(fc.property(arbHand, (hand) => {
      const norm = (h: Hand) => ({ ...h, concealed: [...h.concealed].sort((x, y) => x - y) });
      expect(norm(parseHand(formatHand(hand)))).toEqual(norm(hand));
      expect(norm(parseHand(formatMpsz(hand)))).toEqual(norm(hand));
    }), { numRuns: 1500 });
  });

  it('every winning tile the analysis lists does win, and the winning tile is among them', () => {
    fc.assert(fc.property(arbHand, arbCtx, (hand, ctx) => {
      const waiting = { melds: hand.melds, concealed: hand.concealed };
      const waits = waitingTiles(waiting);
      expect(waits).toContain(hand.winningTile);
      for (const w of whatIf(waiting, { ...ctx, robbingKong: false, replacementTile: false })) {
        expect(w.result.error?.code ?? 'OK').not.toBe('NOT_WIN');
      }
    }), { numRuns: 300 });
  });
});
