import type { ErrorCode } from './errors.ts';
import type { TileId, Wind } from './tiles.ts';

export interface FanNames { en: string; zh: string; pl: string; sv: string }

/** A fan that counts toward the total. */
export interface CountedFan {
  /** MCR fan number 1..81 (Chinese official numbering), or the ruleset's own entry id. */
  id: number;
  names: FanNames;
  /** Points for one occurrence. */
  points: number;
  count: number;
}

/** Why a fan that the hand shows was not counted. */
export type NotCountedReason =
  | { kind: 'excluded'; byFan: number; citation: string }
  | { kind: 'account-once'; citation: string }
  | { kind: 'wait-not-unique'; citation: string }
  | { kind: 'lower-alternative'; citation: string };

export interface NotCountedFan {
  id: number;
  names: FanNames;
  points: number;
  reason: NotCountedReason;
  /** How many occurrences were not counted (for combination fans; 1 otherwise). */
  count?: number;
  /** One sentence for the player, in English (the UI translates by reason kind + fan ids). */
  message: string;
}

/** One group of tiles in a decomposition, as the scorer saw it. */
export interface ScoredSet {
  kind: 'chow' | 'pung' | 'kong' | 'pair' | 'knitted' | 'single';
  /** Lowest tile of a chow; the tile of a pung/kong/pair/single; for `knitted` the first of its three tiles. */
  tile: TileId;
  /** For `knitted`: its three tiles. */
  tiles?: TileId[];
  concealed: boolean;
  /** Declared before the win (a meld on the table). */
  declared: boolean;
}

export type DecompositionKind =
  | 'standard'
  | 'seven-pairs'
  | 'thirteen-orphans'
  | 'honors-knitted'
  | 'knitted-straight'
  | 'all-pairs-pung'; // Fan Pays: 7 pairs and a pung

export interface Decomposition {
  kind: DecompositionKind;
  sets: ScoredSet[];
}

export interface ScoreError { code: ErrorCode; message: string }

export type Payments = Record<Wind, number>;

export interface ScoreResult {
  ruleset: string;
  validWin: boolean;
  error: ScoreError | null;
  /** Total including flowers. */
  total: number;
  totalWithoutFlowers: number;
  /** The minimum the hand needed (8 in MCR), flowers not counted toward it. */
  minimum: number;
  fans: CountedFan[];
  notCounted: NotCountedFan[];
  decomposition: Decomposition | null;
  /** What each seat receives (+) or pays (−); null when the hand is not a valid win. */
  payments: Payments | null;
  /** All waiting tiles of the hand before its winning tile (for the wait fans). */
  waits: TileId[];
}
