/**
 * From the corrected tiles to the engine's Hand and WinContext, and the proposed
 * grouping into sets. The grouping comes from the photo layout (sideways and
 * face-down tiles, gaps) and from the engine's best decomposition; the app never
 * scores anything itself.
 */
import type { FanPaysContext, Hand, Meld, TileId, WaitingHand, WinContext, ScoreResult } from '../../engine/index.ts';
import { getRuleset, tileId, tileCode, isSuited, suitOf } from '../../engine/index.ts';
import type { RulesetId } from '../ruleset/active.ts';
import type { Conditions, PlannedSet, SetKind, TileItem, Work } from './work.ts';
import { fanPaysConditions, isFlowerCode } from './work.ts';
import { defaultWinning } from './commands.ts';

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
  switch (kind) {
    case 'chow': return { kind: 'chow', tile: low, concealed: false };
    case 'pung': return { kind: 'pung', tile: low, concealed: false };
    case 'kong': return { kind: 'kong', tile: low, concealed: !!set.concealedKong };
    default: return null;
  }
}

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

/**
 * Propose sets for the tiles: declared sets from the layout (a sideways tile
 * means a claimed, melded set; two face-down tiles with two equal faces mean a
 * concealed kong), extra sets of four as kongs when the tile count needs them,
 * and the rest grouped as the engine's best decomposition sees them.
 */
export function proposeSets(work: Work, ruleset: RulesetId = 'mcr'): { sets: PlannedSet[]; winningUid: string | null } {
  const base = 3 * setsFor(ruleset) + 2;
  const main = work.tiles.filter((t) => !isFlowerCode(t.code));
  const sets: PlannedSet[] = [];
  const used = new Set<string>();

  const groups = new Map<number, TileItem[]>();
  for (const t of main) if (t.group !== undefined) groups.set(t.group, [...(groups.get(t.group) ?? []), t]);
  for (const g of groups.values()) {
    const kind = kindOf(g);
    const backs = g.some((t) => t.code === 'back');
    if (kind === 'kong' && backs) {
      sets.push({ uids: g.map((t) => t.uid), kind, declared: true, concealedKong: true });
    } else if (kind === 'chow' || kind === 'pung' || kind === 'kong') {
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

  const trial: Work = { ...work, sets, winningUid };
  const { result } = scoreWork(trial, ruleset);
  const decomposition = result?.decomposition;
  const pool = new Map<string, string[]>();
  for (const t of rest) if (t.code !== 'back') pool.set(t.code, [...(pool.get(t.code) ?? []), t.uid]);
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
  if (decomposition) {
    for (const s of decomposition.sets) {
      if (s.declared) continue;
      let ids: TileId[];
      switch (s.kind) {
        case 'chow': ids = [s.tile, s.tile + 1, s.tile + 2]; break;
        case 'pung': ids = [s.tile, s.tile, s.tile]; break;
        case 'kong': ids = [s.tile, s.tile, s.tile, s.tile]; break;
        case 'pair': ids = [s.tile, s.tile]; break;
        case 'knitted': ids = s.tiles ?? [s.tile]; break;
        default: ids = [s.tile];
      }
      const uids = ids.map(take).filter((u): u is string => !!u);
      if (uids.length === 0) continue;
      const k = kindOf(uids.map((u) => main.find((t) => t.uid === u)!));
      sets.push({ uids, kind: s.kind === 'knitted' || s.kind === 'single' ? 'loose' : k, declared: false });
    }
  }
  const left = rest.filter((t) => !sets.some((s) => s.uids.includes(t.uid)));
  if (left.length) sets.push({ uids: left.map((t) => t.uid), kind: kindOf(left), declared: false });
  return { sets, winningUid };
}

