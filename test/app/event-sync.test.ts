/**
 * The table's event sync (src/app/event/sync.ts, link.ts) against a fake event server that keeps
 * the contract of docs/event-api.md: ops applied once by id, the later write of a hand wins, a
 * delete is a tombstone, hands in the order of their first put.
 */
import { describe, expect, it } from 'vitest';
import type { SheetHand } from '../../src/engine/sheet.ts';
import { commands, createSessionStore, memoryStorage, type SessionStore } from '../../src/app/session/store.ts';
import { createMirror, type KeyValueSync } from '../../src/app/state/mirror.ts';
import { createApi, type Op, type TableSheet } from '../../src/app/event/api.ts';
import { createEventSync, type LinkStorage, type Online } from '../../src/app/event/sync.ts';
import { opsFor, viewOf } from '../../src/app/event/link.ts';

const PLAYERS = ['Ann', 'Bo', 'Cy', 'Di'];
const CODE = 'K7QW3MPX';
const win = (winner: number, points: number): SheetHand => ({ kind: 'win', winner, selfDrawn: true, discarder: null, points, source: 'typed', penalties: [] });

interface Row { hand: SheetHand | null; at: number; opId: string; firstAt: number }

/** An in-memory event server for one table. */
function fakeServer() {
  const rows = new Map<string, Row>();
  const seen = new Set<string>();
  let version = 0;
  const s = {
    down: false,
    /** Apply the next request and then fail as if its reply were lost. */
    loseReply: false,
    refuseToken: false,
    /** The table's players as the server has them (the director may reseat before the first hand). */
    players: PLAYERS,
    requests: [] as { path: string; ops?: Op[] }[],
    applications: 0,
    sheet(): TableSheet {
      const hands = [...rows.entries()].filter(([, r]) => r.hand).sort(([a, x], [b, y]) => x.firstAt - y.firstAt || (a < b ? -1 : 1))
        .map(([handId, r]) => ({ handId, hand: r.hand!, at: r.at, check: { status: 'typed' as const, tablePoints: 0 } }));
      return { session: 1, table: 2, players: s.players, rules: 'mcr', version, hands };
    },
    fetch: async (url: string, init?: RequestInit): Promise<Response> => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      s.requests.push({ path: url, ops: body?.ops });
      if (s.down) throw new TypeError('Failed to fetch');
      const json = (status: number, data: unknown) => new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
      if (url === '/api/join') {
        if (body.code !== CODE) return json(404, { error: { code: 'WRONG_CODE', message: 'no table has this code' } });
        return json(200, { token: s.refuseToken ? 'tt_new' : 'tt_1', eventId: 'ev_1', eventName: 'Club night', rules: 'mcr', session: 1, table: 2, players: PLAYERS });
      }
      const auth = (init?.headers as Record<string, string>)?.authorization;
      if (s.refuseToken ? auth !== 'Bearer tt_new' : auth !== 'Bearer tt_1') return json(401, { error: { code: 'TOKEN_INVALID', message: 'token not accepted' } });
      if (url === '/api/events/ev_1/tables/1/2' && init?.method === 'GET') return json(200, { sheet: s.sheet() });
      if (url === '/api/events/ev_1/tables/1/2/ops') {
        const applied: string[] = [];
        // the whole request is refused for one hand (this fake's rule: 13 points is unlucky)
        const bad = (body.ops as Op[]).find((op) => op.kind === 'put' && op.hand.kind === 'win' && op.hand.points === 13);
        if (bad) return json(400, { error: { code: 'INVALID_HAND', message: 'hand: 13 points is not accepted here' } });
        for (const op of body.ops as Op[]) {
          applied.push(op.opId);
          if (seen.has(op.opId)) continue;
          seen.add(op.opId);
          s.applications++;
          const row = rows.get(op.handId);
          if (row && (op.at < row.at || (op.at === row.at && op.opId < row.opId))) continue;
          rows.set(op.handId, { hand: op.kind === 'put' ? op.hand : null, at: op.at, opId: op.opId, firstAt: row?.firstAt ?? op.at });
          version++;
        }
        if (s.loseReply) { s.loseReply = false; throw new TypeError('connection reset'); }
        return json(200, { applied, sheet: s.sheet() });
      }
      return json(404, { error: { code: 'NOT_FOUND', message: url } });
    },
  };
  return s;
}

function memoryKv(): KeyValueSync {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => { m.set(k, v); } };
}

