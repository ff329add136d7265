/**
 * Seating: who plays at which table in each session. The CSV a director imports, the check that
 * a seating fits the event, and the seat draw. Pure; the draw takes its random source.
 */
import { EventApiError, type SeatingEntry } from './protocol.ts';

export interface EventShape {
  players: readonly string[];
  tables: number;
  sessions: number;
}

const seatingError = (message: string): EventApiError => new EventApiError('INVALID_SEATING', 400, message);

/** Split one CSV line: commas, double quotes around a field, `""` for a quote inside. */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { field += '"'; i++; } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field.trim() === '') { quoted = true; field = ''; } else if (ch === ',') { out.push(field.trim()); field = ''; } else field += ch;
  }
  out.push(field.trim());
  return out;
}

/**
 * Read `session,table,A,B,C,D` lines (a header line is optional; blank lines are skipped).
 * Throws EventApiError INVALID_SEATING naming the line.
 */
export function parseSeatingCsv(csv: string): SeatingEntry[] {
  const entries: SeatingEntry[] = [];
  const lines = csv.replace(/^\uFEFF/, '').split(/\r?\n/);
  let first = true;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const f = csvFields(line);
    const n = i + 1;
    const header = first && !/^\d+$/.test(f[0]);
    first = false;
    if (header) return;
    if (f.length !== 6) throw seatingError(`line ${n}: expected 6 fields (session,table,A,B,C,D), found ${f.length}`);
    const session = Number(f[0]);
    const table = Number(f[1]);
    if (!/^\d+$/.test(f[0]) || session < 1) throw seatingError(`line ${n}: the session "${f[0]}" is not a number from 1`);
    if (!/^\d+$/.test(f[1]) || table < 1) throw seatingError(`line ${n}: the table "${f[1]}" is not a number from 1`);
    const players = f.slice(2);
    players.forEach((p, k) => { if (p === '') throw seatingError(`line ${n}: seat ${'ABCD'[k]} has no player`); });
    entries.push({ session, table, players });
  });
  if (entries.length === 0) throw seatingError('the seating CSV has no table lines');
  return entries;
}

/**
 * Check that entries fit the event: known players, sessions and tables in range, and every
 * session given is complete (each table once, each player at exactly one table). Returns the
 * entries sorted by session and table. `wholeEvent` requires every session.
 */
export function validateSeating(entries: readonly SeatingEntry[], shape: EventShape, wholeEvent: boolean): SeatingEntry[] {
  const known = new Set(shape.players);
  const bySession = new Map<number, SeatingEntry[]>();
  for (const e of entries) {
    if (e.session > shape.sessions) throw seatingError(`session ${e.session}: the event has ${shape.sessions} session(s)`);
    if (e.table > shape.tables) throw seatingError(`session ${e.session}, table ${e.table}: the event has ${shape.tables} table(s)`);
    for (const p of e.players) {
      if (!known.has(p)) throw seatingError(`session ${e.session}, table ${e.table}: "${p}" is not a player of this event`);
    }
    const list = bySession.get(e.session) ?? [];
    list.push(e);
    bySession.set(e.session, list);
  }
  if (wholeEvent) {
    for (let s = 1; s <= shape.sessions; s++) if (!bySession.has(s)) throw seatingError(`session ${s} has no seating`);
  }
  for (const [session, list] of bySession) {
    const tables = new Set<number>();
    const seated = new Map<string, number>();
    for (const e of list) {
      if (tables.has(e.table)) throw seatingError(`session ${session}: table ${e.table} is seated twice`);
      tables.add(e.table);
      for (const p of e.players) {
        const other = seated.get(p);
        if (other !== undefined) throw seatingError(`session ${session}: "${p}" sits at table ${other} and table ${e.table}`);
        seated.set(p, e.table);
      }
    }
    for (let t = 1; t <= shape.tables; t++) if (!tables.has(t)) throw seatingError(`session ${session}: table ${t} has no players`);
  }
  return [...entries].sort((a, b) => a.session - b.session || a.table - b.table).map((e) => ({ ...e, players: [...e.players] }));
}

/** The seating as CSV (`session,table,A,B,C,D` with a header), quoting names that need it. */
export function seatingToCsv(entries: readonly SeatingEntry[]): string {
  const q = (v: string): string => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return ['session,table,A,B,C,D', ...entries.map((e) => [String(e.session), String(e.table), ...e.players.map(q)].join(','))].join('\n') + '\n';
}

/**
 * A fresh random seat draw for every session: the players shuffled (Fisher–Yates) and dealt
 * four to a table in seat order A B C D. `random` returns a number in [0, 1).
 */
export function drawSeating(shape: EventShape, random: () => number): SeatingEntry[] {
  if (shape.players.length !== shape.tables * 4) {
    throw seatingError(`${shape.tables} table(s) need ${shape.tables * 4} players, not ${shape.players.length}`);
  }
  const out: SeatingEntry[] = [];
  for (let s = 1; s <= shape.sessions; s++) {
    const order = [...shape.players];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (let t = 1; t <= shape.tables; t++) out.push({ session: s, table: t, players: order.slice((t - 1) * 4, t * 4) });
  }
  return out;
}
