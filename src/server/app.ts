/**
 * The HTTP API (docs/event-api.md) on Hono, and the built app. Every body and parameter is
 * checked with the zod schemas of src/event/protocol.ts; every error leaves as
 * `{error: {code, message}}` with its status, never as a crash.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { serveStatic } from '@hono/node-server/serve-static';
import { getConnInfo } from '@hono/node-server/conninfo';
import * as z from 'zod/mini';
import {
  EventApiError, createEventBodySchema, eventBackupSchema, joinBodySchema, opsBodySchema, parseOrThrow,
  resolveFlagBodySchema, seatingBodySchema, type ErrorCode,
} from '../event/protocol.ts';
import { standingsToEmaCsv } from '../event/ema.ts';
import { parseSeatingCsv } from '../event/seating.ts';
import { bearer } from './secrets.ts';
import { RateLimiter } from './rate-limit.ts';
import type { Caller, EventStore } from './store.ts';

/** The two headers vite.config.ts (ISOLATION_HEADERS) sends, so the app's models run on threads. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

export interface AppOptions {
  store: EventStore;
  /** The built app (dist/); not served when absent. */
  staticDir?: string;
  /** Joins per client address per window (default 30 a minute). */
  joinLimit?: { max: number; windowMs: number };
  /** Events created or imported per client address per window (default 30 an hour). */
  createLimit?: { max: number; windowMs: number };
  /** How often the standings stream sends a comment to keep proxies from closing it. */
  keepAliveMs?: number;
}

const KB = 1024;
const LIMITS = { small: 64 * KB, ops: 8 * 1024 * KB, backup: 64 * 1024 * KB };

const sizeLimit = (maxSize: number) => bodyLimit({
  maxSize,
  onError: (c) => c.json({ error: { code: 'PAYLOAD_TOO_LARGE' satisfies ErrorCode, message: `the body is larger than ${Math.round(maxSize / KB)} KB` } }, 413),
});

async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new EventApiError('BAD_REQUEST', 400, 'the body is not JSON');
  }
}

const idParam = z.string().check(z.regex(/^ev_[A-Za-z0-9_-]{10,40}$/));
const numParam = z.string().check(z.regex(/^[1-9]\d{0,3}$/));

function eventId(c: Context): string {
  return parseOrThrow(idParam, c.req.param('id'), 'event id');
}

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // app.request() in tests has no socket
  }
}

