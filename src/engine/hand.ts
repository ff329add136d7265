import type { TileId, Wind } from './tiles.ts';

/** Who a melded set was claimed from, seen from the player who claimed it. */
export type ClaimedFrom = 'left' | 'opposite' | 'right';

/**
 * A declared set. `tile` is the lowest tile of a chow, or the tile of a pung/kong.
 * Concealed chows and pungs exist only inside a decomposition of the hand's
 * concealed tiles; declared melds are concealed only for concealed kongs.
 */
export type Meld =
  | { kind: 'chow'; tile: TileId; concealed: boolean; claimedFrom?: ClaimedFrom; /** 0..2: which of the three was claimed */ claimedIndex?: number }
  | { kind: 'pung'; tile: TileId; concealed: boolean; claimedFrom?: ClaimedFrom }
  | { kind: 'kong'; tile: TileId; concealed: boolean; claimedFrom?: ClaimedFrom; /** a melded pung promoted to a kong */ promoted?: boolean };

export type MeldKind = Meld['kind'];

/** A finished hand as the player shows it. */
export interface Hand {
  /** Declared sets, at most 4 (5 in 16-tile rulesets). */
  melds: Meld[];
  /** Concealed tiles, without the winning tile. */
  concealed: TileId[];
  /** The tile the hand won on. */
  winningTile: TileId;
  /** Flower tile ids (34..41), when they are known one by one. */
  flowers?: TileId[];
}

/** A 13-tile (or 16-tile) hand waiting for its winning tile. */
export type WaitingHand = Omit<Hand, 'winningTile'>;

/** How the hand was won. Every field is named; no positional booleans. */
export interface WinContext {
  seatWind: Wind;
  prevalentWind: Wind;
  selfDrawn: boolean;
  /** Seat wind of the player who discarded the winning tile (or whose kong was robbed). */
  discarder?: Wind | null;
  /** The winning tile was the last of its kind (the other three are visible). */
  lastOfKind: boolean;
  /** Won on the last tile of the wall: Last Tile Draw if self-drawn, Last Tile Claim otherwise. */
  lastTileOfWall: boolean;
  /** Won on the replacement tile drawn after a kong (self-drawn only). */
  replacementTile: boolean;
  /** Won by robbing a kong (a win on a discard). */
  robbingKong: boolean;
  /** Number of flowers (0..8). */
  flowers: number;
}

export const defaultContext = (over: Partial<WinContext> = {}): WinContext => ({
  seatWind: 'E',
  prevalentWind: 'E',
  selfDrawn: false,
  discarder: null,
  lastOfKind: false,
  lastTileOfWall: false,
  replacementTile: false,
  robbingKong: false,
  flowers: 0,
  ...over,
});

/** All tiles of a meld. */
export function meldTiles(m: Meld): TileId[] {
  switch (m.kind) {
    case 'chow': return [m.tile, m.tile + 1, m.tile + 2];
    case 'pung': return [m.tile, m.tile, m.tile];
    case 'kong': return [m.tile, m.tile, m.tile, m.tile];
  }
}
