/** The tile-set profile's IndexedDB store (a database of its own, so that it outlives the work in
 * progress and app updates), and what the scanner reads there on every photo or confirmed hand
 * without loading the learning code: whether a profile with examples is stored, whether learning
 * is on, and the queue of confirmed hands waiting to teach it. */
import { createStore, get, keys, type UseStore } from 'idb-keyval';

let idb: UseStore | null = null;
export const tilesetDb = (): UseStore => (idb ??= createStore('mahjong-tileset', 'profile'));
export const PROFILE_KEY = 'profile';
export const LEARNING_KEY = 'learning';
/** A confirmed hand waiting to teach the profile is stored under `teach:` + its photo's key (a
 * hand confirmed again replaces its waiting job); once taught, `taught:` + the photo's key holds
 * what it taught (TeachJob.sig), so that the same hand confirmed unchanged is not taught twice. */
export const TEACH_PREFIX = 'teach:';
export const TAUGHT_PREFIX = 'taught:';

/** A confirmed hand's tiles, with the photo they were read from, kept until they have taught the profile. */
export interface TeachJob {
  /** The photo's key in the work store (the taught examples' `source`). */
  source: string;
  /** When the hand was confirmed (ms since 1970); jobs are taught in this order. */
  at: number;
  /** A copy of the photo, so that starting a new hand (which prunes old photos) loses nothing. */
  photo: Blob;
  /** The confirmed tiles: code and box in pixels of the EXIF-rotated photo. */
  tiles: { code: string; box: [number, number, number, number] }[];
  /** The tiles as text: what this job teaches. */
  sig: string;
  /** Failed attempts so far (the learning worker could not read the photo). */
  attempts?: number;
}

/** Whether a profile with examples is stored. */
export async function hasTileSet(): Promise<boolean> {
  try {
    const text = (await get(PROFILE_KEY, tilesetDb())) as string | undefined;
    return !!text && text.includes('"code"');
  } catch {
    return false;
  }
}

/** Whether confirmed hands teach the profile (on unless the player turned it off). */
export async function learningEnabled(): Promise<boolean> {
  try { return ((await get(LEARNING_KEY, tilesetDb())) as boolean | undefined) ?? true; } catch { return false; }
}

/** The keys of the confirmed hands waiting to teach the profile. */
export async function teachJobKeys(): Promise<string[]> {
  return (await keys(tilesetDb())).map(String).filter((k) => k.startsWith(TEACH_PREFIX));
}
