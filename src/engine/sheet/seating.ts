/**
 * Seat rotation (rules document 003, "PROCEDURE OF SEAT ROTATION"): who sits where in each
 * round, who deals each hand, and (Fan Pays, card 002) how the deal stays with a winning dealer.
 */
import { WINDS, type Wind } from '../tiles.ts';
import {
  HANDS_PER_ROUND, MAX_FAN_PAYS_HANDS, MAX_HANDS, PLAYER_COUNT, SheetError, maxHands, rulesOf,
  type PlayerIndex, type SheetRecord,
} from './record.ts';

export const ROUND_WINDS: readonly Wind[] = WINDS;

/**
 * Who sits at the E, S, W, N positions in each round, as player indices (003):
 * A B C D, B A D C, C D B A, D C A B.
 */
export const ROUND_SEATING: readonly (readonly PlayerIndex[])[] = Object.freeze([
  Object.freeze([0, 1, 2, 3]),
  Object.freeze([1, 0, 3, 2]),
  Object.freeze([2, 3, 1, 0]),
  Object.freeze([3, 2, 0, 1]),
]);

function checkHandIndex(handIndex: number): void {
  if (!Number.isInteger(handIndex) || handIndex < 0 || handIndex >= MAX_HANDS) {
    throw new SheetError('NO_SUCH_HAND', `there is no hand ${handIndex + 1}; a sheet has hands 1 to ${MAX_HANDS}`);
  }
}

/** 0-based round (0 = East) of a 0-based hand index. */
export function roundOf(handIndex: number): number {
  checkHandIndex(handIndex);
  return Math.floor(handIndex / HANDS_PER_ROUND);
}

/** The prevalent (round) wind of a 0-based hand index. */
export function prevalentWindOf(handIndex: number): Wind {
  return ROUND_WINDS[roundOf(handIndex)];
}

export interface HandSeating {
  handIndex: number;
  round: number;
  prevalentWind: Wind;
  /** 1..4 within the round. */
  handInRound: number;
  /** Player indices at the E, S, W, N table positions for the round (003). */
  positions: PlayerIndex[];
  /** The dealer (seat wind East) of this hand. */
  dealer: PlayerIndex;
  /** Seat wind of each player (index = player) in this hand. */
  seatWinds: Wind[];
  /** Fan Pays: the dealer's wins in a row just before this hand (Repeat Dealership); 0 in MCR. */
  dealerRun: number;
}

/**
 * Seats of a hand. The table positions come from 003 for the round; the dealer is
 * the player at position E for the round's first hand and the deal then passes
 * counter-clockwise (to position S, W, N), so seat winds turn with the dealer.
 */
export function seatingOf(handIndex: number): HandSeating {
  checkHandIndex(handIndex);
  return dealership(handIndex, handIndex, 0);
}

/** The seats of hand `handIndex` dealt in the `deal`-th dealership of the game (0..15; four a round). */
function dealership(handIndex: number, deal: number, dealerRun: number): HandSeating {
  const round = Math.floor(deal / HANDS_PER_ROUND);
  const k = deal % HANDS_PER_ROUND;
  const positions = [...ROUND_SEATING[round]];
  const seatWinds: Wind[] = new Array<Wind>(PLAYER_COUNT);
  positions.forEach((player, pos) => {
    seatWinds[player] = WINDS[(pos - k + PLAYER_COUNT) % PLAYER_COUNT];
  });
  return {
    handIndex,
    round,
    prevalentWind: ROUND_WINDS[round],
    handInRound: k + 1,
    positions,
    dealer: positions[k],
    seatWinds,
    dealerRun,
  };
}

/**
 * The seats of every hand of a record, and of the hand after them (`next`, null when the game is
 * over). MCR: hand i is dealt by the i-th dealership (seatingOf). Fan Pays (card 002): the deal
 * passes only when a player other than the dealer wins; a dealer's win adds one to their run, a
 * draw keeps the dealer and the run. Throws GAME_OVER for a hand after the game's end.
 */
export function seatingsOf(record: Pick<SheetRecord, 'hands' | 'rules'>): { seatings: HandSeating[]; next: HandSeating | null } {
  const n = record.hands.length;
  if (rulesOf(record) !== 'fan-pays') {
    if (n > MAX_HANDS) throw new SheetError('TOO_MANY_HANDS', `a sheet holds at most ${MAX_HANDS} hands, this one has ${n}`, { hand: MAX_HANDS + 1, field: 'hands' });
    return { seatings: record.hands.map((_, i) => seatingOf(i)), next: n < MAX_HANDS ? seatingOf(n) : null };
  }
  const deals = ROUND_WINDS.length * HANDS_PER_ROUND;
  const seatings: HandSeating[] = [];
  let deal = 0, run = 0;
  for (let i = 0; i < n; i++) {
    if (deal >= deals || i >= MAX_FAN_PAYS_HANDS) throw gameOver(record, i);
    const seating = dealership(i, deal, run);
    seatings.push(seating);
    const h = record.hands[i]!;
    if (h.kind === 'win') {
      if (h.winner === seating.dealer) run++;
      else { deal++; run = 0; }
    }
  }
  return { seatings, next: deal < deals && n < MAX_FAN_PAYS_HANDS ? dealership(n, deal, run) : null };
}

/** The refusal of a hand at 0-based `index` after the sheet's last: the sheet is full, or (Fan Pays)
 * the game is over. Used by edit.ts; not part of the public entry (sheet.ts). */
export function gameOver(record: Pick<SheetRecord, 'hands' | 'rules'>, index: number): SheetError {
  const rules = rulesOf(record);
  return index >= maxHands(rules)
    ? new SheetError('TOO_MANY_HANDS', `a sheet holds at most ${maxHands(rules)} hands`, { hand: index + 1, field: 'hands' })
    : new SheetError('GAME_OVER', `the game ended with hand ${index}: the deal has gone round the table four times`, { hand: index + 1, field: 'hands' });
}

/** The seats of hand `handIndex` (0-based) of a record: a hand on it, or the next one. */
export function seatingFor(record: Pick<SheetRecord, 'hands' | 'rules'>, handIndex: number): HandSeating {
  if (!Number.isInteger(handIndex) || handIndex < 0 || handIndex > record.hands.length) {
    throw new SheetError('NO_SUCH_HAND', `there is no hand ${handIndex + 1} on this sheet`, { hand: handIndex + 1 });
  }
  const { seatings, next } = seatingsOf(record);
  const s = handIndex < seatings.length ? seatings[handIndex] : next;
  if (!s) throw gameOver(record, handIndex);
  return s;
}

/** The player who has seat wind `wind` in a hand: its seats (seatingsOf, seatingFor), or the 0-based
 * index of an MCR hand (seatingOf). */
export function playerAtSeat(hand: number | HandSeating, wind: Wind): PlayerIndex {
  const { seatWinds } = typeof hand === 'number' ? seatingOf(hand) : hand;
  return seatWinds.indexOf(wind);
}
