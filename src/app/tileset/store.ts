/**
 * The device's tile-set profile and the learning switch, in IndexedDB (idb-keyval, a database of
 * its own so that it outlives the work in progress and app updates). Small and free of the vision
 * code, so that the page and the learner share it (db.ts is the part the scanner loads on every photo).
 * The crops stored here never leave the device: nothing in the app sends them anywhere; only an
 * export the player asks for writes them to a file.
 */
import { delMany, get, keys, set } from 'idb-keyval';
import { emptyProfile, parseProfile, serializeProfile, type Profile } from '../../vision/profile/format.ts';
import { LEARNING_KEY as LEARNING, PROFILE_KEY as PROFILE, TAUGHT_PREFIX, tilesetDb as db } from './db.ts';

export { hasTileSet, learningEnabled } from './db.ts';

type Listener = () => void;
const listeners = new Set<Listener>();
export function onTileSetChange(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
const changed = () => listeners.forEach((l) => l());

/** The stored profile (as its file's text, checked again on every read); an empty one when there is none or it is damaged. */
export async function loadTileSet(): Promise<Profile> {
  try {
    const text = (await get(PROFILE, db())) as string | undefined;
    return text ? parseProfile(text) : emptyProfile();
  } catch {
    return emptyProfile();
  }
}

export async function saveTileSet(p: Profile): Promise<void> {
  await set(PROFILE, serializeProfile(p), db());
  changed();
}

/** Forget the profile, and which hands taught it (so that a hand confirmed again teaches anew). */
export async function resetTileSet(): Promise<void> {
  const taught = (await keys(db())).filter((k) => String(k).startsWith(TAUGHT_PREFIX));
  await delMany([PROFILE, ...taught], db());
  changed();
}

export async function setLearningEnabled(on: boolean): Promise<void> {
  await set(LEARNING, on, db());
  changed();
}
