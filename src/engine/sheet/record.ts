/**
 * The score sheet's record: constants, the stored types (`SheetRecord` and its hands) and the
 * typed error every sheet function throws. Pure data, no DOM.
 */
export const PLAYER_COUNT = 4;
export const MAX_HANDS = 16;
export const HANDS_PER_ROUND = 4;
/** Fan Pays: the dealer keeps the deal while they win or the hand is drawn, so a game has 16
 * dealerships of any length; a sheet holds at most this many hands. */
export const MAX_FAN_PAYS_HANDS = 64;
/** The most hands a sheet of `rules` holds. */
export const maxHands = (rules: SheetRules = 'mcr'): number => (rules === 'fan-pays' ? MAX_FAN_PAYS_HANDS : MAX_HANDS);
/** MCR minimum: a hand needs 8 points (flowers not counted) to win. */
export const MIN_WIN_POINTS = 8;
/** Document 004: each loser pays 8 extra points. */
export const BASE_PAYMENT = 8;
/** Card 002 has no minimum; a typed-in Fan Pays win needs at least one fan. */
export const FAN_PAYS_MIN_FANS = 1;
/** The ruleset a sheet is played under. */
export type SheetRules = 'mcr' | 'fan-pays';
export const SHEET_RULES: readonly SheetRules[] = ['mcr', 'fan-pays'];
/** The least points (fans in Fan Pays) a win needs under `rules`. */
export const minWinPoints = (rules: SheetRules = 'mcr'): number => (rules === 'fan-pays' ? FAN_PAYS_MIN_FANS : MIN_WIN_POINTS);
/** Document 004: table points for places 1..4. */
export const TABLE_POINTS: readonly number[] = Object.freeze([4, 2, 1, 0]);

/** 0..3: a player's position in `SheetRecord.players` (East-round seat order, A B C D). */
export type PlayerIndex = number;
export type HandSource = 'scored' | 'typed';

export interface Penalty {
  player: PlayerIndex;
  /** Points taken off the penalised player (positive). */
  points: number;
  /** Shared equally among the other three players; otherwise only taken off. */
  split: boolean;
}

export interface WinHand {
  kind: 'win';
  winner: PlayerIndex;
  selfDrawn: boolean;
  /** The player who discarded the winning tile; null when self-drawn. */
  discarder: PlayerIndex | null;
  /** The winner's total (flowers included), at least 8; in Fan Pays, the fans. */
  points: number;
  /**
   * Fan Pays only: what each player (by index) received (+) or paid (−) for this
   * hand as the scorer worked it out; they sum to 0. Without it the plain per-fan
   * rule applies.
   */
  amounts?: number[];
  /** Taken from the scorer, or typed in when the hand was scored elsewhere. */
  source: HandSource;
  /** A verifiable hand link (share fragment) for a scored hand. */
  link?: string;
  penalties: Penalty[];
}

export interface DrawHand {
  kind: 'draw';
  penalties: Penalty[];
}

export type SheetHand = WinHand | DrawHand;

/** The header fields of the 003 sheet. */
export interface SheetMeta {
  tournament?: string;
  date?: string;
  session?: string;
  table?: string;
}

export interface SheetRecord {
  /** Names in East-round seat order (players A B C D of 003). */
  players: string[];
  hands: SheetHand[];
  meta: SheetMeta;
  /** The ruleset of the table; MCR when absent. */
  rules?: SheetRules;
}

export const rulesOf = (record: Pick<SheetRecord, 'rules'>): SheetRules => record.rules ?? 'mcr';

export type SheetErrorCode =
  | 'MALFORMED_RECORD'
  | 'WRONG_PLAYER_COUNT'
  | 'INVALID_PLAYER_NAME'
  | 'DUPLICATE_PLAYER'
  | 'UNKNOWN_PLAYER'
  | 'MISSING_FIELD'
  | 'CONFLICTING_FIELDS'
  | 'WINNER_IS_DISCARDER'
  | 'INVALID_POINTS'
  | 'POINTS_BELOW_MINIMUM'
  | 'INVALID_PENALTY'
  | 'TOO_MANY_HANDS'
  /** Fan Pays: a hand after the deal has gone round the table four times (field "edit": an edit
   * or deletion would end the game before the hands after it). */
  | 'GAME_OVER'
  /** Fan Pays: an edit or deletion would give a hand scored in the app another dealer. */
  | 'DEAL_MOVED'
  | 'NO_SUCH_HAND';

/**
 * A problem with a score sheet. `hand` is 1-based (as on the paper sheet) or null
 * for the record as a whole; `field` names the offending field, e.g. `discarder`
 * or `penalties[0].player`.
 */
export class SheetError extends Error {
  readonly code: SheetErrorCode;
  readonly hand: number | null;
  readonly field: string | null;
  /** The message without the hand/field prefix. */
  readonly detail: string;
  constructor(code: SheetErrorCode, detail: string, where: { hand?: number | null; field?: string | null } = {}) {
    const hand = where.hand ?? null;
    const field = where.field ?? null;
    const at = [hand !== null ? `hand ${hand}` : null, field !== null ? `field "${field}"` : null].filter(Boolean).join(', ');
    super(at ? `${at}: ${detail}` : detail);
    this.name = 'SheetError';
    this.code = code;
    this.hand = hand;
    this.field = field;
    this.detail = detail;
  }
}

export const isSheetError = (e: unknown): e is SheetError => e instanceof SheetError;
