/**
 * Batch scoring over JSON lines (the conformance format of ../shared/conformance):
 * one input object -> one output object, never a throw.
 */
import { z } from 'zod';
import { isMahjongError, MahjongError } from '../engine/errors.ts';
import type { WinContext } from '../engine/hand.ts';
import { parseHand } from '../engine/notation.ts';
import { scoreMcr } from '../engine/mcr/score.ts';
import type { ScoreResult } from '../engine/result.ts';

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

export interface BatchOut {
  id: unknown;
  valid_win: boolean;
  error_class: string | null;
  error?: string;
  total: number | null;
  total_without_flowers: number | null;
  fans: { id: number; points: number; count: number }[];
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

/** Scores one parsed JSON line. */
export function scoreLine(d: unknown): BatchOut {
  const obj = (d && typeof d === 'object' ? d : {}) as Record<string, unknown>;
  const id = obj.id ?? null;
  try {
    if (typeof obj.hand !== 'string') throw new MahjongError('MALFORMED_NOTATION', 'the line has no "hand" string');
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
export function scoreRawLine(line: string, lineNo: number): BatchOut {
  let d: unknown;
  try { d = JSON.parse(line); } catch {
    return errorOut(null, new MahjongError('MALFORMED_NOTATION', `line ${lineNo} is not valid JSON`));
  }
  return scoreLine(d);
}
