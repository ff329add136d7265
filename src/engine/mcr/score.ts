/**
 * MCR scoring: list every interpretation of the hand (each decomposition, and
 * each set the winning tile may have completed), detect fans, apply the
 * exclusion table once, and keep the highest total (004: higher-value principle).
 */
import { MahjongError, isMahjongError } from '../errors.ts';
import type { Hand, Meld, WinContext } from '../hand.ts';
import { countTiles, honorsKnittedPattern, isKnittedComplete, isSevenPairs, isThirteenOrphans, KNITTED_PATTERNS, standardDecompositions, TERMINALS_AND_HONORS, CHOW } from '../decompose.ts';
import type { CountedFan, Decomposition, DecompositionKind, NotCountedFan, NotCountedReason, ScoredSet, ScoreResult } from '../result.ts';
import { windTile, type TileId } from '../tiles.ts';
import { validateContext, validateHand, MCR_SHAPE } from '../validate.ts';
import { mcrPayments } from '../payments.ts';
import { FANS } from './fans.ts';
import { chowCombos, pungCombos } from './combos.ts';

export const MCR_MINIMUM = 8;

/** A set as the scorer sees it. kind: 0 chow, 1 pung, 2 kong. */
interface S { kind: 0 | 1 | 2; tile: TileId; concealed: boolean; declared: boolean }

interface Interp {
  kind: DecompositionKind;
  sets: S[];
  pair: TileId;
  knitted?: TileId[];
  /** wait fan this placement of the winning tile would give (77, 78, 79) or 0 */
  wait: 0 | 77 | 78 | 79;
}

export interface Evaluated {
  interp: Interp;
  counts: Int32Array;
  /** fan id -> fan id that excluded it, or reason code (-1 account-once, -2 wait not unique) */
  /** per fan id: 0 = counted (if present), > 0 = the fan that excluded it, -1 account-once, -2 wait not unique */
  removed: Int16Array;
  total: number;
  /** Further combinations of a fan that is counted, dropped by account-once or an exclusion. */
  extra: { id: number; count: number; byFan: number }[];
}

const ACCOUNT_ONCE = -1;
const EXCLUDES: Int8Array[] = [new Int8Array(0), ...FANS.map((f) => Int8Array.from(f.excludes))];
const POINTS = Int32Array.from([0, ...FANS.map((f) => f.points)]);
const WAIT_NOT_UNIQUE = -2;

