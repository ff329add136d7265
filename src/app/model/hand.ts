/**
 * From the corrected tiles to the engine's Hand and WinContext, and the proposed
 * grouping into sets. The grouping comes from the player's declared sets, the
 * photo layout (sideways and face-down tiles, gaps) and the engine's readings of
 * the hand (the best one, or each in turn); the app never scores anything itself.
 */
import type { Decomposition, FanPaysContext, Hand, Meld, ScoredSet, TileId, WaitingHand, WinContext, ScoreResult } from '../../engine/index.ts';
import { allDecompositions, allFanPaysReadings, getRuleset, tileId, tileCode, isSuited, suitOf } from '../../engine/index.ts';
import type { RulesetId } from '../ruleset/active.ts';
import type { Conditions, PlannedSet, SetKind, TileItem, Work } from './work.ts';
import { defaultConditions, defaultWinning, fanPaysConditions, isFlowerCode } from './work.ts';

export interface HandProblem { key: string; values?: Record<string, string | number> }
export type BuiltHand = { ok: true; hand: Hand } | { ok: false; problem: HandProblem };

/** The tile a set stands for: the face-up code of its tiles (face-down tiles take it). */
function faces(tiles: TileItem[]): string[] {
  return tiles.filter((t) => t.code !== 'back').map((t) => t.code);
}

/** What kind of set these tiles make, or null if they make none. */
export function kindOf(tiles: TileItem[]): SetKind {
  const f = faces(tiles);
  const backs = tiles.length - f.length;
  if (f.length === 0) return 'loose';
  const same = f.every((c) => c === f[0]);
  if (tiles.length === 4 && same && backs <= 2) return 'kong';
  if (backs > 0) return 'loose';
  if (tiles.length === 3 && same) return 'pung';
  if (tiles.length === 2 && same) return 'pair';
  if (tiles.length === 3) {
    const ids = f.map((c) => tileId(c)!).sort((a, b) => a - b);
    if (isSuited(ids[0]) && suitOf(ids[0]) === suitOf(ids[2]) && ids[1] === ids[0] + 1 && ids[2] === ids[0] + 2) return 'chow';
  }
  return 'loose';
}

function meldOf(set: PlannedSet, byUid: Map<string, TileItem>): Meld | null {
  const tiles = set.uids.map((u) => byUid.get(u)!).filter(Boolean);
  const kind = kindOf(tiles);
  const f = faces(tiles).map((c) => tileId(c)!);
  if (f.length === 0) return null;
  const low = Math.min(...f);
  // How the set was claimed, when typed in notation: the engine's hand says it again (share links).
  const claim = set.claim;
  const from = claim?.from ? { claimedFrom: claim.from } : {};
  switch (kind) {
    case 'chow': return { kind: 'chow', tile: low, concealed: false, ...from, ...(claim?.index !== undefined ? { claimedIndex: claim.index } : {}) };
    case 'pung': return { kind: 'pung', tile: low, concealed: false, ...from };
    case 'kong': return set.concealedKong
      ? { kind: 'kong', tile: low, concealed: true }
      : { kind: 'kong', tile: low, concealed: false, ...from, ...(claim?.promoted ? { promoted: true } : {}) };
    default: return null;
  }
}

const isMeldKind = (k: SetKind): boolean => k === 'chow' || k === 'pung' || k === 'kong';

export function flowerCount(work: Work): number {
  return work.conditions.flowers ?? work.tiles.filter((t) => isFlowerCode(t.code)).length;
}

