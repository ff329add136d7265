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
  addHand, createSheet, deleteHand, editHand, isSheetError, parseGameRecord, playerAtSeat, rulesOf, seatingFor, seatingsOf,
  sheetToGameRecord, SheetError,
  type GameRecordJson, type HandSeating, type SheetHand, type SheetMeta, type SheetRecord, type SheetRules,
} from '../../engine/sheet.ts';
import { WINDS, type Wind } from '../../engine/index.ts';
import type { History } from '../model/commands.ts';
import type { Work } from '../model/work.ts';
import { setTableRuleset } from '../ruleset/active.ts';
import { createMirror, nextStamp, type Mirror } from '../state/mirror.ts';

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
// The app-wide store and "add to sheet"

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

export interface ScoredHandInput {
  /** The winner's seat wind in this hand, as in WinContext.seatWind. */
  winnerSeat: Wind;
  selfDrawn: boolean;
  /** The discarder's seat wind, as in WinContext.discarder; ignored when self-drawn. */
  discarderSeat?: Wind | null;
  /** The scored total (flowers included). */
  points: number;
  /** The hand link (from share/link.ts), so the sheet can prove the hand later. */
  link?: string;
  /** The ruleset that scored the hand (ScoreResult.ruleset); it must be the table's. */
  ruleset?: string;
  /** Fan Pays: what each seat received (+) or paid (−), as the result worked it out (win and secret kongs). */
  payments?: Record<Wind, number> | null;
  /** Fan Pays: the dealer's seat and run of wins the hand was scored with. On a table the dealer
   * sits East with the sheet's run, or the payments would not be the sheet's. */
  dealer?: Wind;
  dealerRun?: number;
}

export type AddResult =
  | { ok: true; handNumber: number; record: SheetRecord }
  /** `error` is the sheet's own error (absent for NO_TABLE); the app shows it translated (sheetErrorMessage in i18n.ts). */
  | { ok: false; code: string; message: string; error?: SheetError };

/**
 * Build the sheet hand for a scored hand: seat winds are mapped to players
 * through the seat rotation of hand `index` (0-based; the next hand on the sheet by default).
 */
export function scoredHandToSheetHand(record: SheetRecord, input: ScoredHandInput, index = record.hands.length): SheetHand {
  const rules = rulesOf(record);
  // the seats of that hand (Fan Pays: they follow the deal, which the earlier hands' winners move)
  const seating = seatingFor(record, index);
  if (input.ruleset !== undefined && input.ruleset !== rules) {
    throw new SheetError('CONFLICTING_FIELDS', `this hand was scored by ${input.ruleset === 'fan-pays' ? 'Fan Pays' : 'MCR'} rules, but the table plays ${rules === 'fan-pays' ? 'Fan Pays' : 'MCR'}`, { hand: index + 1, field: 'rules' });
  }
  if (rules === 'fan-pays' && input.dealer !== undefined && (input.dealer !== 'E' || (input.dealerRun ?? 0) !== seating.dealerRun)) {
    throw new SheetError('CONFLICTING_FIELDS', `this hand was scored with the dealer at ${input.dealer} after ${input.dealerRun ?? 0} wins in a row, but ${record.players[seating.dealer]} deals hand ${index + 1} (East) after ${seating.dealerRun}`, { hand: index + 1, field: 'dealer' });
  }
  const winner = playerAtSeat(seating, input.winnerSeat);
  let discarder: number | null = null;
  if (!input.selfDrawn) {
    if (!input.discarderSeat) {
      throw new SheetError('MISSING_FIELD', 'say who discarded the winning tile, or mark the win self-drawn', { hand: index + 1, field: 'discarder' });
    }
    discarder = playerAtSeat(seating, input.discarderSeat);
  }
  // Fan Pays: keep the result's own amounts, by player (dealer penalty and secret kongs included).
  let amounts: number[] | undefined;
  if (rules === 'fan-pays' && input.payments) {
    amounts = [0, 0, 0, 0];
    for (const w of WINDS) amounts[playerAtSeat(seating, w)] = input.payments[w];
  }
  return {
    kind: 'win',
    winner,
    selfDrawn: input.selfDrawn,
    discarder,
    points: input.points,
    source: 'scored',
    ...(input.link ? { link: input.link } : {}),
    ...(amounts ? { amounts } : {}),
    penalties: [],
  };
}

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

export interface NextHandInfo {
  /** 1-based number of the next hand. */
  handNumber: number;
  /** The table's ruleset. */
  rules: SheetRules;
  prevalentWind: Wind;
  /** The players by seat wind for the next hand. */
  playerBySeat: Record<Wind, string>;
  dealer: string;
  /** Fan Pays: the dealer's wins in a row before this hand (the Repeat Dealership count); 0 in MCR. */
  dealerRun: number;
}

/** Who sits where in hand `index` (0-based) of the sheet. */
export function handInfo(record: SheetRecord, index: number): NextHandInfo {
  return infoOf(record, seatingFor(record, index));
}

