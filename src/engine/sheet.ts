/**
 * The club score sheet: four players, up to 16 hands over four rounds.
 *
 * Pure data and pure functions, no DOM. A `SheetRecord` is what is stored; rows,
 * running totals and table points are always derived from it (`computeSheet`).
 *
 * Sources:
 * - Seat rotation: rules document 003, "PROCEDURE OF SEAT ROTATION". The players,
 *   called A B C D in East-round seat order, sit E/S/W/N as A B C D in the East
 *   round, B A D C in the South round, C D B A in the West round and D C A B in the
 *   North round. Within a round the deal passes counter-clockwise after every hand,
 *   draws included (MCR 2006: no dealer repeat), and the dealer's seat wind is East.
 * - Payments: document 004 "Rozliczenia między graczami": every loser pays 8 extra
 *   points (EP); self-drawn, each of the three also pays the winner's points (PP);
 *   on a discard only the discarder pays the PP.
 * - Table points: document 004, 4/2/1/0 for places 1 to 4. Tied players share the
 *   points of the places they tie for.
 * - Penalties: the worked example of 003 (README): a 30-point penalty shared out is
 *   10 to each other player; a penalty that is not shared is only taken off.
 * - Fan Pays tables (card 002, `rules: 'fan-pays'`): no minimum, and a win is paid
 *   per fan: self-drawn, each of the three pays the fans; on a discard only the
 *   discarder pays. A hand scored in the app keeps the result's own per-seat
 *   amounts (`amounts`), which also hold the dealer-penalty and secret-kong parts
 *   the plain rule cannot know. The table positions of each round are 003's, but the deal
 *   passes as card 002 says (Repeat Dealership: "Dealer maintains the dealership until they give
 *   MJ or another player makes MJ"): only when another player wins. The dealer keeps the deal on
 *   their own win and on a draw, so a round has four dealerships of one or more hands, and the
 *   game ends when the deal leaves the North round's last dealer (`seatingsOf`).
 *
 * This file is the sheet's public entry; the code lives in ./sheet/ by concern:
 * - record.ts      constants, the stored types, SheetError;
 * - seating.ts     seat rotation and the deal (003; card 002 for Fan Pays);
 * - payments.ts    what a hand and its penalties pay (004; card 002);
 * - points.ts      table points, places and the computed sheet (004);
 * - validation.ts  checks of a hand and of a whole record;
 * - edit.ts        the editing commands (createSheet, addHand, ...);
 * - json.ts        the game-record JSON (CLI input, app export/import);
 * - csv.ts         the CSV export and a hand in words.
 * Helpers shared only inside ./sheet/ (gameOver, validatePlayers) are not exported here.
 */
export {
  PLAYER_COUNT, MAX_HANDS, HANDS_PER_ROUND, MAX_FAN_PAYS_HANDS, maxHands, MIN_WIN_POINTS, BASE_PAYMENT,
  FAN_PAYS_MIN_FANS, SHEET_RULES, minWinPoints, TABLE_POINTS, rulesOf, SheetError, isSheetError,
} from './sheet/record.ts';
export type {
  SheetRules, PlayerIndex, HandSource, Penalty, WinHand, DrawHand, SheetHand, SheetMeta, SheetRecord, SheetErrorCode,
} from './sheet/record.ts';
export {
  ROUND_WINDS, ROUND_SEATING, roundOf, prevalentWindOf, seatingOf, seatingsOf, seatingFor, playerAtSeat,
} from './sheet/seating.ts';
export type { HandSeating } from './sheet/seating.ts';
export { handPayments, penaltyPayments } from './sheet/payments.ts';
export { tablePointsFor, tablePointsText, placesFor, computeSheet } from './sheet/points.ts';
export type { SheetRow, ComputedSheet } from './sheet/points.ts';
export { validateSheetHand, validateSheetRecord } from './sheet/validation.ts';
export { createSheet, addHand, editHand, deleteHand, renamePlayers } from './sheet/edit.ts';
export { gameRecordSchema, parseGameRecord, parseSheetJson, sheetToGameRecord, sheetToJson } from './sheet/json.ts';
export type { GameRecordJson } from './sheet/json.ts';
export { describeHand, sheetToCsv } from './sheet/csv.ts';
