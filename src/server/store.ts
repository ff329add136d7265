/**
 * The event store: every read and write of events, tables, hands and flags, over the `Db`
 * adapter with parameterised SQL. The sheet rules (merge, re-scoring, standings) are the pure
 * functions of src/event; this file only loads and saves around them.
 */
import { isDeepStrictEqual } from 'node:util';
import { maxHands, type SheetHand, type SheetRules } from '../engine/sheet.ts';
import { applyOp, liveRows } from '../event/merge.ts';
import {
  EventApiError, formatCode, normalizeCode,
  type CreateEventBody, type EventBackup, type EventInfo, type Flag,
  type JoinReply, type Op, type OpsReply, type Resolution, type SeatingEntry, type Standings, type TableSheet,
} from '../event/protocol.ts';
import { assertValidHand, checkHand, checkSheet } from '../event/rescore.ts';
import { drawSeating, validateSeating } from '../event/seating.ts';
import { computeStandings, type StandingsSheet } from '../event/standings.ts';
import { exportBackup, importBackup } from './backup.ts';
import type { Db, Queryable } from './db.ts';
import {
  eventShape, flagFromRow, insertEvent, insertTables, json, notFound, num, rowToHand, syncFlag,
  type EventRow, type FlagDbRow, type HandDbRow,
} from './rows.ts';
import { cryptoRandom, newDirectorKey, newEventId, newTableToken, secretMatches, sha256 } from './secrets.ts';

/** The NOTIFY channel of event changes (PostgreSQL). */
const CHANGES_CHANNEL = 'mahjong_event_changes';

/** Who a bearer secret is. */
export type Caller = { role: 'director'; eventId: string } | { role: 'table'; eventId: string; session: number; table: number };

export type ChangeListener = (eventId: string) => void;

export class EventStore {
  private readonly listeners = new Set<ChangeListener>();
  private readonly standingsCache = new Map<string, { revision: number; standings: Standings }>();
  /** Table tokens already seen, by hash: a token never changes its table, so one look-up is enough. */
  private readonly tokenCache = new Map<string, { token_hash: string; event_id: string; session: number; tbl: number }>();

  private listening: Promise<void> | null = null;

  constructor(readonly db: Db) {}

