/**
 * Analysis for the player: every winning tile of a waiting hand with its full
 * score ("what if"), and every interpretation of a complete hand with its score.
 */
import { isMahjongError } from './errors.ts';
import type { Hand, WaitingHand, WinContext } from './hand.ts';
import { countTiles } from './decompose.ts';
import type { ScoreResult } from './result.ts';
import { evaluateAll, scoreMcr, toResult } from './mcr/score.ts';
import { waitsOf } from './mcr/waits.ts';
import type { TileId } from './tiles.ts';
import { validateHand } from './validate.ts';

/** Tiles that complete a 13-tile hand (any hand form). Throws MahjongError on bad input. */
export function waitingTiles(hand: WaitingHand): TileId[] {
  validateHand(hand);
  return waitsOf(countTiles(hand.concealed), hand.melds);
}

export interface WhatIf { tile: TileId; result: ScoreResult }

/** Each tile the hand can win on, scored with the same conditions. */
export function whatIf(hand: WaitingHand, ctx: WinContext): WhatIf[] {
  return waitingTiles(hand).map((tile) => ({ tile, result: scoreMcr({ ...hand, winningTile: tile }, ctx) }));
}

/** Every way to read a complete hand, each fully scored, best first. */
export function allDecompositions(hand: Hand, ctx: WinContext): ScoreResult[] {
  try {
    const p = evaluateAll(hand, ctx, true);
    const seen = new Set<string>();
    const out: ScoreResult[] = [];
    for (const ev of [...p.evaluations].sort((a, b) => b.total - a.total)) {
      const r = toResult(p, ev);
      const key = JSON.stringify([r.decomposition, r.fans.map((f) => [f.id, f.count])]);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(r);
    }
    return out;
  } catch (e) {
    if (isMahjongError(e)) return [scoreMcr(hand, ctx)];
    throw e;
  }
}
