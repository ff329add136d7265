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
 */
import * as z from 'zod/mini';
import { WINDS, type Wind } from './tiles.ts';

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

// ---------------------------------------------------------------------------
// Seat rotation (003)

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
 * the game is over. */
function gameOver(record: Pick<SheetRecord, 'hands' | 'rules'>, index: number): SheetError {
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

// ---------------------------------------------------------------------------
// Payments, penalties, table points (004)

/** What each player receives (+) or pays (−) for the hand itself, penalties apart. */
export function handPayments(hand: SheetHand, rules: SheetRules = 'mcr'): number[] {
  const out = [0, 0, 0, 0];
  if (hand.kind === 'draw') return out;
  const { winner, points } = hand;
  if (rules === 'fan-pays') {
    if (hand.amounts) return [...hand.amounts];
    // Card 002: "Self-drawn MJ tile; all players pay"; on a discard the discarder pays.
    for (let p = 0; p < PLAYER_COUNT; p++) {
      if (p === winner || (!hand.selfDrawn && p !== hand.discarder)) continue;
      out[p] -= points;
      out[winner] += points;
    }
    return out;
  }
  for (let p = 0; p < PLAYER_COUNT; p++) {
    if (p === winner) continue;
    // 004: self-drawn, every loser pays EP + PP; on a discard the discarder pays
    // EP + PP and the other two pay EP only.
    const pays = hand.selfDrawn || p === hand.discarder ? BASE_PAYMENT + points : BASE_PAYMENT;
    out[p] -= pays;
    out[winner] += pays;
  }
  return out;
}

/** Score changes from a hand's penalties. */
export function penaltyPayments(penalties: readonly Penalty[]): number[] {
  const out = [0, 0, 0, 0];
  for (const pen of penalties) {
    out[pen.player] -= pen.points;
    if (pen.split) {
      const share = pen.points / (PLAYER_COUNT - 1);
      for (let p = 0; p < PLAYER_COUNT; p++) if (p !== pen.player) out[p] += share;
    }
  }
  return out;
}

/**
 * Table points for final totals (004: 4/2/1/0). Players with equal totals share
 * the points of the places they occupy together: two tied for first get
 * (4 + 2) / 2 = 3 each.
 */
export function tablePointsFor(totals: readonly number[]): number[] {
  const order = totals.map((t, i) => ({ t, i })).sort((a, b) => b.t - a.t);
  const out = new Array<number>(totals.length).fill(0);
  let place = 0;
  while (place < order.length) {
    let end = place;
    while (end + 1 < order.length && order[end + 1].t === order[place].t) end++;
    let sum = 0;
    for (let q = place; q <= end; q++) sum += TABLE_POINTS[q] ?? 0;
    const share = sum / (end - place + 1);
    for (let q = place; q <= end; q++) out[order[q].i] = share;
    place = end + 1;
  }
  return out;
}

/** Table points as printed: shared places give thirds and quarters (7/3 = 2.33, 1.75), shown to
 * two decimals at most; whole numbers as they are. */
export function tablePointsText(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0+$/, '');
}

/** 1-based places for totals; tied players share the better place. */
export function placesFor(totals: readonly number[]): number[] {
  return totals.map((t) => 1 + totals.filter((u) => u > t).length);
}

export interface SheetRow {
  /** 0-based hand index. */
  index: number;
  seating: HandSeating;
  hand: SheetHand;
  /** Score changes from penalties in this hand. */
  penalties: number[];
  /** Score changes from the hand's payments. */
  payments: number[];
  /** penalties + payments. */
  delta: number[];
  /** Running totals after this hand. */
  running: number[];
}

export interface ComputedSheet {
  rows: SheetRow[];
  totals: number[];
  tablePoints: number[];
  places: number[];
  /** True when the game is over: all 16 hands are on the sheet (MCR), or the deal has gone round
   * the table four times (Fan Pays). */
  complete: boolean;
  /** 0-based index of the next hand, or null when the sheet is full. */
  nextHand: number | null;
  /** The seats of the next hand (seatingsOf), or null when the game is over. */
  next: HandSeating | null;
}

