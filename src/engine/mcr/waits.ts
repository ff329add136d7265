/**
 * Waiting tiles of a 13-tile MCR hand: the standard shape (four sets and a pair) by one
 * recursion, the special shapes (seven pairs, thirteen orphans, honours and knitted tiles,
 * knitted straight) by their own simple rules.
 */
import type { Meld } from '../hand.ts';
import { isKnittedComplete, KNITTED_PATTERNS, TERMINALS_AND_HONORS } from '../decompose.ts';
import type { TileId } from '../tiles.ts';

/**
 * Waiting tiles of a 13-tile hand (concealed counts without the winning tile).
 * By shape only, whatever tiles are visible or held (conformance dispute 8), so a
 * tile the hand already holds four of still counts as a second wait.
 */
export function waitsOf(concealed13: Uint8Array, melds: Meld[]): TileId[] {
  const c = concealed13;
  const setsNeeded = 4 - melds.length;
  const hit = new Uint8Array(34);
  // Standard shape: one pass that removes sets and notes what the leftover waits for.
  standardWaits(c, setsNeeded, hit);
  // Special shapes (no declared sets), by their own simple rules.
  let dup = 0, singles = 0, single = -1, allTOH = true, kinds = 0;
  for (let t = 0; t < 34; t++) {
    const n = c[t]!;
    if (!n) continue;
    kinds++;
    if (n > 1) dup += n - 1;
    if (n % 2) { singles++; single = t; }
    if (!(t >= 27 || t % 9 === 0 || t % 9 === 8)) allTOH = false;
  }
  if (melds.length === 0) {
    if (singles === 1) hit[single] = 1; // seven pairs: six pairs (a four counts as two) and one single
    if (allTOH && dup <= 1 && kinds + dup === 13) {
      // thirteen orphans: all thirteen kinds once -> any of them; one missing -> that one
      for (const t of TERMINALS_AND_HONORS) if (dup === 0 || !c[t]) hit[t] = 1;
    }
    if (dup === 0) {
      for (const pat of KNITTED_PATTERNS) {
        let fits = true;
        for (let t = 0; t < 27 && fits; t++) if (c[t] && !pat.includes(t)) fits = false;
        if (!fits) continue;
        // honours and knitted tiles: any missing tile of the pattern or honour completes 14 distinct
        for (const t of pat) if (!c[t]) hit[t] = 1;
        for (let t = 27; t < 34; t++) if (!c[t]) hit[t] = 1;
      }
    }
  }
  if (melds.length <= 1) {
    for (const pat of KNITTED_PATTERNS) {
      let have = 0;
      for (const t of pat) if (c[t]) have++;
      if (have < 8) continue;
      for (let t = 0; t < 34; t++) {
        if (hit[t]) continue;
        c[t]!++;
        if (isKnittedComplete(c, setsNeeded)) hit[t] = 1;
        c[t]!--;
      }
    }
  }
  const out: TileId[] = [];
  for (let t = 0; t < 34; t++) if (hit[t]) out.push(t);
  return out;
}

/**
 * Waits of the standard shape (sets + pair) in one recursion: the lowest tile is a
 * pung, a chow, the pair, or part of the one unfinished group, which is a single
 * (waits for its pair), a pair (waits for the pung, another pair exists), or two
 * tiles of a chow (waits for the missing end or middle).
 */
function standardWaits(c: Uint8Array, setsNeeded: number, hit: Uint8Array): void {
  waitRec(c, 0, setsNeeded, true, true, -1, -1, hit);
}

function waitRec(c: Uint8Array, from: number, setsLeft: number, pairLeft: boolean, partialLeft: boolean, wa: number, wb: number, hit: Uint8Array): void {
  let i = from;
  while (i < 34 && c[i] === 0) i++;
  if (i === 34) {
    if (setsLeft === 0 && !pairLeft && !partialLeft) { if (wa >= 0) hit[wa] = 1; if (wb >= 0) hit[wb] = 1; }
    return;
  }
  const n = c[i]!;
  const suited = i < 27, r = i % 9;
  if (setsLeft > 0 && n >= 3) { c[i] = n - 3; waitRec(c, i, setsLeft - 1, pairLeft, partialLeft, wa, wb, hit); c[i] = n; }
  if (setsLeft > 0 && suited && r <= 6 && c[i + 1]! > 0 && c[i + 2]! > 0) {
    c[i]!--; c[i + 1]!--; c[i + 2]!--;
    waitRec(c, i, setsLeft - 1, pairLeft, partialLeft, wa, wb, hit);
    c[i]!++; c[i + 1]!++; c[i + 2]!++;
  }
  if (pairLeft && n >= 2) { c[i] = n - 2; waitRec(c, i, setsLeft, false, partialLeft, wa, wb, hit); c[i] = n; }
  if (!partialLeft) return;
  // the unfinished group starts at i
  if (pairLeft) { c[i] = n - 1; waitRec(c, i, setsLeft, false, false, i, -1, hit); c[i] = n; }
  if (setsLeft > 0) {
    if (n >= 2) { c[i] = n - 2; waitRec(c, i, setsLeft - 1, pairLeft, false, i, -1, hit); c[i] = n; }
    if (suited && r <= 7 && c[i + 1]! > 0) {
      c[i]!--; c[i + 1]!--;
      waitRec(c, i, setsLeft - 1, pairLeft, false, r >= 1 ? i - 1 : -1, r <= 6 ? i + 2 : -1, hit);
      c[i]!++; c[i + 1]!++;
    }
    if (suited && r <= 6 && c[i + 2]! > 0) {
      c[i]!--; c[i + 2]!--;
      waitRec(c, i, setsLeft - 1, pairLeft, false, i + 1, -1, hit);
      c[i]!++; c[i + 2]!++;
    }
  }
}
