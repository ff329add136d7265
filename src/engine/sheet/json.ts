/**
 * The game-record JSON: the CLI input and the app's export/import format.
 *
 * {"players": [4 names in East-round seat order],
 *  "hands": [{"winner", "discarder" | "self_drawn": true, "points", "penalties": [...]}
 *            | {"draw": true, "penalties": [...]}]}
 * Players are named, not numbered, so a file reads like the paper sheet.
 */
import * as z from 'zod/mini';
import {
  SheetError, maxHands,
  type Penalty, type PlayerIndex, type SheetHand, type SheetMeta, type SheetRecord, type WinHand,
} from './record.ts';
import { validatePlayers, validateSheetRecord } from './validation.ts';

const penaltyJson = z.object({
  player: z.string(),
  points: z.number(),
  split: z.boolean(),
});

const handJson = z.object({
  draw: z.optional(z.boolean()),
  winner: z.optional(z.string()),
  discarder: z.optional(z.nullable(z.string())),
  self_drawn: z.optional(z.boolean()),
  points: z.optional(z.number()),
  source: z.optional(z.enum(['scored', 'typed'])),
  link: z.optional(z.string()),
  amounts: z.optional(z.array(z.number())),
  penalties: z.optional(z.array(penaltyJson)),
});

const metaJson = z.object({
  tournament: z.optional(z.string()),
  date: z.optional(z.string()),
  session: z.optional(z.string()),
  table: z.optional(z.string()),
});

/** Zod schema of the game-record JSON (shape only; `parseGameRecord` checks the meaning). */
export const gameRecordSchema = z.object({
  format: z.optional(z.literal('mahjong-score-sheet')),
  version: z.optional(z.literal(1)),
  rules: z.optional(z.enum(['mcr', 'fan-pays'])),
  players: z.array(z.string()),
  meta: z.optional(metaJson),
  hands: z.array(handJson),
});

export type GameRecordJson = z.infer<typeof gameRecordSchema>;
type HandJson = z.infer<typeof handJson>;

function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'string' ? 'text' : `a ${typeof v}`;
}

/** What a zod issue expected, in words (zod/mini carries no message texts). */
function issueMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type': return `expected ${issue.expected === 'array' ? 'a list' : issue.expected}`;
    case 'invalid_value': return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default: return issue.code.replace(/_/g, ' ');
  }
}

/** Turn the first zod issue into a SheetError naming the hand and the field. */
function zodToSheetError(error: z.core.$ZodError, input: unknown): SheetError {
  const issue = error.issues[0];
  const path = issue.path;
  let value: unknown = input;
  for (const key of path) value = value != null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  const missing = value === undefined;
  const detail = missing ? 'this field is missing' : `unexpected value (${describeType(value)}): ${issueMessage(issue)}`;
  if (path[0] === 'hands' && typeof path[1] === 'number') {
    return new SheetError(missing ? 'MISSING_FIELD' : 'MALFORMED_RECORD', detail, { hand: path[1] + 1, field: fieldPath(path.slice(2)) || 'hands' });
  }
  return new SheetError(missing ? 'MISSING_FIELD' : 'MALFORMED_RECORD', detail, { field: fieldPath(path) || null });
}

