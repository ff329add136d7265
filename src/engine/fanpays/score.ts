/**
 * Card 002 scoring: list every reading of the 17-tile hand, run every detector,
 * apply the exclusion table once, add up, turn a one-fan total into five, and keep
 * the reading with the highest total (ties: the first reading in a fixed order).
 */
import { allPairsPung, countTiles, isStandardComplete } from '../decompose.ts';
import { isMahjongError, MahjongError } from '../errors.ts';
import type { Hand, WaitingHand } from '../hand.ts';
import type { CountedFan, Decomposition, NotCountedFan, Payments, ScoredSet, ScoreResult } from '../result.ts';
import type { TileId, Wind } from '../tiles.ts';
import { validateContext, validateHand, type HandShape } from '../validate.ts';
import { resolveContext, type FanPaysContext, type ResolvedContext } from './context.ts';
import { DETECTORS, FAN_PAYS_SETS, handFacts, readings, type Facts, type Hit, type Reading } from './detect.ts';
import { EXCLUSIONS, type Exclusion } from './exclusions.ts';
import { F, FAN_PAYS_FANS, fanPaysFan } from './fans.ts';
import { addPayments, secretKongPayments, winPayments, zeroPayments } from './payments.ts';

export const FAN_PAYS_ID = 'fan-pays';
export const FAN_PAYS_SHAPE: HandShape = { sets: FAN_PAYS_SETS };

export interface FanPaysResult extends ScoreResult {
  /** Value of one fan used for the payments. */
  fanValue: number;
  /** Fans of Dealer Penalty in the total: paid by the dealer only. */
  dealerPenalty: number;
  /** Secret Kong payments of this hand (the winner's concealed kongs and `ctx.secretKongs`), apart from the win. */
  secretKongPayments: Payments;
  /** `payments` plus `secretKongPayments`; null when `payments` is null. */
  netPayments: Payments | null;
}

interface Scored { reading: Reading; hits: Hit[]; removed: Map<Hit, Exclusion | 'one-becomes-five'>; total: number }

/** Largest excluding entry first, so a removed entry names the entry that really includes it (Five, not Four, Concealed Pungs). */
const EXCLUSION_ORDER: readonly Exclusion[] = [...EXCLUSIONS].sort((a, b) => fanPaysFan(b.by).points - fanPaysFan(a.by).points);

/** The exclusion table, in one pass: an entry the hand shows removes what its note names. */
export function applyExclusions(hits: readonly Hit[]): Map<Hit, Exclusion> {
  const removed = new Map<Hit, Exclusion>();
  for (const ex of EXCLUSION_ORDER) {
    const by = hits.filter((h) => h.id === ex.by);
    if (!by.length) continue;
    for (const h of hits) {
      if (removed.has(h) || !ex.removes.includes(h.id)) continue;
      if (ex.scope === 'hand' || by.some((b) => b.sets.some((i) => h.sets.includes(i)))) removed.set(h, ex);
    }
  }
  return removed;
}

function scoreReading(reading: Reading, f: Facts, ctx: ResolvedContext, hand: Hand): Scored {
  const hits: Hit[] = [];
  for (const fan of FAN_PAYS_FANS) {
    const d = DETECTORS[fan.id];
    if (d) hits.push(...d({ r: reading, f, ctx, hand }));
  }
  const removed: Scored['removed'] = applyExclusions(hits);
  const counted = hits.filter((h) => !removed.has(h));
  let total = counted.reduce((n, h) => n + fanPaysFan(h.id).points, 0);
  // "One Fan Becomes Five Fans: Total accumulative value is one fan".
  if (total === 1) {
    removed.set(counted[0]!, 'one-becomes-five');
    const five: Hit = { id: F.ONE_BECOMES_FIVE, sets: [] };
    hits.push(five);
    total = fanPaysFan(F.ONE_BECOMES_FIVE).points;
  }
  return { reading, hits, removed, total };
}

function waitsOf(hand: WaitingHand): TileId[] {
  const c = countTiles(hand.concealed);
  const need = FAN_PAYS_SETS - hand.melds.length;
  const out: TileId[] = [];
  for (let t = 0; t < 34; t++) {
    c[t]!++;
    if (isStandardComplete(c, need) || (hand.melds.length === 0 && allPairsPung(c) >= 0)) out.push(t);
    c[t]!--;
  }
  return out;
}

/** Tiles a 16-tile waiting hand can win on (by shape). Throws MahjongError on bad input. */
export function fanPaysWaits(hand: WaitingHand): TileId[] {
  validateHand(hand, FAN_PAYS_SHAPE);
  return waitsOf(hand);
}

function errorResult(e: MahjongError): FanPaysResult {
  return {
    ruleset: FAN_PAYS_ID, validWin: false, error: { code: e.code, message: e.message },
    total: 0, totalWithoutFlowers: 0, minimum: 0, fans: [], notCounted: [], decomposition: null,
    payments: null, waits: [], fanValue: 1, dealerPenalty: 0, secretKongPayments: zeroPayments(), netPayments: null,
  };
}

const FLOWER_ENTRIES: readonly number[] = [F.FOUR_FLOWERS, F.ALL_EIGHT_FLOWERS];