/** Validate a record and derive every row, the running totals and the table points. */
export function computeSheet(record: SheetRecord): ComputedSheet {
  validateSheetRecord(record);
  const rules = rulesOf(record);
  const { seatings, next } = seatingsOf(record);
  const running = [0, 0, 0, 0];
  const rows: SheetRow[] = record.hands.map((hand, index) => {
    const penalties = penaltyPayments(hand.penalties);
    const payments = handPayments(hand, rules);
    const delta = penalties.map((v, p) => v + payments[p]);
    delta.forEach((d, p) => { running[p] += d; });
    return { index, seating: seatings[index]!, hand, penalties, payments, delta, running: [...running] };
  });
  const totals = [...running];
  return {
    rows,
    totals,
    tablePoints: tablePointsFor(totals),
    places: placesFor(totals),
    complete: next === null,
    nextHand: next ? record.hands.length : null,
    next,
  };
}

// ---------------------------------------------------------------------------
// Validation

function validatePlayers(players: unknown): string[] {
  if (!Array.isArray(players) || players.length !== PLAYER_COUNT) {
    throw new SheetError('WRONG_PLAYER_COUNT', `a table needs exactly ${PLAYER_COUNT} players`, { field: 'players' });
  }
  const names = players.map((p, i) => {
    if (typeof p !== 'string' || p.trim() === '') {
      throw new SheetError('INVALID_PLAYER_NAME', `player ${i + 1} needs a name`, { field: `players[${i}]` });
    }
    return p.trim();
  });
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i) {
      throw new SheetError('DUPLICATE_PLAYER', `two players are called "${n}"`, { field: `players[${i}]` });
    }
  });
  return names;
}

const isPlayerIndex = (p: unknown): p is number => Number.isInteger(p) && (p as number) >= 0 && (p as number) < PLAYER_COUNT;

function validatePenalty(pen: Penalty, hand: number, field: string): void {
  if (!isPlayerIndex(pen.player)) {
    throw new SheetError('UNKNOWN_PLAYER', `no player ${String(pen.player)} at this table`, { hand, field: `${field}.player` });
  }
  if (!Number.isInteger(pen.points) || pen.points <= 0) {
    throw new SheetError('INVALID_PENALTY', 'a penalty is a whole number of points above 0', { hand, field: `${field}.points` });
  }
  if (pen.split && pen.points % (PLAYER_COUNT - 1) !== 0) {
    throw new SheetError('INVALID_PENALTY', `a penalty shared among the other three must divide by 3 (${pen.points} does not)`, { hand, field: `${field}.points` });
  }
}

/** Check one hand; `index` is 0-based. Throws SheetError. */
export function validateSheetHand(hand: SheetHand, index: number, rules: SheetRules = 'mcr'): void {
  const n = index + 1;
  if (index >= maxHands(rules)) {
    throw new SheetError('TOO_MANY_HANDS', `a sheet holds at most ${maxHands(rules)} hands`, { hand: n, field: 'hands' });
  }
  hand.penalties.forEach((pen, i) => validatePenalty(pen, n, `penalties[${i}]`));
  if (hand.kind === 'draw') return;
  if (!isPlayerIndex(hand.winner)) {
    throw new SheetError('UNKNOWN_PLAYER', `no player ${String(hand.winner)} at this table`, { hand: n, field: 'winner' });
  }
  if (hand.selfDrawn) {
    if (hand.discarder !== null) {
      throw new SheetError('CONFLICTING_FIELDS', 'a self-drawn win has no discarder', { hand: n, field: 'discarder' });
    }
  } else {
    if (hand.discarder === null) {
      throw new SheetError('MISSING_FIELD', 'say who discarded the winning tile, or mark the win self-drawn', { hand: n, field: 'discarder' });
    }
    if (!isPlayerIndex(hand.discarder)) {
      throw new SheetError('UNKNOWN_PLAYER', `no player ${String(hand.discarder)} at this table`, { hand: n, field: 'discarder' });
    }
    if (hand.discarder === hand.winner) {
      throw new SheetError('WINNER_IS_DISCARDER', 'the winner cannot also be the discarder', { hand: n, field: 'discarder' });
    }
  }
  if (!Number.isInteger(hand.points)) {
    throw new SheetError('INVALID_POINTS', 'points must be a whole number', { hand: n, field: 'points' });
  }
  const min = minWinPoints(rules);
  if (hand.points < min) {
    throw new SheetError('POINTS_BELOW_MINIMUM', rules === 'fan-pays'
      ? `a Fan Pays win needs at least ${min} fan (got ${hand.points})`
      : `a win needs at least ${min} points (got ${hand.points})`, { hand: n, field: 'points' });
  }
  if (hand.amounts !== undefined) validateAmounts(hand, n, rules);
}

