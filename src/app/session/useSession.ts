import { createContext, createElement, useCallback, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { useAppStore, useSelect } from '../state/context.tsx';
import { handInfo, nextHandInfo, type NextHandInfo, type ScoredHandInput } from './seats.ts';
import { markHistory, sheetHandOf, sheetPlace, type SheetPlace } from './sheetMark.ts';
import {
  addScoredHandTo, getSessionStore, replaceScoredHandIn, type AddResult, type SessionState, type SessionStore,
} from './store.ts';

const StoreContext = createContext<SessionStore | null>(null);

/** Optional: give the session components another store (tests); the app-wide IndexedDB store by default. */
export function SessionStoreProvider({ store, children }: { store: SessionStore; children?: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

export function useSessionStore(): SessionStore {
  return useContext(StoreContext) ?? getSessionStore();
}

/** The session state; loads the saved session on first use. */
export function useSession(): SessionState & { store: SessionStore } {
  const store = useSessionStore();
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  useEffect(() => { void store.load(); }, [store]);
  return { ...state, store };
}

/**
 * For the scanner's win and result screens, with a table open: the hand the work
 * on screen is scored for (`next`: the sheet hand it was put on, else the next
 * hand), and with its hand `link`, where it stands on the sheet (`place`) and
 * `put` to add it, or to update the sheet hand it was put on once it changed.
 * `put` also marks the work, so a reload or another tab does not offer it again.
 */
export function useAddToSheet(link?: string): {
  next: NextHandInfo | null;
  place: SheetPlace;
  put: (input: ScoredHandInput) => AddResult;
} {
  const { record, store } = useSession();
  const app = useAppStore();
  const work = useSelect((s) => s.history.present);
  const onSheet = sheetHandOf(record, work);
  const next = record && onSheet !== null ? handInfo(record, onSheet) : nextHandInfo(record);
  const place: SheetPlace = link === undefined ? { kind: 'none' } : sheetPlace(record, work, link);
  const put = useCallback((input: ScoredHandInput): AddResult => {
    const present = app.get().history.present;
    const { record: now } = store.getState();
    const current = sheetPlace(now, present, input.link ?? '');
    // Already there as it is: nothing to add (a second tap, or a stale screen).
    if (current.kind === 'added' && now) return { ok: true, handNumber: current.hand.handNumber, record: now };
    const r = current.kind === 'changed'
      ? replaceScoredHandIn(store, current.hand.handNumber - 1, input)
      : addScoredHandTo(store, input);
    if (r.ok && input.link) {
      const mark = { index: r.handNumber - 1, link: input.link, uids: present.tiles.map((t) => t.uid) };
      app.replace({ history: markHistory(app.get().history, mark) });
    }
    return r;
  }, [app, store]);
  return { next, place, put };
}
