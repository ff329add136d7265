/**
 * Readings of a 17-tile hand and the card-002 detectors. Each detector is a
 * pure function of (reading, hand facts, context) returning its occurrences;
 * exclusions are applied afterwards from exclusions.ts, never here.
 */
import { allPairsPung, countTiles, CHOW, standardDecompositions } from '../decompose.ts';
import type { Hand, Meld } from '../hand.ts';
import { FLOWER_BASE, isDragon, isHonor, isWind, rankOf, suitOf, type TileId } from '../tiles.ts';
import type { ResolvedContext } from './context.ts';
import { F } from './fans.ts';

export const FAN_PAYS_SETS = 5;

export interface FpSet {
  kind: 'chow' | 'pung' | 'kong';
  tile: TileId;
  /** A set declared on the table before the win. */
  declared: boolean;
  /** For the per-set credits: declared concealed kongs, and sets held in hand unless the winning discard completed them. */
  concealed: boolean;
}

/** Where the winning tile sits: in a pair, or at position `pos` (0..2) of a set. */
export type WinPlace = { at: 'pair'; index: number } | { at: 'set'; index: number; pos: number };

export interface Reading {
  form: 'standard' | 'all-pairs';
  sets: FpSet[];
  /** The pair of a standard hand; the seven pairs of All Pairs Hand. */
  pairs: TileId[];
  win: WinPlace;
}

export interface Facts {
  /** Counts over every tile, kongs as 4. */
  all: Uint8Array;
  /** Bit mask of suits present: m 1, p 2, s 4. */
  suits: number;
  winds: boolean;
  dragons: boolean;
  /** The winner's flower tiles when known one by one. */
  flowers: TileId[] | null;
  flowerCount: number;
  /** Declared sets other than concealed kongs. */
  openMelds: number;
}

export interface Hit { id: number; sets: number[] }

export interface DetectInput { r: Reading; f: Facts; ctx: ResolvedContext; hand: Hand }

function meldSet(m: Meld): FpSet {
  return { kind: m.kind, tile: m.tile, declared: true, concealed: m.kind === 'kong' && m.concealed };
}

/** Every reading of the hand, one per decomposition and per place of the winning tile. */
export function readings(hand: Hand, selfDrawn: boolean): Reading[] {
  const out: Reading[] = [];
  const cc = countTiles(hand.concealed);
  const w = hand.winningTile;
  cc[w]!++;
  const declared = hand.melds.map(meldSet);
  for (const d of standardDecompositions(cc, FAN_PAYS_SETS - hand.melds.length)) {
    const base: FpSet[] = d.sets.map(([k, t]) => ({ kind: k === CHOW ? 'chow' : 'pung', tile: t, declared: false, concealed: true }));
    const seen = new Set<string>();
    const emit = (win: WinPlace, sets: FpSet[], tag: string) => {
      if (seen.has(tag)) return;
      seen.add(tag);
      out.push({ form: 'standard', sets: [...declared, ...sets], pairs: [d.pair], win });
    };
    if (d.pair === w) emit({ at: 'pair', index: 0 }, base, 'pair');
    base.forEach((s, i) => {
      const pos = s.kind === 'chow' ? w - s.tile : 0;
      if ((s.kind === 'pung' && s.tile === w) || (s.kind === 'chow' && pos >= 0 && pos <= 2)) {
        // A set the winning discard completed was shown to the table: it is not concealed.
        const sets = base.map((x, j) => (j === i ? { ...x, concealed: selfDrawn } : x));
        emit({ at: 'set', index: declared.length + i, pos }, sets, `${s.kind}${s.tile}:${pos}`);
      }
    });
  }
  if (hand.melds.length === 0) {
    const pung = allPairsPung(cc);
    if (pung >= 0) {
      const pairs: TileId[] = [];
      for (let t = 0; t < 34; t++) if (t !== pung) for (let k = 0; k < cc[t]! / 2; k++) pairs.push(t);
      const winInPung = w === pung;
      out.push({
        form: 'all-pairs',
        sets: [{ kind: 'pung', tile: pung, declared: false, concealed: !winInPung || selfDrawn }],
        pairs,
        win: winInPung ? { at: 'set', index: 0, pos: 0 } : { at: 'pair', index: pairs.indexOf(w) },
      });
    }
  }
  return out;
}

