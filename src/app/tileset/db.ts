/** The tile-set profile's IndexedDB store (a database of its own, so that it outlives the work in
 * progress and app updates), and the one check the scanner makes on every photo without loading
 * the learning code: whether a profile with examples is stored. */
import { createStore, get, type UseStore } from 'idb-keyval';

let idb: UseStore | null = null;
export const tilesetDb = (): UseStore => (idb ??= createStore('mahjong-tileset', 'profile'));
export const PROFILE_KEY = 'profile';
export const LEARNING_KEY = 'learning';

/** Whether a profile with examples is stored. */
export async function hasTileSet(): Promise<boolean> {
  try {
    const text = (await get(PROFILE_KEY, tilesetDb())) as string | undefined;
    return !!text && text.includes('"code"');
  } catch {
    return false;
  }
}