export function buildHand(work: Work): BuiltHand {
  const byUid = new Map(work.tiles.map((t) => [t.uid, t]));
  const sets = work.sets ?? [];
  const melds: Meld[] = [];
  const inMeld = new Set<string>();
  for (const s of sets) {
    if (!s.declared) continue;
    const m = meldOf(s, byUid);
    if (!m) return { ok: false, problem: { key: 'hand.badSet', values: { tiles: s.uids.map((u) => byUid.get(u)?.code ?? '?').join(' ') } } };
    melds.push(m);
    s.uids.forEach((u) => inMeld.add(u));
  }
  const win = work.winningUid ? byUid.get(work.winningUid) : undefined;
  if (!win || inMeld.has(win.uid)) return { ok: false, problem: { key: 'hand.noWinning' } };
  const concealed: TileId[] = [];
  const flowers: TileId[] = [];
  for (const t of work.tiles) {
    if (inMeld.has(t.uid) || t.uid === win.uid) continue;
    if (t.code === 'back') return { ok: false, problem: { key: 'hand.looseBack' } };
    const id = tileId(t.code)!;
    if (isFlowerCode(t.code)) flowers.push(id);
    else concealed.push(id);
  }
  const hand: Hand = { melds, concealed, winningTile: tileId(win.code)! };
  if (flowers.length) hand.flowers = flowers;
  return { ok: true, hand };
}

export function toContext(c: Conditions, flowers: number): WinContext {
  return {
    seatWind: c.seatWind,
    prevalentWind: c.prevalentWind,
    selfDrawn: c.selfDrawn,
    discarder: c.selfDrawn ? null : c.discarder,
    lastOfKind: c.lastOfKind,
    lastTileOfWall: c.lastTileOfWall,
    replacementTile: c.replacementTile,
    robbingKong: c.robbingKong,
    flowers,
  };
}

/** The win context of card 002: the shared conditions plus the Fan Pays fields. */
export function toFanPaysContext(c: Conditions, flowers: number): FanPaysContext {
  const f = fanPaysConditions(c);
  return {
    ...toContext(c, flowers),
    dealer: f.dealer,
    dealerStreak: f.dealerStreak,
    flowerWallWin: f.flowerWallWin,
    firstDiscardWin: f.firstDiscardWin,
    firstDrawWin: f.firstDrawWin,
    secretKongs: f.secretKongs.filter((w) => w !== c.seatWind),
    fanValue: f.fanValue,
  };
}

/** Sets in a complete hand under the ruleset (4 in MCR, 5 in Fan Pays). */
export const setsFor = (ruleset: RulesetId): number => getRuleset(ruleset).shape.sets;

export interface ScoredWork {
  /** The hand exactly as scored (share links and the sheet use this one). */
  built: BuiltHand;
  result: ScoreResult | null;
  /** The context exactly as scored; null when the hand could not be built. */
  ctx: WinContext | null;
}

/** The hand and context the engine scores for this work under the ruleset. */
export function scoringInput(work: Work, ruleset: RulesetId): { built: BuiltHand; ctx: WinContext | null } {
  const built = buildHand(work);
  if (!built.ok) return { built, ctx: null };
  const flowers = flowerCount(work);
  if (ruleset !== 'fan-pays') return { built, ctx: toContext(work.conditions, flowers) };
  // Card 002 reads the flower tiles one by one (Four Flowers, All Eight). When the
  // player overrode the count, the tiles in the photo are not the winner's flowers.
  let hand = built.hand;
  if (hand.flowers && work.conditions.flowers !== null && work.conditions.flowers !== hand.flowers.length) {
    hand = { melds: hand.melds, concealed: hand.concealed, winningTile: hand.winningTile };
  }
  return { built: { ok: true, hand }, ctx: toFanPaysContext(work.conditions, flowers) };
}

/** Score the work with the engine under the ruleset; never throws. */
export function scoreWork(work: Work, ruleset: RulesetId = 'mcr'): ScoredWork {
  const { built, ctx } = scoringInput(work, ruleset);
  if (!built.ok || !ctx) return { built, result: null, ctx: null };
  try {
    return { built, result: getRuleset(ruleset).score(built.hand, ctx), ctx };
  } catch {
    return { built: { ok: false, problem: { key: 'hand.engineUnavailable' } }, result: null, ctx: null };
  }
}

export interface WhatIfTile { tile: TileId; result: ScoreResult }

/** Each tile the waiting hand can win on under the ruleset, scored with the same context ("what if"). */
export function whatIfFor(ruleset: RulesetId, hand: Hand, ctx: WinContext): WhatIfTile[] {
  const r = getRuleset(ruleset);
  const { melds, concealed, flowers } = hand;
  const waiting: WaitingHand = flowers ? { melds, concealed, flowers } : { melds, concealed };
  try {
    return r.waits(waiting).map((tile) => ({ tile, result: r.score({ ...waiting, winningTile: tile }, ctx) }));
  } catch {
    return [];
  }
}

