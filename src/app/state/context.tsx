import { createContext, useContext, type ReactNode } from 'react';
import type { Store } from './store.ts';
import { useStore } from './store.ts';
import type { AppState } from './store.ts';

const StoreContext = createContext<Store | null>(null);

export function StoreProvider({ store, children }: { store: Store; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** The scanner's store, or null outside a StoreProvider (a page tested on its own). */
export function useAppStoreIfAny(): Store | null {
  return useContext(StoreContext);
}

export function useAppStore(): Store {
  const s = useContext(StoreContext);
  if (!s) throw new Error('StoreProvider is missing');
  return s;
}

export function useSelect<T>(select: (s: AppState) => T): T {
  return useStore(useAppStore(), select);
}
