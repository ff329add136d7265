/**
 * Batch scoring over JSON lines (the conformance format of ../shared/conformance):
 * one input object -> one output object, never a throw.
 */
import { z } from 'zod';
import { isMahjongError, MahjongError } from '../engine/errors.ts';
import type { WinContext } from '../engine/hand.ts';
import { parseHand } from '../engine/notation.ts';
import { scoreMcr } from '../engine/mcr/score.ts';
import type { Payments, ScoreResult } from '../engine/result.ts';
import type { FanPaysContext } from '../engine/fanpays/context.ts';
import { scoreFanPays, FAN_PAYS_ID, type FanPaysResult } from '../engine/fanpays/score.ts';
import { FLOWER_BASE } from '../engine/tiles.ts';

const Wind = z.enum(['E', 'S', 'W', 'N']);
export const BatchContext = z.object({
  seat_wind: Wind.default('E'),
  prevalent_wind: Wind.default('E'),
  self_drawn: z.boolean().default(false),
  discarder: Wind.nullable().optional(),
  last_of_kind: z.boolean().default(false),
  robbing_kong: z.boolean().default(false),
  replacement_tile: z.boolean().default(false),
  last_tile_of_wall: z.boolean().default(false),
  flowers: z.number().int().min(0).max(8).default(0),
});

/** Card 002 ("fan-pays") lines: the MCR fields plus the table facts the card asks about. */
export const FanPaysBatchContext = BatchContext.extend({
  dealer: Wind.default('E'),
  dealer_streak: z.number().int().min(0).default(0),
  /** Flower numbers 1..8 (f1..f8) per seat. */
  flowers_by_seat: z.partialRecord(Wind, z.array(z.number().int().min(1).max(8))).default({}),
  flower_wall_win: z.boolean().default(false),
  first_discard_win: z.boolean().default(false),
  first_draw_win: z.boolean().default(false),
  dealer_opens_with_mj: z.boolean().default(false),
  claimed_first_dealer_discard: z.boolean().default(false),
  secret_kongs: z.array(Wind).default([]),
  fan_value: z.number().positive().default(1),
});

export function toFanPaysContext(c: z.infer<typeof FanPaysBatchContext>): FanPaysContext {
  const flowersBySeat: FanPaysContext['flowersBySeat'] = {};
  for (const [seat, list] of Object.entries(c.flowers_by_seat)) if (list) flowersBySeat[seat as keyof typeof flowersBySeat] = list.map((n) => FLOWER_BASE + n - 1);
  return {
    ...toWinContext(c), dealer: c.dealer, dealerStreak: c.dealer_streak, flowersBySeat, flowerWallWin: c.flower_wall_win,
    firstDiscardWin: c.first_discard_win, firstDrawWin: c.first_draw_win, dealerOpensWithMj: c.dealer_opens_with_mj,
    claimedFirstDealerDiscard: c.claimed_first_dealer_discard, secretKongs: c.secret_kongs, fanValue: c.fan_value,
  };
}

export interface BatchOut {
  id: unknown;
  valid_win: boolean;
  error_class: string | null;
  error?: string;
  total: number | null;
  total_without_flowers: number | null;
  fans: { id: number; points: number; count: number }[];
  /** Fan Pays lines only. */
  rules?: string;
  payments?: Payments | null;
  secret_kong_payments?: Payments | null;
  net_payments?: Payments | null;
}

export function toWinContext(c: z.infer<typeof BatchContext>): WinContext {
  return {
    seatWind: c.seat_wind, prevalentWind: c.prevalent_wind, selfDrawn: c.self_drawn,
    discarder: c.discarder ?? null, lastOfKind: c.last_of_kind, robbingKong: c.robbing_kong,
    replacementTile: c.replacement_tile, lastTileOfWall: c.last_tile_of_wall, flowers: c.flowers,
  };
}

export function resultToBatch(id: unknown, r: ScoreResult): BatchOut {
  const scored = r.error === null || r.error.code === 'BELOW_MINIMUM';
  return {
    id,
    valid_win: r.validWin,
    error_class: r.error ? r.error.code : null,
    ...(r.error ? { error: r.error.message } : {}),
    total: scored ? r.total : null,
    total_without_flowers: scored ? r.totalWithoutFlowers : null,
    fans: scored ? r.fans.map((f) => ({ id: f.id, points: f.points, count: f.count })) : [],
  };
}

function errorOut(id: unknown, e: MahjongError): BatchOut {
  return { id, valid_win: false, error_class: e.code, error: e.message, total: null, total_without_flowers: null, fans: [] };
}

/** The `score --json` object for input that could not be scored at all (bad notation, an impossible
 * win context): the shape of a result that is not a valid win, with the error's typed code. */
export function errorJson(text: string, e: MahjongError): { hand: string; validWin: false; error: { code: string; message: string; position?: number } } {
  return { hand: text, validWin: false, error: { code: e.code, message: e.message, ...(e.position !== undefined ? { position: e.position } : {}) } };
}

export function fanPaysResultToBatch(id: unknown, r: FanPaysResult): BatchOut {
  return {
    ...resultToBatch(id, r), rules: FAN_PAYS_ID, payments: r.payments,
    secret_kong_payments: r.validWin ? r.secretKongPayments : null, net_payments: r.netPayments,
  };
}

function scoreFanPaysLine(id: unknown, hand: string, context: unknown): BatchOut {
  const ctxParsed = FanPaysBatchContext.safeParse(context ?? {});
  if (!ctxParsed.success) {
    const issue = ctxParsed.error.issues[0]!;
    throw new MahjongError('INVALID_CONTEXT', `context.${issue.path.join('.')}: ${issue.message}`);
  }
  return fanPaysResultToBatch(id, scoreFanPays(parseHand(hand), toFanPaysContext(ctxParsed.data)));
}

/**
 * Scores one parsed JSON line. The line's `"rules"` ("mcr" or "fan-pays") wins
 * over `defaultRules` (the CLI's --rules).
 */
export function scoreLine(d: unknown, defaultRules = 'mcr'): BatchOut {
  const obj = (d && typeof d === 'object' ? d : {}) as Record<string, unknown>;
  const id = obj.id ?? null;
  try {
    if (typeof obj.hand !== 'string') throw new MahjongError('MALFORMED_NOTATION', 'the line has no "hand" string');
    const rules = obj.rules ?? defaultRules;
    if (rules === FAN_PAYS_ID) return scoreFanPaysLine(id, obj.hand, obj.context);
    if (rules !== 'mcr') throw new MahjongError('INVALID_CONTEXT', `unknown ruleset ${JSON.stringify(rules)} (known: mcr, ${FAN_PAYS_ID})`);
    const ctxParsed = BatchContext.safeParse(obj.context ?? {});
    if (!ctxParsed.success) {
      const issue = ctxParsed.error.issues[0]!;
      throw new MahjongError('INVALID_CONTEXT', `context.${issue.path.join('.')}: ${issue.message}`);
    }
    const hand = parseHand(obj.hand);
    return resultToBatch(id, scoreMcr(hand, toWinContext(ctxParsed.data)));
  } catch (e) {
    if (isMahjongError(e)) return errorOut(id, e);
    throw e;
  }
}

/** Scores one raw text line (invalid JSON becomes a typed error line). */
export function scoreRawLine(line: string, lineNo: number, defaultRules = 'mcr'): BatchOut {
  let d: unknown;
  try { d = JSON.parse(line); } catch {
    return errorOut(null, new MahjongError('MALFORMED_NOTATION', `line ${lineNo} is not valid JSON`));
  }
  return scoreLine(d, defaultRules);
}