function fakeOnline(): Online & { set(on: boolean): void } {
  let on = true;
  const cbs = new Set<(on: boolean) => void>();
  return {
    isOnline: () => on,
    subscribe: (cb) => { cbs.add(cb); return () => { cbs.delete(cb); }; },
    set(v) { on = v; cbs.forEach((cb) => cb(v)); },
  };
}

/** A phone: its own session store, IndexedDB (memory) and localStorage, one clock shared by the test. */
/** A phone that has started, joined the table by CODE and sent what it had (phase idle). */
async function joinedPhone(server: ReturnType<typeof fakeServer>, clock = { t: 1000 }) {
  const p = phone(server, clock);
  await p.sync.start();
  await p.sync.join(CODE);
  await until(() => p.sync.getState().phase === 'idle');
  return p;
}

function phone(server: ReturnType<typeof fakeServer>, clock: { t: number }, disk = { idb: memoryStorage(), kv: memoryKv(), sessionIdb: memoryStorage() }, photos?: { ref: () => string | undefined }) {
  let n = 0;
  const prefix = Math.random().toString(36).slice(2, 6);
  const session: SessionStore = createSessionStore(disk.sessionIdb, undefined, createMirror('session', () => disk.kv));
  const online = fakeOnline();
  const storage: LinkStorage = { get: (k) => disk.idb.get(k), set: (k, v) => disk.idb.set(k, v) };
  const sync = createEventSync({
    api: createApi({ fetch: server.fetch }),
    session, storage, online,
    mirror: createMirror('link', () => disk.kv),
    newId: () => `${prefix}-${++n}`,
    now: () => clock.t++,
    pollMs: 0,
    backoff: { first: 5, max: 20 },
    photoRef: photos?.ref,
    loadPhoto: async (ref) => `data:image/jpeg;base64,${btoa(ref)}`,
  });
  return { session, sync, online, disk };
}

const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('opsFor: a change on the sheet as ops', () => {
  const a = win(0, 8), b = win(1, 10), c = win(2, 12);
  const ctx = () => { let i = 0; return { now: 100, newId: () => `n${++i}` }; };
  it('an added hand is a put with a new id', () => {
    const r = opsFor({ hands: [a], ids: ['x'] }, [a, b], ctx());
    expect(r.ops).toEqual([{ opId: 'n2', kind: 'put', handId: 'n1', at: 100, hand: b }]);
    expect(r.ids).toEqual(['x', 'n1']);
  });
  it('an edited hand keeps its id, a deleted one is deleted by id', () => {
    expect(opsFor({ hands: [a, b, c], ids: ['x', 'y', 'z'] }, [a, win(1, 9), c], ctx()).ops)
      .toEqual([{ opId: 'n1', kind: 'put', handId: 'y', at: 100, hand: win(1, 9) }]);
    const del = opsFor({ hands: [a, b, c], ids: ['x', 'y', 'z'] }, [a, c], ctx());
    expect(del.ops).toEqual([{ opId: 'n1', kind: 'delete', handId: 'y', at: 100 }]);
    expect(del.ids).toEqual(['x', 'z']);
    expect(del.removed).toEqual([{ handId: 'y', hand: b }]);
  });
  it('undoing a deletion puts the same hand back under its old id', () => {
    const r = opsFor({ hands: [a, c], ids: ['x', 'z'] }, [a, b, c], { ...ctx(), deleted: [{ handId: 'y', hand: b }] });
    expect(r.ops).toEqual([{ opId: 'n1', kind: 'put', handId: 'y', at: 100, hand: b }]);
    expect(r.ids).toEqual(['x', 'y', 'z']);
  });
  it('no change, no ops', () => {
    expect(opsFor({ hands: [a, b], ids: ['x', 'y'] }, [a, b], ctx()).ops).toEqual([]);
  });
  it('the view lays queued ops over the server sheet', () => {
    const base = { version: 3, hands: [{ handId: 'x', hand: a, at: 1, check: { status: 'ok' as const, tablePoints: 8 } }, { handId: 'y', hand: b, at: 2, check: { status: 'typed' as const, tablePoints: 10 } }] };
    const v = viewOf({ base, queue: [{ opId: 'o1', kind: 'delete', handId: 'x', at: 5 }, { opId: 'o2', kind: 'put', handId: 'n', at: 6, hand: c }] });
    expect(v.ids).toEqual(['y', 'n']);
    expect(v.hands).toEqual([b, c]);
    expect(v.checks).toEqual([{ status: 'typed', tablePoints: 10 }, null]);
  });
});