function validateAmounts(hand: WinHand, n: number, rules: SheetRules): void {
  const a = hand.amounts!;
  if (rules !== 'fan-pays') {
    throw new SheetError('CONFLICTING_FIELDS', 'per-player amounts are kept only for Fan Pays tables; MCR payments follow from the points', { hand: n, field: 'amounts' });
  }
  if (!Array.isArray(a) || a.length !== PLAYER_COUNT || a.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
    throw new SheetError('MALFORMED_RECORD', `amounts must list ${PLAYER_COUNT} numbers, one per player`, { hand: n, field: 'amounts' });
  }
  // Every payment goes from one player to another, so the amounts balance.
  if (Math.abs(a.reduce((x, y) => x + y, 0)) > 1e-9) {
    throw new SheetError('MALFORMED_RECORD', `the amounts must add up to 0 (they add up to ${a.reduce((x, y) => x + y, 0)})`, { hand: n, field: 'amounts' });
  }
  if (a[hand.winner] <= 0) {
    throw new SheetError('MALFORMED_RECORD', 'the winner must receive a payment', { hand: n, field: 'amounts' });
  }
}

/** Check a whole record. Throws the first SheetError found. */
export function validateSheetRecord(record: SheetRecord): void {
  validatePlayers(record.players);
  if (record.rules !== undefined && !SHEET_RULES.includes(record.rules)) {
    throw new SheetError('MALFORMED_RECORD', `unknown ruleset "${String(record.rules)}" (known: ${SHEET_RULES.join(', ')})`, { field: 'rules' });
  }
  const rules = rulesOf(record);
  if (record.hands.length > maxHands(rules)) {
    throw new SheetError('TOO_MANY_HANDS', `a sheet holds at most ${maxHands(rules)} hands, this one has ${record.hands.length}`, { hand: maxHands(rules) + 1, field: 'hands' });
  }
  record.hands.forEach((h, i) => validateSheetHand(h, i, rules));
  // the hands are each valid; then the deal (Fan Pays: no hand after the game's end)
  seatingsOf(record);
}

// ---------------------------------------------------------------------------
// Editing: every command returns a new record and leaves its input untouched.

export function createSheet(players: readonly string[], meta: SheetMeta = {}, rules: SheetRules = 'mcr'): SheetRecord {
  const names = validatePlayers([...players]);
  if (!SHEET_RULES.includes(rules)) throw new SheetError('MALFORMED_RECORD', `unknown ruleset "${String(rules)}"`, { field: 'rules' });
  const record: SheetRecord = { players: names, hands: [], meta: { ...meta } };
  // MCR records stay exactly as before (no `rules` key).
  if (rules !== 'mcr') record.rules = rules;
  return record;
}

export function addHand(record: SheetRecord, hand: SheetHand): SheetRecord {
  const index = record.hands.length;
  const rules = rulesOf(record);
  if (index >= maxHands(rules)) {
    throw new SheetError('TOO_MANY_HANDS', `a sheet holds at most ${maxHands(rules)} hands`, { hand: index + 1, field: 'hands' });
  }
  if (!seatingsOf(record).next) throw gameOver(record, index);
  validateSheetHand(hand, index, rules);
  return { ...record, hands: [...record.hands, hand] };
}

/** Replace the hand at 0-based `index`. */
export function editHand(record: SheetRecord, index: number, hand: SheetHand): SheetRecord {
  if (!Number.isInteger(index) || index < 0 || index >= record.hands.length) {
    throw new SheetError('NO_SUCH_HAND', `there is no hand ${index + 1} on this sheet`, { hand: index + 1 });
  }
  validateSheetHand(hand, index, rulesOf(record));
  const hands = [...record.hands];
  hands[index] = hand;
  const out = { ...record, hands };
  checkDealKept(record, out, index + 1, 0);
  return out;
}

