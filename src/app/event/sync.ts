/**
 * The table's sync with its event: every change the players make to the sheet becomes an op in a
 * queue saved on the phone (IndexedDB, with a synchronous localStorage copy so a reload straight
 * after a tap keeps it); a loop sends the queue whenever the phone is online, sends the same ops
 * with the same ids again after a failure (backing off), and puts the server's sheet of every reply
 * in place, so the phones at a table converge (see link.ts). Nothing is sent before a table joins.
 */
import type { SessionStore } from '../session/store.ts';
import type { SheetRecord } from '../../engine/sheet.ts';
import { computeSheet, isSheetError, maxHands, sheetToGameRecord } from '../../engine/sheet.ts';
import { createMirror, nextStamp, type Mirror } from '../state/mirror.ts';
import { EventError, isEventError, normalizeCode, retryable, type EventApi } from './api.ts';
import {
  acknowledge, DELETED_KEPT, newLink, opsFor, recordOf, viewOf, wireOp, type LinkState, type QueuedOp, type View,
} from './link.ts';

export const LINK_KEY = 'mahjong-scanner/event-link/v1';
/** Ops in one request. */
export const BATCH = 50;

export interface LinkStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export interface Online {
  isOnline(): boolean;
  /** Calls back with the new state on every change; returns the unsubscribe. */
  subscribe(cb: (online: boolean) => void): () => void;
}

export type SyncPhase = 'idle' | 'sending' | 'offline' | 'error';

export interface SyncState {
  loaded: boolean;
  link: LinkState | null;
  /** The sheet as shown, with each hand's id and server check (aligned with the session's hands). */
  view: View | null;
  phase: SyncPhase;
  error: EventError | null;
  /** When the next try is due after a failure (ms since the epoch), or null. */
  retryAt: number | null;
  /** Hands on the server beyond what a sheet holds (two phones added the same hand): shown on the event, not here. */
  hidden: number;
}

export interface SyncDeps {
  api: EventApi;
  session: SessionStore;
  storage: LinkStorage;
  online: Online;
  mirror?: Mirror<Saved>;
  newId?: () => string;
  now?: () => number;
  /** The photo of the scan being added to the sheet now (a reference the phone can load later). */
  photoRef?: () => string | undefined;
  /** The photo as a data: URL, or undefined when it is gone. */
  loadPhoto?: (ref: string) => Promise<string | undefined>;
  /** Read the server's sheet this often while idle and online (ms); 0 turns polling off. */
  pollMs?: number;
  /** First retry delay and the longest (ms). */
  backoff?: { first: number; max: number };
  /** Remember that a table is joined (the app's boot flag). */
  onJoined?: (joined: boolean) => void;
  /** Whether the page is seen; a hidden page sends its queue but does not read the sheet. */
  visible?: () => boolean;
  /** 0..1, spreads retries (tests pass a constant). */
  random?: () => number;
}

/** What is saved: the link with the stamp of the change (the newer of the IndexedDB and localStorage copies wins). */
interface Saved { stamp: number; link: LinkState | null }

/**
 * How many hands from the start make a valid sheet. Two phones can each add "hand 16", or a merge
 * can leave a Fan Pays hand after the game's end: the table shows the valid run and says how many
 * more the server holds, rather than a sheet it cannot compute.
 */
function validRun(record: SheetRecord): number {
  let n = Math.min(record.hands.length, maxHands(record.rules));
  for (;;) {
    try {
      computeSheet({ ...record, hands: record.hands.slice(0, n) });
      return n;
    } catch (e) {
      if (!isSheetError(e) || e.hand === null || e.hand < 1 || e.hand > n) return 0;
      n = e.hand - 1;
    }
  }
}

const sameRecord = (a: SheetRecord | null, b: SheetRecord | null) =>
  a === b || (!!a && !!b && JSON.stringify(sheetToGameRecord(a)) === JSON.stringify(sheetToGameRecord(b)));