function handFromJson(h: HandJson, index: number, players: string[]): SheetHand {
  const n = index + 1;
  const who = (name: string, field: string): PlayerIndex => {
    const p = players.indexOf(name.trim());
    if (p < 0) throw new SheetError('UNKNOWN_PLAYER', `"${name}" is not one of the players (${players.join(', ')})`, { hand: n, field });
    return p;
  };
  const penalties: Penalty[] = (h.penalties ?? []).map((pen, i) => ({
    player: who(pen.player, `penalties[${i}].player`),
    points: pen.points,
    split: pen.split,
  }));
  if (h.draw === true) {
    for (const f of ['winner', 'discarder', 'self_drawn', 'points'] as const) {
      if (h[f] !== undefined && h[f] !== null) {
        throw new SheetError('CONFLICTING_FIELDS', `a draw has no ${f.replace('_', '-')}`, { hand: n, field: f });
      }
    }
    return { kind: 'draw', penalties };
  }
  if (h.winner === undefined) {
    throw new SheetError('MISSING_FIELD', 'a hand needs a "winner" (or "draw": true)', { hand: n, field: 'winner' });
  }
  const winner = who(h.winner, 'winner');
  const selfDrawn = h.self_drawn === true;
  let discarder: PlayerIndex | null = null;
  if (selfDrawn) {
    if (h.discarder !== undefined && h.discarder !== null) {
      throw new SheetError('CONFLICTING_FIELDS', 'a self-drawn win has no discarder', { hand: n, field: 'discarder' });
    }
  } else {
    if (h.discarder === undefined || h.discarder === null) {
      throw new SheetError('MISSING_FIELD', 'say who discarded the winning tile, or set "self_drawn": true', { hand: n, field: 'discarder' });
    }
    discarder = who(h.discarder, 'discarder');
  }
  if (h.points === undefined) {
    throw new SheetError('MISSING_FIELD', 'a win needs its "points"', { hand: n, field: 'points' });
  }
  const hand: WinHand = {
    kind: 'win',
    winner,
    selfDrawn,
    discarder,
    points: h.points,
    source: h.source ?? 'typed',
    penalties,
  };
  if (h.link !== undefined) hand.link = h.link;
  if (h.amounts !== undefined) hand.amounts = [...h.amounts];
  return hand;
}

/** Read a game record (parsed JSON) into a validated SheetRecord. Throws SheetError. */
export function parseGameRecord(input: unknown): SheetRecord {
  const parsed = gameRecordSchema.safeParse(input);
  if (!parsed.success) throw zodToSheetError(parsed.error, input);
  const json = parsed.data;
  const players = validatePlayers(json.players);
  const most = maxHands(json.rules === 'fan-pays' ? 'fan-pays' : 'mcr');
  if (json.hands.length > most) {
    throw new SheetError('TOO_MANY_HANDS', `a sheet holds at most ${most} hands, this one has ${json.hands.length}`, { hand: most + 1, field: 'hands' });
  }
  const hands = json.hands.map((h, i) => handFromJson(h, i, players));
  const meta: SheetMeta = {};
  for (const k of ['tournament', 'date', 'session', 'table'] as const) {
    const v = json.meta?.[k];
    if (v !== undefined) meta[k] = v;
  }
  const record: SheetRecord = { players, hands, meta };
  if (json.rules === 'fan-pays') record.rules = json.rules;
  validateSheetRecord(record);
  return record;
}

/** Parse game-record JSON text. Throws SheetError (also for text that is not JSON). */
export function parseSheetJson(text: string): SheetRecord {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SheetError('MALFORMED_RECORD', `not valid JSON (${(e as Error).message})`);
  }
  return parseGameRecord(data);
}

/** The record as game-record JSON (the CLI reads it; `parseSheetJson` reads it back). */
export function sheetToGameRecord(record: SheetRecord): GameRecordJson {
  const name = (p: PlayerIndex): string => record.players[p];
  const penalties = (ps: Penalty[]) => ps.map((pen) => ({ player: name(pen.player), points: pen.points, split: pen.split }));
  return {
    format: 'mahjong-score-sheet',
    version: 1,
    ...(record.rules && record.rules !== 'mcr' ? { rules: record.rules } : {}),
    players: [...record.players],
    meta: { ...record.meta },
    hands: record.hands.map((h): HandJson => {
      if (h.kind === 'draw') return { draw: true, penalties: penalties(h.penalties) };
      const out: HandJson = { winner: name(h.winner) };
      if (h.selfDrawn) out.self_drawn = true;
      else out.discarder = name(h.discarder as PlayerIndex);
      out.points = h.points;
      out.source = h.source;
      if (h.link !== undefined) out.link = h.link;
      if (h.amounts !== undefined) out.amounts = [...h.amounts];
      out.penalties = penalties(h.penalties);
      return out;
    }),
  };
}

export function sheetToJson(record: SheetRecord): string {
  return `${JSON.stringify(sheetToGameRecord(record), null, 2)}\n`;
}