/** Remove the hand at 0-based `index`; the hands after it move up one place (and so change seats). */
export function deleteHand(record: SheetRecord, index: number): SheetRecord {
  if (!Number.isInteger(index) || index < 0 || index >= record.hands.length) {
    throw new SheetError('NO_SUCH_HAND', `there is no hand ${index + 1} on this sheet`, { hand: index + 1 });
  }
  const out = { ...record, hands: record.hands.filter((_, i) => i !== index) };
  checkDealKept(record, out, index, 1);
  return out;
}

/**
 * Fan Pays: a change to hand `from - 1` (edit) or its removal moves the deal for the hands after
 * it when a dealer's win or a draw becomes another player's win, or the other way round. The
 * change is refused when a later hand would then come after the game's end (GAME_OVER, field
 * "edit"), or when a later hand scored in the app (its `amounts` hold the dealer's payments)
 * would get another dealer or run (DEAL_MOVED). `shift`: later hand i of `after` is hand i +
 * shift of `before`.
 */
function checkDealKept(before: SheetRecord, after: SheetRecord, from: number, shift: number): void {
  if (rulesOf(after) !== 'fan-pays') return;
  const was = seatingsOf(before).seatings;
  let now: HandSeating[];
  try {
    now = seatingsOf(after).seatings;
  } catch (e) {
    if (!(e instanceof SheetError) || e.code !== 'GAME_OVER' || e.hand === null) throw e;
    const end = e.hand - 1;
    throw new SheetError('GAME_OVER', `this change would end the game with hand ${end}, before the hands after it: delete those first`, { hand: end + 1, field: 'edit' });
  }
  for (let i = from; i < after.hands.length; i++) {
    const h = after.hands[i]!, a = was[i + shift]!, b = now[i]!;
    if (h.kind !== 'win' || h.amounts === undefined) continue;
    if (a.dealer !== b.dealer || a.dealerRun !== b.dealerRun || a.round !== b.round) {
      const P = after.players;
      throw new SheetError('DEAL_MOVED', `hand ${i + 1} was scored with ${P[a.dealer]} dealing (run ${a.dealerRun}); after this change ${P[b.dealer]} would deal it (run ${b.dealerRun}): delete hand ${i + 1} and the hands after it first, then score them again`, { hand: i + 1, field: 'dealer' });
    }
  }
}

export function renamePlayers(record: SheetRecord, players: readonly string[]): SheetRecord {
  return { ...record, players: validatePlayers([...players]) };
}

// ---------------------------------------------------------------------------
// The game-record JSON: the CLI input and the app's export/import format.
//
// {"players": [4 names in East-round seat order],
//  "hands": [{"winner", "discarder" | "self_drawn": true, "points", "penalties": [...]}
//            | {"draw": true, "penalties": [...]}]}
// Players are named, not numbered, so a file reads like the paper sheet.

const penaltyJson = z.object({
  player: z.string(),
  points: z.number(),
  split: z.boolean(),
});

const handJson = z.object({
  draw: z.optional(z.boolean()),
  winner: z.optional(z.string()),
  discarder: z.optional(z.nullable(z.string())),
  self_drawn: z.optional(z.boolean()),
  points: z.optional(z.number()),
  source: z.optional(z.enum(['scored', 'typed'])),
  link: z.optional(z.string()),
  amounts: z.optional(z.array(z.number())),
  penalties: z.optional(z.array(penaltyJson)),
});

const metaJson = z.object({
  tournament: z.optional(z.string()),
  date: z.optional(z.string()),
  session: z.optional(z.string()),
  table: z.optional(z.string()),
});

/** Zod schema of the game-record JSON (shape only; `parseGameRecord` checks the meaning). */
export const gameRecordSchema = z.object({
  format: z.optional(z.literal('mahjong-score-sheet')),
  version: z.optional(z.literal(1)),
  rules: z.optional(z.enum(['mcr', 'fan-pays'])),
  players: z.array(z.string()),
  meta: z.optional(metaJson),
  hands: z.array(handJson),
});

export type GameRecordJson = z.infer<typeof gameRecordSchema>;
type HandJson = z.infer<typeof handJson>;

function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'string' ? 'text' : `a ${typeof v}`;
}

/** What a zod issue expected, in words (zod/mini carries no message texts). */
function issueMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type': return `expected ${issue.expected === 'array' ? 'a list' : issue.expected}`;
    case 'invalid_value': return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default: return issue.code.replace(/_/g, ' ');
  }
}

