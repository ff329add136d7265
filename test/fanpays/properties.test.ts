import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allFanPaysReadings, FAN_PAYS_EXCLUSIONS, fanPaysContext, formatHand, scoreFanPays, WINDS,
  type FanPaysContext, type Hand, type Meld, type TileId, type Wind,
} from '../../src/engine/index.ts';

type SetSpec = { kind: 'chow' | 'pung' | 'kong'; tile: TileId; declared: boolean; concealedKong: boolean };

const setArb: fc.Arbitrary<SetSpec> = fc.record({
  kind: fc.constantFrom('chow', 'pung', 'pung', 'kong') as fc.Arbitrary<SetSpec['kind']>,
  tile: fc.integer({ min: 0, max: 33 }),
  declared: fc.boolean(),
  concealedKong: fc.boolean(),
}).map((s) => (s.kind === 'chow' ? { ...s, tile: s.tile >= 27 ? s.tile % 27 : s.tile - (s.tile % 9 > 6 ? 2 : 0) } : s));

const tilesOf = (s: SetSpec): TileId[] => (s.kind === 'chow' ? [s.tile, s.tile + 1, s.tile + 2] : Array(s.kind === 'kong' ? 4 : 3).fill(s.tile));

/** A legal 17-tile winning hand: five sets and a pair, no tile more than four times. */
const handArb: fc.Arbitrary<Hand> = fc.record({
  sets: fc.array(setArb, { minLength: 5, maxLength: 5 }),
  pair: fc.integer({ min: 0, max: 33 }),
  winPick: fc.nat(),
  flowers: fc.subarray([34, 35, 36, 37, 38, 39, 40, 41]),
}).filter(({ sets, pair }) => {
  const c = new Array(34).fill(0);
  for (const s of sets) for (const t of tilesOf(s)) c[t]++;
  c[pair] += 2;
  return c.every((n) => n <= 4);
}).map(({ sets, pair, winPick, flowers }) => {
  const melds: Meld[] = [];
  const concealed: TileId[] = [pair, pair];
  for (const s of sets) {
    if (s.kind === 'kong') melds.push(s.concealedKong ? { kind: 'kong', tile: s.tile, concealed: true } : { kind: 'kong', tile: s.tile, concealed: false, claimedFrom: 'left' });
    else if (s.declared) melds.push(s.kind === 'chow' ? { kind: 'chow', tile: s.tile, concealed: false, claimedFrom: 'left' } : { kind: 'pung', tile: s.tile, concealed: false, claimedFrom: 'left' });
    else concealed.push(...tilesOf(s));
  }
  const [winningTile] = concealed.splice(winPick % concealed.length, 1);
  return { melds, concealed, winningTile: winningTile!, ...(flowers.length ? { flowers } : {}) };
});

/** Seven pairs and a pung, all concealed. */
const allPairsArb: fc.Arbitrary<Hand> = fc.record({
  pairs: fc.array(fc.integer({ min: 0, max: 33 }), { minLength: 7, maxLength: 7 }),
  pung: fc.integer({ min: 0, max: 33 }),
  winPick: fc.nat(),
}).filter(({ pairs, pung }) => {
  const c = new Array(34).fill(0);
  for (const p of pairs) c[p] += 2;
  c[pung] += 3;
  return c.every((n) => n <= 4);
}).map(({ pairs, pung, winPick }) => {
  const concealed = [...pairs.flatMap((p) => [p, p]), pung, pung, pung];
  const [winningTile] = concealed.splice(winPick % concealed.length, 1);
  return { melds: [], concealed, winningTile: winningTile! };
});

const anyHandArb = fc.oneof({ arbitrary: handArb, weight: 4 }, { arbitrary: allPairsArb, weight: 1 });

