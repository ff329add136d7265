/**
 * The table session: the current score sheet with undo/redo, saved to IndexedDB
 * (idb-keyval) after every change so it survives reloads and crashes.
 *
 * Changes are pure commands `(record) => record` from src/engine/sheet.ts; the
 * store keeps the records before and after, so undo is free (STYLE.md: "pure
 * commands so that undo is free"). Totals are never stored: the view derives them
 * with computeSheet.
 */
import { get as idbGet, set as idbSet } from 'idb-keyval';
import {
  addHand, createSheet, deleteHand, editHand, isSheetError, parseGameRecord, rulesOf, sheetToGameRecord, SheetError,
  type GameRecordJson, type SheetHand, type SheetMeta, type SheetRecord, type SheetRules,
} from '../../engine/sheet.ts';
import { setTableRuleset } from '../ruleset/active.ts';
import { createMirror, nextStamp, type Mirror } from '../state/mirror.ts';
import { scoredHandToSheetHand, type ScoredHandInput } from './seats.ts';

export const STORAGE_KEY = 'mahjong-scanner/session/v1';
/** Undo steps kept (and saved). */
export const HISTORY_LIMIT = 50;

export interface SessionStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export const idbStorage: SessionStorage = {
  get: (key) => idbGet(key),
  set: (key, value) => idbSet(key, value),
};

export function memoryStorage(initial: Record<string, unknown> = {}): SessionStorage & { data: Record<string, unknown> } {
  const data: Record<string, unknown> = { ...initial };
  return {
    data,
    get: async (key) => (key in data ? structuredClone(data[key]) : undefined),
    set: async (key, value) => { data[key] = structuredClone(value); },
  };
}

export interface SessionState {
  /** False until the saved session has been read. */
  loaded: boolean;
  /** The sheet, or null when no table has been started. */
  record: SheetRecord | null;
  past: (SheetRecord | null)[];
  future: (SheetRecord | null)[];
  /** Set when saving or loading failed (the session still works in memory). */
  storageError: string | null;
}

/** What is saved: records as game-record JSON, so loading validates them again. */
interface Saved {
  version: 1;
  /** When it was saved (see ../state/mirror.ts); the newer of the two copies wins. */
  stamp?: number;
  record: GameRecordJson | null;
  past: (GameRecordJson | null)[];
  future: (GameRecordJson | null)[];
}

const toSaved = (r: SheetRecord | null) => (r ? sheetToGameRecord(r) : null);
const fromSaved = (r: unknown) => (r === null ? null : parseGameRecord(r));

export type Command = (record: SheetRecord | null) => SheetRecord | null;

export interface SessionStore {
  getState(): SessionState;
  subscribe(listener: () => void): () => void;
  /** Read the saved session (once). */
  load(): Promise<void>;
  /** Apply a command; throws SheetError (and changes nothing) when it fails. */
  perform(command: Command): void;
  undo(): void;
  redo(): void;
  /**
   * Put `record` in place without an undo step (a club event's copy of the sheet from its server,
   * src/app/event). With `keepHistory: false` the undo steps go too: they were made on a sheet
   * that another phone has changed since.
   */
  adopt(record: SheetRecord | null, options: { keepHistory: boolean }): void;
  /** Resolves when every change so far has been saved. */
  flushed(): Promise<void>;
}

/** `onRecord` hears the record after every change once loaded (the app mirrors the table's ruleset with it). */
export function createSessionStore(
  storage: SessionStorage = idbStorage,
  onRecord?: (record: SheetRecord | null) => void,
  mirror: Mirror<Saved> = createMirror<Saved>(STORAGE_KEY),
): SessionStore {
  let state: SessionState = { loaded: false, record: null, past: [], future: [], storageError: null };
  const listeners = new Set<() => void>();
  let saving: Promise<void> = Promise.resolve();
  let loading: Promise<void> | null = null;

  const emit = () => listeners.forEach((l) => l());
  const setState = (next: SessionState) => {
    state = next;
    // The scanner scores with the open table's ruleset.
    if (state.loaded) onRecord?.(state.record);
    emit();
  };

  const save = () => {
    const snapshot: Saved = {
      version: 1,
      stamp: nextStamp(),
      record: toSaved(state.record),
      past: state.past.map(toSaved),
      future: state.future.map(toSaved),
    };
    // The synchronous copy first, so a reload straight after this change keeps it.
    mirror.write(snapshot.stamp!, snapshot);
    // Writes are chained so the last change is also the last one written.
    saving = saving.then(() => storage.set(STORAGE_KEY, snapshot)).then(
      () => { if (state.storageError) setState({ ...state, storageError: null }); },
      (e: unknown) => setState({ ...state, storageError: e instanceof Error ? e.message : String(e) }),
    );
  };

  const commit = (next: SessionState) => { setState(next); save(); };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    load() {
      loading ??= (async () => {
        const valid = (x: Saved | null | undefined): x is Saved => !!x && x.version === 1;
        let saved: Saved | undefined;
        let readError: string | null = null;
        try {
          saved = (await storage.get(STORAGE_KEY)) as Saved | undefined;
        } catch (e) {
          readError = e instanceof Error ? e.message : String(e);
        }
        const newer = mirror.newerThan(valid(saved) ? saved.stamp ?? 0 : undefined);
        if (valid(newer)) saved = newer;
        try {
          if (valid(saved)) {
            const record = fromSaved(saved.record);
            // A broken history entry is dropped rather than losing the sheet.
            const keep = (list: unknown[]) => list.flatMap((r) => { try { return [fromSaved(r)]; } catch { return []; } });
            setState({ ...state, loaded: true, record, past: keep(saved.past ?? []), future: keep(saved.future ?? []), storageError: readError });
            return;
          }
          setState({ ...state, loaded: true, storageError: readError });
        } catch (e) {
          setState({ ...state, loaded: true, storageError: e instanceof Error ? e.message : String(e) });
        }
      })();
      return loading;
    },
    perform(command) {
      const next = command(state.record);
      if (next === state.record) return;
      commit({ ...state, record: next, past: [...state.past, state.record].slice(-HISTORY_LIMIT), future: [] });
    },
    undo() {
      if (state.past.length === 0) return;
      const prev = state.past[state.past.length - 1];
      commit({ ...state, record: prev, past: state.past.slice(0, -1), future: [state.record, ...state.future].slice(0, HISTORY_LIMIT) });
    },
    redo() {
      if (state.future.length === 0) return;
      const [next, ...rest] = state.future;
      commit({ ...state, record: next, past: [...state.past, state.record].slice(-HISTORY_LIMIT), future: rest });
    },
    adopt(record, { keepHistory }) {
      if (record === state.record) return;
      commit(keepHistory ? { ...state, record } : { ...state, record, past: [], future: [] });
    },
    flushed: () => saving,
  };
}

