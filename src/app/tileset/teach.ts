/**
 * The places the scanner meets the tile-set profile, kept tiny for the first load: the learning
 * code (learner.ts, its worker and the profile's format) is imported only when a photo is read
 * with a stored profile, or a confirmed hand has to teach one.
 *
 * A confirmed hand teaches through a queue in IndexedDB (db.ts TeachJob): the moment the player
 * reaches its score, its tiles and a copy of its photo are stored, and the learner teaches the
 * queued hands in the background. So leaving the score at once, starting a new hand or closing
 * the app loses nothing: what is left in the queue is taught at the next start (resumeTeaching).
 */
import { useEffect } from 'react';
import { get, set } from 'idb-keyval';
import type { Work } from '../model/work.ts';
import { loadPhoto } from '../state/store.ts';
import type { ScanProfile } from '../../vision/protocol.ts';
import { TILE_CODES } from '../../vision/types.ts';
import { hasTileSet, learningEnabled, TAUGHT_PREFIX, TEACH_PREFIX, teachJobKeys, tilesetDb, type TeachJob } from './db.ts';

/** The device's profile for a scan to read with (the recognition worker applies it in its read
 * stage); undefined when there is none, or it cannot be read (the scan then reads without it). */
export async function tileSetForScan(): Promise<ScanProfile | undefined> {
  if (!(await hasTileSet())) return undefined;
  try {
    return await (await import('./learner.ts')).profileForScan();
  } catch (e) {
    console.warn('tile set: the profile could not be read; this photo is read without it', e);
    return undefined;
  }
}

const CODES = new Set<string>(TILE_CODES);

/**
 * Store the confirmed hand's tiles (those with a box on the photo) and a copy of its photo as a
 * teaching job, then start the learner on the queue. Nothing is stored when learning is off, the
 * hand was not read from a photo, or the same tiles of the same photo were taught or queued
 * already. Resolves once the job is stored.
 */
export async function queueTeach(work: Work): Promise<boolean> {
  if (work.source !== 'photo' || !work.photo || !(await learningEnabled())) return false;
  const tiles = work.tiles.flatMap((t) => (t.box && CODES.has(t.code) ? [{ code: t.code, box: [...t.box] as TeachJob['tiles'][number]['box'] }] : []));
  if (!tiles.length) return false;
  const source = work.photo.key;
  const sig = JSON.stringify(tiles);
  const db = tilesetDb();
  const [waiting, taught] = await Promise.all([get(TEACH_PREFIX + source, db) as Promise<TeachJob | undefined>, get(TAUGHT_PREFIX + source, db) as Promise<string | undefined>]);
  if (waiting ? waiting.sig === sig : taught === sig) return false;
  const photo = await loadPhoto(source);
  if (!photo) return false;
  const job: TeachJob = { source, at: Date.now(), photo, tiles, sig };
  await set(TEACH_PREFIX + source, job, db);
  void drain();
  return true;
}

/** The learner teaches what the queue holds (one drain at a time, in the learner). */
function drain(): Promise<void> {
  return import('./learner.ts').then((m) => m.drainTeachQueue()).catch((e: unknown) => console.warn('tile set: the queued hands could not be learnt yet', e));
}

/** At start: teach the hands a closed or reloaded app left in the queue. */
export async function resumeTeaching(): Promise<void> {
  try {
    if ((await teachJobKeys()).length) await drain();
  } catch (e) {
    console.warn('tile set: the teaching queue could not be read', e);
  }
}

/** When the player reaches the score of a hand read from a photo, the hand is queued to teach the
 * profile at once (on the device only; nothing when learning is off). A hand corrected again and
 * scored again replaces what it taught. */
export function useTeachOnResult(work: Work): void {
  useEffect(() => {
    if (work.source !== 'photo' || !work.photo) return;
    const queued = queueTeach(work).catch((e: unknown) => { console.warn('tile set: this hand could not be queued for learning', e); return false; });
    // whether the hand was queued, for the end-to-end test (as window.__mjStore is)
    (globalThis as { __mjTeach?: Promise<boolean> }).__mjTeach = queued;
  }, [work]);
}
