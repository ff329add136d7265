/**
 * Decomposition of concealed tiles into sets and a pair, on 34-slot count tables.
 * Shared by every ruleset: a ruleset says how many sets it needs.
 */
import type { TileId } from './tiles.ts';

/** 0 = chow (tile is its lowest tile), 1 = pung. */
export const CHOW = 0, PUNG = 1;

export interface RawDecomposition {
  pair: TileId;
  /** Pairs of [kind, tile] with kind CHOW or PUNG, in discovery order. */
  sets: [number, TileId][];
}

/** Counts of a tile list in a 34-slot table. */
export function countTiles(tiles: readonly TileId[]): Uint8Array {
  const c = new Uint8Array(34);
  for (const t of tiles) c[t]!++;
  return c;
}

const canStartChow = (t: number) => t < 27 && t % 9 <= 6;

/**
 * Every way to split `counts` into `setsNeeded` sets plus one pair.
 * Each multiset decomposition is listed once: the lowest remaining tile is
 * either in the pair, a pung, or the first tile of a chow.
 */
export function standardDecompositions(counts: Uint8Array, setsNeeded: number): RawDecomposition[] {
  const out: RawDecomposition[] = [];
  const c = Uint8Array.from(counts);
  const sets: [number, TileId][] = [];
  let pair = -1;
  const rec = (from: number) => {
    let i = from;
    while (i < 34 && c[i] === 0) i++;
    if (i === 34) {
      if (pair >= 0 && sets.length === setsNeeded) out.push({ pair, sets: sets.slice() });
      return;
    }
    if (pair < 0 && c[i]! >= 2) {
      c[i]! -= 2; pair = i;
      rec(i);
      c[i]! += 2; pair = -1;
    }
    if (sets.length < setsNeeded) {
      if (c[i]! >= 3) {
        c[i]! -= 3; sets.push([PUNG, i]);
        rec(i);
        sets.pop(); c[i]! += 3;
      }
      if (canStartChow(i) && c[i + 1]! > 0 && c[i + 2]! > 0) {
        c[i]!--; c[i + 1]!--; c[i + 2]!--; sets.push([CHOW, i]);
        rec(i);
        sets.pop(); c[i]!++; c[i + 1]!++; c[i + 2]!++;
      }
    }
  };
  rec(0);
  return out;
}

/** True when `counts` splits into `setsNeeded` sets and one pair (fast, no listing). */
export function isStandardComplete(counts: Uint8Array, setsNeeded: number): boolean {
  const c = Uint8Array.from(counts);
  let pairUsed = false;
  let sets = 0;
  const rec = (from: number): boolean => {
    let i = from;
    while (i < 34 && c[i] === 0) i++;
    if (i === 34) return pairUsed && sets === setsNeeded;
    if (!pairUsed && c[i]! >= 2) {
      c[i]! -= 2; pairUsed = true;
      const ok = rec(i);
      c[i]! += 2; pairUsed = false;
      if (ok) return true;
    }
    if (sets < setsNeeded) {
      if (c[i]! >= 3) {
        c[i]! -= 3; sets++;
        const ok = rec(i);
        sets--; c[i]! += 3;
        if (ok) return true;
      }
      if (canStartChow(i) && c[i + 1]! > 0 && c[i + 2]! > 0) {
        c[i]!--; c[i + 1]!--; c[i + 2]!--; sets++;
        const ok = rec(i);
        sets--; c[i]!++; c[i + 1]!++; c[i + 2]!++;
        if (ok) return true;
      }
    }
    return false;
  };
  return rec(0);
}

/** The six ways to give the knitted sequences 1-4-7, 2-5-8, 3-6-9 to the suits m, p, s. */
export const KNITTED_PATTERNS: readonly (readonly TileId[])[] = (() => {
  const perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
  return perms.map((p) => {
    const tiles: TileId[] = [];
    // suit p[k] holds the sequence starting at rank k+1 (k = 0: 1-4-7, 1: 2-5-8, 2: 3-6-9)
    for (let k = 0; k < 3; k++) for (let j = 0; j < 3; j++) tiles.push(p[k]! * 9 + k + 3 * j);
    return tiles.sort((a, b) => a - b);
  });
})();

export const TERMINALS_AND_HONORS: readonly TileId[] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
