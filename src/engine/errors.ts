/**
 * Typed errors. Every problem with the player's input is a MahjongError with a
 * code a program can switch on and a message a player understands.
 */
export type ErrorCode =
  | 'MALFORMED_NOTATION'
  | 'TOO_MANY_COPIES'
  | 'WRONG_TILE_COUNT'
  | 'HONOR_CHOW'
  | 'INVALID_MELD'
  | 'TOO_MANY_MELDS'
  | 'CONTRADICTORY_CONDITIONS'
  | 'INVALID_CONTEXT'
  | 'NOT_WIN'
  | 'BELOW_MINIMUM';

export class MahjongError extends Error {
  readonly code: ErrorCode;
  /** For notation errors: 0-based index of the offending character in the input string. */
  readonly position?: number;
  constructor(code: ErrorCode, message: string, position?: number) {
    super(message);
    this.name = 'MahjongError';
    this.code = code;
    if (position !== undefined) this.position = position;
  }
}

export const isMahjongError = (e: unknown): e is MahjongError => e instanceof MahjongError;
