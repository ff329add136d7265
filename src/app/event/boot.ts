/**
 * The app's one event sync: the session store, this origin's event server, the phone's IndexedDB
 * (a database of its own) and network state, and the scanner's photo for a scored hand (sent only
 * when the table turned photos on).
 */
import { createStore, get, set, type UseStore } from 'idb-keyval';
import { getSessionStore, type SessionStore } from '../session/store.ts';
import { loadPhoto } from '../state/store.ts';
import type { Store as AppStore } from '../state/store.ts';
import { createApi } from './api.ts';
import { setJoined } from './flag.ts';
import { browserOnline, createEventSync, type EventSync } from './sync.ts';

let idb: UseStore | null = null;
const eventDb = (): UseStore => (idb ??= createStore('mahjong-event', 'kv'));

/** The longest side of a photo sent to the referee: enough to read the tiles, small to send. */
const PHOTO_SIDE = 1280;

/** A stored photo as a JPEG data: URL, scaled down to PHOTO_SIDE. */
async function photoDataUrl(ref: string): Promise<string | undefined> {
  const blob = await loadPhoto(ref);
  if (!blob) return undefined;
  const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  const scale = Math.min(1, PHOTO_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return canvas.toDataURL('image/jpeg', 0.8);
}

const syncs = new WeakMap<SessionStore, EventSync>();
let appStore: AppStore | null = null;

/**
 * The event sync of a session store (the app's own by default), started on first use. `app` (the
 * scanner's store) gives a scored hand its photo.
 */
export function getEventSync(session: SessionStore = getSessionStore(), app?: AppStore | null): EventSync {
  if (app) appStore = app;
  const known = syncs.get(session);
  if (known) return known;
  const sync = createEventSync({
    api: createApi(),
    session,
    storage: { get: (k) => get(k, eventDb()), set: (k, v) => set(k, v, eventDb()) },
    online: browserOnline,
    photoRef: () => {
      const work = appStore?.get().history.present;
      return work?.source === 'photo' && work.photo ? work.photo.key : undefined;
    },
    loadPhoto: photoDataUrl,
    onJoined: setJoined,
    visible: () => document.visibilityState !== 'hidden',
  });
  // back on screen: read the sheet now rather than at the next poll
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') void sync.sync(); });
  syncs.set(session, sync);
  void sync.start();
  return sync;
}
