/**
 * One tile vocabulary for the whole project.
 *
 * Tile ids 0..33 are the 34 playing kinds, in the order used by every count table:
 *   0..8   characters 1m..9m (萬)
 *   9..17  dots       1p..9p (筒)
 *   18..26 bamboo     1s..9s (條)
 *   27..30 winds      East, South, West, North (1z..4z)
 *   31..33 dragons    White 5z (白), Green 6z (發), Red 7z (中)  — Tenhou order
 * Ids 34..41 are the eight flowers f1..f8 (plum, orchid, chrysanthemum, bamboo,
 * spring, summer, autumn, winter); they never enter a count table.
 */

export type TileId = number;
export type Suit = 'm' | 'p' | 's';

export const TILE_KINDS = 34;
export const FLOWER_BASE = 34;
export const ALL_TILES = 42;

export const TILE_CODES: readonly string[] = Object.freeze([
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((n) => `${n}m`),
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((n) => `${n}p`),
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((n) => `${n}s`),
  '1z', '2z', '3z', '4z', '5z', '6z', '7z',
  'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8',
]);

/** Recognition classes: the 42 tiles plus a face-down tile. */
export const VISION_CODES: readonly string[] = Object.freeze([...TILE_CODES, 'back']);

const CODE_TO_ID = new Map<string, TileId>(TILE_CODES.map((c, i) => [c, i]));

export const EAST = 27, SOUTH = 28, WEST = 29, NORTH = 30, WHITE = 31, GREEN = 32, RED = 33;

export function isTileCode(code: string): boolean {
  return CODE_TO_ID.has(code);
}

/** Tile id for a code such as `5m`, `7z` or `f3`; undefined when the code is unknown. */
export function tileId(code: string): TileId | undefined {
  return CODE_TO_ID.get(code);
}

export function tileCode(id: TileId): string {
  const c = TILE_CODES[id];
  if (c === undefined) throw new RangeError(`no tile with id ${id}`);
  return c;
}

export const isSuited = (t: TileId): boolean => t >= 0 && t < 27;
export const isHonor = (t: TileId): boolean => t >= 27 && t < 34;
export const isWind = (t: TileId): boolean => t >= 27 && t <= 30;
export const isDragon = (t: TileId): boolean => t >= 31 && t <= 33;
export const isFlower = (t: TileId): boolean => t >= 34 && t < 42;
/** 0 = m, 1 = p, 2 = s, 3 = honours. */
export const suitOf = (t: TileId): number => (t < 27 ? Math.floor(t / 9) : 3);
/** Rank 1..9 for suited tiles, 0 for honours. */
export const rankOf = (t: TileId): number => (t < 27 ? (t % 9) + 1 : 0);
export const isTerminal = (t: TileId): boolean => t < 27 && (t % 9 === 0 || t % 9 === 8);
export const isTerminalOrHonor = (t: TileId): boolean => isTerminal(t) || isHonor(t);
export const SUIT_LETTERS: readonly Suit[] = ['m', 'p', 's'];

/** Wind tile for a seat letter. */
export type Wind = 'E' | 'S' | 'W' | 'N';
export const WINDS: readonly Wind[] = ['E', 'S', 'W', 'N'];
export const windTile = (w: Wind): TileId => EAST + WINDS.indexOf(w);
