/**
 * Who sits where: a scored hand's seat winds mapped to the sheet's players, and
 * the seats of a hand on the sheet, which the win and result screens show.
 */
import {
  playerAtSeat, rulesOf, seatingFor, seatingsOf, SheetError,
  type HandSeating, type SheetHand, type SheetRecord, type SheetRules,
} from '../../engine/sheet.ts';
import { WINDS, type Wind } from '../../engine/index.ts';

export interface ScoredHandInput {
  /** The winner's seat wind in this hand, as in WinContext.seatWind. */
  winnerSeat: Wind;
  selfDrawn: boolean;
  /** The discarder's seat wind, as in WinContext.discarder; ignored when self-drawn. */
  discarderSeat?: Wind | null;
  /** The scored total (flowers included). */
  points: number;
  /** The hand link (from share/link.ts), so the sheet can prove the hand later. */
  link?: string;
  /** The ruleset that scored the hand (ScoreResult.ruleset); it must be the table's. */
  ruleset?: string;
  /** Fan Pays: what each seat received (+) or paid (−), as the result worked it out (win and secret kongs). */
  payments?: Record<Wind, number> | null;
  /** Fan Pays: the dealer's seat and run of wins the hand was scored with. On a table the dealer
   * sits East with the sheet's run, or the payments would not be the sheet's. */
  dealer?: Wind;
  dealerRun?: number;
}

/**
 * Build the sheet hand for a scored hand: seat winds are mapped to players
 * through the seat rotation of hand `index` (0-based; the next hand on the sheet by default).
 */
export function scoredHandToSheetHand(record: SheetRecord, input: ScoredHandInput, index = record.hands.length): SheetHand {
  const rules = rulesOf(record);
  // the seats of that hand (Fan Pays: they follow the deal, which the earlier hands' winners move)
  const seating = seatingFor(record, index);
  if (input.ruleset !== undefined && input.ruleset !== rules) {
    throw new SheetError('CONFLICTING_FIELDS', `this hand was scored by ${input.ruleset === 'fan-pays' ? 'Fan Pays' : 'MCR'} rules, but the table plays ${rules === 'fan-pays' ? 'Fan Pays' : 'MCR'}`, { hand: index + 1, field: 'rules' });
  }
  if (rules === 'fan-pays' && input.dealer !== undefined && (input.dealer !== 'E' || (input.dealerRun ?? 0) !== seating.dealerRun)) {
    throw new SheetError('CONFLICTING_FIELDS', `this hand was scored with the dealer at ${input.dealer} after ${input.dealerRun ?? 0} wins in a row, but ${record.players[seating.dealer]} deals hand ${index + 1} (East) after ${seating.dealerRun}`, { hand: index + 1, field: 'dealer' });
  }
  const winner = playerAtSeat(seating, input.winnerSeat);
  let discarder: number | null = null;
  if (!input.selfDrawn) {
    if (!input.discarderSeat) {
      throw new SheetError('MISSING_FIELD', 'say who discarded the winning tile, or mark the win self-drawn', { hand: index + 1, field: 'discarder' });
    }
    discarder = playerAtSeat(seating, input.discarderSeat);
  }
  // Fan Pays: keep the result's own amounts, by player (dealer penalty and secret kongs included).
  let amounts: number[] | undefined;
  if (rules === 'fan-pays' && input.payments) {
    amounts = [0, 0, 0, 0];
    for (const w of WINDS) amounts[playerAtSeat(seating, w)] = input.payments[w];
  }
  return {
    kind: 'win',
    winner,
    selfDrawn: input.selfDrawn,
    discarder,
    points: input.points,
    source: 'scored',
    ...(input.link ? { link: input.link } : {}),
    ...(amounts ? { amounts } : {}),
    penalties: [],
  };
}

export interface NextHandInfo {
  /** 1-based number of the next hand. */
  handNumber: number;
  /** The table's ruleset. */
  rules: SheetRules;
  prevalentWind: Wind;
  /** The players by seat wind for the next hand. */
  playerBySeat: Record<Wind, string>;
  dealer: string;
  /** Fan Pays: the dealer's wins in a row before this hand (the Repeat Dealership count); 0 in MCR. */
  dealerRun: number;
}

/** Who sits where in hand `index` (0-based) of the sheet. */
export function handInfo(record: SheetRecord, index: number): NextHandInfo {
  return infoOf(record, seatingFor(record, index));
}

function infoOf(record: SheetRecord, s: HandSeating): NextHandInfo {
  const playerBySeat = {} as Record<Wind, string>;
  s.seatWinds.forEach((w, p) => { playerBySeat[w] = record.players[p]; });
  return { handNumber: s.handIndex + 1, rules: rulesOf(record), prevalentWind: s.prevalentWind, playerBySeat, dealer: record.players[s.dealer], dealerRun: s.dealerRun };
}

/** Who sits where in the next hand, or null when there is no table or the game is over. */
export function nextHandInfo(record: SheetRecord | null): NextHandInfo | null {
  const next = record ? seatingsOf(record).next : null;
  return record && next ? infoOf(record, next) : null;
}
