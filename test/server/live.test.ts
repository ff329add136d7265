/**
 * The server on a real socket: the standings stream pushes on every change, the built app is
 * served with the isolation headers, and a restart on the same PGlite folder keeps everything.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import type { DbOptions } from '../../src/server/db.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import type { CreateEventReply, JoinReply, OpsReply, Standings } from '../../src/event/protocol.ts';
import { names, scoredWin, typedWin } from './fixtures.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), 'event-live-'));
  dirs.push(d);
  return d;
};
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

async function post<T>(server: RunningServer, p: string, body: unknown, auth?: string): Promise<T> {
  const res = await fetch(`${server.url}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(res.ok).toBe(true);
  return (await res.json()) as T;
}

/** Read server-sent events from a stream until `count` standings messages have arrived. */
async function* standingsEvents(res: Response): AsyncGenerator<Standings> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n');
      if (lines.includes('event: standings')) {
        yield JSON.parse(lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n')) as Standings;
      }
    }
  }
}

const pgUrl = process.env.TEST_DATABASE_URL;
const schema = `live_${Date.now().toString(36)}`;
afterAll(async () => {
  if (!pgUrl) return;
  const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end({ timeout: 5 });
});

// PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (http.test.ts says when it must be).
const databases: [string, () => DbOptions][] = [['PGlite in a folder', () => ({ dataDir: tempDir() })]];
if (pgUrl) databases.push(['PostgreSQL', () => ({ url: pgUrl, schema })]);

describe.each(databases)('event server on a socket, %s', (_label, dbOptions) => {
  it('streams standings on every change, serves the app, and keeps its data over a restart', async () => {
    const db = dbOptions();
    const staticDir = tempDir();
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    let server = await startServer({ ...db, port: 0, staticDir });
    try {
      const page = await fetch(`${server.url}/`);
      expect(await page.text()).toContain('<title>app</title>');
      expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(page.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
      expect((await fetch(`${server.url}/event/some/route`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/nothing`)).status).toBe(404);

      const ev = await post<CreateEventReply>(server, '/api/events', { name: 'Live', rules: 'mcr', players: names(4), tables: 1, sessions: 1 });
      const table = await post<JoinReply>(server, '/api/join', { code: ev.event.tables[0].code });
      const controller = new AbortController();
      const res = await fetch(`${server.url}/api/events/${ev.event.id}/standings/stream`, { signal: controller.signal });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = standingsEvents(res);
      const first = (await events.next()).value as Standings;
      expect(first.players.every((p) => p.score === 0)).toBe(true);
      const reply = await post<OpsReply>(server, `/api/events/${ev.event.id}/tables/1/1/ops`, {
        ops: [{ opId: 'live-op-0001', kind: 'put', handId: 'live-hand-01', at: 1, hand: scoredWin(0, 2) }],
      }, table.token);
      expect(reply.sheet.hands).toHaveLength(1);
      const second = (await events.next()).value as Standings;
      const winner = second.players.find((p) => p.name === table.players[2])!;
      expect(winner).toMatchObject({ rank: 1, tablePoints: 4 });
      expect(winner.score).toBeGreaterThan(0);
      controller.abort();

      await server.close();
      server = await startServer({ ...db, port: 0 });
      const after = await (await fetch(`${server.url}/api/events/${ev.event.id}/standings`)).json() as Standings;
      expect({ ...after, updatedAt: 0 }).toEqual({ ...second, updatedAt: 0 });
      // The table's token still writes after the restart; the old op is still known.
      const again = await post<OpsReply>(server, `/api/events/${ev.event.id}/tables/1/1/ops`, {
        ops: [
          { opId: 'live-op-0001', kind: 'put', handId: 'live-hand-01', at: 1, hand: scoredWin(0, 2) },
          { opId: 'live-op-0002', kind: 'put', handId: 'live-hand-02', at: 2, hand: typedWin(1, 8, 3) },
        ],
      }, table.token);
      expect(again.sheet.version).toBe(2);
      expect(again.sheet.hands.map((h) => h.handId)).toEqual(['live-hand-01', 'live-hand-02']);
    } finally {
      await server.close();
    }
  });
});
