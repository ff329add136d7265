/**
 * From recognised tiles (a photo's tile list in reading order) to a hand.
 *
 * A photo shows which tiles there are, not how the hand was won, so the reading
 * is explicit and documented rather than guessed silently:
 *  - flowers (f1..f8) are set aside and counted;
 *  - a set the layout grouped apart that holds a sideways (claimed) tile is a
 *    melded chow, pung or kong;
 *  - a group of two face-down tiles with two equal face-up tiles is a concealed
 *    kong; face-down tiles anywhere else are an error;
 *  - everything else is concealed, and the winning tile is `winningTile` when
 *    given, otherwise the last concealed tile in reading order (as in notation).
 */
import { MahjongError } from './errors.ts';
import { defaultContext, type Hand, type Meld, type WinContext } from './hand.ts';
import type { ScoreResult } from './result.ts';
import { getRuleset } from './ruleset.ts';
import { isFlower, tileCode, tileId, type TileId } from './tiles.ts';

export interface RecognisedTile {
  code: string;
  sideways?: boolean;
  /** Set group proposed by the layout (tiles laid apart together). */
  group?: number;
}

export interface FromTilesOptions {
  /** Code of the winning tile; default: the last concealed tile in reading order. */
  winningTile?: string;
}

/** A declared set from its tiles, or null when they are not a chow, pung or kong. */
function meldOf(tiles: TileId[]): Meld | null {
  const s = [...tiles].sort((a, b) => a - b);
  const same = s.every((t) => t === s[0]);
  if (s.length === 4 && same) return { kind: 'kong', tile: s[0]!, concealed: false, claimedFrom: 'left' };
  if (s.length === 3 && same) return { kind: 'pung', tile: s[0]!, concealed: false, claimedFrom: 'left' };
  if (s.length === 3 && s[0]! < 27 && s[1] === s[0]! + 1 && s[2] === s[0]! + 2 && s[0]! % 9 <= 6) return { kind: 'chow', tile: s[0]!, concealed: false, claimedFrom: 'left' };
  return null;
}

/** Builds a hand from recognised tiles. Throws MahjongError when the tiles cannot be read as a hand. */
export function handFromTiles(tiles: RecognisedTile[], opts: FromTilesOptions = {}): Hand {
  const flowers: TileId[] = [];
  const melds: Meld[] = [];
  const groups = new Map<number, RecognisedTile[]>();
  const loose: RecognisedTile[] = [];
  for (const t of tiles) {
    if (t.code !== 'back' && tileId(t.code) === undefined) throw new MahjongError('MALFORMED_NOTATION', `unknown tile code "${t.code}"`);
    if (t.code !== 'back' && isFlower(tileId(t.code)!)) { flowers.push(tileId(t.code)!); continue; }
    if (t.group !== undefined) {
      const g = groups.get(t.group) ?? [];
      g.push(t);
      groups.set(t.group, g);
    } else loose.push(t);
  }
  const concealed: TileId[] = [];
  for (const g of groups.values()) {
    const backs = g.filter((t) => t.code === 'back').length;
    const faces = g.filter((t) => t.code !== 'back').map((t) => tileId(t.code)!);
    if (backs > 0) {
      if (backs === 2 && faces.length === 2 && faces[0] === faces[1]) { melds.push({ kind: 'kong', tile: faces[0]!, concealed: true }); continue; }
      throw new MahjongError('INVALID_MELD', 'face-down tiles are only read as the two hidden tiles of a concealed kong; turn them over or mark the kong');
    }
    const m = g.some((t) => t.sideways) ? meldOf(faces) : null;
    if (m) melds.push(m);
    else for (const t of g) concealed.push(tileId(t.code)!);
  }
  for (const t of loose) {
    if (t.code === 'back') throw new MahjongError('INVALID_MELD', 'a face-down tile outside a concealed kong cannot be read');
    concealed.push(tileId(t.code)!);
  }
  let winningTile: TileId | undefined;
  if (opts.winningTile !== undefined) {
    const w = tileId(opts.winningTile);
    if (w === undefined || isFlower(w)) throw new MahjongError('MALFORMED_NOTATION', `the winning tile "${opts.winningTile}" is not a tile`);
    const i = concealed.lastIndexOf(w);
    if (i < 0) throw new MahjongError('NOT_WIN', `the winning tile ${tileCode(w)} is not among the concealed tiles`);
    concealed.splice(i, 1);
    winningTile = w;
  } else winningTile = concealed.pop();
  if (winningTile === undefined) throw new MahjongError('WRONG_TILE_COUNT', 'no concealed tiles were recognised, so there is no winning tile');
  return { melds, concealed, winningTile, ...(flowers.length ? { flowers } : {}) };
}

/** Scores recognised tiles with a ruleset (default MCR); flowers set aside are counted. */
export function scoreTiles(codes: string[], opts: FromTilesOptions & { tiles?: RecognisedTile[]; ctx?: Partial<WinContext>; ruleset?: string } = {}): { hand: Hand; result: ScoreResult } {
  const tiles = opts.tiles ?? codes.map((code) => ({ code }));
  const hand = handFromTiles(tiles, opts);
  const ctx = defaultContext({ flowers: hand.flowers?.length ?? 0, ...opts.ctx });
  return { hand, result: getRuleset(opts.ruleset ?? 'mcr').score(hand, ctx) };
}
