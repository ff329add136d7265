import { useSyncExternalStore } from 'react';
import { useSessionStore } from '../session/useSession.ts';
import { useAppStoreIfAny } from '../state/context.tsx';
import { getEventSync } from './boot.ts';
import type { EventSync, SyncState } from './sync.ts';

/** The event sync of the session on screen, and its state (re-rendered on every change). */
export function useEventSync(): { sync: EventSync; state: SyncState } {
  const sync = getEventSync(useSessionStore(), useAppStoreIfAny());
  const state = useSyncExternalStore(sync.subscribe, sync.getState, sync.getState);
  return { sync, state };
}
