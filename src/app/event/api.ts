/**
 * The app's client of the event server (docs/event-api.md). Every call goes to this page's own
 * origin (`/api/...`, relative to the page), and every failure is an `EventError` with a code the
 * screens translate: a wrong code, a server out of reach, a token the server no longer knows.
 */
import {
  joinReplySchema, normalizeCode, opsReplySchema, tableSheetSchema,
  type CreateEventBody, type EventInfo, type Flag, type JoinReply, type Op, type Resolution, type Standings, type TableSheet,
} from '../../event/protocol.ts';

export type {
  EventInfo, EventRules, Flag, HandCheck, JoinReply, Op, SheetEntry, Standing, Standings, TableInfo, TableSheet,
} from '../../event/protocol.ts';
export { formatCode, normalizeCode } from '../../event/protocol.ts';

export type CreateEventInput = CreateEventBody;

export type EventErrorCode =
  /** No answer at all (offline, server down, DNS). */
  | 'UNREACHABLE'
  /** No table has this code. */
  | 'WRONG_CODE'
  /** The token or director key is not (or no longer) accepted. */
  | 'TOKEN_INVALID'
  | 'RATE_LIMITED'
  /** The server refused what was sent (its message says what; `serverCode` INVALID_HAND, SHEET_FULL, ...). */
  | 'BAD_INPUT'
  | 'NOT_FOUND'
  | 'SERVER'
  /** The server answered with something this app does not understand. */
  | 'BAD_REPLY';

export class EventError extends Error {
  readonly code: EventErrorCode;
  readonly status: number | null;
  /** The server's own error code, when it sent one. */
  readonly serverCode: string | null;
  constructor(code: EventErrorCode, message: string, where: { status?: number | null; serverCode?: string | null } = {}) {
    super(message);
    this.name = 'EventError';
    this.code = code;
    this.status = where.status ?? null;
    this.serverCode = where.serverCode ?? null;
  }
}
export const isEventError = (e: unknown): e is EventError => e instanceof EventError;

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Which errors are worth sending again later (the same ops, the same ids). */
export const retryable = (e: EventError): boolean => e.code === 'UNREACHABLE' || e.code === 'RATE_LIMITED' || e.code === 'SERVER';

function codeFor(status: number, serverCode: string | null, what: 'join' | 'other'): EventErrorCode {
  if (status === 429) return 'RATE_LIMITED';
  if (what === 'join' && (status === 404 || serverCode === 'UNKNOWN_CODE')) return 'WRONG_CODE';
  if (status === 401 || status === 403) return 'TOKEN_INVALID';
  if (status === 404) return 'NOT_FOUND';
  if (status >= 500) return 'SERVER';
  return 'BAD_INPUT';
}

export interface ApiOptions {
  fetch?: Fetch;
  /** The page's base (the app may be served under a path); `/api/...` is resolved against its origin. */
  base?: string;
}

export function createApi(opts: ApiOptions = {}) {
  const doFetch: Fetch = opts.fetch ?? ((i, init) => fetch(i, init));
  const url = (path: string) => (opts.base ? new URL(path, opts.base).toString() : path);

  /** A reply checked against its schema, so a wrong server never corrupts the phone's sheet. */
  const checked = <T>(schema: { safeParse(x: unknown): { success: true; data: T } | { success: false } }, what: string) => (x: unknown): T => {
    const r = schema.safeParse(x);
    if (!r.success) throw new EventError('BAD_REPLY', `the server's ${what} does not have the expected shape`);
    return r.data;
  };

  async function call<T>(method: string, path: string, body?: unknown, auth?: string, what: 'join' | 'other' = 'other', raw = false): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (auth) headers.authorization = `Bearer ${auth}`;
    let res: Response;
    try {
      res = await doFetch(url(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    } catch (e) {
      throw new EventError('UNREACHABLE', `the event server could not be reached (${e instanceof Error ? e.message : String(e)})`);
    }
    if (!res.ok) {
      let serverCode: string | null = null;
      let message = `HTTP ${res.status}`;
      try {
        const j = (await res.json()) as { error?: { code?: string; message?: string } };
        serverCode = j.error?.code ?? null;
        if (j.error?.message) message = j.error.message;
      } catch { /* not JSON: keep the status */ }
      throw new EventError(codeFor(res.status, serverCode, what), message, { status: res.status, serverCode });
    }
    if (raw) return (await res.text()) as T;
    try {
      return (await res.json()) as T;
    } catch {
      throw new EventError('BAD_REPLY', `the server's reply to ${method} ${path} is not JSON`, { status: res.status });
    }
  }

  const ev = (id: string) => `/api/events/${encodeURIComponent(id)}`;
  return {
    createEvent: (input: CreateEventInput) => call<{ event: EventInfo; directorKey: string }>('POST', '/api/events', input),
    getEvent: (id: string, key: string) => call<{ event: EventInfo }>('GET', ev(id), undefined, key),
    putSeating: (id: string, key: string, csv: string) => call<{ event: EventInfo }>('PUT', `${ev(id)}/seating`, { csv }, key),
    join: (code: string) => call<unknown>('POST', '/api/join', { code: normalizeCode(code) }, undefined, 'join').then(checked<JoinReply>(joinReplySchema, 'join reply')),
    sendOps: (j: { eventId: string; session: number; table: number; token: string }, ops: Op[]) =>
      call<unknown>('POST', `${ev(j.eventId)}/tables/${j.session}/${j.table}/ops`, { ops }, j.token).then(checked<{ applied: string[]; sheet: TableSheet }>(opsReplySchema, 'reply to the sent hands')),
    getSheet: (j: { eventId: string; session: number; table: number; token: string }) =>
      call<unknown>('GET', `${ev(j.eventId)}/tables/${j.session}/${j.table}`, undefined, j.token).then((x) => ({ sheet: checked<TableSheet>(tableSheetSchema, 'table sheet')((x as { sheet?: unknown })?.sheet) })),
    standings: (id: string) => call<Standings>('GET', `${ev(id)}/standings`),
    flags: (id: string, key: string) => call<{ flags: Flag[] }>('GET', `${ev(id)}/flags`, undefined, key),
    resolveFlag: (id: string, key: string, flagId: string, resolution: Resolution, note?: string) =>
      call<{ flag: Flag }>('POST', `${ev(id)}/flags/${encodeURIComponent(flagId)}`, { resolution, ...(note ? { note } : {}) }, key),
    emaCsv: (id: string, key: string) => call<string>('GET', `${ev(id)}/export/ema.csv`, undefined, key, 'other', true),
    backup: (id: string, key: string) => call<string>('GET', `${ev(id)}/export/backup.json`, undefined, key, 'other', true),
    importBackup: (backup: unknown) => call<{ event: EventInfo; directorKey: string }>('POST', '/api/events/import', backup),
    standingsStreamUrl: (id: string) => url(`${ev(id)}/standings/stream`),
  };
}
export type EventApi = ReturnType<typeof createApi>;