/** The tiles a set of a reading stands for (also drawn by the result screen's "Read as"). */
export function idsOf(s: ScoredSet): TileId[] {
  switch (s.kind) {
    case 'chow': return [s.tile, s.tile + 1, s.tile + 2];
    case 'pung': return [s.tile, s.tile, s.tile];
    case 'kong': return [s.tile, s.tile, s.tile, s.tile];
    case 'pair': return [s.tile, s.tile];
    case 'knitted': return s.tiles ?? [s.tile];
    default: return [s.tile];
  }
}

/** The concealed sets of a reading. MCR lists none for Seven Pairs: there they are the tiles two by two. */
function readingSets(reading: Decomposition, rest: TileItem[]): ScoredSet[] {
  const own = reading.sets.filter((s) => !s.declared);
  if (reading.kind !== 'seven-pairs' || own.length) return own;
  const counts = new Map<TileId, number>();
  for (const t of rest) {
    const id = tileId(t.code);
    if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => a[0] - b[0])
    .flatMap(([tile, n]) => Array.from({ length: n >> 1 }, (): ScoredSet => ({ kind: 'pair', tile, concealed: true, declared: false })));
}

const codesKey = (codes: string[]): string => [...codes].sort().join(' ');

/**
 * Lay the tiles `rest` out as a reading of the engine: each of its concealed sets
 * takes tiles of its faces. A declared set of `keep` that the reading has too keeps
 * its own tiles and marks (and comes first); tiles no set took end in one group.
 */
function layOut(reading: Decomposition | null, rest: TileItem[], winningUid: string | null, keep: PlannedSet[] = []): PlannedSet[] {
  const byUid = new Map(rest.map((t) => [t.uid, t]));
  const open = keep.filter((p) => p.uids.every((u) => byUid.has(u)));
  const sets: PlannedSet[] = [];
  const others: ScoredSet[] = [];
  for (const s of reading ? readingSets(reading, rest) : []) {
    const want = codesKey(idsOf(s).filter((id) => id >= 0 && id < 34).map(tileCode));
    const k = open.findIndex((p) => codesKey(p.uids.map((u) => byUid.get(u)!.code)) === want);
    if (k >= 0) sets.push(...open.splice(k, 1));
    else others.push(s);
  }
  const taken = new Set(sets.flatMap((p) => p.uids));
  const pool = new Map<string, string[]>();
  for (const t of rest) if (!taken.has(t.uid) && t.code !== 'back') pool.set(t.code, [...(pool.get(t.code) ?? []), t.uid]);
  // Keep the winning tile for last so it lands in the set the engine put it in only if needed.
  for (const [code, uids] of pool) {
    const w = uids.indexOf(winningUid ?? '');
    if (w >= 0) pool.set(code, [...uids.slice(0, w), ...uids.slice(w + 1), uids[w]]);
  }
  const take = (id: TileId): string | undefined => {
    const code = id >= 0 && id < 34 ? tileCode(id) : undefined;
    const list = code ? pool.get(code) : undefined;
    return list && list.length ? list.shift() : undefined;
  };
  for (const s of others) {
    const uids = idsOf(s).map(take).filter((u): u is string => !!u);
    if (uids.length === 0) continue;
    const k = kindOf(uids.map((u) => byUid.get(u)!));
    sets.push({ uids, kind: s.kind === 'knitted' || s.kind === 'single' ? 'loose' : k, declared: false });
  }
  const left = rest.filter((t) => !sets.some((p) => p.uids.includes(t.uid)));
  if (left.length) sets.push({ uids: left.map((t) => t.uid), kind: kindOf(left), declared: false });
  return sets;
}

/**
 * Propose sets for the tiles. Declared sets come first: the player's own (marked
 * on the Sets screen, typed in notation) while their tiles still make a set; then,
 * from the layout, a group of tiles set apart that the player has not grouped yet
 * (a sideways tile means a claimed, melded set; two face-down tiles with two equal
 * faces mean a concealed kong); then extra sets of four as kongs when the tile
 * count needs them. The rest is grouped as the engine's best reading sees it.
 */