export function createEventSync(deps: SyncDeps) {
  const { api, session, storage, online } = deps;
  const mirror = deps.mirror ?? createMirror<Saved>(LINK_KEY);
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const now = deps.now ?? (() => Date.now());
  const pollMs = deps.pollMs ?? 5000;
  const backoff = deps.backoff ?? { first: 1000, max: 30_000 };
  const visible = deps.visible ?? (() => true);
  const random = deps.random ?? Math.random;

  let state: SyncState = { loaded: false, link: null, view: null, phase: 'idle', error: null, retryAt: null, hidden: 0 };
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());
  const setState = (patch: Partial<SyncState>) => { state = { ...state, ...patch }; emit(); };

  /** The hands on the session screen with their ids (what a local change is compared with). */
  let shown: { hands: SheetRecord['hands']; ids: string[] } = { hands: [], ids: [] };
  let adopting = false;
  let busy: Promise<void> | null = null;
  let failures = 0;
  /** Ops in the request under way; one at a time while looking for the one the server refuses. */
  let sentCount = 0;
  let probing = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;
  let saving: Promise<void> = Promise.resolve();
  let loading: Promise<void> | null = null;

  const persist = (link: LinkState | null) => {
    const saved: Saved = { stamp: nextStamp(), link };
    mirror.write(saved.stamp, saved);
    saving = saving.then(() => storage.set(LINK_KEY, saved)).catch(() => undefined);
  };

  const setLink = (link: LinkState | null) => {
    persist(link);
    setState({ link, view: link ? viewOf(link) : null });
  };

  /** Put the link's sheet on the session screen. Undo steps survive only when no one else changed it. */
  const adoptView = (keepHistory: boolean) => {
    const link = state.link;
    if (!link) return;
    const view = viewOf(link);
    const count = validRun(recordOf(link, view.hands));
    const hands = view.hands.slice(0, count);
    shown = { hands, ids: view.ids.slice(0, count) };
    const hidden = view.hands.length - hands.length;
    if (hidden !== state.hidden) setState({ hidden });
    const record = recordOf(link, hands);
    const current = session.getState().record;
    if (sameRecord(current, record)) return;
    adopting = true;
    try {
      session.adopt(record, { keepHistory });
    } finally {
      adopting = false;
    }
  };

  /** A change made on this phone: ops for it, queued and saved before anything else happens. */
  const onSession = () => {
    if (adopting || !state.link || !session.getState().loaded) return;
    const record = session.getState().record;
    const link = state.link;
    if (!record) {
      // "New table" while joined: the sheet is the event's; put it back (leaving is its own action).
      adoptView(true);
      return;
    }
    const { ops, ids, removed } = opsFor(shown, record.hands, { now: now(), newId, deleted: link.deleted });
    const normal = recordOf(link, record.hands);
    if (ops.length > 0) {
      const ref = link.sendPhotos ? deps.photoRef?.() : undefined;
      const queued: QueuedOp[] = ops.map((op) => (ref && op.kind === 'put' && op.hand.kind === 'win' && op.hand.link && op.hand.source === 'scored' ? { ...op, photoRef: ref } : op));
      const dropped = new Set(removed.map((r) => r.handId));
      const deleted = [...removed, ...link.deleted.filter((d) => !dropped.has(d.handId) && !ids.includes(d.handId))].slice(0, DELETED_KEPT);
      shown = { hands: record.hands, ids };
      setLink({ ...link, queue: [...link.queue, ...queued], deleted });
      kick(0);
    }
    // players, rules or header changed (an imported file): the event's own stay
    if (!sameRecord(record, normal)) {
      adopting = true;
      try { session.adopt(normal, { keepHistory: true }); } finally { adopting = false; }
    }
  };

  const clearTimer = () => { if (timer) { clearTimeout(timer); timer = null; } };
  /** Try again in `ms`. */
  function kick(ms: number) {
    if (!running) return;
    clearTimer();
    timer = setTimeout(() => { timer = null; void round(); }, ms);
  }

  const photoOf = async (op: QueuedOp, sendPhotos: boolean): Promise<string | undefined> => {
    if (!sendPhotos || !op.photoRef || !deps.loadPhoto) return undefined;
    try { return await deps.loadPhoto(op.photoRef); } catch { return undefined; }
  };

  /** One exchange with the server: send what is queued (or read the sheet when nothing is). */
  async function exchange(): Promise<void> {
    const link = state.link;
    if (!link) return;
    if (!online.isOnline()) { setState({ phase: 'offline', retryAt: null }); return; }
    // nothing to send and nobody looking: read the sheet when the page is seen again
    if (link.queue.length === 0 && !visible()) { if (pollMs > 0) kick(pollMs); return; }
    setState({ phase: 'sending' });
    const token = link.join.token;
    try {
      let applied: string[] = [];
      let sheet;
      sentCount = 0;
      if (link.queue.length > 0) {
        const batch = link.queue.slice(0, probing ? 1 : BATCH);
        sentCount = batch.length;
        const wire = await Promise.all(batch.map(async (op) => wireOp(op, await photoOf(op, link.sendPhotos))));
        ({ applied, sheet } = await api.sendOps(link.join, wire));
      } else {
        ({ sheet } = await api.getSheet(link.join));
      }
      const current = state.link;
      // left or joined again while the request was out: its answer is for another link
      if (!current || current.join.token !== token) return;
      failures = 0;
      if (sentCount === 1) probing = false;
      const next = acknowledge(current, applied, sheet);
      setLink(next);
      // The reply changes the screen only when another phone changed the sheet (this phone's own
      // changes are on it already): the undo steps, made on the sheet before, no longer fit.
      adoptView(false);
      setState({ phase: 'idle', error: null, retryAt: null });
      if (next.queue.length > 0) kick(0);
      else if (pollMs > 0) kick(pollMs);
    } catch (e) {
      const err = isEventError(e) ? e : new EventError('BAD_REPLY', e instanceof Error ? e.message : String(e));
      if (!state.link || state.link.join.token !== token) return;
      if (retryable(err)) {
        failures++;
        // doubled each time, spread by a quarter either way so the tables of an event do not all
        // come back at once after the server restarts
        const delay = Math.round(Math.min(backoff.max, backoff.first * 2 ** (failures - 1)) * (0.75 + random() / 2));
        const offline = !online.isOnline();
        setState({ phase: offline ? 'offline' : 'error', error: err, retryAt: offline ? null : now() + delay });
        if (!offline) kick(delay);
      } else if (err.code === 'BAD_INPUT' && err.status !== null && sentCount > 0) {
        // The server refused the batch for one change (a hand that breaks the sheet's rules, a hand
        // on a full sheet): send one at a time to find it, and set that one aside, shown to the
        // table, so the changes behind it still go.
        const current = state.link;
        if (sentCount > 1) {
          probing = true;
          kick(0);
        } else {
          const [op] = current.queue;
          setLink({ ...current, queue: current.queue.slice(1), refused: [...(current.refused ?? []), { op, code: err.serverCode ?? err.code, message: err.message }] });
          adoptView(true);
          setState({ phase: 'error', error: err, retryAt: null });
          kick(0);
        }
      } else {
        // not accepted (a token the server no longer knows): the queue stays until the table joins again
        setState({ phase: 'error', error: err, retryAt: null });
      }
    }
  }

  /** Run one exchange (or wait for the one under way). */
  function round(): Promise<void> {
    busy ??= exchange().finally(() => { busy = null; });
    return busy;
  }

  const load = () => {
    loading ??= (async () => {
      await session.load();
      let saved: Saved | undefined;
      try { saved = (await storage.get(LINK_KEY)) as Saved | undefined; } catch { saved = undefined; }
      if (saved && typeof saved.stamp !== 'number') saved = undefined;
      // the mirror is newer when a reload came straight after a change
      const link = (mirror.newerThan(saved?.stamp) ?? saved)?.link ?? null;
      const valid = link && link.version === 1 && link.join && Array.isArray(link.queue) ? { ...link, refused: link.refused ?? [] } : null;
      setState({ loaded: true, link: valid, view: valid ? viewOf(valid) : null });
      if (valid) adoptView(true);
    })();
    return loading;
  };

  let offSession: (() => void) | null = null;
  let offOnline: (() => void) | null = null;

  return {
    getState: () => state,
    subscribe(l: () => void) { listeners.add(l); return () => { listeners.delete(l); }; },
    load,
    /** Load, listen to the sheet and the network, and start sending. */
    async start() {
      if (running) return;
      running = true;
      offSession = session.subscribe(onSession);
      offOnline = online.subscribe((on) => {
        if (on) { failures = 0; kick(0); } else setState({ phase: 'offline', retryAt: null });
      });
      await load();
      if (state.link) kick(0);
    },
    stop() {
      running = false;
      clearTimer();
      offSession?.();
      offOnline?.();
      offSession = offOnline = null;
    },
    /** One exchange now (the "Send now" button, and tests). */
    sync: round,
    /** Join the table of `code`: the sheet becomes the event's. Throws EventError. */
    async join(code: string) {
      await load();
      const clean = normalizeCode(code);
      if (!/^[0-9A-Z]{6,12}$/.test(clean)) throw new EventError('WRONG_CODE', `"${code}" is not a table code`);
      const old = state.link;
      const again = old && normalizeCode(old.join.code) === clean;
      if (old && !again && old.queue.length > 0) {
        throw new EventError('BAD_INPUT', `${old.queue.length} changes of table ${old.join.table} are not sent yet`, { serverCode: 'UNSENT_CHANGES' });
      }
      const reply = await api.join(clean);
      const join = { ...reply, code: clean };
      // the same table again (a new token): its queue and sheet stay
      const mine = session.getState().record;
      const link: LinkState = again && old && old.join.eventId === reply.eventId && old.join.session === reply.session && old.join.table === reply.table
        ? { ...old, join }
        // a sheet of the phone's own with hands is kept aside, not lost
        : { ...newLink(join), ...(!old && mine && mine.hands.length > 0 ? { before: sheetToGameRecord(mine) } : {}) };
      setLink(link);
      deps.onJoined?.(true);
      shown = { hands: [], ids: [] };
      adopting = true;
      try { session.adopt(recordOf(link, viewOf(link).hands), { keepHistory: false }); } finally { adopting = false; }
      adoptView(false);
      setState({ phase: 'idle', error: null, retryAt: null });
      failures = 0;
      if (running) kick(0);
      return join;
    },
    /** Leave the event: the sheet stays on the phone as a plain table. Refused while changes are unsent unless `force`. */
    leave({ force }: { force: boolean }) {
      const link = state.link;
      if (!link) return;
      if (link.queue.length > 0 && !force) throw new EventError('BAD_INPUT', `${link.queue.length} changes are not sent yet`, { serverCode: 'UNSENT_CHANGES' });
      clearTimer();
      setLink(null);
      deps.onJoined?.(false);
      setState({ phase: 'idle', error: null, retryAt: null, hidden: 0 });
    },
    setSendPhotos(on: boolean) {
      if (state.link) setLink({ ...state.link, sendPhotos: on });
    },
    /** Resolves when the link as it is now has been saved. */
    flushed: () => saving,
  };
}

export type EventSync = ReturnType<typeof createEventSync>;

/** The browser's network state. */
export const browserOnline: Online = {
  isOnline: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  subscribe(cb) {
    const on = () => cb(true);
    const off = () => cb(false);
    addEventListener('online', on);
    addEventListener('offline', off);
    return () => { removeEventListener('online', on); removeEventListener('offline', off); };
  },
};
