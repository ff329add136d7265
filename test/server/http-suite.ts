/**
 * The event API tests, written once and run on each database (http.test.ts: PGlite in memory,
 * and PostgreSQL when TEST_DATABASE_URL is set). Requests go through the whole Hono app
 * (app.request), as a phone's fetch would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { createApp } from '../../src/server/app.ts';
import { migrate, type Db } from '../../src/server/db.ts';
import { EventStore } from '../../src/server/store.ts';
import type { CreateEventReply, EventBackup, Flag, JoinReply, Op, OpsReply, PutOp, Standings, TableSheet } from '../../src/event/protocol.ts';
import { computeSheet, type SheetHand } from '../../src/engine/sheet.ts';
import { DRAW, LINKED, names, scoredWin, typedWin } from './fixtures.ts';

type Json = Record<string, unknown>;

export function eventApiSuite(label: string, open: () => Promise<Db>): void {
  describe(`event API on ${label}`, () => {
    let db: Db;
    let app: Hono;
    let seq = 0;

    beforeAll(async () => {
      db = await open();
      app = createApp({ store: new EventStore(db), joinLimit: { max: 1000, windowMs: 60_000 }, createLimit: { max: 1000, windowMs: 60_000 } });
    }, 60_000); // PGlite starts its PostgreSQL in wasm: seconds on a loaded machine
    afterAll(async () => { await db?.close(); });

    async function call<T = Json>(method: string, path: string, body?: unknown, auth?: string): Promise<{ status: number; body: T; text: string; headers: Headers }> {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (auth) headers.authorization = `Bearer ${auth}`;
      const res = await app.request(path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
      const text = await res.text();
      let parsed: unknown = text;
      try { parsed = JSON.parse(text); } catch { /* CSV */ }
      return { status: res.status, body: parsed as T, text, headers: res.headers };
    }

    const opId = () => `op-${label.replace(/\W/g, '')}-${String(++seq).padStart(6, '0')}`;
    const putOp = (handId: string, hand: SheetHand, at: number): PutOp => ({ opId: opId(), kind: 'put', handId, at, hand });

    async function newEvent(tables = 2, sessions = 2): Promise<CreateEventReply & { players: string[] }> {
      const players = names(tables * 4);
      const r = await call<CreateEventReply>('POST', '/api/events', { name: 'Spring club event', rules: 'mcr', players, tables, sessions });
      expect(r.status).toBe(201);
      return { ...r.body, players };
    }

    async function join(event: CreateEventReply, session: number, table: number): Promise<JoinReply> {
      const code = event.event.tables.find((t) => t.session === session && t.table === table)!.code;
      const r = await call<JoinReply>('POST', '/api/join', { code: code.toLowerCase() });
      expect(r.status).toBe(200);
      return r.body;
    }

    const opsPath = (ev: CreateEventReply, s: number, t: number) => `/api/events/${ev.event.id}/tables/${s}/${t}/ops`;

    it('reports its database, and its migrations run once', async () => {
      expect((await call('GET', '/api/health')).body).toEqual({ ok: true, db: db.kind });
      expect(await migrate(db)).toEqual([]);
      const applied = await db.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(applied.map((r) => r.id)).toEqual([1]);
    });

    it('refuses an oversized body before reading it', async () => {
      const r = await call('POST', '/api/join', { code: 'x'.repeat(70 * 1024) });
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'the body is larger than 64 KB' } });
    });

    it('creates an event with a seat draw, a code per table, and a key shown once', async () => {
      const ev = await newEvent(2, 3);
      expect(ev.directorKey).toMatch(/^dk_[A-Za-z0-9_-]{43}$/);
      expect(ev.event).toMatchObject({ name: 'Spring club event', rules: 'mcr', tableCount: 2, sessionCount: 3 });
      expect(ev.event.tables).toHaveLength(6);
      for (const t of ev.event.tables) expect(t.code).toMatch(/^[34679ACDEFGHJKMNPQRTUVWXY]{4}-[34679ACDEFGHJKMNPQRTUVWXY]{4}$/);
      for (let s = 1; s <= 3; s++) {
        expect(ev.event.tables.filter((t) => t.session === s).flatMap((t) => t.players).sort()).toEqual(ev.players);
      }
      // Only the hash is stored.
      const [row] = await db.query<{ director_hash: string }>('SELECT director_hash FROM events WHERE id = $1', [ev.event.id]);
      expect(row.director_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(ev.directorKey);
      const got = await call('GET', `/api/events/${ev.event.id}`, undefined, ev.directorKey);
      expect(got.body).toEqual({ event: ev.event });
    });

    it('refuses bad events with a typed error naming the problem', async () => {
      const bad = await call('POST', '/api/events', { name: 'x', rules: 'mcr', players: names(7), tables: 2, sessions: 1 });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: { code: 'BAD_REQUEST', message: 'players: 2 table(s) need 8 players, 7 given' } });
      const notJson = await call('POST', '/api/events', '{"name": ');
      expect(notJson.body).toEqual({ error: { code: 'BAD_REQUEST', message: 'the body is not JSON' } });
      const rules = await call('POST', '/api/events', { name: 'x', rules: 'riichi', players: names(4), tables: 1, sessions: 1 });
      expect(rules.body).toEqual({ error: { code: 'BAD_REQUEST', message: 'body: rules: expected one of "mcr", "fan-pays"' } });
      expect((await call('GET', '/api/events/ev_nosuchevent000000')).status).toBe(401);
      expect((await call('GET', '/api/events/../../etc/passwd')).status).toBe(404);
    });

    it('takes the seating as CSV before a session starts, and not after', async () => {
      const ev = await newEvent(2, 2);
      const p = ev.players;
      const csv = `session,table,A,B,C,D\n2,1,${p[7]},${p[6]},${p[5]},${p[4]}\n2,2,${p[3]},${p[2]},${p[1]},${p[0]}\n`;
      const r = await call<{ event: CreateEventReply['event'] }>('PUT', `/api/events/${ev.event.id}/seating`, { csv }, ev.directorKey);
      expect(r.status).toBe(200);
      expect(r.body.event.tables.find((t) => t.session === 2 && t.table === 1)?.players).toEqual([p[7], p[6], p[5], p[4]]);
      const wrong = await call('PUT', `/api/events/${ev.event.id}/seating`, { csv: '2,1,a,b,c,d' }, ev.directorKey);
      expect(wrong.body).toEqual({ error: { code: 'INVALID_SEATING', message: 'session 2, table 1: "a" is not a player of this event' } });
      const table = await join(ev, 2, 1);
      await call('POST', opsPath(ev, 2, 1), { ops: [putOp('hand-s2t1-01', DRAW, 1)] }, table.token);
      const late = await call('PUT', `/api/events/${ev.event.id}/seating`, { csv }, ev.directorKey);
      expect(late.status).toBe(409);
      expect((late.body as { error: { code: string } }).error.code).toBe('SESSION_STARTED');
      const byTable = await call('PUT', `/api/events/${ev.event.id}/seating`, { csv }, table.token);
      expect(byTable.status).toBe(403);
    });

    it('a table code writes that table only: no cross-table or cross-event writes', async () => {
      const ev = await newEvent(2, 2);
      const other = await newEvent(1, 1);
      const t11 = await join(ev, 1, 1);
      expect(t11).toMatchObject({ eventId: ev.event.id, eventName: 'Spring club event', rules: 'mcr', session: 1, table: 1 });
      expect(t11.token).toMatch(/^tt_/);
      const ops = { ops: [putOp('hand-cross-01', typedWin(0, 8, 1), 1)] };
      for (const [s, t] of [[1, 2], [2, 1], [2, 2]]) {
        const r = await call('POST', opsPath(ev, s, t), ops, t11.token);
        expect(r.status).toBe(403);
        expect((r.body as { error: { code: string } }).error.code).toBe('FORBIDDEN');
      }
      expect((await call('POST', opsPath(other, 1, 1), ops, t11.token)).status).toBe(401);
      expect((await call('POST', opsPath(ev, 1, 2), ops, ev.directorKey)).status).toBe(403);
      expect((await call('POST', opsPath(ev, 1, 1), ops)).status).toBe(401);
      expect((await call('POST', opsPath(ev, 1, 1), ops, `${t11.token.slice(0, -2)}xx`)).status).toBe(401);
      // Nothing was written anywhere but where allowed.
      const [{ n }] = await db.query<{ n: unknown }>('SELECT count(*) AS n FROM hands WHERE event_id IN ($1, $2)', [ev.event.id, other.event.id]);
      expect(Number(n)).toBe(0);
      expect((await call('GET', `/api/events/${ev.event.id}/tables/1/2`, undefined, t11.token)).status).toBe(403);
      expect((await call('GET', `/api/events/${ev.event.id}/flags`, undefined, t11.token)).status).toBe(403);
      expect((await call('GET', `/api/events/${ev.event.id}/export/backup.json`, undefined, t11.token)).status).toBe(403);
      expect((await call('POST', '/api/join', { code: 'AAAA-AAAA' })).body).toEqual({ error: { code: 'UNKNOWN_CODE', message: 'no table has the code AAAA-AAAA; check the card on the table' } });
    });

    it('applies ops once: a retry is acknowledged and counts nothing twice; two phones converge', async () => {
      const ev = await newEvent(1, 1);
      const phone1 = await join(ev, 1, 1);
      const phone2 = await join(ev, 1, 1);
      const a = putOp('hand-conv-01', scoredWin(0, 0), 100);
      const b = putOp('hand-conv-02', typedWin(1, 12, 2), 200);
      const r1 = await call<OpsReply>('POST', opsPath(ev, 1, 1), { ops: [a, b] }, phone1.token);
      expect(r1.status).toBe(200);
      expect(r1.body.applied).toEqual([a.opId, b.opId]);
      expect(r1.body.sheet.version).toBe(2);
      // The second phone edits hand 2 later, and retries phone 1's batch it never saw acknowledged.
      const edit = putOp('hand-conv-02', typedWin(1, 16, 2), 300);
      const r2 = await call<OpsReply>('POST', opsPath(ev, 1, 1), { ops: [edit, a, b, a] }, phone2.token);
      expect(r2.body.applied).toEqual([edit.opId, a.opId, b.opId]);
      expect(r2.body.sheet.version).toBe(3);
      // Phone 1's stale edit of hand 2 (older `at`) loses; the sheet is the same on both phones.
      const stale = putOp('hand-conv-02', typedWin(1, 9, 2), 250);
      const r3 = await call<OpsReply>('POST', opsPath(ev, 1, 1), { ops: [stale] }, phone1.token);
      const sheet1 = r3.body.sheet;
      const sheet2 = (await call<{ sheet: TableSheet }>('GET', `/api/events/${ev.event.id}/tables/1/1`, undefined, phone2.token)).body.sheet;
      expect(sheet1).toEqual(sheet2);
      expect(sheet1.hands.map((h) => [h.handId, h.hand.kind === 'win' ? h.hand.points : 0, h.check.status])).toEqual([
        ['hand-conv-01', LINKED[0].total, 'ok'], ['hand-conv-02', 16, 'typed'],
      ]);
      // Delete, then a late put of an older edit cannot bring it back.
      const gone = await call<OpsReply>('POST', opsPath(ev, 1, 1), { ops: [{ opId: opId(), kind: 'delete', handId: 'hand-conv-01', at: 400 }, putOp('hand-conv-01', scoredWin(0, 0), 350)] }, phone2.token);
      expect(gone.body.sheet.hands.map((h) => h.handId)).toEqual(['hand-conv-02']);
      const [{ n }] = await db.query<{ n: unknown }>('SELECT count(*) AS n FROM applied_ops WHERE event_id = $1', [ev.event.id]);
      expect(Number(n)).toBe(6);
    });

    it('refuses a hand that breaks the sheet rules, and a 17th hand', async () => {
      const ev = await newEvent(1, 1);
      const t = await join(ev, 1, 1);
      const low = await call('POST', opsPath(ev, 1, 1), { ops: [putOp('hand-low-0001', typedWin(0, 5, 1), 1)] }, t.token);
      expect(low.status).toBe(400);
      expect(low.body).toEqual({ error: { code: 'INVALID_HAND', message: 'ops[0].hand: field "points": a win needs at least 8 points (got 5)' } });
      const self = await call('POST', opsPath(ev, 1, 1), { ops: [putOp('hand-low-0002', typedWin(0, 8, 0), 1)] }, t.token);
      expect((self.body as { error: { code: string } }).error.code).toBe('INVALID_HAND');
      const sixteen = Array.from({ length: 16 }, (_, i) => putOp(`hand-full-${String(i).padStart(4, '0')}`, DRAW, i + 1));
      expect((await call('POST', opsPath(ev, 1, 1), { ops: sixteen }, t.token)).status).toBe(200);
      const more = await call('POST', opsPath(ev, 1, 1), { ops: [putOp('hand-full-0099', DRAW, 99)] }, t.token);
      expect(more.status).toBe(409);
      expect((more.body as { error: { code: string } }).error.code).toBe('SHEET_FULL');
      // An edit of a hand already there is fine on a full sheet.
      expect((await call('POST', opsPath(ev, 1, 1), { ops: [putOp('hand-full-0003', typedWin(0, 8, 1), 50)] }, t.token)).status).toBe(200);
    });

    it('re-scores every hand, flags a wrong total for the referee, and the standings use the right reading', async () => {
      const ev = await newEvent(1, 1);
      const t = await join(ev, 1, 1);
      const photo = 'data:image/jpeg;base64,/9j/AAAA';
      const wrong: Op = { ...putOp('hand-flag-0001', scoredWin(1, 0, { points: 30, discarder: 1 }), 10), photo };
      const r = await call<OpsReply>('POST', opsPath(ev, 1, 1), { ops: [wrong, putOp('hand-flag-0002', typedWin(3, 8), 20)] }, t.token);
      expect(r.body.sheet.hands[0].check).toEqual({ status: 'flagged', serverPoints: LINKED[1].total, tablePoints: 30, reason: `the table wrote 30, the engine scores the tiles ${LINKED[1].total}` });
      const flags = await call<{ flags: Flag[] }>('GET', `/api/events/${ev.event.id}/flags`, undefined, ev.directorKey);
      expect(flags.body.flags).toHaveLength(1);
      const flag = flags.body.flags[0];
      expect(flag).toMatchObject({ handId: 'hand-flag-0001', session: 1, table: 1, serverPoints: LINKED[1].total, tablePoints: 30, status: 'open', photo });
      const players = ev.event.tables[0].players;
      const expectStandings = async (points: number) => {
        const st = (await call<Standings>('GET', `/api/events/${ev.event.id}/standings`)).body;
        const sheet = computeSheet({ players, hands: [{ ...(scoredWin(1, 0, { discarder: 1 }) as Extract<SheetHand, { kind: 'win' }>), points }, typedWin(3, 8)], meta: {} });
        for (const p of st.players) expect(p.score).toBe(sheet.totals[players.indexOf(p.name)]);
        return st;
      };
      await expectStandings(LINKED[1].total);
      const resolved = await call<{ flag: Flag }>('POST', `/api/events/${ev.event.id}/flags/${flag.id}`, { resolution: 'accept-table', note: 'tiles misread' }, ev.directorKey);
      expect(resolved.body.flag).toMatchObject({ status: 'resolved', resolution: 'accept-table', note: 'tiles misread' });
      await expectStandings(30);
      // The table corrects the hand to the engine's total: the flag goes away.
      await call('POST', opsPath(ev, 1, 1), { ops: [putOp('hand-flag-0001', scoredWin(1, 0, { discarder: 1 }), 30)] }, t.token);
      expect((await call<{ flags: Flag[] }>('GET', `/api/events/${ev.event.id}/flags`, undefined, ev.directorKey)).body.flags).toEqual([]);
      await expectStandings(LINKED[1].total);
      const badFlag = await call('POST', `/api/events/${ev.event.id}/flags/${flag.id}`, { resolution: 'maybe' }, ev.directorKey);
      expect(badFlag.status).toBe(400);
    });

    it('reads every hand again when one is added or removed before it (its seats move)', async () => {
      const ev = await newEvent(1, 1);
      const t = await join(ev, 1, 1);
      const check = (r: { body: OpsReply }, handId: string) => r.body.sheet.hands.find((h) => h.handId === handId)!.check;
      // Hand 2: B deals (East) and wins on A's discard, scored as the phone scored it.
      await call('POST', opsPath(ev, 1, 1), { ops: [putOp('hand-seat-0001', DRAW, 100)] }, t.token);
      const ok = await call<OpsReply>('POST', opsPath(ev, 1, 1), { ops: [putOp('hand-seat-0002', scoredWin(1, 1, { discarder: 0, hand: 1 }), 200)] }, t.token);
      expect(check(ok, 'hand-seat-0002').status).toBe('ok');
      // A second phone's hand, made earlier, arrives late: the scored hand becomes hand 3.
      const moved = await call<OpsReply>('POST', opsPath(ev, 1, 1), { ops: [putOp('hand-seat-0003', DRAW, 150)] }, t.token);
      expect(moved.body.sheet.hands.map((h) => h.handId)).toEqual(['hand-seat-0001', 'hand-seat-0003', 'hand-seat-0002']);
      expect(check(moved, 'hand-seat-0002')).toMatchObject({ status: 'flagged', reason: 'the link scores the winner in the East seat, but on the sheet the winner sits North in hand 3' });
      expect((await call<{ flags: Flag[] }>('GET', `/api/events/${ev.event.id}/flags`, undefined, ev.directorKey)).body.flags.map((f) => f.handId)).toEqual(['hand-seat-0002']);
      // Deleting the late hand puts it back in place: agreed again, and the flag is gone.
      const back = await call<OpsReply>('POST', opsPath(ev, 1, 1), { ops: [{ opId: opId(), kind: 'delete', handId: 'hand-seat-0003', at: 300 }] }, t.token);
      expect(check(back, 'hand-seat-0002').status).toBe('ok');
      expect((await call<{ flags: Flag[] }>('GET', `/api/events/${ev.event.id}/flags`, undefined, ev.directorKey)).body.flags).toEqual([]);
    });

    it('exports the EMA CSV and a backup that imports into a new event with the same standings', async () => {
      const ev = await newEvent(2, 2);
      for (const [s, tb] of [[1, 1], [1, 2], [2, 1]]) {
        const t = await join(ev, s, tb);
        const ops = [
          putOp(`hand-bk-${s}${tb}-1`, scoredWin(s + tb, 0), 1), putOp(`hand-bk-${s}${tb}-2`, scoredWin(2, 1, { points: 99 }), 2),
          putOp(`hand-bk-${s}${tb}-3`, typedWin(2, 12, 3), 3), putOp(`hand-bk-${s}${tb}-4`, DRAW, 4),
          { opId: opId(), kind: 'delete' as const, handId: `hand-bk-${s}${tb}-4`, at: 5 },
        ];
        expect((await call('POST', opsPath(ev, s, tb), { ops }, t.token)).status).toBe(200);
      }
      const flags = (await call<{ flags: Flag[] }>('GET', `/api/events/${ev.event.id}/flags`, undefined, ev.directorKey)).body.flags;
      expect(flags).toHaveLength(3);
      await call('POST', `/api/events/${ev.event.id}/flags/${flags[0].id}`, { resolution: 'accept-table' }, ev.directorKey);
      const standings = (await call<Standings>('GET', `/api/events/${ev.event.id}/standings`)).body;
      expect(standings.players).toHaveLength(8);
      // Session 2, table 2 played no hand: its players have a session-1 result only.
      const idle = ev.event.tables.find((t) => t.session === 2 && t.table === 2)!.players;
      for (const p of standings.players) expect(p.perSession.length).toBe(idle.includes(p.name) ? 1 : 2);

      const csv = await call('GET', `/api/events/${ev.event.id}/export/ema.csv`, undefined, ev.directorKey);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const lines = csv.text.trim().split('\r\n');
      expect(lines[0]).toBe('Rank,Name,EMA number,Country,Table points,Score,Session 1 table,Session 1 table points,Session 1 score,Session 2 table,Session 2 table points,Session 2 score');
      expect(lines).toHaveLength(9);
      expect(lines[1].split(',').slice(0, 2)).toEqual([String(standings.players[0].rank), standings.players[0].name]);

      const backup = (await call<EventBackup>('GET', `/api/events/${ev.event.id}/export/backup.json`, undefined, ev.directorKey)).body;
      expect(backup.sheets.flatMap((s) => s.hands)).toHaveLength(12);
      expect(backup.resolutions).toHaveLength(1);
      const copy = await call<CreateEventReply>('POST', '/api/events/import', backup);
      expect(copy.status).toBe(201);
      expect(copy.body.event.id).not.toBe(ev.event.id);
      expect(copy.body.directorKey).not.toBe(ev.directorKey);
      const again = (await call<Standings>('GET', `/api/events/${copy.body.event.id}/standings`)).body;
      expect({ ...again, eventId: '', updatedAt: 0 }).toEqual({ ...standings, eventId: '', updatedAt: 0 });
      const backup2 = (await call<EventBackup>('GET', `/api/events/${copy.body.event.id}/export/backup.json`, undefined, copy.body.directorKey)).body;
      expect({ ...backup2, exportedAt: 0 }).toEqual({ ...backup, exportedAt: 0 });
      const broken = await call('POST', '/api/events/import', { ...backup, version: 2 });
      expect(broken.body).toEqual({ error: { code: 'BAD_REQUEST', message: 'backup: version: expected one of 1' } });
    });

    it('answers unknown events and malformed ids with typed errors', async () => {
      expect((await call('GET', '/api/events/ev_AAAAAAAAAAAAAAAAAAAAAA/standings')).body).toEqual({ error: { code: 'NOT_FOUND', message: 'event ev_AAAAAAAAAAAAAAAAAAAAAA not found' } });
      expect((await call('GET', '/api/events/nonsense/standings')).body).toMatchObject({ error: { code: 'BAD_REQUEST' } });
      const ev = await newEvent(1, 1);
      const t = await join(ev, 1, 1);
      expect((await call('POST', `/api/events/${ev.event.id}/tables/0/1/ops`, { ops: [] }, t.token)).body).toMatchObject({ error: { code: 'BAD_REQUEST' } });
      expect((await call('POST', `/api/events/${ev.event.id}/flags/fl_nosuchflag0000`, { resolution: 'accept-server' }, ev.directorKey)).body).toEqual({ error: { code: 'NOT_FOUND', message: 'flag fl_nosuchflag0000 not found' } });
    });

    it('runs a Fan Pays event: one fan wins, the sheet holds 64 hands, standings from the engine sheet', async () => {
      const players = names(4);
      const created = await call<CreateEventReply>('POST', '/api/events', { name: 'Fan Pays night', rules: 'fan-pays', players, tables: 1, sessions: 1 });
      expect(created.status).toBe(201);
      const t = await join(created.body, 1, 1);
      expect(t.rules).toBe('fan-pays');
      const hands = [typedWin(0, 1, 2), typedWin(0, 3), typedWin(2, 2, 0)];
      const r = await call<OpsReply>('POST', opsPath(created.body, 1, 1), { ops: hands.map((h, i) => putOp(`hand-fp-${String(i).padStart(4, '0')}`, h, i + 1)) }, t.token);
      expect(r.status).toBe(200);
      expect(r.body.sheet.hands.map((h) => h.check.status)).toEqual(['typed', 'typed', 'typed']);
      // A scored MCR hand on a Fan Pays sheet is flagged: its link was scored by other rules.
      const mcr = await call<OpsReply>('POST', opsPath(created.body, 1, 1), { ops: [putOp('hand-fp-mcr0', scoredWin(0, 1), 10)] }, t.token);
      expect(mcr.body.sheet.hands[3].check).toMatchObject({ status: 'flagged', reason: 'the hand was scored by mcr rules, but the table plays fan-pays' });
      const st = (await call<Standings>('GET', `/api/events/${created.body.event.id}/standings`)).body;
      const seated = created.body.event.tables[0].players;
      const sheet = computeSheet({ players: seated, hands: [...hands, scoredWin(0, 1)], meta: {}, rules: 'fan-pays' });
      for (const p of st.players) expect(p.score).toBe(sheet.totals[seated.indexOf(p.name)]);
    });

    it('limits joins per address', async () => {
      const ev = await newEvent(1, 1);
      const limited = createApp({ store: new EventStore(db), joinLimit: { max: 3, windowMs: 60_000 } });
      const code = ev.event.tables[0].code;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.request('/api/join', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
        statuses.push(res.status);
        if (res.status === 429) {
          expect(await res.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    });

    it('limits new events and imports per address', async () => {
      const limited = createApp({ store: new EventStore(db), createLimit: { max: 2, windowMs: 60_000 } });
      const body = JSON.stringify({ name: 'Spam', rules: 'mcr', players: names(4), tables: 1, sessions: 1 });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await limited.request('/api/events', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status);
      }
      const imported = await limited.request('/api/events/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect([...statuses, imported.status]).toEqual([201, 201, 429, 429]);
    });
  });
}