export function handFacts(hand: Hand, winnerFlowers: TileId[] | null, flowerCount: number): Facts {
  const all = countTiles(hand.concealed);
  all[hand.winningTile]!++;
  for (const m of hand.melds) {
    if (m.kind === 'chow') { all[m.tile]!++; all[m.tile + 1]!++; all[m.tile + 2]!++; } else all[m.tile]! += m.kind === 'kong' ? 4 : 3;
  }
  let suits = 0, winds = false, dragons = false;
  for (let t = 0; t < 34; t++) {
    if (!all[t]) continue;
    if (t < 27) suits |= 1 << suitOf(t);
    else if (isWind(t)) winds = true;
    else dragons = true;
  }
  return { all, suits, winds, dragons, flowers: winnerFlowers, flowerCount, openMelds: hand.melds.filter((m) => !(m.kind === 'kong' && m.concealed)).length };
}

const pungLike = (s: FpSet) => s.kind !== 'chow';
const bits = (m: number) => (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1);
const idx = (sets: FpSet[], pred: (s: FpSet) => boolean) => sets.flatMap((s, i) => (pred(s) ? [i] : []));
const each = (id: number, list: number[]): Hit[] => list.map((i) => ({ id, sets: [i] }));
const once = (id: number, cond: boolean, sets: number[] = []): Hit[] => (cond ? [{ id, sets }] : []);
const times = (id: number, n: number): Hit[] => Array.from({ length: n }, () => ({ id, sets: [] }));
const winSet = (r: Reading): FpSet | null => (r.win.at === 'set' ? r.sets[r.win.index]! : null);

/** Pungs (3 tiles) held in hand, counting the one the winning tile made: "Only call is for MJ" (Five Concealed Pungs). */
const handPungs = (r: Reading) => idx(r.sets, (s) => s.kind === 'pung' && !s.declared);
const concealedKongs = (r: Reading) => idx(r.sets, (s) => s.kind === 'kong' && s.concealed);
const exposedKongs = (r: Reading) => idx(r.sets, (s) => s.kind === 'kong' && !s.concealed);

/** Longest run of consecutive suited pungs/kongs in one suit (a kong holds a pung). */
function consecutivePungs(r: Reading, need: number): number[] | null {
  for (let su = 0; su < 3; su++) {
    for (let start = 0; start + need <= 9; start++) {
      const used: number[] = [];
      for (let k = 0; k < need; k++) {
        const i = r.sets.findIndex((s, j) => pungLike(s) && s.tile === su * 9 + start + k && !used.includes(j));
        if (i < 0) break;
        used.push(i);
      }
      if (used.length === need) return used;
    }
  }
  return null;
}

const windSets = (r: Reading) => idx(r.sets, (s) => pungLike(s) && isWind(s.tile));
const dragonSets = (r: Reading) => idx(r.sets, (s) => pungLike(s) && isDragon(s.tile));
const standardPair = (r: Reading): TileId | null => (r.form === 'standard' ? r.pairs[0]! : null);
const allChows = (r: Reading) => r.form === 'standard' && r.sets.every((s) => s.kind === 'chow');

/** Chows grouped by their first tile: identical chows ("sisters"). */
function chowGroups(r: Reading): number[][] {
  const g = new Map<TileId, number[]>();
  r.sets.forEach((s, i) => { if (s.kind === 'chow') g.set(s.tile, [...(g.get(s.tile) ?? []), i]); });
  return [...g.values()];
}

/** For each suit with a pung/kong of 1 and of 9: the two set indices. */
function fatherDaughter(r: Reading): number[][] {
  const out: number[][] = [];
  for (let su = 0; su < 3; su++) {
    const one = r.sets.findIndex((s) => pungLike(s) && s.tile === su * 9);
    const nine = r.sets.findIndex((s) => pungLike(s) && s.tile === su * 9 + 8);
    if (one >= 0 && nine >= 0) out.push([one, nine]);
  }
  return out;
}

const isPairWin = (r: Reading) => r.win.at === 'pair';
const winnerIsDealer = (ctx: ResolvedContext) => ctx.seatWind === ctx.dealer;

