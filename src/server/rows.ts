/**
 * The rows of the event tables as the store reads and writes them, and the writes shared by the
 * store and the backup import. Parameterised SQL only.
 */
import type { SheetHand, SheetRules } from '../engine/sheet.ts';
import type { HandRow } from '../event/merge.ts';
import { EventApiError, type Flag, type HandCheck, type Resolution, type SeatingEntry } from '../event/protocol.ts';
import type { EventShape } from '../event/seating.ts';
import type { Queryable } from './db.ts';
import { newFlagId, newTableCode, sha256 } from './secrets.ts';

export const notFound = (what: string): EventApiError => new EventApiError('NOT_FOUND', 404, `${what} not found`);
export const json = (v: unknown): string => JSON.stringify(v);
/** int8 arrives as a string from `postgres` and as a number from PGlite. */
export const num = (v: unknown): number => Number(v);

export interface EventRow {
  id: string; name: string; rules: SheetRules; players: string[];
  table_count: number; session_count: number; director_hash: string; created_at: unknown; revision: unknown;
}

export interface HandDbRow {
  session: number; tbl: number; hand_id: string; hand: SheetHand | null; at: unknown; op_id: string;
  first_at: unknown; photo: string | null; check_json: HandCheck | null;
}

export interface FlagDbRow {
  id: string; session: number; tbl: number; hand_id: string; server_points: number | null; table_points: number;
  reason: string; created_at: unknown; status: 'open' | 'resolved'; resolution: Resolution | null; note: string | null;
  hand: SheetHand; photo: string | null;
}

/** The hand columns read back into a merge row. */
export function rowToHand(r: HandDbRow): HandRow {
  const row: HandRow = { handId: r.hand_id, hand: r.hand, at: num(r.at), opId: r.op_id, firstAt: num(r.first_at) };
  if (r.photo !== null) row.photo = r.photo;
  return row;
}

export function flagFromRow(r: FlagDbRow): Flag {
  const flag: Flag = {
    id: r.id, session: r.session, table: r.tbl, handId: r.hand_id, hand: r.hand, tablePoints: r.table_points, reason: r.reason,
    createdAt: num(r.created_at), status: r.status,
  };
  if (r.server_points !== null) flag.serverPoints = r.server_points;
  if (r.photo !== null) flag.photo = r.photo;
  if (r.resolution !== null) flag.resolution = r.resolution;
  if (r.note !== null) flag.note = r.note;
  return flag;
}

/** Check the player list against the table count: 4 per table, each name once. */
export function eventShape(players: readonly string[], tables: number, sessions: number): EventShape {
  if (players.length !== tables * 4) {
    throw new EventApiError('BAD_REQUEST', 400, `players: ${tables} table(s) need ${tables * 4} players, ${players.length} given`);
  }
  const seen = new Set<string>();
  for (const p of players) {
    if (seen.has(p)) throw new EventApiError('BAD_REQUEST', 400, `players: "${p}" is listed twice`);
    seen.add(p);
  }
  return { players: [...players], tables, sessions };
}

/** One row per session and table, each with a fresh join code. */
export async function insertTables(q: Queryable, eventId: string, seating: readonly SeatingEntry[]): Promise<void> {
  for (const e of seating) {
    // A fresh code is unique with overwhelming odds (25^8); the retry covers the rest.
    for (let attempt = 0; ; attempt++) {
      const code = newTableCode();
      const clash = await q.query('SELECT 1 FROM event_tables WHERE code = $1', [code]);
      if (clash.length > 0 && attempt < 10) continue;
      await q.query('INSERT INTO event_tables (event_id, session, tbl, code, players) VALUES ($1, $2, $3, $4, $5::text::jsonb)', [eventId, e.session, e.table, code, json(e.players)]);
      break;
    }
  }
}

/** The event's own row; the director key is stored as its SHA-256. */
export async function insertEvent(
  q: Queryable,
  e: { id: string; name: string; rules: SheetRules; players: readonly string[]; tables: number; sessions: number; directorKey: string; createdAt: number },
): Promise<void> {
  await q.query(
    'INSERT INTO events (id, name, rules, players, table_count, session_count, director_hash, created_at) VALUES ($1, $2, $3, $4::text::jsonb, $5, $6, $7, $8)',
    [e.id, e.name, e.rules, json(e.players), e.tables, e.sessions, sha256(e.directorKey), e.createdAt],
  );
}

/**
 * Keep a hand's flag in step with its check: a flagged reading opens (or keeps) the flag; a
 * new reading reopens a resolved one; an agreeing or deleted hand has none.
 */
export async function syncFlag(q: Queryable, eventId: string, session: number, table: number, handId: string, check: HandCheck | null): Promise<void> {
  if (!check || check.status !== 'flagged') {
    await q.query('DELETE FROM flags WHERE event_id = $1 AND session = $2 AND tbl = $3 AND hand_id = $4', [eventId, session, table, handId]);
    return;
  }
  await q.query(
    `INSERT INTO flags (id, event_id, session, tbl, hand_id, server_points, table_points, reason, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (event_id, session, tbl, hand_id) DO UPDATE SET
       status = CASE WHEN flags.server_points IS NOT DISTINCT FROM EXCLUDED.server_points AND flags.table_points = EXCLUDED.table_points
                      AND flags.reason = EXCLUDED.reason THEN flags.status ELSE 'open' END,
       resolution = CASE WHEN flags.server_points IS NOT DISTINCT FROM EXCLUDED.server_points AND flags.table_points = EXCLUDED.table_points
                      AND flags.reason = EXCLUDED.reason THEN flags.resolution ELSE NULL END,
       server_points = EXCLUDED.server_points, table_points = EXCLUDED.table_points, reason = EXCLUDED.reason`,
    [newFlagId(), eventId, session, table, handId, check.serverPoints ?? null, check.tablePoints, check.reason ?? 'the readings differ', Date.now()],
  );
}
