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

// The recursions below are top-level functions over explicit state (no closures),
// because they are the hot path of scoring and of wait analysis.

function decomposeRec(c: Uint8Array, from: number, setsNeeded: number, sets: [number, TileId][], pair: number, out: RawDecomposition[]): void {
  let i = from;
  while (i < 34 && c[i] === 0) i++;
  if (i === 34) {
    if (pair >= 0 && sets.length === setsNeeded) out.push({ pair, sets: sets.slice() });
    return;
  }
  const n = c[i]!;
  if (pair < 0 && n >= 2) {
    c[i] = n - 2;
    decomposeRec(c, i, setsNeeded, sets, i, out);
    c[i] = n;
  }
  if (sets.length < setsNeeded) {
    if (n >= 3) {
      c[i] = n - 3; sets.push([PUNG, i]);
      decomposeRec(c, i, setsNeeded, sets, pair, out);
      sets.pop(); c[i] = n;
    }
    if (canStartChow(i) && c[i + 1]! > 0 && c[i + 2]! > 0) {
      c[i]!--; c[i + 1]!--; c[i + 2]!--; sets.push([CHOW, i]);
      decomposeRec(c, i, setsNeeded, sets, pair, out);
      sets.pop(); c[i]!++; c[i + 1]!++; c[i + 2]!++;
    }
  }
}

/**
 * Every way to split `counts` into `setsNeeded` sets plus one pair.
 * Each multiset decomposition is listed once: the lowest remaining tile is
 * either in the pair, a pung, or the first tile of a chow.
 */
export function standardDecompositions(counts: Uint8Array, setsNeeded: number): RawDecomposition[] {
  const out: RawDecomposition[] = [];
  decomposeRec(Uint8Array.from(counts), 0, setsNeeded, [], -1, out);
  return out;
}

function completeRec(c: Uint8Array, from: number, setsLeft: number, pairLeft: boolean): boolean {
  let i = from;
  while (i < 34 && c[i] === 0) i++;
  if (i === 34) return !pairLeft && setsLeft === 0;
  const n = c[i]!;
  if (pairLeft && n >= 2) {
    c[i] = n - 2;
    const ok = completeRec(c, i, setsLeft, false);
    c[i] = n;
    if (ok) return true;
  }
  if (setsLeft > 0) {
    if (n >= 3) {
      c[i] = n - 3;
      const ok = completeRec(c, i, setsLeft - 1, pairLeft);
      c[i] = n;
      if (ok) return true;
    }
    if (canStartChow(i) && c[i + 1]! > 0 && c[i + 2]! > 0) {
      c[i]!--; c[i + 1]!--; c[i + 2]!--;
      const ok = completeRec(c, i, setsLeft - 1, pairLeft);
      c[i]!++; c[i + 1]!++; c[i + 2]!++;
      if (ok) return true;
    }
  }
  return false;
}

/**
 * True when `counts` splits into `setsNeeded` sets and one pair (fast, no listing).
 * `counts` is used as scratch space and restored before returning.
 */
export function isStandardComplete(counts: Uint8Array, setsNeeded: number): boolean {
  return completeRec(counts, 0, setsNeeded, true);
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

// Special shapes, shared by the rulesets and by recognition's hand check (vision/handcheck.ts).

/** Knitted straight (the nine tiles of one KNITTED_PATTERNS entry) plus setsNeeded - 3 sets and a pair. */
export function isKnittedComplete(c: Uint8Array, setsNeeded: number): boolean {
  for (const pat of KNITTED_PATTERNS) {
    if (pat.every((t) => c[t]! > 0)) {
      for (const t of pat) c[t]!--;
      const ok = isStandardComplete(c, setsNeeded - 3);
      for (const t of pat) c[t]!++;
      if (ok) return true;
    }
  }
  return false;
}

/** Seven pairs (a four counts as two pairs). */
export function isSevenPairs(c: Uint8Array): boolean {
  let pairs = 0;
  for (let t = 0; t < 34; t++) { const n = c[t]!; if (n % 2) return false; pairs += n / 2; }
  return pairs === 7;
}

/** Thirteen orphans: the thirteen terminals and honours, one of them twice. */
export function isThirteenOrphans(c: Uint8Array): boolean {
  let total = 0;
  for (let t = 0; t < 34; t++) total += c[t]!;
  if (total !== 14) return false;
  for (const t of TERMINALS_AND_HONORS) if (c[t] === 0) return false;
  let sum = 0;
  for (const t of TERMINALS_AND_HONORS) sum += c[t]!;
  return sum === 14;
}

/** Knitted pattern index whose suited tiles contain all suited tiles of c, with all kinds distinct (honours & knitted). */
export function honorsKnittedPattern(c: Uint8Array): number {
  let total = 0;
  for (let t = 0; t < 34; t++) { if (c[t]! > 1) return -1; total += c[t]!; }
  if (total !== 14) return -1;
  for (let p = 0; p < 6; p++) {
    const pat = KNITTED_PATTERNS[p]!;
    let ok = true;
    for (let t = 0; t < 27 && ok; t++) if (c[t] && !pat.includes(t)) ok = false;
    if (ok) return p;
  }
  return -1;
}

/** Is this a complete 7-pairs-and-a-pung shape (17 tiles, no declared sets)? Returns the pung tile or -1. */
export function allPairsPung(c: Uint8Array): TileId {
  let pung = -1;
  for (let t = 0; t < 34; t++) {
    const n = c[t]!;
    if (n === 3) { if (pung >= 0) return -1; pung = t; } else if (n % 2) return -1;
  }
  return pung;
}
