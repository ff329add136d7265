/**
 * Validation of a record and of each hand: every check throws a `SheetError` naming the hand
 * and the field, in words a player understands.
 */
import {
  PLAYER_COUNT, SHEET_RULES, SheetError, maxHands, minWinPoints, rulesOf,
  type Penalty, type SheetHand, type SheetRecord, type SheetRules, type WinHand,
} from './record.ts';
import { seatingsOf } from './seating.ts';

/** The four names, trimmed; throws for a wrong count, a blank or a repeated name. Used by edit.ts and
 * json.ts; not part of the public entry (sheet.ts). */
export function validatePlayers(players: unknown): string[] {
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
