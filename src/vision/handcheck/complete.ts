/**
 * Complete hands and tile sets, decided by the rules (see handcheck/check.ts): at most four of a
 * tile and one of each flower; face-down tiles as concealed kongs' hidden halves or whole kongs;
 * MCR and 16-tile hand shapes. And the look-alike test the hand check reads unseen designs by.
 */
import { allPairsPung, honorsKnittedPattern, isKnittedComplete, isSevenPairs, isStandardComplete, isThirteenOrphans } from '../../engine/decompose.ts';
import { ALL_TILES, FLOWER_BASE, isFlower, TILE_KINDS } from '../../engine/tiles.ts';
import { CONFIG } from '../config.ts';
import { TILE_CODES } from '../types.ts';

// TILE_CODES follows the engine's tile ids (0..33 kinds, 34..41 flowers), then `back`.
export const BACK = TILE_CODES.indexOf('back');

/**
 * True when the classes (indices into TILE_CODES, one per tile seen) can be the
 * tiles of a finished MCR hand or a finished 16-tile hand.
 */
export function isCompleteTileSet(classes: readonly number[]): boolean {
  return completeBacks(classes, true) >= 0;
}

/** The classes without the flowers and seasons, which take no part in the hand's shape. */
export const withoutFlowers = (classes: readonly number[]): number[] => classes.filter((k) => !isFlower(k));

/**
 * How many of the face-down tiles a complete hand can take as concealed kongs (the most over the
 * ways it completes), or -1 when the classes do not make a complete hand. The rest are spare:
 * not part of the hand.
 */
export function usableBacks(classes: readonly number[]): number {
  return completeBacks(classes, false);
}

function completeBacks(classes: readonly number[], firstOnly: boolean): number {
  const c = new Uint8Array(TILE_KINDS);
  const flowers = new Uint8Array(ALL_TILES - FLOWER_BASE);
  let backs = 0, faces = 0;
  for (const k of classes) {
    if (k === BACK) backs++;
    else if (k >= FLOWER_BASE) { if (++flowers[k - FLOWER_BASE]! > 1) return -1; }
    else { if (++c[k]! > 4) return -1; faces++; }
  }
  let best = -1;
  for (const sets of [4, 5]) {
    // q kongs shown all face down, h kongs with two face-down tiles, the rest face up;
    // face-down tiles left over are not part of the hand (the wall, a neighbour's tiles)
    for (let q = 0; 4 * q <= backs; q++) {
      for (let h = 0; 4 * q + 2 * h <= backs; h++) {
        const kongs = faces + 2 * h + 4 * q - (3 * sets + 2);
        if (kongs < 0 || kongs > sets) continue;
        const open = kongs - q - h;
        if (open < 0) continue;
        if (4 * q + 2 * h > best && pickKongs(c, 0, h, open, sets - kongs, sets === 4 && kongs === 0)) {
          best = 4 * q + 2 * h;
          if (firstOnly) return best;
        }
      }
    }
  }
  return best;
}

/** Take `half` kongs (2 faces each) and `open` kongs (4 faces each) from distinct kinds, then test the rest. */
function pickKongs(c: Uint8Array, from: number, half: number, open: number, setsLeft: number, special: boolean): boolean {
  if (half === 0 && open === 0) return restComplete(c, setsLeft, special);
  for (let t = from; t < TILE_KINDS; t++) {
    const n = c[t]!;
    if (half > 0 && n >= 2) {
      c[t] = n - 2;
      const ok = pickKongs(c, t + 1, half - 1, open, setsLeft, special);
      c[t] = n;
      if (ok) return true;
    }
    if (open > 0 && n === 4) {
      c[t] = 0;
      const ok = pickKongs(c, t + 1, half, open - 1, setsLeft, special);
      c[t] = n;
      if (ok) return true;
    }
  }
  return false;
}

function restComplete(c: Uint8Array, setsLeft: number, special: boolean): boolean {
  if (isStandardComplete(c, setsLeft)) return true;
  if (setsLeft >= 3 && setsLeft <= 4 && isKnittedComplete(c, setsLeft)) return true;
  if (special && (isSevenPairs(c) || isThirteenOrphans(c) || honorsKnittedPattern(c) >= 0)) return true;
  if (setsLeft === 5 && allPairsPung(c) >= 0) return true;
  return false;
}

export function argmax(p: ArrayLike<number>): number {
  let b = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[b]!) b = k;
  return b;
}

/** Two tiles look alike: their probability vectors are closer than `maxL1` (L1). */
export function lookAlike(p: ArrayLike<number>, q: ArrayLike<number>, maxL1: number): boolean {
  let d = 0;
  for (let k = 0; k < p.length && d < maxL1; k++) d += Math.abs(p[k]! - q[k]!);
  return d < maxL1;
}

/** Groups (index lists, least sure first) of the tiles in `idx` whose probability vectors are
 * within `maxL1` of each other, linked in chains. */
export function lookAlikes(probs: readonly ArrayLike<number>[], idx: readonly number[], maxL1 = CONFIG.handCheck.twinL1): number[][] {
  const root = idx.map((_, j) => j);
  const find = (j: number): number => (root[j] === j ? j : (root[j] = find(root[j]!)));
  for (let a = 0; a < idx.length; a++) {
    for (let b = a + 1; b < idx.length; b++) {
      if (lookAlike(probs[idx[a]!]!, probs[idx[b]!]!, maxL1)) root[find(a)] = find(b);
    }
  }
  const groups = new Map<number, number[]>();
  idx.forEach((i, j) => { const r = find(j); groups.set(r, [...(groups.get(r) ?? []), i]); });
  const top = (i: number) => Math.max(...Array.from(probs[i]!));
  return [...groups.values()].map((g) => g.sort((a, b) => top(a) - top(b)));
}
