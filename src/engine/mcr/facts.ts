/**
 * Facts about the tiles of a complete MCR hand that do not depend on the reading (suits,
 * honours, ranks, Nine Gates ...), and the fans that follow from them and from the win
 * conditions alone: both computed once per hand.
 */
import type { Hand, WinContext } from '../hand.ts';
import { windTile, type TileId } from '../tiles.ts';

const GREEN_TILES = new Set([19, 20, 21, 23, 25, 32]);
const REVERSIBLE = new Set([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31]);

export interface HandFacts {
  all: Uint8Array; // counts over all 14+ tiles, kongs as 4
  suits: number; // bitmask m=1 p=2 s=4
  winds: boolean;
  dragons: boolean;
  minRank: number;
  maxRank: number;
  allTermOrHonor: boolean;
  anyTermOrHonor: boolean;
  allEven: boolean;
  allGreen: boolean;
  allReversible: boolean;
  noMelded: boolean;
  nineGates: boolean;
  prevalent: TileId;
  seat: TileId;
  /** four declared sets, none a concealed kong */
  meldedHand: boolean;
  /** 1 where the tile is declared as a kong */
  kongTiles: Uint8Array;
}

export function facts(hand: Hand, cc: Uint8Array, ctx: WinContext): HandFacts {
  const all = Uint8Array.from(cc);
  const kongTiles = new Uint8Array(34);
  for (const m of hand.melds) {
    if (m.kind === 'chow') { all[m.tile]!++; all[m.tile + 1]!++; all[m.tile + 2]!++; }
    else { all[m.tile]! += m.kind === 'kong' ? 4 : 3; if (m.kind === 'kong') kongTiles[m.tile] = 1; }
  }
  let suits = 0, winds = false, dragons = false, minRank = 10, maxRank = 0;
  let allTOH = true, anyTOH = false, allEven = true, allGreen = true, allRev = true;
  for (let t = 0; t < 34; t++) {
    if (!all[t]) continue;
    if (t < 27) {
      suits |= 1 << Math.floor(t / 9);
      const r = (t % 9) + 1;
      minRank = Math.min(minRank, r); maxRank = Math.max(maxRank, r);
      const term = r === 1 || r === 9;
      if (term) anyTOH = true; else allTOH = false;
      if (r % 2) allEven = false;
    } else {
      anyTOH = true; allEven = false;
      if (t <= 30) winds = true; else dragons = true;
    }
    if (!GREEN_TILES.has(t)) allGreen = false;
    if (!REVERSIBLE.has(t)) allRev = false;
  }
  const noMelded = hand.melds.every((m) => m.kind === 'kong' && m.concealed);
  // Nine Gates: no declared sets, and the 13 tiles before the win are 1112345678999 of one suit.
  let nineGates = false;
  if (hand.melds.length === 0 && !winds && !dragons && (suits === 1 || suits === 2 || suits === 4)) {
    const before = Uint8Array.from(cc);
    before[hand.winningTile]!--;
    for (let su = 0; su < 3 && !nineGates; su++) {
      const b = su * 9;
      let ok = true;
      for (let t = 0; t < 34 && ok; t++) {
        const want = t >= b && t < b + 9 ? (t === b || t === b + 8 ? 3 : 1) : 0;
        if (before[t] !== want) ok = false;
      }
      nineGates = ok;
    }
  }
  const meldedHand = hand.melds.length === 4 && hand.melds.every((m) => !(m.kind === 'kong' && m.concealed));
  return {
    all, suits, winds, dragons, minRank, maxRank, allTermOrHonor: allTOH, anyTermOrHonor: anyTOH, allEven, allGreen,
    allReversible: allRev, noMelded, nineGates, kongTiles, prevalent: windTile(ctx.prevalentWind), seat: windTile(ctx.seatWind), meldedHand,
  };
}

export const popcount3 = (m: number) => (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1);

/** Fans that depend on the tiles and the win conditions only, not on the reading: computed once per hand. */
export function handLevelFans(f: HandFacts, ctx: WinContext): Int32Array {
  const c = new Int32Array(82);
  const noHonors = !f.winds && !f.dragons;
  const nSuits = popcount3(f.suits);
  // Suits, honours and tile ranges (every hand form).
  if (f.allGreen) c[3] = 1;
  if (noHonors && f.allTermOrHonor) c[8] = 1;
  if (!f.suits) c[11] = 1;
  if (f.allTermOrHonor && f.suits && (f.winds || f.dragons)) c[18] = 1;
  if (nSuits === 1 && noHonors) c[22] = 1;
  if (nSuits === 1 && !noHonors) c[49] = 1;
  if (noHonors) {
    if (f.minRank >= 7) c[25] = 1;
    else if (f.minRank >= 4 && f.maxRank <= 6) c[26] = 1;
    else if (f.maxRank <= 3) c[27] = 1;
    if (f.minRank >= 6) c[36] = 1;
    if (f.maxRank <= 4) c[37] = 1;
  }
  if (f.allReversible) c[40] = 1;
  if (nSuits === 3 && f.winds && f.dragons) c[51] = 1;
  if (!f.anyTermOrHonor) c[68] = 1;
  if (nSuits === 2) c[75] = 1;
  if (noHonors) c[76] = 1;
  let hogs = 0;
  for (let t = 0; t < 34; t++) if (f.all[t] === 4 && !f.kongTiles[t]) hogs++;
  if (hogs) c[64] = hogs;

  // Win conditions.
  if (ctx.selfDrawn) c[80] = 1;
  if (ctx.lastTileOfWall) c[ctx.selfDrawn ? 44 : 45] = 1;
  if (ctx.replacementTile) c[46] = 1;
  if (ctx.robbingKong) c[47] = 1;
  if (ctx.lastOfKind) c[58] = 1;
  if (f.noMelded) c[ctx.selfDrawn ? 56 : 62] = 1;
  return c;
}