/** Turn the first zod issue into a SheetError naming the hand and the field. */
function zodToSheetError(error: z.core.$ZodError, input: unknown): SheetError {
  const issue = error.issues[0];
  const path = issue.path;
  let value: unknown = input;
  for (const key of path) value = value != null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  const missing = value === undefined;
  const detail = missing ? 'this field is missing' : `unexpected value (${describeType(value)}): ${issueMessage(issue)}`;
  if (path[0] === 'hands' && typeof path[1] === 'number') {
    return new SheetError(missing ? 'MISSING_FIELD' : 'MALFORMED_RECORD', detail, { hand: path[1] + 1, field: fieldPath(path.slice(2)) || 'hands' });
  }
  return new SheetError(missing ? 'MISSING_FIELD' : 'MALFORMED_RECORD', detail, { field: fieldPath(path) || null });
}

function handFromJson(h: HandJson, index: number, players: string[]): SheetHand {
  const n = index + 1;
  const who = (name: string, field: string): PlayerIndex => {
    const p = players.indexOf(name.trim());
    if (p < 0) throw new SheetError('UNKNOWN_PLAYER', `"${name}" is not one of the players (${players.join(', ')})`, { hand: n, field });
    return p;
  };
  const penalties: Penalty[] = (h.penalties ?? []).map((pen, i) => ({
    player: who(pen.player, `penalties[${i}].player`),
    points: pen.points,
    split: pen.split,
  }));
  if (h.draw === true) {
    for (const f of ['winner', 'discarder', 'self_drawn', 'points'] as const) {
      if (h[f] !== undefined && h[f] !== null) {
        throw new SheetError('CONFLICTING_FIELDS', `a draw has no ${f.replace('_', '-')}`, { hand: n, field: f });
      }
    }
    return { kind: 'draw', penalties };
  }
  if (h.winner === undefined) {
    throw new SheetError('MISSING_FIELD', 'a hand needs a "winner" (or "draw": true)', { hand: n, field: 'winner' });
  }
  const winner = who(h.winner, 'winner');
  const selfDrawn = h.self_drawn === true;
  let discarder: PlayerIndex | null = null;
  if (selfDrawn) {
    if (h.discarder !== undefined && h.discarder !== null) {
      throw new SheetError('CONFLICTING_FIELDS', 'a self-drawn win has no discarder', { hand: n, field: 'discarder' });
    }
  } else {
    if (h.discarder === undefined || h.discarder === null) {
      throw new SheetError('MISSING_FIELD', 'say who discarded the winning tile, or set "self_drawn": true', { hand: n, field: 'discarder' });
    }
    discarder = who(h.discarder, 'discarder');
  }
  if (h.points === undefined) {
    throw new SheetError('MISSING_FIELD', 'a win needs its "points"', { hand: n, field: 'points' });
  }
  const hand: WinHand = {
    kind: 'win',
    winner,
    selfDrawn,
    discarder,
    points: h.points,
    source: h.source ?? 'typed',
    penalties,
  };
  if (h.link !== undefined) hand.link = h.link;
  if (h.amounts !== undefined) hand.amounts = [...h.amounts];
  return hand;
}

/** Read a game record (parsed JSON) into a validated SheetRecord. Throws SheetError. */
export function parseGameRecord(input: unknown): SheetRecord {
  const parsed = gameRecordSchema.safeParse(input);
  if (!parsed.success) throw zodToSheetError(parsed.error, input);
  const json = parsed.data;
  const players = validatePlayers(json.players);
  const most = maxHands(json.rules === 'fan-pays' ? 'fan-pays' : 'mcr');
  if (json.hands.length > most) {
    throw new SheetError('TOO_MANY_HANDS', `a sheet holds at most ${most} hands, this one has ${json.hands.length}`, { hand: most + 1, field: 'hands' });
  }
  const hands = json.hands.map((h, i) => handFromJson(h, i, players));
  const meta: SheetMeta = {};
  for (const k of ['tournament', 'date', 'session', 'table'] as const) {
    const v = json.meta?.[k];
    if (v !== undefined) meta[k] = v;
  }
  const record: SheetRecord = { players, hands, meta };
  if (json.rules === 'fan-pays') record.rules = json.rules;
  validateSheetRecord(record);
  return record;
}