export function proposeSets(work: Work, ruleset: RulesetId = 'mcr'): { sets: PlannedSet[]; winningUid: string | null } {
  const base = 3 * setsFor(ruleset) + 2;
  const main = work.tiles.filter((t) => !isFlowerCode(t.code));
  const byUid = new Map(main.map((t) => [t.uid, t]));
  const sets: PlannedSet[] = [];
  const used = new Set<string>();

  for (const s of work.sets ?? []) {
    if (!s.declared || s.uids.some((u) => !byUid.has(u) || used.has(u))) continue;
    const kind = kindOf(s.uids.map((u) => byUid.get(u)!));
    if (!isMeldKind(kind)) continue;
    sets.push(kind === s.kind && (kind === 'kong' || !s.concealedKong) ? s : { ...s, kind, concealedKong: kind === 'kong' && !!s.concealedKong });
    s.uids.forEach((u) => used.add(u));
  }

  // A layout group whose tiles the player has all seen in sets was grouped by the player (say, a
  // meld marked concealed again): it stays so. Tiles new to grouping take the layout's word.
  const grouped = new Set((work.sets ?? []).flatMap((s) => s.uids));
  const groups = new Map<number, TileItem[]>();
  for (const t of main) if (t.group !== undefined) groups.set(t.group, [...(groups.get(t.group) ?? []), t]);
  for (const g of groups.values()) {
    if (g.some((t) => used.has(t.uid)) || g.every((t) => grouped.has(t.uid))) continue;
    const kind = kindOf(g);
    const backs = g.some((t) => t.code === 'back');
    if (kind === 'kong' && backs) {
      sets.push({ uids: g.map((t) => t.uid), kind, declared: true, concealedKong: true });
    } else if (isMeldKind(kind)) {
      sets.push({ uids: g.map((t) => t.uid), kind, declared: true, concealedKong: false });
    } else continue;
    g.forEach((t) => used.add(t.uid));
  }

  // Tiles beyond sets and a pair (14 in MCR, 17 in Fan Pays) need that many kongs: take remaining sets of four.
  let extra = main.length - base - sets.filter((s) => s.kind === 'kong').length;
  if (extra > 0) {
    const byCode = new Map<string, TileItem[]>();
    for (const t of main) if (!used.has(t.uid) && t.code !== 'back') byCode.set(t.code, [...(byCode.get(t.code) ?? []), t]);
    for (const [, ts] of byCode) {
      if (extra <= 0) break;
      if (ts.length === 4) {
        sets.push({ uids: ts.map((t) => t.uid), kind: 'kong', declared: true, concealedKong: false });
        ts.forEach((t) => used.add(t.uid));
        extra--;
      }
    }
  }

  const rest = main.filter((t) => !used.has(t.uid));
  const winningUid = work.winningUid && rest.some((t) => t.uid === work.winningUid)
    ? work.winningUid
    : defaultWinning(work.tiles, sets);

  const { result } = scoreWork({ ...work, sets, winningUid }, ruleset);
  const reading = result?.decomposition ?? null;
  if (!reading) {
    // The tiles make no complete hand (a tile misread, or corrected to the wrong one): the sets the
    // player already had, and whose tiles are still a set or a pair, stay; only the rest is one group.
    const restIds = new Set(rest.map((t) => t.uid));
    const still = (p: PlannedSet) => { const k = kindOf(p.uids.map((u) => byUid.get(u)!)); return isMeldKind(k) || k === 'pair'; };
    const prior = (work.sets ?? []).filter((p) => !p.declared && p.uids.every((u) => restIds.has(u)) && still(p));
    const inPrior = new Set(prior.flatMap((p) => p.uids));
    return { sets: [...sets, ...prior, ...layOut(null, rest.filter((t) => !inPrior.has(t.uid)), winningUid)], winningUid };
  }
  return { sets: [...sets, ...layOut(reading, rest, winningUid)], winningUid };
}

