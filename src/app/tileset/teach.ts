/**
 * The two places the scanner meets the tile-set profile, kept tiny for the first load: the learning
 * code (learner.ts, its worker and the profile's format) is imported only when a photo is read
 * with a stored profile, or a confirmed hand teaches one.
 */
import { useEffect } from 'react';
import type { Work } from '../model/work.ts';
import type { ScanResult } from '../../vision/types.ts';
import { hasTileSet } from './db.ts';

/** A scan read again with the device's profile; as it was when there is none or reading fails. */
export async function readWithTileSet(photo: Blob, result: ScanResult): Promise<ScanResult> {
  if (!result.tiles.length || !(await hasTileSet())) return result;
  try {
    return await (await import('./learner.ts')).applyTileSet(photo, result);
  } catch {
    return result;
  }
}

/** When the player reaches the score of a hand read from a photo, its corrected tiles teach the
 * profile (on the device only; learner.ts does nothing when learning is off). A hand corrected
 * again and scored again replaces what it taught. */
export function useTeachOnResult(work: Work): void {
  useEffect(() => {
    if (work.source !== 'photo' || !work.photo) return;
    const id = setTimeout(() => { void import('./learner.ts').then((m) => m.teachHand(work)).catch((e: unknown) => console.warn('tile set: this hand could not be learnt', e)); }, 400);
    return () => clearTimeout(id);
  }, [work]);
}
