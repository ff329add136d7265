/**
 * Input checks shared by every ruleset. Each problem becomes a MahjongError that
 * names it in words a player understands.
 */
import { MahjongError } from './errors.ts';
import { meldTiles, type Hand, type WaitingHand, type WinContext } from './hand.ts';

import { isFlower, isHonor, suitOf, TILE_KINDS, tileCode, WINDS } from './tiles.ts';

export interface HandShape {
  /** Sets in a complete hand (4 in MCR, 5 in Fan Pays). */
  sets: number;
}

export const MCR_SHAPE: HandShape = { sets: 4 };

/** Structural checks of a hand: melds, tile ids, tile count, copies. Throws MahjongError. */
export function validateHand(hand: Hand | WaitingHand, shape: HandShape = MCR_SHAPE): void {
  if (!hand || !Array.isArray(hand.melds) || !Array.isArray(hand.concealed)) {
    throw new MahjongError('MALFORMED_NOTATION', 'the hand must have melds and concealed tiles');
  }
  if (hand.melds.length > shape.sets) {
    throw new MahjongError('TOO_MANY_MELDS', `the hand declares ${hand.melds.length} sets; at most ${shape.sets} are possible`);
  }
  const winning = 'winningTile' in hand ? hand.winningTile : undefined;
  const counts = new Uint8Array(TILE_KINDS);
  const checkTile = (t: number) => {
    if (!Number.isInteger(t) || t < 0 || t >= TILE_KINDS) {
      if (Number.isInteger(t) && isFlower(t)) throw new MahjongError('MALFORMED_NOTATION', 'flowers are not part of the hand; count them in the win conditions');
      throw new MahjongError('MALFORMED_NOTATION', `unknown tile id ${String(t)}`);
    }
    counts[t]!++;
  };
  for (const t of hand.concealed) checkTile(t);
  if (winning !== undefined) checkTile(winning);
  const loose = hand.concealed.length + (winning !== undefined ? 1 : 0);
  for (const m of hand.melds) {
    if (!Number.isInteger(m.tile) || m.tile < 0 || m.tile >= TILE_KINDS) throw new MahjongError('INVALID_MELD', `unknown tile id ${String(m.tile)} in a declared set`);
    if (m.kind === 'chow') {
      if (isHonor(m.tile)) throw new MahjongError('HONOR_CHOW', `honours cannot form a chow (${tileCode(m.tile)})`);
      if (m.tile % 9 > 6 || suitOf(m.tile + 2) !== suitOf(m.tile)) throw new MahjongError('INVALID_MELD', `a chow cannot start at ${tileCode(m.tile)}`);
      if (m.concealed) throw new MahjongError('INVALID_MELD', 'a declared chow is always melded; write concealed chows among the concealed tiles');
      counts[m.tile]!++; counts[m.tile + 1]!++; counts[m.tile + 2]!++;
    } else {
      if (m.kind !== 'pung' && m.kind !== 'kong') throw new MahjongError('INVALID_MELD', `unknown set kind ${String((m as { kind: unknown }).kind)}`);
      // Concealed chows and pungs are part of the concealed tiles, never declared.
      if (m.kind === 'pung' && m.concealed) throw new MahjongError('INVALID_MELD', 'a declared pung is always melded; write concealed pungs among the concealed tiles');
      counts[m.tile]! += m.kind === 'kong' ? 4 : 3;
    }
  }
  const expected = 3 * shape.sets + 2 - 3 * hand.melds.length - (winning === undefined ? 1 : 0);
  if (loose !== expected) {
    const what = winning === undefined ? 'a waiting hand' : 'a winning hand';
    const total = 3 * shape.sets + 2 - (winning === undefined ? 1 : 0);
    throw new MahjongError('WRONG_TILE_COUNT',
      `${what} has ${total} tiles (kongs count as 3); with ${hand.melds.length} declared set(s) it needs ${expected} tile(s) outside them, but has ${loose}`);
  }
  for (let t = 0; t < TILE_KINDS; t++) {
    if (counts[t]! > 4) throw new MahjongError('TOO_MANY_COPIES', `there are ${counts[t]} copies of ${tileCode(t)}; a set has only 4`);
  }
}