/** Whether the Sets screen has to propose sets: none yet, or some tile in no set (a tile added or corrected since). */
export function needsSets(work: Work): boolean {
  const main = work.tiles.filter((t) => !isFlowerCode(t.code));
  if (!main.length) return false;
  if (!work.sets) return true;
  const inSets = new Set(work.sets.flatMap((s) => s.uids));
  const uids = new Set(main.map((t) => t.uid));
  return main.some((t) => !inSets.has(t.uid)) || [...inSets].some((u) => !uids.has(u));
}

/** Every reading of the hand the engine finds (as `score --all` lists them), best first. */
function readingsOf(hand: Hand, work: Work, ruleset: RulesetId): Decomposition[] {
  const flowers = flowerCount(work);
  const found = (c: Conditions): Decomposition[] => (ruleset === 'fan-pays'
    ? allFanPaysReadings(hand, toFanPaysContext(c, flowers))
    : allDecompositions(hand, toContext(c, flowers))
  ).flatMap((r) => (r.decomposition ? [r.decomposition] : []));
  try {
    const list = found(work.conditions);
    // Conditions at odds with the hand (a win on the first discard with a melded set) leave no
    // reading; how the tiles group does not depend on them.
    return list.length ? list : found(defaultConditions());
  } catch {
    return [];
  }
}

export interface Grouping { sets: PlannedSet[]; winningUid: string | null }

const groupingKey = (sets: PlannedSet[], byUid: Map<string, TileItem>): string =>
  sets.map((s) => codesKey(s.uids.map((u) => byUid.get(u)?.code ?? '?'))).sort().join(' | ');

/**
 * Every distinct way the tiles group into a complete hand, best first: the
 * engine's readings of the hand. Kongs stay as they are (the tile count needs
 * them); the other tiles are read afresh, so that the player can pick a grouping
 * the best reading does not show (a claimed chow among three pungs). A declared
 * set that a grouping has too keeps its tiles and marks there.
 */
export function groupings(work: Work, ruleset: RulesetId = 'mcr'): Grouping[] {
  if (!work.sets) return [];
  const main = work.tiles.filter((t) => !isFlowerCode(t.code));
  const byUid = new Map(main.map((t) => [t.uid, t]));
  const kongs = work.sets.filter((s) => s.kind === 'kong' && s.uids.every((u) => byUid.has(u)));
  const inKong = new Set(kongs.flatMap((s) => s.uids));
  const rest = main.filter((t) => !inKong.has(t.uid));
  if (rest.some((t) => t.code === 'back')) return [];
  const melds = kongs.map((s) => meldOf({ ...s, declared: true }, byUid));
  const winningUid = work.winningUid && rest.some((t) => t.uid === work.winningUid) ? work.winningUid : defaultWinning(rest, null);
  if (!winningUid || melds.some((m) => !m)) return [];
  const hand: Hand = {
    melds: melds as Meld[],
    concealed: rest.filter((t) => t.uid !== winningUid).map((t) => tileId(t.code)!),
    winningTile: tileId(byUid.get(winningUid)!.code)!,
  };
  const keep = work.sets.filter((s) => s.declared && s.kind !== 'kong');
  const seen = new Set<string>();
  const out: Grouping[] = [];
  for (const reading of readingsOf(hand, work, ruleset)) {
    const sets = [...kongs, ...layOut(reading, rest, winningUid, keep)];
    // a set the player marked melded was claimed at the table: a reading without it is not this hand
    if (!keep.every((p) => sets.includes(p))) continue;
    const key = groupingKey(sets, byUid);
    if (seen.has(key)) continue;
    seen.add(key);
    // The winning tile belongs to the hand, never to a set declared before the win.
    const win = sets.some((s) => s.declared && s.uids.includes(winningUid)) ? defaultWinning(work.tiles, sets) : winningUid;
    out.push({ sets, winningUid: win });
  }
  return out;
}

/** Which of the groupings the work shows, by the tiles of each set; -1 for none of them. */
export function groupingIndex(work: Work, list: Grouping[]): number {
  if (!work.sets) return -1;
  const byUid = new Map(work.tiles.map((t) => [t.uid, t]));
  const key = groupingKey(work.sets, byUid);
  return list.findIndex((g) => groupingKey(g.sets, byUid) === key);
}