const ctxArb = (hand: Hand): fc.Arbitrary<FanPaysContext> => fc.record({
  seat: fc.constantFrom(...WINDS), dealer: fc.constantFrom(...WINDS), selfDrawn: fc.boolean(), discarderPick: fc.nat(3),
  namedDiscarder: fc.boolean(), dealerStreak: fc.nat(3), lastTileOfWall: fc.boolean(), flowerWall: fc.boolean(),
  rob: fc.boolean(), secretKongs: fc.array(fc.constantFrom(...WINDS), { maxLength: 3 }), fanValue: fc.integer({ min: 1, max: 5 }),
  firstDealerDiscard: fc.boolean(),
}).map((r): FanPaysContext => {
  const others = WINDS.filter((w) => w !== r.seat);
  const holds = [...hand.concealed, ...hand.melds.flatMap((m) => (m.kind === 'chow' ? [m.tile, m.tile + 1, m.tile + 2] : [m.tile]))].includes(hand.winningTile);
  const rob = r.rob && !r.selfDrawn && !holds && !r.lastTileOfWall;
  const open = hand.melds.some((m) => !(m.kind === 'kong' && m.concealed));
  return fanPaysContext({
    seatWind: r.seat, dealer: r.dealer, selfDrawn: r.selfDrawn,
    discarder: r.selfDrawn || (!r.namedDiscarder && !rob) ? null : others[r.discarderPick % 3]!,
    dealerStreak: r.dealerStreak, lastTileOfWall: r.lastTileOfWall, flowerWallWin: r.selfDrawn && r.flowerWall, robbingKong: rob,
    secretKongs: r.secretKongs.filter((w) => w !== r.seat), fanValue: r.fanValue,
    claimedFirstDealerDiscard: r.firstDealerDiscard && open && r.seat !== r.dealer,
  });
});

const sum = (p: Record<Wind, number>) => WINDS.reduce((n, w) => n + p[w], 0);

describe('random legal 17-tile winning hands', () => {
  it('never throw, always win, and the fans sum to the total', () => {
    fc.assert(fc.property(anyHandArb.chain((hand) => fc.tuple(fc.constant(hand), ctxArb(hand))), ([hand, ctx]) => {
      const r = scoreFanPays(hand, ctx);
      expect(r.error, `${formatHand(hand)} ${JSON.stringify(ctx)}`).toBeNull();
      expect(r.validWin).toBe(true);
      expect(r.fans.reduce((n, f) => n + f.points * f.count, 0)).toBe(r.total);
      expect(r.total).toBeGreaterThanOrEqual(2);
      expect(r.fans.every((f) => f.count >= 1)).toBe(true);
      // An entry is either counted or not counted, never both.
      // An entry removed from the whole hand is not also counted.
      for (const n of r.notCounted) {
        const by = n.reason.kind === 'excluded' ? n.reason.byFan : 0;
        const handWide = FAN_PAYS_EXCLUSIONS.some((e) => e.by === by && e.scope === 'hand' && e.removes.includes(n.id)) || by === 58;
        if (handWide) expect(r.fans.some((f) => f.id === n.id)).toBe(false);
      }
      expect(r.secretKongPayments && sum(r.secretKongPayments)).toBe(0);
      if (r.payments) {
        expect(sum(r.payments)).toBe(0);
        expect(r.payments[ctx.seatWind]).toBeGreaterThan(0);
      } else {
        expect(ctx.selfDrawn || ctx.discarder).toBeFalsy();
      }
      expect(r.total).toBe(Math.max(...allFanPaysReadings(hand, ctx).map((x) => x.total)));
    }), { numRuns: 400 });
  });
});

describe('any input', () => {
  const meldArb: fc.Arbitrary<Meld> = fc.record({ kind: fc.constantFrom('chow', 'pung', 'kong'), tile: fc.integer({ min: -2, max: 43 }), concealed: fc.boolean() }) as fc.Arbitrary<Meld>;
  it('never throws: bad hands come back as typed errors', () => {
    const codes = ['MALFORMED_NOTATION', 'TOO_MANY_COPIES', 'WRONG_TILE_COUNT', 'HONOR_CHOW', 'INVALID_MELD', 'TOO_MANY_MELDS', 'CONTRADICTORY_CONDITIONS', 'INVALID_CONTEXT', 'NOT_WIN'];
    fc.assert(fc.property(
      fc.array(meldArb, { maxLength: 6 }), fc.array(fc.integer({ min: 0, max: 33 }), { maxLength: 20 }), fc.integer({ min: 0, max: 41 }), fc.boolean(),
      (melds, concealed, winningTile, selfDrawn) => {
        const r = scoreFanPays({ melds, concealed, winningTile }, fanPaysContext({ seatWind: 'S', selfDrawn, discarder: selfDrawn ? null : 'W' }));
        if (r.error) expect(codes).toContain(r.error.code);
        else expect(r.fans.reduce((n, f) => n + f.points * f.count, 0)).toBe(r.total);
      }), { numRuns: 1000 });
  });
});
