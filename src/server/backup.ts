/**
 * The event backup (docs/event-api.md, EventBackup): export of the whole event, and import as a
 * new event with its own id, director key and table codes, every hand re-scored.
 */
import { maxHands, type SheetHand } from '../engine/sheet.ts';
import { liveRows } from '../event/merge.ts';
import { EventApiError, type BackupHand, type EventBackup, type EventInfo, type Resolution } from '../event/protocol.ts';
import { assertValidHand, checkSheet } from '../event/rescore.ts';
import { validateSeating } from '../event/seating.ts';
import { eventShape, insertEvent, insertTables, json, rowToHand, syncFlag, type HandDbRow } from './rows.ts';
import { newDirectorKey, newEventId } from './secrets.ts';
import type { EventStore } from './store.ts';


/** The whole event: seating, every hand row (tombstones too) and the referee's decisions. */
export async function exportBackup(store: EventStore, eventId: string, now = Date.now()): Promise<EventBackup> {
  const info = await store.eventInfo(eventId);
  const hands = await store.db.query<HandDbRow & Record<string, unknown>>(
    'SELECT session, tbl, hand_id, hand, at, op_id, first_at, photo, check_json FROM hands WHERE event_id = $1 ORDER BY session, tbl, first_at, hand_id', [eventId],
  );
  const resolved = await store.db.query<{ session: number; tbl: number; hand_id: string; resolution: Resolution; note: string | null }>(
    "SELECT session, tbl, hand_id, resolution, note FROM flags WHERE event_id = $1 AND status = 'resolved' ORDER BY session, tbl, hand_id", [eventId],
  );
  return {
    format: 'mahjong-event-backup',
    version: 1,
    exportedAt: now,
    event: {
      name: info.name, rules: info.rules, players: info.players, tables: info.tableCount, sessions: info.sessionCount,
      createdAt: info.createdAt, seating: info.tables.map((t) => ({ session: t.session, table: t.table, players: t.players })),
    },
    sheets: info.tables.map((t) => ({
      session: t.session,
      table: t.table,
      hands: hands.filter((h) => h.session === t.session && h.tbl === t.table).map((h): BackupHand => {
        const r = rowToHand(h);
        return { handId: r.handId, hand: r.hand, at: r.at, opId: r.opId, firstAt: r.firstAt, ...(r.photo !== undefined ? { photo: r.photo } : {}) };
      }),
    })),
    resolutions: resolved.map((f) => ({ session: f.session, table: f.tbl, handId: f.hand_id, resolution: f.resolution, ...(f.note !== null ? { note: f.note } : {}) })),
  };
}

/** A new event (new id, key and codes) from a backup; every hand is re-scored. */
export async function importBackup(store: EventStore, backup: EventBackup): Promise<{ event: EventInfo; directorKey: string }> {
  const ev = backup.event;
  const shape = eventShape(ev.players, ev.tables, ev.sessions);
  const seating = validateSeating(ev.seating, shape, true);
  const sheetKeys = new Set<string>();
  for (const s of backup.sheets) {
    if (s.session > ev.sessions || s.table > ev.tables) throw new EventApiError('BAD_REQUEST', 400, `sheets: session ${s.session}, table ${s.table} is not in the event`);
    if (sheetKeys.has(`${s.session}/${s.table}`)) throw new EventApiError('BAD_REQUEST', 400, `sheets: session ${s.session}, table ${s.table} appears twice`);
    sheetKeys.add(`${s.session}/${s.table}`);
    const ids = new Set<string>();
    s.hands.forEach((h, i) => {
      if (ids.has(h.handId)) throw new EventApiError('BAD_REQUEST', 400, `sheets: session ${s.session}, table ${s.table}: hand ${h.handId} appears twice`);
      ids.add(h.handId);
      if (h.hand) assertValidHand(h.hand, ev.rules, `sheets (session ${s.session}, table ${s.table}) hands[${i}]`);
    });
    if (s.hands.filter((h) => h.hand).length > maxHands(ev.rules)) {
      throw new EventApiError('BAD_REQUEST', 400, `sheets: session ${s.session}, table ${s.table} has more than ${maxHands(ev.rules)} hands`);
    }
  }
  const id = newEventId();
  const directorKey = newDirectorKey();
  await store.db.transaction(async (q) => {
    await insertEvent(q, { id, name: ev.name, rules: ev.rules, players: shape.players, tables: ev.tables, sessions: ev.sessions, directorKey, createdAt: ev.createdAt });
    await insertTables(q, id, seating);
    for (const s of backup.sheets) {
      const live = liveRows(s.hands.map((h) => ({ ...h })));
      const checks = new Map(checkSheet(live.map((r) => r.hand as SheetHand), ev.rules).map((c, i) => [live[i].handId, c]));
      for (const h of s.hands) {
        const check = checks.get(h.handId) ?? null;
        await q.query(
          `INSERT INTO hands (event_id, session, tbl, hand_id, hand, at, op_id, first_at, photo, check_json)
           VALUES ($1, $2, $3, $4, $5::text::jsonb, $6, $7, $8, $9, $10::text::jsonb)`,
          [id, s.session, s.table, h.handId, h.hand ? json(h.hand) : null, h.at, h.opId, h.firstAt, h.photo ?? null, check ? json(check) : null],
        );
        await q.query('INSERT INTO applied_ops (event_id, session, tbl, op_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [id, s.session, s.table, h.opId]);
        await syncFlag(q, id, s.session, s.table, h.handId, check);
      }
      await q.query('UPDATE event_tables SET version = $4 WHERE event_id = $1 AND session = $2 AND tbl = $3', [id, s.session, s.table, s.hands.length]);
    }
    for (const r of backup.resolutions) {
      await q.query(
        "UPDATE flags SET status = 'resolved', resolution = $5, note = $6 WHERE event_id = $1 AND session = $2 AND tbl = $3 AND hand_id = $4",
        [id, r.session, r.table, r.handId, r.resolution, r.note ?? null],
      );
    }
  });
  return { event: await store.eventInfo(id), directorKey };
}
