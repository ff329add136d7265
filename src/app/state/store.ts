/**
 * A small typed store for the scanner: the undo history of the work, the current
 * step, and nothing derived. Persisted to IndexedDB (idb-keyval) on every change
 * so the work survives a reload.
 */
import { useSyncExternalStore } from 'react';
import { createStore as createIdbStore, get, set, del, keys, type UseStore } from 'idb-keyval';
import type { Command, History } from '../model/commands.ts';
import { historyOf, perform, redo, undo } from '../model/commands.ts';
import type { Step, Work } from '../model/work.ts';
import { emptyWork, STEPS } from '../model/work.ts';
import { createMirror, nextStamp } from './mirror.ts';

export interface AppState {
  history: History;
  step: Step;
  /** The last undo/redo or command, for the screen-reader announcement. */
  announce: string | null;
  lastCommand: Command['label'] | null;
}

export interface Persisted {
  version: 1;
  history: History;
  step: Step;
  /** When it was saved (see mirror.ts); the newer of the IndexedDB and localStorage copies wins. */
  stamp?: number;
}

type Listener = () => void;

export interface Store {
  get(): AppState;
  subscribe(l: Listener): () => void;
  run(c: Command): void;
  undo(): void;
  redo(): void;
  goto(step: Step): void;
  reset(): void;
  replace(state: Partial<AppState>): void;
}

export const initialState = (): AppState => ({ history: historyOf(emptyWork()), step: 'capture', announce: null, lastCommand: null });

export function createStore(initial: AppState = initialState(), onChange?: (s: AppState) => void): Store {
  let state = initial;
  const listeners = new Set<Listener>();
  const setState = (next: AppState) => {
    if (next === state) return;
    state = next;
    listeners.forEach((l) => l());
    onChange?.(state);
  };
  return {
    get: () => state,
    subscribe(l) { listeners.add(l); return () => listeners.delete(l); },
    run(c) {
      const history = perform(state.history, c);
      setState({ ...state, history, lastCommand: c.label });
    },
    undo() {
      if (!state.history.past.length) return;
      setState({ ...state, history: undo(state.history), announce: 'undo' });
    },
    redo() {
      if (!state.history.future.length) return;
      setState({ ...state, history: redo(state.history), announce: 'redo' });
    },
    goto(step) { setState({ ...state, step }); },
    reset() { setState(initialState()); },
    replace(partial) { setState({ ...state, ...partial }); },
  };
}

export function useStore<T>(store: Store, select: (s: AppState) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()), () => select(store.get()));
}

export const useWork = (store: Store): Work => useStore(store, (s) => s.history.present);

/* ---------- persistence ---------- */

let idb: UseStore | null = null;
const db = (): UseStore => (idb ??= createIdbStore('mahjong-scanner', 'work'));
const KEY = 'work-v1';
const mirror = createMirror<Persisted>('mahjong-scanner/work-v1');

const validPersisted = (p: Persisted | null | undefined): p is Persisted =>
  !!p && p.version === 1 && !!p.history?.present && STEPS.includes(p.step);

/** The saved work: the IndexedDB copy, or the localStorage mirror when that is newer. */
export async function loadPersisted(): Promise<Persisted | null> {
  let p: Persisted | undefined;
  try {
    p = (await get(KEY, db())) as Persisted | undefined;
  } catch {
    p = undefined;
  }
  const m = mirror.newerThan(validPersisted(p) ? p.stamp ?? 0 : undefined);
  if (validPersisted(m)) return m;
  return validPersisted(p) ? p : null;
}

export function toPersisted(s: AppState): Persisted {
  return { version: 1, history: { ...s.history, past: s.history.past.slice(-30), future: s.history.future.slice(0, 30) }, step: s.step, stamp: nextStamp() };
}

export async function savePersisted(s: AppState | Persisted): Promise<void> {
  const p = 'version' in s ? s : toPersisted(s);
  await set(KEY, p, db());
}

export const savePhoto = (key: string, blob: Blob): Promise<void> => set(`photo:${key}`, blob, db());
export const loadPhoto = async (key: string): Promise<Blob | null> => {
  try { return ((await get(`photo:${key}`, db())) as Blob | undefined) ?? null; } catch { return null; }
};
export const deletePhoto = (key: string): Promise<void> => del(`photo:${key}`, db()).catch(() => undefined);

/** How many of the photos that only undo can reach are kept (each is a few MB on a phone). */
export const PAST_PHOTOS_KEPT = 2;

/**
 * The photos the history still needs: the present work's, those redo can reach, and those of the
 * PAST_PHOTOS_KEPT most recent other photos undo can reach (undoing further back brings the tiles
 * back without their photo).
 */
export function photosToKeep(h: History): Set<string> {
  const keep = new Set<string>();
  for (const w of [h.present, ...h.future]) if (w.photo) keep.add(w.photo.key);
  let older = 0;
  for (let i = h.past.length - 1; i >= 0 && older < PAST_PHOTOS_KEPT; i--) {
    const k = h.past[i]!.photo?.key;
    if (k && !keep.has(k)) { keep.add(k); older++; }
  }
  return keep;
}

/** Delete the stored photos the history no longer needs (photosToKeep): photos of hands started
 * over, replaced by a new scan or left by a reload in the middle of a scan. Never throws. */
export async function prunePhotos(h: History): Promise<void> {
  const keep = photosToKeep(h);
  try {
    const stored = (await keys(db())).map(String).filter((k) => k.startsWith('photo:'));
    await Promise.all(stored.filter((k) => !keep.has(k.slice('photo:'.length))).map((k) => del(k, db())));
  } catch {
    // storage unavailable: nothing to prune
  }
}

/**
 * Save after each change, straight away: one write in flight at a time, and
 * only the newest state is written next, so a reload right after a tap keeps it.
 */
export function persistOnChange(onError: (e: unknown) => void): { onChange: (s: AppState) => void; flush: () => Promise<void> } {
  let pending: Persisted | null = null;
  let writing: Promise<void> | null = null;
  const pump = (): Promise<void> => {
    if (writing) return writing;
    const s = pending;
    if (!s) return Promise.resolve();
    pending = null;
    writing = savePersisted(s).catch(onError).finally(() => { writing = null; if (pending) void pump(); });
    return writing;
  };
  return {
    onChange(s) {
      pending = toPersisted(s);
      mirror.write(pending.stamp!, pending); // done before the tap's handler returns
      void pump();
    },
    flush: async () => { while (writing || pending) await pump(); },
  };
}