describe('event sync', () => {
  it('sends nothing before the table joins an event', async () => {
    const server = fakeServer();
    const p = phone(server, { t: 1000 });
    await p.sync.start();
    p.session.perform(commands.start(PLAYERS));
    p.session.perform(commands.add(win(0, 8)));
    await p.sync.sync();
    expect(server.requests).toEqual([]);
    expect(p.sync.getState().link).toBeNull();
    p.sync.stop();
  });

  it('keeps the phone\'s own sheet that joining replaced', async () => {
    const server = fakeServer();
    const p = phone(server, { t: 1000 });
    await p.sync.start();
    p.session.perform(commands.start(['W', 'X', 'Y', 'Z'], { tournament: 'Home game' }));
    p.session.perform(commands.add(win(2, 12)));
    await p.sync.join(CODE);
    expect(p.session.getState().record!.players).toEqual(PLAYERS);
    expect(p.sync.getState().link!.before).toMatchObject({ players: ['W', 'X', 'Y', 'Z'], meta: { tournament: 'Home game' }, hands: [{ winner: 'Y', points: 12 }] });
    // nothing of it is sent
    await until(() => p.sync.getState().phase === 'idle' && server.requests.length >= 2);
    expect(server.requests.flatMap((r) => r.ops ?? [])).toEqual([]);
    p.sync.stop();
  });

  it('takes the players from the server\'s sheet (a reseat before the first hand)', async () => {
    const server = fakeServer();
    const p = await joinedPhone(server);
    server.players = ['Di', 'Cy', 'Bo', 'Ann'];
    await p.sync.sync();
    expect(p.session.getState().record!.players).toEqual(['Di', 'Cy', 'Bo', 'Ann']);
    p.sync.stop();
  });

  it('refuses a wrong code with a typed error and keeps the sheet', async () => {
    const server = fakeServer();
    const p = phone(server, { t: 1000 });
    await p.sync.start();
    p.session.perform(commands.start(PLAYERS));
    await expect(p.sync.join('AAAA-BBBB')).rejects.toMatchObject({ name: 'EventError', code: 'WRONG_CODE' });
    await expect(p.sync.join('no!')).rejects.toMatchObject({ code: 'WRONG_CODE' });
    expect(p.session.getState().record?.players).toEqual(PLAYERS);
    expect(p.sync.getState().link).toBeNull();
    p.sync.stop();
  });

  it('joins by code (any case, with a dash), takes the event players and sends each change as an op', async () => {
    const server = fakeServer();
    const p = phone(server, { t: 1000 });
    await p.sync.start();
    await p.sync.join('k7qw-3mpx');
    expect(p.session.getState().record).toMatchObject({ players: PLAYERS, meta: { tournament: 'Club night', session: '1', table: '2' } });
    p.session.perform(commands.add(win(0, 8)));
    p.session.perform(commands.add(win(1, 9)));
    await until(() => p.sync.getState().link!.queue.length === 0 && p.sync.getState().phase === 'idle');
    expect(server.sheet().hands.map((h) => h.hand)).toEqual([win(0, 8), win(1, 9)]);
    p.session.perform(commands.remove(0));
    await until(() => server.sheet().hands.length === 1);
    expect(p.sync.getState().view!.checks).toEqual([{ status: 'typed', tablePoints: 0 }]);
    p.sync.stop();
  });

  it('keeps the queue over a reload (same op ids) and sends it when the phone is online again', async () => {
    const server = fakeServer();
    const clock = { t: 1000 };
    const p = await joinedPhone(server, clock);
    p.online.set(false);
    p.session.perform(commands.add(win(0, 8)));
    p.session.perform(commands.add(win(2, 16)));
    await p.sync.sync();
    expect(p.sync.getState().phase).toBe('offline');
    const queued = p.sync.getState().link!.queue.map((op) => op.opId);
    expect(queued).toHaveLength(2);
    p.sync.stop();

    // the page reloads (the IndexedDB write may not have finished: the localStorage copy has it)
    const again = phone(server, clock, p.disk);
    again.online.set(false);
    await again.sync.start();
    expect(again.sync.getState().link!.queue.map((op) => op.opId)).toEqual(queued);
    expect(again.session.getState().record!.hands).toEqual([win(0, 8), win(2, 16)]);
    expect(server.sheet().hands).toEqual([]);
    again.online.set(true);
    await until(() => again.sync.getState().link!.queue.length === 0);
    expect(server.sheet().hands.map((h) => h.hand)).toEqual([win(0, 8), win(2, 16)]);
    const sent = server.requests.flatMap((r) => r.ops ?? []).map((op) => op.opId);
    expect(sent).toEqual(queued);
    again.sync.stop();
  });

  it('retries with the same op id after a lost reply, and the server counts it once', async () => {
    const server = fakeServer();
    const p = await joinedPhone(server);
    server.loseReply = true;
    p.session.perform(commands.add(win(3, 8)));
    await until(() => p.sync.getState().phase === 'error');
    expect(p.sync.getState().error).toMatchObject({ code: 'UNREACHABLE' });
    expect(p.sync.getState().retryAt).not.toBeNull();
    await until(() => p.sync.getState().link!.queue.length === 0);
    const posts = server.requests.filter((r) => r.ops);
    expect(posts).toHaveLength(2);
    expect(posts[0].ops![0].opId).toBe(posts[1].ops![0].opId);
    expect(server.applications).toBe(1);
    expect(server.sheet().hands).toHaveLength(1);
    expect(p.session.getState().record!.hands).toEqual([win(3, 8)]);
    p.sync.stop();
  });

  it('backs off while the server is down and sends once it is back', async () => {
    const server = fakeServer();
    const p = await joinedPhone(server);
    server.down = true;
    p.session.perform(commands.add(win(1, 8)));
    await until(() => server.requests.filter((r) => r.ops).length >= 3);
    expect(p.sync.getState()).toMatchObject({ phase: 'error', error: { code: 'UNREACHABLE' } });
    expect(p.sync.getState().link!.queue).toHaveLength(1);
    server.down = false;
    await until(() => p.sync.getState().link!.queue.length === 0);
    expect(server.sheet().hands).toHaveLength(1);
    expect(server.applications).toBe(1);
    p.sync.stop();
  });

  it('two phones at one table converge on the server sheet; the later edit of a hand wins', async () => {
    const server = fakeServer();
    const clock = { t: 1000 };
    const a = phone(server, clock);
    const b = phone(server, clock);
    for (const p of [a, b]) { await p.sync.start(); await p.sync.join(CODE); }
    a.session.perform(commands.add(win(0, 8)));
    await until(() => a.sync.getState().link!.queue.length === 0);
    await b.sync.sync();
    expect(b.session.getState().record!.hands).toEqual([win(0, 8)]);

    // both edit hand 1 while offline; b's edit is the later one
    a.online.set(false); b.online.set(false);
    a.session.perform(commands.edit(0, win(0, 10)));
    b.session.perform(commands.edit(0, win(0, 12)));
    // and each adds a hand of its own
    a.session.perform(commands.add(win(1, 8)));
    b.session.perform(commands.add(win(2, 9)));
    b.online.set(true);
    await until(() => b.sync.getState().link!.queue.length === 0);
    a.online.set(true);
    await until(() => a.sync.getState().link!.queue.length === 0);
    await b.sync.sync();
    const ra = a.session.getState().record!.hands;
    const rb = b.session.getState().record!.hands;
    expect(ra).toEqual(rb);
    // a's edit of hand 1 was made first (an older `at`), so b's stands even though a sent later
    expect(ra).toEqual([win(0, 12), win(1, 8), win(2, 9)]);
    expect(a.sync.getState().view!.ids).toEqual(b.sync.getState().view!.ids);
    a.sync.stop(); b.sync.stop();
  });

  it('a deleted hand stays deleted when an older edit of it arrives later', async () => {
    const server = fakeServer();
    const clock = { t: 1000 };
    const a = phone(server, clock);
    const b = phone(server, clock);
    for (const p of [a, b]) { await p.sync.start(); await p.sync.join(CODE); }
    a.session.perform(commands.add(win(0, 8)));
    await until(() => a.sync.getState().link!.queue.length === 0);
    await b.sync.sync();
    a.online.set(false);
    a.session.perform(commands.edit(0, win(0, 20)));
    b.session.perform(commands.remove(0));
    await until(() => b.sync.getState().link!.queue.length === 0);
    a.online.set(true);
    await until(() => a.sync.getState().link!.queue.length === 0);
    expect(a.session.getState().record!.hands).toEqual([]);
    a.sync.stop(); b.sync.stop();
  });

  it('undoing a deletion brings the same hand back on the server, in its place', async () => {
    const server = fakeServer();
    const p = phone(server, { t: 1000 });
    await p.sync.start();
    await p.sync.join(CODE);
    p.session.perform(commands.add(win(0, 8)));
    p.session.perform(commands.add(win(1, 9)));
    await until(() => p.sync.getState().link!.queue.length === 0);
    const ids = server.sheet().hands.map((h) => h.handId);
    p.session.perform(commands.remove(0));
    await until(() => p.sync.getState().link!.queue.length === 0);
    p.session.undo();
    await until(() => p.sync.getState().link!.queue.length === 0);
    expect(server.sheet().hands.map((h) => h.handId)).toEqual(ids);
    expect(p.session.getState().record!.hands).toEqual([win(0, 8), win(1, 9)]);
    p.sync.stop();
  });

  it('a refused token stops the sending with a typed error; joining again sends the same queue', async () => {
    const server = fakeServer();
    const p = await joinedPhone(server);
    server.refuseToken = true;
    p.session.perform(commands.add(win(2, 8)));
    await until(() => p.sync.getState().phase === 'error');
    expect(p.sync.getState().error).toMatchObject({ code: 'TOKEN_INVALID' });
    const queued = p.sync.getState().link!.queue.map((op) => op.opId);
    expect(queued).toHaveLength(1);
    await p.sync.join(CODE);
    await until(() => p.sync.getState().link!.queue.length === 0);
    expect(server.sheet().hands.map((h) => h.hand)).toEqual([win(2, 8)]);
    expect(server.requests.filter((r) => r.ops).at(-1)!.ops!.map((op) => op.opId)).toEqual(queued);
    p.sync.stop();
  });

  it('"New table" while joined keeps the event sheet, and leaving is refused while changes are unsent', async () => {
    const server = fakeServer();
    const p = phone(server, { t: 1000 });
    await p.sync.start();
    await p.sync.join(CODE);
    p.online.set(false);
    p.session.perform(commands.add(win(0, 8)));
    p.session.perform(commands.close());
    expect(p.session.getState().record!.hands).toEqual([win(0, 8)]);
    expect(() => p.sync.leave({ force: false })).toThrow(/not sent yet/);
    p.online.set(true);
    await until(() => p.sync.getState().link!.queue.length === 0);
    p.sync.leave({ force: false });
    expect(p.sync.getState().link).toBeNull();
    // the sheet stays on the phone, and changes to it no longer leave it
    const before = server.requests.length;
    p.session.perform(commands.add(win(1, 8)));
    await p.sync.sync();
    expect(server.requests.length).toBe(before);
    p.sync.stop();
  });

  it('a hand the server refuses is set aside with its reason, and the changes queued behind it still go', async () => {
    const server = fakeServer();
    const p = await joinedPhone(server);
    p.online.set(false);
    p.session.perform(commands.add(win(0, 8)));
    p.session.perform(commands.add(win(1, 13)));
    p.session.perform(commands.add(win(2, 9)));
    p.online.set(true);
    await until(() => p.sync.getState().link!.queue.length === 0);
    expect(server.sheet().hands.map((h) => h.hand)).toEqual([win(0, 8), win(2, 9)]);
    const { refused } = p.sync.getState().link!;
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ code: 'INVALID_HAND', message: /13 points/, op: { kind: 'put', hand: win(1, 13) } });
    expect(p.session.getState().record!.hands).toEqual([win(0, 8), win(2, 9)]);
    p.sync.stop();
  });

  it('sends a scored hand\'s photo only when the table turned photos on', async () => {
    const server = fakeServer();
    const p = phone(server, { t: 1000 }, undefined, { ref: () => 'photo-key-1' });
    await p.sync.start();
    await p.sync.join(CODE);
    const scored = (points: number): SheetHand => ({ kind: 'win', winner: 0, selfDrawn: true, discarder: null, points, source: 'scored', link: '#/h/abc', penalties: [] });
    p.session.perform(commands.add(scored(8)));
    // a typed hand never has a photo
    p.sync.setSendPhotos(true);
    p.session.perform(commands.add(win(1, 9)));
    p.session.perform(commands.add(scored(10)));
    await until(() => p.sync.getState().link!.queue.length === 0);
    const sent = server.requests.flatMap((r) => r.ops ?? []);
    expect(sent.map((op) => op.kind === 'put' && 'photo' in op ? op.photo : null)).toEqual([null, null, `data:image/jpeg;base64,${btoa('photo-key-1')}`]);
    // the reference to the photo on the phone is never sent
    expect(sent.some((op) => 'photoRef' in op)).toBe(false);
    p.sync.stop();
  });
});