/** Parse game-record JSON text. Throws SheetError (also for text that is not JSON). */
export function parseSheetJson(text: string): SheetRecord {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SheetError('MALFORMED_RECORD', `not valid JSON (${(e as Error).message})`);
  }
  return parseGameRecord(data);
}

/** The record as game-record JSON (the CLI reads it; `parseSheetJson` reads it back). */
export function sheetToGameRecord(record: SheetRecord): GameRecordJson {
  const name = (p: PlayerIndex): string => record.players[p];
  const penalties = (ps: Penalty[]) => ps.map((pen) => ({ player: name(pen.player), points: pen.points, split: pen.split }));
  return {
    format: 'mahjong-score-sheet',
    version: 1,
    ...(record.rules && record.rules !== 'mcr' ? { rules: record.rules } : {}),
    players: [...record.players],
    meta: { ...record.meta },
    hands: record.hands.map((h): HandJson => {
      if (h.kind === 'draw') return { draw: true, penalties: penalties(h.penalties) };
      const out: HandJson = { winner: name(h.winner) };
      if (h.selfDrawn) out.self_drawn = true;
      else out.discarder = name(h.discarder as PlayerIndex);
      out.points = h.points;
      out.source = h.source;
      if (h.link !== undefined) out.link = h.link;
      if (h.amounts !== undefined) out.amounts = [...h.amounts];
      out.penalties = penalties(h.penalties);
      return out;
    }),
  };
}

export function sheetToJson(record: SheetRecord): string {
  return `${JSON.stringify(sheetToGameRecord(record), null, 2)}\n`;
}

// ---------------------------------------------------------------------------
// CSV

function csvCell(v: string | number): string {
  if (typeof v === 'number') return String(v);
  // A text cell starting with = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A short description of a hand, e.g. "Anders wins 22 on Dorte's discard". */
export function describeHand(record: SheetRecord, hand: SheetHand): string {
  const name = (p: PlayerIndex) => record.players[p];
  const parts: string[] = hand.penalties.map((pen) =>
    `${name(pen.player)} penalty ${pen.points}${pen.split ? ' (shared)' : ''}`);
  const won = hand.kind === 'win' ? `${hand.points}${rulesOf(record) === 'fan-pays' ? ' fans' : ''}` : '';
  if (hand.kind === 'draw') parts.push('draw');
  else if (hand.selfDrawn) parts.push(`${name(hand.winner)} wins ${won} self-drawn`);
  else parts.push(`${name(hand.winner)} wins ${won} on ${name(hand.discarder as PlayerIndex)}'s discard`);
  return parts.join('; ');
}

/** One line per hand with its changes and running totals, then totals and table points. */
export function sheetToCsv(record: SheetRecord): string {
  const sheet = computeSheet(record);
  const P = record.players;
  const header = [
    'hand', 'round', 'dealer', 'result', 'winner', 'discarder', 'self_drawn', rulesOf(record) === 'fan-pays' ? 'fans' : 'points', 'source', 'penalties',
    ...P.map((p) => `${p} change`), ...P.map((p) => `${p} total`), 'link',
  ];
  const lines: (string | number)[][] = [header];
  for (const row of sheet.rows) {
    const h = row.hand;
    const pens = h.penalties.map((pen) => `${P[pen.player]} ${pen.points}${pen.split ? ' shared' : ''}`).join('; ');
    lines.push([
      row.index + 1,
      `${row.seating.prevalentWind}${row.seating.handInRound}`,
      P[row.seating.dealer],
      h.kind,
      h.kind === 'win' ? P[h.winner] : '',
      h.kind === 'win' && h.discarder !== null ? P[h.discarder] : '',
      h.kind === 'win' ? (h.selfDrawn ? 'yes' : 'no') : '',
      h.kind === 'win' ? h.points : '',
      h.kind === 'win' ? h.source : '',
      pens,
      ...row.delta,
      ...row.running,
      h.kind === 'win' ? h.link ?? '' : '',
    ]);
  }
  const blank = (n: number) => new Array<string>(n).fill('');
  lines.push(['total', ...blank(9), ...blank(4), ...sheet.totals, '']);
  lines.push(['table points', ...blank(9), ...blank(4), ...sheet.tablePoints.map(tablePointsText), '']);
  return lines.map((l) => l.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
