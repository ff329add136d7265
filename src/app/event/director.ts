/**
 * The events this device directs: each event's director key, kept in IndexedDB (a database of its
 * own) so a reload keeps the director signed in. The key never leaves the device except to this
 * origin's event server, in the Authorization header.
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

export interface DirectedEvent { id: string; name: string; key: string; createdAt: number }

const KEY = 'directed';
let idb: UseStore | null = null;
const db = (): UseStore => (idb ??= createStore('mahjong-event-director', 'kv'));

export async function directedEvents(): Promise<DirectedEvent[]> {
  const list = (await get(KEY, db())) as DirectedEvent[] | undefined;
  return Array.isArray(list) ? list : [];
}

export async function rememberEvent(e: DirectedEvent): Promise<void> {
  const list = (await directedEvents()).filter((x) => x.id !== e.id);
  await set(KEY, [e, ...list], db());
}

export async function forgetEvent(id: string): Promise<void> {
  const list = (await directedEvents()).filter((x) => x.id !== id);
  if (list.length) await set(KEY, list, db());
  else await del(KEY, db());
}

export async function directorKey(id: string): Promise<string | null> {
  return (await directedEvents()).find((x) => x.id === id)?.key ?? null;
}