export function createApp(options: AppOptions): Hono {
  const { store } = options;
  const joins = new RateLimiter(options.joinLimit ?? { max: 30, windowMs: 60_000 });
  const creations = new RateLimiter(options.createLimit ?? { max: 30, windowMs: 3_600_000 });

  /** Count a rate-limited request; throws RATE_LIMITED (429, with Retry-After) past the limit. */
  function limit(c: Context, limiter: RateLimiter, what: string): void {
    const wait = limiter.hit(clientAddress(c));
    if (wait > 0) {
      c.header('Retry-After', String(Math.ceil(wait / 1000)));
      throw new EventApiError('RATE_LIMITED', 429, `too many ${what} from this address; try again in ${Math.ceil(wait / 1000)} s`);
    }
  }
  const app = new Hono();

  app.use('*', async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(ISOLATION_HEADERS)) c.header(k, v);
  });
  app.use('/api/*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });

  app.onError((err, c) => {
    if (err instanceof EventApiError) return c.json({ error: { code: err.code, message: err.message } }, err.status as 400);
    console.error('event server:', err);
    return c.json({ error: { code: 'INTERNAL' satisfies ErrorCode, message: 'the server failed; try again' } }, 500);
  });

  /** The caller of a request, who must be the event's director (or, with `table`, that table). */
  async function caller(c: Context, id: string, allowTable?: { session: number; table: number }): Promise<Caller> {
    const secret = bearer(c.req.header('authorization'));
    if (!secret) throw new EventApiError('UNAUTHORIZED', 401, 'send the director key or the table token as "Authorization: Bearer ..."');
    const who = await store.authenticate(id, secret);
    if (!who) throw new EventApiError('UNAUTHORIZED', 401, 'the key or token is not valid for this event');
    if (who.role === 'director') return who;
    if (allowTable && who.session === allowTable.session && who.table === allowTable.table) return who;
    throw new EventApiError('FORBIDDEN', 403, allowTable
      ? `this token writes session ${who.session}, table ${who.table} only`
      : 'only the director may do this');
  }

  const tableParams = (c: Context) => ({
    session: Number(parseOrThrow(numParam, c.req.param('session'), 'session')),
    table: Number(parseOrThrow(numParam, c.req.param('table'), 'table')),
  });

  app.get('/api/health', (c) => c.json({ ok: true, db: store.db.kind }));

  app.post('/api/events', sizeLimit(LIMITS.backup), async (c) => {
    limit(c, creations, 'new events');
    const body = parseOrThrow(createEventBodySchema, await jsonBody(c));
    return c.json(await store.createEvent(body), 201);
  });

  app.post('/api/events/import', sizeLimit(LIMITS.backup), async (c) => {
    limit(c, creations, 'new events');
    const backup = parseOrThrow(eventBackupSchema, await jsonBody(c), 'backup');
    return c.json(await store.importBackup(backup), 201);
  });

  app.get('/api/events/:id', async (c) => {
    const id = eventId(c);
    await caller(c, id);
    return c.json({ event: await store.eventInfo(id) });
  });

  app.put('/api/events/:id/seating', sizeLimit(LIMITS.backup), async (c) => {
    const id = eventId(c);
    await caller(c, id);
    const body = parseOrThrow(seatingBodySchema, await jsonBody(c));
    const entries = 'csv' in body ? parseSeatingCsv(body.csv) : body.seating;
    return c.json({ event: await store.setSeating(id, entries) });
  });

  app.post('/api/join', sizeLimit(LIMITS.small), async (c) => {
    limit(c, joins, 'joins');
    const body = parseOrThrow(joinBodySchema, await jsonBody(c));
    return c.json(await store.join(body.code));
  });

  app.post('/api/events/:id/tables/:session/:table/ops', sizeLimit(LIMITS.ops), async (c) => {
    const id = eventId(c);
    const where = tableParams(c);
    const who = await caller(c, id, where);
    if (who.role !== 'table') throw new EventApiError('FORBIDDEN', 403, "only the table's own phones write its sheet");
    const body = parseOrThrow(opsBodySchema, await jsonBody(c));
    return c.json(await store.applyOps(id, where.session, where.table, body.ops));
  });

  app.get('/api/events/:id/tables/:session/:table', async (c) => {
    const id = eventId(c);
    const where = tableParams(c);
    await caller(c, id, where);
    return c.json({ sheet: await store.getSheet(id, where.session, where.table) });
  });

  app.get('/api/events/:id/standings', async (c) => c.json(await store.standings(eventId(c))));

  app.get('/api/events/:id/standings/stream', async (c) => {
    const id = eventId(c);
    await store.standings(id); // 404 before the stream opens
    return streamSSE(c, async (stream) => {
      let dirty = true;
      let wake: (() => void) | null = null;
      const off = store.onChange((changed) => {
        if (changed !== id) return;
        dirty = true;
        wake?.();
      });
      stream.onAbort(() => { off(); wake?.(); });
      const keepAlive = options.keepAliveMs ?? 15_000;
      while (!stream.aborted) {
        if (dirty) {
          dirty = false;
          await stream.writeSSE({ event: 'standings', data: JSON.stringify(await store.standings(id)) });
          // Coalesce a burst of changes into one message at most every 200 ms.
          await stream.sleep(200);
          continue;
        }
        const woke = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), keepAlive);
          wake = () => { clearTimeout(timer); resolve(true); };
        });
        wake = null;
        if (!woke && !stream.aborted) await stream.write(': keep-alive\n\n');
      }
      off();
    });
  });

  app.get('/api/events/:id/flags', async (c) => {
    const id = eventId(c);
    await caller(c, id);
    return c.json({ flags: await store.flags(id) });
  });

  app.post('/api/events/:id/flags/:flagId', sizeLimit(LIMITS.small), async (c) => {
    const id = eventId(c);
    await caller(c, id);
    const flagId = parseOrThrow(z.string().check(z.regex(/^fl_[A-Za-z0-9_-]{8,40}$/)), c.req.param('flagId'), 'flag id');
    const body = parseOrThrow(resolveFlagBodySchema, await jsonBody(c));
    return c.json({ flag: await store.resolveFlag(id, flagId, body.resolution, body.note) });
  });

  app.get('/api/events/:id/export/ema.csv', async (c) => {
    const id = eventId(c);
    await caller(c, id);
    const csv = standingsToEmaCsv(await store.standings(id), await store.sessionCount(id));
    c.header('Content-Type', 'text/csv; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${id}-results.csv"`);
    return c.body(csv);
  });

  app.get('/api/events/:id/export/backup.json', async (c) => {
    const id = eventId(c);
    await caller(c, id);
    c.header('Content-Disposition', `attachment; filename="${id}-backup.json"`);
    return c.json(await store.exportBackup(id));
  });

  app.all('/api/*', () => { throw new EventApiError('NOT_FOUND', 404, 'no such API route (see docs/event-api.md)'); });

  const dir = options.staticDir;
  if (dir && existsSync(path.join(dir, 'index.html'))) {
    app.use('*', serveStatic({ root: dir }));
    // The app routes in its fragment, so any other path gets the app's page.
    app.get('*', serveStatic({ root: dir, rewriteRequestPath: () => '/index.html' }));
  }
  return app;
}
