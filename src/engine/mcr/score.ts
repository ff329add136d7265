/**
 * MCR scoring: list every interpretation of the hand (each decomposition, and
 * each set the winning tile may have completed), detect fans, apply the
 * exclusion table once, and keep the highest total (004: higher-value principle).
 *
 * The steps live beside this file: interpret.ts (the readings), facts.ts (what holds for
 * the whole hand, and the fans that follow from it), detect.ts (the fans of one reading and
 * the exclusion pass), waits.ts (the waiting tiles). This file runs them and builds the result.
 */
import { MahjongError, isMahjongError } from '../errors.ts';
import type { Hand, WinContext } from '../hand.ts';
import { countTiles } from '../decompose.ts';
import type { CountedFan, Decomposition, NotCountedFan, NotCountedReason, ScoredSet, ScoreResult } from '../result.ts';
import type { TileId } from '../tiles.ts';
import { validateContext, validateHand, MCR_SHAPE } from '../validate.ts';
import { mcrPayments } from '../payments.ts';
import { FANS } from './fans.ts';
import { waitsOf } from './waits.ts';
import { interpretations } from './interpret.ts';
import { facts, handLevelFans } from './facts.ts';
import { ACCOUNT_ONCE, WAIT_NOT_UNIQUE, detect, type Evaluated } from './detect.ts';

export type { Evaluated } from './detect.ts';

export const MCR_MINIMUM = 8;

function errorResult(e: MahjongError, ctx?: WinContext): ScoreResult {
  return {
    ruleset: 'mcr', validWin: false, error: { code: e.code, message: e.message },
    total: 0, totalWithoutFlowers: 0, minimum: MCR_MINIMUM, fans: [], notCounted: [],
    decomposition: null, payments: null, waits: [],
    ...(ctx ? {} : {}),
  };
}

export interface Prepared {
  hand: Hand;
  ctx: WinContext;
  evaluations: Evaluated[];
  waits: TileId[];
}

/** Validates and evaluates every interpretation. Throws MahjongError on bad input. */
export function evaluateAll(hand: Hand, ctx: WinContext, keepAll = false): Prepared {
  validateHand(hand, MCR_SHAPE);
  validateContext(ctx, hand);
  const cc = countTiles(hand.concealed);
  cc[hand.winningTile]!++;
  const ips = interpretations(hand, ctx, cc);
  if (ips.length === 0) throw new MahjongError('NOT_WIN', 'these tiles do not make a winning hand');
  const f = facts(hand, cc, ctx);
  let waits: TileId[] | null = null;
  const getWaits = () => {
    if (!waits) {
      waits = waitsOf(countTiles(hand.concealed), hand.melds);
    }
    return waits;
  };
  const base = handLevelFans(f, ctx);
  const evaluations: Evaluated[] = [];
  let best = -1;
  for (const ip of ips) {
    const ev = detect(ip, f, base, ctx, ip.wait ? getWaits().length === 1 : false);
    if (keepAll || ev.total >= best) {
      // detect() works in scratch tables: keep a copy of every reading that can still be the best.
      evaluations.push({ ...ev, counts: ev.counts.slice(), removed: ev.removed.slice() });
      if (ev.total > best) best = ev.total;
    }
  }
  return { hand, ctx, evaluations, waits: getWaits() };
}

function citationFor(by: number): string {
  const f = FANS[by - 1]!;
  return `${f.names.en} (${by}) includes it; rules 000/003/004, non-repeat principle`;
}