// ---------------------------------------------------------------------------
// Commands

const needTable = (r: SheetRecord | null): SheetRecord => {
  if (!r) throw new SheetError('MISSING_FIELD', 'start a table first', { field: 'players' });
  return r;
};

export const commands = {
  start: (players: string[], meta: SheetMeta = {}, rules: SheetRules = 'mcr'): Command => () => createSheet(players, meta, rules),
  close: (): Command => () => null,
  replace: (record: SheetRecord): Command => () => record,
  add: (hand: SheetHand): Command => (r) => addHand(needTable(r), hand),
  edit: (index: number, hand: SheetHand): Command => (r) => editHand(needTable(r), index, hand),
  remove: (index: number): Command => (r) => deleteHand(needTable(r), index),
  meta: (meta: SheetMeta): Command => (r) => ({ ...needTable(r), meta: { ...meta } }),
};

// ---------------------------------------------------------------------------
// The app-wide store and "add to sheet" (the seats: ./seats.ts)

let shared: SessionStore | null = null;

/** The app's session store (IndexedDB). Created and loaded on first use. */
export function getSessionStore(): SessionStore {
  if (!shared) {
    shared = createSessionStore(idbStorage, (record) => setTableRuleset(record ? rulesOf(record) : null));
    void shared.load();
  }
  return shared;
}

/** Use another store app-wide (tests). */
export function setSessionStore(store: SessionStore | null): void {
  shared = store;
}

export type AddResult =
  | { ok: true; handNumber: number; record: SheetRecord }
  /** `error` is the sheet's own error (absent for NO_TABLE); the app shows it translated (sheetErrorMessage in i18n.ts). */
  | { ok: false; code: string; message: string; error?: SheetError };

/** "Add to sheet" on a store: the result screen calls this after a scored hand. */
export function addScoredHandTo(store: SessionStore, input: ScoredHandInput): AddResult {
  const { record } = store.getState();
  if (!record) return { ok: false, code: 'NO_TABLE', message: 'Start a table first.' };
  try {
    const hand = scoredHandToSheetHand(record, input);
    store.perform(commands.add(hand));
    return { ok: true, handNumber: record.hands.length + 1, record: store.getState().record as SheetRecord };
  } catch (e) {
    if (isSheetError(e)) return { ok: false, code: e.code, message: e.message, error: e };
    throw e;
  }
}

/**
 * Put a scored hand in place of hand `index` (0-based): the result screen does
 * this when the player corrected a hand after adding it. The seats are those of
 * that hand, and the penalties written on the sheet for it stay.
 */
export function replaceScoredHandIn(store: SessionStore, index: number, input: ScoredHandInput): AddResult {
  const { record } = store.getState();
  if (!record) return { ok: false, code: 'NO_TABLE', message: 'Start a table first.' };
  try {
    const old = record.hands[index];
    if (!old) throw new SheetError('NO_SUCH_HAND', `there is no hand ${index + 1} on this sheet`, { hand: index + 1 });
    const hand = { ...scoredHandToSheetHand(record, input, index), penalties: old.penalties.map((p) => ({ ...p })) };
    store.perform(commands.edit(index, hand));
    return { ok: true, handNumber: index + 1, record: store.getState().record as SheetRecord };
  } catch (e) {
    if (isSheetError(e)) return { ok: false, code: e.code, message: e.message, error: e };
    throw e;
  }
}

/** "Add to sheet" on the app's store. */
export function addScoredHand(input: ScoredHandInput): AddResult {
  return addScoredHandTo(getSessionStore(), input);
}
