import { createContext, createElement, useCallback, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { addScoredHandTo, getSessionStore, nextHandInfo, type AddResult, type NextHandInfo, type ScoredHandInput, type SessionState, type SessionStore } from './store.ts';

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
 * For the result screen: whether a table is open, who sits where in the next
 * hand, and `addScoredHand` to put a scored hand on the sheet.
 */
export function useAddToSheet(): { available: boolean; next: NextHandInfo | null; addScoredHand: (input: ScoredHandInput) => AddResult } {
  const { record, store } = useSession();
  const addScoredHand = useCallback((input: ScoredHandInput) => addScoredHandTo(store, input), [store]);
  const next = nextHandInfo(record);
  return { available: next !== null, next, addScoredHand };
}