/** Detectors by card entry. Entries without one (Secret Kong, One Fan Becomes Five Fans) are handled by score.ts. */
export const DETECTORS: Readonly<Record<number, (x: DetectInput) => Hit[]>> = Object.freeze({
  // Pungs
  [F.CONCEALED_PUNG]: ({ r }) => each(F.CONCEALED_PUNG, idx(r.sets, (s) => s.kind === 'pung' && !isHonor(s.tile) && s.concealed)),
  [F.EXPOSED_HONOR_PUNG]: ({ r }) => each(F.EXPOSED_HONOR_PUNG, idx(r.sets, (s) => s.kind === 'pung' && isHonor(s.tile) && !s.concealed)),
  [F.CONCEALED_HONOR_PUNG]: ({ r }) => each(F.CONCEALED_HONOR_PUNG, idx(r.sets, (s) => s.kind === 'pung' && isHonor(s.tile) && s.concealed)),
  [F.DRAWING_TO_PUNG]: ({ r, ctx }) => once(F.DRAWING_TO_PUNG, ctx.selfDrawn && winSet(r)?.kind === 'pung', r.win.at === 'set' ? [r.win.index] : []),
  [F.THREE_CONCEALED_PUNGS]: ({ r }) => { const p = handPungs(r); return once(F.THREE_CONCEALED_PUNGS, p.length >= 3, p); },
  [F.THREE_CONSECUTIVE_PUNGS]: ({ r }) => { const run = consecutivePungs(r, 3); return once(F.THREE_CONSECUTIVE_PUNGS, !!run, run ?? []); },
  [F.FOUR_CONCEALED_PUNGS]: ({ r }) => { const p = handPungs(r); return once(F.FOUR_CONCEALED_PUNGS, p.length >= 4, p); },
  [F.MINOR_DRAGON_GROUP]: ({ r }) => { const d = dragonSets(r); const p = standardPair(r); return once(F.MINOR_DRAGON_GROUP, d.length === 2 && p !== null && isDragon(p), d); },
  [F.FIVE_CONCEALED_PUNGS]: ({ r }) => { const p = handPungs(r); return once(F.FIVE_CONCEALED_PUNGS, p.length === 5, p); },
  [F.FIVE_CONSECUTIVE_PUNGS]: ({ r }) => { const run = consecutivePungs(r, 5); return once(F.FIVE_CONSECUTIVE_PUNGS, !!run, run ?? []); },
  // Chows
  [F.SMALL_CHOW]: ({ r, f }) => once(F.SMALL_CHOW, allChows(r) && f.flowerCount > 0 && !isHonor(r.pairs[0]!), idx(r.sets, () => true)),
  [F.BIG_CHOW]: ({ r, f }) => once(F.BIG_CHOW, allChows(r) && f.flowerCount === 0 && !isHonor(r.pairs[0]!), idx(r.sets, () => true)),
  // Kongs
  [F.EXPOSED_NON_HONOR_KONG]: ({ r }) => each(F.EXPOSED_NON_HONOR_KONG, idx(r.sets, (s) => s.kind === 'kong' && !isHonor(s.tile) && !s.concealed)),
  [F.STEALING_THE_KONG]: ({ ctx }) => once(F.STEALING_THE_KONG, ctx.robbingKong),
  [F.CONCEALED_NON_HONOR_KONG]: ({ r }) => each(F.CONCEALED_NON_HONOR_KONG, idx(r.sets, (s) => s.kind === 'kong' && !isHonor(s.tile) && s.concealed)),
  [F.EXPOSED_HONOR_KONG]: ({ r }) => each(F.EXPOSED_HONOR_KONG, idx(r.sets, (s) => s.kind === 'kong' && isHonor(s.tile) && !s.concealed)),
  [F.CONCEALED_HONOR_KONG]: ({ r }) => each(F.CONCEALED_HONOR_KONG, idx(r.sets, (s) => s.kind === 'kong' && isHonor(s.tile) && s.concealed)),
  [F.THREE_CONCEALED_KONGS]: ({ r }) => { const k = concealedKongs(r); return once(F.THREE_CONCEALED_KONGS, k.length >= 3, k); },
  [F.FOUR_EXPOSED_KONGS]: ({ r }) => { const k = exposedKongs(r); return once(F.FOUR_EXPOSED_KONGS, k.length >= 4, k); },
  [F.FOUR_CONCEALED_KONGS]: ({ r }) => { const k = concealedKongs(r); return once(F.FOUR_CONCEALED_KONGS, k.length >= 4, k); },
  [F.FIVE_EXPOSED_KONGS]: ({ r }) => { const k = exposedKongs(r); return once(F.FIVE_EXPOSED_KONGS, k.length === 5, k); },
  // Pungs or Kongs
  [F.SMALL_BREEZY]: ({ r }) => { const ws = windSets(r); const p = standardPair(r); return once(F.SMALL_BREEZY, ws.length === 2 && p !== null && isWind(p), ws); },
  [F.BIG_BREEZY]: ({ r }) => { const ws = windSets(r); return once(F.BIG_BREEZY, ws.length >= 3, ws); },
  // Family Credits
  [F.FATHER_AND_DAUGHTER]: ({ r }) => fatherDaughter(r).map((sets) => ({ id: F.FATHER_AND_DAUGHTER, sets })),
  [F.MOTHER_AND_DAUGHTER]: ({ r }) => {
    const out: Hit[] = [];
    for (let su = 0; su < 3; su++) {
      const lo = idx(r.sets, (s) => s.kind === 'chow' && s.tile === su * 9);
      const hi = idx(r.sets, (s) => s.kind === 'chow' && s.tile === su * 9 + 6);
      for (let k = 0; k < Math.min(lo.length, hi.length); k++) out.push({ id: F.MOTHER_AND_DAUGHTER, sets: [lo[k]!, hi[k]!] });
    }
    return out;
  },
  [F.TWO_SISTERS]: ({ r }) => chowGroups(r).flatMap((g) => Array.from({ length: Math.floor(g.length / 2) }, (_, k) => ({ id: F.TWO_SISTERS, sets: [g[2 * k]!, g[2 * k + 1]!] }))),
  [F.FIVE_FAMILIES]: ({ r }) => {
    if (r.form !== 'standard' || r.sets.length !== 5) return [];
    const fam = r.sets.map((s) => (s.tile < 27 ? suitOf(s.tile) : isWind(s.tile) ? 3 : 4));
    return once(F.FIVE_FAMILIES, new Set(fam).size === 5, [0, 1, 2, 3, 4]);
  },
  [F.THREE_COUSINS]: ({ r }) => {
    for (const kind of ['chow', 'pung'] as const) {
      for (let rank = 0; rank < 9; rank++) {
        const sets = [0, 1, 2].map((su) => r.sets.findIndex((s) => (kind === 'chow' ? s.kind === 'chow' : pungLike(s)) && s.tile === su * 9 + rank));
        if (sets.every((i) => i >= 0)) return [{ id: F.THREE_COUSINS, sets }];
      }
    }
    return [];
  },
  [F.THREE_SISTERS]: ({ r }) => chowGroups(r).filter((g) => g.length >= 3).map((g) => ({ id: F.THREE_SISTERS, sets: g.slice(0, 3) })),
  [F.FATHERS_AND_SONS]: ({ r }) => { const fd = fatherDaughter(r); return once(F.FATHERS_AND_SONS, fd.length >= 2, fd.slice(0, 2).flat()); },
  // Dealer Credits
  [F.DEALER_MJ]: ({ ctx }) => once(F.DEALER_MJ, winnerIsDealer(ctx)),
  [F.DEALER_PENALTY]: ({ ctx }) => (!winnerIsDealer(ctx) && (ctx.selfDrawn || ctx.discarder === ctx.dealer) ? times(F.DEALER_PENALTY, ctx.dealerStreak) : []),
  [F.FIRST_DEALER_DISCARD]: ({ ctx }) => once(F.FIRST_DEALER_DISCARD, ctx.claimedFirstDealerDiscard),
  [F.REPEAT_DEALERSHIP]: ({ ctx }) => (winnerIsDealer(ctx) ? times(F.REPEAT_DEALERSHIP, ctx.dealerStreak) : []),
  [F.DEALER_OPENS_WITH_MJ]: ({ ctx }) => once(F.DEALER_OPENS_WITH_MJ, ctx.dealerOpensWithMj),
  // Flowers/Honors
  [F.NO_FLOWERS_OR_EACH_FLOWER]: ({ f }) => times(F.NO_FLOWERS_OR_EACH_FLOWER, Math.max(1, f.flowerCount)),
  [F.NO_HONORS]: ({ f }) => once(F.NO_HONORS, !f.winds && !f.dragons),
  [F.FLOWER_WALL_WIN]: ({ ctx }) => once(F.FLOWER_WALL_WIN, ctx.flowerWallWin || ctx.replacementTile),
  [F.NO_FLOWERS_NO_HONORS]: ({ f }) => once(F.NO_FLOWERS_NO_HONORS, f.flowerCount === 0 && !f.winds && !f.dragons),
  [F.FOUR_FLOWERS]: ({ f }) => {
    if (!f.flowers) return [];
    const has = (k: number) => f.flowers!.includes(FLOWER_BASE + k);
    return [[0, 1, 2, 3], [4, 5, 6, 7]].filter((g) => g.every(has)).map(() => ({ id: F.FOUR_FLOWERS, sets: [] }));
  },
  [F.SMALL_WINDY]: ({ r }) => { const ws = windSets(r); const p = standardPair(r); return once(F.SMALL_WINDY, ws.length === 3 && p !== null && isWind(p), ws); },
  [F.BIG_WINDY]: ({ r }) => { const ws = windSets(r); return once(F.BIG_WINDY, ws.length === 4, ws); },
  [F.ALL_EIGHT_FLOWERS]: ({ f }) => once(F.ALL_EIGHT_FLOWERS, !!f.flowers && f.flowers.length === 8),
  // Mahjongg
  [F.FALSE_ONE_POSSIBLE]: ({ r, hand }) => {
    if (r.form !== 'standard' || !isPairWin(r)) return [];
    const w = hand.winningTile;
    if (isHonor(w)) return [];
    // The pair tile is one end of a concealed run of four: w + chow(w+1..w+3) or chow(w-3..w-1) + w.
    const i = r.sets.findIndex((s) => s.kind === 'chow' && !s.declared && suitOf(s.tile) === suitOf(w) && (s.tile === w + 1 || s.tile + 2 === w - 1));
    return once(F.FALSE_ONE_POSSIBLE, i >= 0, i >= 0 ? [i] : []);
  },
  [F.LAST_CHANCE]: ({ ctx }) => once(F.LAST_CHANCE, ctx.lastTileOfWall),
  [F.ONLY_ONE_POSSIBLE]: ({ r }) => {
    const s = winSet(r);
    if (!s || s.kind !== 'chow' || r.win.at !== 'set') return [];
    const rank = rankOf(s.tile);
    return once(F.ONLY_ONE_POSSIBLE, (rank === 1 && r.win.pos === 2) || (rank === 7 && r.win.pos === 0), [r.win.index]);
  },
  [F.SELF_DRAWN]: ({ ctx }) => once(F.SELF_DRAWN, ctx.selfDrawn),
  [F.BURIED_TREASURE]: ({ f }) => once(F.BURIED_TREASURE, f.openMelds === 0),
  [F.INNIE]: ({ r }) => once(F.INNIE, winSet(r)?.kind === 'chow' && r.win.at === 'set' && r.win.pos === 1, r.win.at === 'set' ? [r.win.index] : []),
  [F.PAIR_258]: ({ r }) => once(F.PAIR_258, r.pairs.some((p) => !isHonor(p) && [2, 5, 8].includes(rankOf(p)))),
  [F.TRUE_TWO]: ({ r }) => once(F.TRUE_TWO, isPairWin(r)),
  [F.UNIQUELY_FIVE]: ({ r, hand }) => once(F.UNIQUELY_FIVE, winSet(r)?.kind === 'chow' && r.win.at === 'set' && r.win.pos === 1 && rankOf(hand.winningTile) === 5, r.win.at === 'set' ? [r.win.index] : []),
  [F.ALL_HELP]: ({ r, f, ctx }) => once(F.ALL_HELP, r.form === 'standard' && f.openMelds === FAN_PAYS_SETS && !ctx.selfDrawn && isPairWin(r)),
  [F.ONLY_TWO_SUITS]: ({ f }) => once(F.ONLY_TWO_SUITS, bits(f.suits) + (f.winds ? 1 : 0) + (f.dragons ? 1 : 0) === 2),
  [F.TERRESTRIAL]: ({ ctx }) => once(F.TERRESTRIAL, ctx.firstDiscardWin),
  [F.HEAVENLY]: ({ ctx }) => once(F.HEAVENLY, ctx.firstDrawWin),
  // Specials
  [F.DRAGONS_TAIL]: ({ r }) => {
    for (let su = 0; su < 3; su++) {
      const sets = [0, 3, 6].map((k) => r.sets.findIndex((s) => s.kind === 'chow' && s.tile === su * 9 + k));
      if (sets.every((i) => i >= 0)) return [{ id: F.DRAGONS_TAIL, sets }];
    }
    return [];
  },
  [F.MIXED_PURITY]: ({ r, f }) => once(F.MIXED_PURITY, bits(f.suits) === 1 && r.sets.some((s) => pungLike(s) && isHonor(s.tile))),
  [F.PUNGAMANIA]: ({ r }) => once(F.PUNGAMANIA, r.form === 'standard' && r.sets.every(pungLike)),
  [F.ALL_PAIRS]: ({ r }) => once(F.ALL_PAIRS, r.form === 'all-pairs'),
  [F.MAJOR_DRAGONS]: ({ r }) => { const d = dragonSets(r); return once(F.MAJOR_DRAGONS, d.length === 3, d); },
  // "Pungs or Kongs ... Pair must be Honor": five sets and a pair, not the seven pairs and a pung
  [F.PURELY_HONORS]: ({ r, f }) => once(F.PURELY_HONORS, r.form === 'standard' && f.suits === 0),
  [F.PURITY]: ({ f }) => once(F.PURITY, bits(f.suits) === 1 && !f.winds && !f.dragons),
});