function infoOf(record: SheetRecord, s: HandSeating): NextHandInfo {
  const playerBySeat = {} as Record<Wind, string>;
  s.seatWinds.forEach((w, p) => { playerBySeat[w] = record.players[p]; });
  return { handNumber: s.handIndex + 1, rules: rulesOf(record), prevalentWind: s.prevalentWind, playerBySeat, dealer: record.players[s.dealer], dealerRun: s.dealerRun };
}

/** Who sits where in the next hand, or null when there is no table or the game is over. */
export function nextHandInfo(record: SheetRecord | null): NextHandInfo | null {
  const next = record ? seatingsOf(record).next : null;
  return record && next ? infoOf(record, next) : null;
}

// ---------------------------------------------------------------------------
// Which sheet hand a scanned hand went to
//
// The result screen must know, after a reload or a trip to the Table tab, that
// the hand on screen is already on the sheet, or it would offer to add it again
// (as the next hand, with the next hand's seats). So when a result is added, the
// scanner's work remembers it (`SheetMark`, saved with the work's history), and
// the sheet hand it made is found again by its hand link.
//
// What a club referee expects when the hand is corrected after it was added:
// it is still the same hand of the game, so the result offers to update that
// sheet hand (same hand number, same seats, its penalties kept), never to add a
// second one. A new photo or a newly typed hand is new work, and is added as the
// next hand. When the sheet hand is no longer there (deleted, undone, edited by
// hand so that it lost its link, or another table started), the hand is not on
// the sheet, and may be added again.

/** Set on the scanner's work once its result is on the sheet. */
export interface SheetMark {
  /** 0-based index of the sheet hand when it was added or last updated. */
  index: number;
  /** The hand link put on that sheet hand: it finds the hand again. */
  link: string;
  /**
   * The work's tile uids then. Commands keep a tile's uid and every new tile gets
   * a fresh one (loadTiles included), so a snapshot that still holds one of these
   * tiles is this work, corrected or not, and a new scan or typed hand is not.
   */
  uids: string[];
}

/**
 * The work with its mark. Not a field of `Work` itself: the mark belongs to the
 * session feature; it rides along in the work's snapshots (every command copies
 * the work with `...w`) and is saved and loaded with them.
 */
export type MarkedWork = Work & { sheet?: SheetMark };

/** A hand link without the page's address (`#/h/` onwards), so a moved app still finds its hands. */
const linkKey = (link: string): string => {
  const at = link.indexOf('#/h/');
  return at >= 0 ? link.slice(at) : link;
};

/** The mark of `work` when it is really this work's (a stale one rides along into new work). */
export function sheetMarkOf(work: Work): SheetMark | null {
  const mark = (work as MarkedWork).sheet;
  if (!mark || !Array.isArray(mark.uids)) return null;
  return work.tiles.some((t) => mark.uids.includes(t.uid)) ? mark : null;
}

/** 0-based index of the sheet hand this work was put on, or null when it is not on the sheet. */
export function sheetHandOf(record: SheetRecord | null, work: Work): number | null {
  const mark = sheetMarkOf(work);
  if (!record || !mark) return null;
  const key = linkKey(mark.link);
  const holds = (h: SheetHand | undefined) => h?.kind === 'win' && h.link !== undefined && linkKey(h.link) === key;
  if (holds(record.hands[mark.index])) return mark.index;
  // Hands before it were deleted, so it moved up.
  const at = record.hands.findIndex(holds);
  return at >= 0 ? at : null;
}

/** Mark every snapshot of this work in the history (undo and redo keep the mark); other works' snapshots stay. */
export function markHistory(history: History, mark: SheetMark): History {
  const put = (w: Work): Work => (w.tiles.some((t) => mark.uids.includes(t.uid)) ? ({ ...w, sheet: mark } as MarkedWork) : w);
  return { past: history.past.map(put), present: put(history.present), future: history.future.map(put) };
}

/** What the result screen offers for the work on screen. */
export type SheetPlace =
  /** No table, or the sheet is full and this hand is not on it. */
  | { kind: 'none' }
  /** Add it as the next hand. `lost`: the hand number it was added as before, when that hand has left the sheet. */
  | { kind: 'new'; hand: NextHandInfo; lost: number | null }
  /** It is on the sheet as it is now. */
  | { kind: 'added'; hand: NextHandInfo }
  /** It is on the sheet, but the player changed it since: update that hand. */
  | { kind: 'changed'; hand: NextHandInfo };

/** Where the work on screen stands on the sheet; `link` is its hand link as scored now. */
export function sheetPlace(record: SheetRecord | null, work: Work, link: string): SheetPlace {
  if (!record) return { kind: 'none' };
  const index = sheetHandOf(record, work);
  if (index !== null) {
    const h = record.hands[index];
    const same = h.kind === 'win' && h.link !== undefined && linkKey(h.link) === linkKey(link);
    return { kind: same ? 'added' : 'changed', hand: handInfo(record, index) };
  }
  const next = nextHandInfo(record);
  if (!next) return { kind: 'none' };
  const mark = sheetMarkOf(work);
  return { kind: 'new', hand: next, lost: mark ? mark.index + 1 : null };
}