function decompositionOf(r: Reading): Decomposition {
  return {
    kind: r.form === 'standard' ? 'standard' : 'all-pairs-pung',
    sets: [
      ...r.sets.map((s): ScoredSet => ({ kind: s.kind, tile: s.tile, concealed: s.concealed, declared: s.declared })),
      ...r.pairs.map((p): ScoredSet => ({ kind: 'pair', tile: p, concealed: true, declared: false })),
    ],
  };
}

/** Every reading scored, best first. Throws MahjongError on bad input. */
export function evaluateFanPays(hand: Hand, input: FanPaysContext): { ctx: ResolvedContext; flowerCount: number; scored: Scored[] } {
  validateHand(hand, FAN_PAYS_SHAPE);
  validateContext(input, hand);
  const { ctx, winnerFlowers, flowerCount } = resolveContext(input, hand);
  const list = readings(hand, ctx.selfDrawn);
  if (!list.length) throw new MahjongError('NOT_WIN', 'these 17 tiles do not make a winning hand: five sets and a pair, or seven pairs and a pung');
  const f = handFacts(hand, winnerFlowers, flowerCount);
  const scored = list.map((r) => scoreReading(r, f, ctx, hand));
  // Stable sort: equal totals keep the fixed reading order.
  scored.sort((a, b) => b.total - a.total);
  return { ctx, flowerCount, scored };
}

export function toFanPaysResult(hand: Hand, ctx: ResolvedContext, flowerCount: number, s: Scored): FanPaysResult {
  const counts = new Map<number, number>();
  const notCounted: NotCountedFan[] = [];
  for (const h of s.hits) {
    const why = s.removed.get(h);
    const def = fanPaysFan(h.id);
    if (why === undefined) { counts.set(h.id, (counts.get(h.id) ?? 0) + 1); continue; }
    if (notCounted.some((n) => n.id === h.id)) continue;
    if (why === 'one-becomes-five') {
      notCounted.push({ id: h.id, names: def.names, points: def.points, reason: { kind: 'excluded', byFan: F.ONE_BECOMES_FIVE, citation: 'card 002, One Fan Becomes Five Fans: "Total accumulative value is one fan"' },
        message: `${def.names.en} was the only fan, so the hand scores One Fan Becomes Five Fans instead.` });
    } else {
      const by = fanPaysFan(why.by);
      notCounted.push({ id: h.id, names: def.names, points: def.points, reason: { kind: 'excluded', byFan: why.by, citation: `card 002, ${why.why}` },
        message: `${def.names.en} is not counted because of ${by.names.en}${why.source === 'card' ? ' (card note)' : ''}.` });
    }
  }
  const fans: CountedFan[] = [...counts.entries()].sort((a, b) => a[0] - b[0])
    .map(([id, count]) => { const d = fanPaysFan(id); return { id, names: d.names, points: d.points, count }; });
  const fanTotal = fans.reduce((n, x) => n + x.points * x.count, 0);
  if (fanTotal !== s.total) throw new Error('internal: fans do not add up to the total');
  const flowerFans = fans.filter((x) => FLOWER_ENTRIES.includes(x.id) || (x.id === F.NO_FLOWERS_OR_EACH_FLOWER && flowerCount > 0))
    .reduce((n, x) => n + x.points * x.count, 0);
  const dealerPenalty = counts.get(F.DEALER_PENALTY) ?? 0;
  const payments = winPayments({ total: s.total, dealerPenalty, fanValue: ctx.fanValue, seatWind: ctx.seatWind, dealer: ctx.dealer, selfDrawn: ctx.selfDrawn, discarder: ctx.discarder });
  const holders: Wind[] = [...hand.melds.filter((m) => m.kind === 'kong' && m.concealed).map(() => ctx.seatWind), ...ctx.secretKongs];
  const kongPay = secretKongPayments(holders, ctx.fanValue);
  return {
    ruleset: FAN_PAYS_ID, validWin: true, error: null,
    total: s.total, totalWithoutFlowers: s.total - flowerFans, minimum: 0,
    fans, notCounted, decomposition: decompositionOf(s.reading), payments,
    waits: waitsOf({ melds: hand.melds, concealed: hand.concealed }),
    fanValue: ctx.fanValue, dealerPenalty, secretKongPayments: kongPay,
    netPayments: payments ? addPayments(payments, kongPay) : null,
  };
}

/**
 * Scores a 17-tile winning hand by card 002. Never throws for bad input: the
 * result then has `validWin: false` and a typed `error`, as for MCR.
 */
export function scoreFanPays(hand: Hand, ctx: FanPaysContext): FanPaysResult {
  try {
    const e = evaluateFanPays(hand, ctx);
    return toFanPaysResult(hand, e.ctx, e.flowerCount, e.scored[0]!);
  } catch (err) {
    if (isMahjongError(err)) return errorResult(err);
    throw err;
  }
}

/** Every distinct reading of the hand, each fully scored, best first. */
export function allFanPaysReadings(hand: Hand, ctx: FanPaysContext): FanPaysResult[] {
  try {
    const e = evaluateFanPays(hand, ctx);
    const seen = new Set<string>();
    return e.scored.map((s) => toFanPaysResult(hand, e.ctx, e.flowerCount, s)).filter((r) => {
      const key = JSON.stringify([r.decomposition, r.fans.map((x) => [x.id, x.count])]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  } catch (err) {
    if (isMahjongError(err)) return [errorResult(err)];
    throw err;
  }
}