function meldToSet(m: Meld): S {
  return { kind: m.kind === 'chow' ? 0 : m.kind === 'pung' ? 1 : 2, tile: m.tile, concealed: m.kind === 'kong' && m.concealed, declared: true };
}

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
function interpretations(hand: Hand, ctx: WinContext, cc: Uint8Array): Interp[] {
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

const GREEN_TILES = new Set([19, 20, 21, 23, 25, 32]);
const REVERSIBLE = new Set([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31]);

interface HandFacts {
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

function facts(hand: Hand, cc: Uint8Array, ctx: WinContext): HandFacts {
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

const popcount3 = (m: number) => (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1);

/** Fans that depend on the tiles and the win conditions only, not on the reading: computed once per hand. */
function handLevelFans(f: HandFacts, ctx: WinContext): Int32Array {
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

// Scratch tables for one reading; a reading is copied out only when it may be the best.
const SCRATCH_COUNTS = new Int32Array(82);
const SCRATCH_REMOVED = new Int16Array(82);

function detect(ip: Interp, f: HandFacts, base: Int32Array, ctx: WinContext, uniqueWait: boolean): Evaluated {
  const c = SCRATCH_COUNTS;
  c.set(base);
  const removed = SCRATCH_REMOVED;
  removed.fill(0);
  const noHonors = !f.winds && !f.dragons;
  const nSuits = popcount3(f.suits);
  const std = ip.kind === 'standard' || ip.kind === 'knitted-straight';

  let chowFans: ReturnType<typeof chowCombos> | null = null;
  let pungFans: ReturnType<typeof pungCombos> | null = null;

  // Hands that are always a single wait: the wait fan is implied (000/004: 7, 19, 20, 34 exclude 79).
  if (!std && ip.wait && uniqueWait) c[79] = 1;
  if (ip.kind === 'seven-pairs') {
    c[19] = 1;
    // Seven Shifted Pairs: seven consecutive pairs of one suit.
    if (nSuits === 1 && noHonors && f.maxRank - f.minRank === 6) {
      let ok = true;
      for (let t = 0; t < 34; t++) if (f.all[t] !== 0 && f.all[t] !== 2) ok = false;
      if (ok) c[6] = 1;
    }
  } else if (ip.kind === 'thirteen-orphans') {
    c[7] = 1;
  } else if (ip.kind === 'honors-knitted') {
    let honors = 0;
    for (let t = 27; t < 34; t++) if (f.all[t]) honors++;
    c[honors === 7 ? 20 : 34] = 1;
    if (ip.knitted!.every((t) => f.all[t])) c[35] = 1;
  } else if (std) {
    if (ip.kind === 'knitted-straight') c[35] = 1;
    const sets = ip.sets;
    const chows: number[] = [];
    const pungs: number[] = [];
    let kongsC = 0, kongsM = 0, concealedPungs = 0;
    let windPungs = 0, dragonPungs = 0, termPungs = 0;
    let outside = true, fives = true;
    const pr = ip.pair;
    for (const s of sets) {
      if (s.kind === 0) {
        chows.push(s.tile);
        const r = (s.tile % 9) + 1;
        if (r !== 1 && r !== 7) outside = false;
        if (r < 3 || r > 5) fives = false;
      } else {
        pungs.push(s.tile);
        if (s.kind === 2) { if (s.concealed) kongsC++; else kongsM++; }
        if (s.concealed) concealedPungs++;
        if (s.tile >= 27) { if (s.tile <= 30) windPungs++; else dragonPungs++; }
        else {
          const r = (s.tile % 9) + 1;
          if (r === 1 || r === 9) termPungs++;
          else outside = false;
          if (r !== 5) fives = false;
        }
        if (s.tile >= 27) fives = false;
      }
    }
    if (ip.knitted) { outside = false; fives = false; }
    if (pr >= 27) fives = false;
    else { const r = (pr % 9) + 1; if (r !== 1 && r !== 9) outside = false; if (r !== 5) fives = false; }
    if (outside) c[55] = 1;
    if (fives) c[31] = 1;

    // Honour sets.
    const pairWind = pr >= 27 && pr <= 30, pairDragon = pr >= 31;
    if (windPungs === 4) c[1] = 1;
    if (windPungs === 3 && pairWind) c[9] = 1;
    if (windPungs >= 3) c[38] = 1;
    if (dragonPungs === 3) c[2] = 1;
    if (dragonPungs === 2 && pairDragon) c[10] = 1;
    if (dragonPungs >= 2) c[54] = 1;
    if (dragonPungs) c[59] = dragonPungs;
    const prevalent = f.prevalent, seat = f.seat;
    let windT73 = 0;
    for (const t of pungs) {
      if (t === prevalent) c[60] = 1;
      if (t === seat) c[61] = 1;
      if (t >= 27 && t <= 30 && t !== prevalent && t !== seat) windT73++;
    }
    // Wind pungs inside Big Three Winds / Little or Big Four Winds do not also score
    // Pung of Terminals or Honors (000/003: 38, 9, 1 exclude 73 for their winds).
    const t73 = termPungs + (windPungs >= 3 ? 0 : windT73);
    if (t73) c[73] = t73;
    if (windPungs >= 3 && windT73 && !t73) { c[73] = windT73; removed[73] = c[1] ? 1 : c[9] ? 9 : 38; }

    // Kongs (004 fan 57: one melded + one concealed kong = Two Melded Kongs + Concealed Kong).
    // Every kong fan the sets show is marked; the exclusion table keeps the biggest
    // and lists the rest as not counted (003: Three Kongs excludes Melded Kong and
    // Two Melded Kongs; Two Concealed Kongs excludes Concealed Kong ...).
    const kongs = kongsC + kongsM;
    if (kongs === 4) c[5] = 1;
    if (kongs >= 3) c[17] = 1;
    if (kongsC >= 2) c[53] = 1;
    if (kongsM >= 2 || (kongs === 2 && kongsC === 1)) c[57] = 1;
    if (kongsC) c[67] = kongsC;
    if (kongsM) c[74] = kongsM;
    // Concealed kongs count as concealed pungs (dispute 3); smaller counts are marked for the explanation.
    if (concealedPungs === 4) c[12] = 1;
    if (concealedPungs >= 3) c[33] = 1;
    if (concealedPungs >= 2) c[66] = 1;

    if (pungs.length === 4) c[48] = 1;
    const chowLike = chows.length + (ip.knitted ? 3 : 0);
    if (chowLike === 4 && pr < 27) c[63] = 1;
    if (std && ip.kind === 'standard' && f.allEven && pungs.length === 4) c[21] = 1;
    if (f.nineGates) c[4] = 1;
    // Melded Hand: four melded sets, won on a discard (single wait on the pair).
    if (f.meldedHand && !ctx.selfDrawn) c[52] = 1;

    chowFans = chowCombos(chows, pr);
    pungFans = pungCombos(pungs);
    const cf = chowFans.flat, pf = pungFans.flat;
    for (let k = 0; k < cf.length; k += 2) c[cf[k]!] = cf[k + 1]!;
    for (let k = 0; k < pf.length; k += 2) c[pf[k]!] = pf[k + 1]!;

    if (ip.wait) {
      if (uniqueWait) c[ip.wait] = 1;
      else { c[ip.wait] = 1; removed[ip.wait] = WAIT_NOT_UNIQUE; }
    }
  }

  // One exclusion pass, in rule-book order: a counted fan removes what it implies.
  for (let id = 1; id <= 80; id++) {
    if (!c[id] || removed[id]) continue;
    const ex = EXCLUDES[id]!;
    for (let k = 0; k < ex.length; k++) {
      const e = ex[k]!;
      if (c[e] && !removed[e]) removed[e] = id;
    }
  }
  let total = 0;
  for (let id = 1; id <= 80; id++) if (c[id] && !removed[id]) total += c[id]! * POINTS[id]!;
  if (total === 0) { c[43] = 1; total = 8; }
  const ev: Evaluated = { interp: ip, counts: c, removed, total, extra: [] };
  for (let q = 0; q < 2; q++) {
    const pick = q === 0 ? chowFans : pungFans;
    if (!pick || pick.dropped.length === 0) continue;
    for (const d of pick.dropped) {
      const by = d.reason === 'excluded' ? d.byFan! : ACCOUNT_ONCE;
      if (!c[d.id]) { c[d.id] = d.count; removed[d.id] = by; } else if (!removed[d.id]) ev.extra.push({ id: d.id, count: d.count, byFan: by });
    }
  }
  return ev;
}

function errorResult(e: MahjongError, ctx?: WinContext): ScoreResult {
  return {
    ruleset: 'mcr', validWin: false, error: { code: e.code, message: e.message },
    total: 0, totalWithoutFlowers: 0, minimum: MCR_MINIMUM, fans: [], notCounted: [],
    decomposition: null, payments: null, waits: [],
    ...(ctx ? {} : {}),
  };
}

export interface Prepared {
  hand: Hand;
  ctx: WinContext;
  evaluations: Evaluated[];
  waits: TileId[];
}

/** Validates and evaluates every interpretation. Throws MahjongError on bad input. */
export function evaluateAll(hand: Hand, ctx: WinContext, keepAll = false): Prepared {
  validateHand(hand, MCR_SHAPE);
  validateContext(ctx, hand);
  const cc = countTiles(hand.concealed);
  cc[hand.winningTile]!++;
  const ips = interpretations(hand, ctx, cc);
  if (ips.length === 0) throw new MahjongError('NOT_WIN', 'these tiles do not make a winning hand');
  const f = facts(hand, cc, ctx);
  let waits: TileId[] | null = null;
  const getWaits = () => {
    if (!waits) {
      waits = waitsOf(countTiles(hand.concealed), hand.melds);
    }
    return waits;
  };
  const base = handLevelFans(f, ctx);
  const evaluations: Evaluated[] = [];
  let best = -1;
  for (const ip of ips) {
    const ev = detect(ip, f, base, ctx, ip.wait ? getWaits().length === 1 : false);
    if (keepAll || ev.total >= best) {
      // detect() works in scratch tables: keep a copy of every reading that can still be the best.
      evaluations.push({ ...ev, counts: ev.counts.slice(), removed: ev.removed.slice() });
      if (ev.total > best) best = ev.total;
    }
  }
  return { hand, ctx, evaluations, waits: getWaits() };
}

function citationFor(by: number): string {
  const f = FANS[by - 1]!;
  return `${f.names.en} (${by}) includes it; rules 000/003/004, non-repeat principle`;
}

/** Turns one evaluation into the public result. */
export function toResult(p: Prepared, ev: Evaluated): ScoreResult {
  const fans: CountedFan[] = [];
  const notCounted: NotCountedFan[] = [];
  for (let id = 1; id <= 80; id++) {
    const n = ev.counts[id]!;
    if (!n) continue;
    const def = FANS[id - 1]!;
    const by = ev.removed[id]!;
    if (by === 0) fans.push({ id, names: def.names, points: def.points, count: n });
    else if (by === ACCOUNT_ONCE) {
      notCounted.push({ id, names: def.names, points: def.points, reason: { kind: 'account-once', citation: 'rules 004, account-once principle (Wyłączności)' },
        message: `${def.names.en}: these sets were already combined for another fan; each set may be combined only once more (account-once).` });
    } else if (by === WAIT_NOT_UNIQUE) {
      notCounted.push({ id, names: def.names, points: def.points, reason: { kind: 'wait-not-unique', citation: 'rules 000/004, fans 77-79: not when waiting on more than one tile' },
        message: `${def.names.en}: the hand could also win on ${p.waits.length - 1} other tile(s), so the wait does not score.` });
    } else {
      const byDef = FANS[by - 1]!;
      notCounted.push({ id, names: def.names, points: def.points, reason: { kind: 'excluded', byFan: by, citation: citationFor(by) },
        message: `${def.names.en} is not counted because ${byDef.names.en} already includes it.` });
    }
  }
  for (const x of ev.extra) {
    const def = FANS[x.id - 1]!;
    const reason: NotCountedReason = x.byFan === ACCOUNT_ONCE
      ? { kind: 'account-once', citation: 'rules 004, account-once principle (Wyłączności)' }
      : { kind: 'excluded', byFan: x.byFan, citation: citationFor(x.byFan) };
    notCounted.push({ id: x.id, names: def.names, points: def.points, count: x.count, reason,
      message: x.byFan === ACCOUNT_ONCE
        ? `${def.names.en}: ${x.count} more combination(s) of these sets are not counted, because each set may be combined only once more (account-once).`
        : `${def.names.en}: ${x.count} more combination(s) are not counted because ${FANS[x.byFan - 1]!.names.en} already includes them.` });
  }
  const flowers = p.ctx.flowers;
  if (flowers > 0) { const def = FANS[80]!; fans.push({ id: 81, names: def.names, points: 1, count: flowers }); }
  const totalWithoutFlowers = ev.total;
  const total = totalWithoutFlowers + flowers;
  const valid = totalWithoutFlowers >= MCR_MINIMUM;
  const decomposition: Decomposition = {
    kind: ev.interp.kind,
    sets: [
      ...ev.interp.sets.map((s): ScoredSet => ({ kind: (['chow', 'pung', 'kong'] as const)[s.kind], tile: s.tile, concealed: s.concealed, declared: s.declared })),
      ...(ev.interp.knitted ? [0, 1, 2].map((k): ScoredSet => {
        const tiles = ev.interp.knitted!.filter((t) => Math.floor(t / 9) === Math.floor(ev.interp.knitted![k * 3]! / 9));
        return { kind: 'knitted', tile: tiles[0]!, tiles, concealed: true, declared: false };
      }) : []),
      ...(ev.interp.pair >= 0 ? [{ kind: 'pair', tile: ev.interp.pair, concealed: true, declared: false } as ScoredSet] : []),
    ],
  };
  return {
    ruleset: 'mcr', validWin: valid,
    error: valid ? null : { code: 'BELOW_MINIMUM', message: `the hand scores ${totalWithoutFlowers} points without flowers; a win needs at least ${MCR_MINIMUM}` },
    total, totalWithoutFlowers, minimum: MCR_MINIMUM, fans, notCounted, decomposition,
    payments: valid ? mcrPayments(total, p.ctx) : null,
    waits: p.waits,
  };
}

/** Counted fan ids of an evaluation, ascending. */
function countedIds(e: Evaluated): number[] {
  const ids: number[] = [];
  for (let id = 1; id <= 80; id++) if (e.counts[id] && !e.removed[id]) ids.push(id);
  return ids;
}

/**
 * Lexicographic comparison of ascending fan-id lists: negative when `a` holds the
 * higher-ranked fan (lower number) at the first difference.
 */
export function compareFanLists(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Highest total wins (004: higher-value principle). Between equal totals the
 * reading with the higher-ranked fans is shown (e.g. Edge Wait before Single
 * Wait), so the answer does not depend on the order tiles were given in.
 */
export function bestOf(evals: Evaluated[]): Evaluated {
  let best = evals[0]!;
  for (const e of evals) {
    if (e.total > best.total || (e.total === best.total && e !== best && compareFanLists(countedIds(e), countedIds(best)) < 0)) best = e;
  }
  return best;
}

/**
 * Scores a winning hand by MCR. Never throws: problems with the input come back
 * as `validWin: false` with a typed `error`.
 */
export function scoreMcr(hand: Hand, ctx: WinContext): ScoreResult {
  try {
    const p = evaluateAll(hand, ctx);
    return toResult(p, bestOf(p.evaluations));
  } catch (e) {
    if (isMahjongError(e)) return errorResult(e, ctx);
    throw e;
  }
}