  /** Called after every committed change of an event (the SSE stream listens), made by this
   * server or, on PostgreSQL, by any other server on the same database. */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    if (this.db.listen && !this.listening) {
      this.listening = this.db.listen(CHANGES_CHANNEL, (eventId) => this.tell(eventId)).catch((e: unknown) => {
        console.error(`event server: no LISTEN on ${CHANGES_CHANNEL} (${e instanceof Error ? e.message : String(e)}); standings streams hear this server only`);
      });
    }
    return () => this.listeners.delete(listener);
  }

  private tell(eventId: string): void {
    for (const l of this.listeners) l(eventId);
  }

  private changed(eventId: string): void {
    this.tell(eventId);
    // Other servers on the database hear it too; this one may hear it twice, which costs one
    // extra standings message at most (the stream coalesces changes).
    if (this.db.kind === 'postgres') {
      this.db.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, eventId]).catch((e: unknown) => {
        console.error(`event server: NOTIFY failed: ${e instanceof Error ? e.message : String(e)}`);
      });
    }
  }

  private async event(q: Queryable, eventId: string): Promise<EventRow> {
    const [row] = await q.query<EventRow & Record<string, unknown>>('SELECT * FROM events WHERE id = $1', [eventId]);
    if (!row) throw notFound(`event ${eventId}`);
    return row;
  }

  // ---- events and seating ----

  async createEvent(body: CreateEventBody, now = Date.now()): Promise<{ event: EventInfo; directorKey: string }> {
    const shape = eventShape(body.players, body.tables, body.sessions);
    const seating = body.seating ? validateSeating(body.seating, shape, true) : drawSeating(shape, cryptoRandom);
    const id = newEventId();
    const directorKey = newDirectorKey();
    await this.db.transaction(async (q) => {
      await insertEvent(q, { id, name: body.name, rules: body.rules, players: shape.players, tables: body.tables, sessions: body.sessions, directorKey, createdAt: now });
      await insertTables(q, id, seating);
    });
    return { event: await this.eventInfo(id), directorKey };
  }

  async eventInfo(eventId: string, q: Queryable = this.db): Promise<EventInfo> {
    const ev = await this.event(q, eventId);
    const tables = await q.query<{ session: number; tbl: number; code: string; players: string[] }>(
      'SELECT session, tbl, code, players FROM event_tables WHERE event_id = $1 ORDER BY session, tbl', [eventId],
    );
    return {
      id: ev.id, name: ev.name, rules: ev.rules, players: ev.players, tableCount: ev.table_count, sessionCount: ev.session_count,
      createdAt: num(ev.created_at),
      tables: tables.map((t) => ({ session: t.session, table: t.tbl, code: formatCode(t.code), players: t.players })),
    };
  }

  /** Re-seat sessions that have no hand yet. */
  async setSeating(eventId: string, entries: readonly SeatingEntry[]): Promise<EventInfo> {
    await this.db.transaction(async (q) => {
      const ev = await this.event(q, eventId);
      const seating = validateSeating(entries, { players: ev.players, tables: ev.table_count, sessions: ev.session_count }, false);
      const sessions = [...new Set(seating.map((e) => e.session))];
      for (const s of sessions) {
        const played = await q.query('SELECT 1 FROM hands WHERE event_id = $1 AND session = $2 LIMIT 1', [eventId, s]);
        if (played.length > 0) throw new EventApiError('SESSION_STARTED', 409, `session ${s} has hands on its sheets; its seating can no longer change`);
      }
      for (const e of seating) {
        await q.query('UPDATE event_tables SET players = $4::text::jsonb WHERE event_id = $1 AND session = $2 AND tbl = $3', [eventId, e.session, e.table, json(e.players)]);
      }
      await q.query('UPDATE events SET revision = revision + 1 WHERE id = $1', [eventId]);
    });
    this.changed(eventId);
    return this.eventInfo(eventId);
  }

  // ---- who is calling ----

  /** The caller a bearer secret stands for, for this event; null when it is neither. */
  async authenticate(eventId: string, secret: string): Promise<Caller | null> {
    if (secret.startsWith('dk_')) {
      const [row] = await this.db.query<{ director_hash: string }>('SELECT director_hash FROM events WHERE id = $1', [eventId]);
      return row && secretMatches(secret, row.director_hash) ? { role: 'director', eventId } : null;
    }
    if (secret.startsWith('tt_')) {
      const hash = sha256(secret);
      let row = this.tokenCache.get(hash);
      if (!row) {
        [row] = await this.db.query<{ token_hash: string; event_id: string; session: number; tbl: number }>(
          'SELECT token_hash, event_id, session, tbl FROM table_tokens WHERE token_hash = $1', [hash],
        );
        if (row) {
          if (this.tokenCache.size >= 10_000) this.tokenCache.clear();
          this.tokenCache.set(hash, row);
        }
      }
      if (!row || !secretMatches(secret, row.token_hash)) return null;
      // A token of another event is not a caller of this one.
      return row.event_id === eventId ? { role: 'table', eventId, session: row.session, table: row.tbl } : null;
    }
    return null;
  }

  async join(code: string, now = Date.now()): Promise<JoinReply> {
    const c = normalizeCode(code);
    const [t] = await this.db.query<{ event_id: string; session: number; tbl: number; players: string[]; name: string; rules: SheetRules }>(
      'SELECT t.event_id, t.session, t.tbl, t.players, e.name, e.rules FROM event_tables t JOIN events e ON e.id = t.event_id WHERE t.code = $1', [c],
    );
    if (!t) throw new EventApiError('UNKNOWN_CODE', 404, `no table has the code ${formatCode(c)}; check the card on the table`);
    const token = newTableToken();
    await this.db.query('INSERT INTO table_tokens (token_hash, event_id, session, tbl, created_at) VALUES ($1, $2, $3, $4, $5)', [sha256(token), t.event_id, t.session, t.tbl, now]);
    return { token, eventId: t.event_id, eventName: t.name, rules: t.rules, session: t.session, table: t.tbl, players: t.players };
  }

  // ---- sheets ----

  private async tableRow(q: Queryable, eventId: string, session: number, table: number, lock: boolean) {
    const [t] = await q.query<{ players: string[]; version: number; rules: SheetRules }>(
      `SELECT t.players, t.version, e.rules FROM event_tables t JOIN events e ON e.id = t.event_id
       WHERE t.event_id = $1 AND t.session = $2 AND t.tbl = $3${lock ? ' FOR UPDATE OF t' : ''}`,
      [eventId, session, table],
    );
    if (!t) throw notFound(`session ${session}, table ${table}`);
    return t;
  }

  private async sheet(q: Queryable, eventId: string, session: number, table: number): Promise<TableSheet> {
    const t = await this.tableRow(q, eventId, session, table, false);
    const rows = await q.query<HandDbRow & Record<string, unknown>>(
      'SELECT session, tbl, hand_id, hand, at, op_id, first_at, NULL AS photo, check_json FROM hands WHERE event_id = $1 AND session = $2 AND tbl = $3 AND hand IS NOT NULL',
      [eventId, session, table],
    );
    const checks = new Map(rows.map((r) => [r.hand_id, r.check_json]));
    return {
      session, table, players: t.players, rules: t.rules, version: t.version,
      hands: liveRows(rows.map(rowToHand)).map((r) => ({
        handId: r.handId, hand: r.hand as SheetHand, at: r.at,
        check: checks.get(r.handId) ?? checkHand(r.hand as SheetHand, t.rules),
      })),
    };
  }

  async getSheet(eventId: string, session: number, table: number): Promise<TableSheet> {
    return this.sheet(this.db, eventId, session, table);
  }

  /**
   * Apply a table's ops in one transaction, the table's row locked so two phones of one table
   * queue behind each other. Already applied opIds are acknowledged and change nothing.
   */
  async applyOps(eventId: string, session: number, table: number, ops: readonly Op[]): Promise<OpsReply> {
    const reply = await this.db.transaction(async (q) => {
      const t = await this.tableRow(q, eventId, session, table, true);
      ops.forEach((op, i) => { if (op.kind === 'put') assertValidHand(op.hand, t.rules, `ops[${i}].hand`); });
      const seen = new Set((await q.query<{ op_id: string }>(
        'SELECT op_id FROM applied_ops WHERE event_id = $1 AND session = $2 AND tbl = $3 AND op_id IN (SELECT jsonb_array_elements_text($4::text::jsonb))',
        [eventId, session, table, json([...new Set(ops.map((o) => o.opId))])],
      )).map((r) => r.op_id));
      // A sheet is at most 64 hands and their tombstones: load it whole, merge, and answer from it.
      const dbRows = await q.query<HandDbRow & Record<string, unknown>>(
        'SELECT session, tbl, hand_id, hand, at, op_id, first_at, photo, check_json FROM hands WHERE event_id = $1 AND session = $2 AND tbl = $3',
        [eventId, session, table],
      );
      const rows = new Map(dbRows.map((r) => [r.hand_id, rowToHand(r)]));
      const checks = new Map(dbRows.map((r) => [r.hand_id, r.check_json]));
      let liveCount = dbRows.filter((r) => r.hand !== null).length;
      const changed = new Set<string>();
      const fresh: string[] = [];
      ops.forEach((op, i) => {
        if (seen.has(op.opId)) return;
        seen.add(op.opId);
        fresh.push(op.opId);
        const before = rows.get(op.handId);
        const after = applyOp(before, op);
        const wasLive = before !== undefined && before.hand !== null;
        const isLive = after.hand !== null;
        if (!wasLive && isLive && liveCount >= maxHands(t.rules)) {
          throw new EventApiError('SHEET_FULL', 409, `ops[${i}]: the sheet already holds ${maxHands(t.rules)} hands; delete one before adding another`);
        }
        liveCount += (isLive ? 1 : 0) - (wasLive ? 1 : 0);
        if (after !== before) { rows.set(op.handId, after); changed.add(op.handId); }
      });
      if (changed.size > 0) {
        // Every hand is read again: a hand added or removed earlier moves the seats of those after it.
        const live = liveRows(rows.values());
        const fresher = new Map(checkSheet(live.map((r) => r.hand as SheetHand), t.rules).map((c, i) => [live[i].handId, c]));
        for (const [handId, r] of rows) {
          const check = fresher.get(handId) ?? null;
          if (changed.has(handId)) {
            await q.query(
              `INSERT INTO hands (event_id, session, tbl, hand_id, hand, at, op_id, first_at, photo, check_json)
               VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7, $8, $9, $10::text::jsonb)
               ON CONFLICT (event_id, session, tbl, hand_id) DO UPDATE SET hand = EXCLUDED.hand, at = EXCLUDED.at, op_id = EXCLUDED.op_id,
                 first_at = EXCLUDED.first_at, photo = EXCLUDED.photo, check_json = EXCLUDED.check_json`,
              [eventId, session, table, handId, r.hand ? json(r.hand) : null, r.at, r.opId, r.firstAt, r.photo ?? null, check ? json(check) : null],
            );
          } else if (isDeepStrictEqual(checks.get(handId) ?? null, check)) {
            continue;
          } else {
            await q.query(
              'UPDATE hands SET check_json = $5::text::jsonb WHERE event_id = $1 AND session = $2 AND tbl = $3 AND hand_id = $4',
              [eventId, session, table, handId, check ? json(check) : null],
            );
          }
          checks.set(handId, check);
          await syncFlag(q, eventId, session, table, handId, check);
        }
      }
      if (fresh.length > 0) {
        // One statement: the ops are recorded, the sheet's version and the event's revision move.
        await q.query(
          `WITH recorded AS (
             INSERT INTO applied_ops (event_id, session, tbl, op_id)
             SELECT $1, $2, $3, x FROM jsonb_array_elements_text($4::text::jsonb) AS x ON CONFLICT DO NOTHING),
           versioned AS (UPDATE event_tables SET version = version + $5 WHERE event_id = $1 AND session = $2 AND tbl = $3)
           UPDATE events SET revision = revision + 1 WHERE id = $1`,
          [eventId, session, table, json(fresh), fresh.length],
        );
      }
      const sheet: TableSheet = {
        session, table, players: t.players, rules: t.rules, version: t.version + fresh.length,
        hands: liveRows(rows.values()).map((r) => ({
          handId: r.handId, hand: r.hand as SheetHand, at: r.at, check: checks.get(r.handId) ?? checkHand(r.hand as SheetHand, t.rules),
        })),
      };
      return { applied: [...new Set(ops.map((o) => o.opId))], sheet, fresh: fresh.length };
    });
    if (reply.fresh > 0) this.changed(eventId);
    return { applied: reply.applied, sheet: reply.sheet };
  }

  // ---- flags ----

  async flags(eventId: string): Promise<Flag[]> {
    await this.event(this.db, eventId);
    const rows = await this.db.query<FlagDbRow & Record<string, unknown>>(
      `SELECT f.*, h.hand, h.photo FROM flags f JOIN hands h
         ON h.event_id = f.event_id AND h.session = f.session AND h.tbl = f.tbl AND h.hand_id = f.hand_id
       WHERE f.event_id = $1 AND h.hand IS NOT NULL ORDER BY f.session, f.tbl, f.created_at, f.id`, [eventId],
    );
    return rows.map(flagFromRow);
  }

  async resolveFlag(eventId: string, flagId: string, resolution: Resolution, note?: string): Promise<Flag> {
    const [updated] = await this.db.query<{ id: string }>(
      "UPDATE flags SET status = 'resolved', resolution = $3, note = $4 WHERE event_id = $1 AND id = $2 RETURNING id",
      [eventId, flagId, resolution, note ?? null],
    );
    if (!updated) throw notFound(`flag ${flagId}`);
    await this.db.query('UPDATE events SET revision = revision + 1 WHERE id = $1', [eventId]);
    this.changed(eventId);
    const flag = (await this.flags(eventId)).find((f) => f.id === flagId);
    if (!flag) throw notFound(`flag ${flagId}`);
    return flag;
  }

  // ---- standings ----

  async standings(eventId: string): Promise<Standings> {
    const ev = await this.event(this.db, eventId);
    const revision = num(ev.revision);
    const hit = this.standingsCache.get(eventId);
    if (hit && hit.revision === revision) return hit.standings;
    const [tables, hands, flags] = await Promise.all([
      this.db.query<{ session: number; tbl: number; players: string[] }>('SELECT session, tbl, players FROM event_tables WHERE event_id = $1', [eventId]),
      this.db.query<HandDbRow & Record<string, unknown>>(
        'SELECT session, tbl, hand_id, hand, at, op_id, first_at, NULL AS photo, check_json FROM hands WHERE event_id = $1 AND hand IS NOT NULL', [eventId],
      ),
      this.db.query<{ session: number; tbl: number; hand_id: string; resolution: Resolution | null }>(
        "SELECT session, tbl, hand_id, resolution FROM flags WHERE event_id = $1 AND status = 'resolved'", [eventId],
      ),
    ]);
    const key = (s: number, t: number) => `${s}/${t}`;
    const resolutions = new Map(flags.map((f) => [`${key(f.session, f.tbl)}/${f.hand_id}`, f.resolution ?? undefined]));
    const bySheet = new Map<string, HandDbRow[]>();
    for (const h of hands) bySheet.set(key(h.session, h.tbl), [...(bySheet.get(key(h.session, h.tbl)) ?? []), h]);
    const sheets: StandingsSheet[] = tables.map((t) => {
      const rows = bySheet.get(key(t.session, t.tbl)) ?? [];
      const checks = new Map(rows.map((r) => [r.hand_id, r.check_json]));
      return {
        session: t.session, table: t.tbl, players: t.players,
        entries: liveRows(rows.map(rowToHand)).map((r) => ({
          hand: r.hand as SheetHand,
          check: checks.get(r.handId) ?? checkHand(r.hand as SheetHand, ev.rules),
          resolution: resolutions.get(`${key(t.session, t.tbl)}/${r.handId}`),
        })),
      };
    });
    const standings = computeStandings({ eventId, name: ev.name, rules: ev.rules, players: ev.players, updatedAt: Date.now(), sheets });
    this.standingsCache.set(eventId, { revision, standings });
    return standings;
  }

  async exportBackup(eventId: string, now = Date.now()): Promise<EventBackup> {
    return exportBackup(this, eventId, now);
  }

  async importBackup(backup: EventBackup): Promise<{ event: EventInfo; directorKey: string }> {
    return importBackup(this, backup);
  }

  /** The session count of an event (the EMA CSV has a column group per session). */
  async sessionCount(eventId: string): Promise<number> {
    return (await this.event(this.db, eventId)).session_count;
  }
}
