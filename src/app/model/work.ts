/**
 * The work in progress: everything the player has seen and corrected, in one
 * plain, serialisable object. Scores are never stored here: the result view asks
 * the engine each time (state derived rather than stored, see STYLE.md App).
 */
import type { ClaimedFrom, Wind } from '../../engine/index.ts';

/** [x, y, width, height] in pixels of the original, EXIF-rotated photo, top-left origin. */
export type Box = [number, number, number, number];

/** One tile on the table, as recognised or entered. `code` is a vision code: 1m..7z, f1..f8 or `back`. */
export interface TileItem {
  uid: string;
  code: string;
  box?: Box;
  /** Recognition confidence 0..1; absent for tiles the player added. */
  score?: number;
  /** Recognition's next guesses, most likely first (offered first when the player corrects the tile). */
  alternatives?: string[];
  /** For a tile read as a flower or season: how sure recognition is that it is one of the eight (its
   * own score and its next guesses' among them), whichever it is (checkScore). */
  flowerScore?: number;
  /** The tile lies sideways (a claimed tile in a melded set). */
  sideways?: boolean;
  /** Layout group proposed by recognition, set only for tiles set apart as a meld or a concealed kong. */
  group?: number;
}

/** A doubtful detection that recognition left out of the hand (most likely the table's pattern);
 * shown dashed on the photo, so that the player can add it back. */
export interface LeftOutItem {
  code: string;
  box: Box;
  score: number;
}

export type SetKind = 'chow' | 'pung' | 'kong' | 'pair' | 'loose';

/** How a melded set was claimed, as typed in notation (`[123p1]`, `[999s3]`, `[3333s5]`); kept so the
 * hand the engine scores and shares says it again. */
export interface SetClaim {
  from?: ClaimedFrom;
  /** Chow: which of its three tiles, lowest first, was claimed (0..2). */
  index?: number;
  /** Kong: a melded pung promoted to a kong. */
  promoted?: boolean;
}

/** One set as the player confirmed it. */
export interface PlannedSet {
  uids: string[];
  kind: SetKind;
  /** Declared on the table: a melded chow/pung/kong, or a concealed kong. */
  declared: boolean;
  /** For kongs: declared but concealed (shown with two tiles face down). */
  concealedKong?: boolean;
  /** For a melded set: how it was claimed, when known. */
  claim?: SetClaim;
}

export interface Conditions {
  selfDrawn: boolean;
  discarder: Wind | null;
  seatWind: Wind;
  prevalentWind: Wind;
  lastOfKind: boolean;
  lastTileOfWall: boolean;
  replacementTile: boolean;
  robbingKong: boolean;
  /** Number of flowers; null means "count the flower tiles in the photo". */
  flowers: number | null;
  /*
   * Fan Pays (card 002) only; ignored under MCR. Optional so that work saved
   * before they existed still loads (see fanPaysConditions for the defaults).
   */
  /** Seat wind of the dealer. */
  dealer?: Wind;
  /** Hands the dealer has won in a row just before this one. */
  dealerStreak?: number;
  /** The winning tile came from the flower wall (self-drawn). */
  flowerWallWin?: boolean;
  /** Won on the dealer's first discard (Terrestrial Blessing). */
  firstDiscardWin?: boolean;
  /** Won on the first tile picked from the wall (Heavenly Blessing). */
  firstDrawWin?: boolean;
  /** Concealed kongs the other players declared, one seat per kong. */
  secretKongs?: Wind[];
  /** Value of one fan in payments. */
  fanValue?: number;
}

export type FanPaysConditions = Required<Pick<Conditions, 'dealer' | 'dealerStreak' | 'flowerWallWin' | 'firstDiscardWin' | 'firstDrawWin' | 'secretKongs' | 'fanValue'>>;

/** The Fan Pays fields with their defaults (card 002: dealer East, no run, one fan is worth 1). */
export const fanPaysConditions = (c: Conditions): FanPaysConditions => ({
  dealer: c.dealer ?? 'E',
  dealerStreak: c.dealerStreak ?? 0,
  flowerWallWin: c.flowerWallWin ?? false,
  firstDiscardWin: c.firstDiscardWin ?? false,
  firstDrawWin: c.firstDrawWin ?? false,
  secretKongs: c.secretKongs ?? [],
  fanValue: c.fanValue ?? 1,
});

export interface PhotoInfo {
  /** Key of the photo Blob in IndexedDB. */
  key: string;
  width: number;
  height: number;
  name: string;
}

/** The part of the work that undo/redo walks through. */
export interface Work {
  source: 'photo' | 'manual' | null;
  photo: PhotoInfo | null;
  /** Tiles in reading order. */
  tiles: TileItem[];
  /** Detections recognition left out (absent in work saved before they were kept). */
  leftOut?: LeftOutItem[];
  /** Confirmed sets; null until the player opens the Sets step. */
  sets: PlannedSet[] | null;
  winningUid: string | null;
  conditions: Conditions;
  /** Counter for new uids, so commands stay pure. */
  nextUid: number;
}

export type Step = 'capture' | 'review' | 'sets' | 'conditions' | 'result';
export const STEPS: readonly Step[] = ['capture', 'review', 'sets', 'conditions', 'result'];

export const defaultConditions = (): Conditions => ({
  selfDrawn: false,
  discarder: 'N',
  seatWind: 'E',
  prevalentWind: 'E',
  lastOfKind: false,
  lastTileOfWall: false,
  replacementTile: false,
  robbingKong: false,
  flowers: null,
});

export const emptyWork = (): Work => ({
  source: null,
  photo: null,
  tiles: [],
  sets: null,
  winningUid: null,
  conditions: defaultConditions(),
  nextUid: 1,
});

export const isFlowerCode = (code: string): boolean => /^f[1-8]$/.test(code);

/** The default winning tile: the last tile in reading order that is not in a declared set and not a flower. */
export function defaultWinning(tiles: TileItem[], sets: PlannedSet[] | null): string | null {
  const declared = new Set((sets ?? []).filter((s) => s.declared).flatMap((s) => s.uids));
  for (let i = tiles.length - 1; i >= 0; i--) {
    const t = tiles[i];
    if (!declared.has(t.uid) && !isFlowerCode(t.code) && t.code !== 'back') return t.uid;
  }
  return null;
}
