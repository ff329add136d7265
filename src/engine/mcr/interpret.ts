/**
 * The readings (interpretations) of a complete MCR hand: each decomposition, and each set the
 * winning tile may have completed in it, with the wait fan that placement would give.
 */
import type { Hand, Meld, WinContext } from '../hand.ts';
import { honorsKnittedPattern, isSevenPairs, isThirteenOrphans, KNITTED_PATTERNS, standardDecompositions, CHOW } from '../decompose.ts';
import type { DecompositionKind } from '../result.ts';
import type { TileId } from '../tiles.ts';

/** A set as the scorer sees it. kind: 0 chow, 1 pung, 2 kong. */
export interface S { kind: 0 | 1 | 2; tile: TileId; concealed: boolean; declared: boolean }

export interface Interp {
  kind: DecompositionKind;
  sets: S[];
  pair: TileId;
  knitted?: TileId[];
  /** wait fan this placement of the winning tile would give (77, 78, 79) or 0 */
  wait: 0 | 77 | 78 | 79;
}

function meldToSet(m: Meld): S {
  return { kind: m.kind === 'chow' ? 0 : m.kind === 'pung' ? 1 : 2, tile: m.tile, concealed: m.kind === 'kong' && m.concealed, declared: true };
}

/**
 * One interpretation per distinct place the winning tile can sit in a decomposition:
 * the pair (single wait), a pung (melded when won on a discard), a chow (edge,
 * closed or two-sided), or the knitted part.
 */
function placeWinningTile(out: Interp[], declared: S[], w: TileId, selfDrawn: boolean, kind: DecompositionKind, raw: [number, TileId][], pair: TileId, knitted?: TileId[]): void {
  const base: S[] = raw.map(([k, t]) => ({ kind: k === CHOW ? 0 : 1, tile: t, concealed: true, declared: false }));
  const tags: number[] = [];
  const extra = knitted ? { knitted } : {};
  if (pair === w) { tags.push(-1); out.push({ kind, sets: declared.concat(base), pair, wait: 79, ...extra }); }
  for (let i = 0; i < base.length; i++) {
    const st = base[i]!;
    if (st.kind === 1 && st.tile === w) {
      const tag = 1000 + st.tile;
      if (tags.includes(tag)) continue;
      tags.push(tag);
      const sets = base.slice();
      sets[i] = { ...st, concealed: selfDrawn };
      out.push({ kind, sets: declared.concat(sets), pair, wait: 0, ...extra });
    } else if (st.kind === 0 && w >= st.tile && w <= st.tile + 2) {
      const pos = w - st.tile;
      const tag = 2000 + st.tile * 3 + pos;
      if (tags.includes(tag)) continue;
      tags.push(tag);
      const r = (st.tile % 9) + 1;
      const wait = pos === 1 ? 78 : (pos === 2 && r === 1) || (pos === 0 && r === 7) ? 77 : 0;
      out.push({ kind, sets: declared.concat(base), pair, wait, ...extra });
    }
  }
  if (knitted && knitted.includes(w)) { tags.push(-2); out.push({ kind, sets: declared.concat(base), pair, wait: 0, knitted }); }
  if (tags.length === 0) throw new Error('internal: winning tile not found in decomposition');
}

/** Every interpretation of the complete hand (14 tiles). */
export function interpretations(hand: Hand, ctx: WinContext, cc: Uint8Array): Interp[] {
  const out: Interp[] = [];
  const declared = hand.melds.map(meldToSet);
  const setsNeeded = 4 - hand.melds.length;
  const w = hand.winningTile;
  const selfDrawn = ctx.selfDrawn;

  for (const d of standardDecompositions(cc, setsNeeded)) placeWinningTile(out, declared, w, selfDrawn, 'standard', d.sets, d.pair);
  if (hand.melds.length <= 1) {
    for (const pat of KNITTED_PATTERNS) {
      if (!pat.every((t) => cc[t]! > 0)) continue;
      const rest = Uint8Array.from(cc);
      for (const t of pat) rest[t]!--;
      for (const d of standardDecompositions(rest, setsNeeded - 3)) placeWinningTile(out, declared, w, selfDrawn, 'knitted-straight', d.sets, d.pair, [...pat]);
    }
  }
  if (hand.melds.length === 0) {
    if (isSevenPairs(cc)) out.push({ kind: 'seven-pairs', sets: [], pair: -1, wait: 79 });
    if (isThirteenOrphans(cc)) out.push({ kind: 'thirteen-orphans', sets: [], pair: -1, wait: 79 });
    const hk = honorsKnittedPattern(cc);
    if (hk >= 0) out.push({ kind: 'honors-knitted', sets: [], pair: -1, wait: 79, knitted: [...KNITTED_PATTERNS[hk]!] });
  }
  return out;
}