/** Checks that the win conditions are possible together. Throws MahjongError. */
export function validateContext(ctx: WinContext, hand?: Hand, opts: { maxFlowers?: number } = {}): void {
  if (!ctx || typeof ctx !== 'object') throw new MahjongError('INVALID_CONTEXT', 'the win conditions are missing');
  if (!WINDS.includes(ctx.seatWind)) throw new MahjongError('INVALID_CONTEXT', `seat wind must be one of E, S, W, N, not ${String(ctx.seatWind)}`);
  if (!WINDS.includes(ctx.prevalentWind)) throw new MahjongError('INVALID_CONTEXT', `prevalent wind must be one of E, S, W, N, not ${String(ctx.prevalentWind)}`);
  const maxFlowers = opts.maxFlowers ?? 8;
  if (!Number.isInteger(ctx.flowers) || ctx.flowers < 0 || ctx.flowers > maxFlowers) {
    throw new MahjongError('INVALID_CONTEXT', `the number of flowers must be a whole number from 0 to ${maxFlowers}`);
  }
  if (ctx.robbingKong && ctx.selfDrawn) {
    throw new MahjongError('CONTRADICTORY_CONDITIONS', 'robbing the kong is a win on another player\'s tile, so it cannot be self-drawn');
  }
  if (ctx.replacementTile && !ctx.selfDrawn) {
    throw new MahjongError('CONTRADICTORY_CONDITIONS', 'a replacement tile after a kong is drawn by the winner, so the win must be self-drawn');
  }
  if (ctx.robbingKong && ctx.lastTileOfWall) {
    throw new MahjongError('CONTRADICTORY_CONDITIONS', 'no kong can be declared on the last tile of the wall, so it cannot be robbed');
  }
  if (ctx.selfDrawn && ctx.discarder) {
    throw new MahjongError('CONTRADICTORY_CONDITIONS', 'a self-drawn win has no discarder');
  }
  if (ctx.discarder) {
    if (!WINDS.includes(ctx.discarder)) throw new MahjongError('INVALID_CONTEXT', `the discarder must be one of E, S, W, N, not ${String(ctx.discarder)}`);
    if (ctx.discarder === ctx.seatWind) throw new MahjongError('CONTRADICTORY_CONDITIONS', 'the winner cannot have discarded the winning tile');
  }
  if (hand) {
    if (ctx.replacementTile && !hand.melds.some((m) => m.kind === 'kong')) {
      throw new MahjongError('CONTRADICTORY_CONDITIONS', 'a replacement tile after a kong needs a kong in the hand');
    }
    if (ctx.lastOfKind) {
      // Last Tile: the other three of the kind are in sight (discards or melded sets), not in the winner's concealed tiles
      const w = hand.winningTile;
      const hidden = hand.concealed.filter((t) => t === w).length;
      if (hidden > 0) throw new MahjongError('CONTRADICTORY_CONDITIONS', `last tile of its kind: the other three ${tileCode(w)} must be in sight (discarded or melded), but the winner's concealed tiles hold ${hidden}`);
    }
    if (ctx.robbingKong) {
      // The robbed player held a pung of the winning tile, so the winner holds no other copy of it.
      const w = hand.winningTile;
      const held = hand.concealed.filter((t) => t === w).length + hand.melds.reduce((n, m) => n + meldTiles(m).filter((t) => t === w).length, 0);
      if (held > 0) throw new MahjongError('CONTRADICTORY_CONDITIONS', `robbing the kong: another player held three ${tileCode(w)}, so the winner cannot hold one too`);
    }
  }
}