/** Turns one evaluation into the public result. */
export function toResult(p: Prepared, ev: Evaluated): ScoreResult {
  const fans: CountedFan[] = [];
  const notCounted: NotCountedFan[] = [];
  for (let id = 1; id <= 80; id++) {
    const n = ev.counts[id]!;
    if (!n) continue;
    const def = FANS[id - 1]!;
    const by = ev.removed[id]!;
    if (by === 0) fans.push({ id, names: def.names, points: def.points, count: n });
    else if (by === ACCOUNT_ONCE) {
      notCounted.push({ id, names: def.names, points: def.points, reason: { kind: 'account-once', citation: 'rules 004, account-once principle (Wyłączności)' },
        message: `${def.names.en}: these sets were already combined for another fan; each set may be combined only once more (account-once).` });
    } else if (by === WAIT_NOT_UNIQUE) {
      notCounted.push({ id, names: def.names, points: def.points, reason: { kind: 'wait-not-unique', citation: 'rules 000/004, fans 77-79: not when waiting on more than one tile' },
        message: `${def.names.en}: the hand could also win on ${p.waits.length - 1} other tile(s), so the wait does not score.` });
    } else {
      const byDef = FANS[by - 1]!;
      notCounted.push({ id, names: def.names, points: def.points, reason: { kind: 'excluded', byFan: by, citation: citationFor(by) },
        message: `${def.names.en} is not counted because ${byDef.names.en} already includes it.` });
    }
  }
  for (const x of ev.extra) {
    const def = FANS[x.id - 1]!;
    const reason: NotCountedReason = x.byFan === ACCOUNT_ONCE
      ? { kind: 'account-once', citation: 'rules 004, account-once principle (Wyłączności)' }
      : { kind: 'excluded', byFan: x.byFan, citation: citationFor(x.byFan) };
    notCounted.push({ id: x.id, names: def.names, points: def.points, count: x.count, reason,
      message: x.byFan === ACCOUNT_ONCE
        ? `${def.names.en}: ${x.count} more combination(s) of these sets are not counted, because each set may be combined only once more (account-once).`
        : `${def.names.en}: ${x.count} more combination(s) are not counted because ${FANS[x.byFan - 1]!.names.en} already includes them.` });
  }
  const flowers = p.ctx.flowers;
  if (flowers > 0) { const def = FANS[80]!; fans.push({ id: 81, names: def.names, points: 1, count: flowers }); }
  const totalWithoutFlowers = ev.total;
  const total = totalWithoutFlowers + flowers;
  const valid = totalWithoutFlowers >= MCR_MINIMUM;
  const decomposition: Decomposition = {
    kind: ev.interp.kind,
    sets: [
      ...ev.interp.sets.map((s): ScoredSet => ({ kind: (['chow', 'pung', 'kong'] as const)[s.kind], tile: s.tile, concealed: s.concealed, declared: s.declared })),
      ...(ev.interp.knitted ? [0, 1, 2].map((k): ScoredSet => {
        const tiles = ev.interp.knitted!.filter((t) => Math.floor(t / 9) === Math.floor(ev.interp.knitted![k * 3]! / 9));
        return { kind: 'knitted', tile: tiles[0]!, tiles, concealed: true, declared: false };
      }) : []),
      ...(ev.interp.pair >= 0 ? [{ kind: 'pair', tile: ev.interp.pair, concealed: true, declared: false } as ScoredSet] : []),
    ],
  };
  return {
    ruleset: 'mcr', validWin: valid,
    error: valid ? null : { code: 'BELOW_MINIMUM', message: `the hand scores ${totalWithoutFlowers} points without flowers; a win needs at least ${MCR_MINIMUM}` },
    total, totalWithoutFlowers, minimum: MCR_MINIMUM, fans, notCounted, decomposition,
    payments: valid ? mcrPayments(total, p.ctx) : null,
    waits: p.waits,
  };
}

/** Counted fan ids of an evaluation, ascending. */
function countedIds(e: Evaluated): number[] {
  const ids: number[] = [];
  for (let id = 1; id <= 80; id++) if (e.counts[id] && !e.removed[id]) ids.push(id);
  return ids;
}

/**
 * Lexicographic comparison of ascending fan-id lists: negative when `a` holds the
 * higher-ranked fan (lower number) at the first difference.
 */
export function compareFanLists(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Highest total wins (004: higher-value principle). Between equal totals the
 * reading with the higher-ranked fans is shown (e.g. Edge Wait before Single
 * Wait), so the answer does not depend on the order tiles were given in.
 */
export function bestOf(evals: Evaluated[]): Evaluated {
  let best = evals[0]!;
  for (const e of evals) {
    if (e.total > best.total || (e.total === best.total && e !== best && compareFanLists(countedIds(e), countedIds(best)) < 0)) best = e;
  }
  return best;
}

/**
 * Scores a winning hand by MCR. Never throws: problems with the input come back
 * as `validWin: false` with a typed `error`.
 */
export function scoreMcr(hand: Hand, ctx: WinContext): ScoreResult {
  try {
    const p = evaluateAll(hand, ctx);
    return toResult(p, bestOf(p.evaluations));
  } catch (e) {
    if (isMahjongError(e)) return errorResult(e, ctx);
    throw e;
  }
}
